"""Q-2, A-6, A-7: what is planted in the data dir never hangs, leaks, tears a file or answers 500.

An agent's file tools can leave anything in its memory (a symlink loop as index, a FIFO); an
operator or a crash can leave odd entries beside it (a folder or FIFO where ``agent.json``, a
token, a draft or a lock file belongs). Each case answers a clear problem or is skipped, and
nothing outside the memory root is read or written. Symlinked topic files, scopes, indexes and
markers leading outside are covered in ``test_memory_containment.py``.

The service runs as root in CI, where permission bits do not stop it; refusals the operating
system would give an unprivileged service (EACCES, EROFS) are injected at the one call that
would meet them.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.http.logs import ACCESS_LOGGER, AccessLogger
from memory_api.settings import Settings
from memory_api.store.agents import NOT_A_FILE_FIX
from memory_core import file_edit, layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)
from tests.support.socket_file import bound_socket

CONFIG = "/api/projects/acme/agents/coder/config"
DRAFTS = "/api/projects/acme/agents/coder/drafts"
VICTIM = "VICTIM CONTENT: must never change\n"


ROOT_UNLISTED = (
    "the memory root of agent 'coder' (the folder of its scopes) cannot be listed: the service "
    "cannot read it (Permission denied)"
)


def refuse(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, match: str) -> None:
    """Make ``owner.name(path, …)`` raise EACCES for paths whose text holds ``match``."""
    original = getattr(owner, name)

    def refusing(path: object, *args: object, **kwargs: object) -> object:
        if match in str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(owner, name, refusing)


def refuse_listing(monkeypatch: pytest.MonkeyPatch, match: str) -> None:
    """Make listing a folder whose path holds ``match`` raise EACCES, however it is listed: by
    ``os.scandir`` of its path, or of a descriptor ``os.open`` opens for it (``O_DIRECTORY``),
    as a folder without read permission refuses both."""
    refuse(monkeypatch, os, "scandir", match)
    opening = os.open

    def refusing(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_DIRECTORY and match in str(path) and not flags & os.O_PATH:
            raise PermissionError(13, "Permission denied", str(path))
        return opening(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)


# --- the memory root: what an agent's file tools can plant ---------------------------------


async def test_a6_index_that_is_a_symlink_loop_refuses_the_delete_and_keeps_both(
    client: Client, agent: AgentHome
) -> None:
    """A-6: whether the index links the file cannot be read, so nothing is deleted (503)."""
    path = write_topic(agent.user, "loop.md")
    index = agent.user / layout.INDEX_FILE
    index.symlink_to(layout.INDEX_FILE)  # MEMORY.md -> MEMORY.md

    response = await client.delete(file_url("user", "loop.md"))

    await expect_problem(response, 503, "could not be read or replaced")
    assert path.exists()
    assert index.is_symlink()


async def test_a6_index_that_is_a_fifo_never_blocks_a_delete(
    client: Client, agent: AgentHome
) -> None:
    """Never opened (a reader would wait for a writer): the delete is answered, refused (A-6:
    whether a line of it links the file cannot be known), and the file stays."""
    write_topic(agent.user, "gone.md")
    os.mkfifo(agent.user / layout.INDEX_FILE)

    response = await client.delete(file_url("user", "gone.md"))

    await expect_problem(response, 409, "MEMORY.md is a FIFO (named pipe)")
    assert (agent.user / "gone.md").exists()


async def test_a6_index_that_cannot_be_rewritten_leaves_it_whole_and_deletes_nothing(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_topic(agent.user, "ro.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [RO](ro.md)\n- keep\n", encoding="utf-8")

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(file_edit, "write_temp_beside", read_only)
    response = await client.delete(file_url("user", "ro.md"))

    await expect_problem(response, 503, "Read-only file system")
    assert index.read_text(encoding="utf-8") == "- [RO](ro.md)\n- keep\n"
    assert (agent.user / "ro.md").exists()
    assert [p.name for p in agent.user.iterdir() if p.name.startswith(".")] == []
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert "dangling-link" not in {finding["code"] for finding in view["findings"]}


async def test_a6_index_that_cannot_be_read_is_left_alone_and_nothing_deleted(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_topic(agent.user, "locked.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [L](locked.md)\n", encoding="utf-8")
    refuse(monkeypatch, file_edit, "read_when_idle", layout.INDEX_FILE)

    response = await client.delete(file_url("user", "locked.md"))

    await expect_problem(response, 503, "Permission denied")
    assert index.read_text(encoding="utf-8") == "- [L](locked.md)\n"
    assert path.exists()


async def test_q2_topic_file_that_cannot_be_removed_is_a_503_problem_and_stays(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_topic(agent.user, "stuck.md")
    refuse(monkeypatch, Path, "unlink", "stuck.md")

    body = await expect_problem(
        await client.delete(file_url("user", "stuck.md")), 503, "Permission denied"
    )

    assert str(agent.data_dir) not in body["detail"]
    assert path.exists()


async def test_a5_scope_that_cannot_be_listed_is_named_never_shown_empty(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q-2b: an empty listing would say the scope holds nothing; the listing is a 503 naming
    the reason, and the overview keeps the scope with it (``unreadable``) and a finding. The
    folder refuses its listing only (it may still be entered, as mode ``0711``), which the
    reason says."""
    write_topic(agent.user, "hidden.md")
    _, key = agent.workspace("app", corpus="user-scope")
    refuse_listing(monkeypatch, key)

    listing = await client.get(f"{memory_url()}/scopes/{key}/files")
    overview = await ok_json(await client.get(memory_url()))

    await expect_problem(listing, 503, "cannot be listed: the service cannot list it")
    assert [scope["key"] for scope in overview["scopes"]] == ["user", key]
    assert overview["scopes"][1]["unreadable"] == "cannot list it (Permission denied)"
    assert overview["scopes"][1]["lintCounts"] == {"unreadable": 1}


