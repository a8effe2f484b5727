"""P-5: merging an imported index — links follow renamed files, no line twice, nothing removed."""

from __future__ import annotations

import pytest
from memory_core.index import linked_topic_files
from memory_core.index_merge import merge_index, rewrite_links

RENAMES = {"uv.md": "uv-imported.md", "Deploy notes.md": "Deploy notes-imported.md"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- [Uv](uv.md) — use uv", "- [Uv](uv-imported.md) — use uv"),
        ("- [Uv](./uv.md#why) — x", "- [Uv](./uv-imported.md#why) — x"),
        ('- [Uv](uv.md "Title")', '- [Uv](uv-imported.md "Title")'),
        ("- [D](<Deploy notes.md>)", "- [D](<Deploy notes-imported.md>)"),
        ("- [D](Deploy%20notes.md)", "- [D](Deploy%20notes-imported.md)"),
        ("[d]: <Deploy notes.md>", "[d]: <Deploy notes-imported.md>"),
        ("[u]: uv.md", "[u]: uv-imported.md"),
        ("- [A](a.md) and [U](uv.md)", "- [A](a.md) and [U](uv-imported.md)"),
    ],
)
def test_p5_links_follow_the_renamed_file(line: str, expected: str) -> None:
    assert rewrite_links(line, RENAMES) == expected


@pytest.mark.parametrize(
    "line",
    [
        "uv.md is mentioned in prose",
        "`[Uv](uv.md)` shown as code",
        "- [Site](https://example.com/uv.md)",
        "- [Other](other/uv.md)",
    ],
)
def test_p5_mentions_code_and_paths_are_not_rewritten(line: str) -> None:
    assert rewrite_links(line, RENAMES) == line


def test_p5_a_bare_target_that_needs_encoding_is_encoded() -> None:
    line = rewrite_links("- [N](notes.md)", {"notes.md": "my notes (2).md"})
    assert line == "- [N](my%20notes%20%282%29.md)"
    assert set(linked_topic_files(line)) == {"my notes (2).md"}


def test_p5_into_no_index_the_source_comes_whole() -> None:
    source = "# Memory index\n\n- [Uv](uv.md) — use uv\n"
    merge = merge_index(None, source, RENAMES)
    assert merge.text == "# Memory index\n\n- [Uv](uv-imported.md) — use uv\n"
    assert merge.changed
    assert merge.added == ["# Memory index", "- [Uv](uv-imported.md) — use uv"]


def test_p5_lines_are_appended_once_and_the_target_is_kept() -> None:
    target = "# Mine\r\n- [Old](old.md) — kept\r\n- [A](a.md) — mine"
    source = "# Memory index\n- [A](a.md) — theirs\n- [Old](old.md) — kept\n- [B](b.md) — new\n\n"
    merge = merge_index(target, source, {})
    assert merge.text == (
        "# Mine\r\n- [Old](old.md) — kept\r\n- [A](a.md) — mine\r\n- [B](b.md) — new\r\n"
    )
    assert merge.added == ["- [B](b.md) — new"]
    assert dict(merge.skipped) == {
        "# Memory index": "title",
        "- [A](a.md) — theirs": "already indexed",
        "- [Old](old.md) — kept": "already there",
    }
    again = merge_index(merge.text, source, {})
    assert not again.changed and again.text == merge.text


def test_p5_prose_and_section_headings_are_merged_once() -> None:
    merge = merge_index("- [A](a.md)\n", "## Projects\nsee the wiki\n", {})
    assert merge.added == ["## Projects", "see the wiki"]
    assert not merge_index(merge.text, "## Projects\nsee the wiki\n", {}).changed


def test_p5_a_reference_definition_a_merged_line_uses_is_merged_with_it() -> None:
    """``- [R][r]`` links where ``[r]: a.md`` points: with the target indexing ``a.md``
    already, the definition is still merged (else the merged line links nothing), once; one
    no line uses stays out as a file indexed already."""
    target = "- [A](a.md) — a\n"
    source = "- [R][r] — more on a\n\n[r]: a.md\n[u]: a.md\n"

    merged = merge_index(target, source, {})

    assert merged.added == ["- [R][r] — more on a", "[r]: a.md"]
    assert merged.skipped == [("[u]: a.md", "already indexed")]
    assert merge_index(merged.text, source, {}).changed is False
