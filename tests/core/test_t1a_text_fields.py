"""T-1a: a one-line text field keeps the text written on its line, whatever YAML makes of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from memory_core.lint import lint_topic
from memory_core.text_fields import read_text_fields
from memory_core.topics import parse_topic, read_topic

# The case folder tests/data/cases/description-as-written: file → the right description.
AS_WRITTEN = {
    "issue-notes.md": "Issue #42 fixed in the parser",
    "release-notes.md": "2026-01-05 release notes moved to docs/releases",
    "port-number.md": "8080",
    "search-cmd.md": "`tool search` shipped in v9 with --source a|b",
    "at-sign.md": "@team owns deploys on Fridays",
}


@pytest.mark.parametrize(("file_name", "description"), sorted(AS_WRITTEN.items()))
def test_t1a_case_descriptions_read_as_written(
    cases: Path, file_name: str, description: str
) -> None:
    topic, _ = read_topic(cases / "description-as-written" / "scope" / file_name)
    assert topic.description == description
    assert topic.name == file_name.removesuffix(".md")
    assert topic.updated_at == "2026-11-03"
    assert "missing-description" not in [finding.code for finding in lint_topic(topic)]


@pytest.mark.parametrize(
    ("file_name", "problem"),
    [
        ("issue-notes.md", "YAML would read only 'Issue' (the rest as a comment)"),
        ("port-number.md", "YAML would read the number 8080"),
        ("search-cmd.md", "YAML cannot read a value starting with '`'"),
        ("at-sign.md", "YAML cannot read a value starting with '@'"),
    ],
)
def test_t1a_a_recovered_value_is_named_in_one_short_line(
    cases: Path, file_name: str, problem: str
) -> None:
    topic, _ = read_topic(cases / "description-as-written" / "scope" / file_name)
    assert topic.problems == [f"frontmatter: description read as written; {problem}"]


def test_t1a_a_value_yaml_reads_the_same_has_no_problem(cases: Path) -> None:
    topic, _ = read_topic(cases / "description-as-written" / "scope" / "release-notes.md")
    assert topic.problems == []


def _description(value: str) -> tuple[str | None, list[str]]:
    topic = parse_topic(f"---\nname: n\ndescription: {value}\n---\nbody".encode(), "n.md")
    return topic.description, topic.problems


@pytest.mark.parametrize(
    ("value", "text", "named"),
    [
        ("yes", "yes", "the boolean true"),
        ("null", "null", "null (no value)"),
        ("~", "~", "null (no value)"),
        ("2026-01-05", "2026-01-05", "the date 2026-01-05"),
        ("3.5", "3.5", "the number 3.5"),
        ("0x1F", "0x1F", "the number 31"),
        ("*star notes", "*star notes", "YAML cannot read a value starting with '*'"),
        ("!important rule", "!important rule", "YAML cannot read a value starting with '!'"),
        ("%TAG-like text", "%TAG-like text", "YAML cannot read a value starting with '%'"),
        ("&anchor text", "&anchor text", "YAML would read 'text'"),
        ("[draft] notes", "[draft] notes", "YAML cannot read it"),
        ("[a, b]", "[a, b]", "a list"),
        ("a #hash and more", "a #hash and more", "(the rest as a comment)"),
        ("12:30", "12:30", "the number 750"),
        ("0755", "0755", "the number 493"),
        ("> 5 retries get the client banned", "> 5 retries get the client banned", "'>'"),
        (">= 3 reviewers on main", ">= 3 reviewers on main", "starting with '>'"),
        ("|x| is the absolute value", "|x| is the absolute value", "starting with '|'"),
        ('"v2" is the only API left', '"v2" is the only API left', "quoted part followed by"),
        ("'main' is protected", "'main' is protected", "quoted part followed by more text"),
        ('"v2" and "v3" are frozen', '"v2" and "v3" are frozen', "quoted part followed by"),
        ('"v2" and "v3"', '"v2" and "v3"', "quoted part followed by more text"),
        ('"regime "CSPN" aware"', 'regime "CSPN" aware', 'unescaped " inside the quoted value'),
        ('"use "uv run" not "python""', 'use "uv run" not "python"', 'unescaped " inside'),
        ("'it's the main branch'", "it's the main branch", "unescaped ' inside the quoted value"),
        ("'the 'main' branch'", "the 'main' branch", "unescaped ' inside the quoted value"),
    ],
)
def test_t1a_any_scalar_yaml_would_reinterpret_keeps_its_text(
    value: str, text: str, named: str
) -> None:
    description, problems = _description(value)
    assert description == text
    assert len(problems) == 1
    assert problems[0].startswith("frontmatter: description read as written; ")
    assert named in problems[0]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ('"quoted: #42"', "quoted: #42"),
        ("'it''s quoted'", "it's quoted"),
        ('"tab\\there"', "tab\there"),
        ('"kept" # a real comment after the quotes', "kept"),
        ("flake and retry: rule 1", "flake and retry: rule 1"),
        ("plain words", "plain words"),
    ],
)
def test_t1a_quotes_are_removed_and_plain_text_is_not_a_problem(value: str, text: str) -> None:
    assert _description(value) == (text, [])


def test_t1a_block_scalars_and_continued_values_stay_with_yaml() -> None:
    folded = parse_topic(b"---\nname: n\ndescription: >-\n  one\n  two\n---\nb", "n.md")
    assert (folded.description, folded.problems) == ("one two", [])
    continued = parse_topic(b"---\nname: n\ndescription: one\n  two\n---\nb", "n.md")
    assert (continued.description, continued.problems) == ("one two", [])


@pytest.mark.parametrize(
    ("block", "text", "named"),
    [
        (
            "description:\n  Issue #42 on the next line",
            "Issue #42 on the next line",
            "only 'Issue'",
        ),
        ("description: Issue #42\n  goes on here", "Issue #42 goes on here", "cannot read it"),
        ("description:\n  8080", "8080", "the number 8080"),
    ],
)
def test_t1a_a_plain_value_continued_on_indented_lines_keeps_its_words(
    block: str, text: str, named: str
) -> None:
    topic = parse_topic(f"---\nname: n\n{block}\nupdated_at: 2026-11-03\n---\nb".encode(), "n.md")
    assert (topic.description, topic.updated_at) == (text, "2026-11-03")
    assert len(topic.problems) == 1
    assert named in topic.problems[0]


def test_t1a_a_nested_list_or_mapping_under_a_text_field_stays_with_yaml() -> None:
    listed = parse_topic(b"---\nname: n\ndescription:\n  - a\n  - b\n---\nb", "n.md")
    assert listed.description is None
    assert "got `array`" in listed.problems[0]


def test_t1a_a_quoted_key_is_the_same_field() -> None:
    topic = parse_topic(b'---\nname: n\n"description": 8080\n---\nb', "n.md")
    assert topic.description == "8080"


def test_t1a_a_quote_left_open_is_still_the_fields_text() -> None:
    block = b'---\nname: n\ndescription: "unclosed quote\nupdated_at: 2026-11-03\n---\nb'
    topic = parse_topic(block, "n.md")
    assert (topic.description, topic.updated_at) == ('"unclosed quote', "2026-11-03")
    assert topic.problems[0].endswith("read name, description, updated_at line by line")
    assert "missing-description" not in [finding.code for finding in lint_topic(topic)]
    spanning = parse_topic(b'---\nname: n\ndescription: "two\n  lines"\n---\nb', "n.md")
    assert (spanning.description, spanning.problems) == ("two lines", [])


def test_t1a_name_is_read_as_written_too() -> None:
    topic = parse_topic(b"---\nname: 2026-q4-plan\ndescription: d\n---\nb", "2026-q4-plan.md")
    assert (topic.name, topic.problems) == ("2026-q4-plan", [])
    numeric = parse_topic(b"---\nname: 404\ndescription: d\n---\nb", "404.md")
    assert numeric.name == "404"
    assert numeric.problems == ["frontmatter: name read as written; YAML would read the number 404"]


def test_t1a_other_fields_still_come_from_yaml_when_a_text_line_breaks_it() -> None:
    topic = parse_topic(
        b"---\nname: n\ndescription: `x` y\nupdated_at: 2026-11-03\nmetadata:\n  type: a\n---\nb",
        "n.md",
    )
    assert (topic.description, topic.updated_at) == ("`x` y", "2026-11-03")


def test_t1a_nested_name_keys_are_not_the_field() -> None:
    fields = read_text_fields("metadata:\n  name: inner\ndescription: d")
    assert fields.values == {"description": "d"}


def test_t1a_no_missing_description_when_its_line_is_there() -> None:
    for value in ("8080", "@team", "`cmd`", "null", "yes", "#hash only?"):
        topic = parse_topic(f"---\nname: n\ndescription: {value}\n---\nb".encode(), "n.md")
        assert "missing-description" not in [finding.code for finding in lint_topic(topic)], value


# A YAML block scalar header (``|``, ``>-``, ``|2``, then only a comment): not a one-line value.
_BLOCK_HEADER = re.compile(r"[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?")


def _one_line_plain(value: str) -> bool:
    return bool(value) and value[0] not in "\"'" and not _BLOCK_HEADER.fullmatch(value)


_ONE_LINE: st.SearchStrategy[str] = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
        min_size=1,
        max_size=60,
    )
    .map(str.strip)
    .filter(_one_line_plain)
)


@given(_ONE_LINE)
def test_t1a_any_one_line_plain_value_is_its_text(value: str) -> None:
    assert _description(value)[0] == value


@pytest.mark.parametrize("line", ['name: ""', "name: ''", "name:", 'name: "   "'])
def test_t1a_an_empty_name_falls_back_to_the_file_name_and_says_so(line: str) -> None:
    topic = parse_topic(f"---\n{line}\ndescription: d\n---\nbody".encode(), "deploy-notes.md")
    assert topic.name == "deploy-notes"
    assert topic.problems == ["frontmatter: name is empty; the file name stands in"]
    findings = lint_topic(topic)
    assert [(f.code, f.severity) for f in findings] == [("empty-name", "warning")]
    assert findings[0].message == "the name is empty; the file name 'deploy-notes' stands in"


def test_t1a_a_missing_name_line_is_no_empty_name() -> None:
    topic = parse_topic(b"---\ndescription: d\n---\nbody", "deploy-notes.md")
    assert (topic.name, topic.problems, lint_topic(topic)) == ("deploy-notes", [], [])
