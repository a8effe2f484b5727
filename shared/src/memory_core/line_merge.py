"""A three-way merge of line-based text files that keeps every added line (Q-2a).

Used by :func:`memory_core.file_edit.edit_file` for the rare case of two whole-file writes of
one index that it has to combine: both started from ``base``; ``a`` and ``b`` are the two
results. The merge itself is the ``merge3`` library's (the diff3 algorithm, its lines matched at
a bounded cost by :class:`~memory_core.line_matching.PatienceMatcher`: edits far apart are
separate regions, and only a stretch of lines that all repeat can become one conflicting
region); only conflicts are settled here, by a rule that never drops an added line:

- in a conflicting region, ``b``'s version is taken (it is the one standing at the path), and
  after it every line ``a`` added there that neither ``base`` nor ``b`` has;
- lines are the file's own (A-6, R-2): split where its text, as
  :func:`memory_core.decoding.decode_exact` reads it, ends a line (``\\r\\n``, ``\\r`` alone or
  ``\\n``), each line its bytes in the file's encoding with its line end, the byte order mark a
  line of its own; so an index with CR-only line ends, in UTF-16 (where a ``0x0A`` byte may be
  half of a character, ``ਪ`` is ``2A 0A``) or UTF-32 merges line by line, every added line
  once, and bytes outside the changed regions come out unchanged. When a side's bytes do not
  decode exactly (a UTF-16 file an agent appended UTF-8 bytes to, a cut code unit), or the
  sides end lines in different bytes (UTF-16 against UTF-8), all three are split at each
  ``\\n`` byte alike, so the lines they share still match (an empty side, a deleted or emptied
  file, has no form and decides nothing);
- a line left without its end (it was last on its side) that is no longer last gets the line
  end most lines of the result's form have: ``b``'s, or the other side's when ``b`` is empty;
  a byte order mark only one side has comes first once, never as a line of its own.

>>> merge_lines(b"a\\nb\\n", b"a\\nb\\nfrom a\\n", b"b\\nfrom b\\n")
b'b\\nfrom b\\nfrom a\\n'
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from merge3 import Merge3

from memory_core.decoding import CP1252_UNDEFINED, decode_exact
from memory_core.line_matching import PatienceMatcher

__all__ = ["changed_on_both", "merge_lines"]

_LINE_RE = re.compile(rb"[^\n]*\n|[^\n]+")
_MARKED = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


@dataclass(frozen=True, slots=True)
class _Split:
    """A file's lines (bytes, each with its line end; the byte order mark, ``bom``, first as a
    line of its own) and the codec its text was decoded with."""

    lines: list[bytes]
    bom: bytes = b""
    codec: str = "utf-8"

    def text(self, line: bytes) -> str:
        """``line`` (one of :attr:`lines`) as text, a byte that is no character in the codec as
        U+FFFD (cp1252's undefined bytes as decode_exact reads them); the byte order mark is
        ``""``."""
        errors = CP1252_UNDEFINED if self.codec == "cp1252" else "replace"
        return "" if self.bom and line == self.bom else line.decode(self.codec, errors)

    def ends(self) -> tuple[bytes, ...]:
        """The line ends as bytes in this file's encoding: CRLF, CR, LF."""
        return tuple(end.encode(self.codec) for end in ("\r\n", "\r", "\n"))


def _split(data: bytes) -> _Split | None:
    """``data`` split into its own lines (the module docstring); None when it does not decode
    exactly."""
    if b"\r" not in data and b"\0" not in data and not data.startswith(_MARKED):
        return _Split(_LINE_RE.findall(data))  # ASCII line ends, no mark: bytes split alike
    exact = decode_exact(data)
    if exact is None:
        return None
    lines = exact.lines()  # a line of another encoding in UTF-8 text: its own bytes
    bom = exact.bom
    return _Split([bom, *lines] if bom else lines, bom, exact.codec)


def _splits(base: bytes, a: bytes, b: bytes) -> tuple[_Split, _Split, _Split]:
    """The three sides split alike: each into its own lines when every side with bytes
    decodes exactly and ends lines in the same bytes, else each at every ``\\n`` byte."""
    own = _split(base), _split(a), _split(b)
    forms = {
        split.ends() if split else None
        for split, data in zip(own, (base, a, b), strict=True)
        if data
    }
    if len(forms) > 1 or None in forms:
        return (
            _Split(_LINE_RE.findall(base)),
            _Split(_LINE_RE.findall(a)),
            _Split(_LINE_RE.findall(b)),
        )
    empty = _Split([])
    return own[0] or empty, own[1] or empty, own[2] or empty


def _merge_groups(base: _Split, a: _Split, b: _Split) -> Any:
    """``merge3``'s merge groups of the three texts' lines, matched at a bounded cost."""
    # merge3 types its matcher's blocks as list[tuple[int, int, int]]; difflib's Match is one
    matcher: Any = PatienceMatcher
    return Merge3(base.lines, a.lines, b.lines, sequence_matcher=matcher).merge_groups()


def _ended(merged: list[bytes], split: tuple[_Split, _Split, _Split]) -> list[bytes]:
    """``merged`` in the form of ``b``, or when ``b`` has no lines ``a``'s, else ``base``'s:
    its byte order mark first once (one only ``a`` added kept too; an emptied side dropped
    none), and each line but the last that has no line end (it was last on its side) given
    one, so it never glues onto the next: the end most of the form's lines have (LF when none
    has one). NUL bytes alone are no line to end: the rest of a UTF-16 or UTF-32 line end
    after its ``0x0A`` byte, when the sides were split at those."""
    form = next((side for side in reversed(split) if side.lines), split[2])
    marks = {side.bom for side in split if side.bom}
    marked = [line for line in merged if line in marks]
    rest = [line for line in merged if line not in marks]
    if rest and (marked or form.bom):
        merged = [form.bom or marked[0], *rest]
    ends = form.ends()
    endless = [
        at
        for at, line in enumerate(merged[:-1])
        if not line.endswith(ends) and not (at == 0 and line in marks) and line.strip(b"\0")
    ]
    if not endless:
        return merged
    had = Counter(end for line in form.lines for end in ends if line.endswith(end))
    usual = max(ends, key=lambda end: (had[end], end == ends[2]))
    for at in endless:
        merged[at] += usual
    return merged


def merge_lines(base: bytes, a: bytes, b: bytes) -> bytes:
    """Merge ``a`` and ``b``, two edits of ``base``; ``b`` wins conflicts, no added line is lost.

    All three are the whole files' bytes; the result is too. Never raises.
    """
    split = _splits(base, a, b)
    merged: list[bytes] = []
    for group in _merge_groups(*split):
        if group[0] == "conflict":
            base_lines, a_lines, b_lines = group[1], group[2], group[3]
            known = set(base_lines) | set(b_lines)
            merged.extend(b_lines)
            merged.extend(line for line in a_lines if line not in known)
        else:
            merged.extend(group[1])
    return b"".join(_ended(merged, split))


def changed_on_both(base: bytes, a: bytes, b: bytes) -> list[tuple[list[str], ...]]:
    """The regions of ``base`` that ``a`` and ``b`` both replaced, each with other lines: the
    places where :func:`merge_lines` keeps both versions one after the other, each as its
    lines in ``base``, ``a`` and ``b``, as text (each file's own, line ends kept; a byte order
    mark is no line). A region one side only removed, or only added to (its lines of ``base``
    all still there), is not one.

    >>> changed_on_both(b"x\\nkeep\\n", b"x, said by a\\nkeep\\n", b"x, said by b\\nkeep\\n")
    [(['x\\n'], ['x, said by a\\n'], ['x, said by b\\n'])]
    """
    split = _splits(base, a, b)
    found: list[tuple[list[str], ...]] = []
    for group in _merge_groups(*split):
        if group[0] == "conflict":
            base_lines, a_lines, b_lines = group[1], group[2], group[3]
            was = set(base_lines)
            if a_lines and b_lines and was - set(a_lines) and was - set(b_lines):
                found.append(
                    tuple(
                        [text for line in lines if (text := form.text(line))]
                        for form, lines in zip(split, (base_lines, a_lines, b_lines), strict=True)
                    )
                )
    return found
