"""T-2: a short text that is not UTF-8 is read right, or named with every encoding it may be in.

A few short notes were named as an encoding they are not in, on too little text to tell:
``Кофе`` in Windows-1251 as GBK/GB18030 (shown as Chinese, and ``iconv -f GB18030`` given as
the fix, which writes wrong text for good), ``Ærø`` in Latin-1 as Big5, ``‘a’`` in
Windows-1252 as Shift-JIS, ``çà`` in Latin-1 as Windows-1251. Right: text with a few bytes
above 0x7F that reads as Western text too is named with each encoding it may be in, Windows-1252
among them, none shown as its text (an import skips the file and names them all); a few
Windows-1251 letters are told by their case, as KOI8-R's are, unless they read as Western text
in a word with ASCII letters (``Il erre çà et là``: read as Windows-1252, as before the case
rule); a word wholly of them that reads both ways is named with both (``да`` in Windows-1251 is
``äà``, and was read as that; ``çà`` is the very bytes of ``за``), and after the CJK encodings
that read them as common characters (short Big5 ``測試``, EUC-KR ``메모``, EUC-JP ``手順``
were named Windows-1251 first); every other reading stands. Each
sample has one right outcome: read as written, or named with exactly these readings.
"""

from __future__ import annotations

import re

import pytest
from memory_core.decoding import SHORT_TEXT_BYTES, decode_file, legacy_readings, shown_text

SHORT = [
    ("Café", "latin_1"),
    ("Noël à Paris", "latin_1"),
    ("Größe", "latin_1"),
    ("Ærø", "latin_1"),
    ("çà", "latin_1"),
    ("naïve…", "cp1252"),
    ("50 €", "cp1252"),
    ("‘a’", "cp1252"),
    ("„Zitat“", "cp1252"),
    ("設定", "cp932"),
    ("メモ", "cp932"),
    ("ビルド", "cp932"),
    ("中文", "big5"),
    ("資料", "big5"),
    ("測試", "big5"),
    ("Кофе", "koi8_r"),
    ("да", "koi8_r"),
    ("мир", "koi8_r"),
    ("Кофе", "cp1251"),
    ("Тест", "cp1251"),
    ("Привет", "cp1251"),
    ("да", "cp1251"),
]
FORMS = ["{}", "# {}\n", "- [{}](a.md)\n", "---\nname: a\ndescription: {}\n---\n{}\n"]
WESTERN = {"latin_1": "cp1252", "cp1252": "cp1252"}
TOO_SHORT_CJK = ("gb18030", "big5", "euc_jp", "euc_kr")
NAMED = {
    ("設定", "cp932"): ("cp932",),
    ("メモ", "cp932"): ("cp932",),
    ("ビルド", "cp932"): ("cp932",),
    ("中文", "big5"): ("big5",),
    ("資料", "big5"): ("big5",),
    ("測試", "big5"): (*TOO_SHORT_CJK, "cp1251"),
    ("Кофе", "koi8_r"): ("koi8_r",),
    ("да", "koi8_r"): ("koi8_r", *TOO_SHORT_CJK, "cp1252"),
    ("мир", "koi8_r"): ("koi8_r",),
    ("Кофе", "cp1251"): ("cp1251",),
    ("Тест", "cp1251"): ("cp1251",),
    ("Привет", "cp1251"): ("cp1251",),
    ("да", "cp1251"): ("cp1251", "cp1252"),  # ``äà``: read so, it was never named Cyrillic
    ("çà", "latin_1"): ("cp1251", "cp1252"),  # ``за``: the same bytes
}
"""The readings each non-Western word is named with, in every form but those of
:data:`NAMED_IN_FORM`; every Western sample not in it is read as written."""
NAMED_IN_FORM = {
    ("- [Ærø](a.md)\n", "latin_1"): ("big5", "cp1252"),
    ("- [‘a’](a.md)\n", "cp1252"): ("cp932", "cp1252"),
}


def _samples() -> list[tuple[str, str, tuple[str, ...] | None]]:
    """``(text, codec, the readings it is named with, or None: read as written)``."""
    found: list[tuple[str, str, tuple[str, ...] | None]] = []
    for word, codec in SHORT:
        for form in FORMS:
            text = form.format(word, word)
            found.append((text, codec, NAMED_IN_FORM.get((text, codec), NAMED.get((word, codec)))))
    return found


