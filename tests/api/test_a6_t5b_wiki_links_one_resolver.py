"""A-6, T-5b: the service reads a ``[[wiki link]]`` as one file, whether it lints or deletes.

The index view resolved ``[[Deploy Freeze]]`` to ``deploy-freeze.md`` (no finding), but the
delete of that file left the line behind, where the next lint called it a ``dangling-link``.
``[[Notes/Deploy]]`` with the folder ``notes/`` and ``[[./deploy]]`` were read as Obsidian does
not: a dangling link, and no link at all (``deploy.md`` then "unindexed").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store import answers, scopes
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json, write_topic
from tests.support.folder_chain import folder_chain

INDEX = [
    "# Memory",
    "- [[./deploy]] - how to deploy",
    "- [[Notes/Deploy]] - the long notes",
    "- [[Deploy Freeze|freeze]] - no Friday deploys",
    "- [[deploy-freeze]] - written as the file",
    "- [Other](other.md) - stays",
]


def _scope(agent: AgentHome) -> None:
    for name in ("deploy.md", "deploy-freeze.md", "other.md"):
        write_topic(agent.user, name)
    (agent.user / "notes").mkdir()
    (agent.user / "notes" / "deploy.md").write_text("the long notes\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).write_text("\n".join(INDEX) + "\n", encoding="utf-8")


async def _link_findings(client: Client) -> list[tuple[str, int | None]]:
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    return [
        (f["code"], f["line"])
        for f in view["findings"]
        if f["code"] in {"dangling-link", "unindexed"}
    ]


async def test_t5b_every_wiki_link_names_the_file_obsidian_opens(
    client: Client, agent: AgentHome
) -> None:
    _scope(agent)
    assert await _link_findings(client) == []


async def test_a6_a_delete_prunes_each_line_the_lint_reads_as_linking_the_file(
    client: Client, agent: AgentHome
) -> None:
    _scope(agent)
    result = await ok_json(await client.delete(file_url("user", "deploy-freeze.md")))
    assert result["removedIndexLines"] == [INDEX[3], INDEX[4]]
    assert await _link_findings(client) == []

    result = await ok_json(await client.delete(file_url("user", "deploy.md")))
    assert result["removedIndexLines"] == [INDEX[1]]  # [[Notes/Deploy]] is notes/deploy.md
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8").splitlines() == [
        INDEX[0],
        INDEX[2],
        INDEX[5],
    ]
    assert await _link_findings(client) == []


async def test_t5b_a_topic_file_says_which_file_each_body_link_opens(
    client: Client, agent: AgentHome
) -> None:
    """The page opens what the lint resolves: by file name as Obsidian finds it, by words,
    by a topic's frontmatter name; None where the lint says ``dangling-wiki-link``."""
    _scope(agent)
    (agent.user / "pnpm.md").write_text(
        "---\nname: Prefers pnpm\ndescription: pnpm\n---\nbody\n", encoding="utf-8"
    )
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\n"
        "[[./deploy]], [[DEPLOY]], [[Deploy Freeze#why|freeze]], [[prefers pnpm]], [[gone]]\n",
        encoding="utf-8",
    )
    topic = await ok_json(await client.get(file_url("user", "links.md")))
    assert topic["linkFiles"] == {
        "./deploy": "deploy.md",
        "DEPLOY": "deploy.md",
        "Deploy Freeze": "deploy-freeze.md",
        "prefers pnpm": "pnpm.md",
        "gone": None,
    }
    dangling = [f["message"] for f in topic["findings"] if f["code"] == "dangling-wiki-link"]
    assert dangling == ["[[gone]] names no topic file of this scope"]


