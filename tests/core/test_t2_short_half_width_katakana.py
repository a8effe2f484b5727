"""T-2: short legacy CJK text is named by its own encoding, or by several, never by a wrong one.

A short file of half-width katakana in Shift-JIS (``ﾋﾞﾙﾄﾞ``, ``ﾒﾓﾘｰ``, ``- [ﾒﾓ](a.md)``) was
named Windows-1251, GBK/GB18030 or KOI8-R, and the same text in EUC-JP (each kana ``0x8E`` and
a byte) Shift-JIS: the advice's ``iconv -f …`` would have written wrong text for good. Half-width
katakana is one byte a character in Shift-JIS, so its bytes pair up as Chinese or Korean
characters and read as Cyrillic letters too; EUC-JP's ``0x8E`` pairs read as kanji in Shift-JIS.
Right: for each sample, in each encoding that writes its language, and in every form a file
takes (a bare word, a heading, an index line, a topic file), the advice either names the
encoding it is written in alone, or names several, that one among them ("too little text to
tell which"); the sound marks of half-width katakana (``ﾞ ﾟ ｰ`` and the small kana) standing
where Japanese writes them tell Shift-JIS or EUC-JP alone.
"""

from __future__ import annotations

import pytest
from memory_core.decoding import legacy_readings, not_decoded_why

HALF_WIDTH = ["ﾒﾓ", "ﾃｽﾄ", "ｶﾀｶﾅ", "ﾛｸﾞ", "ﾊﾟｽ", "ﾋﾞﾙﾄﾞ", "ﾒﾓﾘｰ", "ｷｬｯｼｭ", "ﾃﾞｰﾀﾍﾞｰｽ"]
JAPANESE = [*HALF_WIDTH, "ｻｰﾊﾞｰ設定", "メモ", "テスト", "ひらがな", "ビルド手順", "設定", "日本語"]
SAMPLES = [
    *((text, codec) for text in JAPANESE for codec in ("cp932", "euc_jp")),
    *((text, "gb18030") for text in ("测试", "中文", "设置", "数据库", "构建步骤")),
    *((text, "big5") for text in ("備份", "測試", "資料", "建置步驟")),
    *((text, "euc_kr") for text in ("메모", "한국어", "설정", "빌드 절차")),
    *((text, "cp1252") for text in ("café", "Größe", "Ærø", "CAFÉ ÉTÉ", "20°C", "Straße")),
]
FORMS = ["{}", "# {}\n", "- [{}](a.md) {}\n", "---\nname: a\ndescription: {}\n---\n{}\n"]
KNOWN_AS = {"cp932": "CP932", "euc_jp": "EUC-JP", "gb18030": "GB18030", "big5": "BIG5"}


def _reads_as(raw: bytes, codec: str, text: str) -> bool:
    try:
        return raw.decode(codec) == text
    except UnicodeDecodeError:
        return False


@pytest.mark.parametrize("weigh", [True, False], ids=["weighed", "hook"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("sample", "codec"), SAMPLES)
def test_t2_short_legacy_text_is_named_by_its_encoding_or_said_too_short(
    sample: str, codec: str, form: str, weigh: bool
) -> None:
    text = form.format(sample, sample)
    raw = text.encode(codec)

    readings = legacy_readings(raw, weigh=weigh)

    if readings is None:  # read as Windows-1252: right only for Western text
        assert codec == "cp1252", f"{text!r} in {codec} read as Windows-1252"
    elif len(readings) == 1:  # named: the one it is written in (or one that reads it alike)
        assert _reads_as(raw, readings[0], text), f"{text!r} in {codec} named {readings}"
    else:  # too little to tell: the one it is written in among them
        assert any(_reads_as(raw, reading, text) for reading in readings), (
            f"{text!r} in {codec} named {readings}"
        )


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
@pytest.mark.parametrize("sample", ["ﾋﾞﾙﾄﾞ", "ｷｬｯｼｭ", "ﾃﾞｰﾀﾍﾞｰｽ", "ﾊﾟｽﾜｰﾄﾞ", "ｼﾞｮﾌﾞ"])
def test_t2_half_width_katakana_with_its_sound_marks_is_named_alone(
    sample: str, codec: str
) -> None:
    raw = f"- [{sample}](a.md)\n".encode(codec)

    assert legacy_readings(raw) == (codec,)
    unweighed = legacy_readings(raw, weigh=False)  # a hook: KOI8-R is not weighed out
    assert unweighed is not None and unweighed[0] == codec
    why = not_decoded_why(raw)
    assert why is not None and f"(iconv -f {KNOWN_AS[codec]} -t UTF-8)" in why


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
@pytest.mark.parametrize("sample", ["ﾛｸﾞ", "ﾊﾟｽ", "ｼｮｯﾄ"])
def test_t2_half_width_katakana_with_one_sound_mark_is_named_first(sample: str, codec: str) -> None:
    raw = f"- [{sample}](a.md)\n".encode(codec)

    for weigh in (True, False):
        readings = legacy_readings(raw, weigh=weigh)
        assert readings is not None and readings[0] == codec


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
@pytest.mark.parametrize("sample", ["ﾒﾓ", "ﾒﾓﾘｰ", "ｶﾀｶﾅ", "ﾈｯﾄﾜｰｸ"])
def test_t2_half_width_katakana_without_a_telling_mark_is_said_too_short(
    sample: str, codec: str
) -> None:
    raw = f"- [{sample}](a.md)\n".encode(codec)

    why = not_decoded_why(raw)

    assert why is not None and "too little text to tell which" in why, why
    assert f"iconv -f {KNOWN_AS[codec]} -t UTF-8" in why