@pytest.mark.parametrize(("text", "codec", "named"), _samples(), ids=lambda v: ascii(v)[:40])
def test_t2_a_short_text_is_read_as_written_or_named_with_its_own_encoding_among_others(
    text: str, codec: str, named: tuple[str, ...] | None
) -> None:
    raw = text.encode(codec)
    decoded, problems = decode_file(raw)
    readings = legacy_readings(raw)
    if named is None:  # read: as it was written, never another text
        assert readings is None
        assert decoded == text, problems
        return
    assert decoded is None
    assert readings == named
    assert WESTERN.get(codec, codec) in readings
    assert problems[0].startswith("encoding: not decoded: it is not UTF-8, and looks like ")
    assert problems[0].count("iconv -f ") == len(readings)
    shown = shown_text(raw)
    if len(readings) > 1:  # too little to tell: no reading shown as its text
        assert "too little text to tell which" in problems[0]
        assert re.fullmatch(r"[\x00-\x7f\ufffd]*", shown), shown
    else:
        assert shown == text


@pytest.mark.parametrize(
    ("text", "codec", "readings"),
    [
        ("- [Ærø](a.md)\n", "latin_1", ("big5", "cp1252")),
        ("- [‘a’](a.md)\n", "cp1252", ("cp932", "cp1252")),
        ("# çà\n", "latin_1", ("cp1251", "cp1252")),
        ("- [çà](a.md)\n", "cp1252", ("cp1251", "cp1252")),
    ],
)
def test_t2_short_western_text_once_named_cjk_or_cyrillic_is_named_with_windows_1252_too(
    text: str, codec: str, readings: tuple[str, ...]
) -> None:
    raw = text.encode(codec)
    assert legacy_readings(raw) == readings
    _, [problem] = decode_file(raw)
    assert "Windows-1252 (Western)" in problem and "iconv -f CP1252 -t UTF-8" in problem


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("word", ["да", "за", "мы", "от", "не"])
def test_t2_a_short_windows_1251_word_that_reads_as_western_is_named_with_both(
    word: str, form: str
) -> None:
    """``да`` in Windows-1251 is ``äà`` in Windows-1252: it was read as that, Cyrillic never
    named. Two lower-case Cyrillic letters alone cannot be told from two accented Latin ones
    (``за`` is ``çà``): each encoding is named, none shown as its text."""
    raw = form.format(word, word).encode("cp1251")
    assert legacy_readings(raw) == ("cp1251", "cp1252")
    decoded, [problem] = decode_file(raw)
    assert decoded is None
    assert "iconv -f CP1251 -t UTF-8" in problem and "iconv -f CP1252 -t UTF-8" in problem


@pytest.mark.parametrize("word", ["Кофе", "Тест", "Привет", "Заметки", "ещё №5", "«итог»"])
def test_t2_a_few_windows_1251_letters_are_named_windows_1251_never_gbk(word: str) -> None:
    """``Кофе`` was named GBK/GB18030, ``ещё №5`` Shift-JIS: a few Cyrillic letters read in
    Windows-1251 as words, capitals at most one in three, the signs Cyrillic text uses aside."""
    raw = f"- [{word}](a.md)\n".encode("cp1251")
    assert legacy_readings(raw) == ("cp1251",)
    assert shown_text(raw) == f"- [{word}](a.md)\n"


def test_t2_text_past_the_short_size_keeps_its_one_reading() -> None:
    """``Größe Füße`` (four bytes above 0x7F) is short and read as Windows-1252; a Shift-JIS
    line of more is named Shift-JIS alone, as before."""
    assert SHORT_TEXT_BYTES == 4
    assert decode_file("Größe Füße".encode("cp1252"))[0] == "Größe Füße"
    assert legacy_readings("- [設定](a.md) ビルド手順".encode("cp932")) == ("cp932",)


@pytest.mark.parametrize(
    "text", ["Il erre çà et là\n", "- [Notes](a.md) çà et là", "- [Öl](a.md)\n"]
)
@pytest.mark.parametrize("codec", ["latin_1", "cp1252"])
def test_t2_short_western_text_is_never_taken_for_windows_1251_by_its_case(
    text: str, codec: str
) -> None:
    """Read as Windows-1252 before the case rule for a few Windows-1251 letters, then named
    Windows-1251 first (``çà`` is ``за`` there, two lower-case Cyrillic letters): Western text
    whose accented letters stand in words with ASCII letters is read so again."""
    raw = text.encode(codec)
    assert legacy_readings(raw) is None
    decoded, [problem] = decode_file(raw)
    assert decoded == text
    assert problem.endswith("; read as cp1252")


@pytest.mark.parametrize(
    ("word", "codec"), [("測試", "big5"), ("메모", "euc_kr"), ("手順", "euc_jp")]
)
def test_t2_two_cjk_characters_are_named_cjk_first_windows_1251_last(word: str, codec: str) -> None:
    """Their bytes read in Windows-1251 as lower-case letters too (``ґъёХ``), so the case rule
    took them: Windows-1251 was named first. CJK characters that all stand where their text has
    them come first now; two of them cannot tell which CJK encoding, so each is named."""
    raw = f"- [{word}](a.md)\n".encode(codec)
    readings = legacy_readings(raw)
    assert readings == (*TOO_SHORT_CJK, "cp1251")
    assert codec in readings[:-1]
