"""T-4, A-6: index link detection and pruning (pure text in, text out)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from memory_core.index import (
    RepeatedFind,
    index_lines,
    line_links_to,
    link_targets,
    linked_topic_files,
    prune_index,
    topic_link_targets,
)
from memory_core.index_merge import rewrite_links

LINKS = [
    ("- [Deploy](deploy.md) — hook", "deploy.md"),
    ("- [Deploy](./deploy.md) — hook", "deploy.md"),
    ("- [Deploy](<deploy.md>) — hook", "deploy.md"),
    ("- [Deploy](deploy.md#why) — hook", "deploy.md"),
    ('- [Deploy](deploy.md "Deploy freeze") — hook', "deploy.md"),
    ("- [Deploy](deploy.md 'Deploy freeze') — hook", "deploy.md"),
    ("- [Deploy](deploy.md (Deploy freeze)) — hook", "deploy.md"),
    ('- [Deploy](<./deploy.md#why> "title")', "deploy.md"),
    ("- [Notes](Deploy%20notes.md) — hook", "Deploy notes.md"),
    ("- [Notes](<Deploy notes.md>) — hook", "Deploy notes.md"),
    ("- [迁移](%E6%95%B0%E6%8D%AE%E5%BA%93.md)", "数据库.md"),
    ("- [迁移](数据库.md)", "数据库.md"),
    ("[deploy]: deploy.md", "deploy.md"),
    ("[deploy]: <Deploy notes.md> 'title'", "Deploy notes.md"),
    ("see [a](a.md), [b](b.md) and [deploy]( deploy.md )", "deploy.md"),
    ("- [x](file(1).md)", "file(1).md"),
]

NOT_LINKS = [
    ("The deploy.md file is mentioned in prose.", "deploy.md"),
    ("- deploy.md — plain mention", "deploy.md"),
    ("- `[Deploy](deploy.md)` shown as code", "deploy.md"),
    ("- [Deploy](deploy.md.bak)", "deploy.md"),
    ("- [Deploy](other-deploy.md)", "deploy.md"),
    ("- [Deploy](deploy.md", "deploy.md"),
    ("- [Deploy] (deploy.md)", "deploy.md"),
    ("- [Deploy](Deploy%20notes.md)", "Deploy%20notes.md.x"),
]


@pytest.mark.parametrize(("line", "file_name"), LINKS)
def test_t4_link_forms(line: str, file_name: str) -> None:
    assert line_links_to(line, file_name)
    assert file_name in link_targets(line)


@pytest.mark.parametrize(("line", "file_name"), NOT_LINKS)
def test_t4_prose_and_lookalikes_are_not_links(line: str, file_name: str) -> None:
    assert not line_links_to(line, file_name)


def test_t4_nfd_file_names_match_nfc_links() -> None:
    nfd = "Cafe\u0301.md"
    assert line_links_to("- [Café](Café.md)", nfd)


def test_t4_literal_percent_in_a_file_name() -> None:
    assert line_links_to("- [x](100%25.md)", "100%.md")
    assert line_links_to("- [x](a%20b.md)", "a%20b.md")  # a file really named that


def test_t4_topic_link_targets_skip_urls_and_paths() -> None:
    line = "[a](https://x.io/a.md) [b](../user/b.md) [c](c.md) [d](#section) [e](mailto:x@y)"
    assert topic_link_targets(line) == ["c.md"]


def test_t4_index_lines_split_on_lf_only() -> None:
    assert index_lines("a\r\nb\u2028c\x0bd\n") == ["a", "b\u2028c\x0bd"]
    assert index_lines("") == []
    assert index_lines("\n") == [""]


def test_t4_linked_topic_files_skips_fenced_code() -> None:
    text = "- [a](a.md)\n```\n- [b](b.md)\n```\n- [c](c.md) [a](a.md)\n"
    assert linked_topic_files(text) == {"a.md": [1, 5], "c.md": [5]}


# --- pruning (A-6) ----------------------------------------------------------------------------


def test_a6_prune_removes_every_linking_line_and_keeps_prose() -> None:
    text = (
        "# Index\n"
        "- [A](a.md) — first\n"
        "- [B](b.md) — second\n"
        "- [A again](./a.md#why) — twice\n"
        "a.md is mentioned here in prose.\n"
    )
    new, removed = prune_index(text, "a.md")
    assert new == "# Index\n- [B](b.md) — second\na.md is mentioned here in prose.\n"
    assert removed == ["- [A](a.md) — first", "- [A again](./a.md#why) — twice"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x\r\n- [A](a.md)\r\ny\r\n", "x\r\ny\r\n"),
        ("x\n- [A](a.md)\ny", "x\ny"),
        ("x\n- [A](a.md)", "x"),
        ("- [A](a.md)\n", ""),
        ("- [A](a.md)", ""),
        ("x\n\n- [A](a.md)\n\n\ny\n", "x\n\n\n\ny\n"),
        ("mixed\r\n- [A](a.md)\nend\n", "mixed\r\nend\n"),
        ("x\r- [A](a.md)\ry\r", "x\ry\r"),  # classic Mac line ends (delete-keeps-index-line)
        ("x\r- [A](a.md)", "x"),
        ("- [A](a.md)\r", ""),
        ("x\r\n- [A](a.md)\ry\n- [A](a.md)\n", "x\r\ny\n"),
    ],
)
def test_a6_prune_keeps_line_ends_and_final_newline_state(text: str, expected: str) -> None:
    assert prune_index(text, "a.md")[0] == expected


def test_a6_prune_without_a_link_returns_the_text_unchanged() -> None:
    text = "# Index\r\nno link to a.md here\r\n"
    assert prune_index(text, "a.md") == (text, [])


def test_a6_prune_keeps_fenced_examples() -> None:
    text = "```\n- [A](a.md)\n```\n- [A](a.md)\n"
    assert prune_index(text, "a.md") == ("```\n- [A](a.md)\n```\n", ["- [A](a.md)"])


line_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=40
) | st.sampled_from(["- [A](a.md)", "- [B](b.md) — x", "a.md in prose", "", "[A]: a.md"])


def _join(lines: list[str], end: str, final: bool) -> str:
    return "".join(line + end for line in lines) if final else end.join(lines)


@given(
    lines=st.lists(line_text, max_size=12),
    end=st.sampled_from(["\n", "\r\n", "\r"]),
    final=st.booleans(),
)
def test_a6_prune_keeps_every_other_line_byte_for_byte(
    lines: list[str], end: str, final: bool
) -> None:
    assume(not any("```" in line or "~~~" in line for line in lines))
    kept = [line for line in lines if not line_links_to(line, "a.md")]
    new, removed = prune_index(_join(lines, end, final), "a.md")
    assert new == _join(kept, end, final)
    assert removed == [line for line in lines if line_links_to(line, "a.md")]
    assert prune_index(new, "a.md") == (new, [])


def test_a6_prune_on_the_corpus_index(corpus: Path) -> None:
    text = (corpus / "coding-agent-workspace" / "MEMORY.md").read_text(encoding="utf-8")
    for file_name in [
        "testing-conventions.md",
        "deploy-freeze.md",
        "always-run-the-linter.md",
        "api-pagination.md",
        "db-migrations.md",
        "staging-url.md",
    ]:
        new, removed = prune_index(text, file_name)
        assert len(removed) == 1, file_name
        assert len(index_lines(new)) == len(index_lines(text)) - 1
    new, _ = prune_index(text, "testing-conventions.md")
    assert "The testing-conventions.md file above is also mentioned here in prose" in new


def _prune_every_line(text: str, file_name: str) -> tuple[str, list[str]]:
    """The rule of A-6 applied line by line with no shortcut: the reference for prune_index."""
    from memory_core.markdown import fenced_lines

    tokens = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+", text)  # every end readers take
    content = [token.removesuffix("\n").removesuffix("\r") for token in tokens]
    kept, removed = [], []
    for token, line, in_fence in zip(tokens, content, fenced_lines(content), strict=True):
        if not in_fence and line_links_to(line, file_name):
            removed.append(line)
        else:
            kept.append(token)
    if not removed:
        return text, []
    result = "".join(kept)
    if not text.endswith(("\n", "\r")):
        result = result.removesuffix("\n").removesuffix("\r")
    return result, removed


PRUNE_PIECES = [
    "- [Deploy](deploy.md) — hook",
    "- [Deploy](./deploy.md#why)\r",
    "see deploy.md in prose",
    "- [K](\u212aelvin.md) — a Kelvin sign, NFC makes it K",
    "- [Notes](Deploy%20notes.md)",
    "- [Café](cafe\u0301.md) — NFD",
    "- [Café](café.md) — NFC",
    "```",
    "- [Deploy](deploy.md) in a fence",
    "~~~",
    "- [Other](other.md) — unrelated",
    "",
]


@given(
    st.lists(st.sampled_from(PRUNE_PIECES), max_size=12),
    st.sampled_from(["", "\n", "\r\n", "\r"]),
    st.sampled_from(["deploy.md", "Kelvin.md", "Deploy notes.md", "café.md", "other.md"]),
)
def test_a6_pruning_finds_every_linking_line_the_line_by_line_rule_finds(
    lines: list[str], end: str, file_name: str
) -> None:
    text = "\n".join(lines) + end

    assert prune_index(text, file_name) == _prune_every_line(text, file_name)


class _CountedFind(RepeatedFind):
    """:class:`RepeatedFind` counting the characters its searches look at."""

    looked_at = 0

    def _search(self, char: str, start: int) -> int:
        found = super()._search(char, start)
        _CountedFind.looked_at += (len(self.text) if found == -1 else found + 1) - start
        return found


@pytest.mark.parametrize("unit", ["](<", "](a (", '](a "', "](a '", "](<x"])
def test_t4_a_line_of_many_links_never_closed_is_read_once(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ``](`` searched on for its ``>`` or its title's end: a line of 300,000 ``](<``
    with no ``>`` (900 kB, within the read cap) made every request reading that index take
    seconds, quadratic in the line's length (link_targets for lint and Session start, the
    import's link rewriting). The searches now look at each character about once (work
    counted, never timed), and what a line links is what it was."""
    from memory_core import index, index_merge

    monkeypatch.setattr(index, "RepeatedFind", _CountedFind)
    monkeypatch.setattr(index_merge, "RepeatedFind", _CountedFind)
    line = "- " + unit * 20_000 + " [A](a.md) [B](<b c.md> 'B')"
    _CountedFind.looked_at = 0
    assert link_targets(line) == ["a.md", "b c.md"]
    assert rewrite_links(line, {"a.md": "z.md"}).endswith(" [A](z.md) [B](<b c.md> 'B')")
    assert _CountedFind.looked_at <= 4 * len(line)


def test_t4_a_link_in_a_title_leaves_both_links_found() -> None:
    assert link_targets('- [A](a.md "see [B](b.md)") — both') == ["a.md", "b.md"]
