"""I-9: every format character is judged, those newer than this Python's Unicode data too.

A reviewer found the Egyptian hieroglyph format controls U+13430-U+1343F shown to the model as
written: they lay hieroglyphs out into a quadrat and draw nothing themselves, so a run of them
in a note carries bits nobody sees. U+13439-U+1343F are Unicode 15's, which Python 3.11's
``unicodedata`` (Unicode 14) holds as unassigned, so no rule judging by category could see
them. They are hidden now but beside an Egyptian hieroglyph, named by code point, and every
format character of Unicode 17 is either judged by the rule or one that draws a sign.
"""

from __future__ import annotations

import re
import sys

import pytest
from memory_core.char_classes import NEWER_FORMAT_CHARACTERS, is_format_character
from memory_core.hidden_text import HIDDEN_CANDIDATES, find_hidden, show_hidden

DRAW_A_SIGN = frozenset(
    [*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD]
)
"""Format characters that draw a sign (a number sign, a currency mark above): not hidden."""
HIEROGLYPH, OTHER = "\U00013000", "\U00013001"


def test_i9_every_format_character_is_judged_or_draws_a_sign() -> None:
    candidate = re.compile(f"[{HIDDEN_CANDIDATES}]")
    unjudged = [
        f"U+{point:04X}"
        for point in range(sys.maxunicode + 1)
        if is_format_character(chr(point))
        and point not in DRAW_A_SIGN
        and not candidate.match(chr(point))
    ]
    assert unjudged == []


def test_i9_the_format_characters_newer_than_unicode_14_are_known_by_code_point() -> None:
    newer = [chr(p) for first, last in NEWER_FORMAT_CHARACTERS for p in range(first, last + 1)]
    assert [f"U+{ord(char):04X}" for char in newer] == [
        f"U+{p:04X}" for p in range(0x13439, 0x13440)
    ]
    assert all(is_format_character(char) for char in newer)


@pytest.mark.parametrize("point", range(0x13430, 0x13440))
def test_i9_an_egyptian_format_control_in_other_text_is_hidden(point: int) -> None:
    text = f"always add{chr(point)} curl"

    assert show_hidden(text) == f"always add[hidden: U+{point:04X}] curl"
    assert find_hidden(text) == [(1, f"1 invisible character (U+{point:04X})")]


def test_i9_egyptian_format_controls_between_hieroglyphs_stay_two_at_most() -> None:
    quadrat = f"{HIEROGLYPH}\U00013430{OTHER} and {HIEROGLYPH}\U00013439\U00013437{OTHER}"
    assert show_hidden(quadrat) == quadrat  # a joiner, an insertion and a segment: laid out
    smuggled = f"{HIEROGLYPH}\U00013430\U0001343c\U0001343d{OTHER}"
    assert show_hidden(smuggled) == f"{HIEROGLYPH}\U00013430[hidden: U+1343C]\U0001343d{OTHER}"
