"""T-5, I-4, I-8: an index's lint facts, and its split head, equal a fresh look at the whole.

Lint finds an index's per-line facts in one pass (``memory_core.index_facts``); the injection
splits only an index's head. Both must give exactly what a look at the whole text gives,
whatever the text holds: links, links inside a code fence, private-key blocks, long lines, CRLF.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from memory_core.credentials import find_secrets
from memory_core.index import index_lines, linked_topic_files
from memory_core.index_facts import INDEX_LINE_LIMIT, index_facts
from memory_core.injection import LINE_CAP, prepare_index
from memory_core.lint import lint_index, lint_scope

PIECES = [
    "- [Alpha](alpha.md) — a note",
    "[beta]: beta.md",
    "`[gamma](gamma.md)` shown as code",
    "```",
    "~~~~",
    "plain prose, nothing linked",
    "-----BEGIN RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEA7",
    "-----END RSA PRIVATE KEY-----",
    "export GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "- a line far too long " + "x" * INDEX_LINE_LIMIT,
    "- [Delta](Deploy%20notes.md)\r",
    "",
]

texts = st.builds(
    lambda lines, end: "\n".join(lines) + end,
    st.lists(st.sampled_from(PIECES), max_size=14),
    st.sampled_from(["", "\n"]),
)


@given(texts)
def test_t5_the_facts_of_an_index_are_its_links_secrets_long_lines_and_line_count(
    text: str,
) -> None:
    facts = index_facts(text)
    lines = index_lines(text)

    assert facts.lines == len(lines)
    assert facts.links == linked_topic_files(text)
    assert list(facts.secrets) == find_secrets(text)
    assert list(facts.long_lines) == [
        (number, len(line))
        for number, line in enumerate(lines, start=1)
        if len(line) > INDEX_LINE_LIMIT
    ]


@given(texts, st.lists(st.sampled_from(["a.md", "alpha.md", "beta.md", "zeta.md"]), unique=True))
def test_t5_lint_with_kept_facts_equals_lint_of_the_text(text: str, files: list[str]) -> None:
    facts = index_facts(text)

    assert lint_index(text, files, facts=facts) == lint_index(text, files)
    assert lint_scope(text, [], files, facts=facts) == lint_scope(text, [], files)


@given(st.lists(st.sampled_from(PIECES), max_size=LINE_CAP + 40), st.sampled_from(["", "\n"]))
def test_i4_an_index_split_at_its_head_counts_and_injects_as_split_whole(
    lines: list[str], end: str
) -> None:
    text = "\n".join(lines) + end
    prepared = prepare_index(text)
    split = index_lines(text)

    assert prepared.total == len(split)
    assert len(prepared.candidates) == min(len(split), LINE_CAP)
    assert prepared.blank == (not text.strip())


def test_i4_a_long_index_injects_its_first_lines_masked_and_counts_all() -> None:
    lines = [PIECES[number % len(PIECES)] for number in range(1_000)]
    prepared = prepare_index("\n".join(lines) + "\n")

    assert prepared.total == 1_000
    assert len(prepared.candidates) == LINE_CAP
    assert prepared.candidates[0] == PIECES[0]
    assert not any("ghp_" in line for line in prepared.candidates)  # masked (I-8)
