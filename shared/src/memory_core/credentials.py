"""Likely credentials in memory text: find them by kind and line, mask them (T-5, T-6, I-8).

Memory is readable by every project member who can reach the agent, so a credential must never
be in it. A finding needs a *value* that looks like a credential, not a word, an expression, a
type, a placeholder or an elided example (:mod:`memory_core.credential_values`):

- well-known token shapes (AWS, GitHub, GitLab, Slack, OpenAI-style ``sk-…``, Google API keys
  and OAuth tokens, Stripe secret and restricted keys (never a publishable ``pk_…``, public by
  design), npm, PyPI, Hugging Face, SendGrid, DigitalOcean, Shopify, Postman, Linear,
  Telegram bots, Slack and Discord webhooks (any host, API version and letter case of
  ``https://discord.com/api/v10/webhooks/…``), JWTs) whose random part really is random
  (``AKIAXXXXXXXXXXXXXXXX`` and the documented ``…EXAMPLE`` keys are placeholders);
- private-key blocks, bearer tokens and passwords inside URLs;
- values given to a key that names a credential (:mod:`memory_core.credential_keys`), in the
  forms people write them: assignments in YAML, JSON, shell and ``.env`` (``DB_PASS=…``,
  ``pw: …``, ``password: `…` ``, ``"apiKey": "…"``, ``SSHPASS='200152'``), XML elements
  (``<password>…</password>``), prose in the note's language (``root pw `…` ``, ``the NAS
  password is …``, ``Passwort: …``, ``пароль от роутера: …``, ``密码：…``), Markdown tables (a
  ``| password | … |`` row, or a column headed ``Password``) and command lines (``mysql -p…``,
  ``sshpass -p …``, ``docker login -p …``, ``redis-cli -a …``, ``curl -u user:…``).

Lines are judged as a person sees them: characters that may hide (I-9) are left out first, so a
token split by a zero-width space or a soft hyphen is found and masked whole.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from memory_core.credential_forms import (
    FORM_HINTS,
    Span,
    TableRow,
    cell_value,
    form_spans,
    is_delimiter_row,
    table_row,
)
from memory_core.credential_values import character_classes, is_placeholder, looks_random
from memory_core.hidden_text import HIDDEN_CANDIDATES

__all__ = ["find_secrets", "looks_like_id", "looks_like_key", "mask_secret_lines", "mask_secrets"]

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
            "discord-webhook",
            ("discord.com/api/", "discordapp.com/api/"),
            r"(?i)https://(?:(?:ptb|canary|www)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?"
            r"/webhooks/\d{17,20}/(?P<body>[A-Za-z0-9_-]{60,})",
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
            r"\b(?:sk|rk)_(?:live|test)_(?P<body>[0-9A-Za-z]{16,})\b",
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

_ALL_HINTS = (
    *sorted({hint for _, hints, _ in _TOKEN_DETECTORS for hint in hints} | set(FORM_HINTS)),
    "private key",
)
_ASCII_HINTS = tuple(hint for hint in _ALL_HINTS if hint.isascii())
# A character of another script than Latin (dashes, quotes and arrows aside): only then can a
# hint in another script occur.
_OTHER_SCRIPT = re.compile(r"[^\x00-\x7f\u2000-\u206f\u2190-\u21ff]")


# The detectors each hint names (by position in _TOKEN_DETECTORS): a line with a hint runs
# those, without testing the other detectors' hints.
_DETECTORS_BY_HINT: dict[str, tuple[int, ...]] = {
    hint: tuple(at for at, (_, hints, _) in enumerate(_TOKEN_DETECTORS) if hint in hints)
    for _, hints, _ in _TOKEN_DETECTORS
    for hint in hints
}


def _token_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    chosen = {at for hint in hints for at in _DETECTORS_BY_HINT.get(hint, ())}
    for at in sorted(chosen):
        kind, _, pattern = _TOKEN_DETECTORS[at]
        for match in pattern.finditer(line):
            body = match.group("body") or match.group(0)
            if is_placeholder(body) or not (
                len(body) >= 3 if kind == "url-password" else looks_random(body)
            ):
                continue
            group = "secret" if "secret" in pattern.groupindex else 0
            yield kind, match.start(group), match.end(group)


@dataclass(frozen=True, slots=True)
class _ScanState:
    """What a line carries into the next while credentials are scanned (T-6).

    ``in_key``: a private-key block is open; ``column``: a Markdown table whose header names a
    credential is open, as ``(cell index, kind, delimiter row seen)``.
    """

    in_key: bool = False
    column: tuple[int, str, bool] | None = None


def _column(row: TableRow | None, state: _ScanState) -> tuple[_ScanState, Span | None]:
    """The table state after a line that is ``row`` (None: no table row) and the credential in
    the open credential column, if any."""
    column = state.column
    if row is None:
        return _ScanState(state.in_key, None), None
    if column is not None:
        index, kind, seen = column
        if not seen:
            if is_delimiter_row(row):
                return _ScanState(state.in_key, (index, kind, True)), None
        else:
            cell = row.cell(index)
            return state, None if cell is None else cell_value(cell, kind)
    if row.named:
        index, named = row.named[0]
        return _ScanState(state.in_key, (index, named, False)), None
    return _ScanState(state.in_key, None), None


def _hints_in(line: str) -> frozenset[str]:
    lowered = line.lower()
    return frozenset(hint for hint in _ALL_HINTS if hint in lowered)


def _spans(
    line: str, hints: frozenset[str] | None = None, row: TableRow | None = None
) -> list[Span]:
    """(kind, start, end) of each secret part in one line, earlier and longer first.

    ``hints`` are the detector hints the line holds (found here when not given); only the
    detectors they name run. ``row`` is the line's :func:`table_row` (None: no table row), made
    once by the caller. Table columns, which need the lines before, are not looked at.
    """
    if hints is None:
        hints = _hints_in(line)
    if not hints:
        return []  # the common case: no detector could match
    spans = [*_token_spans(line, hints), *form_spans(line, hints, row)]
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


def _scan(lines: Sequence[str]) -> list[tuple[int, bool, list[Span]]]:
    """``(number, in_key_block, spans)`` of each line (0-based) that holds a credential or lies
    in a private-key block.

    Only the lines that hold a hint, or follow an open private-key block or credential table
    column, are looked at: in an ordinary text that is none of them.
    """
    candidates = _hints_by_line(lines)
    with_hints = sorted(candidates)
    found: list[tuple[int, bool, list[Span]]] = []
    state = clean = _ScanState()
    number = 0
    while number < len(lines):
        if state == clean:  # nothing carries over: go to the next line with a hint
            at = bisect_right(with_hints, number - 1)
            if at == len(with_hints):
                break
            number = with_hints[at]
        line = lines[number]
        if state.in_key:
            state = _ScanState(_PRIVATE_KEY_END.search(line) is None, state.column)
            found.append((number, True, []))
            number += 1
            continue
        hints = candidates.get(number)
        in_table = state.column is not None or bool(hints and "|" in hints)
        row = table_row(line) if in_table else None  # once per line: the forms and the column
        spans = _spans(line, hints, row) if hints else []
        if in_table:
            state, in_column = _column(row, state)
            if in_column is not None:
                spans = _merged([*spans, in_column])
        if spans:
            found.append((number, False, spans))
        if any(kind == "private-key" for kind, _, _ in spans):
            state = _ScanState(_PRIVATE_KEY_END.search(line) is None, state.column)
        number += 1
    return found


_MAY_HIDE = re.compile(f"[{HIDDEN_CANDIDATES}]+")


def _as_seen(lines: Sequence[str]) -> tuple[list[str], dict[int, list[int]]]:
    """The lines as a person sees them, every character that may hide (I-9) left out, a
    legitimate one too (a direction mark in Hebrew, a soft hyphen in a word), so a credential
    split by one (``ghp_A1b2\\u200bC3…``, ``סיסמה:\\u200f …``) is found whole; and for each
    line that held some, where each of its remaining characters stands in the line as written
    (and its end)."""
    seen = list(lines)
    where: dict[int, list[int]] = {}
    if _MAY_HIDE.search("\n".join(lines)) is None:
        return seen, where  # the common case: one C-speed scan
    for number, line in enumerate(lines):
        if _MAY_HIDE.search(line) is None:
            continue
        kept: list[int] = []
        position = 0
        for run in _MAY_HIDE.finditer(line):
            kept.extend(range(position, run.start()))
            position = run.end()
        kept.extend(range(position, len(line) + 1))  # and the line's end
        seen[number] = _MAY_HIDE.sub("", line)
        where[number] = kept
    return seen, where


def _as_written(spans: list[Span], where: list[int] | None) -> list[Span]:
    """``spans`` of a line as seen (:func:`_as_seen`) placed on the line as written."""
    if where is None:
        return spans
    return [(kind, where[start], where[end - 1] + 1) for kind, start, end in spans]


def find_secrets(text: str) -> list[tuple[str, int]]:
    """Return ``(kind, line)`` for each line holding a likely credential (T-5); 1-based lines.

    One entry per kind and line; a private-key block is reported once, at its ``BEGIN`` line.
    The secret itself is never part of the result.
    """
    return [
        (kind, number + 1)
        for number, _, spans in _scan(_as_seen(text.split("\n"))[0])
        for kind in dict.fromkeys(kind for kind, _, _ in spans)
    ]


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
    return mask_secret_lines([line])[0]


def mask_secret_lines(lines: Sequence[str]) -> list[str]:
    """Mask a sequence of lines (I-8), including every line of a private-key block and the
    cells of a table column headed by a credential name. A credential split by hidden
    characters (I-9) is found and masked whole, those characters with it."""
    masked = list(lines)
    seen, where = _as_seen(lines)
    for number, in_key, spans in _scan(seen):
        if in_key:
            masked[number] = "[masked: private-key]"
        else:
            masked[number] = _masked(lines[number], _as_written(spans, where.get(number)))
    return masked


_KEY_CHARACTERS = re.compile(r"[A-Za-z0-9_~.+=-]{16,}")
"""What a key standing alone is made of: URL-safe and standard base64, hex, a UUID."""
_KEY_JOINERS = re.compile(r"[-_.~]+")
_WORD_JOINS = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")
"""Where camelCase starts a word (``agentMemory``) and a number meets a word (``V2``)."""
_ID = re.compile(
    r"(?=[0-9]*[a-f])[0-9a-f]{16,}|(?=[0-9]*[A-F])[0-9A-F]{16,}"
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)
"""Plain hex of one letter case holding a letter (digits alone are a number: a project's,
an account's), or a UUID: what an id is written as."""


def looks_like_key(value: str) -> bool:
    """Whether ``value``, standing alone with no key naming it (a segment of a URL's path:
    ``https://gw.example/mem_FE0zGBRdX8c3HyM9iP63K_g79OtNNhPA/…``), is a credential: a
    well-known token shape (:func:`find_secrets`), or 16 or more characters of base64, varied
    (:func:`~memory_core.credential_values.looks_random`), no placeholder, not words and
    numbers joined (``memory-api-prod-eu-west-1``, ``Release-2024-01``, camelCase such as
    ``agentMemoryV2Service`` or ``MemoryApiProdEuWest1``), mixing lower-case, upper-case and
    digits, or holding four digits and four letters at least. Plain hex and a UUID are no key
    here (:func:`looks_like_id`: a tenant's id in ``…/tenants/<uuid>/memory``): a message
    masks them all the same.

    >>> looks_like_key("FE0zGBRdX8c3HyM9iP63K_g79OtNNhPA"), looks_like_key("Xk9mPqRtZw2LnBvCx7Yh")
    (True, True)
    >>> looks_like_key("memory-api-prod-eu-west-1"), looks_like_key("agentMemoryV2Service")
    (False, False)
    >>> looks_like_key("d41d8cd98f00b204e98009"), looks_like_key("api"), looks_like_key("v2")
    (False, False, False)
    """
    if find_secrets(value):
        return True
    if looks_like_id(value):
        return False
    if not _KEY_CHARACTERS.fullmatch(value) or is_placeholder(value) or not looks_random(value):
        return False
    parts = [part for part in _KEY_JOINERS.split(value) if part]
    if all(part.isdigit() or _words(part) for part in parts):
        return False
    digits = sum(char.isdigit() for char in value)
    letters = sum(char.isalpha() for char in value)
    return character_classes(value) >= 3 or (digits >= 4 and letters >= 4)


def looks_like_id(value: str) -> bool:
    """Whether ``value`` is 16 or more hex digits of one letter case, a letter among them, or
    a UUID: an id (a tenant's, a webhook's), which may be a capability secret. It is masked
    when shown (:func:`memory_core.addresses.shown_url`) and is no key standing alone
    (:func:`looks_like_key` is False for it); an install refuses to write a service URL whose
    path holds one (:func:`memory_core.addresses.url_secret`, ``written``) unless the user
    says it is no secret (``harness-memory install … --url-id-not-secret``, A-10). Decimal
    digits alone (``1234567890123456``, a project's number) are no id.

    >>> looks_like_id("123e4567-e89b-12d3-a456-426614174000"), looks_like_id("memory")
    (True, False)
    >>> looks_like_id("d41d8cd98f00b204e9800998ecf8427e"), looks_like_id("1234567890123456")
    (True, False)
    """
    return _ID.fullmatch(value) is not None


def _words(part: str) -> bool:
    """Whether ``part`` is words and numbers written together: each word all lower-case, all
    capitals or capitalised (camelCase and ``V2`` count), and, when it joins several, each
    number of four digits at most (a version, a year; not ``0123456789abcdef``) and the words
    of three letters on average: random base64 falls into runs of one or two letters
    (``Xk9mPqRt`` → ``Xk``, ``9``, ``m``, ``Pq``, ``Rt``)."""
    pieces = _WORD_JOINS.split(part)
    if len(pieces) == 1:
        return part.isdigit() or _one_word(part)
    words = [piece for piece in pieces if not piece.isdigit()]
    numbers_short = all(len(piece) <= 4 for piece in pieces if piece.isdigit())
    words_long = sum(map(len, words)) >= 3 * len(words)
    return numbers_short and words_long and all(_one_word(word) for word in words)


def _one_word(part: str) -> bool:
    """Letters written as one word is: all lower-case, all capitals or capitalised."""
    return part.isalpha() and (part.islower() or part.isupper() or part.istitle())
