"""A-7, Q-2: no request reads, lists or deletes anything outside the agent's memory root.

An agent's file tools can leave symlinks in its memory; a symlinked topic file, index, marker or
scope that leads outside the memory root must behave as if it were not there, and nothing
outside may change. The fixtures come from the API tests' conftest (see ``conftest.py``).
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.conftest import (
    AgentHome,
    Client,
    copy_corpus,
    corpus_topics,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
    real,
)

SECRET = "TOP-SECRET-LINE: never served"


def outside_dir(agent: AgentHome) -> Path:
    """A folder beside the data dir holding a topic file, an index and a marker of its own."""
    path = agent.tmp / "outside"
    path.mkdir(exist_ok=True)
    (path / "secret.md").write_text(f"---\ndescription: {SECRET}\n---\n{SECRET}\n")
    (path / "MEMORY.md").write_text(f"- [Secret](secret.md) {SECRET}\n")
    return path


def snapshot(path: Path) -> dict[str, bytes]:
    return {entry.name: entry.read_bytes() for entry in sorted(path.iterdir()) if entry.is_file()}


async def test_a7_symlinked_topic_file_outside_is_never_listed_read_or_deleted(
    client: Client, corpus_user: AgentHome
) -> None:
    outside = outside_dir(corpus_user)
    before = snapshot(outside)
    link = corpus_user.user / "leak.md"
    link.symlink_to(outside / "secret.md")
    index = corpus_user.user / layout.INDEX_FILE
    index.write_text(index.read_text(encoding="utf-8") + "- [Leak](leak.md)\n", encoding="utf-8")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert "leak.md" not in [item["file"] for item in listing["files"]]
    assert SECRET not in str(listing)
    await expect_problem(await client.get(file_url("user", "leak.md")), 404, "'leak.md'")
    await expect_problem(await client.delete(file_url("user", "leak.md")), 404, "'leak.md'")

    assert link.is_symlink()
    assert "- [Leak](leak.md)" in index.read_text(encoding="utf-8")
    assert snapshot(outside) == before
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["fileCount"] == len(corpus_topics("user-scope"))


async def test_a7_symlinked_scope_outside_is_never_listed_read_or_deleted(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_dir(agent)
    before = snapshot(outside)
    (agent.root / "evil-0123abcd").symlink_to(outside, target_is_directory=True)

    overview = await ok_json(await client.get(memory_url()))
    assert [scope["key"] for scope in overview["scopes"]] == ["user"]
    # there, but no folder of this root (K-6): named as a symlink, never where it leads
    for route in ("files", "index", "files/secret.md"):
        response = await client.get(f"{memory_url()}/scopes/evil-0123abcd/{route}")
        body = await expect_problem(response, 503, "'evil-0123abcd'")
        assert "(in its place: a symlink)" in body["detail"], body
        assert SECRET not in str(body) and outside.name not in str(body)
    response = await client.delete(file_url("evil-0123abcd", "secret.md"))
    await expect_problem(response, 503, "(in its place: a symlink)")

    assert snapshot(outside) == before


async def test_a7_session_start_never_reads_or_writes_through_a_scope_symlinked_outside(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_dir(agent)
    before = snapshot(outside)
    workspace = agent.tmp / "src" / "app"
    workspace.mkdir(parents=True)
    key = key_for_real_path(real(workspace))
    (agent.root / key).symlink_to(outside, target_is_directory=True)

    response = await client.post(
        f"{memory_url()}/session-start", json={"workspace": str(workspace)}
    )
    answer = await ok_json(response)

    assert answer["key"] == key
    assert SECRET not in answer["memory"]
    assert snapshot(outside) == before  # no .workspace marker written outside
    assert not (outside / layout.MARKER_FILE).exists()


async def test_a7_index_symlinked_outside_is_neither_read_nor_rewritten(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_dir(agent)
    (outside / "MEMORY.md").write_text(f"- [F](f.md) {SECRET}\n")
    before = snapshot(outside)
    (agent.user / "f.md").write_text("---\ndescription: f\n---\nf\n")
    (agent.user / layout.INDEX_FILE).symlink_to(outside / "MEMORY.md")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert (view["exists"], view["lines"]) == (True, [])  # there, never read (T-5b)
    assert SECRET not in str(view)
    temporary = agent.data_dir / "agents" / agent.id / "workspaces" / "t"
    temporary.mkdir(parents=True)
    answer = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(temporary)})
    )
    assert SECRET not in answer["memory"]
    response = await client.delete(file_url("user", "f.md"))

    # never read, so its line cannot be removed: refused, nothing deleted, nothing shown
    problem = await expect_problem(response, 409, "MEMORY.md is a symlink to outside")
    assert SECRET not in str(problem)
    assert (agent.user / "f.md").exists()
    assert snapshot(outside) == before


async def test_a7_marker_symlinked_outside_is_not_read(client: Client, agent: AgentHome) -> None:
    outside = outside_dir(agent)
    (outside / "marker").write_text("/secret/path\n")
    _, key = agent.workspace("app")
    marker = agent.root / key / layout.MARKER_FILE
    marker.unlink()
    marker.symlink_to(outside / "marker")

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["workspacePath"] is None
    assert "/secret/path" not in str(scope)
    assert any("outside" in problem for problem in scope["markerProblems"])


async def test_a7_memory_root_redirected_by_a_symlink_is_refused(
    client: Client, agent: AgentHome
) -> None:
    outside = outside_dir(agent)
    before = snapshot(outside)
    agent.user.rmdir()
    agent.root.rmdir()
    agent.root.symlink_to(outside, target_is_directory=True)

    await expect_problem(await client.get(memory_url()), 404, "memory root")
    await expect_problem(await client.get(f"{memory_url()}/scopes/user/files"), 404, "memory root")
    await expect_problem(
        await client.post(f"{memory_url()}/session-start", json={"workspace": "/tmp/x"}),
        404,
        "memory root",
    )
    assert snapshot(outside) == before
    assert names(outside) == ["MEMORY.md", "secret.md"]


async def test_a7_user_scope_as_dangling_symlink_is_unusable_and_creates_nothing_outside(
    client: Client, agent: AgentHome
) -> None:
    """Nothing is made where the link leads; the user scope, which there always is (K-6), is
    named as unusable (Q-2b), as Session start says, never where the link leads. It answered
    404 "no scope 'user'" and the overview left it out."""
    target = agent.tmp / "nowhere"
    agent.user.rmdir()
    agent.user.symlink_to(target, target_is_directory=True)

    body = await expect_problem(
        await client.get(f"{memory_url()}/scopes/user/files"),
        503,
        "not a folder in its folder's place",
    )
    assert "nowhere" not in body["detail"]
    overview = await ok_json(await client.get(memory_url()))

    [user] = overview["scopes"]
    assert user["key"] == "user" and "not a folder in its folder's place" in user["unreadable"]
    assert user["fileCount"] == 0
    assert not target.exists()


def _block_user_scope(agent: AgentHome, kind: str) -> Path:
    """Put ``kind`` in the place of the user scope's folder; the place a link leads to."""
    target = agent.tmp / "elsewhere-0123"
    agent.user.rmdir()
    if kind == "file":
        agent.user.write_text(SECRET, encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(agent.user)
    elif kind == "link-out":
        outside = outside_dir(agent)
        (outside / "stolen.md").write_text("---\ndescription: x\n---\nx\n", encoding="utf-8")
        agent.user.symlink_to(outside, target_is_directory=True)
        target = outside
    else:
        agent.user.symlink_to(target, target_is_directory=True)
    return target


@pytest.mark.parametrize("kind", ["file", "fifo", "link-out", "dangling-link"])
async def test_q2b_agents_list_says_a_user_scope_that_cannot_be_used_as_the_overview_does(
    client: Client, agent: AgentHome, kind: str
) -> None:
    """The agents list (A-1) counted such an agent "0 memories" with no word (a calm, wrong
    answer) while the overview and Session start said the user scope cannot be used: now its
    row says so in the same words, never where a link leads, and nothing is made there."""
    _, key = agent.workspace("app", corpus="user-scope")
    target = _block_user_scope(agent, kind)

    body = await ok_json(await client.get("/api/projects/acme/agents"))

    [coder] = body["agents"]
    assert coder["memoryCount"] == len(corpus_topics("user-scope"))  # the Workspace's, counted
    overview = await ok_json(await client.get(memory_url()))
    said = overview["scopes"][0]["unreadable"]
    assert said and said in coder["unreadable"]
    assert "scope 'user' cannot be used" in coder["unreadable"]
    assert target.name not in coder["unreadable"] and SECRET not in str(body)
    assert key not in coder["unreadable"]


async def test_a7_symlink_inside_the_root_reads_and_deletes_only_the_link(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("app", corpus="user-scope")
    target = agent.root / key / "prefers-pnpm.md"
    (agent.user / "alias.md").symlink_to(target)

    topic = await ok_json(await client.get(file_url("user", "alias.md")))
    assert topic["name"] == "prefers-pnpm"
    result = await ok_json(await client.delete(file_url("user", "alias.md")))

    assert result["file"] == "alias.md"
    assert not (agent.user / "alias.md").is_symlink()
    assert target.is_file()


async def test_q2_symlink_loops_fifos_and_folders_named_md_never_fail(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "loop.md").symlink_to(agent.user / "loop.md")
    os.mkfifo(agent.user / "pipe.md")
    (agent.user / "folder.md").mkdir()
    (agent.user / "ok.md").write_text("---\ndescription: fine\n---\nfine\n")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    assert [item["file"] for item in listing["files"]] == ["ok.md"]
    for name in ("loop.md", "pipe.md", "folder.md"):
        await expect_problem(await client.get(file_url("user", name)), 404, name)
    await ok_json(await client.get(memory_url()))
    await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))


