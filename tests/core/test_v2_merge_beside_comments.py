"""P-5, V-2, A-6: lines holding HTML comments merge and prune as the text they are.

A restore merges the memory's old index into the current one; a line counts as already there
by its own text. Lines holding a comment were compared with their comments blanked
(``## Ops <!-- team -->`` as ``## Ops``), so none was ever found again and every restore added
them once more: ``merge_index(t, t, {})`` added the heading, a prose line and a whole
``<!--`` / ``old notes`` / ``-->`` block. Comments are blanked only to find links: an entry
the target keeps only inside a comment is still no entry there, so a restore adds it. A line
is added with the rest of its comment across lines when added alone it would open or close
one, so the index never gains a stray ``<!--`` or ``-->``; a line put back where a delete left
its ``<!--`` or ``-->`` takes their place. A delete writes back the lines it keeps as they are,
comments and all.
"""

from __future__ import annotations

import pytest
from memory_core.index import linked_topic_files, prune_index
from memory_core.index_merge import merge_index

ONE_LINE = """# Memory index

## Ops <!-- team -->
Deploys go through the release train. <!-- since March -->
- [Deploy](deploy.md) — no Friday deploys <!-- see #ops -->
- [Testing](testing.md) — pytest -q
"""

ACROSS_LINES = """# Memory index

- [Deploy](deploy.md) — no Friday deploys
<!--
old notes
- [Staging](staging.md) — retired
-->
- [Testing](testing.md) — pytest -q <!-- kept:
- [Review](review.md) — two approvals
--> - [Release](release.md) — tag and push
"""

INDEXES = {"one line": ONE_LINE, "across lines": ACROSS_LINES}


@pytest.mark.parametrize("index", INDEXES.values(), ids=INDEXES.keys())
def test_p5_merging_an_index_with_itself_adds_nothing(index: str) -> None:
    merged = merge_index(index, index, {})
    assert merged.added == []
    assert (merged.text, merged.changed) == (index, False)


DELETES = [
    (ONE_LINE, "deploy.md"),
    (ONE_LINE, "testing.md"),
    (ACROSS_LINES, "deploy.md"),
    (ACROSS_LINES, "testing.md"),
    (ACROSS_LINES, "release.md"),
]


@pytest.mark.parametrize(("index", "name"), DELETES)
def test_v2_a_restore_puts_back_only_what_the_delete_took(index: str, name: str) -> None:
    pruned, removed = prune_index(index, name)
    assert removed
    merged = merge_index(pruned, index, {}, places=index)
    assert merged.added == removed
    assert merged.text == index  # a ``<!--`` or ``-->`` the delete kept is the line's again
    assert merge_index(merged.text, index, {}, places=index).added == []


def test_v2_a_restore_into_an_index_holding_the_same_lines_adds_nothing() -> None:
    restored = ONE_LINE.replace("- [Testing](testing.md) — pytest -q\n", "")
    merged = merge_index(ONE_LINE, restored, {}, places=restored)
    assert merged.added == []


def test_p5_a_new_comment_across_lines_comes_whole_never_a_stray_end() -> None:
    """The source's ``-->`` is the same text as the target's: taken as already there, the
    added ``<!-- draft:`` would run to the end of the index and hide what follows."""
    source = "<!-- draft:\n- [Later](later.md) — maybe\n-->\n- [Build](build.md) — make\n"
    merged = merge_index(ACROSS_LINES, source, {})
    assert merged.added == [
        "<!-- draft:",
        "- [Later](later.md) — maybe",
        "-->",
        "- [Build](build.md) — make",
    ]
    assert set(linked_topic_files(merged.text)) == {
        *linked_topic_files(ACROSS_LINES),
        "build.md",
    }


def test_a6_a_delete_beside_commented_lines_keeps_them_byte_for_byte() -> None:
    text = (
        "## Ops <!-- team -->\r\n- [A](a.md) <!-- x -->\r\n<!--\r\nold  notes\r\n-->\r\n- [B](b.md)"
    )
    pruned, removed = prune_index(text, "a.md")
    assert removed == ["- [A](a.md) <!-- x -->"]
    assert pruned == "## Ops <!-- team -->\r\n<!--\r\nold  notes\r\n-->\r\n- [B](b.md)"
    pruned, removed = prune_index(text, "b.md")
    assert pruned == "## Ops <!-- team -->\r\n- [A](a.md) <!-- x -->\r\n<!--\r\nold  notes\r\n-->"
