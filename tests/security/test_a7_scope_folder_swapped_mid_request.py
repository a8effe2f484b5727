"""A-7: a scope folder swapped for a symlink between the service's check and its use.

The agent writes in its memory root, so it can exchange its own scope folder with a symlink to
another agent's scope (``renameat2(RENAME_EXCHANGE)``, over and over from a background job).
Every path is checked inside the memory root first, but the check and the use were two walks
of the same names: measured against the real service, an alpha token's ``GET`` of a topic file
answered project beta's notes 11 times in 300, and a ``DELETE`` removed beta's file on the first
try. Here the swap is made at the exact moment, after the check and before the use, so each
case is deterministic: a read is refused (named, 503; an index not injected) rather than
answered from the other folder, and a delete, a restore, a machine's push or a Session start's
marker works in the folder it checked, held open.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import containment, held_writes, listings, pruning
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.history import restore, snapshot
from memory_api.store.scopes import list_folder, topic_entry
from memory_api.store.sync import push
from memory_core import scope_write
from memory_core.keys import key_for_real_path
from memory_core.swap import exchange, open_waiting_for_lease

from tests.api.conftest import (
    JSON_TYPE,
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
)
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds

SECRET = "---\nname: payroll\ndescription: beta's\n---\nBETA SECRET payroll figures\n"
DECOY = "---\nname: payroll\ndescription: alpha's\n---\nalpha's own note\n"


@pytest.fixture
async def beta(client: Client, agent: AgentHome) -> Path:
    """Agent ``other`` of project ``beta``: its user scope holds a secret and an index."""
    await create_agent(client, "other", project="beta")
    scope = agent.data_dir / "agents" / "other" / "agent_state" / "memory" / "user"
    scope.mkdir(parents=True, exist_ok=True)
    (scope / "notes.md").write_text(SECRET)
    (scope / "MEMORY.md").write_text("- [Payroll](notes.md) BETA INDEX LINE\n")
    return scope


@contextmanager
def swapped(scope: Path, other: Path) -> Iterator[Callable[[], None]]:
    """A function that exchanges ``scope`` with a symlink to ``other`` (the agent's move);
    whatever it did is undone afterwards."""
    link = scope.with_name("swap-link")
    link.symlink_to(other)
    done: list[bool] = []

    def swap() -> None:
        if not done:
            assert exchange(scope, link)
            done.append(True)

    try:
        yield swap
    finally:
        if done:
            exchange(scope, link)
        link.unlink()


def _swap_before_opening(
    monkeypatch: pytest.MonkeyPatch, name: str, swap: Callable[[], None]
) -> None:
    """Swap right before the service opens a file called ``name``: after every check."""

    def opening(
        path: Path | str, flags: int, wait: float = 2.0, *, dir_fd: int | None = None
    ) -> int:
        if Path(path).name == name:
            swap()
        return open_waiting_for_lease(path, flags, wait, dir_fd=dir_fd)

    monkeypatch.setattr(containment, "open_waiting_for_lease", opening)


async def test_a7_a_topic_file_read_through_a_scope_swapped_after_the_check_is_refused(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    (agent.root / key / "notes.md").write_text(DECOY)
    with swapped(agent.root / key, beta) as swap:
        _swap_before_opening(monkeypatch, "notes.md", swap)

        answer = await client.get(file_url(key, "notes.md"))

        problem = await expect_problem(answer, 503, "changed while it was opened")
        assert "BETA" not in problem["detail"]
    assert (beta / "notes.md").read_text() == SECRET


async def test_a7_an_index_read_through_a_scope_swapped_after_the_check_is_never_injected(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, key = agent.workspace("payroll-app")
    (agent.root / key / "MEMORY.md").write_text("- [Own](own.md) alpha's line\n")
    body = {"workspace": str(workspace)}
    with swapped(agent.root / key, beta) as swap:
        _swap_before_opening(monkeypatch, "MEMORY.md", swap)

        answer = await client.post(f"{memory_url()}/session-start", json=body, headers=JSON_TYPE)

        started = await ok_json(answer)
        assert "BETA" not in started["memory"]


async def test_a7_a_delete_through_a_scope_swapped_after_the_check_leaves_the_other_scope(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    own = agent.root / key
    (own / "notes.md").write_text(DECOY)
    (own / "MEMORY.md").write_text("- [Payroll](notes.md) alpha's line\n")
    beta_index = (beta / "MEMORY.md").read_text()
    with swapped(own, beta) as swap:

        def check_then_swap(root: Path, scope: Path, name: str) -> object:
            found = topic_entry(root, scope, name)
            swap()
            return found

        monkeypatch.setattr(pruning, "topic_entry", check_then_swap)

        deleted = await ok_json(await client.delete(file_url(key, "notes.md")))

        assert deleted["removedIndexLines"] == ["- [Payroll](notes.md) alpha's line"]
    assert (beta / "notes.md").read_text() == SECRET
    assert (beta / "MEMORY.md").read_text() == beta_index
    assert not (own / "notes.md").exists()  # the folder it checked, wherever its name went


def test_a7_a_held_folder_is_walked_from_the_root_following_no_symlink(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "user").mkdir(parents=True)
    (root / "link").symlink_to(root / "user")

    with containment.held_folder(root, root / "user") as held:
        (held / "a.md").write_text("a")
    with pytest.raises(containment.FolderSwapped), containment.held_folder(root, root / "link"):
        pass

    assert (root / "user" / "a.md").read_text() == "a"


def test_a7_a_memory_file_whose_folder_is_swapped_before_the_open_is_not_read(
    tmp_path: Path,
) -> None:
    root = tmp_path / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "a.md").write_text("own")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.md").write_text("not this one")
    with swapped(root / "user", elsewhere) as swap:
        swap()

        with pytest.raises(containment.FolderSwapped):
            containment.read_regular(root / "user" / "a.md", 100, real_folder=True)

    assert containment.read_regular(root / "user" / "a.md", 100, real_folder=True)[0] == b"own"


def _opened_files(monkeypatch: pytest.MonkeyPatch, before: Callable[[], None]) -> list[int]:
    """The inodes of the files the service opens from now on, ``before`` run right before each
    open (after every check)."""
    inodes: list[int] = []

    def opening(
        path: Path | str, flags: int, wait: float = 2.0, *, dir_fd: int | None = None
    ) -> int:
        before()
        fd = open_waiting_for_lease(path, flags, wait, dir_fd=dir_fd)
        inodes.append(os.fstat(fd).st_ino)
        return fd

    monkeypatch.setattr(containment, "open_waiting_for_lease", opening)
    return inodes


def _own_and_elsewhere(tmp_path: Path) -> tuple[Path, Path]:
    """A memory root whose ``user`` scope holds ``a.md``, and another folder holding one."""
    root = tmp_path / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "a.md").write_text("own")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.md").write_text("not this one")
    return root, elsewhere


def test_a7_a_page_s_look_at_whether_a_file_opens_opens_nothing_through_a_swapped_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``can_open`` (a listing page's look at whether a file it will not read opens) holds the
    containment of a read: the scope folder swapped for a symlink since the listing, the file
    the link leads to is not opened at all (A-7), and the file is said not to open."""
    root, elsewhere = _own_and_elsewhere(tmp_path)
    opened = _opened_files(monkeypatch, lambda: None)
    with swapped(root / "user", elsewhere) as swap:
        swap()

        assert not containment.can_open(root / "user" / "a.md")

    assert opened == []
    assert containment.can_open(root / "user" / "a.md")
    assert opened == [(root / "user" / "a.md").stat().st_ino]


def test_a7_a_folder_swapped_between_can_open_s_check_and_its_open_is_not_opened_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The swap made after the folder's check, right before the file's open: the file opened
    is the one in the folder checked (held open), never the other folder's."""
    root, elsewhere = _own_and_elsewhere(tmp_path)
    own = (root / "user" / "a.md").stat().st_ino
    with swapped(root / "user", elsewhere) as swap:
        opened = _opened_files(monkeypatch, swap)

        assert containment.can_open(root / "user" / "a.md")

    assert opened == [own]
    assert (elsewhere / "a.md").stat().st_ino not in opened


def test_a7_can_open_says_no_for_a_fifo_a_symlink_and_a_file_gone_without_hanging(
    tmp_path: Path,
) -> None:
    """A FIFO named as a topic file (no writer: an open that blocked would hang the page), a
    file swapped for a symlink, a file gone: none opens as a read would read it."""
    scope = tmp_path / "memory" / "user"
    scope.mkdir(parents=True)
    os.mkfifo(scope / "pipe.md")
    (scope / "target.md").write_text("a")
    (scope / "link.md").symlink_to(scope / "target.md")

    assert not containment.can_open(scope / "pipe.md")
    assert not containment.can_open(scope / "link.md")
    assert not containment.can_open(scope / "gone.md")
    assert containment.can_open(scope / "target.md")


async def test_a7_a_restore_through_a_scope_swapped_after_the_check_writes_only_its_own(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    own = agent.root / key
    (own / "notes.md").write_text(DECOY)
    (own / "MEMORY.md").write_text("- [Payroll](notes.md) alpha's line\n")
    deleted = await ok_json(await client.delete(file_url(key, "notes.md")))
    (beta / "notes.md").unlink()  # nothing at that name there: a write would be taken
    beta_index = (beta / "MEMORY.md").read_text()
    with swapped(own, beta) as swap:

        def swap_then_create(path: Path, data: bytes) -> bool:
            swap()
            return create_new_bytes(path, data)

        monkeypatch.setattr(restore, "create_new_bytes", swap_then_create)

        answer = await client.post(
            f"{file_url(key, 'notes.md')}/restore", json={"version": deleted["restoreVersion"]}
        )

        restored = await ok_json(answer)
    assert not (beta / "notes.md").exists()
    assert (beta / "MEMORY.md").read_text() == beta_index
    assert restored["indexLinesAdded"] == ["- [Payroll](notes.md) alpha's line"]
    assert (own / "notes.md").read_text() == DECOY
    assert "alpha's line" in (own / "MEMORY.md").read_text()


async def test_a7_a_push_merged_into_a_scope_swapped_after_the_check_writes_only_its_own(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop = GitMachine(agent.tmp / "laptop" / "user", git_url(client), MACHINE, "laptop")
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n"})
    await laptop.fetch()
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")
    beta_files = names(beta)
    with swapped(agent.user, beta) as swap:

        def swap_then_apply(scope: Path, *args: Any, **kwargs: Any) -> Any:
            swap()
            return scope_write.apply_scope(scope, *args, **kwargs)

        monkeypatch.setattr(push, "apply_scope", swap_then_apply)

        await asyncio.to_thread(laptop.run, "add", "-A")
        await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "from the laptop")
        # merged, then not recorded while the scope's name is a link: a 503 the machine retries
        await asyncio.to_thread(
            laptop.run, "push", "-q", "origin", f"+HEAD:{laptop.ref}", check=False
        )

    assert names(beta) == beta_files
    assert (agent.user / "b.md").read_text().endswith("from the laptop\n")


async def test_a7_a_marker_made_in_a_scope_swapped_after_the_check_lands_only_in_its_own(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = agent.tmp / "src" / "fresh-app"
    workspace.mkdir(parents=True)
    key = key_for_real_path(str(workspace.resolve()))
    beta_files = names(beta)
    undo = ExitStack()
    swapped_in: list[bool] = []  # whether the scope's name led to beta's folder while written

    def swap_then_write(fd: int, name: str, data: bytes) -> str:
        if name == ".workspace":  # the folder was made, checked and held: swap it now
            undo.enter_context(swapped(agent.root / key, beta))()
            swapped_in.append((agent.root / key).resolve() == beta.resolve())
        return temp_written(fd, name, data)

    temp_written = held_writes._temp_written
    monkeypatch.setattr(held_writes, "_temp_written", swap_then_write)
    with undo:
        answer = await client.post(
            f"{memory_url()}/session-start", json={"workspace": str(workspace)}, headers=JSON_TYPE
        )
        started = await ok_json(answer)

    assert swapped_in == [True]  # the marker was written while the swap was in place
    assert started["workspaceMemoryKey"] == key
    assert names(beta) == beta_files
    assert (agent.root / key / ".workspace").read_text() == f"{workspace.resolve()}\n"


async def test_a7_a_scope_listed_through_a_folder_swapped_after_the_check_names_none_of_its_files(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    (agent.root / key / "own.md").write_text(DECOY)
    (beta / "salaries-2027.md").write_text(SECRET)
    with swapped(agent.root / key, beta) as swap:

        def swap_then_list(scope: Path | str, **how: bool) -> object:
            swap()  # the scope was checked and its folder looked at: listed next
            return list_folder(scope, **how)

        monkeypatch.setattr(listings, "list_folder", swap_then_list)

        answer = await client.get(f"{memory_url()}/scopes/{key}/files")

        text = await answer.text()
    assert "salaries-2027" not in text
    assert "BETA" not in text


async def test_a7_a_record_of_a_scope_swapped_after_the_check_names_none_of_its_files(
    client: Client, agent: AgentHome, beta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    (agent.root / key / "own.md").write_text(DECOY)
    await ok_json(await client.post(f"{memory_url()}/scopes/{key}/checkpoint"))
    (beta / "salaries-2027.md").write_text(SECRET)
    listed = snapshot._entries
    with swapped(agent.root / key, beta) as swap:

        def swap_then_list(scope: Path) -> object:
            swap()  # the scope was checked and is about to be listed for the record
            return listed(scope)

        monkeypatch.setattr(snapshot, "_entries", swap_then_list)

        await client.post(f"{memory_url()}/scopes/{key}/checkpoint")

    monkeypatch.undo()
    changes = await client.get(f"{memory_url()}/scopes/{key}/changes")
    text = await changes.text()
    assert "salaries-2027" not in text
    assert '"change":"deleted"' not in text.replace(" ", "")  # own.md was never gone
