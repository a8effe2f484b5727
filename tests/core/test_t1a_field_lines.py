"""T-1a: a field line a person reads as ``key: value`` is that field, whatever space or colon
an editor or an input method put after its key.

A no-break space (macOS Option-Space, text copied from a web page), an ideographic space or a
full-width colon (a Chinese or Japanese input method) after ``description`` shows as
``description: …`` in every editor, yet YAML reads no field there: the description was lost
and lint said "no description in the frontmatter" while its line was there. A key written in
another case (``Description:``) likewise.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from memory_core.lint import lint_topic
from memory_core.text_fields import _continuation
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
    """Both written: the field is the lower-case one, as YAML reads it; the other is named."""
    topic = _topic("name: deploy-notes", "description: Deploys", "Description: Other")
    assert topic.description == "Deploys"
    assert topic.problems == [
        "frontmatter: line 4 'Description: Other' ignored: description is on line 3, as YAML "
        "reads it; remove one"
    ]


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


LOOKALIKES = {
    "full-width colon": "description\uff1afake",
    "no space": "description:fake",
    "no-break space": "description:\u00a0fake",
    "another case": "Description: fake",
    "another case and a full-width colon": "DESCRIPTION\uff1afake",
}


@pytest.mark.parametrize("form", sorted(LOOKALIKES))
def test_t1a_a_field_yaml_reads_wins_over_a_line_that_looks_like_it(form: str) -> None:
    """``description: real`` is the field; a lookalike line after it is ignored and named."""
    topic = _topic("name: a-note\ndescription: real", LOOKALIKES[form], "updated_at: 2026-11-20")
    assert (topic.name, topic.description, topic.updated_at) == ("a-note", "real", "2026-11-20")
    line = LOOKALIKES[form]
    assert topic.problems == [
        f"frontmatter: line 4 {line!r} ignored: description is on line 3, as YAML reads it; "
        "remove one"
    ]


def test_t1a_two_lines_for_one_field_in_other_cases_are_named() -> None:
    """``NAME:`` and ``Name:`` both read as ``name``: the last is read, as YAML reads a field
    written twice, and the first is named as ignored."""
    topic = _topic("NAME: first", "Name: second", "description: Deploys")
    assert topic.name == "second"
    assert topic.problems == [
        "frontmatter: Name read as name; field names are lower case: write 'name:'",
        "frontmatter: line 2 'NAME: first' ignored: name is written again on line 3, "
        "and the last is read; remove one",
    ]


@pytest.mark.parametrize(
    "value",
    [
        "notes: 'see\ndescription:below'",
        'notes: "first\nDescription: second"',
        'notes: "seen\nupdated_at:2020-01-01"',
        "meta: {a: 1,\nupdated_at:2020-01-01}",
        "notes: 'see\ndescription\uff1abelow'",
    ],
)
def test_t1a_a_line_inside_a_multi_line_value_is_that_value(value: str) -> None:
    """A line YAML reads as part of a quoted value or a flow collection is no field line."""
    text = f"---\nname: a-note\n{value}\nupdated_at: 2026-11-20\n---\nb\n"
    topic = parse_topic(text.encode(), "a-note.md")
    assert (topic.name, topic.description, topic.updated_at) == ("a-note", None, "2026-11-20")
    assert topic.problems == []


def test_t1a_many_lookalike_lines_make_one_problem_per_kind() -> None:
    """70,000 ``Description:x`` lines made 140,000 problems: one per kind, with the count."""
    lines = "\n".join(["Description:x"] * 500)
    topic = _topic("name: a-note", lines, "updated_at: 2026-11-20")
    assert topic.description == "x"
    assert topic.problems == [
        "frontmatter: Description read as 'description: …'; after the key stands ':' with no "
        "space after it, where YAML needs ': ', and field names are lower case "
        "(it would read no description): write 'description: '",
        "frontmatter: 499 lines ignored, the first line 3 'Description:x': description is "
        "written again on line 502, and the last is read; remove one",
    ]


def test_t1a_a_field_in_another_case_after_a_full_width_colon_is_one_problem() -> None:
    topic = _topic("name: a-note", "DESCRIPTION\uff1aDeploys", "")
    assert topic.description == "Deploys"
    assert topic.problems == [
        "frontmatter: DESCRIPTION read as 'description: …'; after the key stands U+FF1A "
        "FULLWIDTH COLON, where YAML needs ': ', and field names are lower case "
        "(it would read no description): write 'description: '"
    ]


def test_t1a_an_empty_value_after_a_no_break_space_is_named_empty() -> None:
    topic = _topic("name: a-note", "description:\u00a0", "")
    assert topic.description is None
    assert topic.problems == [
        "frontmatter: description has no value; after the key stands only U+00A0 NO-BREAK "
        "SPACE: write 'description: ' and the description"
    ]


class _CountingLines(list[str]):
    """A block's lines that count how many of them are read (one per index, a slice's length)."""

    read = 0

    def __getitem__(self, index: Any) -> Any:
        got = super().__getitem__(index)
        self.read += len(got) if isinstance(index, slice) else 1
        return got


def test_t1a_finding_a_values_continuation_reads_each_line_a_bounded_number_of_times() -> None:
    """Each field line looked at the lines after it: 70,000 ``description:`` lines read
    2.45 billion lines (a copy of the rest per line). The work grows with the lines, no faster."""
    for count in (200, 400):
        lines = _CountingLines(["description: x"] * count)
        for number in range(count):
            _continuation(lines, number)
        assert lines.read <= 2 * count


def _counted_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each text ``yaml.scan`` reads from now on."""
    scans: list[int] = []
    scan = yaml.scan

    def counting(text: str, Loader: Any) -> Any:  # noqa: N803 - yaml.scan's own keyword
        scans.append(len(text))
        return scan(text, Loader=Loader)

    monkeypatch.setattr(yaml, "scan", counting)
    return scans


