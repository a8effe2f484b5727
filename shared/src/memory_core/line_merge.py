"""A three-way merge of line-based text files that keeps every added line (Q-2a).

Used by :func:`memory_core.file_edit.edit_file` for the rare case of two whole-file writes of
one index that it has to combine: both started from ``base``; ``a`` and ``b`` are the two
results. The merge itself is the ``merge3`` library's (the diff3 algorithm, its lines matched at
a bounded cost by :class:`~memory_core.line_matching.PatienceMatcher`: edits far apart are
separate regions, and only a stretch of lines that all repeat can become one conflicting
region); only conflicts are settled here, by a rule that never drops an added line:

- in a conflicting region, ``b``'s version is taken (it is the one standing at the path), and
  after it every line ``a`` added there that neither ``base`` nor ``b`` has;
- lines are split on ``\\n`` only and keep their line ends (``\\r\\n`` included), so bytes outside
  the changed regions come out unchanged.

>>> merge_lines(b"a\\nb\\n", b"a\\nb\\nfrom a\\n", b"b\\nfrom b\\n")
b'b\\nfrom b\\nfrom a\\n'
"""

from __future__ import annotations

import re
from typing import Any

from merge3 import Merge3

from memory_core.line_matching import PatienceMatcher

__all__ = ["changed_on_both", "merge_lines"]

_LINE_RE = re.compile(rb"[^\n]*\n|[^\n]+")


def _lines(data: bytes) -> list[bytes]:
    return _LINE_RE.findall(data)


def _merge_groups(base: bytes, a: bytes, b: bytes) -> Any:
    """``merge3``'s merge groups of the three texts' lines, matched at a bounded cost."""
    # merge3 types its matcher's blocks as list[tuple[int, int, int]]; difflib's Match is one
    matcher: Any = PatienceMatcher
    return Merge3(_lines(base), _lines(a), _lines(b), sequence_matcher=matcher).merge_groups()


def merge_lines(base: bytes, a: bytes, b: bytes) -> bytes:
    """Merge ``a`` and ``b``, two edits of ``base``; ``b`` wins conflicts, no added line is lost.

    All three are the whole files' bytes; the result is too. Never raises.
    """
    merged: list[bytes] = []
    for group in _merge_groups(base, a, b):
        if group[0] == "conflict":
            base_lines, a_lines, b_lines = group[1], group[2], group[3]
            known = set(base_lines) | set(b_lines)
            merged.extend(b_lines)
            merged.extend(line for line in a_lines if line not in known)
        else:
            merged.extend(group[1])
    if merged and not merged[-1].endswith(b"\n") and len(merged) > 1:
        # A last line without its line end that is no longer last would glue onto the next one.
        merged = [line if line.endswith(b"\n") else line + b"\n" for line in merged[:-1]] + [
            merged[-1]
        ]
    return b"".join(merged)


def changed_on_both(base: bytes, a: bytes, b: bytes) -> list[tuple[list[bytes], ...]]:
    """The regions of ``base`` that ``a`` and ``b`` both replaced, each with other lines: the
    places where :func:`merge_lines` keeps both versions one after the other, each as its
    lines in ``base``, ``a`` and ``b``. A region one side only removed, or only added to (its
    lines of ``base`` all still there), is not one.

    >>> changed_on_both(b"x\\nkeep\\n", b"x, said by a\\nkeep\\n", b"x, said by b\\nkeep\\n")
    [([b'x\\n'], [b'x, said by a\\n'], [b'x, said by b\\n'])]
    """
    found: list[tuple[list[bytes], ...]] = []
    for group in _merge_groups(base, a, b):
        if group[0] == "conflict":
            base_lines, a_lines, b_lines = group[1], group[2], group[3]
            was = set(base_lines)
            if a_lines and b_lines and was - set(a_lines) and was - set(b_lines):
                found.append((list(base_lines), list(a_lines), list(b_lines)))
    return found
