"""T-5b, A-6: one resolver says which file a ``[[wiki link]]`` names, as Obsidian finds it.

Obsidian reads ``[[name]]`` as a note, not a path: relative to the note that links (``./`` and
``x/..`` are steps), case-insensitive (``[[Notes/Deploy]]`` is ``notes/deploy.md``), a bare
name in any folder (the note's own folder first), a name with a folder by the end of a path.
Memory adds the loose reading of a body link (``[[Deploy Freeze]]`` is ``deploy-freeze.md``).
The lint said ``[[./deploy]]`` linked nothing (and called ``deploy.md`` unindexed) and
``[[Notes/Deploy]]`` dangling; a delete of ``deploy-freeze.md`` left ``[[Deploy Freeze]]`` in
the index, a line the lint had read as a link to it and now called dangling.
"""

from __future__ import annotations

import pytest
from memory_core.index import prune_index, wiki_names_naming
from memory_core.lint import lint_index, lint_links
from memory_core.topics import parse_topic
from memory_core.wiki_links import WikiFiles, wiki_path

FILES = ["deploy.md", "deploy-freeze.md", "Meeting Notes.md", "feedback_always-preview.md"]
DEEPER = ["notes/deploy.md", "archive/2026/feb.md"]


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("deploy", "deploy.md"),  # as written
        ("./deploy", "deploy.md"),  # relative to the note linking, at the scope's root
        ("notes/../deploy", "deploy.md"),
        ("DEPLOY", "deploy.md"),  # case-insensitive
        ("deploy.MD", "deploy.md"),
        ("Notes/Deploy", "notes/deploy.md"),  # the folder's case too
        ("./Notes/./deploy.md", "notes/deploy.md"),
        ("feb", "archive/2026/feb.md"),  # a bare name unique in the vault: in any folder
        ("FEB", "archive/2026/feb.md"),
        ("2026/Feb", "archive/2026/feb.md"),  # a path's end
        ("Deploy Freeze", "deploy-freeze.md"),  # Memory's loose reading of a bare name
        ("meeting-notes", "Meeting Notes.md"),
        ("always preview", "feedback_always-preview.md"),
        ("../deploy", None),  # out of the scope's folder
        ("/deploy", None),  # from a vault's root: not this scope's to judge
        ("Archive/Deploy", None),  # a folder that holds no such file
        ("notes/deploy-freeze", None),  # a name with a folder is no loose name
    ],
)
def test_t5b_a_wiki_link_names_the_file_obsidian_opens(name: str, file: str | None) -> None:
    assert WikiFiles([*FILES, *DEEPER]).resolve(name) == file


def test_t5b_the_root_file_comes_first_then_the_shortest_path() -> None:
    """A bare name opens the topic file so named (the scope's root, where the linking notes
    are), else the shortest path of a file so named in any sub-folder, as Obsidian does
    ("shortest path when possible": a name unique in the vault is linked by itself); a path's
    end opens the shortest path ending so."""
    files = WikiFiles(["b/c/deploy.md", "a/deploy.md", "Deploy.md"])
    assert files.resolve("deploy") == "Deploy.md"
    assert WikiFiles(["b/c/deploy.md", "a/deploy.md"]).resolve("DEPLOY") == "a/deploy.md"
    assert WikiFiles(["x/b/c/deploy.md", "b/c/deploy.md"]).resolve("C/Deploy") == "b/c/deploy.md"


def test_t5b_obsidians_file_name_comes_before_memorys_loose_reading() -> None:
    """``[[Deploy Freeze]]`` opens ``notes/Deploy Freeze.md`` in Obsidian, whatever topic file
    Memory's loose reading would find; with no file so named, the loose reading stands."""
    files = ["deploy-freeze.md"]
    assert WikiFiles([*files, "notes/Deploy Freeze.md"]).resolve("Deploy Freeze") == (
        "notes/Deploy Freeze.md"
    )
    assert WikiFiles(files).resolve("Deploy Freeze") == "deploy-freeze.md"