async def test_a7_data_dir_outside_files_stay_untouched_by_a_full_sweep(
    client: Client, agent: AgentHome
) -> None:
    """Every route over a sample Workspace with a symlink out: outside stays byte-identical."""
    outside = outside_dir(agent)
    before = snapshot(outside)
    _, key = agent.workspace("app", corpus="coding-agent-workspace")
    (agent.root / key / "sneaky.md").symlink_to(outside / "secret.md")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
    for item in listing["files"]:
        assert SECRET not in str(await ok_json(await client.get(file_url(key, item["file"]))))
        await ok_json(await client.delete(file_url(key, item["file"])))

    assert snapshot(outside) == before
    assert names(agent.root / key) == [".workspace", "MEMORY.md", "sneaky.md"]


async def test_a7_scope_symlinked_into_a_folder_below_the_root_is_no_scope_folder(
    client: Client, agent: AgentHome
) -> None:
    """Listed as no scope; its routes say a symlink stands in its place (503, K-6): nothing
    below the root is read or deleted through it."""
    (agent.user / "nested").mkdir()
    (agent.user / "nested" / "x.md").write_text("---\ndescription: x\n---\nx\n")
    (agent.root / "deep-0123abcd").symlink_to(agent.user / "nested", target_is_directory=True)

    overview = await ok_json(await client.get(memory_url()))

    assert [scope["key"] for scope in overview["scopes"]] == ["user"]
    for method in ("GET", "DELETE"):
        response = await client.request(method, file_url("deep-0123abcd", "x.md"))
        body = await expect_problem(response, 503, "'deep-0123abcd'")
        assert "(in its place: a symlink)" in body["detail"] and "nested" not in body["detail"]
    assert (agent.user / "nested" / "x.md").exists()


