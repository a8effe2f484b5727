"""Likely credentials in memory text: find them by kind and line, mask them (T-5, T-6, I-8).

Memory is readable by every project member who can reach the agent, so a credential must never
be in it. A finding needs a *value* that looks like a credential, not a word, an expression, a
type, a placeholder or an elided example:

- well-known token shapes (AWS, GitHub, GitLab, Slack, OpenAI-style ``sk-…``, Google API keys
  and OAuth tokens, Stripe, npm, PyPI, Hugging Face, SendGrid, DigitalOcean, Shopify, Postman,
  Linear, Telegram bots, JWTs) whose random part really is random (``AKIAXXXXXXXXXXXXXXXX`` and the
  documented ``…EXAMPLE`` keys are placeholders);
- private-key blocks, bearer tokens and passwords inside URLs;
- ``password=`` / ``token:`` / ``api_key``-style assignments whose value is neither code
  (``torch.autograd.grad(loss``, ``os.environ[…]``), a type (``varchar(500)``, ``String?``), a
  reference (``$TOKEN``, ``${{ secrets.X }}``, ``DB_PASSWORD``), a placeholder
  (``your-api-key-here``, ``<token>``, ``****``) nor a plain word or quantity (``4096``).

Precision and recall are measured on the labelled set ``tests/data/credentials/labelled.tsv``
(T-6, both at least 95%). A finding names the kind and the line, never the secret itself; a line
without one is returned unchanged, byte for byte (I-8).

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

__all__ = ["find_secrets", "find_secrets_in_lines", "mask_secret_lines", "mask_secrets"]

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
            r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s/:@]+:(?P<secret>(?P<body>[^\s/@]+))@",
        ),
    )
)

_PRIVATE_KEY_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")

# KEY=value, key: value, "key": "value" where KEY ends in a credential word (DB_PASSWORD,
# api_key, refreshToken, APP_SECRET_KEY). Found from each hint's occurrence rather than tried
# at every position of the line, which keeps long lines cheap.
_KEY_END = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?"
    r"|(?:api|access|account|auth|secret|signing|encryption|master|private|client)[_-]?key)\Z"
)
_IDENTIFIER_REST = re.compile(r"[A-Za-z0-9_.-]{0,60}")
_IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_VALUE = re.compile(r"[\"']?[ \t]*[:=][ \t]*(?P<quote>[\"']?)(?P<secret>[^\s\"'`,;]{1,300})")
_ASSIGNMENT_HINTS = ("pass", "pwd", "secret", "token", "credential", "key")
_ASSIGNMENT_KINDS = (
    ("pass", "password"),
    ("pwd", "password"),
    ("token", "token"),
    ("secret", "secret"),
    ("key", "api-key"),
    ("credential", "credential"),
)
_ALL_HINTS = (
    *sorted({hint for _, hints, _ in _TOKEN_DETECTORS for hint in hints} | {*_ASSIGNMENT_HINTS}),
    "private key",
)

# What a credential value is not. References and templates: $VAR, ${VAR}, $(cmd), %(x)s,
# %VAR%, {{ x }}, {x}, <x>; masks: ****, xxxx, ..., …
_REFERENCE = re.compile(r"(?:\$[({A-Za-z_]|%[({A-Za-z_]|[{<[(#?}])")
# A YAML tag standing for a value kept elsewhere: ``!vault |``, ``!Ref DbPassword``, ``!!binary``.
_YAML_TAG = re.compile(r"!!?[A-Za-z][a-z]*(?:[A-Z][a-z]+)*")
_MASK = re.compile(r"(?i)[*x.•…_-]+")
_CODE = re.compile(
    r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+.*"  # a dotted path: os.environ[...], a.b.c
    r"|[A-Za-z_$][\w$]*[(\[<].*"  # a call, an index or a generic: varchar(500), Optional[str]
    r"|[A-Za-z]+(?:[-_][A-Za-z]+)*[?!]?(?:\[\])?"  # words or a type: see-the-docs, String?
    r"|\d+(?:[.,]\d+)*\s*[A-Za-z%]{0,3}"  # a number or quantity: 4096, 200k, 30s, 1.5GB
)
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
# A value holding one of these words is a placeholder (``your-api-key-here``, ``REPLACE_ME``);
# so is a value made only of the words of the second set (``password``, ``sk-test-key``).
_PLACEHOLDER_MARKERS = frozenset(
    (
        *("your", "here", "example", "examples", "sample", "dummy", "fake", "placeholder"),
        *("changeme", "change", "replace", "redacted", "removed", "hidden", "todo", "fixme"),
        "xxxx",
    )
)
_PLACEHOLDER_WORDS = _PLACEHOLDER_MARKERS | frozenset(
    (
        *("my", "test", "xxx", "none", "null", "nil", "undefined", "empty", "tbd", "value"),
        *("password", "passwd", "pass", "pwd", "secret", "token", "key", "api", "apikey"),
        *("user", "username", "host", "db", "string", "sk", "pk"),
    )
)
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _words(value: str) -> list[str]:
    """The words of a value, split at symbols, digits and camelCase humps, lower-cased."""
    return [word.lower() for word in _WORD_RE.findall(value)]


def _is_placeholder(value: str) -> bool:
    """A template, a reference, a mask or a value made of placeholder words (``YOUR_KEY``)."""
    if _REFERENCE.match(value) or _MASK.fullmatch(value) or _YAML_TAG.fullmatch(value):
        return True
    words = _words(value)
    if any(word in _PLACEHOLDER_MARKERS for word in words):
        return True
    return bool(words) and all(word in _PLACEHOLDER_WORDS for word in words)


def _looks_random(body: str) -> bool:
    """A token's random part: varied characters, no run of one character, no example word."""
    if len(set(body.lower())) < min(8, len(body) // 2):
        return False
    lowered = body.lower()
    return "example" not in lowered and "xxxx" not in lowered


def _looks_secret(value: str) -> bool:
    """An assignment value worth flagging: not code, a type, a reference or a placeholder."""
    if len(value) < 6 or _is_placeholder(value) or _ENV_NAME.fullmatch(value):
        return False
    if _CODE.fullmatch(value):
        return value.isalpha() and _random_letters(value)  # mixed-case noise, not a word
    return True


def _random_letters(value: str) -> bool:
    """Mixed-case letters with no word shape (``uKdMNKHWnfVaEpVwKZgT``, not ``SecretKeyRef``)."""
    if len(value) < 12:
        return False
    upper = sum(char.isupper() for char in value) / len(value)
    changes = sum(a.isupper() != b.isupper() for a, b in itertools.pairwise(value))
    return 0.2 <= upper <= 0.8 and changes >= len(value) / 4


def _assignment_kind(key: str) -> str:
    lowered = key.lower()
    return next((kind for part, kind in _ASSIGNMENT_KINDS if part in lowered), "credential")


def _assignment_value(match: re.Match[str]) -> tuple[int, int] | None:
    """The value's span without a closing quote or brackets, or None when it is no secret."""
    start, end = match.span("secret")
    value = match.group("secret")
    quote = match.group("quote")
    if quote and value.endswith(quote):
        value, end = value[:-1], end - 1
    if not quote:
        stripped = value.rstrip(")]}>.!?:")
        if stripped.count("(") >= value.count(")") - (len(value) - len(stripped)):
            value, end = stripped, start + len(stripped)
    return (start, end) if _looks_secret(value) else None


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
    """``(key, value match)`` of each ``key = value`` whose key ends in a credential word.

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
                key = line[_key_start(line, position) : end]
                if _KEY_END.search(key):
                    yield key, value
                    end = max(end, value.end() - 1)
            position = lowered.find(hint, end + 1)


def _token_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    for kind, detector_hints, pattern in _TOKEN_DETECTORS:
        if hints.isdisjoint(detector_hints):
            continue
        for match in pattern.finditer(line):
            body = match.group("body") or match.group(0)
            if _is_placeholder(body) or not (
                len(body) >= 3 if kind == "url-password" else _looks_random(body)
            ):
                continue
            group = "secret" if "secret" in pattern.groupindex else 0
            yield kind, match.start(group), match.end(group)


def _assignment_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(_ASSIGNMENT_HINTS):
        return
    for key, match in _assignments(line, line.lower()):
        found = _assignment_value(match)
        if found is not None:
            yield f"{_assignment_kind(key)}-assignment", *found


def _hints_in(line: str) -> frozenset[str]:
    lowered = line.lower()
    return frozenset(hint for hint in _ALL_HINTS if hint in lowered)


def _spans(line: str, hints: frozenset[str] | None = None) -> list[Span]:
    """(kind, start, end) of each secret part in one line, earlier and longer first.

    ``hints`` are the detector hints the line holds (found here when not given); only the
    detectors they name run.
    """
    if hints is None:
        hints = _hints_in(line)
    if not hints:
        return []  # the common case: no detector could match
    spans = [*_token_spans(line, hints), *_assignment_spans(line, hints)]
    if "private key" in hints and _PRIVATE_KEY_BEGIN.search(line):
        spans.append(("private-key", 0, len(line)))
    if not spans:
        return spans
    spans.sort(key=lambda span: (span[1], -span[2]))
    merged: list[Span] = []
    for kind, start, end in spans:
        if merged and start < merged[-1][2]:
            last_kind, last_start, last_end = merged[-1]
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
    for hint in _ALL_HINTS:
        position = text.find(hint)
        while position != -1:
            number = bisect_right(starts, position) - 1
            found.setdefault(number, set()).add(hint)
            position = text.find(hint, position + len(hint))
    return {number: frozenset(hints) for number, hints in found.items()}


def _scan(
    lines: Sequence[str],
    each: Callable[[int, str, bool, list[Span]], None],
    in_key: bool = False,
) -> bool:
    """Call ``each(number, line, in_key_block, spans)`` for every line (0-based numbers);
    ``in_key``: a private-key block is open before the first line. Returns whether one is
    still open after the last."""
    candidates = _hints_by_line(lines)
    for number, line in enumerate(lines):
        if in_key:
            in_key = _PRIVATE_KEY_END.search(line) is None
            each(number, line, True, [])
            continue
        hints = candidates.get(number)
        spans = _spans(line, hints) if hints else []
        each(number, line, False, spans)
        in_key = any(kind == "private-key" for kind, _, _ in spans) and (
            _PRIVATE_KEY_END.search(line) is None
        )
    return in_key


def find_secrets(text: str) -> list[tuple[str, int]]:
    """Return ``(kind, line)`` for each line holding a likely credential (T-5); 1-based lines.

    One entry per kind and line; a private-key block is reported once, at its ``BEGIN`` line.
    The secret itself is never part of the result.
    """
    return find_secrets_in_lines(text.split("\n"))[0]


def find_secrets_in_lines(
    lines: Sequence[str], *, first: int = 1, in_key: bool = False
) -> tuple[list[tuple[str, int]], bool]:
    """:func:`find_secrets` of ``lines`` (a text split on ``\\n``) numbered from ``first``, with
    ``in_key`` true when a private-key block is open before them; returns the findings and
    whether a block is still open after them (so appended lines are judged as in the whole)."""
    found: list[tuple[str, int]] = []

    def collect(number: int, _line: str, _in_key: bool, spans: list[Span]) -> None:
        found.extend((kind, number + first) for kind in dict.fromkeys(kind for kind, _, _ in spans))

    return found, _scan(lines, collect, in_key)


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
    without a credential is returned as it is.
    """
    return _masked(line, _spans(line))


def mask_secret_lines(lines: Sequence[str]) -> list[str]:
    """Mask a sequence of lines (I-8), including every line of a private-key block."""
    masked: list[str] = []

    def collect(_number: int, line: str, in_key: bool, spans: list[Span]) -> None:
        masked.append("[masked: private-key]" if in_key else _masked(line, spans))

    _scan(lines, collect)
    return masked
