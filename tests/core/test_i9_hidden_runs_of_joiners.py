"""I-9: a character only its neighbours make legitimate is legitimate once, never as a run.

One combining grapheme joiner keeps a mark from its letter (``u\\u034f\\u0308``, a diaeresis
and no umlaut) or blocks the canonical reordering of two marks: Unicode made it for that. Two or
more in a row keep nothing more apart and render as nothing, so a run of them counts out bits a
person cannot see: such a run is hidden whole, wherever it stands. Between two marks a joiner is
kept only where it blocks a reordering (the mark before has a higher nonzero canonical
combining class than the mark after); after another hidden character it is hidden too.
"""

from __future__ import annotations

import unicodedata

import pytest
from memory_core.hidden_text import find_hidden, show_hidden, without_hidden

CGJ = "\u034f"


@pytest.mark.parametrize(
    ("text", "found", "shown"),
    [
        # a run between two letters: none of them joins marks
        (f"te{CGJ * 3}xt", "3 invisible characters (U+034F)", "te[hidden: 3 × U+034F]xt"),
        # a run before a mark: one would do
        (f"e{CGJ * 2}\u0301", "2 invisible characters (U+034F)", "e[hidden: 2 × U+034F]\u0301"),
        (f"e{CGJ * 5}\u0301", "5 invisible characters (U+034F)", None),
        # between Hebrew vowel points, doubled
        (f"יְרוּשָׁלַ{CGJ * 2}ִם", "2 invisible characters (U+034F)", None),
        # before a variation selector, which is no mark it keeps apart
        (f"e{CGJ}\ufe00", "1 variation selector and 1 invisible character (U+034F)", None),
    ],
)
def test_i9_a_run_of_grapheme_joiners_is_hidden(text: str, found: str, shown: str | None) -> None:
    """Every joiner that keeps no two marks apart is counted and masked."""
    assert find_hidden(text) == [(1, found)]
    if shown is not None:
        assert show_hidden(text) == shown


# Hebrew patah (class 17) before hiriq (class 14): without the joiner, normalisation reorders
# them and Jerusalem's last syllable is spelt another way.
@pytest.mark.parametrize("text", ["u\u034f\u0308", "יְרוּשָׁלַ\u034fִם", "ב\u05b7\u034f\u05b4"])
def test_i9_one_grapheme_joiner_between_marks_stays(text: str) -> None:
    """The joiner Unicode made for keeping marks apart is not reported and reaches the model."""
    assert find_hidden(text) == []
    assert show_hidden(text) == text


@pytest.mark.parametrize(
    ("text", "found", "kept"),
    [
        # after a variation selector, a Khmer inherent vowel or an emoji's presentation selector
        (
            "e\ufe00\u034f\u0301",
            "1 variation selector and 1 invisible character (U+034F)",
            "e\u0301",
        ),
        (
            "e\u17b5\u034f\u0301\u17b5\u034f\u0301",
            "4 invisible characters (U+034F, U+17B5)",
            "e\u0301\u0301",
        ),
        ("❤\ufe0f\u034f\u20e3", "1 invisible character (U+034F)", "❤\ufe0f\u20e3"),
    ],
)
def test_i9_a_grapheme_joiner_after_a_hidden_character_is_hidden(
    text: str, found: str, kept: str
) -> None:
    """A joiner that follows another hidden character keeps nothing apart: it is counted and
    left out, whatever hidden character comes before it."""
    assert find_hidden(text) == [(1, found)]
    assert without_hidden(text)[0] == kept


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        # equal classes: normalisation never swaps two acute accents
        ("a\u0301\u034f\u0301", 1),
        # a lower class before a higher one is in canonical order already
        ("ב\u05b4\u034f\u05b7", 1),
        # alternating: only a joiner after patah and before hiriq blocks a swap
        ("ב" + "\u05b7\u034f\u05b4\u034f" * 10 + "\u05b7", 10),
        # after a mark of class 0 or before one (a keycap encloses, it is not reordered)
        ("क\u093e\u034f\u0301", 1),
        ("e\u0301\u034f\u20e3", 1),
    ],
)
def test_i9_a_grapheme_joiner_that_blocks_no_reordering_is_hidden(text: str, hidden: int) -> None:
    """Between two marks a joiner stays only where the mark before has a higher nonzero
    canonical combining class than the mark after; every other one is counted and left out."""
    noun = "character" if hidden == 1 else "characters"
    assert find_hidden(text) == [(1, f"{hidden} invisible {noun} (U+034F)")]
    kept = without_hidden(text)[0]
    assert kept.count(CGJ) == text.count(CGJ) - hidden
    assert all(
        unicodedata.combining(kept[at - 1]) > unicodedata.combining(kept[at + 1]) > 0
        for at, char in enumerate(kept)
        if char == CGJ
    )
