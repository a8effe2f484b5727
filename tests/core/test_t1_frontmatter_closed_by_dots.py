"""T-1, T-2: frontmatter closed by YAML's document end ``...`` is read, as Pandoc reads it.

Pandoc's YAML metadata block (and R Markdown, Quarto) ends with a line of ``---`` or ``...``;
YAML itself ends a document with ``...``. ``python-frontmatter`` takes ``---`` alone, so a
note closed by ``...`` was read with no frontmatter ("no closing '---' line", its name and
description lost and its fields shown as body), or, when the body held a ``---`` rule later,
its first paragraphs read as YAML. The block opens with ``---`` only, as before.
"""

from __future__ import annotations

import pytest
from memory_core.lint import lint_topic
from memory_core.topics import parse_topic

CLOSED_BY_DOTS = "---\nname: deploy-freeze\ndescription: No deploys on Friday\n...\n"


@pytest.mark.parametrize(
    "body",
    [
        "Freeze starts Friday noon. See [[release-notes]].\n",
        "Freeze starts Friday noon.\n\n---\n\nAfter the rule. See [[release-notes]].\n",
        "",
    ],
    ids=["body", "body-with-a-rule", "no-body"],
)
@pytest.mark.parametrize("end", ["...\n", "...   \n", "...\r\n"], ids=["dots", "spaces", "crlf"])
def test_t1_frontmatter_closed_by_three_dots_is_read(body: str, end: str) -> None:
    text = CLOSED_BY_DOTS.replace("...\n", end) + body
    topic = parse_topic(text.encode(), "deploy-freeze.md")
    assert (topic.name, topic.description) == ("deploy-freeze", "No deploys on Friday")
    assert topic.body == body.replace("\r\n", "\n").strip()
    assert [p for p in topic.problems if p.startswith("frontmatter")] == []
    assert topic.links == (["release-notes"] if body else [])
    dashes = parse_topic(text.replace(end, "---\n", 1).encode(), "deploy-freeze.md")
    assert topic.body_line == dashes.body_line  # as the same note closed by ``---``
    assert [f.code for f in lint_topic(topic)] == [f.code for f in lint_topic(dashes)] == []


def test_t1_three_dots_never_open_a_block() -> None:
    """``...`` at the top is text (an ellipsis), never frontmatter: only ``---`` opens one."""
    topic = parse_topic(b"...\nname: a\n...\nbody\n", "a.md")
    assert topic.description is None
    assert "frontmatter: missing (no '---' block at the top)" in topic.problems


def test_t1_the_first_closing_line_ends_the_block_dashes_or_dots() -> None:
    """The block ends at its first ``---`` or ``...`` line, whichever comes first."""
    topic = parse_topic(b"---\nname: a\ndescription: d\n...\nbody\n---\nmore\n", "a.md")
    assert (topic.description, topic.body) == ("d", "body\n---\nmore")
    topic = parse_topic(b"---\nname: a\ndescription: d\n---\nbody\n...\nmore\n", "a.md")
    assert (topic.description, topic.body) == ("d", "body\n...\nmore")


def test_t2_a_block_closed_by_neither_is_still_named_unclosed() -> None:
    topic = parse_topic(b"---\nname: x\nbody without end\n", "x.md")
    assert topic.problems == [
        "frontmatter: no closing '---' (or '...') line; the whole file is read as body"
    ]