async def test_v2_undoing_the_delete_puts_back_every_line_it_pruned(
    client: Client, agent: AgentHome
) -> None:
    """The restore finds the lines to put back as the delete found those to prune: the wiki
    link ``[[Deploy Freeze]]`` among the version's files names ``deploy-freeze.md``."""
    _scope(agent)
    await ok_json(await client.delete(file_url("user", "deploy-freeze.md")))
    deleted = await ok_json(await client.get(f"{memory_url()}/scopes/user/deleted"))
    [entry] = deleted["files"]

    response = await client.post(
        f"{memory_url()}/scopes/user/files/deploy-freeze.md/restore",
        json={"version": entry["restoreVersion"]},
    )
    result = await ok_json(response)

    assert result["indexLinesAdded"] == [INDEX[3], INDEX[4]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == "\n".join(INDEX) + "\n"
    assert await _link_findings(client) == []


async def test_t5b_a_body_link_into_a_sub_folder_in_another_case_is_no_dangling_link(
    client: Client, agent: AgentHome
) -> None:
    """``[[Notes/Deploy]]`` in a body names ``notes/deploy.md`` as Obsidian finds it: the scope's
    lint and the file's own findings say nothing; ``[[Notes/Gone]]`` still dangles."""
    _scope(agent)
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\nSee [[Notes/Deploy]] and [[Notes/Gone]].\n",
        encoding="utf-8",
    )
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [Links](links.md) - links\n")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    topic = await ok_json(await client.get(file_url("user", "links.md")))

    for findings in (view["findings"], topic["findings"]):
        dangling = [f["message"] for f in findings if f["code"] == "dangling-wiki-link"]
        assert dangling == ["[[Notes/Gone]] names no topic file of this scope"]


async def _undo_delete(client: Client, name: str) -> dict[str, object]:
    deleted = await ok_json(await client.get(f"{memory_url()}/scopes/user/deleted"))
    [entry] = [entry for entry in deleted["files"] if entry["file"] == name]
    return await ok_json(
        await client.post(
            f"{memory_url()}/scopes/user/files/{name}/restore",
            json={"version": entry["restoreVersion"]},
        )
    )


async def test_a6_a_delete_keeps_a_wiki_link_that_names_another_file_once_it_is_gone(
    client: Client, agent: AgentHome
) -> None:
    """On a case-sensitive disk ``[[DEPLOY]]`` opens ``Deploy.md`` while it is there (sorted
    first) and ``deploy.md`` once it is gone, as Obsidian opens it: the delete of
    ``Deploy.md`` prunes only the line spelling it; the undo puts back exactly that line."""
    for name in ("deploy.md", "Deploy.md"):
        write_topic(agent.user, name)
    index = ["- [[DEPLOY]] - how we deploy", "- [[deploy]] - x", "- [[Deploy]] - the other"]
    (agent.user / layout.INDEX_FILE).write_text("\n".join(index) + "\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", "Deploy.md")))

    assert result["removedIndexLines"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"{index[0]}\n{index[1]}\n"
    )
    assert await _link_findings(client) == []
    restored = await _undo_delete(client, "Deploy.md")
    assert restored["indexLinesAdded"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == "\n".join(index) + "\n"


async def test_a6_a_delete_keeps_a_link_without_type_another_type_still_answers(
    client: Client, agent: AgentHome
) -> None:
    """Claude Code's type prefixes: ``[[testing]]`` names ``project_testing.md`` and, once it
    is deleted, ``feedback_testing.md``: the line stays; ``[[project_testing]]`` spells the
    file and goes; the undo puts back exactly the line the delete took."""
    for name in ("project_testing.md", "feedback_testing.md"):
        write_topic(agent.user, name)
    index = ["# Memory", "- [[testing]] - how we test", "- [[project_testing|plan]] - the plan"]
    (agent.user / layout.INDEX_FILE).write_text("\n".join(index) + "\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", "project_testing.md")))

    assert result["removedIndexLines"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"{index[0]}\n{index[1]}\n"
    )
    assert await _link_findings(client) == []
    restored = await _undo_delete(client, "project_testing.md")
    assert restored["indexLinesAdded"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == "\n".join(index) + "\n"


async def test_t5b_a_body_link_to_a_note_in_a_sub_folder_opens_that_note(
    client: Client, agent: AgentHome
) -> None:
    """``[[notes/deploy]]`` in a body opens ``notes/deploy.md`` when it is there, as Obsidian
    opens it: the page says so (``linkFiles``), as the lint does (no ``dangling-wiki-link``);
    a link into a folder that holds no such note, or out of the scope's folder, opens nothing."""
    _scope(agent)
    outside = agent.user.parent / "elsewhere"
    outside.mkdir()
    (outside / "deploy.md").write_text("beside the scope's folder\n", encoding="utf-8")
    (agent.user / "out").symlink_to(outside, target_is_directory=True)
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\n"
        "See [[notes/deploy]], [[Notes/Deploy|the notes]], [[notes/gone]],\n"
        "[[../elsewhere/deploy]] and [[out/deploy]].\n",
        encoding="utf-8",
    )

    topic = await ok_json(await client.get(file_url("user", "links.md")))

    assert topic["linkFiles"] == {
        "notes/deploy": "notes/deploy.md",
        "Notes/Deploy": "notes/deploy.md",
        "notes/gone": None,
        "../elsewhere/deploy": None,
        "out/deploy": None,  # a folder that leads out of the scope's folder holds nothing
    }
    dangling = [f["message"] for f in topic["findings"] if f["code"] == "dangling-wiki-link"]
    assert dangling == [
        "[[notes/gone]] names no topic file of this scope",
        "[[../elsewhere/deploy]] names no topic file of this scope",
        "[[out/deploy]] names no topic file of this scope",
    ]


