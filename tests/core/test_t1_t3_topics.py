"""T-1…T-3: topic files parse into fields, body and [[links]], never raising (T-2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_core.decoding import decode_exact, shown_lines
from memory_core.encoding_findings import not_utf8_notes
from memory_core.hidden_text import show_hidden
from memory_core.lint import lint_scope
from memory_core.topics import READ_CAP_BYTES, ParsedTopic, decode_text, parse_topic, read_topic

WORKSPACE = "coding-agent-workspace"


def _parse(text: str, file_name: str = "note.md") -> ParsedTopic:
    return parse_topic(text.encode("utf-8"), file_name)


# --- T-1 -------------------------------------------------------------------------------------


def test_t1_fields_are_read() -> None:
    topic = _parse(
        "---\nname: prefers-pnpm\ndescription: Use pnpm\nupdated_at: 2026-10-02\n---\nBody\n",
        "prefers-pnpm.md",
    )
    assert (topic.file, topic.name, topic.description, topic.updated_at) == (
        "prefers-pnpm.md",
        "prefers-pnpm",
        "Use pnpm",
        "2026-10-02",
    )
    assert topic.body == "Body"
    assert topic.problems == []
    assert not topic.truncated


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-10-02", "2026-10-02"),
        ('"2026-10-02"', "2026-10-02"),
        ("2026-09-14T08:30:00Z", "2026-09-14T08:30:00+00:00"),
        ('"2026-09-14T08:30:00Z"', "2026-09-14T08:30:00Z"),
        ("2026-09-14 08:30:00", "2026-09-14T08:30:00"),
    ],
)
def test_t1_updated_at_is_an_iso_8601_string(value: str, expected: str) -> None:
    topic = _parse(f"---\nname: n\nupdated_at: {value}\n---\nx", "n.md")
    assert topic.updated_at == expected
    assert topic.problems == []


def test_t1_updated_at_that_is_no_date_is_named_not_raised() -> None:
    topic = _parse("---\nname: n\nupdated_at: last tuesday\n---\nx", "n.md")
    assert topic.updated_at is None
    assert topic.problems == ["frontmatter: updated_at 'last tuesday' is not an ISO 8601 date"]


@pytest.mark.parametrize(
    "extra",
    [
        "type: feedback",
        "metadata:\n  type: feedback",
        "originSessionId: 5b1f0a3e-0000-4000-8000-000000000000",
        "related: [a.md, b.md]",
        "tags:\n  - x\n  - y",
    ],
)
def test_t1_unknown_fields_are_ignored(extra: str) -> None:
    topic = _parse(f"---\nname: n\ndescription: d\n{extra}\n---\nx", "n.md")
    assert (topic.name, topic.description, topic.problems) == ("n", "d", [])


def test_t1_title_style_name_still_lists_and_file_name_is_identity() -> None:
    topic = _parse("---\nname: Always run the linter\n---\nx", "always-run-the-linter.md")
    assert topic.file == "always-run-the-linter.md"
    assert topic.name == "Always run the linter"
    assert topic.problems == []


def test_t1_wrong_type_of_field_is_dropped_and_named_others_kept() -> None:
    topic = _parse("---\nname:\n  - a\n  - b\ndescription: still here\n---\nx", "n.md")
    assert topic.name == "n"  # the stem stands in
    assert topic.description == "still here"
    assert len(topic.problems) == 1
    assert topic.problems[0].startswith("frontmatter: ")
    assert "$.name" in topic.problems[0]


def test_t1_missing_name_falls_back_to_the_stem() -> None:
    assert _parse("---\ndescription: d\n---\nx", "Deploy notes.md").name == "Deploy notes"


# --- T-2 -------------------------------------------------------------------------------------

PROBLEM_CASES = [
    pytest.param(b"", ["empty: the file holds no text"], id="empty"),
    pytest.param(b"  \n\n", ["empty: the file holds no text"], id="whitespace-only"),
    pytest.param(
        b"just text\n", ["frontmatter: missing (no '---' block at the top)"], id="no-frontmatter"
    ),
    pytest.param(
        b"---\nname: x\nbody without end\n",
        ["frontmatter: no closing '---' (or '...') line; the whole file is read as body"],
        id="unclosed",
    ),
    pytest.param(
        b"---\n- a\n- b\n---\nbody", ["frontmatter: not a mapping of fields; ignored"], id="list"
    ),
    pytest.param(
        b"\xef\xbb\xbf---\nname: n\n---\nbody",
        ["encoding: UTF-8 byte order mark removed"],
        id="bom",
    ),
    pytest.param(
        b"---\r\nname: n\r\n---\r\nbody\r\n", ["line-endings: CRLF read as LF"], id="crlf"
    ),
    pytest.param(b"---\rname: n\r---\rbody\r", ["line-endings: CR read as LF"], id="cr"),
]


@pytest.mark.parametrize(("raw", "problems"), PROBLEM_CASES)
def test_t2_problems_are_named(raw: bytes, problems: list[str]) -> None:
    assert parse_topic(raw, "n.md").problems == problems


def test_t2_broken_yaml_becomes_no_metadata_plus_named_problem() -> None:
    topic = _parse("---\ntags: [unclosed\nupdated_at: 2026-11-02\n---\nthe body", "n.md")
    assert topic.name == "n"
    assert topic.body == "the body"
    assert len(topic.problems) == 1
    assert topic.problems[0].startswith("frontmatter: invalid YAML (")


def test_t2_broken_yaml_keeps_the_fields_it_could_read() -> None:
    topic = _parse('---\nname: flaky-ci\ndescription: "open\nupdated_at: 2026-11-02\n---\nb')
    # T-1a: the description's line is there, so its text is kept as written, never "missing".
    assert (topic.name, topic.description, topic.updated_at) == (
        "flaky-ci",
        '"open',
        "2026-11-02",
    )
    assert topic.problems[0].endswith("read name, description, updated_at line by line")
    assert len(topic.problems) == 1


def test_t2_second_frontmatter_block_is_reported() -> None:
    topic = _parse("---\nname: a\n---\n---\nname: b\n---\nbody", "a.md")
    assert topic.name == "a"
    assert topic.problems == [
        "frontmatter: a second '---' block follows the first; only the first is read"
    ]


def test_t2_a_horizontal_rule_in_the_body_is_not_a_second_block() -> None:
    topic = _parse("---\nname: a\n---\nText\n\n---\n\nMore text", "a.md")
    assert topic.problems == []
    assert topic.body == "Text\n\n---\n\nMore text"


def test_t2_non_utf8_falls_back_and_names_the_encoding() -> None:
    raw = "---\nname: n\ndescription: Café\n---\nCrème".encode("latin-1")
    topic = parse_topic(raw, "n.md")
    assert topic.description == "Café"
    assert topic.body == "Crème"
    assert topic.problems == [
        "encoding: not valid UTF-8 (byte 0xe9 at offset 28, line 3; byte 0xe8 at offset 36, "
        "line 5); read as cp1252"
    ]


def test_t2_bytes_cp1252_does_not_define_read_as_their_c1_controls() -> None:
    text, problems = decode_text(b"a\x81b")
    assert text == "a\x81b"
    assert problems == [
        "encoding: not valid UTF-8 (byte 0x81 at offset 1, line 1); read as cp1252, line 1 "
        "holds bytes cp1252 does not define (shown as hidden text)"
    ]


def test_t2_a_windows_1252_index_with_one_undefined_byte_reads_every_other_byte_as_cp1252() -> None:
    """I-9, T-2: an index in Windows-1252 (en dashes ``\\x96``, ``Š š Ž ž``) with one line
    holding a byte cp1252 does not define (``\\x81``) is read byte by byte, as WHATWG's
    windows-1252 reads it: every letter and dash is cp1252's, that line's too, and the undefined
    byte alone is U+0081, hidden text. Read as Latin-1, the line's ``Š`` and ``–`` were C1
    controls: its link to ``šárka.md`` dangled and the model saw ``[hidden: U+0096]``."""
    raw = (
        b"# Memory\r\n- [Deploy](deploy.md) \x96 how we ship\r\n- [\x8a\xe1rka](\x9a\xe1rka.md) "
        b"\x93Czech\x94 \x81\r\n- [\x8eena](\x9eena.md) \x96 fine\r\n"
    )
    text, problems = decode_text(raw)
    assert text.splitlines() == [
        "# Memory",
        "- [Deploy](deploy.md) \u2013 how we ship",
        "- [Šárka](šárka.md) \u201cCzech\u201d \x81",
        "- [Žena](žena.md) \u2013 fine",
    ]
    assert problems[0] == (
        "encoding: not valid UTF-8 (byte 0x96 at offset 32, line 2; byte 0x8a at offset 50, "
        "line 3; byte 0x8e at offset 81, line 4); read as cp1252, line 3 holds bytes cp1252 "
        "does not define (shown as hidden text)"
    )
    topics = [parse_topic(b"---\nname: deploy\ndescription: d\n---\nx\n", "deploy.md")]
    findings = lint_scope(text, topics, ["deploy.md", "šárka.md", "žena.md"])
    assert [(finding.code, finding.line) for finding in findings if finding.line == 3] == [
        ("hidden-text", 3)
    ]  # no dangling link: the undefined byte alone is hidden text
    assert show_hidden(text).count("[hidden:") == 1
    assert "[hidden: U+0081]" in show_hidden(text)
    exact = decode_exact(raw)  # a delete's pruned lines are shown as read, bytes kept
    assert exact is not None and exact.encode(exact.text) == raw
    lines = exact.text.splitlines(keepends=True)
    assert exact.encode(lines[0] + lines[1] + lines[3]) == raw.replace(raw.splitlines(True)[2], b"")
    assert shown_lines(raw, lines[1:4]) == [
        line.replace("\n", "\r\n") for line in text.splitlines(True)[1:4]
    ]
    [(line, message)] = not_utf8_notes("MEMORY.md", problems)
    assert line == 2
    assert "remove or retype the bytes cp1252 does not define (0x81 0x8d 0x8f 0x90 0x9d)" in message


def test_t2_utf8_with_a_cp1252_line_holding_an_undefined_byte_reads_that_line_as_cp1252() -> None:
    """T-2, I-9: the line that is not UTF-8 is read as cp1252, as its problem says, byte by
    byte: its dash is ``–``, never U+0096, and the byte cp1252 does not define alone is named."""
    raw = "- [a](a.md) – één\n- [b](b.md) – naïve\n".encode() + b"- [c](c.md) \x96 odd \x81\n"
    text, problems = decode_text(raw)
    assert text.splitlines()[2] == "- [c](c.md) \u2013 odd \x81"
    assert problems == [
        "encoding: not valid UTF-8 (byte 0x96 at offset 57, line 3); line 3 read as cp1252, every "
        "other line as UTF-8, line 3 holds bytes cp1252 does not define (shown as hidden text)"
    ]
    assert show_hidden(text).count("[hidden:") == 1 and "[hidden: U+0081]" in show_hidden(text)
    exact = decode_exact(raw)
    assert exact is not None and exact.encode(exact.text) == raw
    assert shown_lines(raw, exact.text.splitlines(keepends=True))[2] == text.splitlines(True)[2]


def test_t2_utf8_with_a_line_of_another_encoding_is_read_line_by_line() -> None:
    """A UTF-8 file with one line pasted from a Latin-1 one: the other lines stay UTF-8 (read
    as cp1252 as a whole, every accent and dash was mojibake); a file in another encoding
    throughout is still read as one."""
    raw = "---\nname: n\ndescription: Café — crème\n---\n".encode() + b"Cr\xe8me br\xfbl\xe9e\n"
    topic = parse_topic(raw, "n.md")
    assert (topic.description, topic.body) == ("Café — crème", "Crème brûlée")
    assert topic.problems == [
        "encoding: not valid UTF-8 (byte 0xe8 at offset 48, line 5); line 5 read as cp1252, every "
        "other line as UTF-8"
    ]
    exact = decode_exact(raw)
    assert exact is not None and exact.encode(exact.text.replace("n\n", "m\n", 1)) == (
        raw.replace(b"n\n", b"m\n", 1)
    )  # an edit gives every other byte back, the pasted line's too
    whole = "Café — crème\nCrème\n".encode("cp1252")
    assert decode_text(whole)[0] == "Café — crème\nCrème\n"


def test_t2_utf16_with_bom_is_read() -> None:
    raw = "\ufeff---\nname: n\n---\nbody".encode("utf-16")
    topic = parse_topic(raw, "n.md")
    assert topic.name == "n"
    assert topic.body == "body"
    assert "encoding: UTF-16 text" in topic.problems


def test_t2_huge_file_is_capped_and_reported() -> None:
    head = "---\nname: big\ndescription: a big one\n---\n"
    raw = (head + "é" * READ_CAP_BYTES).encode("utf-8")  # 2 bytes each: far over the cap
    topic = parse_topic(raw, "big.md")
    assert topic.truncated
    assert topic.description == "a big one"
    assert "size: larger than 1 MiB; only the first 1 MiB was read" in topic.problems
    # the cut fell inside a character: dropped, not reported as an encoding problem
    assert not any(problem.startswith("encoding") for problem in topic.problems)
    assert len(topic.body.encode("utf-8")) <= READ_CAP_BYTES


def test_t2_read_topic_reads_at_most_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"---\nname: big\n---\n" + b"x" * (3 * READ_CAP_BYTES))
    topic, stat = read_topic(path)
    assert topic.truncated
    assert stat.st_size == path.stat().st_size
    assert len(topic.body) < READ_CAP_BYTES


def test_t2_read_topic_at_exactly_the_cap_is_not_truncated(tmp_path: Path) -> None:
    head = b"---\nname: n\n---\n"
    path = tmp_path / "n.md"
    path.write_bytes(head + b"x" * (READ_CAP_BYTES - len(head)))
    topic, _ = read_topic(path)
    assert not topic.truncated
    assert topic.problems == []


@settings(max_examples=300)
@given(raw=st.binary(max_size=2000))
def test_t2_parsing_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    topic = parse_topic(raw, "any.md")
    assert isinstance(topic, ParsedTopic)
    assert topic.file == "any.md"
    assert all(isinstance(problem, str) and ": " in problem for problem in topic.problems)


frontmatterish = st.lists(
    st.sampled_from(
        ["---", "name: a", "description: d", 'description: "', "updated_at: x", "- [", "{", "\t"]
    )
    | st.text(max_size=30),
    max_size=12,
).map("\n".join)


@settings(max_examples=300)
@given(text=frontmatterish)
def test_t2_parsing_never_raises_on_frontmatter_like_text(text: str) -> None:
    topic = parse_topic(text.encode("utf-8", "surrogatepass"), "any.md")
    assert isinstance(topic, ParsedTopic)


# --- T-3 -------------------------------------------------------------------------------------


def test_t3_body_follows_frontmatter_and_links_are_extracted() -> None:
    topic = _parse(
        "---\nname: a\n---\nSee [[b]] and [[c|the C note]], [[b]] again, [[d#why]].\n", "a.md"
    )
    assert topic.body == "See [[b]] and [[c|the C note]], [[b]] again, [[d#why]]."
    assert topic.links == ["b", "c", "d"]


@pytest.mark.parametrize(
    ("text", "body", "line"),
    [
        ("---\nname: a\n---\n    code\n    more\n\ntext\n", "    code\n    more\n\ntext", 4),
        ("---\nname: a\n---\n\n \n\tcode\n", "\tcode", 6),
        ("\n\n    code\n", "    code", 3),  # no frontmatter
        ("---\nname: a\n---\n\u3000\u3000段落\n", "\u3000\u3000段落", 4),
    ],
)
def test_t3_the_body_keeps_the_indent_of_its_first_line(text: str, body: str, line: int) -> None:
    """The blank lines before the body are left out, never the indent of its first line: a body
    opening with an indented code block (four columns, a tab) is code as Markdown reads it, and
    a paragraph opened by ideographic spaces keeps them; ``body_line`` is that line's."""
    topic = _parse(text, "a.md")
    assert (topic.body, topic.body_line) == (body, line)


