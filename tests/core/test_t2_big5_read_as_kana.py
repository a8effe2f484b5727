"""T-2, Q-2b: Big5 text is never named EUC-JP because its bytes read as kana there.

Big5's most frequent characters (``中``, ``文``, ``件``, ``用``, ``元``) stand in the bytes of
EUC-JP's kana rows: ``中文文件`` is ``いゅゅン`` in EUC-JP, ``件用中`` is ``ンノい``. Three kana
were taken as Japanese, so short Big5 notes were named EUC-JP, with ``iconv -f EUC-JP`` as the
fix (mojibake for good). No Japanese writes a small ``ゅ`` after ``い`` or opens a word with
``ン``: such a reading is no reading of the text. Japanese kana as people write them
(``ちょっと待って``, ``読んでいる``, ``デュアル``, ``まぁ``, ``すごーい``, ``タイムゾーン``,
``いすゞ``) are still Japanese.
"""

from __future__ import annotations

import pytest
from memory_core.decoding import legacy_readings, not_decoded_why

BIG5_NOTES = ["中文文件", "文件用中文", "件用中", "元件用", "用中文", "文件用"]
"""Traditional Chinese whose EUC-JP reading is three kana or more (``用中文`` is ``ノいゅ``)."""
JAPANESE_NOTES = [
    "ちょっと待って",
    "読んでいる",
    "キャッシュを消す",
    "ファイルを開く",
    "デュアル構成",
    "ヴァイオリン",
    "ウィンドウを閉じる",
    "まぁいいか",
    "すごーい",
    "テストが失敗した",
    "猫の名前はタマ",
    # The prolonged sound mark ー before ン or a small kana (ーン, ーッ, ーィ) and the
    # iteration marks: Japanese as written, never a reading to refuse.
    "タイムゾーンを設定する",
    "スプーン",
    "パターンを使う",
    "トーン",
    "サーバーのキャッシュ",
    "ガーッと書く",
    "ルーィ",
    "ゲームのスクリーンショット",
    "いすゞ自動車",
    "こゝろ",
    "バヽア",
    "すごーーい",
]


def _forms(text: str) -> list[str]:
    """``text`` alone, as an index line's title, as its description, and in a body among
    ASCII words."""
    return [
        f"{text}\n",
        f"- [{text}](note.md)\n",
        f"- [note](note.md) - {text} (v2)\n",
        f"# {text}\n\nsee {text} in git\n",
    ]


@pytest.mark.parametrize("text", BIG5_NOTES)
def test_t2_a_big5_note_whose_bytes_read_as_kana_is_named_big5(text: str) -> None:
    in_euc_jp = text.encode("big5").decode("euc_jp")
    assert sum("\u3041" <= character <= "\u30fa" for character in in_euc_jp) >= 3, in_euc_jp
    for form in _forms(text):
        raw = form.encode("big5")
        assert legacy_readings(raw) == ("big5",), form
        why = not_decoded_why(raw)
        assert why is not None and "iconv -f BIG5 -t UTF-8" in why, form
        assert "EUC-JP" not in why, form


@pytest.mark.parametrize("codec", ["euc_jp", "cp932"])
@pytest.mark.parametrize("text", JAPANESE_NOTES)
def test_t2_japanese_kana_as_people_write_them_stay_japanese(text: str, codec: str) -> None:
    for form in _forms(text):
        assert legacy_readings(form.encode(codec)) == (codec,), form


def test_t2_two_characters_that_read_as_kana_no_japanese_writes_are_big5() -> None:
    """``文件`` is ``ゅン`` in EUC-JP: both readings stand where their language's characters
    do, so it was said to be either; a word never opens with a small ``ゅ``."""
    for form in _forms("文件"):
        assert legacy_readings(form.encode("big5")) == ("big5",), form
