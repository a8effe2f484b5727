"""A-7 where the kernel offers no ``/proc/self/fd``: a swapped scope folder is still refused.

The service asks the kernel where an opened descriptor lies (``/proc/self/fd``) to tell that a
memory file or a scope folder was opened in the very folder it checked, not through a symlink
swapped in for it (the agent exchanging its scope with a link to another agent's). Without
``/proc`` (a container that mounts none) that check used to be skipped: the read, the listing
and the delete went ahead through whatever the name led to. Now a read or a listing compares
the descriptor with the entry walked to following no symlink, and a change that needs its folder
held open is refused (503, named), never made through the folder's name alone; a single file
made in a held folder (a Workspace scope's ``.workspace`` marker and its flags) is made relative
to the descriptor itself, which needs no ``/proc``. ``/proc`` is taken away here by pointing the
service's descriptor path at a folder that does not exist.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store import containment, held_writes, scopes
from memory_api.store.history import snapshot
from memory_core import atomic, layout
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, memory_url, ok_json
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url
from tests.api.test_v1_versions import TOPIC, checkpoint, seed
from tests.api.test_v2_history_and_restore import history_url
from tests.security.test_a7_scope_folder_swapped_mid_request import (
    DECOY,
    SECRET,
    beta,
    swapped,
)

__all__ = ["beta"]  # the fixture, used by name


@pytest.fixture
def no_proc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The service's process as if ``/proc`` were not mounted: no descriptor has a path."""
    nowhere = tmp_path / "no-proc"
    monkeypatch.setattr(containment, "descriptor_path", lambda fd: f"{nowhere}/{fd}", raising=False)
    for module in (containment, scopes, snapshot):
        if hasattr(module, "named_by_the_kernel"):
            monkeypatch.setattr(module, "named_by_the_kernel", lambda fd: None)


@pytest.fixture
def memory(tmp_path: Path) -> tuple[Path, Path]:
    """A memory root whose ``user`` scope holds ``a.md``, and a folder elsewhere holding
    another ``a.md`` (another agent's scope)."""
    root = tmp_path / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "a.md").write_text("own")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.md").write_text("not this one")
    (elsewhere / "b.md").write_text("not this one either")
    return root, elsewhere


@pytest.mark.usefixtures("no_proc")
def test_a7_without_proc_a_memory_file_read_through_a_swapped_folder_is_refused(
    memory: tuple[Path, Path],
) -> None:
    root, elsewhere = memory
    with swapped(root / "user", elsewhere) as swap:
        swap()

        with pytest.raises(containment.FolderSwapped):
            containment.read_regular(root / "user" / "a.md", 100, real_folder=True)

    assert containment.read_regular(root / "user" / "a.md", 100, real_folder=True)[0] == b"own"


@pytest.mark.usefixtures("no_proc")
def test_a7_without_proc_a_file_looked_at_through_a_swapped_folder_does_not_open(
    memory: tuple[Path, Path],
) -> None:
    root, elsewhere = memory
    with swapped(root / "user", elsewhere) as swap:
        swap()

        assert not containment.can_open(root / "user" / "a.md")

    assert containment.can_open(root / "user" / "a.md")


@pytest.mark.usefixtures("no_proc")
def test_a7_without_proc_a_scope_listed_through_a_swapped_folder_is_not_listed(
    memory: tuple[Path, Path],
) -> None:
    root, elsewhere = memory
    with swapped(root / "user", elsewhere) as swap:
        swap()

        assert scopes.list_folder(root / "user", real=True) is None
        with pytest.raises(containment.FolderSwapped):
            snapshot._entries(root / "user")

    listed = scopes.list_folder(root / "user", real=True)
    assert listed is not None and listed.regular == ("a.md",)
    assert [entry.name for entry in snapshot._entries(root / "user")] == ["a.md"]


@pytest.mark.usefixtures("no_proc")
def test_a7_without_proc_a_change_in_a_held_folder_is_refused_not_made_by_name(
    memory: tuple[Path, Path],
) -> None:
    root, _ = memory

    with pytest.raises(containment.FolderNotHeld), containment.held_folder(root, root / "user"):
        pytest.fail("a held folder was yielded without a path through its descriptor")


