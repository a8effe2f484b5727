"""Likely credentials in memory text: find them by kind and line, mask them (T-5, I-8).

Memory is readable by every project member who can reach the agent, so a credential must never
be in it. These checks are heuristics tuned to be quiet on ordinary notes: well-known token
shapes (AWS, GitHub, GitLab, Slack, OpenAI-style ``sk-…``, Google, Stripe, npm, Hugging Face,
JWTs), private-key blocks, bearer tokens, passwords inside URLs, and ``password=`` /
``token:``-style assignments whose value looks like a secret rather than a word or placeholder.

A finding names the kind and the line, never the secret itself.

>>> find_secrets("fine\\nAWS key AKIAIOSFODNN7EXAMPLE here")
[('aws-access-key', 2)]
>>> mask_secrets("export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345")
'export GITHUB_TOKEN=[masked: github-token]'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

__all__ = ["find_secrets", "mask_secret_lines", "mask_secrets"]

# (kind, pattern); a named group "secret" marks the part to mask, else the whole match.
_TOKEN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        ("aws-access-key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b"),
        ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
        ("gitlab-token", r"\bglpat-[A-Za-z0-9_-]{20,}"),
        ("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
        ("slack-webhook", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}"),
        ("openai-style-key", r"\bsk-[A-Za-z0-9_-]{20,}"),
        ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("stripe-key", r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}\b"),
        ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("huggingface-token", r"\bhf_[A-Za-z0-9]{34,}\b"),
        ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        ("bearer-token", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
        ("url-password", r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s/:@]+:(?P<secret>[^\s/@]+)@"),
    )
)

_PRIVATE_KEY_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")

# KEY=value, key: value, "key": "value" where KEY names a credential (DB_PASSWORD, api_key …).
# Repetitions are bounded so a long line never makes the search quadratic.
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?P<key>[A-Za-z0-9_.-]{0,40}"
    r"(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|credentials?))"
    r"[\"']?[ \t]*[:=][ \t]*(?P<quote>[\"']?)(?P<secret>[^\s\"'`,;)]+)(?P=quote)"
)
# One literal every pattern above needs; a line without any of them is skipped quickly.
_HINT = re.compile(
    r"(?i)A[KS]IA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|gh[pousr]_|github_pat_|glpat-|xox|hooks\.slack"
    r"|sk-|AIza|_live_|_test_|npm_|hf_|eyJ|bearer|://|PRIVATE KEY"
    r"|pass|secret|token|api|key|credential"
)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:[<{$%*.\[(/~].*|x+|none|null|nil|true|false|redacted|changeme|required|optional)$"
)
_ASSIGNMENT_KINDS = (
    ("pass", "password"),
    ("token", "token"),
    ("secret", "secret"),
    ("key", "api-key"),
    ("credential", "credential"),
)


def _assignment_kind(key: str) -> str:
    lowered = key.lower()
    return next((kind for part, kind in _ASSIGNMENT_KINDS if part in lowered), "credential")


def _looks_secret(value: str) -> bool:
    """A value worth flagging: not a placeholder, and not a plain word."""
    if len(value) < 6 or _PLACEHOLDER.match(value):
        return False
    has_digit = any(char.isdigit() for char in value)
    # Hyphens and underscores join words ("see-the-docs"); other symbols suggest a secret.
    has_symbol = any(not char.isalnum() and char not in "-_" for char in value)
    return has_digit or has_symbol or len(value) >= 16


def _spans(line: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each secret part in one line, earlier and longer first."""
    spans: list[tuple[str, int, int]] = []
    if _HINT.search(line) is None:
        return spans  # the common case: nothing that any pattern below could match
    for kind, pattern in _TOKEN_PATTERNS:
        for match in pattern.finditer(line):
            group = "secret" if "secret" in pattern.groupindex else 0
            spans.append((kind, match.start(group), match.end(group)))
    for match in _ASSIGNMENT.finditer(line):
        if _looks_secret(match.group("secret")):
            kind = f"{_assignment_kind(match.group('key'))}-assignment"
            spans.append((kind, match.start("secret"), match.end("secret")))
    if _PRIVATE_KEY_BEGIN.search(line):
        spans.append(("private-key", 0, len(line)))
    spans.sort(key=lambda span: (span[1], -span[2]))
    merged: list[tuple[str, int, int]] = []
    for kind, start, end in spans:
        if merged and start < merged[-1][2]:
            last_kind, last_start, last_end = merged[-1]
            merged[-1] = (last_kind, last_start, max(last_end, end))
        else:
            merged.append((kind, start, end))
    return merged


def _key_block_flags(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Pair each line with whether it lies inside a private-key block (after its BEGIN line).

    The BEGIN line itself is not inside (it is found and masked as ``private-key`` like any
    other finding); every line after it is, up to and including the END line.
    """
    in_key = False
    for line in lines:
        if in_key:
            in_key = _PRIVATE_KEY_END.search(line) is None
            yield line, True
            continue
        yield line, False
        in_key = bool(_PRIVATE_KEY_BEGIN.search(line)) and _PRIVATE_KEY_END.search(line) is None


def find_secrets(text: str) -> list[tuple[str, int]]:
    """Return ``(kind, line)`` for each line holding a likely credential (T-5); 1-based lines.

    One entry per kind and line; a private-key block is reported once, at its ``BEGIN`` line.
    The secret itself is never part of the result.
    """
    found: list[tuple[str, int]] = []
    for number, (line, in_key_block) in enumerate(_key_block_flags(text.split("\n")), start=1):
        if not in_key_block:
            kinds = dict.fromkeys(kind for kind, _, _ in _spans(line))
            found.extend((kind, number) for kind in kinds)
    return found


def mask_secrets(line: str) -> str:
    """Return ``line`` with each likely credential replaced by ``[masked: <kind>]`` (I-8).

    An assignment keeps its key (``DB_PASSWORD=[masked: password-assignment]``) so the line
    still says what it is about. A line that starts a private-key block is masked whole.
    """
    spans = _spans(line)
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


def mask_secret_lines(lines: Sequence[str]) -> list[str]:
    """Mask a sequence of lines (I-8), including every line of a private-key block."""
    return [
        "[masked: private-key]" if in_key_block else mask_secrets(line)
        for line, in_key_block in _key_block_flags(lines)
    ]