async def test_t5b_a_body_link_naming_the_end_of_a_notes_path_opens_it_as_obsidian_does(
    client: Client, agent: AgentHome
) -> None:
    """Obsidian opens ``[[2026/Feb]]`` as ``archive/2026/feb.md`` when no ``2026/feb.md`` is
    there (a path that ends so, in any case, the shortest first); a path no file ends with
    opens nothing, and nor does one under a hidden folder or a folder symlinked out of the
    scope."""
    _scope(agent)
    for folder in ("archive/2026", "old/archive/2026", ".git/2026"):
        (agent.user / folder).mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    (agent.user / "old/archive/2026/feb.md").write_text("an older February\n", encoding="utf-8")
    (agent.user / ".git/2026/mar.md").write_text("not a note\n", encoding="utf-8")
    outside = agent.user.parent / "elsewhere" / "2026"
    outside.mkdir(parents=True)
    (outside / "apr.md").write_text("beside the scope's folder\n", encoding="utf-8")
    (agent.user / "out").symlink_to(outside.parent, target_is_directory=True)
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\nSee [[2026/Feb]], [[2026/mar]] and [[2026/apr]].\n",
        encoding="utf-8",
    )

    topic = await ok_json(await client.get(file_url("user", "links.md")))

    assert topic["linkFiles"] == {
        "2026/Feb": "archive/2026/feb.md",
        "2026/mar": None,
        "2026/apr": None,
    }
    dangling = [f["message"] for f in topic["findings"] if f["code"] == "dangling-wiki-link"]
    assert dangling == [
        "[[2026/mar]] names no topic file of this scope",
        "[[2026/apr]] names no topic file of this scope",
    ]


async def test_t5b_an_index_wiki_link_naming_the_end_of_a_notes_path_is_no_dangling_link(
    client: Client, agent: AgentHome
) -> None:
    """The index's ``[[2026/Feb]]`` names ``archive/2026/feb.md`` as a body's does; a Markdown
    link is a path from the scope's folder: ``[Feb](2026/feb.md)`` still dangles."""
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[2026/Feb]] - February\n- [Feb](2026/feb.md) - as a path\n")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    dangling = [f["message"] for f in view["findings"] if f["code"] == "dangling-link"]
    assert dangling == ["links to '2026/feb.md', which is not in this scope's folder"]


async def test_t5b_a_chain_of_nested_folders_leaves_the_page_and_lint_answering(
    client: Client, agent: AgentHome
) -> None:
    """A chain of 1,100 nested folders (under the walk's entry bound) beside a note named by
    the end of its path: the page and the lint answer, and the note is found."""
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\nSee [[2026/Feb]].\n", encoding="utf-8"
    )
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[links]] - links\n- [[2026/Feb]] - February\n")

    with folder_chain(agent.user, 1_100):
        view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
        topic = await ok_json(await client.get(file_url("user", "links.md")))

    assert topic["linkFiles"] == {"2026/Feb": "archive/2026/feb.md"}
    assert [f["code"] for f in view["findings"] if "link" in f["code"]] == []


