"""A-7, Q-2: a memory file with another hard link outside its folder is never read.

An agent that may write its scope can ``ln /some/other/file scope/notes.md``: no symlink on the
way, a regular file by every ``stat``, so the listing, a read, the search, the Session start, the
history and an export all served that other file's content, perhaps from outside the memory root
(the service may run with more access than the agent). Such a file is now a refused entry named
with why, a read of it a 404 saying so; its history keeps the last content it recorded. Names in
its own folder do not count: the service's atomic writes link a hidden temp file beside the file
for a moment, and a file whose every name is in its folder is read.

The rewrites behind a restore, a sync push, an import and a delete's pruning read the file they
edit too (``memory_core.file_edit.edit_file``): the same rule holds there, so none of them copies
that other file's content into memory.
"""

from __future__ import annotations

import asyncio
import io
import os
import tarfile
from pathlib import Path
from typing import Any

import pytest
from memory_api.cli import main
from memory_api.store.containment import HARD_LINKED
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url
from tests.api.test_v1_versions import LINE, TOPIC, checkpoint, seed
from tests.api.test_v2_history_and_restore import restore

SECRET = "TOP-SECRET-LINE-4711: never served"


def outside_file(agent: AgentHome, name: str = "secret.md") -> Path:
    """A file beside the data dir, outside every memory root, shaped like a topic file."""
    folder = agent.tmp / "outside"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"---\nname: secret\ndescription: {SECRET}\n---\n{SECRET}\n", encoding="utf-8")
    return path


def refused_entries(findings: list[dict[str, Any]]) -> dict[str, str]:
    return {f["file"]: f["message"] for f in findings if f["code"] == "refused-entry"}


async def test_a7_a_topic_file_hard_linked_to_a_file_outside_is_never_listed_read_or_found(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "ok-topic.md")
    os.link(outside_file(agent), agent.user / "notes.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [Notes](notes.md) notes\n- [Ok](ok-topic.md) ok\n", encoding="utf-8")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["ok-topic.md"]
    assert refused_entries(listing["findings"]) == {
        "notes.md": f"notes.md is {HARD_LINKED}; not read"
    }
    assert SECRET not in str(listing)

    problem = await expect_problem(await client.get(file_url("user", "notes.md")), 404, "notes.md")
    assert f"'notes.md' there is {HARD_LINKED}, which the service never reads" in problem["detail"]
    assert SECRET not in str(problem)

    found = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "4711"}))
    assert SECRET not in str(found) and "notes.md" not in str(found)
    workspace = agent.tmp / "src" / "app"
    workspace.mkdir(parents=True)
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )
    assert SECRET not in str(started)
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["lintCounts"]["refused-entry"] == 1
    assert SECRET not in str(overview)


async def test_a7_an_index_hard_linked_to_a_file_outside_is_neither_read_nor_injected(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_file(agent, "MEMORY.md")
    outside.write_text(f"- [Secret](secret.md) {SECRET}\n", encoding="utf-8")
    write_topic(agent.user, "ok-topic.md")
    os.link(outside, agent.user / layout.INDEX_FILE)

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert (view["exists"], view["lines"]) == (True, [])  # there, never read (T-5b)
    assert refused_entries(view["findings"])["MEMORY.md"] == f"MEMORY.md is {HARD_LINKED}; not read"
    assert SECRET not in str(view)
    workspace = agent.tmp / "src" / "app"
    workspace.mkdir(parents=True)
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )
    assert SECRET not in started["memory"]
    assert outside.read_text(encoding="utf-8") == f"- [Secret](secret.md) {SECRET}\n"


