"""T-4, T-5, A-6: reference-style index links (``- [Deploy][d]`` with ``[d]: deploy.md``).

A line that uses a reference label links where the label's definition points, wherever in the
index the definition stands. Deleting ``deploy.md`` used to remove only the definition and leave
``- [Deploy][d]`` behind, a dangling reference every later Session injected; now both go (every
index line holding a link to the file, A-6), and lint reads the using line as a link too.
"""

from __future__ import annotations

from memory_core.index import (
    index_lines_linking,
    links_of_lines,
    prune_index,
    reference_definitions,
    reference_labels,
)
from memory_core.lint import lint_scope
from memory_core.topics import parse_topic

INDEX = (
    "# Memory\n"
    "- [Deploy freeze][freeze] - no Friday deploys\n"
    "- [Testing][] - pytest -q\n"
    "- see [Freeze] again\n"
    "- [Other](other.md) - stays\n"
    "\n"
    "[Freeze]: ./deploy-freeze.md#why\n"
    "[testing]: <testing.md>\n"
)
TOPIC = "---\nname: {0}\ndescription: about {0}\nupdated_at: 2026-11-20\n---\nbody\n"


def test_t4_reference_uses_resolve_through_the_first_definition_of_their_label() -> None:
    lines = INDEX.splitlines()
    assert reference_definitions(lines) == {"freeze": "deploy-freeze.md", "testing": "testing.md"}
    assert reference_labels("- [Deploy freeze][freeze] - x") == ["freeze"]
    assert reference_labels("[Freeze]: ./deploy-freeze.md") == []  # a definition uses none
    assert reference_labels("- [Other](other.md) and `[code][x]`") == []


def test_t4_lines_using_a_reference_link_where_its_definition_points() -> None:
    assert links_of_lines(INDEX.splitlines()) == {
        "deploy-freeze.md": [2, 4, 7],
        "testing.md": [3, 8],
        "other.md": [5],
    }


def test_a6_delete_prunes_the_lines_using_the_reference_and_its_definition() -> None:
    text, removed = prune_index(INDEX, "deploy-freeze.md")
    assert removed == [
        "- [Deploy freeze][freeze] - no Friday deploys",
        "- see [Freeze] again",
        "[Freeze]: ./deploy-freeze.md#why",
    ]
    assert text == (
        "# Memory\n- [Testing][] - pytest -q\n- [Other](other.md) - stays\n\n"
        "[testing]: <testing.md>\n"
    )
    assert index_lines_linking(INDEX, "deploy-freeze.md") == removed  # what an undo puts back


def test_a6_a_label_without_a_definition_or_in_code_is_no_link() -> None:
    index = "- [Deploy][d] - x\n- `[Deploy][f]` in code\n- [ ] a task\n\n[f]: deploy.md\n"
    assert prune_index(index, "deploy.md") == (
        "- [Deploy][d] - x\n- `[Deploy][f]` in code\n- [ ] a task\n\n",
        ["[f]: deploy.md"],
    )


def test_t5_lint_reads_reference_links_dangling_and_indexed() -> None:
    index = "- [Deploy][d] - x\n- [Gone][g] - y\n\n[d]: deploy.md\n[g]: gone.md\n"
    topics = [parse_topic(TOPIC.format("deploy").encode(), "deploy.md")]
    findings = lint_scope(index, topics, ["deploy.md"])
    assert not [f for f in findings if f.code == "unindexed"]
    dangling = [f for f in findings if f.code == "dangling-link"]
    assert sorted(f.line for f in dangling if f.line is not None) == [2, 5]