@pytest.mark.parametrize(
    ("body", "links"),
    [
        ("`[[not-a-link]]` but [[yes]]", ["yes"]),
        ("```\n[[in-fence]]\n```\n[[after]]", ["after"]),
        ("if [[ -f x ]]; then", []),
        ("[[]] [[ ]]", []),
        ("[[数据库迁移]]", ["数据库迁移"]),
        ("[[two words]]", ["two words"]),
    ],
)
def test_t3_link_extraction(body: str, links: list[str]) -> None:
    assert _parse(f"---\nname: a\n---\n{body}", "a.md").links == links


def test_t3_body_line_points_into_the_file() -> None:
    topic = _parse("---\nname: a\ndescription: d\n---\n\nfirst body line", "a.md")
    assert topic.body_line == 6


# --- the sample folders ------------------------------------------------------------------------

EXPECTED_PROBLEMS: dict[str, list[str]] = {
    "db-migrations.md": ["encoding: UTF-8 byte order mark removed"],
    "service-map.md": ["line-endings: CRLF read as LF"],
    "plain-notes.md": ["frontmatter: missing (no '---' block at the top)"],
    "empty.md": ["empty: the file holds no text"],
    "latin1-notes.md": [
        "encoding: not valid UTF-8 (byte 0xe9 at offset 39, line 3; byte 0xe8 at offset 134, "
        "line 6); read as cp1252"
    ],
}


