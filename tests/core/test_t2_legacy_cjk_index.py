"""T-2, I-3/Q-2b: an index in a legacy CJK encoding is named, never injected as mojibake.

Bytes that are not UTF-8 used to be read as Windows-1252 whatever they were: a ``MEMORY.md``
saved as Shift-JIS, GB18030, Big5, EUC-JP or EUC-KR reached the model as mojibake and lint said
nothing. Which of those encodings short text is cannot be told reliably (one or two lines of
GB18030 are read as another CJK encoding most of the time), but that it is one of them, and not
Western text, can: such an index is not decoded, its readers say so and name the likely
encoding with the command that converts it. Western 8-bit text is still read as cp1252.
"""

from __future__ import annotations

import pytest
from memory_core.decoding import decode_exact, decode_text, legacy_multibyte, not_decoded_why

JAPANESE = (
    "# メモリ\n- [デプロイ](deploy.md) - 金曜日はデプロイしない\n- [テスト](testing.md) - pytest\n"
)
CHINESE = "# 记忆\n- [部署](deploy.md) - 周五不部署\n- [测试](testing.md) - 使用 pytest\n"
TRADITIONAL = "# 記憶\n- [部署](deploy.md) - 週五不部署\n- [測試](testing.md) - 使用 pytest\n"
KOREAN = "# 메모리\n- [배포](deploy.md) - 금요일에는 배포하지 않음\n"

CJK_CASES = [
    (JAPANESE, "cp932", "Shift-JIS", "iconv -f CP932 -t UTF-8"),
    (JAPANESE, "euc_jp", "EUC-JP", "iconv -f EUC-JP -t UTF-8"),
    (CHINESE, "gb18030", "GBK/GB18030", "iconv -f GB18030 -t UTF-8"),
    (TRADITIONAL, "big5", "Big5", "iconv -f BIG5 -t UTF-8"),
    (KOREAN, "euc_kr", "EUC-KR", "iconv -f EUC-KR -t UTF-8"),
]
WESTERN = [
    "- [Café](cafe.md) - Noël, élève\n",
    "- [niño](nino.md) - año\n",  # ñ + o is a valid Big5 pair: lone accents are no CJK text
    "- [Größe](groesse.md) - Übergröße, Maße und Füße\n",
    "# Mémoire\n- [Déploiement](deploy.md) - pas de déploiement le vendredi\n",
]


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_index_is_not_decoded_and_why_names_the_encoding_and_the_fix(
    text: str, codec: str, known: str, iconv: str
) -> None:
    raw = text.encode(codec)
    assert legacy_multibyte(raw) is not None
    why = not_decoded_why(raw)
    assert why is not None
    assert why.startswith("does not decode it: it is not UTF-8, and looks like ")
    # the likeliest first, with its iconv command; the others that read it too named after it
    assert known in why
    assert "; convert it to UTF-8 (iconv -f " in why


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_topic_file_problem_says_it_looks_like_cjk_and_how_to_convert(
    text: str, codec: str, known: str, iconv: str
) -> None:
    problems = decode_text(text.encode(codec))[1]
    assert len(problems) == 1
    assert problems[0].startswith("encoding: not valid UTF-8 (byte 0x")
    assert (
        "; read as cp1252, but looks like " in problems[0] or "read as Latin-1, but" in problems[0]
    )
    assert "; convert it to UTF-8 (iconv -f " in problems[0]


@pytest.mark.parametrize("text", WESTERN, ids=lambda v: v[:12])
def test_t2_western_8bit_text_is_still_read_as_cp1252(text: str) -> None:
    raw = text.encode("cp1252")
    assert legacy_multibyte(raw) is None
    assert not_decoded_why(raw) is None
    assert decode_text(raw)[0] == text


@pytest.mark.parametrize(
    "raw",
    [
        JAPANESE.encode("utf-8"),
        b"\xef\xbb\xbf" + JAPANESE.encode("utf-8"),
        JAPANESE.encode("utf-16"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16"],
)
def test_t2_unicode_indexes_are_decoded(raw: bytes) -> None:
    assert not_decoded_why(raw) is None
    assert decode_text(raw)[0] == JAPANESE


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_index_still_decodes_exactly_so_a_delete_can_prune_it(
    text: str, codec: str, known: str, iconv: str
) -> None:
    """A-6: its bytes are kept one for one (read as cp1252 or Latin-1, never re-encoded)."""
    raw = text.encode(codec)
    exact = decode_exact(raw)
    assert exact is not None and exact.encode(exact.text) == raw