def test_a7_the_walked_check_tells_the_folder_checked_from_one_swapped_in(
    memory: tuple[Path, Path],
) -> None:
    """:func:`containment.found_at` (what stands in for ``/proc``) on its own: the descriptor
    of the real folder is found at its path, one opened through the swapped name is not, and
    so is nothing opened while a folder on the way is a symlink."""
    root, elsewhere = memory
    scope = root / "user"
    real = os.open(scope, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with swapped(scope, elsewhere) as swap:
            swap()
            through_link = os.open(scope, os.O_RDONLY | os.O_DIRECTORY)
            try:
                assert not containment.found_at(through_link, scope)
                assert not containment.found_at(real, scope)  # its name is a link now
            finally:
                os.close(through_link)
        assert containment.found_at(real, scope)
        assert not containment.found_at(real, Path("relative") / "user")
    finally:
        os.close(real)


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_a_delete_is_refused_and_leaves_both_scopes(
    client: Client, agent: AgentHome, beta: Path
) -> None:
    _, key = agent.workspace("payroll-app")
    own = agent.root / key
    (own / "notes.md").write_text(DECOY)

    answer = await client.delete(file_url(key, "notes.md"))

    problem = await expect_problem(answer, 503, NO_PROC)
    assert_no_proc_named(problem["detail"])
    assert (own / "notes.md").read_text() == DECOY
    assert (beta / "notes.md").read_text() == SECRET


NO_PROC = "/proc is not mounted where the service runs (no /proc/self/fd)"


def assert_no_proc_named(detail: str) -> None:
    """The detail says what is missing and what an operator must do: mount /proc, not "look
    into the error ENOTSUP", nor "the data dir could not be used" (the data dir is fine)."""
    assert detail.startswith(NO_PROC), detail
    assert "nothing was changed" in detail
    assert "an operator must mount /proc where the service runs" in detail
    assert "ENOTSUP" not in detail and "data dir" not in detail


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_a_restore_is_refused_naming_what_is_missing(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    (agent.user / TOPIC).write_text("overwritten\n", encoding="utf-8")

    answer = await client.post(history_url("user", TOPIC, "restore"), json={"version": good})

    problem = await expect_problem(answer, 503, NO_PROC)
    assert_no_proc_named(problem["detail"])
    assert (agent.user / TOPIC).read_text(encoding="utf-8") == "overwritten\n"


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_a_push_is_refused_and_writes_nothing(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    (agent.user / "MEMORY.md").write_text("- [A](a.md) a\n", encoding="utf-8")
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")

    with pytest.raises(AssertionError, match="503"):  # git: "HTTP 503"
        await laptop.push()

    assert not (agent.user / "b.md").exists()
    said = await client.get(  # why this machine's push failed, as its plugin asks
        f"{memory_url()}/git/user.git/git-receive-pack", headers={"X-Memory-Machine": MACHINE}
    )
    problem = await expect_problem(said, 503, NO_PROC)
    assert_no_proc_named(problem["detail"])


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_a_topic_file_is_still_read_from_its_own_folder(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("payroll-app")
    (agent.root / key / "notes.md").write_text(DECOY)

    answer = await ok_json(await client.get(file_url(key, "notes.md")))

    assert "alpha's own note" in str(answer)


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_the_service_says_so_once_at_start(
    caplog: pytest.LogCaptureFixture, aiohttp_client: AiohttpClient, settings: Settings
) -> None:
    """A service started without ``/proc`` can make no Workspace scope and refuses every
    delete: it said nothing at start, ``/readyz`` was ok, and each refusal came one request at
    a time. Its start names what it cannot do and what an operator must do."""
    with caplog.at_level(logging.ERROR, logger="memory_api.app"):
        await aiohttp_client(create_app(settings))

    [said] = [r.getMessage() for r in caplog.records if "/proc is not mounted" in r.getMessage()]
    assert "deletes, restores and pushes are refused" in said
    assert "no Workspace scope can be made" not in said  # those are made without /proc
    assert "mount /proc where the service runs" in said


@pytest.mark.usefixtures("no_proc")
async def test_a7_without_proc_a_session_start_makes_the_workspace_scope_and_its_marker(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    """A service without ``/proc`` answered every Session start in a new Workspace with "could
    not write its .workspace marker": the marker is one file made in the held folder, which
    needs the descriptor, not a path to it."""
    workspace = tmp_path / "new-app"
    workspace.mkdir()

    answer = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )

    markers = [m for m in agent.root.glob(f"*/{layout.MARKER_FILE}") if m.parent.name != "user"]
    assert [m.read_text() for m in markers] == [f"{workspace.resolve()}\n"], answer
    assert "could not write" not in str(answer)


@pytest.mark.usefixtures("no_proc")
def test_a7_without_proc_a_file_made_in_a_held_folder_is_made_there_not_through_a_swap(
    memory: tuple[Path, Path],
) -> None:
    """Made, replaced and removed relative to the folder walked from the root: a scope
    swapped for a symlink to another folder is refused, and that folder is left as it was."""
    root, elsewhere = memory
    scope = root / "user"

    assert held_writes.create_in(root, scope, "made", b"one\n")
    assert not held_writes.create_in(root, scope, "made", b"two\n")
    held_writes.replace_in(root, scope, "kept", b"three\n")
    held_writes.remove_in(root, scope, "made")
    with swapped(scope, elsewhere) as swap:
        swap()
        with pytest.raises(containment.FolderSwapped):
            held_writes.create_in(root, scope, "made", b"one\n")

    assert sorted(p.name for p in scope.iterdir()) == ["a.md", "kept"]
    assert (scope / "kept").read_bytes() == b"three\n"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["a.md", "b.md"]


def test_a7_a_file_removed_in_a_held_folder_is_removed_for_good_its_folder_synced(
    memory: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a made or replaced file, a removed one stays removed after a crash: the folder held
    open is fsynced after the unlink (once a file was removed; nothing when none was there)."""
    root, _ = memory
    scope = root / "user"
    synced: list[tuple[int, bool]] = []
    real_sync = atomic.fsync_directory

    def noting_sync(path: str, *, dir_fd: int | None = None) -> None:
        assert dir_fd is not None
        synced.append((os.stat(path, dir_fd=dir_fd).st_ino, (scope / "a.md").exists()))
        real_sync(path, dir_fd=dir_fd)

    monkeypatch.setattr(held_writes, "fsync_directory", noting_sync)

    held_writes.remove_in(root, scope, "a.md")
    held_writes.remove_in(root, scope, "a.md")

    assert synced == [(scope.stat().st_ino, False)]  # the folder walked to, after the unlink
    assert not (scope / "a.md").exists()
