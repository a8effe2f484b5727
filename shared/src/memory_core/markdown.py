"""Small Markdown helpers shared by topics, indexes and templates: fenced code and code spans.

Only what link detection needs, in linear time on any input: which lines are fenced code
(CommonMark fences of three or more backticks or tildes, an unclosed fence running to the end)
and blanking single-line code spans so a link shown as code is not taken for a link.

>>> fenced_lines(["a", "```sh", "[[ -f x ]]", "```", "b"])
[False, True, True, True, False]
>>> blank_code_spans("`[x](a.md)` and [y](b.md)").strip()
'and [y](b.md)'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["blank_code_spans", "fenced_lines", "lines_with_ends"]

_LINE_WITH_END_RE = re.compile(r"[^\n]*\n|[^\n]+")

_FENCE_RE = re.compile(r" {0,3}(```+|~~~+)")
# Spans within one line, without inner backticks: linear time on any input.
_CODE_SPAN_RE = re.compile(r"(`{1,3})[^`\n]+\1")


def _closes(line: str, fence: str) -> bool:
    """A closing fence: the same character, at least as long, nothing else on the line."""
    match = _FENCE_RE.match(line)
    if match is None:
        return False
    marker = match.group(1)
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip().strip(fence[0])


def fenced_lines(lines: Sequence[str]) -> list[bool]:
    """For each line (without its line end), whether it is inside or delimits a code fence."""
    flags: list[bool] = []
    fence: str | None = None
    for line in lines:
        if fence is None:
            match = _FENCE_RE.match(line)
            fence = match.group(1) if match else None
            flags.append(fence is not None)
        else:
            flags.append(True)
            if _closes(line, fence):
                fence = None
    return flags


def blank_code_spans(line: str) -> str:
    """Replace each code span of a line by spaces of the same length (offsets stay valid)."""
    return _CODE_SPAN_RE.sub(lambda match: " " * len(match.group(0)), line)


def lines_with_ends(text: str) -> list[str]:
    """Split ``text`` on ``\\n`` only, each line keeping its own line end (``\\r\\n`` too).

    Joining the result gives ``text`` back byte for byte; a final line without a line end is
    kept as it is, and ``""`` has no lines. Index pruning and the template insert rewrite text
    line by line with this, so every other line stays exactly as written.

    >>> lines_with_ends("a\\r\\nb\\nc")
    ['a\\r\\n', 'b\\n', 'c']
    """
    return _LINE_WITH_END_RE.findall(text)
