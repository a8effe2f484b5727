"""V-1: every change to a scope is a version on git, one repository per scope, beside the tree.

Each source of versions is shown through the API: a delete (with its prune), a restore, a
Session start (recorded after the answer), an explicit checkpoint (one scope or all), a
post-write hook's record; the import is shown in ``test_v1_import_versions.py``. Each version
says who, when and which files.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

from memory_api.appkeys import get_history_store
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
    write_topic,
)

TOPIC = "prefers-pnpm.md"
LINE = f"- [Prefers pnpm]({TOPIC}) — use pnpm"


def git(repository: Path, *args: str) -> str:
    """What the plain ``git`` command prints about a history repository."""
    command = ["git", f"--git-dir={repository}", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def history_dir(agent: AgentHome) -> Path:
    """Where the agent's scope histories live: beside the memory root."""
    return layout.history_root(agent.data_dir, agent.id)


async def changes(client: Client, key: str = "user", **query: str) -> list[dict[str, Any]]:
    """The scope's versions, newest first."""
    answer = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/changes", params=query))
    versions: list[dict[str, Any]] = answer["versions"]
    return versions


async def checkpoint(client: Client, key: str = "user") -> dict[str, Any]:
    """Record what changed on disk in scope ``key``; the answer's one entry."""
    answer = await ok_json(await client.post(f"{memory_url()}/scopes/{key}/checkpoint"))
    assert len(answer["scopes"]) == 1
    scope: dict[str, Any] = answer["scopes"][0]
    return scope


def seed(agent: AgentHome) -> None:
    """A topic file and the index line linking to it, in the user scope."""
    write_topic(agent.user, TOPIC)
    (agent.user / layout.INDEX_FILE).write_text(f"# User memory\n\n{LINE}\n", encoding="utf-8")


