"""T-5b: an index link that names a topic file in another case says so.

``- [Deploy](Deploy.md)`` for ``deploy.md`` opens the file on a disk that ignores case (macOS,
Windows) and nothing on this one. Lint said ``links to 'Deploy.md', which is not in this
scope`` (a person sees the file right there) and ``unindexed`` for ``deploy.md``; a link
written ``deploy.MD`` was not judged at all. Now the one finding names the file the link means
and the fix, and the file is not called unindexed.
"""

from __future__ import annotations

import pytest
from memory_core.lint import lint_scope, lint_topic_in_scope
from memory_core.topics import ParsedTopic, parse_topic

FILES = ["deploy.md", "notes.md"]


def topic(file_name: str) -> ParsedTopic:
    stem = file_name.removesuffix(".md")
    text = f"---\nname: {stem}\ndescription: about {stem}\n---\nbody\n"
    return parse_topic(text.encode(), file_name)


def link_findings(index: str, files: list[str]) -> list[tuple[str, str, int | None, str]]:
    findings = lint_scope(index, [topic(name) for name in files], files)
    return [
        (f.code, f.file, f.line, f.message)
        for f in findings
        if f.code in {"dangling-link", "unindexed"}
    ]


@pytest.mark.parametrize("written", ["Deploy.md", "DEPLOY.md", "deploy.MD", "Deploy.Md"])
def test_t5b_a_link_in_another_case_names_the_file_and_the_fix(written: str) -> None:
    index = f"# Index\n\n- [Deploy]({written}) — no Friday deploys\n- [Notes](notes.md)\n"
    assert link_findings(index, FILES) == [
        (
            "dangling-link",
            "MEMORY.md",
            3,
            f"links to {written!r}, but the file is 'deploy.md': only a disk that ignores case "
            "(macOS, Windows) opens it; write the name as the file has it",
        )
    ]
    alone = lint_topic_in_scope(topic("deploy.md"), FILES, index, scope_topics=list)
    assert [f.code for f in alone if f.code == "unindexed"] == []


def test_t5b_a_file_of_that_case_too_is_linked_as_written() -> None:
    """With ``Deploy.md`` and ``deploy.md`` both there, each link names the one it spells."""
    index = "- [Deploy](Deploy.md)\n- [Notes](notes.md)\n"
    files = ["Deploy.md", *FILES]
    assert link_findings(index, files) == [
        (
            "unindexed",
            "deploy.md",
            None,
            "no MEMORY.md line links to this file, so it is never recalled",
        )
    ]


def test_t5b_a_link_to_no_file_in_any_case_still_dangles_plainly() -> None:
    index = "- [Gone](Gone.md)\n- [Deploy](deploy.md)\n- [Notes](notes.md)\n"
    assert link_findings(index, FILES) == [
        ("dangling-link", "MEMORY.md", 1, "links to 'Gone.md', which is not in this scope")
    ]