async def test_a7_a_marker_hard_linked_to_a_file_outside_is_not_read(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_file(agent, "marker")
    outside.write_text("/secret/path\n", encoding="utf-8")
    _, key = agent.workspace("app")
    marker = agent.root / key / layout.MARKER_FILE
    marker.unlink()
    os.link(outside, marker)

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["workspacePath"] is None
    assert "/secret/path" not in str(scope)
    assert f"marker: {HARD_LINKED}; not read" in scope["markerProblems"]


async def test_a7_the_history_and_an_export_never_take_a_hard_linked_file(
    client: Client,
    agent: AgentHome,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A topic file recorded once, then replaced by a hard link to a file outside: the
    checkpoint keeps its last recorded content (never the other file's, never "deleted"), and
    an export leaves it out, naming why."""
    write_topic(agent.user, "notes.md")
    first = await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    assert first["scopes"][0]["version"]
    (agent.user / "notes.md").unlink()
    os.link(outside_file(agent), agent.user / "notes.md")

    again = await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    history = await ok_json(await client.get(f"{file_url('user', 'notes.md')}/history"))
    versions = await ok_json(await client.get(f"{memory_url()}/scopes/user/changes"))

    assert again["scopes"][0]["version"] is None  # nothing recorded: neither content nor a delete
    assert history["exists"] is True and history["unrecorded"] is True
    assert HARD_LINKED in history["unrecordable"]
    assert SECRET not in str(history) + str(versions)

    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(agent.data_dir))
    monkeypatch.setenv("COLUMNS", "300")
    output = agent.tmp / "coder.tar.gz"
    argv = ["memory", "export", "--project", agent.project, "--agent", agent.id, "-o"]
    assert await asyncio.to_thread(main, [*argv, str(output)]) == 0  # it runs its own loop
    said = capsys.readouterr().out
    with tarfile.open(output) as archive:
        members = archive.getnames()
        held = b"".join(
            (archive.extractfile(member) or io.BytesIO()).read()
            for member in archive.getmembers()
            if member.isfile()
        )
    assert "agent-memory/scopes/user/notes.md" not in members
    assert SECRET.encode() not in held
    assert "notes.md" in said and "other hard links" in said


async def test_a7_a_file_whose_every_name_is_in_its_folder_is_read(
    client: Client, agent: AgentHome
) -> None:
    """The service's own atomic writes (``create_new_bytes``, the sync's ``scope_write``) link a
    hidden temp file beside the file for a moment: two names, both in the folder. Such a file,
    and one linked by another name in its folder, is read as before."""
    write_topic(agent.user, "notes.md")
    os.link(agent.user / "notes.md", agent.user / ".notes.md.x1y2z3.tmp")
    os.link(agent.user / "notes.md", agent.user / "same-notes.md")
    assert (agent.user / "notes.md").stat().st_nlink == 3

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    topic = await ok_json(await client.get(file_url("user", "notes.md")))

    assert [row["file"] for row in listing["files"]] == ["notes.md", "same-notes.md"]
    assert refused_entries(listing["findings"]) == {}
    assert topic["file"] == "notes.md"


def index_linked_outside(agent: AgentHome) -> Path:
    """Replace the user scope's index by a hard link to a text file outside every memory root
    (the agent's ``ln /outside/secret.txt scope/MEMORY.md``); returns that file."""
    outside = outside_file(agent, "secret.txt")
    outside.write_text(f"{SECRET}\n", encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.unlink(missing_ok=True)
    os.link(outside, index)
    return outside


async def index_served(client: Client) -> dict[str, Any]:
    view: dict[str, Any] = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    return view


async def test_a7_a_restore_never_merges_its_line_into_an_index_hard_linked_outside(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    await checkpoint(client)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    outside = index_linked_outside(agent)

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert (agent.user / TOPIC).exists()  # the file is restored; its line is not merged
    assert result["indexLinesAdded"] == []
    assert result["indexLinesNotAdded"] == [LINE]
    assert result["indexProblem"] == f"MEMORY.md is {HARD_LINKED}; not read"
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == f"{SECRET}\n"
    assert outside.read_text(encoding="utf-8") == f"{SECRET}\n"
    view = await index_served(client)
    assert view["lines"] == [] and SECRET not in str(view) + str(result)


async def test_a7_restoring_a_topic_file_hard_linked_outside_never_replaces_it(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    (agent.user / TOPIC).unlink()
    outside = outside_file(agent)
    os.link(outside, agent.user / TOPIC)

    response = await client.post(f"{file_url('user', TOPIC)}/restore", json={"version": good})

    # the history first records the file as it is now, which it never can: nothing is replaced,
    # and a 409 (a condition of the file), never a 503 a client retries forever
    problem = await expect_problem(response, 409, f"{TOPIC!r} was not replaced")
    assert HARD_LINKED in problem["detail"]
    assert outside.samefile(agent.user / TOPIC)
    assert SECRET not in str(problem)


async def test_a7_a_delete_never_prunes_an_index_hard_linked_outside(
    client: Client, agent: AgentHome
) -> None:
    """Never read or rewritten, so the delete is refused (A-6: all or nothing), its text unsaid."""
    write_topic(agent.user, "a.md")
    outside = index_linked_outside(agent)
    outside.write_text(f"- [A](a.md) {SECRET}\n", encoding="utf-8")

    response = await client.delete(file_url("user", "a.md"))

    problem = await expect_problem(response, 409, f"MEMORY.md is {HARD_LINKED}")
    assert SECRET not in str(problem)
    assert (agent.user / "a.md").exists()
    assert outside.read_text(encoding="utf-8") == f"- [A](a.md) {SECRET}\n"
    assert outside.samefile(agent.user / layout.INDEX_FILE)


async def test_a7_a_sync_push_never_merges_into_an_index_hard_linked_outside(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    """The push's merge writes ``MEMORY.md`` through the same edit as a restore: the pushed
    line is not merged into the other file's text, which stays where it is, unread."""
    (agent.user / layout.INDEX_FILE).write_text("- [A](a.md) a\n", encoding="utf-8")
    write_topic(agent.user, "a.md")
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    outside = index_linked_outside(agent)
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")
    with (laptop.folder / layout.INDEX_FILE).open("a", encoding="utf-8") as handle:
        handle.write("- [B](b.md) b\n")

    await laptop.push()

    assert (agent.user / "b.md").read_text(encoding="utf-8").endswith("from the laptop\n")
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == f"{SECRET}\n"
    assert outside.samefile(agent.user / layout.INDEX_FILE)
    view = await index_served(client)
    assert view["lines"] == [] and SECRET not in str(view)
    await laptop.fetch()
    assert SECRET not in laptop.read(layout.INDEX_FILE)


async def test_a7_an_import_never_merges_into_an_index_hard_linked_outside(
    agent: AgentHome,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = agent.tmp / "claude-memory"
    source.mkdir()
    write_topic(source, "c.md")
    (source / layout.INDEX_FILE).write_text("- [C](c.md) c\n", encoding="utf-8")
    outside = index_linked_outside(agent)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(agent.data_dir))
    monkeypatch.setenv("COLUMNS", "300")
    argv = ["memory", "import", str(source), "--user", "--project", agent.project]

    assert await asyncio.to_thread(main, [*argv, "--agent", agent.id]) == 0

    said = capsys.readouterr().out
    assert (agent.user / "c.md").exists()
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == f"{SECRET}\n"
    assert outside.samefile(agent.user / layout.INDEX_FILE)
    assert "MEMORY.md is a file with other hard links" in said and SECRET not in said


async def test_a7_one_note_hard_linked_into_two_scopes_is_refused_in_both(
    client: Client, agent: AgentHome
) -> None:
    """Each scope has one name of it and the other name lies outside its folder: neither scope
    can tell which is the note's own, so both refuse it (copy a note to share it)."""
    write_topic(agent.user, "shared.md")
    _, key = agent.workspace("app")
    os.link(agent.user / "shared.md", agent.root / key / "shared.md")

    for scope in ("user", key):
        listing = await ok_json(await client.get(f"{memory_url()}/scopes/{scope}/files"))
        assert "shared.md" not in [row["file"] for row in listing["files"]]
        assert refused_entries(listing["findings"]) == {
            "shared.md": f"shared.md is {HARD_LINKED}; not read"
        }