async def test_t5b_a_link_holding_a_nul_opens_nothing_and_the_answers_stay(
    client: Client, agent: AgentHome
) -> None:
    """``[[a/<NUL>b]]`` in a body or in MEMORY.md names no file (no file can hold a NUL in
    its name): the page and the lint say it dangles, never a 500."""
    _scope(agent)
    (agent.user / "a").mkdir()
    (agent.user / "a" / "b.md").write_text("b\n", encoding="utf-8")
    (agent.user / "links.md").write_text(
        "---\ndescription: links\n---\nSee [[a/\x00b]] and [[a/b]].\n", encoding="utf-8"
    )
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[links]] - links\n- [[a/\x00b]] - no such file\n")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    topic = await ok_json(await client.get(file_url("user", "links.md")))

    assert topic["linkFiles"] == {"a/\x00b": None, "a/b": "a/b.md"}
    assert [f["code"] for f in topic["findings"] if f["code"] == "dangling-wiki-link"] == [
        "dangling-wiki-link"
    ]
    assert [f["code"] for f in view["findings"] if f["code"] == "dangling-link"] == [
        "dangling-link"
    ]


async def test_t5b_a_bare_name_opens_the_note_so_named_in_a_sub_folder_as_obsidian_does(
    client: Client, agent: AgentHome
) -> None:
    """Obsidian links a note by its name alone when the name is unique in the vault, and opens
    ``[[feb]]`` as ``archive/2026/feb.md`` (its "shortest path when possible"): the service
    looks each bare name no topic file has up in the sub-folders, so the page opens that note
    and no lint calls the link dangling, whether another note's ``[[2026/Feb]]`` is there or
    not; a bare name no file has anywhere still dangles, the same on every answer."""
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    (agent.user / "a.md").write_text(
        "---\ndescription: a\n---\nSee [[feb]] and [[mar]].\n", encoding="utf-8"
    )
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[a]] - a\n- [[feb]] - February\n- [[mar]] - March\n")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    page = await ok_json(await client.get(file_url("user", "a.md")))
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    def dangling(findings: list[dict[str, object]]) -> list[tuple[object, object]]:
        return [(f["file"], f["message"]) for f in findings if f["code"] == "dangling-wiki-link"]

    assert page["linkFiles"] == {"feb": "archive/2026/feb.md", "mar": None}
    assert dangling(listing["findings"]) == [("a.md", "[[mar]] names no topic file of this scope")]
    assert dangling(page["findings"]) == dangling(listing["findings"])
    assert [f["message"] for f in view["findings"] if f["code"] == "dangling-link"] == [
        "links to 'mar.md', which is not in this scope"
    ]


async def test_t5b_past_the_walks_bound_a_body_link_is_said_not_looked_up_never_absent(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body's ``[[2026/Feb]]`` and ``[[feb]]`` whose note lies past the walk's bound are not
    said to name no file: the listing's lint and the page's say the sub-folders were not looked
    up that far, alike; the index's bare ``[[feb]]`` too."""
    monkeypatch.setattr(scopes, "SUB_FOLDER_WALK_CAP", 3)
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    for number in range(5):
        (agent.user / "archive" / f"old-{number}.md").write_text("old\n", encoding="utf-8")
    (agent.user / "a.md").write_text(
        "---\ndescription: a\n---\nSee [[2026/Feb]] and [[feb]].\n", encoding="utf-8"
    )
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[a]] - a\n- [[feb]] - February\n")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    page = await ok_json(await client.get(file_url("user", "a.md")))
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    past = "was not found: this scope's sub-folders were not looked up past 3 entries"
    body = [f["message"] for f in page["findings"] if f["code"] == "dangling-wiki-link"]
    assert body == [f"[[2026/Feb]] {past}", f"[[feb]] {past}"]
    listed = [f["message"] for f in listing["findings"] if f["code"] == "dangling-wiki-link"]
    assert listed == body
    in_index = [f["message"] for f in view["findings"] if f["code"] == "dangling-link"]
    assert in_index == [f"links to 'feb.md', which {past}"]


