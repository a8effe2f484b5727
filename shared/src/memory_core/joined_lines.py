"""Index lines other tools show as several: entries joined by a soft break (T-4, T-5).

Memory cuts text into lines by one rule (:mod:`memory_core.markdown`): a line ends at LF, CRLF
or a lone CR, and nothing else. ``str.splitlines``, many editors and viewers, and a model
reading the text also break a line at a *soft break*: U+2028 LINE SEPARATOR, U+2029 PARAGRAPH
SEPARATOR, NEL (U+0085), a form feed, a vertical tab or U+001C-U+001E. An index whose entries
are joined by one looks like an entry a line there, and is one line to Memory: injected,
capped and linted as one. So lint names such a line (``joined-index-line``, with the
character and how to fix it), and a delete removes only the entry of the line that links the
deleted file, never the entries beside it (:func:`memory_core.index.prune_index`).

>>> joined_breaks("- [A](a.md)\\u2028- [B](b.md)")
['\\u2028']
>>> links = lambda part: "](" in part
>>> parts_without("- [A](a.md)\\u2028- [B](b.md)\\u2028- [C](c.md)", lambda p: "b.md" in p, links)
('- [A](a.md)\\u2028- [C](c.md)', ['- [B](b.md)'])
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable

__all__ = [
    "SOFT_BREAKS",
    "break_name",
    "entries",
    "filled_parts",
    "has_soft_break",
    "joined_breaks",
    "parts_without",
]

SOFT_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character ``str.splitlines`` ends a line at besides LF and CR: what other tools may
show as a line break, and Memory keeps inside its line."""

_SOFT_BREAK = re.compile(f"([{SOFT_BREAKS}])")
_NAMES = {
    "\x0b": "LINE TABULATION (vertical tab)",
    "\x0c": "FORM FEED",
    "\x1c": "INFORMATION SEPARATOR FOUR",
    "\x1d": "INFORMATION SEPARATOR THREE",
    "\x1e": "INFORMATION SEPARATOR TWO",
    "\x85": "NEXT LINE (NEL)",
}
"""Names of the soft breaks Python's ``unicodedata.name`` has none for (control characters)."""


def has_soft_break(text: str) -> bool:
    """Whether ``text`` holds any of :data:`SOFT_BREAKS`."""
    return _SOFT_BREAK.search(text) is not None


def _split(line: str) -> tuple[list[str], list[str]]:
    """``line`` cut at its soft breaks: the parts, and the break after each part but the last
    (``len(parts) == len(breaks) + 1``)."""
    pieces = _SOFT_BREAK.split(line)
    return pieces[0::2], pieces[1::2]


def joined_breaks(line: str) -> list[str]:
    """The soft breaks of ``line`` (one line, without its line end) that stand between two
    parts holding text, each once, in the order met; ``[]`` when none joins text (a trailing
    form feed joins nothing)."""
    parts, breaks = _split(line)
    filled = [number for number, part in enumerate(parts) if part.strip()]
    if len(filled) < 2:
        return []
    between = breaks[filled[0] : filled[-1]]
    return list(dict.fromkeys(between))


def filled_parts(line: str) -> int:
    """How many parts between soft breaks of ``line`` hold text (1 for a line without one)."""
    return sum(1 for part in _split(line)[0] if part.strip()) or 1


def break_name(char: str) -> str:
    """``U+2028 LINE SEPARATOR``: a soft break by code point and Unicode name."""
    return f"U+{ord(char):04X} {_NAMES.get(char) or unicodedata.name(char, 'UNNAMED')}"


def parts_without(
    line: str,
    drop: Callable[[str], bool],
    starts_entry: Callable[[str], bool],
    leaves: Callable[[str, int], str] | None = None,
) -> tuple[str, list[str]] | None:
    """``line`` (one line, without its line end) without the *entries* joined in it for which
    ``drop`` holds, and those entries, in order. An entry is a part between soft breaks for
    which ``starts_entry`` holds (it links a file), with the parts after it that do not (its
    text running on past a soft break: ``- [A](a.md) first half<U+2028>second half`` is one
    entry); ``drop`` is asked of its first part. An entry dropped takes the break before it
    (the one after it when it comes first), and no blank part is left at either end of the
    line. None when the line holds fewer than two entries, none is dropped, or every one is:
    then the line goes whole, or stays, as any line does.

    ``leaves(entry, offset)`` (the dropped entry's text, soft breaks and all, and where in
    ``line`` it starts) is what stays of an entry dropped, in its place: ``""`` (the default)
    for nothing, else that text (the ``-->`` / ``<!--`` of a comment running across lines,
    :func:`memory_core.index.comment_ends`).
    """
    parts, breaks = _split(line)
    starts = [0, *(number for number in range(1, len(parts)) if starts_entry(parts[number]))]
    ends = [*starts[1:], len(parts)]
    entries = [range(first, last) for first, last in zip(starts, ends, strict=True)]
    dropped = [entry for entry in entries if drop(parts[entry.start])]
    filled = [entry for entry in entries if any(parts[number].strip() for number in entry)]
    if len(entries) < 2 or not dropped or len(dropped) >= len(filled):
        return None
    gone = {number for entry in dropped for number in entry}
    removed = [_joined(parts, breaks, list(entry)) for entry in dropped]
    if leaves is not None:
        steps = (len(part) + len(brk) for part, brk in zip(parts[:-1], breaks, strict=True))
        offsets = [0, *itertools.accumulate(steps)]
        parts = list(parts)
        for entry in dropped:
            last = entry[-1]
            text = line[offsets[entry.start] : offsets[last] + len(parts[last])]
            if left := leaves(text, offsets[entry.start]):
                parts[entry.start] = left
                gone.remove(entry.start)
    kept = [number for number in range(len(parts)) if number not in gone]
    return _joined(parts, breaks, kept), removed


def entries(line: str, starts_entry: Callable[[str], bool]) -> list[str]:
    """The entries of ``line`` as :func:`parts_without` cuts it (``starts_entry`` as there),
    each with the soft breaks inside it, in order; blank ones left out. ``[line]`` for a line
    of one entry (or none)."""
    parts, breaks = _split(line)
    starts = [0, *(number for number in range(1, len(parts)) if starts_entry(parts[number]))]
    if len(starts) < 2:
        return [line]
    ends = [*starts[1:], len(parts)]
    return [
        _joined(parts, breaks, list(range(first, last)))
        for first, last in zip(starts, ends, strict=True)
        if any(parts[number].strip() for number in range(first, last))
    ]


def _joined(parts: list[str], breaks: list[str], numbers: list[int]) -> str:
    """The parts ``numbers`` (in order, one holding text at least), each after the first with
    the break that stood before it; no blank part at either end."""
    while not parts[numbers[0]].strip():
        numbers = numbers[1:]
    while not parts[numbers[-1]].strip():
        numbers = numbers[:-1]
    text = parts[numbers[0]]
    for number in numbers[1:]:
        text += breaks[number - 1] + parts[number]
    return text
