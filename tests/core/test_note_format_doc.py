"""docs/note-format.md stays true: its example file parses cleanly and its key table holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from memory_core.index import line_links_to
from memory_core.keys import key_for_real_path
from memory_core.lint import LINT_CODES, lint_topic
from memory_core.topics import parse_topic

DOC = Path(__file__).resolve().parents[2] / "docs" / "note-format.md"


def _section(title: str) -> str:
    """The doc from the heading starting with ``title`` to the next one of its level or above."""
    level = len(title) - len(title.lstrip("#"))
    lines = DOC.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    in_fence = False
    for end in range(start + 1, len(lines)):
        line = lines[end]
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and re.match(rf"#{{1,{level}}} ", line):
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def _fenced_markdown(section: str) -> str:
    match = re.search(r"^```markdown\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert match, "no ```markdown block"
    return match.group(1)


def test_t1_doc_example_file_parses_cleanly() -> None:
    example = _fenced_markdown(_section("### Example"))
    topic = parse_topic(example.encode("utf-8"), "testing-conventions.md")
    assert topic.problems == []
    assert topic.name == "testing-conventions"
    assert topic.description == "How tests are run and organised in this repository"
    assert topic.updated_at == "2026-11-20"
    assert topic.links == ["api-pagination"]
    assert "Why: " in topic.body
    assert "How to apply: " in topic.body
    assert lint_topic(topic) == []


def test_t1_doc_field_table_names_the_three_fields() -> None:
    table = _section("## Topic files")
    for field in ("`name`", "`description`", "`updated_at`"):
        assert f"| {field} |" in table


def test_t4_doc_index_example_links() -> None:
    index = _fenced_markdown(_section("## The index"))
    lines = index.splitlines()
    assert line_links_to(lines[2], "testing-conventions.md")
    assert line_links_to(lines[3], "deploy-freeze.md")
    assert line_links_to(lines[4], "Deploy notes.md")


KEY_ROWS = re.findall(
    r"^\| `(/[^`]*)` \| `([^`]+)` \|$", _section("## The workspace memory key"), re.M
)


def test_k1_doc_key_table_is_not_empty() -> None:
    assert len(KEY_ROWS) >= 5


@pytest.mark.parametrize(("path", "key"), KEY_ROWS)
def test_k1_k2_doc_worked_examples(path: str, key: str) -> None:
    assert key_for_real_path(path) == key


def test_t5_doc_lists_every_lint_code() -> None:
    section = _section("## Lint")
    assert re.findall(r"^\| `([a-z-]+)` \|", section, re.M) == list(LINT_CODES)