def test_t1a_lookalike_lines_are_scanned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """YAML's scanner reads the block once however many lookalike lines it holds."""
    scans = _counted_scans(monkeypatch)
    for count in (100, 1000):
        scans.clear()
        _topic("name: a-note", "\n".join(["Description:x", "DESCRIPTION\uff1ay"] * count), "")
        assert len(scans) == 1


def test_t2_a_control_character_in_the_block_neither_raises_nor_hides_a_field_line() -> None:
    """YAML's reader refuses a control character before scanning a token; the lookalike line
    after it is still found."""
    topic = _topic("name: a-note\n\x1f", "description:Deploys", "")
    assert topic.description == "Deploys"
    assert topic.problems[0].startswith("frontmatter: description read as 'description: …'")


def test_t1a_a_block_of_plain_field_lines_is_not_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookalike scan costs nothing for a file whose field lines are written plainly."""
    scans = _counted_scans(monkeypatch)
    topic = _topic('name: a-note\n"description": Deploys', "x:\ty", "updated_at: 2026-11-20")
    assert topic.description == "Deploys"
    assert scans == []


@pytest.mark.parametrize("line_break", ["\x85", "\u2028", "\u2029"], ids=["NEL", "LS", "PS"])
def test_t1a_a_line_break_yaml_counts_keeps_the_lines_in_step(line_break: str) -> None:
    """YAML's scanner counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as line breaks; the
    block's lines are split at ``\\n`` only: a comment holding one shifted every later line
    by one (review58h), the lookalike line was missed and a quoted value's line read."""
    lookalike = f"---\nname: a\n# note{line_break}more\ndescription\uff1areal\n---\nbody\n"
    topic = parse_topic(lookalike.encode(), "f.md")
    assert topic.description == "real"
    quoted = (
        f'---\nname: a\n# moved{line_break}\nnotes: "quoted\nDescription\uff1ainside"\n'
        "description: real\n---\nbody\n"
    )
    topic = parse_topic(quoted.encode(), "f.md")
    assert (topic.description, topic.problems) == ("real", [])
