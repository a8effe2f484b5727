"""K-5: a Workspace scope made by a Session start (a README example run in a checkout) can be
forgotten with ``DELETE …/memory/scopes/{key}``: it leaves the overview, and nothing is lost —
a scope still holding the agent's files is refused (409) until they are deleted one by one,
each delete kept in the scope's history, which the forget keeps too."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import forget
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
    real,
    write_topic,
)


async def _start(client: Client, workspace: Path) -> dict[str, Any]:
    response = await client.post(
        f"{memory_url()}/session-start", json={"workspace": os.fspath(workspace)}
    )
    return await ok_json(response)


async def _listed(client: Client) -> list[str]:
    overview = await ok_json(await client.get(memory_url()))
    return [scope["key"] for scope in overview["scopes"]]


def _scope_url(key: str) -> str:
    return f"{memory_url()}/scopes/{key}"


def _on_second_look(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[Path], None]) -> None:
    """Run ``meanwhile(renamed folder)`` during the forget, between its rename of the scope
    folder and its last look at what that holds (the second call of ``not_forgettable``)."""
    looked = forget.not_forgettable
    calls: list[Path] = []

    def then(scope: Path) -> list[str]:
        calls.append(scope)
        if len(calls) == 2:
            meanwhile(scope)
        return looked(scope)

    monkeypatch.setattr(forget, "not_forgettable", then)


async def test_k5_a_scope_a_session_start_made_is_forgotten_and_comes_back_new(
    client: Client, agent: AgentHome
) -> None:
    checkout = agent.tmp / "checkout"
    checkout.mkdir()
    key = (await _start(client, checkout))["key"]
    assert key in await _listed(client)

    forgotten = await ok_json(await client.delete(_scope_url(key)))

    assert forgotten == {"key": key, "workspace": real(checkout)}
    assert await _listed(client) == ["user"]
    assert names(agent.root) == ["user"]  # no folder left behind, hidden or not
    await expect_problem(await client.get(_scope_url(key)), 404, "no scope")
    # the folder is still there: its next Session start simply makes a new scope
    assert (await _start(client, checkout))["key"] == key
    assert (agent.root / key / layout.MARKER_FILE).is_file()
    assert key in await _listed(client)


async def test_k5_a_scope_holding_files_is_refused_until_they_are_deleted_and_kept_restorable(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("project")
    write_topic(agent.root / key, "deploy.md")
    (agent.root / key / layout.INDEX_FILE).write_text("- [Deploy](deploy.md)\n")

    await expect_problem(await client.delete(_scope_url(key)), 409, "delete its files first")
    assert names(agent.root / key) == [".workspace", "MEMORY.md", "deploy.md"]

    await ok_json(await client.delete(file_url(key, "deploy.md")))
    await ok_json(await client.delete(_scope_url(key)))
    assert not (agent.root / key).exists()

    # the history is kept: back in that folder, the deleted file can be restored
    await _start(client, workspace)
    deleted = await ok_json(await client.get(f"{_scope_url(key)}/deleted"))
    by_file = {entry["file"]: entry for entry in deleted["files"]}
    # the blank index the forget took is listed too when a record ran after it (the Session
    # start's, or one the delete queued and a busy machine ran late): both are true
    assert set(by_file) in ({"deploy.md"}, {"deploy.md", "MEMORY.md"}), by_file
    restore = {"version": by_file["deploy.md"]["restoreVersion"]}
    await ok_json(await client.post(f"{file_url(key, 'deploy.md')}/restore", json=restore))
    assert (agent.root / key / "deploy.md").is_file()


async def test_k5_the_user_scope_and_unknown_scopes_are_never_forgotten(
    client: Client, agent: AgentHome
) -> None:
    await expect_problem(await client.delete(_scope_url("user")), 409, "cannot be forgotten")
    assert agent.user.is_dir()
    await expect_problem(await client.delete(_scope_url("gone-0123abcd")), 404, "no scope")
    await expect_problem(await client.delete(_scope_url("Not-A-Key")), 400, "invalid scope")
    _, key = agent.workspace("kept")
    await expect_problem(await client.delete(_scope_url(key), headers={"If-Match": '"x"'}), 412, "")
    assert (agent.root / key / layout.MARKER_FILE).is_file()


async def test_k5_a_forget_racing_session_starts_leaves_a_whole_scope_or_none(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = agent.tmp / "raced"
    checkout.mkdir()
    key = (await _start(client, checkout))["key"]
    loop = asyncio.get_running_loop()
    put_back = forget._put_back
    puts: list[str] = []

    def racing(moved: Path) -> None:  # in the forget's thread, right after its rename
        started = asyncio.run_coroutine_threadsafe(_start(client, checkout), loop)
        assert started.result(timeout=30)["key"] == key  # a Session start makes it anew
        write_topic(moved, "late.md")  # and an agent in the old folder writes

    def spied(root: Path, fd: int, hidden: str, name: str) -> None:
        puts.append(hidden)
        put_back(root, fd, hidden, name)

    _on_second_look(monkeypatch, racing)
    monkeypatch.setattr(forget, "_put_back", spied)

    await expect_problem(await client.delete(_scope_url(key)), 409, "'late.md'")

    assert len(puts) == 1  # the folder went back into the scope the Session start made
    assert [name for name in names(agent.root) if name.startswith(".")] == []
    assert set(names(agent.root / key)) - set(layout.SIDE_FILES) == {".workspace", "late.md"}
    assert (agent.root / key / layout.MARKER_FILE).read_text() == (real(checkout) + "\n")


async def test_k5_a_file_written_while_the_scope_is_forgotten_keeps_the_scope_whole(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("busy")
    looked = forget.not_forgettable

    def then_a_write(scope: Path) -> list[str]:
        held = looked(scope)
        write_topic(scope, "late.md")  # the agent writes right after the service looked
        monkeypatch.setattr(forget, "not_forgettable", looked)
        return held

    monkeypatch.setattr(forget, "not_forgettable", then_a_write)

    await expect_problem(await client.delete(_scope_url(key)), 409, "'late.md'")

    assert names(agent.root) == sorted(["user", key])
    assert names(agent.root / key) == [".workspace", "late.md"]


async def test_k5_a_write_and_a_session_start_racing_the_forget_lose_nothing(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, key = agent.workspace("busier")
    looked = forget.not_forgettable
    calls: list[Path] = []

    def write_then_start(scope: Path) -> list[str]:
        calls.append(scope)
        if len(calls) == 1:  # the agent writes right after the service looked
            held = looked(scope)
            write_topic(scope, "late.md")
            return held
        # after the rename: a Session start makes the scope anew under its key
        (agent.root / key).mkdir()
        (agent.root / key / layout.MARKER_FILE).write_text(real(workspace) + "\n")
        write_topic(agent.root / key, "fresh.md")  # and its Session writes at once
        monkeypatch.setattr(forget, "not_forgettable", looked)
        return looked(scope)

    monkeypatch.setattr(forget, "not_forgettable", write_then_start)

    await expect_problem(await client.delete(_scope_url(key)), 409, "'late.md'")

    assert names(agent.root) == sorted(["user", key])
    assert names(agent.root / key) == [".workspace", "fresh.md", "late.md"]


@pytest.mark.parametrize(
    "index",
    [
        b"# Memory Index\n\n",  # what deleting the last topic file leaves
        b"\xef\xbb\xbf",  # a byte order mark alone (Notepad)
        "\u00a0\n".encode(),  # a no-break space
        b" " * 5000 + b"\n",  # more than 4 KiB of spaces
        b"# Memory\r\n\r\n## Topics\r\n",  # headings only, CRLF
    ],
)
async def test_k5_an_index_with_no_entries_is_forgotten_with_its_scope(
    client: Client, agent: AgentHome, index: bytes
) -> None:
    _, key = agent.workspace("headed")
    (agent.root / key / layout.INDEX_FILE).write_bytes(index)
    _, last = agent.workspace("last")  # the index its last topic file's delete leaves
    write_topic(agent.root / last, "deploy.md")
    (agent.root / last / layout.INDEX_FILE).write_text("# Memory Index\n\n- [Deploy](deploy.md)\n")
    await ok_json(await client.delete(file_url(last, "deploy.md")))

    await ok_json(await client.delete(_scope_url(key)))
    await ok_json(await client.delete(_scope_url(last)))

    assert names(agent.root) == ["user"]


async def test_k5_a_line_a_user_wrote_in_the_index_keeps_the_scope_and_is_named(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("prose")
    index = "# Memory Index\n\nDeploy only on Fridays.\n"
    (agent.root / key / layout.INDEX_FILE).write_text(index)

    problem = await expect_problem(await client.delete(_scope_url(key)), 409, "line 3")
    assert "Deploy only on Fridays." in problem["detail"]
    assert "delete its files first" not in problem["detail"]  # no route clears the index
    assert (agent.root / key / layout.INDEX_FILE).read_text() == index
    _, other = agent.workspace("latin1")
    (agent.root / other / layout.INDEX_FILE).write_bytes(b"# Notizen\n\xfcber\n")
    problem = await expect_problem(await client.delete(_scope_url(other)), 409, "not judged")
    assert "delete its files first" not in problem["detail"]


@pytest.mark.parametrize(
    ("marker", "answered"),
    [
        (b"/src/a\x1b[2Jb\n", "/src/a\x1b[2Jb"),  # as the overview has it: a path
        (b"/src/one\n/src/two\n", "/src/one"),  # the first line, as the overview uses
        (b"/" + b"x" * 60_000 + b"\n", None),  # longer than a path: no path
        (b"relative\n", None),
    ],
)
async def test_k5_the_forget_answers_the_workspace_path_the_overview_shows(
    client: Client, agent: AgentHome, marker: bytes, answered: str | None
) -> None:
    _, key = agent.workspace("marked")
    (agent.root / key / layout.MARKER_FILE).write_bytes(marker)
    overview = await ok_json(await client.get(memory_url()))
    shown = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert shown["workspacePath"] == answered

    assert await ok_json(await client.delete(_scope_url(key))) == {
        "key": key,
        "workspace": answered,
    }


async def test_k5_an_index_line_written_during_the_forget_keeps_the_scope(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("appended")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("# Memory Index\n")

    def append(scope: Path) -> None:  # through the handle an agent held across the rename
        with (scope / layout.INDEX_FILE).open("a") as appended:
            appended.write("- [Deploy](deploy.md) — how we deploy\n")

    _on_second_look(monkeypatch, append)

    await expect_problem(await client.delete(_scope_url(key)), 409, "Deploy")

    assert names(agent.root) == sorted(["user", key])
    assert "- [Deploy](deploy.md) — how we deploy\n" in index.read_text()


async def test_k5_what_a_forget_stopped_half_way_left_is_put_back_or_named(
    client: Client, agent: AgentHome
) -> None:
    _, back = agent.workspace("killed")  # killed after the rename, the agent's file in it
    (agent.root / back).rename(agent.root / f".forgetting-{back}-0123abcd")
    write_topic(agent.root / f".forgetting-{back}-0123abcd", "late.md")
    _, both = agent.workspace("collided")  # the put back found a name taken
    hidden = agent.root / f".forgetting-{both}-89abcdef"
    hidden.mkdir()
    (hidden / "notes.md").write_text("the agent's\n")
    write_topic(hidden, "free.md")
    write_topic(agent.root / both, "notes.md")
    _, done = agent.workspace("done")  # killed before the folder was removed: nothing of theirs
    (agent.root / done).rename(agent.root / f".forgetting-{done}-00000000")

    overview = await ok_json(await client.get(memory_url()))

    assert sorted(scope["key"] for scope in overview["scopes"]) == sorted(["user", back, both])
    assert names(agent.root / back) == [".workspace", "late.md"]
    assert names(agent.root / both) == [".workspace", "free.md", "notes.md"]
    assert names(hidden) == ["notes.md"] and (hidden / "notes.md").read_text() == "the agent's\n"
    assert [entry["name"] for entry in overview["skipped"]] == [hidden.name]
    assert "move them into it" in overview["skipped"][0]["problem"]
    assert names(agent.root) == sorted(["user", back, both, hidden.name])


async def test_k5_a_folder_an_agents_write_makes_again_during_the_forget_gets_its_marker(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, key = agent.workspace("remade")

    def mkdir_p(_: Path) -> None:  # `mkdir -p <key> && write`, as an agent does
        (agent.root / key).mkdir()
        write_topic(agent.root / key, "late.md")

    _on_second_look(monkeypatch, mkdir_p)

    await expect_problem(await client.delete(_scope_url(key)), 409, "'late.md'")

    assert names(agent.root / key) == [".workspace", "late.md"]
    assert (agent.root / key / layout.MARKER_FILE).read_text() == real(workspace) + "\n"


async def test_k5_a_leftover_holding_only_taken_names_is_named_at_each_overview_logged_once(
    client: Client, agent: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    _, key = agent.workspace("stuck")
    hidden = agent.root / f".forgetting-{key}-0badc0de"
    hidden.mkdir()
    (hidden / "notes.md").write_text("the agent's\n")
    write_topic(agent.root / key, "notes.md")

    for _ in range(3):
        overview = await ok_json(await client.get(memory_url()))
        assert [entry["name"] for entry in overview["skipped"]] == [hidden.name]

    said = [record for record in caplog.records if hidden.name in record.getMessage()]
    assert [record.levelname for record in said] == ["WARNING"]
    assert names(hidden) == ["notes.md"]
