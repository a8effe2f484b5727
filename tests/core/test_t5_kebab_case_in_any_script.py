"""T-5, T-5a: kebab-case is lower-case words of any script joined by single hyphens.

Scopes kept in Russian, Japanese, German or Hindi, with file names such as
``настройки-сборки.md`` and ``name`` equal to the stem, were told they "follow another naming
convention (words-with-spaces file names)" though no name held a space, and a single such file
got ``name-not-kebab``. A capital, a space or an underscore is still no kebab-case.
"""

from __future__ import annotations

import unicodedata

import pytest
from memory_core.lint import lint_scope, lint_topic
from memory_core.topics import ParsedTopic, parse_topic
from memory_core.wire import Finding


def topic(stem: str, name: str | None = None) -> ParsedTopic:
    """A topic file ``<stem>.md`` whose ``name`` is ``name`` (the stem by default)."""
    text = f"---\nname: {name or stem}\ndescription: about {stem}\nupdated_at: 2026-11-20\n---\nx\n"
    return parse_topic(text.encode("utf-8"), f"{stem}.md")


def scope_lint(stems: list[str]) -> list[Finding]:
    """Lint of a scope of those topic files, each linked from its index."""
    index = "".join(f"- [{stem}](<{stem}.md>) — about {stem}\n" for stem in stems)
    return lint_scope(index, [topic(stem) for stem in stems], [f"{stem}.md" for stem in stems])


SCOPES = {
    "Russian": ["настройки-сборки", "деплой", "код-ревью", "кофемашина"],
    "Russian and English": ["настройки-сборки", "deploy-freeze", "code-review"],
    "Japanese": ["デプロイ手順", "コーヒー", "テスト方針"],
    "Chinese": ["数据库迁移", "部署流程", "代码审查"],
    "German, composed": ["größe-der-bilder", "über-uns", "deploy"],
    "German, decomposed (macOS)": [
        unicodedata.normalize("NFD", "größe-der-bilder"),
        unicodedata.normalize("NFD", "über-uns"),
    ],
    "Hindi": ["कॉफ़ी-मशीन", "तैनाती", "परीक्षण-नियम"],
    "Arabic and Hebrew": ["تنظيف-آلة-القهوة", "ניקוי-מכונת-קפה", "deploy"],
    "Thai": ["กาแฟ", "การปรับใช้"],
}


@pytest.mark.parametrize("stems", SCOPES.values(), ids=SCOPES.keys())
def test_t5_a_kebab_case_scope_in_any_script_has_no_naming_finding(stems: list[str]) -> None:
    assert scope_lint(stems) == []
    for stem in stems:
        assert lint_topic(topic(stem)) == []


@pytest.mark.parametrize(
    "name",
    [
        "Настройки-сборки",
        "настройки сборки",
        "настройки_сборки",
        "настройки--сборки",
        "-настройки-сборки",
    ],
)
def test_t5_capitals_spaces_and_underscores_are_no_kebab_case_in_any_script(name: str) -> None:
    [finding] = lint_topic(topic("настройки-сборки", name))
    assert finding.code == "name-not-kebab"
    assert "lower-case letters of any script" in finding.message


def test_t5_another_convention_is_named_in_any_script() -> None:
    [finding] = scope_lint(["настройки_сборки", "код_ревью", "деплой_в_пятницу"])
    assert finding.code == "naming-convention"
    assert "snake_case file names" in finding.message
    [finding] = scope_lint(["Настройки сборки", "Код ревью"])
    assert "words-with-spaces file names" in finding.message
