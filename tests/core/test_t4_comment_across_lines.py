"""T-3, T-4, T-5: an HTML comment across lines hides the entries in it, as one on a line does.

``<!-- - [Old](old.md) -->`` on one line was already no link. A comment opened on one line and
closed on a later one (a block of retired entries kept out of the prompt) was read line by
line: every entry inside was a link, so lint called the retired files' absence
``dangling-link`` errors and counted them as indexed, a delete pruned lines inside it, and a
``[[link]]`` in a topic file's commented paragraph was a link. Now lint, index facts, delete
pruning, a restore's merge and topic links all read the comment as Markdown renders it:
nothing. A delete that removes the line opening or closing such a comment keeps its ``<!--``
or ``-->``, so the comment still hides what it hid.
"""

from __future__ import annotations

from memory_core.index import linked_topic_files, prune_index
from memory_core.index_merge import merge_index
from memory_core.lint import lint_scope
from memory_core.topics import ParsedTopic, parse_topic

INDEX = """# Memory index

- [Deploy freeze](deploy-freeze.md) — no deploys Friday 15:00 to Monday 09:00
<!-- retired with the old staging cluster:
- [Staging URL](staging-url.md) — staging.internal
- [Staging DB](staging-db.md) — the old replica
-->
- [Testing](testing.md) — pytest -q <!-- kept out for now:
- [Review style](review-style.md) — two approvals
--> - [Release](release.md) — tag and push
"""


def topic(stem: str, body: str = "body") -> ParsedTopic:
    text = f"---\nname: {stem}\ndescription: about {stem}\n---\n{body}\n"
    return parse_topic(text.encode(), f"{stem}.md")


def test_t4_entries_inside_a_comment_across_lines_link_nothing() -> None:
    assert linked_topic_files(INDEX) == {
        "deploy-freeze.md": [3],
        "testing.md": [8],
        "release.md": [10],
    }


def test_t5_lint_reads_them_as_no_entries() -> None:
    """No ``dangling-link`` for the retired files; a file listed only inside is unindexed."""
    stems = ["deploy-freeze", "testing", "release", "review-style"]
    findings = lint_scope(INDEX, [topic(stem) for stem in stems], [f"{s}.md" for s in stems])
    assert [(f.code, f.file) for f in findings] == [("unindexed", "review-style.md")]


def test_a6_a_delete_leaves_lines_inside_a_comment_and_keeps_its_ends() -> None:
    assert prune_index(INDEX, "staging-url.md") == (INDEX, [])
    text, removed = prune_index(INDEX, "testing.md")
    assert removed == ["- [Testing](testing.md) — pytest -q <!-- kept out for now:"]
    assert "\n<!-- kept out for now:\n- [Review style](review-style.md)" in text
    assert linked_topic_files(text) == {"deploy-freeze.md": [3], "release.md": [10]}
    text, removed = prune_index(INDEX, "release.md")
    assert removed == ["--> - [Release](release.md) — tag and push"]
    assert text.endswith("- [Review style](review-style.md) — two approvals\n-->\n")
    assert "review-style.md" not in linked_topic_files(text)


def test_v2_a_restore_adds_an_entry_the_target_keeps_only_in_a_comment() -> None:
    """The target lists ``staging-url.md`` only inside a comment: it is not indexed there."""
    merged = merge_index(INDEX, "- [Staging URL](staging-url.md) — staging.internal\n", {})
    assert merged.added == ["- [Staging URL](staging-url.md) — staging.internal"]


def test_t3_a_wiki_link_in_a_comment_across_lines_of_a_topic_is_no_link() -> None:
    body = "See [[testing]].\n<!-- draft:\nand [[staging-url]] too\n-->\nThen [[release]]."
    assert topic("notes", body).links == ["testing", "release"]
