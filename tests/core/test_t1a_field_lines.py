"""T-1a: a field line a person reads as ``key: value`` is that field, whatever space or colon
an editor or an input method put after its key.

A no-break space (macOS Option-Space, text copied from a web page), an ideographic space or a
full-width colon (a Chinese or Japanese input method) after ``description`` shows as
``description: …`` in every editor, yet YAML reads no field there: the description was lost
and lint said "no description in the frontmatter" while its line was there. A key written in
another case (``Description:``) likewise.
"""

from __future__ import annotations

import pytest
from memory_core.lint import lint_topic
from memory_core.topics import ParsedTopic, parse_topic

SEPARATORS = {
    "no-break space": (":\u00a0", "U+00A0 NO-BREAK SPACE"),
    "ideographic space": (":\u3000", "U+3000 IDEOGRAPHIC SPACE"),
    "thin space": (":\u2009", "U+2009 THIN SPACE"),
    "narrow no-break space": (":\u202f", "U+202F NARROW NO-BREAK SPACE"),
    "full-width colon": ("\uff1a", "U+FF1A FULLWIDTH COLON"),
    "full-width colon and a space": ("\uff1a ", "U+FF1A FULLWIDTH COLON"),
    "full-width colon and an ideographic space": ("\uff1a\u3000", "U+FF1A FULLWIDTH COLON"),
}


def _topic(name: str, description: str, updated_at: str) -> ParsedTopic:
    text = f"---\n{name}\n{description}\n{updated_at}\n---\nbody\n"
    return parse_topic(text.encode(), "deploy-notes.md")


@pytest.mark.parametrize("separator", sorted(SEPARATORS))
def test_t1a_a_description_after_another_space_or_colon_is_read(separator: str) -> None:
    mark, named = SEPARATORS[separator]
    topic = _topic("name: deploy-notes", f"description{mark}部署前先备份 the database", "")
    assert topic.description == "部署前先备份 the database"
    assert "missing-description" not in [finding.code for finding in lint_topic(topic)]
    assert topic.problems == [
        f"frontmatter: description read as 'description: …'; after the key stands {named}, "
        "where YAML needs ': ' (it would read no description): write ': '"
    ]


@pytest.mark.parametrize("separator", sorted(SEPARATORS))
def test_t1a_every_field_after_another_space_or_colon_is_read(separator: str) -> None:
    mark, _ = SEPARATORS[separator]
    topic = _topic(
        f"name{mark}deploy-notes", f"description{mark}Deploys", f"updated_at{mark}2026-11-20"
    )
    assert (topic.name, topic.description, topic.updated_at) == (
        "deploy-notes",
        "Deploys",
        "2026-11-20",
    )
    assert len(topic.problems) == 3
    assert all("where YAML needs ': '" in problem for problem in topic.problems)


def test_t1a_a_full_width_colon_inside_a_value_is_text() -> None:
    topic = _topic("name: deploy-notes", "description: 注意：先备份", "updated_at: 2026-11-20")
    assert topic.description == "注意：先备份"
    assert topic.problems == []


def test_t1a_an_indented_line_is_left_to_yaml() -> None:
    """A line inside a nested mapping is no field of the topic: it is not rewritten."""
    text = "---\nname: deploy-notes\ndescription: Deploys\nmetadata:\n  type\u00a0x\n---\nbody\n"
    topic = parse_topic(text.encode(), "deploy-notes.md")
    assert topic.description == "Deploys"
    assert not any("where YAML needs" in problem for problem in topic.problems)


@pytest.mark.parametrize("key", ["Description", "DESCRIPTION", "'Description'"])
def test_t1a_a_field_written_in_another_case_is_read_and_named(key: str) -> None:
    topic = _topic("Name: deploy-notes", f"{key}: Deploys", "Updated_At: 2026-11-20")
    assert (topic.name, topic.description, topic.updated_at) == (
        "deploy-notes",
        "Deploys",
        "2026-11-20",
    )
    assert "missing-description" not in [finding.code for finding in lint_topic(topic)]
    written = key.strip("'")
    assert (
        f"frontmatter: {written} read as description; field names are lower case: "
        "write 'description:'"
    ) in topic.problems


def test_t1a_the_lower_case_field_wins_over_another_case() -> None:
    """Both written: the field is the lower-case one, as YAML reads it; the other is no field."""
    topic = _topic("name: deploy-notes", "description: Deploys", "Description: Other")
    assert topic.description == "Deploys"
    assert topic.problems == []


@pytest.mark.parametrize(
    ("line", "field", "value"),
    [
        ("description:Deploys on Fridays", "description", "Deploys on Fridays"),
        ("description:https://wiki.example/deploy", "description", "https://wiki.example/deploy"),
        ("updated_at:2026-11-20", "updated_at", "2026-11-20"),
        ("name:release-notes", "name", "release-notes"),
    ],
)
def test_t1a_a_field_without_a_space_after_its_colon_is_read(
    line: str, field: str, value: str
) -> None:
    lines = {"name": "name: notes", "description": "description: Deploys", "updated_at": ""}
    lines[field] = line
    topic = _topic(lines["name"], lines["description"], lines["updated_at"])
    assert getattr(topic, field) == value
    assert topic.problems[0] == (
        f"frontmatter: {field} read as '{field}: …'; after the key stands ':' with no space "
        f"after it, where YAML needs ': ' (it would read no {field}): write ': '"
    )


def test_t1a_an_unknown_field_without_a_space_is_left_to_yaml() -> None:
    topic = _topic("name: deploy-notes", "description: Deploys", "url:https://x.example")
    assert topic.problems == []


def test_i9_hidden_text_on_a_full_width_colon_line_is_named_by_its_field() -> None:
    topic = _topic("name: deploy-notes", "description\uff1aDeploys\u202e on Fridays", "")
    [hidden] = [finding for finding in lint_topic(topic) if finding.code == "hidden-text"]
    assert hidden.line == 3
    assert hidden.message.startswith("the frontmatter field 'description' holds")