def test_t5b_a_bare_wiki_link_to_a_note_in_a_sub_folder_is_no_dangling_link() -> None:
    """The lint reads ``[[feb]]`` as the note ``archive/2026/feb.md`` when the service found
    it there, in the index and in a body alike."""
    index = "- [[feb]] - February\n- [[mar]] - March\n"
    found = lint_index(index, [], in_sub_folders=["archive/2026/feb.md"])
    assert [(f.code, f.line) for f in found] == [("dangling-link", 2)]
    topic = parse_topic(b"---\ndescription: d\n---\nSee [[feb]] and [[mar]].\n", "a.md")
    found = lint_links([topic], ["a.md"], ["archive/2026/feb.md"])
    assert [f.message for f in found] == ["[[mar]] names no topic file of this scope"]


def test_t5b_a_link_a_bounded_walk_did_not_find_is_never_said_to_name_no_file() -> None:
    """The service's walk of the sub-folders stopped at its bound before it found the note a
    link names (by a path's end, or by its name alone): the finding says the sub-folders were
    not looked up that far, in a body as in the index, never that no file is named so."""
    body = b"---\ndescription: d\n---\nSee [[2026/Feb]], [[feb]] and [[gone]].\n"
    topic = parse_topic(body, "a.md")
    found = lint_links([topic], ["a.md"], not_looked_up=["2026/Feb.md", "feb.md"])
    past = (
        "was not found: this scope's sub-folders were not looked up past 10,000 entries (or 64 "
        "folders deep), or through a folder the service cannot read (its owner, mode or ACL)"
    )
    assert [f.message for f in found] == [
        f"[[2026/Feb]] {past}",
        f"[[feb]] {past}",
        "[[gone]] names no topic file of this scope",
    ]
    index = "- [[feb]] - February\n- [[gone]] - gone\n"
    found = lint_index(index, [], in_sub_folders=[], not_looked_up=["feb.md"])
    assert [f.message for f in found] == [
        f"links to 'feb.md', which {past}",
        "links to 'gone.md', which is not in this scope",
    ]


def test_q2b_a_link_not_looked_up_says_where_the_service_did_not_look() -> None:
    """Given where each path was not looked up (the walk's bound, the folder it could not
    read), the finding names it, in a body as in the index."""
    why = "the service cannot read the folder 'notes' (its owner, mode or ACL)"
    topic = parse_topic(b"---\ndescription: d\n---\nSee [[notes/guide]].\n", "a.md")
    found = lint_links([topic], ["a.md"], not_looked_up={"notes/guide.md": why})
    assert [f.message for f in found] == [f"[[notes/guide]] was not found: {why}"]
    index = "- [G](notes/guide.md) - the guide\n"
    found = lint_index(index, [], in_sub_folders=[], not_looked_up={"notes/guide.md": why})
    assert [f.message for f in found] == [f"links to 'notes/guide.md', which was not found: {why}"]


def test_t5b_a_file_written_as_linked_wins_over_another_case() -> None:
    assert WikiFiles(["DEPLOY.md", "deploy.md"]).resolve("deploy") == "deploy.md"
    assert WikiFiles(["DEPLOY.md", "deploy.md"]).resolve("DEPLOY") == "DEPLOY.md"


def test_t4_a_relative_wiki_link_is_a_link_to_the_file() -> None:
    assert wiki_path("./deploy") == "deploy.md"
    assert wiki_path("../deploy") == "../deploy.md"


INDEX = "\n".join(
    [
        "# Memory",
        "- [[./deploy]] - how to deploy",
        "- [[Notes/Deploy]] - the long notes",
        "- [[Deploy Freeze|freeze]] - no Friday deploys",
        "- [[Meeting Notes]] - weekly",
        "- [[always preview]] - preview",
        "",
    ]
)


def test_t5b_the_lint_finds_every_wiki_link_and_calls_none_dangling() -> None:
    found = lint_index(INDEX, FILES, in_sub_folders=DEEPER)
    assert [(f.code, f.line) for f in found if f.code in {"dangling-link", "unindexed"}] == []


def test_t5b_a_folder_in_another_case_that_holds_nothing_still_dangles() -> None:
    found = lint_index("- [[Archive/Deploy]] - gone\n", FILES, in_sub_folders=DEEPER)
    assert [(f.code, f.line) for f in found] == [("dangling-link", 1)]


@pytest.mark.parametrize(
    ("deleted", "pruned"),
    [
        ("deploy.md", ["- [[./deploy]] - how to deploy"]),
        ("deploy-freeze.md", ["- [[Deploy Freeze|freeze]] - no Friday deploys"]),
        ("Meeting Notes.md", ["- [[Meeting Notes]] - weekly"]),
        ("feedback_always-preview.md", ["- [[always preview]] - preview"]),
    ],
)
def test_a6_a_delete_prunes_the_lines_the_lint_reads_as_linking_the_file(
    deleted: str, pruned: list[str]
) -> None:
    text, removed = prune_index(INDEX, deleted, files=FILES)
    assert removed == pruned
    assert text.splitlines() == [line for line in INDEX.splitlines() if line not in pruned]