@pytest.mark.parametrize("kind", ["file", "fifo"])
async def test_a7_memory_root_that_is_no_directory_is_404_everywhere(
    client: Client, agent: AgentHome, kind: str
) -> None:
    agent.user.rmdir()
    agent.root.rmdir()
    if kind == "file":
        agent.root.write_text("not a folder")
    else:
        os.mkfifo(agent.root)

    for url in (memory_url(), f"{memory_url()}/scopes/user/files", file_url("user", "x.md")):
        await expect_problem(await client.get(url), 404, "memory root")
    await expect_problem(await client.delete(file_url("user", "x.md")), 404, "memory root")
    listing = await ok_json(await client.get("/api/projects/acme/agents"))
    assert listing["agents"][0]["memoryCount"] == 0
    assert "its memory root is no plain folder" in listing["agents"][0]["unreadable"]


async def test_a7_folder_on_the_way_to_the_memory_root_being_a_file_is_404(
    client: Client, agent: AgentHome
) -> None:
    state = agent.root.parent
    agent.user.rmdir()
    agent.root.rmdir()
    state.rmdir()
    state.write_text("in the way")

    await expect_problem(await client.get(f"{memory_url()}/scopes/user/files"), 404, "'user'")
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"] == []
    assert state.read_text() == "in the way"


# --- beside the memory: agent.json, tokens, drafts, locks ------------------------------------


@pytest.mark.parametrize("kind", ["folder", "fifo", "socket"])
async def test_a2_agent_file_that_is_no_regular_file_is_named_and_never_blocks(
    client: Client, agent: AgentHome, kind: str
) -> None:
    """A socket's ``open`` fails with ENXIO ("No such device or address"): it was answered
    "cannot be read (No such device or address): … give … read access", a fix that fixes
    nothing; it is no regular file, like a folder or a FIFO."""
    await client.post("/api/projects/acme/agents", json={"id": "other", "name": "Other"})
    stored = agent.data_dir / "agents" / agent.id / "agent.json"
    stored.unlink()
    if kind == "folder":
        stored.mkdir()
    elif kind == "fifo":
        os.mkfifo(stored)
    else:
        bound_socket(stored).close()

    await expect_problem(await client.get(CONFIG), 503, "not a regular file")
    listing = await ok_json(await client.get("/api/projects/acme/agents"))
    assert [item["id"] for item in listing["agents"]] == ["other"]
    assert listing["unreadable"] == [  # named, never gone unsaid (Q-2b)
        {
            "id": "coder",
            "problem": "the stored settings of agent 'coder' (agents/coder/agent.json in the "
            f"data dir) are not a regular file: {NOT_A_FILE_FIX}",
        }
    ]


async def test_a10_token_file_that_is_a_fifo_never_blocks_authentication(
    client: Client, agent: AgentHome
) -> None:
    tokens = agent.data_dir / "tokens"
    os.mkfifo(tokens / "evil.json")

    # the FIFO is never opened for reading (it would block); it is a token file that cannot be
    # read, so the service answers at once, closed (A-10a), instead of opening up
    await expect_problem(await client.get("/api/me"), 503, "bearer tokens cannot be read")


