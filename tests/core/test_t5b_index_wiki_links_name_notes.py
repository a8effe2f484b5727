"""T-5b: a wiki link in the index names a note as Obsidian resolves it, not a path.

An index kept by Obsidian writes ``- [[Deploy Freeze]]`` for ``deploy-freeze.md``: a person, the
model and Obsidian take it for that note, and ``[[link]]`` in a body was already resolved so
(case, ``-``, ``_`` and spaces alike, a Claude Code type prefix optional). Lint matched the index
link by exact file stem only: it said ``dangling-link`` for the line and ``unindexed`` for the
file, two false findings per entry. A Markdown link is a path and stays exact; a wiki link that
names no note still dangles.
"""

from __future__ import annotations

import pytest
from memory_core.index_facts import index_facts
from memory_core.lint import lint_index, lint_scope, lint_topic_in_scope
from memory_core.topics import ParsedTopic, parse_topic

FILES = [
    "deploy-freeze.md",
    "Meeting Notes.md",
    "project_drift.md",
    "feedback_always-preview.md",
    "café-rules.md",
]
INDEX = """# Memory index

- [[Deploy Freeze]] — no deploys Friday 15:00 to Monday 09:00
- [[meeting notes|Notes]] — weekly
- [[Project Drift#why]] — drift
- [[always preview]] — preview every change
- [[Cafe\u0301 Rules]] — kitchen
"""


def topic(file_name: str) -> ParsedTopic:
    stem = file_name.removesuffix(".md")
    text = f"---\nname: {stem}\ndescription: about {stem}\n---\nbody\n"
    return parse_topic(text.encode(), file_name)


def codes(index: str, files: list[str]) -> list[tuple[str, str, int | None]]:
    findings = lint_scope(index, [topic(name) for name in files], files)
    return [(f.code, f.file, f.line) for f in findings if f.code in {"dangling-link", "unindexed"}]


def test_t5b_an_index_wiki_link_names_the_note_whatever_its_case_and_separators() -> None:
    assert codes(INDEX, FILES) == []


def test_t5b_one_topic_linted_alone_says_the_same() -> None:
    for name in FILES:
        found = lint_topic_in_scope(
            topic(name), FILES, INDEX, scope_topics=lambda: [topic(other) for other in FILES]
        )
        assert [f.code for f in found if f.code == "unindexed"] == [], name


@pytest.mark.parametrize(
    ("line", "dangling"),
    [
        ("- [[Nowhere Note]] — gone", "Nowhere Note.md"),
        # a Markdown link is a path: the file is not there under that name
        ("- [Deploy](<Deploy Freeze.md>) — as a path", "Deploy Freeze.md"),
    ],
)
def test_t5b_what_names_no_note_still_dangles(line: str, dangling: str) -> None:
    index = f"{INDEX}{line}\n"
    findings = lint_index(index, FILES, facts=index_facts(index))
    assert [(f.code, f.line) for f in findings if f.code == "dangling-link"] == [
        ("dangling-link", 8)
    ]
    assert dangling in findings[-1].message


def test_t5b_a_file_the_wiki_links_miss_is_still_unindexed() -> None:
    assert codes(INDEX, [*FILES, "orphan.md"]) == [("unindexed", "orphan.md", None)]


@pytest.mark.parametrize(
    ("link", "files", "unindexed"),
    [
        # the file of that name wins over a looser match; a looser one is no link to it
        ("[[Deploy]]", ["deploy.md", "project-deploy.md"], ["project-deploy.md"]),
        ("[[deploy]]", ["deploy.md", "project-deploy.md"], ["project-deploy.md"]),
        (
            "[[always preview]]",
            ["always-preview.md", "feedback_always-preview.md"],
            ["feedback_always-preview.md"],
        ),
        # several names in another case, or with other separators: one file, the first
        ("[[DEPLOY]]", ["Deploy.md", "deploy.md"], ["deploy.md"]),
        ("[[Deploy Freeze]]", ["deploy-freeze.md", "deploy_freeze.md"], ["deploy_freeze.md"]),
        # the loose match stays when nothing closer is there
        ("[[deploy]]", ["project-deploy.md"], []),
        ("[[Straße]]", ["strasse.md"], []),
    ],
)
def test_t5b_an_index_wiki_link_names_one_note_the_closest_first(
    link: str, files: list[str], unindexed: list[str]
) -> None:
    assert codes(f"# Index\n\n- {link} — entry\n", files) == [
        ("unindexed", name, None) for name in unindexed
    ]


@pytest.mark.parametrize(
    ("there", "dangles"), [(frozenset({"notes/Deploy.md"}), False), (frozenset(), True)]
)
def test_t5b_an_index_wiki_link_with_a_folder_names_that_path_in_the_scope(
    there: frozenset[str], dangles: bool
) -> None:
    index = "# Index\n\n- [[notes/Deploy]] — in a sub-folder\n"
    findings = lint_index(index, ["deploy.md"], in_sub_folders=there)
    assert [(f.code, f.line, f.message) for f in findings if f.code == "dangling-link"] == (
        [("dangling-link", 3, "links to 'notes/Deploy.md', which is not in this scope's folder")]
        if dangles
        else []
    )
