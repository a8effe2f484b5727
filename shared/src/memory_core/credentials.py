"""Likely credentials in memory text: find them by kind and line, mask them (T-5, T-6, I-8).

Memory is readable by every project member who can reach the agent, so a credential must never
be in it. A finding needs a *value* that looks like a credential, not a word, an expression, a
type, a placeholder or an elided example (:mod:`memory_core.credential_values`):

- well-known token shapes (AWS, GitHub, GitLab, Slack, OpenAI-style ``sk-…``, Google API keys
  and OAuth tokens, Stripe, npm, PyPI, Hugging Face, SendGrid, DigitalOcean, Shopify, Postman,
  Linear, Telegram bots, JWTs) whose random part really is random (``AKIAXXXXXXXXXXXXXXXX`` and the
  documented ``…EXAMPLE`` keys are placeholders);
- private-key blocks, bearer tokens and passwords inside URLs;
- values given to a key that names a credential (:mod:`memory_core.credential_keys`), in the
  forms people write them: assignments in YAML, JSON, shell and ``.env`` (``DB_PASS=…``,
  ``pw: …``, ``password: `…` ``, ``"apiKey": "…"``, ``SSHPASS='200152'``), XML elements
  (``<password>…</password>``), prose in the note's language (``root pw `…` ``, ``the NAS
  password is …``, ``Passwort: …``, ``пароль от роутера: …``, ``密码：…``), Markdown tables (a
  ``| password | … |`` row, or a column headed ``Password``) and command lines (``mysql -p…``,
  ``sshpass -p …``, ``docker login -p …``, ``redis-cli -a …``, ``curl -u user:…``).

Precision and recall are measured on the labelled set in ``tests/data/credentials/`` (T-6, both
at least 95%). A finding names the kind and the line, never the secret itself; a line without
one is returned unchanged, byte for byte (I-8).

Speed: Session start masks every injected index line, so lines are first screened with plain
substring tests on the lower-cased text (C-speed ``in``), and only the detectors whose literal
hint occurs in a line run their regular expression on it.

>>> find_secrets("fine\\nAWS key AKIAQWERTYUIOPASDFGH here")
[('aws-access-key', 2)]
>>> mask_secrets("export GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
'export GITHUB_TOKEN=[masked: github-token]'
>>> mask_secrets("w_token = torch.autograd.grad(loss, x)")
'w_token = torch.autograd.grad(loss, x)'
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from memory_core.credential_keys import PHRASE_HINTS, credential_key_kind, phrases
from memory_core.credential_values import is_placeholder, looks_random, looks_secret
from memory_core.markdown import blank_code_spans

__all__ = [
    "ScanState",
    "find_secrets",
    "find_secrets_in_lines",
    "mask_secret_lines",
    "mask_secrets",
]

Span = tuple[str, int, int]

# (kind, lower-case literals one of which the line must hold, pattern). A named group "secret"
# marks the part to mask, else the whole match; a group "body" is the part that must be random.
_TOKEN_DETECTORS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (kind, hints, re.compile(pattern))
    for kind, hints, pattern in (
        (
            "aws-access-key",
            ("akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa"),
            r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)(?P<body>[0-9A-Z]{16})\b",
        ),
        (
            "github-token",
            ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
            r"\b(?:gh[pousr]_(?P<body>[A-Za-z0-9]{36,255})|github_pat_[A-Za-z0-9_]{22,255})\b",
        ),
        (
            "gitlab-token",
            ("glpat-", "glptt-", "gldt-", "glrt-", "glsoat-"),
            r"\bgl(?:pat|ptt|dt|rt|soat)-(?P<body>[A-Za-z0-9_-]{20,})",
        ),
        (
            "slack-token",
            ("xox", "xapp-"),
            r"\b(?:xox[abposr]|xapp)-(?P<body>[A-Za-z0-9-]{10,})",
        ),
        (
            "slack-webhook",
            ("hooks.slack.com",),
            r"https://hooks\.slack\.com/services/(?P<body>[A-Za-z0-9/_-]{20,})",
        ),
        (
            "openai-style-key",
            ("sk-",),
            r"\bsk-(?:[a-z0-9]{2,12}-){0,2}(?P<body>[A-Za-z0-9_-]{20,})",
        ),
        ("google-api-key", ("aiza",), r"\bAIza(?P<body>[0-9A-Za-z_-]{35})\b"),
        (
            "stripe-key",
            ("_live_", "_test_"),
            r"\b(?:sk|rk|pk)_(?:live|test)_(?P<body>[0-9A-Za-z]{16,})\b",
        ),
        ("npm-token", ("npm_",), r"\bnpm_(?P<body>[A-Za-z0-9]{36})\b"),
        ("pypi-token", ("pypi-ag",), r"\bpypi-AgEIcHlwaS5vcmc(?P<body>[A-Za-z0-9_-]{50,})"),
        (
            "sendgrid-key",
            ("sg.",),
            r"\bSG\.(?P<body>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])",
        ),
        (
            "digitalocean-token",
            ("dop_v1_", "doo_v1_", "dor_v1_"),
            r"\bdo[por]_v1_(?P<body>[a-f0-9]{64})\b",
        ),
        (
            "shopify-token",
            ("shpat_", "shpss_", "shpca_", "shppa_"),
            r"\bshp(?:at|ss|ca|pa)_(?P<body>[a-fA-F0-9]{32})\b",
        ),
        ("postman-key", ("pmak-",), r"\bPMAK-(?P<body>[a-f0-9]{24}-[a-f0-9]{34})\b"),
        ("linear-key", ("lin_api_",), r"\blin_api_(?P<body>[A-Za-z0-9]{40})\b"),
        ("google-oauth-token", ("ya29.",), r"\bya29\.(?P<body>[0-9A-Za-z_-]{30,})"),
        ("telegram-bot-token", (":aa",), r"\b\d{8,10}:(?P<body>AA[0-9A-Za-z_-]{32,33})(?![\w-])"),
        ("huggingface-token", ("hf_",), r"\bhf_(?P<body>[A-Za-z0-9]{34,})\b"),
        (
            "jwt",
            ("eyj",),
            r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ(?P<body>[A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]{8,}",
        ),
        (
            "bearer-token",
            ("bearer",),
            r"(?i)\bbearer\s+(?P<secret>(?P<body>[A-Za-z0-9._~+/-]{16,})=*)",
        ),
        (
            "url-password",
            ("://",),
            r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s/:@]*:(?P<secret>(?P<body>[^\s/@]+))@",
        ),
    )
)

_PRIVATE_KEY_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")

# KEY=value, key: value, "key": "value", key => value where KEY names a credential
# (credential_key_kind). Found from each hint's occurrence rather than tried at every position
# of the line, which keeps long lines cheap.
_IDENTIFIER_REST = re.compile(r"[A-Za-z0-9_.-]{0,60}")
_IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_VALUE = re.compile(
    r"[\"']?[ \t]*(?:=>|->|[:=：])[ \t]*(?P<quote>[\"'`]?)(?P<secret>[^\s\"'`,;]{1,300})"
)
_ASSIGNMENT_HINTS = ("pass", "pw", "secret", "token", "credential", "key")

# What follows a prose name of a credential before its value (``password: x``, ``pw is x``,
# ``Passwort lautet x``, ``密码是 x``, ``パスワードは x``, ``비밀번호는 x``).
_SEPARATOR = re.compile(
    r"[*_]{0,2}(?:[ \t]*(?:=>|->|→|[:=：]|[—–](?=[ \t])"
    r"|(?<=[ \t])(?:is|was|ist|lautet|est|es|é|è|это)(?=[ \t]))"
    r"|(?:是|为|為|は|는|은|이))[*_]{0,2}[ \t]*",
    re.IGNORECASE,
)
# A word between the name and a separator (``password for the staging admin: x``).
_FILLER_WORD = re.compile(r"[ \t]+\(?[^\W\d_][\w'’-]*\)?")
_FILLER_WORDS = 4
_QUOTED = re.compile(
    r"(?P<ticks>`{1,2})(?P<code>[^`\n]+)(?P=ticks)(?!`)"
    r"|\"(?P<double>[^\"\n]+)\"|'(?P<single>[^'\n]+)'|«(?P<angle>[^»\n]+)»|„(?P<low>[^“”\n]+)[“”]"
)
_QUOTED_GROUPS = ("code", "double", "single", "angle", "low")
_BARE = re.compile(r"[^\s,;|<>()\[\]{}`]+")

# Command lines that take a password: (literal hints, pattern with a group "arg").
_ARG = r"""(?P<arg>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)"""
_ON = r"\b[^|;&\n]{0,200}?"  # the rest of the same command, a bounded look
_COMMANDS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (hints, re.compile(pattern))
    for hints, pattern in (
        (
            ("mysql", "mariadb"),
            rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb(?:-dump|-admin)?){_ON}[ \t]-p{_ARG}",
        ),
        (("sshpass",), rf"\bsshpass{_ON}[ \t]-p[ \t]*{_ARG}"),
        (
            ("docker",),
            rf"\bdocker[ \t]+login{_ON}[ \t](?:-p|--password)(?:[ \t]+|=){_ARG}",
        ),
        (("redis-cli",), rf"\bredis-cli{_ON}[ \t](?:-a|--pass)[ \t]+{_ARG}"),
        (
            ("curl", "wget", "http"),
            rf"\b(?:curl|wget|https?(?=[ \t])){_ON}[ \t](?:-u|--user|-a|--auth)"
            rf"(?:[ \t]+|=){_ARG}",
        ),
    )
)
_USER_PASSWORD_COMMANDS = ("curl", "wget", "http")
_XML_ELEMENT = re.compile(r"<(?P<tag>[A-Za-z_][\w.:-]{0,60})>(?P<value>[^<\n]{1,300})</(?P=tag)>")
# <add key="Password" value="…"/> (.NET configuration), name="…" value="…" likewise.
_XML_KEY_VALUE = re.compile(
    r"\b(?:key|name)=\"(?P<tag>[A-Za-z_][\w.:-]{0,60})\"[ \t]+value=\"(?P<value>[^\"\n]{1,300})\""
)
# A login written as a pair: ``login: admin / s3cret``, ``creds: deploy:s3cret``.
_LOGIN_PAIR = re.compile(
    r"(?i)(?<![\w-])(?:login|logins|creds|credentials?|zugang(?:sdaten)?|логин|учётка|учетка"
    r"|账号|帐号)(?:[ \t]+\(?[^\W\d_][\w'-]*\)?){0,3}[*_]{0,2}[ \t]*(?:[:=：—–→]|->)[ \t]*"
    r"`?[^\s/:`|~.][^\s/:`|]{0,59}`?[ \t]*(?:/|:)[ \t]*(?P<arg>`[^`\n]+`|[^\s`|/:]+)"
    r"(?=[\s,;)]|$)"
)
_LOGIN_HINTS = ("login", "cred", "zugang", "логин", "учётка", "учетка", "账号", "帐号")

_ALL_HINTS = (
    *sorted(
        {hint for _, hints, _ in _TOKEN_DETECTORS for hint in hints}
        | {*_ASSIGNMENT_HINTS, *PHRASE_HINTS, *_LOGIN_HINTS, "</", "value="}
        | {hint for hints, _ in _COMMANDS for hint in hints}
    ),
    "private key",
    "|",
)
_ASCII_HINTS = tuple(hint for hint in _ALL_HINTS if hint.isascii())
# A character of another script than Latin (dashes, quotes and arrows aside): only then can a
# hint in another script occur.
_OTHER_SCRIPT = re.compile(r"[^\x00-\x7f\u2000-\u206f\u2190-\u21ff]")


def _token_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    for kind, detector_hints, pattern in _TOKEN_DETECTORS:
        if hints.isdisjoint(detector_hints):
            continue
        for match in pattern.finditer(line):
            body = match.group("body") or match.group(0)
            if is_placeholder(body) or not (
                len(body) >= 3 if kind == "url-password" else looks_random(body)
            ):
                continue
            group = "secret" if "secret" in pattern.groupindex else 0
            yield kind, match.start(group), match.end(group)


def _value_span(start: int, value: str, kind: str, *, strong: bool = False) -> Span | None:
    """The span of ``value`` (found at ``start``) when it is a ``kind`` credential, else None."""
    if not looks_secret(value, password=kind == "password", strong=strong):
        return None
    return f"{kind}-assignment", start, start + len(value)


def _assignment_value(match: re.Match[str], kind: str) -> Span | None:
    """The value of an assignment without a closing quote or brackets, when it is a secret."""
    start = match.start("secret")
    value = match.group("secret")
    quote = match.group("quote")
    if quote and value.endswith(quote):
        value = value[:-1]
    if not quote:
        stripped = _without_trailing_marks(value, ")]}>.:|")
        if stripped.count("(") >= value.count(")") - (len(value) - len(stripped)):
            value = stripped
    return _value_span(start, value, kind)


def _without_trailing_marks(value: str, marks: str = ".,:'\"") -> str:
    """``value`` without the punctuation that ends the sentence around it; an elided value
    (``abc...``, ``abc…``) keeps its dots, which say it is an example. ``!`` and ``?`` stay:
    they end passwords more often than sentences (``Winter2025!``)."""
    return value if value.endswith(("...", "…")) else value.rstrip(marks)


def _key_start(line: str, position: int) -> int:
    """Where the identifier holding ``position`` starts, looking back at most 60 characters.

    A plain walk, not a regex search: a regex anchored at ``position`` and tried from each of the
    60 places before it costs 60 × 60 steps per hint, which a line of a million ``pwd=`` hints
    turned into a quarter of a minute.
    """
    start, limit = position, max(0, position - 60)
    while start > limit and line[start - 1] in _IDENTIFIER_CHARS:
        start -= 1
    return start


def _assignments(line: str, lowered: str) -> Iterator[tuple[str, re.Match[str]]]:
    """``(kind, value match)`` of each ``key = value`` whose key names a credential.

    A hint inside a value already found is not looked at again, so the work stays linear in the
    line's length however many hints it repeats.
    """
    seen: set[int] = set()
    for hint in _ASSIGNMENT_HINTS:
        position = lowered.find(hint)
        while position != -1:
            rest = _IDENTIFIER_REST.match(line, position)
            end = rest.end() if rest else position
            value = _VALUE.match(line, end) if end not in seen else None
            seen.add(end)
            if value is not None:
                kind = credential_key_kind(line[_key_start(line, position) : end])
                if kind is not None:
                    yield kind, value
                    end = max(end, value.end() - 1)
            position = lowered.find(hint, end + 1)


def _assignment_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(_ASSIGNMENT_HINTS):
        return
    for kind, match in _assignments(line, line.lower()):
        found = _assignment_value(match, kind)
        if found is not None:
            yield found


def _phrase_value(line: str, at: int, kind: str) -> Span | None:
    """The value a prose name of a credential ending at ``at`` is given, when it is a secret.

    Right after the name (``pw: x``, ``pw is x``, ``pw `x` ``) any credential counts; past a
    few words (``password for the staging admin: x``) or a bare space (``vnc password 8301``)
    only a strong one (:func:`~memory_core.credential_values.looks_secret`).
    """
    strong = False
    separator = _SEPARATOR.match(line, at)
    if separator is not None and separator.end() > at:
        at = separator.end()
    elif line.startswith(("`", " `"), at):
        at = line.index("`", at)
    else:
        after_filler = _past_filler(line, at)
        if after_filler is not None:
            at = after_filler
        elif line.startswith((" ", "\t"), at):
            at = len(line) - len(line[at:].lstrip(" \t"))
        else:
            return None
        strong = True
    quoted = _QUOTED.match(line, at)
    if quoted is not None:
        group = next(name for name in _QUOTED_GROUPS if quoted.group(name) is not None)
        return _value_span(quoted.start(group), quoted.group(group), kind, strong=strong)
    bare = _BARE.match(line, at)
    if bare is None:
        return None
    return _value_span(at, _without_trailing_marks(bare.group()), kind, strong=strong)


def _past_filler(line: str, at: int) -> int | None:
    """Where the value starts after up to four words and a separator from ``at``, or None."""
    for _ in range(_FILLER_WORDS):
        word = _FILLER_WORD.match(line, at)
        if word is None:
            return None
        at = word.end()
        separator = _SEPARATOR.match(line, at)
        if separator is not None:
            return separator.end()
    return None


def _phrase_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(PHRASE_HINTS):
        return
    prose = blank_code_spans(line) if "`" in line else line
    for kind, start, end in phrases(line):
        if prose[start] != line[start]:
            continue  # a word inside code (``python -c pass``) names nothing
        found = _phrase_value(line, end, kind)
        if found is not None:
            yield found


def _command_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    for command_hints, pattern in _COMMANDS:
        if hints.isdisjoint(command_hints):
            continue
        for match in pattern.finditer(line):
            start, end = match.span("arg")
            value = match.group("arg")
            if value[:1] in "'\"":
                start, end, value = start + 1, end - 1, value[1:-1]
            if command_hints[0] in _USER_PASSWORD_COMMANDS:
                user, colon, value = value.partition(":")
                if not colon:
                    continue
                start += len(user) + 1
            found = _value_span(start, value, "password")
            if found is not None:
                yield found


def _login_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    """``login: admin / s3cret``: the second half of a login pair, when it is a credential."""
    if hints.isdisjoint(_LOGIN_HINTS):
        return
    for match in _LOGIN_PAIR.finditer(line):
        start, value = match.start("arg"), match.group("arg")
        if value.startswith("`"):
            start, value = start + 1, value[1:-1]
        found = _value_span(start, _without_trailing_marks(value), "password")
        if found is not None:
            yield found


def _xml_spans(line: str) -> Iterator[Span]:
    for match in itertools.chain(_XML_ELEMENT.finditer(line), _XML_KEY_VALUE.finditer(line)):
        kind = credential_key_kind(match.group("tag"))
        value = match.group("value").strip()
        if kind is not None and value:
            start = match.start("value") + match.group("value").index(value)
            found = _value_span(start, value, kind)
            if found is not None:
                yield found


@dataclass(frozen=True, slots=True)
class _Cell:
    text: str
    start: int
    end: int


def _table_cells(line: str) -> list[_Cell] | None:
    """The cells of a Markdown table row (``| a | b |``), stripped; None for another line."""
    stripped = line.lstrip(" ")
    if not stripped.startswith("|") or len(line) - len(stripped) > 3:
        return None
    cells: list[_Cell] = []
    position = line.index("|") + 1
    while position < len(line):
        end = line.find("|", position)
        if end == -1:
            end = len(line)
            if not line[position:].strip():
                break
        raw = line[position:end]
        text = raw.strip()
        start = position + (raw.index(text) if text else 0)
        cells.append(_Cell(text, start, start + len(text)))
        position = end + 1
    return cells


_DELIMITER_CELL = re.compile(r":?-+:?")
_MARKUP = "*_` "


def _names_credential(cell: str) -> str | None:
    """The kind of credential a table cell names (``Password``, ``**pw**``, ``DB_PASSWORD``)."""
    text = cell.strip(_MARKUP)
    if not text:
        return None
    for kind, start, end in phrases(text):
        if (start, end) == (0, len(text)):
            return kind
    return credential_key_kind(text) if " " not in text else None


def _cell_value(cell: _Cell, kind: str) -> Span | None:
    value = cell.text
    quoted = _QUOTED.fullmatch(value)
    if quoted is not None:
        group = next(name for name in _QUOTED_GROUPS if quoted.group(name) is not None)
        return _value_span(cell.start + quoted.start(group), quoted.group(group), kind)
    return _value_span(cell.start, value, kind) if " " not in value else None


def _row_spans(cells: list[_Cell]) -> Iterator[Span]:
    """A key-value row: ``| password | x |``."""
    for cell, following in itertools.pairwise(cells):
        kind = _names_credential(cell.text)
        if kind is not None:
            found = _cell_value(following, kind)
            if found is not None:
                yield found


@dataclass(frozen=True, slots=True)
class ScanState:
    """What a line carries into the next while credentials are scanned (T-6).

    ``in_key``: a private-key block is open; ``column``: a Markdown table whose header names a
    credential is open, as ``(cell index, kind, delimiter row seen)``.
    """

    in_key: bool = False
    column: tuple[int, str, bool] | None = None


def _column(cells: list[_Cell] | None, state: ScanState) -> tuple[ScanState, Span | None]:
    """The table state after a line of ``cells`` (None: no table row) and the credential in the
    open credential column, if any."""
    column = state.column
    if cells is None:
        return ScanState(state.in_key, None), None
    if column is not None:
        index, kind, seen = column
        if not seen:
            if all(_DELIMITER_CELL.fullmatch(cell.text) for cell in cells):
                return ScanState(state.in_key, (index, kind, True)), None
        elif index < len(cells):
            return state, _cell_value(cells[index], kind)
        else:
            return state, None
    for index, cell in enumerate(cells):
        named = _names_credential(cell.text)
        if named is not None:
            return ScanState(state.in_key, (index, named, False)), None
    return ScanState(state.in_key, None), None


def _hints_in(line: str) -> frozenset[str]:
    lowered = line.lower()
    return frozenset(hint for hint in _ALL_HINTS if hint in lowered)


def _spans(line: str, hints: frozenset[str] | None = None) -> list[Span]:
    """(kind, start, end) of each secret part in one line, earlier and longer first.

    ``hints`` are the detector hints the line holds (found here when not given); only the
    detectors they name run. Table columns, which need the lines before, are not looked at.
    """
    if hints is None:
        hints = _hints_in(line)
    if not hints:
        return []  # the common case: no detector could match
    spans = [
        *_token_spans(line, hints),
        *_assignment_spans(line, hints),
        *_phrase_spans(line, hints),
        *_command_spans(line, hints),
        *_login_spans(line, hints),
    ]
    if "</" in hints or "value=" in hints:
        spans.extend(_xml_spans(line))
    if "|" in hints:
        cells = _table_cells(line)
        if cells is not None:
            spans.extend(_row_spans(cells))
    if "private key" in hints and _PRIVATE_KEY_BEGIN.search(line):
        spans.append(("private-key", 0, len(line)))
    return _merged(spans)


def _merged(spans: list[Span]) -> list[Span]:
    """Overlapping spans as one, in order, named by the most specific kind: a token shape
    (``github-token``) over the assignment that holds it (``token-assignment``)."""
    if len(spans) < 2:
        return spans
    spans.sort(key=lambda span: (span[1], -span[2]))
    merged: list[Span] = []
    for kind, start, end in spans:
        if merged and start < merged[-1][2]:
            last_kind, last_start, last_end = merged[-1]
            if last_kind.endswith("-assignment") and not kind.endswith("-assignment"):
                last_kind = kind
            merged[-1] = (last_kind, last_start, max(last_end, end))
        else:
            merged.append((kind, start, end))
    return merged


def _hints_by_line(lines: Sequence[str]) -> dict[int, frozenset[str]]:
    """The detector hints each line holds (0-based line → hints), found on the whole text.

    One lower-cased copy of the text and a C-speed substring search per hint: on an ordinary
    index most lines hold no hint and are never looked at again, and a line that does runs
    only the detectors its hints name.
    """
    text = "\n".join(lines).lower()
    found: dict[int, set[str]] = {}
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    for hint in _ALL_HINTS if _OTHER_SCRIPT.search(text) else _ASCII_HINTS:
        position = text.find(hint)
        while position != -1:
            number = bisect_right(starts, position) - 1
            found.setdefault(number, set()).add(hint)
            next_line = starts[number + 1] if number + 1 < len(starts) else len(text)
            position = text.find(hint, next_line)  # one finding per line is enough
    return {number: frozenset(hints) for number, hints in found.items()}


def _scan(
    lines: Sequence[str],
    each: Callable[[int, str, bool, list[Span]], None],
    state: ScanState = ScanState(),
) -> ScanState:
    """Call ``each(number, line, in_key_block, spans)`` for every line (0-based numbers),
    starting in ``state``; returns the state after the last line."""
    candidates = _hints_by_line(lines)
    for number, line in enumerate(lines):
        if state.in_key:
            state = ScanState(_PRIVATE_KEY_END.search(line) is None, state.column)
            each(number, line, True, [])
            continue
        hints = candidates.get(number)
        spans = _spans(line, hints) if hints else []
        if state.column is not None or (hints and "|" in hints):
            state, in_column = _column(_table_cells(line), state)
            if in_column is not None:
                spans = _merged([*spans, in_column])
        each(number, line, False, spans)
        if any(kind == "private-key" for kind, _, _ in spans):
            state = ScanState(_PRIVATE_KEY_END.search(line) is None, state.column)
    return state


def find_secrets(text: str) -> list[tuple[str, int]]:
    """Return ``(kind, line)`` for each line holding a likely credential (T-5); 1-based lines.

    One entry per kind and line; a private-key block is reported once, at its ``BEGIN`` line.
    The secret itself is never part of the result.
    """
    return find_secrets_in_lines(text.split("\n"))[0]


def find_secrets_in_lines(
    lines: Sequence[str],
    *,
    first: int = 1,
    state: ScanState = ScanState(),
) -> tuple[list[tuple[str, int]], ScanState]:
    """:func:`find_secrets` of ``lines`` (a text split on ``\\n``) numbered from ``first``,
    starting in ``state`` (a private-key block or a credential table column open before them);
    returns the findings and the state after them (so appended lines are judged as in the
    whole)."""
    found: list[tuple[str, int]] = []

    def collect(number: int, _line: str, _in_key: bool, spans: list[Span]) -> None:
        found.extend((kind, number + first) for kind in dict.fromkeys(kind for kind, _, _ in spans))

    return found, _scan(lines, collect, state)


def _masked(line: str, spans: list[Span]) -> str:
    if not spans:
        return line
    parts: list[str] = []
    position = 0
    for kind, start, end in spans:
        parts.append(line[position:start])
        parts.append(f"[masked: {kind}]")
        position = end
    parts.append(line[position:])
    return "".join(parts)


def mask_secrets(line: str) -> str:
    """Return ``line`` with each likely credential replaced by ``[masked: <kind>]`` (I-8).

    An assignment keeps its key (``DB_PASSWORD=[masked: password-assignment]``) so the line
    still says what it is about. A line that starts a private-key block is masked whole; a line
    without a credential is returned as it is. A line on its own has no table header above it:
    use :func:`mask_secret_lines` for a text.
    """
    return _masked(line, _spans(line))


def mask_secret_lines(lines: Sequence[str]) -> list[str]:
    """Mask a sequence of lines (I-8), including every line of a private-key block and the
    cells of a table column headed by a credential name."""
    masked: list[str] = []

    def collect(_number: int, line: str, in_key: bool, spans: list[Span]) -> None:
        masked.append("[masked: private-key]" if in_key else _masked(line, spans))

    _scan(lines, collect)
    return masked
