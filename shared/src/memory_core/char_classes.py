"""The Unicode character classes the hidden-text rule judges by, as this process has them (I-9).

:mod:`memory_core.hidden_text` asks whether a character is a letter, a mark, a number or a
decimal digit (``unicodedata.category``: a joiner after a letter of a joining script, a
zero-width space between two Thai letters, a soft hyphen inside a word of letters). Python's
Unicode data is the version its release shipped (Unicode 14.0 in Python 3.11, 15.0 in 3.12),
while a browser's ``\\p{M}`` is its own, newer one: a mark added since (U+0CF3 of Unicode 15,
U+0897 of Unicode 16) was a mark to the page and no character to the service, so the page
showed a joiner after it as written while the model was shown it marked. The web page's copy of
the rule therefore judges by these classes, served from the service that judges
(:func:`class_ranges`, ``static/js/unicode-classes.js``): one answer per character, whatever
Unicode version the browser knows.

>>> class_ranges()["Nd"][0]
(48, 57)
"""

from __future__ import annotations

import functools
import itertools
import sys
import unicodedata

__all__ = [
    "CLASSES",
    "NEWER_FORMAT_CHARACTERS",
    "UNICODE_VERSION",
    "class_ranges",
    "is_format_character",
]

CLASSES = ("L", "M", "N", "Nd")
"""The classes the rule asks about: letters, marks, numbers (each a general category's first
letter) and decimal digits (one category)."""
UNICODE_VERSION = unicodedata.unidata_version
"""The Unicode version the classes are this process's of."""
NEWER_FORMAT_CHARACTERS = ((0x13439, 0x1343F),)
r"""The format characters (category Cf) Unicode added after 14.0, the data of Python 3.11, whose
``unicodedata`` holds them as unassigned (Cn): the Egyptian hieroglyph format controls
U+13439-U+1343F of Unicode 15.0. Unicode 15.1, 16.0 and 17.0 added none (compared with
``DerivedGeneralCategory.txt`` 16.0 and a JavaScript engine's ``\p{Cf}`` of Unicode 17.0:
``tests/core/test_i9_newer_format_characters.py``)."""


def is_format_character(char: str) -> bool:
    """Whether ``char`` is a format character (Cf) of Unicode 17.0: by this Python's data, or
    one of :data:`NEWER_FORMAT_CHARACTERS` it does not know yet (I-9)."""
    if unicodedata.category(char) == "Cf":
        return True
    return any(first <= ord(char) <= last for first, last in NEWER_FORMAT_CHARACTERS)


_BLOCK = 4096
"""Code points asked per step: a step runs in C without a break, holding the GIL (a run of one
category spans up to 655,360 code points, planes 4 to 13 unassigned: ~0.3 s with no other
thread let in, the service's event loop among them)."""


@functools.cache
def class_ranges() -> dict[str, list[tuple[int, int]]]:
    """Each of :data:`CLASSES` → the sorted inclusive code point ranges ``(first, last)`` of
    its characters, as ``unicodedata.category`` tells them here. Once per process.

    Every code point's category is asked, but in C (``map``) and grouped in C
    (``itertools.groupby``: runs of one category within each :data:`_BLOCK`), so Python steps
    once per run, not once per code point: 0.46 s at load 10, where a loop per code point took
    1.2-1.6 s. A run joins the class range before it when they touch (``Lu`` then ``Ll``, or
    one category's run cut at a block's end: one range)."""
    ranges: dict[str, list[tuple[int, int]]] = {name: [] for name in CLASSES}
    end = sys.maxunicode + 1
    for block in range(0, end, _BLOCK):
        first = block
        points = range(block, min(block + _BLOCK, end))
        for category, run in itertools.groupby(map(unicodedata.category, map(chr, points))):
            last = first + len(list(run)) - 1
            for name in {category[0], category}.intersection(CLASSES):
                found = ranges[name]
                if found and found[-1][1] == first - 1:
                    found[-1] = (found[-1][0], last)
                else:
                    found.append((first, last))
            first = last + 1
    return ranges