def _topic_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.glob("*.md") if path.name != "MEMORY.md")


@pytest.mark.parametrize("folder", ["user-scope", WORKSPACE, "large-index"])
def test_t2_every_corpus_file_parses(corpus: Path, folder: str) -> None:
    files = _topic_files(corpus / folder)
    assert files
    for path in files:
        before = path.read_bytes()
        topic, _ = read_topic(path)
        assert topic.file == path.name
        assert path.read_bytes() == before  # reading never rewrites (T-2)
        if folder != WORKSPACE:
            assert topic.problems == [], path.name
            assert topic.name == path.stem
            assert topic.description


@pytest.mark.parametrize(("file_name", "problems"), sorted(EXPECTED_PROBLEMS.items()))
def test_t2_messy_corpus_files_name_their_problems(
    corpus: Path, file_name: str, problems: list[str]
) -> None:
    topic, _ = read_topic(corpus / WORKSPACE / file_name)
    assert topic.problems == problems


def test_t2_corpus_broken_yaml_is_named(corpus: Path) -> None:
    topic, _ = read_topic(corpus / WORKSPACE / "flaky-ci.md")
    assert len(topic.problems) == 1
    assert topic.problems[0].startswith("frontmatter: invalid YAML (")
    assert topic.name == "flaky-ci"
    assert topic.updated_at == "2026-11-02"
    assert topic.body.startswith("The e2e job fails")


