"""T-2: short index lines cut from real text are named their own CJK encoding, or undecided.

A short line of kanji alone in EUC-JP (``- [議事録](settings.md) ― 確認``) was named GBK/GB18030
(5 of 150 generated one-line indexes), Big5 ``- [測試及整](note.md)`` EUC-JP: ``chardet``'s
verdict on a few characters stood out wrongly. Now readings that stand alike are weighed by how
often their language writes each character they read as (``議事録`` in Japanese, ``的祸峡`` in
Chinese): the lines below, cut from real prose in each language, are named their own encoding,
or named with every encoding they may be in; never one they are not in. So are short lines of
real Russian in Windows-1251 and KOI8-R, and of French, German and Spanish in Windows-1252 and
Latin-1: ``- [не](note.md)`` in Windows-1251 (``Íå``) was read as Western text, and
``ЗАМЕЧАНИЕ`` in capitals named KOI8-R (where it reads as lower-case letters, ``гбнеючмхе``).
"""

from __future__ import annotations

import pytest
from memory_core.decoding import legacy_readings

from tests.core.legacy_text_lines import LANGUAGE_OF, WORDS_OF, short_lines, short_words
from tests.core.test_t2_legacy_cjk_index import _CJK_ENCODINGS, _index_lines

UNDECIDED_AT_MOST = {
    ("cp932", "title"): 0.05,
    ("cp932", "described"): 0.05,
    ("euc_jp", "title"): 0.25,
    ("euc_jp", "described"): 0.05,
    ("gb18030", "title"): 0.35,
    ("gb18030", "described"): 0.05,
    ("big5", "title"): 0.1,
    ("big5", "described"): 0.05,
    ("euc_kr", "title"): 0.7,  # two or three Hangul syllables: as many GB18030 hanzi
    ("euc_kr", "described"): 0.05,
}
"""The share of lines too short to tell which encoding, for each encoding and kind of line."""


def _named(raw: bytes, codec: str) -> str:
    found = legacy_readings(raw)
    if found == (codec,):
        return "right"
    if found is not None and codec in found:
        return "undecided"
    return f"named {found}"


@pytest.mark.parametrize("kind", ["title", "described"])
@pytest.mark.parametrize("codec", list(LANGUAGE_OF))
def test_t2_short_lines_of_real_text_are_never_named_another_cjk_encoding(
    codec: str, kind: str
) -> None:
    lines = short_lines(codec, kind)
    assert len(lines) == 150
    named = {raw: _named(raw, codec) for raw in lines}
    wrong = {
        raw.decode(codec): verdict for raw, verdict in named.items() if verdict.startswith("named")
    }
    assert wrong == {}
    undecided = sum(verdict == "undecided" for verdict in named.values())
    assert undecided <= UNDECIDED_AT_MOST[codec, kind] * len(lines)


@pytest.mark.parametrize(
    ("text", "codec"),
    [("- [優雅](note.md)\n", "euc_kr"), ("- [備份](build.md) - 備份\n", "big5")],
)
def test_t2_cjk_read_as_cyrillic_words_with_capitals_inside_is_named_cjk_first(
    text: str, codec: str
) -> None:
    """Two Hanja alone (``優雅``) read in Windows-1251 as ``йРдє``, Big5 ``備份`` as ``іЖҐч``:
    each was named Windows-1251 alone. Cyrillic words seldom have a capital after a lower-case
    letter: the CJK encodings come first, Windows-1251 last, too little to tell."""
    readings = legacy_readings(text.encode(codec)) or ()
    assert codec in readings[:-1]
    assert readings[-1] == "cp1251"


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize(("lang", "codec"), _CJK_ENCODINGS, ids=str)
def test_t2_generated_index_lines_are_never_named_another_cjk_encoding(
    lang: str, codec: str, lines: int
) -> None:
    """The 5 of 150 one-line EUC-JP indexes of kanji alone that were named GBK/GB18030, and a
    Big5 and a GB18030 one named Windows-1251 (``іЖҐч``, ``јаїШ``)."""
    samples = _index_lines(lang, codec, lines)
    wrong = {}
    for raw in samples:
        found = legacy_readings(raw) or ()
        if len(found) == 1 and found[0] != codec:
            wrong[raw.decode(codec)] = found
    assert wrong == {}


@pytest.mark.parametrize("kind", ["title", "described"])
@pytest.mark.parametrize("codec", list(WORDS_OF))
def test_t2_short_lines_of_real_8_bit_text_are_named_right_or_with_their_own(
    codec: str, kind: str
) -> None:
    """Western lines are read as written, or named with Windows-1252 among others; Cyrillic
    ones named their own encoding, or it among others."""
    lines = short_words(codec, kind)
    assert len(lines) == 150
    western = WORDS_OF[codec] == "western"
    own = "cp1252" if western else codec
    wrong = {
        raw.decode(codec): found
        for raw in lines
        if (found := legacy_readings(raw)) != (None if western else (codec,))
        and own not in (found or ())
    }
    assert wrong == {}


@pytest.mark.parametrize("codec", ["cp1251", "koi8_r"])
def test_t2_a_cyrillic_name_with_capitals_inside_stands_among_other_words(codec: str) -> None:
    """``МосГорТранс`` has capitals inside as CJK read as Cyrillic does (``йРдє``): among other
    words it is read as written; alone it is too little to tell, and its encoding is named."""
    among = "- [Транспорт](t.md) - МосГорТранс и метро\n- [Кофе](c.md) - без сахара\n"
    assert legacy_readings(among.encode(codec)) == (codec,)
    assert codec in (legacy_readings("- [МосГорТранс](t.md)\n".encode(codec)) or ())
