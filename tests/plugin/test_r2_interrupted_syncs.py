"""R-1, R-2: a sync cut off half-way, or made with a machine's clock far off, loses nothing.

Two machines hold unsent edits of one note and an index line each. One machine's sync is
killed (``kill -9`` of the sync and its git) just before its push, or just after the service
took the push but before the machine heard back; its push finds the service gone after the
fetch; or its clock runs a year behind or days ahead. Each time, the next syncs end with every
line both machines wrote on the service and on both machines, said once (one kept copy, never
two), and the push that could not go says why and waits. The kill waits on the git stand-in's
own signal (it writes to a FIFO at the point it stops), never on a timer.
"""

from __future__ import annotations

import datetime
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, synced, versions
from tests.support.scope_texts import lines_of, texts

SYNC = """
import sys
from pathlib import Path
from harness_memory.remote import RemoteCopy
url, token, agent, state = sys.argv[1:5]
RemoteCopy(url=url, token=token, project="acme", agent=agent, state_dir=Path(state),
           timeout=30.0).sync(None)
"""


def git_stand_in(folder: Path, push: str, *, before: str = "") -> dict[str, str]:
    """An environment whose ``git`` runs ``before`` (shell), then for a push ``push`` in place
    of the real git's push (``REAL`` there is the real git), else the real git."""
    real = shutil.which("git")
    assert real is not None
    folder.mkdir()
    stand_in = folder / "git"
    stand_in.write_text(
        f'#!/bin/sh\n{before}\ncase " $* " in *" push "*) {push.replace("REAL", real)};; esac\n'
        f"exec '{real}' \"$@\"\n",
        encoding="utf-8",
    )
    stand_in.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


@pytest.fixture
def edited(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> tuple[Path, RemoteCopy, RemoteCopy, set[str]]:
    """The service's user scope, a laptop and a desktop that each edited ``a.md`` and added a
    note with its index line since they synced, and every line the two hold."""
    user = layout.memory_root(shared_service.data_dir, new_agent) / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / layout.INDEX_FILE).write_text("- [A](a.md) about a\n", encoding="utf-8")
    (user / "a.md").write_text("base\n", encoding="utf-8")
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    for copy, who in ((laptop, "laptop"), (desktop, "desktop")):
        synced(copy)
        scope = copy.memory_root / "user"
        (scope / "a.md").write_text(f"base\n{who}'s line\n", encoding="utf-8")
        (scope / f"{who}.md").write_text(f"{who}'s note\n", encoding="utf-8")
        append(scope / layout.INDEX_FILE, f"- [{who}]({who}.md) {who}'s note\n")
    written = lines_of(laptop.memory_root / "user") | lines_of(desktop.memory_root / "user")
    return user, laptop, desktop, written


def assert_nothing_lost(user: Path, written: set[str], *copies: RemoteCopy) -> None:
    for copy in copies:
        synced(copy)
    for copy in copies:
        assert texts(copy.memory_root / "user") == texts(user), copy.memory_root
    assert written <= lines_of(user)
    kept = [name for name in texts(user) if name.startswith("a-")]
    assert len(kept) == 1, texts(user)  # the two edits of a.md: one kept copy, never two


@pytest.mark.parametrize("when", ["before-the-push", "after-the-push"])
def test_r2_a_sync_killed_around_its_push_loses_nothing_and_sends_once(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    edited: tuple[Path, RemoteCopy, RemoteCopy, set[str]],
    when: str,
) -> None:
    user, laptop, desktop, written = edited
    stopped, held = tmp_path / "stopped", tmp_path / "held"
    os.mkfifo(stopped)
    os.mkfifo(held)  # never opened for writing: reading it waits until the kill
    first = 'REAL "$@"; ' if when == "after-the-push" else ""
    env = git_stand_in(tmp_path / "bin", f"{first}echo $$ > '{stopped}'; exec cat '{held}'")
    state = laptop.remote_dir.parent
    args = [shared_service.url, shared_service.token, new_agent, str(state)]
    with subprocess.Popen(
        [sys.executable, "-c", SYNC, *args],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    ) as sync:
        fd = os.open(stopped, os.O_RDWR)  # never blocks, never reads an end of file
        try:
            ready, _, _ = select.select([fd], [], [], 120)
            assert ready, sync.communicate()[1] if sync.poll() is not None else "no push began"
            os.read(fd, 64)
        finally:
            os.close(fd)
        os.killpg(sync.pid, signal.SIGKILL)
        assert sync.wait() == -signal.SIGKILL
    assert [scope.waiting for scope in laptop.status()] == [True]

    assert_nothing_lost(user, written, laptop, desktop, laptop)


def test_r2_a_push_that_finds_the_service_gone_after_the_fetch_waits_and_goes_next_time(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    edited: tuple[Path, RemoteCopy, RemoteCopy, set[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user, laptop, desktop, written = edited
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        gone = f"127.0.0.1:{closed.getsockname()[1]}"
    here = shared_service.url.removeprefix("http://").split("/")[0]
    env = git_stand_in(tmp_path / "bin", f'set -- $(printf "%s\\n" "$@" | sed "s/{here}/{gone}/")')
    monkeypatch.setenv("PATH", env["PATH"])
    cut_off = machine(shared_service, new_agent, tmp_path, "laptop")  # git found on that PATH
    [result] = cut_off.sync(None)
    monkeypatch.undo()

    assert not result.ok and result.waiting
    assert result.error is not None and gone in result.error
    assert [scope.waiting for scope in laptop.status()] == [True]
    assert_nothing_lost(user, written, laptop, desktop, laptop)


@pytest.mark.parametrize("skew", ["-400 days", "+3 days"])
def test_r2_a_machine_whose_clock_is_far_off_loses_nothing_and_its_change_reads_as_new(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    edited: tuple[Path, RemoteCopy, RemoteCopy, set[str]],
    monkeypatch: pytest.MonkeyPatch,
    skew: str,
) -> None:
    """The machine's commits carry its clock's time; the service's versions carry its own, so
    a look at what changed in the last hours finds the machine's change whatever its clock."""
    user, laptop, desktop, written = edited
    looked = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    dated = f'd="$(date -R -d "{skew}")"; export GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d"'
    env = git_stand_in(tmp_path / "bin", ":", before=dated)
    monkeypatch.setenv("PATH", env["PATH"])
    skewed = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(skewed)
    monkeypatch.undo()

    assert_nothing_lost(user, written, desktop, laptop, desktop)
    since = looked.strftime("%Y-%m-%dT%H:%M:%SZ")
    authors: list[dict[str, str]] = []
    for version in versions(shared_service, new_agent):
        author = version["author"]
        assert isinstance(author, dict)
        authors.append(author)
    assert all(author["recordedAt"] >= since for author in authors), authors
    assert [author["source"] for author in authors].count("sync") == 2
