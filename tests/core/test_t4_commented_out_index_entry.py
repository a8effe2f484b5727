"""T-4, T-5: an index entry commented out (``<!-- - [Old](old.md) -->``) links nothing.

People keep an entry they retired as an HTML comment instead of deleting it; once its file was
gone, lint called it a ``dangling-link`` error ("memory is lost"). A comment renders as nothing
and points the agent nowhere: like a link in a code span, it is no link, so it neither dangles
nor indexes a file, and deleting that file leaves the comment as it is.
"""

from __future__ import annotations

from memory_core.index import link_targets, prune_index
from memory_core.lint import lint_scope
from memory_core.topics import ParsedTopic, parse_topic

INDEX = """# Memory index

- [Deploy freeze](deploy-freeze.md) — no deploys Friday 15:00 to Monday 09:00
<!-- - [Staging URL](staging-url.md) — retired with the old staging cluster -->
- [Testing](testing.md) — pytest -q <!-- was: [Old testing](old-testing.md) -->
<!-- - [Review style](review-style.md) — kept out of the prompt for now -->
"""


def topic(stem: str) -> ParsedTopic:
    """A topic file ``<stem>.md`` with a name and description."""
    text = f"---\nname: {stem}\ndescription: about {stem}\n---\nbody\n"
    return parse_topic(text.encode(), f"{stem}.md")


def test_t4_a_link_in_a_comment_is_no_link() -> None:
    assert link_targets("<!-- - [Staging URL](staging-url.md) — retired -->") == []
    assert link_targets("- [Testing](testing.md) <!-- was: [Old](old.md) -->") == ["testing.md"]
    assert link_targets("<!-- open [A](a.md) and never closed") == ["a.md"]
    assert link_targets("<!-- a --> [B](b.md) <!-- c -->") == ["b.md"]


def test_t5_a_commented_out_entry_neither_dangles_nor_indexes() -> None:
    stems = ["deploy-freeze", "testing", "review-style"]
    findings = lint_scope(INDEX, [topic(stem) for stem in stems], [f"{s}.md" for s in stems])
    assert [(f.code, f.file) for f in findings] == [("unindexed", "review-style.md")]


def test_t4_deleting_a_file_leaves_its_commented_out_entry() -> None:
    assert prune_index(INDEX, "staging-url.md") == (INDEX, [])
    pruned, removed = prune_index(INDEX, "testing.md")
    assert removed == [
        "- [Testing](testing.md) — pytest -q <!-- was: [Old testing](old-testing.md) -->"
    ]
    assert "staging-url.md" in pruned and "review-style.md" in pruned
