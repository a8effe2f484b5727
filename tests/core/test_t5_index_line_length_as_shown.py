"""T-5: ``index-line-too-long`` counts the characters a reader sees (grapheme clusters).

The same French index line, written in NFD as macOS writes it, was 164 code points and too long,
while its NFC spelling was 94 and fine; an index line with a status legend of emoji sequences was
reported at 184 characters where it shows 124. Each line below is checked in both spellings
where it has two, and at the limit's edge.
"""

from __future__ import annotations

import unicodedata

import pytest
from memory_core.index_facts import INDEX_LINE_LIMIT, index_facts, shown_characters
from memory_core.lint import lint_index


def nfd(text: str) -> str:
    """``text`` decomposed, as macOS file systems and some editors write it."""
    return unicodedata.normalize("NFD", text)


FRENCH = "- [Équipe](equipe.md) — réunion à Zürich; l'équipe décidée: café, thé, crème brûlée"
LEGEND = (
    "- [Statut](statut.md) — "
    + "🚀 déploiement ✅ fait ⚠️ risque 👍🏽 ok 👨‍👩‍👧 équipe 🏳️‍🌈 #️⃣ 🇯🇵 " * 2
    + "👨‍👩‍👧‍👦" * 4
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("e\u0301", 1),
        ("\u00e9", 1),
        ("👨‍👩‍👧", 1),
        ("👍🏽", 1),
        ("⚠️", 1),
        ("🏳️‍🌈", 1),
        ("#️⃣", 1),
        ("🇯🇵", 1),
        ("数据库迁移", 5),
        ("कॉफ़ी", 2),  # कॉ and फ़ी: a consonant with its vowel sign is one
        ("ทำความสะอาด", 10),  # Thai vowels written after a consonant are letters of their own
    ],
)
def test_t5_a_character_is_what_a_reader_counts_as_one(text: str, shown: int) -> None:
    assert shown_characters(text) == shown


def test_t5_an_index_line_is_as_long_in_nfd_as_in_nfc() -> None:
    line = FRENCH + " — " + "é" * (INDEX_LINE_LIMIT - shown_characters(FRENCH) - 3)
    assert shown_characters(line) == INDEX_LINE_LIMIT
    assert len(nfd(line)) > INDEX_LINE_LIMIT  # the code points of NFD are over the limit
    for spelling in (line, nfd(line)):
        assert lint_index(spelling, ["equipe.md"]) == []
        findings = lint_index(spelling + "é", ["equipe.md"])
        assert [(f.code, f.line, f.message) for f in findings] == [
            ("index-line-too-long", 1, "151 characters; keep index lines under 150")
        ]


def test_t5_an_emoji_sequence_is_one_character_of_an_index_line() -> None:
    assert (len(LEGEND), shown_characters(LEGEND)) == (176, 128)
    assert lint_index(LEGEND, ["statut.md"]) == []
    assert index_facts(LEGEND).long_lines == ()


def test_t5_a_long_line_says_how_many_characters_it_shows() -> None:
    line = "- [部署](deploy.md) — " + "部署流程需要先在预发布环境验证" * 10 + " 👨‍👩‍👧" * 5
    assert index_facts(line).long_lines == ((1, shown_characters(line)),)
    assert shown_characters(line) == 20 + 15 * 10 + 2 * 5
