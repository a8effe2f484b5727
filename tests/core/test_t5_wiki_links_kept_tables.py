"""A-5, T-5: the tables a lint builds from a scope's names are kept for one scope only.

A listing page and the next ask for the same scope's tables (the wiki-link resolver, the names
table, the look-alike groups): they are kept for that scope. A reviewer measured the wiki-link
table of a 30,000-name scope at about 25 MB; kept four scopes at a time, five big scopes in a
row grew the service by 118 MB against its 200 MiB budget. One scope's tables are kept, no more.
"""

from __future__ import annotations

from typing import Any

import pytest
from memory_core import lint
from memory_core.index_facts import index_facts
from memory_core.lint import lint_index
from memory_core.topics import parse_topic
from memory_core.wiki_links import WikiFiles

TABLES = (lint._wiki_files, lint._names_table, lint._skeleton_groups)


def _names(scope: int) -> tuple[str, ...]:
    return tuple(f"scope-{scope}-note-{number}.md" for number in range(200))


def test_t5_scopes_linted_in_a_row_keep_the_tables_of_the_last_one_only() -> None:
    for table in TABLES:
        table.cache_clear()
    for scope in range(5):
        names = _names(scope)
        lint_index("- [[scope-0-note-1]] a link\n", names)
        lint._names_table(names)
        lint._skeleton_groups(names)
    for table in TABLES:
        assert table.cache_info().currsize == 1, table
    lint._wiki_files(_names(4))
    assert lint._wiki_files.cache_info().hits >= 1  # the last scope's table is the one kept


def test_t5_a_topic_view_and_its_listing_share_the_scopes_wiki_link_table() -> None:
    """The one-file view resolves the index's wiki links among the same files as the listing
    (the scope's and those of its sub-folders), so going list → topic → list builds the
    table once: before, the view left the sub-folder notes out, each evicted the other's table
    and a 30,000-name scope rebuilt it (175 ms) at every step."""
    names = _names(7)
    subs = ("sub/deep.md",)
    index = "- [[sub/deep]] a note in a sub-folder\n- [[scope-7-note-1]]\n"
    topic = parse_topic(b"---\nname: one\ndescription: d\n---\nbody\n", names[1])
    lint._wiki_files.cache_clear()
    lint._links(index_facts(index), None, names, subs)  # as a listing page resolves them
    lint.lint_topic_in_scope(topic, names, index, scope_topics=list, in_sub_folders=subs)
    lint._links(index_facts(index), None, names, subs)
    assert lint._wiki_files.cache_info().misses == 1


def test_t5_the_pages_of_a_listing_resolve_their_topics_links_in_one_kept_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page's topics' ``[[links]]`` that name no file by its name are looked up by their words
    in the table the index's wiki links use, kept by the scope's names: the next page (and the
    index's links) build no other, where each page built its own (30,000 names: about a sixth
    of a later page's time, measured with ``bench.listing_first_page --shape dangling``)."""
    names = _names(8)
    index = "- [[scope-8-note-1]] a note\n"
    built: list[WikiFiles] = []

    def counted(*args: Any) -> WikiFiles:
        built.append(WikiFiles(*args))
        return built[-1]

    monkeypatch.setattr(lint, "WikiFiles", counted)
    lint._wiki_files.cache_clear()
    lint._links(index_facts(index), None, names, ())
    for page in (names[:100], names[100:]):
        topics = [
            parse_topic(f"---\nname: {n}\ndescription: d\n---\n[[Not Written Yet]]\n".encode(), n)
            for n in page
        ]
        found = lint.lint_topics_in_scope(topics, names, scope_topics=topics.copy)
        assert {finding.code for finding in found} == {"dangling-wiki-link"}
        assert len(found) == len(page)
    assert len(built) == 1
