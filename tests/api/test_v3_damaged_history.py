"""V-3: a history that a disk fault damaged, or a full disk, is answered as what it is.

A scope's history is a git repository beside the memory tree. When a pack of it is lost, the
repository is replaced by a file or loses its ``HEAD``, or the disk fills during a record,
every route that needs it says so and what to do (problem+json 503 naming the damage or the
full disk and docs/operations.md), never a calm wrong answer such as "no such version"; the
memory files are never touched by it; moving a damaged history aside starts a new one; and a
record the disk refused leaves no part of a pack behind to take the space the next one needs.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_api.errors import READ_ACCESS_FIX
from memory_api.store.containment import read_regular
from memory_api.store.history import git as history_git
from memory_api.store.history import repo as history_repo
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

TOPIC = "prefers-pnpm.md"


def repository_of(agent: AgentHome) -> Path:
    return layout.history_root(agent.data_dir, agent.id) / "user.git"


def packs(repository: Path) -> set[str]:
    return {path.name for path in (repository / "objects" / "pack").glob("*.pack")}


async def checkpoint(client: Client) -> dict[str, Any]:
    answer = await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    scope: dict[str, Any] = answer["scopes"][0]
    return scope


async def three_versions(client: Client, agent: AgentHome) -> tuple[list[str], list[set[str]]]:
    """Three versions of the topic file; their ids and the packs each one added."""
    versions: list[str] = []
    added: list[set[str]] = []
    for text in ("first", "second", "third"):
        path = write_topic(agent.user, TOPIC)
        path.write_text(f"---\ndescription: {text}\n---\n{text}\n", encoding="utf-8")
        before = packs(repository_of(agent)) if repository_of(agent).exists() else set()
        versions.append((await checkpoint(client))["version"])
        added.append(packs(repository_of(agent)) - before)
    return versions, added


async def test_v3_a_lost_pack_is_named_damage_with_what_to_do_never_no_such_version(
    client: Client, agent: AgentHome
) -> None:
    versions, added = await three_versions(client, agent)
    repository = repository_of(agent)
    for name in added[1]:  # the middle version's objects are gone
        (repository / "objects" / "pack" / name).unlink()

    for response in (
        await client.get(f"{memory_url()}/scopes/user/changes"),
        await client.get(f"{file_url('user', TOPIC)}/history"),
        await client.post(
            f"{file_url('user', TOPIC)}/restore",
            json={"version": versions[0]},
        ),
    ):
        problem = await expect_problem(response, 503, "damaged")
        assert "docs/operations.md" in problem["detail"]
        assert "move it aside" in problem["detail"]
    assert (agent.user / TOPIC).read_text(encoding="utf-8").endswith("third\n")
    # an id that is no commit here at all is still simply not found
    unknown = "0" * 40
    response = await client.post(f"{file_url('user', TOPIC)}/restore", json={"version": unknown})
    await expect_problem(response, 404, "no version")


@pytest.mark.parametrize("damage", ["a file", "a folder without HEAD"])
async def test_v3_a_history_that_is_no_repository_says_so_and_moved_aside_starts_anew(
    client: Client, agent: AgentHome, damage: str
) -> None:
    await three_versions(client, agent)
    repository = repository_of(agent)
    shutil.rmtree(repository)
    if damage == "a file":
        repository.write_text("not a repository\n", encoding="utf-8")
    else:
        (repository / "objects").mkdir(parents=True)
    (agent.user / TOPIC).write_text("---\ndescription: fourth\n---\nfourth\n", encoding="utf-8")

    for response in (
        await client.post(f"{memory_url()}/scopes/user/checkpoint"),
        await client.get(f"{memory_url()}/scopes/user/changes"),
        await client.delete(file_url("user", TOPIC)),
    ):
        problem = await expect_problem(response, 503, "move it aside")
        assert "docs/operations.md" in problem["detail"]
    assert (agent.user / TOPIC).read_text(encoding="utf-8").endswith("fourth\n")  # not deleted

    repository.rename(repository.with_name("user.git.damaged"))
    recorded = await checkpoint(client)
    [first] = (await ok_json(await client.get(f"{memory_url()}/scopes/user/changes")))["versions"]
    assert first["version"] == recorded["version"]
    assert first["summary"].startswith("History starts")


async def test_v3_a_broken_branch_ref_is_damage_never_an_empty_history(
    client: Client, agent: AgentHome
) -> None:
    """The ref naming the newest version garbled by a disk fault: the history is not "no
    versions yet" (a record would then start a second history beside the first)."""
    await three_versions(client, agent)
    (repository_of(agent) / "refs" / "heads" / "main").write_bytes(b"\x00garbage\n")
    (agent.user / TOPIC).write_text("---\ndescription: fourth\n---\nfourth\n", encoding="utf-8")

    for response in (
        await client.get(f"{memory_url()}/scopes/user/changes"),
        await client.get(f"{file_url('user', TOPIC)}/history"),
        await client.post(f"{memory_url()}/scopes/user/checkpoint"),
    ):
        await expect_problem(response, 503, "damaged")
    assert (repository_of(agent) / "refs" / "heads" / "main").read_bytes() == b"\x00garbage\n"


