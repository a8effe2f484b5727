"""T-5b: an index link that names a topic file in another case, or drawn alike, says so.

``- [Deploy](Deploy.md)`` for ``deploy.md`` opens the file on a disk that ignores case (macOS,
Windows) and nothing on this one. Lint said ``links to 'Deploy.md', which is not in this
scope`` (a person sees the file right there) and ``unindexed`` for ``deploy.md``; a link
written ``deploy.MD`` was not judged at all. Now the one finding names the file the link means
and the fix, and the file is not called unindexed. A link drawn like a file's name in letters
of another script or width (``dеploy.md``, ``ｄeploy.md``) names the file and the letters.
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


@pytest.mark.parametrize(
    ("written", "odd"),
    [
        ("dеploy.md", "U+0435 CYRILLIC SMALL LETTER IE 'е', which looks like 'e'"),
        ("ｄeploy.md", "U+FF44 FULLWIDTH LATIN SMALL LETTER D 'ｄ', which looks like 'd'"),
    ],
)
def test_t5b_a_link_drawn_like_a_file_says_which_letters_differ(written: str, odd: str) -> None:
    """A link whose name is drawn like a topic file's (a Cyrillic ``е`` for a Latin ``e``)
    dangles everywhere, yet a person reading the index sees a link to a file that is there:
    the finding names the file and the letters that differ."""
    index = f"- [Deploy]({written})\n- [Notes](notes.md)\n"
    [dangling] = [f for f in lint_scope(index, [], FILES) if f.code == "dangling-link"]
    assert dangling.message == (
        f"links to {written!r}, which is not in this scope; it is drawn like 'deploy.md': "
        f"{written!r} has {odd}"
    )


def test_t5b_a_wiki_link_in_a_body_drawn_like_a_file_says_so_too() -> None:
    text = "---\nname: notes\ndescription: notes\n---\nSee [[dеploy]] first.\n"
    body_topic = parse_topic(text.encode(), "notes.md")
    [finding] = [f for f in lint_scope(None, [body_topic], FILES) if f.code == "dangling-wiki-link"]
    assert (finding.file, finding.line) == ("notes.md", 5)
    assert finding.message == (
        "[[dеploy]] names no topic file of this scope; it is drawn like 'deploy.md': "
        "'dеploy.md' has U+0435 CYRILLIC SMALL LETTER IE 'е', which looks like 'e'"
    )


@pytest.mark.parametrize("written", ["Gone.md", "gone.MD", "GONE.Md", "./gone.MD"])
def test_t5_a_link_to_no_file_in_any_case_dangles_whatever_the_case_of_its_extension(
    written: str,
) -> None:
    """``- [Gone](gone.MD)`` opens nothing on any disk; it was not judged at all (only ``.md``
    was), so the line a delete of ``gone.md`` used to leave behind was injected unreported."""
    index = f"- [Gone]({written}) — left behind\n- [Deploy](deploy.md)\n- [Notes](notes.md)\n"
    target = written.removeprefix("./")
    assert link_findings(index, FILES) == [
        ("dangling-link", "MEMORY.md", 1, f"links to {target!r}, which is not in this scope")
    ]


def test_t5_a_link_to_an_entry_of_that_name_never_read_says_so_never_absent() -> None:
    """``gone.MD`` there (no topic file: a refused entry) is named as never read."""
    index = "- [Odd](gone.MD)\n- [Deploy](deploy.md)\n- [Notes](notes.md)\n"
    why = "not a topic file (a topic file's name ends in lower-case .md)"
    findings = lint_scope(index, [topic(name) for name in FILES], FILES, refused=[("gone.MD", why)])
    assert [(f.code, f.line, f.message) for f in findings if f.code == "dangling-link"] == [
        ("dangling-link", 1, f"links to 'gone.MD', which is {why}: never read")
    ]
