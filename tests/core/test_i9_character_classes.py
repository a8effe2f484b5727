"""I-9: the character classes the page's hidden-text rule is served (``class_ranges``) are
exactly the ranges ``unicodedata.category`` gives, code point by code point."""

from __future__ import annotations

import sys
import unicodedata

from memory_core.char_classes import CLASSES, class_ranges


def _reference() -> dict[str, list[tuple[int, int]]]:
    """The classes the plain way: every code point asked and placed one by one."""
    ranges: dict[str, list[tuple[int, int]]] = {name: [] for name in CLASSES}
    for point in range(sys.maxunicode + 1):
        category = unicodedata.category(chr(point))
        for name in (category[0], category):
            if name not in ranges:
                continue
            found = ranges[name]
            if found and found[-1][1] == point - 1:
                found[-1] = (found[-1][0], point)
            else:
                found.append((point, point))
    return ranges


def test_i9_the_classes_are_every_code_points_category_exactly() -> None:
    """One pass over all 1,114,112 code points of this process's Unicode data."""
    assert class_ranges() == _reference()


def test_i9_a_class_joins_the_categories_it_holds_into_one_range() -> None:
    """``A-Z`` (Lu) and ``a-z`` (Ll) are two ranges, ``[`` to `````` between them; ``Ø-Þ`` (Lu)
    and ``ß-ö`` (Ll) touch, and are one L range."""
    letters = class_ranges()["L"]
    assert letters[:2] == [(0x41, 0x5A), (0x61, 0x7A)]
    assert (0xC0, 0xD6) in letters and (0xD8, 0xF6) in letters
    assert class_ranges()["Nd"][0] == (0x30, 0x39)
