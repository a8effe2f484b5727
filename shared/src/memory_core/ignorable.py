"""Default-ignorable code points: the characters Unicode says render as nothing (I-9, S-2, T-5b).

One rule for every reader that must see a word as a person does: Unicode's
``Default_Ignorable_Code_Point`` property (DerivedCoreProperties.txt: the format characters such
as the soft hyphen U+00AD, U+200B, U+2060 and U+FEFF, the variation selectors, the Hangul
fillers, the combining grapheme joiner, the Mongolian vowel separator, and the code points
Unicode reserves as ignorable, U+2065 and U+FFF0–U+FFF8 among them), as the ``regex``
library's Unicode data has it, never a list kept here. Search drops them from what it compares
(``pass<U+2060>word`` is ``password``), lint's look-alike names read a name without them.
Whether one is *hidden* text (shown marked) is :mod:`memory_core.hidden_text`'s question, which
judges by neighbours.

>>> is_ignorable("\\u00ad"), is_ignorable("\\u2065"), is_ignorable("\\u3164"), is_ignorable("a")
(True, True, True, False)
>>> without_ignorable("dep\\u2060lo\\ufff0y.md")
'deploy.md'
"""

from __future__ import annotations

import functools
import sys

import regex

__all__ = ["ignorable_class", "is_ignorable", "without_ignorable"]

_PROPERTY = r"\p{Default_Ignorable_Code_Point}"


@functools.cache
def _one() -> regex.Pattern[str]:
    return regex.compile(_PROPERTY)


@functools.cache
def _runs() -> regex.Pattern[str]:
    return regex.compile(_PROPERTY + "+")


def is_ignorable(char: str) -> bool:
    """Whether the one character ``char`` is a Default_Ignorable_Code_Point."""
    return _one().match(char) is not None


def without_ignorable(text: str) -> str:
    """``text`` without its default-ignorable characters (an ASCII text holds none)."""
    return text if text.isascii() else _runs().sub("", text)


@functools.cache
def _ranges() -> tuple[tuple[int, int], ...]:
    """The default-ignorable code points as inclusive ranges, found by matching the property
    over a string of every code point (built in C, ~50 ms once per process)."""
    count = sys.maxunicode + 1
    units = bytearray(4 * count)  # UTF-32-LE: low byte, high byte, plane, zero
    units[0::4] = bytes(range(256)) * (count // 256)
    units[1::4] = b"".join(bytes([high]) * 256 for high in range(256)) * (count // 65536)
    units[2::4] = b"".join(bytes([plane]) * 65536 for plane in range(count // 65536))
    every = units.decode("utf-32-le", "surrogatepass")
    return tuple((start, end - 1) for start, end in (m.span() for m in _runs().finditer(every)))


def ignorable_class(keep: str = "") -> str:
    """The default-ignorable code points but those of ``keep``, as the body of a regular
    expression class (``\\uXXXX`` / ``\\UXXXXXXXX`` escapes, for :mod:`re` and :mod:`regex`
    alike), for a pattern that must name them among other characters. The first call matches
    every code point (~65 ms once per process): call it when the pattern is first needed,
    never at import (S-1).

    >>> "\\\\u00ad" in ignorable_class(), "\\\\u200c" in ignorable_class(keep="\\u200c")
    (True, False)
    """
    kept = {ord(char) for char in keep}
    parts: list[str] = []
    for first, last in _ranges():
        points = [point for point in range(first, last + 1) if point not in kept]
        for start, end in _spans(points):
            parts.append(_escape(start) if start == end else f"{_escape(start)}-{_escape(end)}")
    return "".join(parts)


def _spans(points: list[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for point in points:
        if spans and spans[-1][1] == point - 1:
            spans[-1] = (spans[-1][0], point)
        else:
            spans.append((point, point))
    return spans


def _escape(point: str | int) -> str:
    point = point if isinstance(point, int) else ord(point)
    return f"\\u{point:04x}" if point < 0x10000 else f"\\U{point:08x}"
