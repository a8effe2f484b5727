"""V-1, V-2: a change the history could not record says why, until a record works.

An agent's write is recorded by its post-write hook (``POST …/memory/versions``). When the disk
holding the history refuses that record (full, mounted read-only, no permission), the file's
history showed it as ``unrecorded`` and nothing more: the page said a shell or an editor wrote
it and offered "Record it now", which the same disk refused again. The history now says why
the last record of the scope failed (``recordFailed``), in the kernel's words with what an
operator must do, until a record of the scope works; and a git refusal is named by its cause
(a read-only file system was "the history refused the change or read", with a host path).

The full disk is real (a tmpfs mounted on the agent's history folder, filled to its last
byte), and so is the read-only one (a read-only bind mount); no permission cannot be real for
root, which writes past a mode, so it is injected at the one place the history's objects are
written: the ``git`` program the service runs (:func:`refusing_git`), which says what git says
when the kernel refuses it a temporary pack file.
"""

from __future__ import annotations

import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.history import git as history_git
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, memory_url, ok_json
from tests.support.read_only_mount import read_only
from tests.support.small_disk import fill, small_disk

TOPIC = "uv.md"
RECORD = {"scope": "user", "harness": "claude-code", "tool": "Write"}
"""What a post-write hook sends after an agent's write to the user scope."""


def refusing_git(folder: Path) -> str:
    """A ``git`` whose ``fast-import`` (the one command that writes a version's objects) is
    refused as the kernel refuses a folder without write permission, in git's own words;
    every other command is the real git."""
    real = shutil.which("git")
    assert real is not None
    script = folder / "git-without-write-permission"
    script.write_text(
        "#!/bin/sh\n"
        'for arg in "$@"; do\n'
        '  if [ "$arg" = fast-import ]; then\n'
        "    echo \"fatal: Unable to create temporary file 'objects/pack/tmp_pack_x': "
        'Permission denied" >&2\n'
        "    exit 128\n"
        "  fi\n"
        "done\n"
        f'exec "{real}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


@pytest.fixture
def history_folder(agent: AgentHome) -> Iterator[Path]:
    """The agent's history folder on a small disk of its own (unmounted after the test)."""
    folder = layout.history_root(agent.data_dir, agent.id)
    folder.mkdir(parents=True, exist_ok=True)
    with small_disk(folder) as mounted:
        yield mounted


@contextmanager
def full(folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    filler = fill(folder)
    yield
    filler.unlink()


@contextmanager
def mounted_read_only(
    folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[None]:
    with read_only(folder):
        yield


@contextmanager
def no_permission(folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setattr(history_git, "git_program", lambda: refusing_git(tmp_path))
    yield
    monkeypatch.undo()


Refusal = Callable[[Path, pytest.MonkeyPatch, Path], AbstractContextManager[None]]


@pytest.mark.parametrize(
    ("refusal", "why", "fix"),
    [
        (full, "no space left on the disk", "free space on the data dir's volume"),
        (mounted_read_only, "Read-only file system", "mount the file system holding it read-write"),
        (
            no_permission,
            "Permission denied",
            "give the account the service runs as read and write access to the data dir's "
            "history folder",
        ),
    ],
    ids=["full", "read-only", "no permission"],
)
async def test_v1_a_write_the_disk_would_not_record_says_why_until_a_record_works(
    client: Client,
    agent: AgentHome,
    history_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    refusal: Refusal,
    why: str,
    fix: str,
) -> None:
    note = agent.user / TOPIC
    note.write_text("---\ndescription: uv\n---\nuse uv\n", encoding="utf-8")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    history_url = f"{file_url('user', TOPIC)}/history"

    with refusal(history_folder, monkeypatch, tmp_path):
        note.write_text("---\ndescription: uv\n---\nuse uv, never pip\n", encoding="utf-8")
        refused = await client.post(f"{memory_url()}/versions", json=RECORD)
        said = await expect_problem(refused, 503, why)
        assert fix in said["detail"]
        assert str(agent.data_dir) not in said["detail"]  # no host path to a client

        history: dict[str, Any] = await ok_json(await client.get(history_url))
        assert history["unrecorded"] is True
        assert history["unrecordable"] is None  # the file can be kept: the disk refused it
        assert history["recordFailed"] == said["detail"]

    await ok_json(await client.post(f"{memory_url()}/versions", json=RECORD))
    history = await ok_json(await client.get(history_url))
    assert history["unrecorded"] is False
    assert history["recordFailed"] is None
    assert len(history["versions"]) == 2


async def test_v1_a_change_made_after_the_last_record_worked_names_no_failure(
    client: Client, agent: AgentHome
) -> None:
    note = agent.user / TOPIC
    note.write_text("---\ndescription: uv\n---\nuse uv\n", encoding="utf-8")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    note.write_text("---\ndescription: uv\n---\nedited in an editor\n", encoding="utf-8")

    history = await ok_json(await client.get(f"{file_url('user', TOPIC)}/history"))

    assert history["unrecorded"] is True
    assert history["recordFailed"] is None


async def test_v1_records_refused_by_a_full_disk_leave_nothing_behind_in_the_history(
    client: Client, agent: AgentHome, history_folder: Path, tmp_path: Path
) -> None:
    """Each ``fast-import`` the disk refused left a crash report of its own in the scope's
    history (``fast_import_crash_<pid>``, mode ``0644`` where every file git makes is
    owner-only), one more per refused record, for good: a full disk refuses every Session
    start's record until it is freed. Right: a refused record leaves the history as it was."""
    note = agent.user / TOPIC
    note.write_text("---\ndescription: uv\n---\nuse uv\n", encoding="utf-8")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    repository = history_folder / "user.git"
    before = sorted(path.name for path in repository.iterdir())

    filler = fill(history_folder)
    for attempt in range(3):
        note.write_text(f"---\ndescription: uv\n---\nuse uv {attempt}\n", encoding="utf-8")
        await expect_problem(
            await client.post(f"{memory_url()}/versions", json=RECORD), 503, "no space left"
        )
    filler.unlink()

    assert sorted(path.name for path in repository.iterdir()) == before