async def test_v3_a_ref_file_that_is_a_fifo_is_damage_and_never_blocks_the_scope(
    client: Client, agent: AgentHome
) -> None:
    """A FIFO where git keeps the branch (a disk fault, a careless copy): read with a blocking
    open under the scope's lock, it held every later request of the scope for ever. It is a
    history that cannot be read (503, at once), and the scope's other requests go on."""
    await three_versions(client, agent)
    ref = repository_of(agent) / "refs" / "heads" / "main"
    ref.unlink()
    os.mkfifo(ref)

    for response in await asyncio.wait_for(
        asyncio.gather(
            client.get(f"{memory_url()}/scopes/user/changes"),
            client.post(f"{memory_url()}/scopes/user/checkpoint"),
        ),
        timeout=30,  # a hang guard: each answers at once
    ):
        await expect_problem(response, 503, "its refs/heads/main is a FIFO")


@pytest.mark.parametrize("code", [errno.EIO, errno.EACCES, errno.ESTALE], ids=errno.errorcode.get)
async def test_q2b_a_ref_file_that_cannot_be_read_is_named_with_what_to_do(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """The branch's ref file refused by the kernel (a disk's I/O error, no permission, a stale
    NFS handle) answered "the history cannot be read: Input/output error": no file named, no
    fix. The 503 names the file and what an operator must do."""
    await three_versions(client, agent)

    def refusing(path: Path, *args: Any, **kwargs: Any) -> tuple[bytes, os.stat_result]:
        if path.parts[-3:] == ("refs", "heads", "main"):
            raise OSError(code, os.strerror(code), str(path))
        return read_regular(path, *args, **kwargs)

    monkeypatch.setattr(history_repo, "read_regular", refusing)

    for response in (
        await client.get(f"{memory_url()}/scopes/user/changes"),
        await client.get(f"{file_url('user', TOPIC)}/history"),
    ):
        await expect_problem(
            response,
            503,
            "the history cannot be read: the service cannot read its file "
            f"user.git/refs/heads/main ({os.strerror(code)}): {READ_ACCESS_FIX}",
        )


@pytest.mark.parametrize("entry", ["HEAD", "packed-refs", "config", "objects/info/alternates"])
async def test_v3_a_file_git_opens_that_is_a_fifo_is_damage_named_at_once(
    client: Client, agent: AgentHome, entry: str
) -> None:
    """``packed-refs`` (or ``config``, ``objects/info/alternates``) as a FIFO: git itself
    opened it and waited, holding the scope's lock, until the service stopped it after
    120 s, and every request of the scope waited behind it; the sync of every machine too.
    It is a history that cannot be read, named, at once."""
    await three_versions(client, agent)
    fifo = repository_of(agent) / entry
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)

    for response in await asyncio.wait_for(
        asyncio.gather(
            client.get(f"{memory_url()}/scopes/user/changes"),
            client.post(f"{memory_url()}/scopes/user/checkpoint"),
        ),
        timeout=30,  # a hang guard: each answers at once
    ):
        await expect_problem(response, 503, f"its {entry} is a FIFO, which git")


async def test_v3_a_side_file_that_is_a_fifo_is_made_again_never_waited_on(
    client: Client, agent: AgentHome
) -> None:
    """The index of deleted files (``memory-api-deletions.json``) as a FIFO: it is remade
    from the history, and the deleted file is listed."""
    await three_versions(client, agent)
    await ok_json(await client.delete(file_url("user", TOPIC)))
    side = repository_of(agent) / "memory-api-deletions.json"
    side.unlink(missing_ok=True)
    os.mkfifo(side)

    deleted = await ok_json(
        await asyncio.wait_for(client.get(f"{memory_url()}/scopes/user/deleted"), timeout=30)
    )

    assert [item["file"] for item in deleted["files"]] == [TOPIC]


def _git_on_a_full_disk(folder: Path) -> str:
    """A ``git`` that may write no file past 16 KiB (``ulimit -f``), then says what git says
    on a full disk: the part of a pack it wrote stays, as on a real full disk."""
    real = shutil.which("git")
    assert real is not None
    script = folder / "git-on-a-full-disk"
    script.write_text(
        "#!/bin/sh\n"
        "ulimit -f 32\n"
        f'"{real}" "$@" && exit 0\n'
        "echo \"fatal: sha1 file 'tmp_pack_x' write error. Out of diskspace\" >&2\n"
        "exit 128\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


async def test_v3_a_record_the_full_disk_refuses_says_so_and_leaves_no_part_of_a_pack(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_topic(agent.user, TOPIC)
    await checkpoint(client)
    repository = repository_of(agent)
    big = "---\ndescription: big\n---\n" + os.urandom(200_000).hex() + "\n"
    (agent.user / "big.md").write_text(big, encoding="utf-8")
    monkeypatch.setattr(history_git, "git_program", lambda: _git_on_a_full_disk(tmp_path))

    for _ in range(3):
        response = await client.post(f"{memory_url()}/scopes/user/checkpoint")
        problem = await expect_problem(response, 503, "disk holding the history is full")
        assert "free space" in problem["detail"]
        assert not list((repository / "objects" / "pack").glob("tmp_*"))
    response = await client.delete(file_url("user", TOPIC))
    await expect_problem(response, 503, "is full")
    assert (agent.user / TOPIC).exists()  # a delete that could not be undone is not made

    monkeypatch.undo()
    recorded = await checkpoint(client)
    assert [item["file"] for item in recorded["files"]] == ["big.md"]
    fsck = await asyncio.to_thread(
        subprocess.run,
        ["git", f"--git-dir={repository}", "fsck", "--no-dangling"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert fsck.returncode == 0 and "garbage" not in fsck.stderr, fsck.stderr
