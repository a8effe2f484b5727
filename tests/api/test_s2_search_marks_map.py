"""S-2: a search mark maps back onto whole characters of the text as written, inside it, even
where a hard wrap (a line break left out of an unspaced run) meets a stretch the search form
folds: half-width kana, a sound mark written apart, a no-break space, Windows line ends."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_api.store import search_text
from memory_api.store.search_text import matches, parse_query, search_form

from tests.api.test_s1_search import FILLED

PIECES = ["喝", "咖", "啡", "用", "ﾃ", "ｶ", "ﾞ", "ﾟ", "゛", "ｰ", "ﾀ", "カ", "が"]
PIECES += [" ", "\u00a0", "\n", "\r\n", "\n  ", "a", "é", "\nﾞ", "ﾃ\r\n゛", "喝\n咖啡"]
PIECES += [f"{FILLED}喝\n咖啡", f"{FILLED}ﾃ\nﾞ", f"{FILLED}ｶ\r\nｰ"]  # lines reaching a fill column


def marked(text: str, query: str) -> list[tuple[int, int]]:
    parsed = parse_query(query)
    assert parsed is not None
    return [(match.start, match.end) for match in matches(text, parsed)]


def test_s2_a_sound_mark_after_a_wrap_leaves_later_marks_in_place() -> None:
    """``ﾞ`` on the line after ``ﾃ`` voices it (``デ``): the line break before it is no wrap
    left out beside the folded stretch, and ``喝\\n咖啡`` further on is marked where it is."""
    text = f"{FILLED}ﾃ\nﾞｰﾀ {FILLED}用户喝\n咖啡"
    assert marked(text, "喝咖啡") == [(48, 52)]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(PIECES), max_size=24).map("".join),
    st.lists(st.sampled_from(["喝", "咖", "啡", "が", "ｶﾞ"]), min_size=1, max_size=3).map("".join),
)
def test_s2_every_mark_lies_in_the_text_and_holds_the_query(text: str, query: str) -> None:
    """Each mark is a non-empty span of the text, and the text it covers, in its search form
    with its blanks and line breaks left out, holds the query's characters."""
    wanted = "".join(search_form(query).split())
    for start, end in marked(text, query):
        assert 0 <= start < end <= len(text)
        assert wanted in "".join(search_form(text[start:end]).split())


def test_s2_fixed_width_spaces_are_folded_without_a_stretch_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Text of CJK and no-break spaces (some input methods type them between every word) is
    folded at C speed: no space is a stretch folded on its own, and each is still a space in
    the search form, its marks where the words are."""
    folded: list[str] = []

    def counting(stretch: str) -> str:
        folded.append(stretch)
        return fold_stretch(stretch)

    fold_stretch = search_text._fold_stretch
    monkeypatch.setattr(search_text, "_fold_stretch", counting)
    text = "中\u00a0文\u3000喝\u2003咖啡\u202f" * 50
    assert search_form(text) == "中 文 喝 咖啡 " * 50
    assert marked(text, "咖啡")[:2] == [(6, 8), (15, 17)]
    assert folded == []


_LINE = st.tuples(  # no code, sound mark nor NUL: the text is indexed by substitutions
    st.sampled_from(["", "- ", "1. ", "# ", "> ", "| ", "  ", " "]),
    st.sampled_from(["", FILLED, f"{FILLED}ｶ", "张三", "咖啡", "a", "é", "\u00a0啡", "\u0e31"]),
    st.sampled_from(["", " ", "  ", "\t", "\r"]),
).map("".join)


@settings(max_examples=300)
@given(st.lists(_LINE, max_size=12).map("\n".join))
def test_s2_the_indexed_form_is_the_form_marks_are_mapped_by(text: str) -> None:
    """The search form a text is indexed in (its wraps left out by two substitutions) is the
    one its marks are mapped back by (its wraps found one by one): a word found across a wrap
    is always marked, never one of them joins lines the other keeps apart."""
    assert search_form(text) == search_text._form_with_map(unicodedata.normalize("NFC", text))[0]