async def test_q2a_deletes_through_a_scope_alias_and_its_target_share_one_lock(
    client: Client, agent: AgentHome
) -> None:
    """A scope symlinked to another scope is the same index: concurrent deletes lose nothing."""
    scope = agent.root / "big-0123abcd"
    copy_corpus("large-index", scope)
    (agent.root / "alias-0123abcd").symlink_to(scope, target_is_directory=True)
    index = scope / layout.INDEX_FILE
    lines = index.read_text(encoding="utf-8").split("\n")
    victims = corpus_topics("large-index")[1::5]

    responses = await asyncio.gather(
        *(
            client.delete(file_url(("big-0123abcd", "alias-0123abcd")[n % 2], name))
            for n, name in enumerate(victims)
        )
    )

    for response in responses:
        await ok_json(response)
    expected = [line for line in lines if not any(f"]({name})" in line for name in victims)]
    assert index.read_text(encoding="utf-8").split("\n") == expected


async def test_a7_an_entry_swapped_while_its_symlink_is_resolved_is_judged_as_it_now_is(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent writes a note by rename while a request resolves it: between the ``lstat``
    that saw a symlink and its ``readlink``, the symlink became a regular file (EINVAL) or
    was removed (ENOENT). ``os.path.realpath`` raises then: the listing left a note out, and
    the overview answered 503 "the data dir could not be used" (a traceback in the log) while
    an agent merely saved a memory. The entry is resolved again, as it now is; one that leads
    outside the memory root is still never read."""
    for name in ("notes.md", "gone.md", "out.md"):
        (agent.user / name).symlink_to(agent.user / "target.md")
    (agent.user / "target.md").write_text("---\ndescription: target\n---\nbody\n")
    (agent.user / "late.md").symlink_to(outside_dir(agent) / "secret.md")
    looks = itertools.count()

    def made_a_file(path: Path) -> bool:
        path.unlink()
        path.write_text("---\ndescription: n\n---\n")
        return True

    def removed(path: Path) -> bool:
        path.unlink()
        return True

    def pointed_outside(path: Path) -> bool:
        path.unlink()
        path.symlink_to(outside_dir(agent) / "secret.md")
        return True

    def removed_at_its_second_look(path: Path) -> bool:
        # judged refused at the first (it leads outside), gone while the refusal is worded
        return next(looks) > 0 and removed(path)

    swaps: dict[str, Callable[[Path], bool]] = {
        "notes.md": made_a_file,
        "gone.md": removed,
        "out.md": pointed_outside,
        "late.md": removed_at_its_second_look,
    }
    real_readlink = os.readlink

    def readlink_after_a_swap(path: Any, *args: Any, **kwargs: Any) -> Any:
        name = Path(path).name
        if name in swaps and swaps[name](Path(path)):
            del swaps[name]
        return real_readlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "readlink", readlink_after_a_swap)
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["key"] == "user"
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [row["file"] for row in listing["files"]] == ["notes.md", "target.md"]
    assert [row["description"] for row in listing["files"]] == ["n", "target"]
    assert SECRET not in str(overview) + str(listing)
    assert not swaps