def test_t2_corpus_clean_workspace_files_have_no_problems(corpus: Path) -> None:
    for path in _topic_files(corpus / WORKSPACE):
        if path.name in EXPECTED_PROBLEMS or path.name == "flaky-ci.md":
            continue
        topic, _ = read_topic(path)
        assert topic.problems == [], path.name


def test_t1_corpus_title_style_and_non_ascii_names_list(corpus: Path) -> None:
    linter, _ = read_topic(corpus / WORKSPACE / "always-run-the-linter.md")
    assert linter.name == "Always run the linter"
    migrations, _ = read_topic(corpus / WORKSPACE / "db-migrations.md")
    assert migrations.name == "数据库迁移"
    assert migrations.updated_at == "2026-09-09"


def test_t1_corpus_bom_crlf_latin1_bodies(corpus: Path) -> None:
    service_map, _ = read_topic(corpus / WORKSPACE / "service-map.md")
    assert "\r" not in service_map.body
    assert service_map.links == ["deploy-freeze", "testing-conventions"]
    latin1, _ = read_topic(corpus / WORKSPACE / "latin1-notes.md")
    assert "Crème brûlée" in latin1.body


def test_t2_unquoted_colon_in_a_value_is_read_as_text() -> None:
    # Strict YAML refuses "a: b: c"; agents write it all the time (see tests/data/corpus).
    topic = _parse("---\nname: n\ndescription: flake and retry: rule 1\n---\nx", "n.md")
    assert topic.description == "flake and retry: rule 1"
    assert topic.problems == []