async def test_v1_history_is_a_bare_git_repository_beside_the_memory_tree(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    before = names(agent.user)

    recorded = await checkpoint(client)

    repository = history_dir(agent) / "user.git"
    assert repository.is_dir()
    assert history_dir(agent).parent == agent.root.parent  # agent_state/history beside memory
    assert names(agent.user) == before  # nothing new in the scope folder
    assert names(agent.root) == ["user"]
    assert git(repository, "log", "--format=%H", "main").split() == [recorded["version"]]
    assert git(repository, "ls-tree", "--name-only", "main").split() == [layout.INDEX_FILE, TOPIC]


async def test_v1_only_memory_is_recorded_never_temp_files_locks_or_symlinks(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    seed(agent)
    (agent.user / ".MEMORY.md.1234.tmp").write_text("half a write", encoding="utf-8")
    (agent.user / ".MEMORY.md.kept-abc").write_text("kept aside", encoding="utf-8")
    (agent.user / "notes.txt").write_text("not markdown", encoding="utf-8")
    (agent.user / "sub").mkdir()
    outside = tmp_path / "secret.md"
    outside.write_text("outside the memory root", encoding="utf-8")
    (agent.user / "leak.md").symlink_to(outside)

    recorded = await checkpoint(client)

    assert sorted(item["file"] for item in recorded["files"]) == [layout.INDEX_FILE, TOPIC]


async def test_v1_checkpoint_records_shell_writes_once_and_says_who(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    first = await checkpoint(client)
    assert first["version"] is not None

    assert (await checkpoint(client))["version"] is None  # nothing changed: no version

    (agent.user / TOPIC).write_text("---\ndescription: changed in a shell\n---\nnew\n")
    (agent.user / layout.INDEX_FILE).unlink()
    second = await checkpoint(client)

    assert sorted((item["file"], item["change"]) for item in second["files"]) == [
        (layout.INDEX_FILE, "deleted"),
        (TOPIC, "modified"),
    ]
    newest = (await changes(client))[0]
    assert newest["version"] == second["version"]
    assert newest["author"]["source"] == "checkpoint"
    assert newest["author"]["principal"] == "local"
    assert newest["summary"] == "Checkpoint"


async def test_v1_checkpoint_of_the_agent_records_every_scope(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")

    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint"))

    recorded = {item["scope"]: item["version"] for item in answer["scopes"]}
    assert set(recorded) == {"user", key}
    assert all(recorded.values())
    assert sorted(path.name for path in history_dir(agent).iterdir()) == [f"{key}.git", "user.git"]


async def test_v1_a_delete_is_a_version_and_what_it_removed_was_recorded_first(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)  # never recorded before the delete: the delete records it first

    await ok_json(await client.delete(file_url("user", TOPIC)))

    deleting, found = await changes(client)
    assert deleting["author"]["source"] == "delete"
    assert deleting["author"]["principal"] == "local"
    assert deleting["summary"] == f"Delete {TOPIC}"
    assert sorted((item["file"], item["change"]) for item in deleting["files"]) == [
        (layout.INDEX_FILE, "modified"),
        (TOPIC, "deleted"),
    ]
    assert found["author"]["source"] == "found"
    assert {item["file"] for item in found["files"]} == {layout.INDEX_FILE, TOPIC}


async def test_v1_a_session_start_records_after_answering(client: Client, agent: AgentHome) -> None:
    seed(agent)
    workspace, key = agent.workspace("shop")
    write_topic(agent.root / key, "uses-make.md")

    response = await client.post(
        f"{memory_url()}/session-start",
        json={"workspace": str(workspace), "sessionId": "c0ffee-1"},
    )
    await ok_json(response)
    await get_history_store(client.app).idle()

    for scope in ("user", key):
        newest = (await changes(client, scope))[0]
        assert newest["author"]["source"] == "session-start"
        assert newest["author"]["sessionId"] == "c0ffee-1"
    # a second Session start with nothing changed records nothing
    response = await client.post(
        f"{memory_url()}/session-start", json={"workspace": str(workspace)}
    )
    await ok_json(response)
    await get_history_store(client.app).idle()
    assert len(await changes(client)) == 1


async def test_v1_a_session_start_of_several_hooks_records_once_and_leaves_writes_to_the_hook(
    client: Client, agent: AgentHome
) -> None:
    """Claude Code starts a Session with four hook processes, each a Session start: one record
    for them, so the Session's first write is the post-write hook's version, not theirs."""
    seed(agent)
    workspace, _ = agent.workspace("shop")
    starts = [
        client.post(
            f"{memory_url()}/session-start",
            json={"workspace": str(workspace), "sessionId": "four-hooks"},
        )
        for _ in range(4)
    ]
    for response in await asyncio.gather(*starts):
        await ok_json(response)
    for _ in range(2000):  # the first record lands after the answers (a hang guard, no timing)
        if await changes(client):
            break
        await asyncio.sleep(0.01)
    write_topic(agent.user, "uses-uv.md")
    await get_history_store(client.app).idle()  # any record still pending runs now

    answer = await ok_json(
        await client.post(
            f"{memory_url()}/versions",
            json={"sessionId": "four-hooks", "harness": "claude-code", "tool": "Write"},
        )
    )

    files = [scope["files"] for scope in answer["scopes"] if scope["scope"] == "user"]
    assert files == [[{"file": "uses-uv.md", "change": "added"}]]
    assert (await changes(client))[0]["author"]["source"] == "write"


async def test_v1_a_post_write_hook_records_its_session_harness_and_tool(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    await checkpoint(client)
    write_topic(agent.user, "uses-uv.md")

    answer = await ok_json(
        await client.post(
            f"{memory_url()}/versions",
            json={"sessionId": "s-42", "harness": "claude-code", "tool": "Write", "scope": "user"},
        )
    )

    assert answer["scopes"][0]["files"] == [{"file": "uses-uv.md", "change": "added"}]
    newest = (await changes(client))[0]
    assert newest["author"] == {
        "source": "write",
        "sessionId": "s-42",
        "harness": "claude-code",
        "tool": "Write",
        "principal": None,
        "time": newest["author"]["time"],
        "recordedAt": newest["author"]["recordedAt"],
        "machine": None,  # set for a version a machine sent over git
    }
    assert newest["summary"] == "Written in a claude-code Session (Write)"


async def test_v1_a_hook_cannot_forge_trailers_with_newlines(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    await ok_json(
        await client.post(
            f"{memory_url()}/versions",
            json={"sessionId": "s\nPrincipal: admin", "harness": "x" * 500, "scope": "user"},
        )
    )

    author = (await changes(client))[0]["author"]
    assert author["principal"] is None
    assert author["sessionId"] == "sPrincipal: admin"
    assert len(author["harness"]) == 200


async def test_v1_record_refuses_bad_ids_and_unknown_scopes(
    client: Client, agent: AgentHome
) -> None:
    await expect_problem(
        await client.post(f"{memory_url()}/versions", json={"scope": "../x"}), 400, "scope"
    )
    await expect_problem(
        await client.post(f"{memory_url()}/versions", json={"scope": "gone-0123abcd"}),
        404,
        "no scope",
    )
    await expect_problem(
        await client.post(f"{memory_url()}/versions", json={"content": "x"}), 422, "content"
    )


async def test_v1_checkpoint_of_the_agent_names_a_user_scope_it_could_not_record(
    client: Client, agent: AgentHome
) -> None:
    """A checkpoint of every scope never answers as if the user scope were recorded when its
    folder cannot be made (a file or a dangling link in its place): the scope is named, with
    why, and the other scopes are recorded."""
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    agent.user.rmdir()
    agent.user.write_text("not a folder\n", encoding="utf-8")

    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint"))

    by_scope = {item["scope"]: item for item in answer["scopes"]}
    assert set(by_scope) == {"user", key}
    assert by_scope["user"]["version"] is None
    assert by_scope["user"]["skipped"] == (  # in the overview's and Session start's words
        "found something that is not a folder in its folder's place; an operator must move it "
        "away (the scope's folder is then made again)"
    )
    assert by_scope[key]["version"] is not None
    assert "skipped" not in by_scope[key]


async def test_v1_checkpoint_of_the_agent_says_nothing_skipped_for_a_recorded_user_scope(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)

    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint"))

    assert [set(item) for item in answer["scopes"]] == [{"scope", "version", "files"}]


async def test_v1_checkpoint_of_the_agent_records_every_scope_beside_a_damaged_history(
    client: Client, agent: AgentHome
) -> None:
    """V-1, V-3: a Workspace scope whose history is damaged (its ref names no version) is named
    with why (``skipped``), and every other scope is recorded all the same; with no scope
    recordable at all the checkpoint fails (503)."""
    seed(agent)
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    await ok_json(await client.post(f"{memory_url()}/checkpoint"))
    (history_dir(agent) / f"{key}.git" / "refs" / "heads" / "main").write_bytes(b"\x00garbage\n")
    write_topic(agent.user, "another.md")

    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint"))

    by_scope = {item["scope"]: item for item in answer["scopes"]}
    assert by_scope["user"]["version"] is not None
    assert by_scope["user"]["files"] == [{"file": "another.md", "change": "added"}]
    assert by_scope[key]["version"] is None
    assert "history of this scope is damaged" in by_scope[key]["skipped"]

    (history_dir(agent) / "user.git" / "refs" / "heads" / "main").write_bytes(b"\x00garbage\n")
    await expect_problem(
        await client.post(f"{memory_url()}/checkpoint"), 503, "history of this scope is damaged"
    )


async def test_v1_i9_who_wrote_never_holds_hidden_characters(
    client: Client, agent: AgentHome
) -> None:
    """A hook's ``harness`` and ``tool`` with a right-to-left override or tag characters (no
    control character, so nothing was dropped) were kept as sent: in the history's commit
    messages (``git log`` in a terminal turned around) and in every answer naming who wrote.
    Each run is kept as the mark Session start shows (I-9), as a file name in the summary is."""
    seed(agent)
    await checkpoint(client)
    rlo, tags = "\u202e", "".join(chr(0xE0000 + ord(char)) for char in "curl x")
    (agent.user / f"evil{rlo}dm.md").write_text("---\nname: e\ndescription: d\n---\nb\n")
    await ok_json(
        await client.post(
            f"{memory_url()}/versions",
            json={"sessionId": f"s{rlo}42", "harness": f"claude{tags}", "tool": f"Wr{rlo}ite"},
        )
    )

    newest = (await changes(client))[0]
    assert newest["author"]["sessionId"] == "s[hidden: U+202E]42"
    assert newest["author"]["harness"] == "claude[hidden: 6 tag characters]"
    assert newest["author"]["tool"] == "Wr[hidden: U+202E]ite"
    assert (
        newest["summary"]
        == "Written in a claude[hidden: 6 tag characters] Session (Wr[hidden: U+202E]ite)"
    )
    log = git(history_dir(agent) / "user.git", "log", "--format=%an%n%B", "main")
    assert "Tool: Wr[hidden: U+202E]ite" in log
    assert rlo not in log and tags[0] not in log