def test_a6_a_wiki_link_naming_another_file_stays() -> None:
    """``[[deploy]]`` names ``deploy.md`` while it is there: deleting ``deploy-freeze.md``
    leaves it; without the folder's files only the file's own name is pruned."""
    index = "- [[deploy]] - x\n- [[Deploy Freeze]] - y\n"
    assert wiki_names_naming(index, "deploy-freeze.md", FILES) == {"Deploy Freeze.md"}
    assert prune_index(index, "deploy-freeze.md", files=FILES)[1] == ["- [[Deploy Freeze]] - y"]
    assert prune_index(index, "deploy-freeze.md")[1] == []
    assert prune_index(index, "deploy.md", files=FILES)[1] == ["- [[deploy]] - x"]


def test_a6_a_file_named_as_the_link_is_written_keeps_the_link() -> None:
    """With ``Deploy Freeze.md`` there, ``[[Deploy Freeze]]`` is that note's link."""
    files = [*FILES, "Deploy Freeze.md"]
    index = "- [[Deploy Freeze]] - y\n"
    assert prune_index(index, "deploy-freeze.md", files=files)[1] == []
    assert prune_index(index, "Deploy Freeze.md", files=files)[1] == ["- [[Deploy Freeze]] - y"]


def test_t3_a_wiki_link_in_a_table_cell_escapes_its_pipe() -> None:
    """A Markdown table's cell writes ``[[Permalinks\\|Permalinks]]`` (its ``|`` would end the
    cell), as Obsidian's own help does: the link names ``Permalinks``, not ``Permalinks\\``,
    which the lint called a ``dangling-wiki-link``."""
    body = "| key | what |\n|---|---|\n| `permalink` | See [[Permalinks\\|Permalinks]]. |\n"
    topic = parse_topic(f"---\ndescription: d\n---\n{body}".encode(), "properties.md")
    assert topic.links == ["Permalinks"]
    assert lint_links([topic], ["properties.md", "Permalinks.md"]) == []
    index = "| note | why |\n|---|---|\n| [[Permalinks\\|links]] | stable addresses |\n"
    assert [f.code for f in lint_index(index, ["Permalinks.md"])] == []


@pytest.mark.parametrize(
    ("files", "deleted", "kept"),
    [
        # [[x]] and [[user_x]] name feedback_x.md once project_x.md is gone
        (["project_x.md", "feedback_x.md"], "project_x.md", ["- [[x]] - a", "- [[user_x]] - b"]),
        # on a case-sensitive disk [[DEPLOY]] names deploy.md once Deploy.md is gone
        (["deploy.md", "Deploy.md"], "Deploy.md", ["- [[DEPLOY]] - a", "- [[deploy]] - b"]),
    ],
)
def test_a6_a_wiki_link_another_file_answers_once_the_file_is_gone_stays(
    files: list[str], deleted: str, kept: list[str]
) -> None:
    """A delete prunes a wiki link that does not spell the deleted file only when, without
    that file, the link would name nothing: one another file answers is still a working link."""
    index = "\n".join([*kept, f"- [[{deleted.removesuffix('.md')}]] - spelled as the file", ""])
    text, removed = prune_index(index, deleted, files=files)
    assert removed == [f"- [[{deleted.removesuffix('.md')}]] - spelled as the file"]
    assert text.splitlines() == kept
    assert wiki_names_naming(index, deleted, files) == frozenset()


def test_a6_a_loose_wiki_link_is_pruned_when_nothing_else_answers_it() -> None:
    """``[[testing]]`` and ``[[Project Testing]]`` name ``project_testing.md``; with it gone
    no other file answers them, so the delete prunes both."""
    files = ["project_testing.md", "feedback_style.md"]
    index = "- [[testing]] - a\n- [[Project Testing]] - b\n- [[style]] - c\n"
    assert prune_index(index, "project_testing.md", files=files) == (
        "- [[style]] - c\n",
        ["- [[testing]] - a", "- [[Project Testing]] - b"],
    )
