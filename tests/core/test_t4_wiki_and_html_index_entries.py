"""T-4, T-5, A-6: an index entry written as a wiki link or an HTML link links its topic file.

An index kept by Obsidian (``- [[deploy-freeze]] — no deploys Friday``) or pasted from HTML
(``- <a href="api-pagination.md">API</a>``) was read as prose: lint called every file it lists
``unindexed`` and never ``dangling`` when one was gone, and deleting the file left its entry
behind, pointing the agent at nothing. The model and a person read each as a link to that file,
so now the one index-line parser (``memory_core.index.entry_targets``) reads them as entries:
``[[name]]`` names ``name.md`` (``|alias`` and ``#section`` dropped), an ``href`` its target as
a Markdown link's is read. In a code span, an HTML comment or a fenced block, or holding a web
address, neither is an entry.
"""

from __future__ import annotations

import pytest
from memory_core.index import linked_topic_files, prune_index, topic_link_targets
from memory_core.index_merge import merge_index, rewrite_links
from memory_core.lint import lint_scope
from memory_core.topics import ParsedTopic, parse_topic

INDEX = """# Memory index

- [[deploy-freeze]] — no deploys Friday 15:00 to Monday 09:00
- [[db-migrations|Migrations]] — alembic, backup first
- [[testing-conventions#pytest]] — pytest -q
- <a href="api-pagination.md">API pagination</a> — cursors, never offsets
- <A class="x" HREF='./release%2Dnotes.md#latest'>Release notes</A>
- [Service map](service-map.md) — who owns what
- see [[https://wiki.example.com/runbook]] and `[[not-an-entry]]`
<!-- [[retired]] -->
"""
FILES = [
    "deploy-freeze.md",
    "db-migrations.md",
    "testing-conventions.md",
    "api-pagination.md",
    "release-notes.md",
    "service-map.md",
]


def topic(file_name: str) -> ParsedTopic:
    stem = file_name.removesuffix(".md")
    text = f"---\nname: {stem}\ndescription: about {stem}\n---\nbody\n"
    return parse_topic(text.encode(), file_name)


def test_t4_wiki_and_html_links_are_index_entries() -> None:
    assert linked_topic_files(INDEX) == {name: [number] for number, name in enumerate(FILES, 3)}


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        ("- [[deploy-freeze]] — d", ["deploy-freeze.md"]),
        ("- [[deploy-freeze.md]] — d", ["deploy-freeze.md"]),
        ('- <a href="a.md">A</a> and [[b]]', ["a.md", "b.md"]),
        ("- [[ -f x ]] shell test", []),
        ("- [[archive/2026-02]]", []),  # into a sub-folder: no topic file of the scope
        ('- <a href="https://example.com/a.md">A</a>', []),
        ("- <abbr title='a.md'>x</abbr>", []),
    ],
)
def test_t4_the_forms_read(line: str, targets: list[str]) -> None:
    assert topic_link_targets(line) == targets


def test_t5_lint_checks_them_as_entries() -> None:
    """Every file they list is indexed; a wiki link to a file that is gone dangles."""
    assert lint_scope(INDEX, [topic(name) for name in FILES], FILES) == []
    rest = FILES[1:]
    findings = lint_scope(INDEX, [topic(name) for name in rest], rest)
    assert [(f.code, f.line) for f in findings] == [("dangling-link", 3)]


@pytest.mark.parametrize("number", range(len(FILES)))
def test_a6_deleting_a_file_prunes_its_entry_in_either_form(number: int) -> None:
    text, removed = prune_index(INDEX, FILES[number])
    assert removed == [INDEX.splitlines()[number + 2]]
    assert FILES[number] not in linked_topic_files(text)
    assert len(linked_topic_files(text)) == len(FILES) - 1


def test_v2_a_restore_finds_a_file_indexed_by_a_wiki_link() -> None:
    merged = merge_index(INDEX, "- [Deploy freeze](deploy-freeze.md) — no deploys\n", {})
    assert merged.added == []
    assert merged.skipped == [
        ("- [Deploy freeze](deploy-freeze.md) — no deploys", "already indexed")
    ]


def test_v2_a_restore_under_a_new_name_rewrites_wiki_and_html_entries() -> None:
    """A restore that renames ``deploy.md`` points the entries it puts back at the new file,
    in the form they were written; a name in a code span stays."""
    line = '- [[deploy]], [[deploy.md|D]], <a href="./deploy.md#x">D</a> `[[deploy]]`'
    assert rewrite_links(line, {"deploy.md": "deploy-2.md"}) == (
        '- [[deploy-2]], [[deploy-2.md|D]], <a href="./deploy-2.md#x">D</a> `[[deploy]]`'
    )
