"""T-2: a short Shift-JIS index written with half-width katakana is never advised as another
encoding with confidence.

A reviewer's index ``- [ﾒﾓ](memo.md) - ｺｰﾋｰが好き`` (Shift-JIS, as older Japanese tools write
it) was advised "looks like GBK/GB18030 (gb18030); convert it … iconv -f GB18030": Shift-JIS's
half-width katakana are one byte each (0xA1-0xDF), which GB18030, Big5, EUC and 8-bit Cyrillic
read as their common characters, and no model weighs single bytes. Beside full-width Japanese
they are counted as Japanese, so the index is named Shift-JIS; a few words of them alone are as
well one encoding as the other, so Shift-JIS is named among the candidates, none guessed.
"""

from __future__ import annotations

import pytest
from memory_core.decoding import legacy_readings, not_decoded_why

MIXED = [
    "- [ﾒﾓ](memo.md) - ｺｰﾋｰが好き\n",
    "- [ｺｰﾋｰ](coffee.md) - ﾕｰｻﾞｰはｺｰﾋｰが好き\n",
    "- [ﾃｽﾄ](test.md) - 手順\n",
]
HALF_WIDTH_ALONE = [
    "# ﾒﾓ\n- [ﾋﾞﾙﾄﾞ](build.md) - ﾋﾞﾙﾄﾞ\n",
    "- [ﾌｧｲﾙ](files.md)\n",
    "- [ﾃﾞｰﾀ](data.md)\n",
]


@pytest.mark.parametrize("index", MIXED)
def test_t2_half_width_katakana_beside_full_width_japanese_is_named_shift_jis(index: str) -> None:
    raw = index.encode("cp932")

    assert legacy_readings(raw) == ("cp932",)
    why = not_decoded_why(raw)
    assert (
        why is not None
        and "looks like Shift-JIS (cp932); convert it to UTF-8 (iconv -f CP932" in why
    )


@pytest.mark.parametrize("index", HALF_WIDTH_ALONE)
def test_t2_half_width_katakana_alone_names_shift_jis_among_the_candidates(index: str) -> None:
    raw = index.encode("cp932")

    readings = legacy_readings(raw)

    assert readings is not None and len(readings) > 1 and "cp932" in readings, readings
    why = not_decoded_why(raw)
    assert why is not None and ", too little text to tell which (" in why, why
    assert "iconv -f CP932 -t UTF-8" in why and why.count("iconv -f ") == len(readings)
