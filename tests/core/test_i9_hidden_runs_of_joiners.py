"""I-9: a character only its neighbours make legitimate is legitimate once, never as a run.

One combining grapheme joiner keeps two marks apart (``u\\u034f\\u0308``); two or more in a row
keep nothing more apart and render as nothing, so a run of them counts out bits a person cannot
see: such a run is hidden whole, wherever it stands.
"""

from __future__ import annotations

import pytest
from memory_core.hidden_text import find_hidden, show_hidden

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


@pytest.mark.parametrize("text", ["u\u034f\u0308", "יְרוּשָׁלַ\u034fִם", "a\u0301\u034f\u0301"])
def test_i9_one_grapheme_joiner_between_marks_stays(text: str) -> None:
    """The joiner Unicode made for keeping marks apart is not reported and reaches the model."""
    assert find_hidden(text) == []
    assert show_hidden(text) == text