@pytest.mark.parametrize("kind", ["folder", "fifo", "symlink"])
async def test_a12_draft_entry_that_is_no_regular_file_is_404_and_never_swept(
    client: Client, agent: AgentHome, kind: str
) -> None:
    victim = agent.tmp / "victim.json"
    victim.write_text(VICTIM)
    draft_id = "a" * 32
    entry = agent.data_dir / "drafts" / f"{draft_id}.json"
    if kind == "folder":
        entry.mkdir()
    elif kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to(victim)

    await expect_problem(await client.get(f"{DRAFTS}/{draft_id}"), 404, "no draft")
    created = await ok_json(await client.post(DRAFTS, json={"prompt": "hi"}), 201)

    assert created["prompt"] == "hi"
    assert entry.is_symlink() or entry.exists()  # left for an operator, never removed blindly
    assert victim.read_text() == VICTIM


@pytest.mark.parametrize("kind", ["symlink", "folder"])
async def test_q4_lock_file_that_cannot_be_used_is_503_and_touches_nothing(
    client: Client, agent: AgentHome, kind: str
) -> None:
    victim = agent.tmp / "victim.txt"
    victim.write_text(VICTIM)
    locks = agent.data_dir / "locks"
    for name in ("agent.coder.lock", "index.coder.user.lock"):
        (locks / name).unlink(missing_ok=True)
        if kind == "symlink":
            (locks / name).symlink_to(victim)
        else:
            (locks / name).mkdir()
    path = write_topic(agent.user, "kept.md")

    for response in (
        await client.patch(CONFIG, json={"name": "Locked"}),
        await client.post(f"{memory_url()}/template-placeholder"),
        await client.delete(file_url("user", "kept.md")),
    ):
        body = await expect_problem(response, 503, "cannot be taken")
        assert str(agent.data_dir) not in body["detail"]

    assert victim.read_text() == VICTIM
    assert path.exists()
    assert (await ok_json(await client.get(CONFIG)))["name"] == "Coder"


async def test_a11_access_log_survives_a_request_the_parser_refused(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request aiohttp's parser rejected has no match info; its access line is still written."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    try:
        with caplog.at_level(logging.INFO):
            reader, writer = await asyncio.open_connection(server.host, server.port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\x00b\r\n\r\n")
            await writer.drain()
            answer = await reader.read()
            writer.close()
            await writer.wait_closed()
    finally:
        await server.close()

    assert answer.startswith(b"HTTP/1.")
    assert b" 400 " in answer.split(b"\r\n")[0]
    assert not [r for r in caplog.records if r.getMessage() == "Unhandled exception"]
    access = [r for r in caplog.records if r.name == ACCESS_LOGGER]
    assert access[-1].__dict__["route"] == "unmatched"


async def test_q2a_index_with_lone_cr_line_ends_never_loses_other_lines(
    client: Client, agent: AgentHome
) -> None:
    """Readers take a lone CR for a line end (T-2), and so does the pruning: as one line, b's
    link would go too."""
    write_topic(agent.user, "a.md")
    write_topic(agent.user, "b.md")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(b"- [A](a.md)\r- [B](b.md)\r")
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert [line["text"] for line in view["lines"]][:2] == ["- [A](a.md)", "- [B](b.md)"]

    result = await ok_json(await client.delete(file_url("user", "a.md")))

    assert result["removedIndexLines"] == ["- [A](a.md)"]  # pruned as the readers read it
    assert index.read_bytes() == b"- [B](b.md)\r"
    assert (agent.user / "b.md").exists()


async def test_q2b_a_memory_root_that_cannot_be_listed_is_503_naming_it_never_no_memory(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q-2b: the overview answered 200 with no scope and search 200 with no hit ("no memory"
    while the notes are there); both are the 503 of a folder that cannot be read, naming it."""
    write_topic(agent.user, "one.md")
    refuse(monkeypatch, os, "scandir", f"{agent.root}")

    for url in (memory_url(), f"{memory_url()}/search?q=one"):
        problem = await expect_problem(await client.get(url), 503, ROOT_UNLISTED)
        assert "read access" in problem["detail"]  # what an operator must do
        assert str(agent.root) not in problem["detail"]
    assert (agent.user / "one.md").exists()


async def test_a1_one_memory_root_that_cannot_be_listed_never_breaks_the_agents_list(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q-2b: its card said 0 memories, as if it had none; its count says why it is unknown."""
    await client.post("/api/projects/acme/agents", json={"id": "other", "name": "Other"})
    write_topic(agent.user, "one.md")
    refuse(monkeypatch, os, "scandir", f"{agent.root}")

    listing = await ok_json(await client.get("/api/projects/acme/agents"))

    agents = {item["id"]: item for item in listing["agents"]}
    assert agents["coder"]["memoryCount"] == 0
    assert agents["coder"]["unreadable"].startswith(ROOT_UNLISTED)
    assert agents["coder"]["unreadable"].endswith("its memories are not counted")
    assert agents["other"] == {
        "id": "other",
        "project": "acme",
        "name": "Other",
        "memoryEnabled": True,
        "memoryCount": 0,
    }