async def test_t5b_past_the_walks_bound_a_link_is_said_not_looked_up_never_absent(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk for notes named by their path's end stops at its bound: the index's
    ``[[2026/Feb]]`` whose note lies past it is not called absent from the folder."""
    monkeypatch.setattr(scopes, "SUB_FOLDER_WALK_CAP", 3)
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    for number in range(5):
        (agent.user / "archive" / f"old-{number}.md").write_text("old\n", encoding="utf-8")
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[2026/Feb]] - February\n")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    dangling = [f["message"] for f in view["findings"] if f["code"] == "dangling-link"]
    assert dangling == [
        "links to '2026/Feb.md', which was not found: this scope's sub-folders were not looked "
        "up past 3 entries"
    ]


async def test_t5b_one_request_walks_the_sub_folders_once(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index's and the bodies' links by path end share one walk per request, whichever
    answer lints them: the index view, a page of the listing, the overview."""
    _scope(agent)
    (agent.user / "archive/2026").mkdir(parents=True)
    (agent.user / "archive/2026/feb.md").write_text("February\n", encoding="utf-8")
    (agent.user / "b.md").write_text("---\ndescription: b\n---\n[[2026/Mar]]\n", encoding="utf-8")
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [[2026/Feb]] - February\n- [[b]] - b\n")
    walks: list[Path] = []
    walk = scopes.walk_sub_folders

    def counted(scope: Path) -> scopes.SubFolderWalk:
        walks.append(scope)
        return walk(scope)

    monkeypatch.setattr(answers, "walk_sub_folders", counted)

    for url in (
        f"{memory_url()}/scopes/user/index",
        f"{memory_url()}/scopes/user/files",
        file_url("user", "b.md"),
    ):
        walks.clear()
        await ok_json(await client.get(url))
        assert len(walks) == 1, url


def _freeze_beside_a_note_so_named(agent: AgentHome) -> list[str]:
    """``deploy-freeze.md`` at the root and ``notes/Deploy Freeze.md`` in a sub-folder: the
    index's ``[[Deploy Freeze]]`` opens the note of that exact name (Obsidian's reading comes
    before Memory's loose one), ``[[deploy-freeze]]`` the topic file. The index's lines."""
    write_topic(agent.user, "deploy-freeze.md")
    (agent.user / "notes").mkdir()
    (agent.user / "notes" / "Deploy Freeze.md").write_text("the long notes\n", encoding="utf-8")
    index = [
        "# Memory",
        "- [[Deploy Freeze]] - the long notes",
        "- [[deploy-freeze]] - no Friday deploys",
    ]
    (agent.user / layout.INDEX_FILE).write_text("\n".join(index) + "\n", encoding="utf-8")
    return index


async def test_a6_a_delete_keeps_the_line_whose_wiki_link_opens_a_note_in_a_sub_folder(
    client: Client, agent: AgentHome
) -> None:
    """The lint reads ``[[Deploy Freeze]]`` as ``notes/Deploy Freeze.md`` (no finding, the
    page opens that note); deleting ``deploy-freeze.md`` prunes only the line the lint reads
    as linking it, never the line about the other note."""
    index = _freeze_beside_a_note_so_named(agent)
    assert await _link_findings(client) == []

    result = await ok_json(await client.delete(file_url("user", "deploy-freeze.md")))

    assert result["removedIndexLines"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"{index[0]}\n{index[1]}\n"
    )
    assert await _link_findings(client) == []


async def test_v2_undoing_a_delete_never_puts_back_a_line_about_a_note_in_a_sub_folder(
    client: Client, agent: AgentHome
) -> None:
    """The restore finds the lines to put back as the lint reads them: after the delete of
    ``deploy-freeze.md`` and a tidy index, the undo puts back ``[[deploy-freeze]]``'s line
    only; ``[[Deploy Freeze]]`` names ``notes/Deploy Freeze.md``, a line the person removed."""
    index = _freeze_beside_a_note_so_named(agent)
    await ok_json(await client.delete(file_url("user", "deploy-freeze.md")))
    (agent.user / layout.INDEX_FILE).write_text(f"{index[0]}\n", encoding="utf-8")

    restored = await _undo_delete(client, "deploy-freeze.md")

    assert restored["indexLinesAdded"] == [index[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"{index[0]}\n{index[2]}\n"
    )
