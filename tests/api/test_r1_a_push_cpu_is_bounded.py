"""R-1, Q-2: git taking a push uses no more CPU than the sync timeout, and none after it
(attackfix56).

A 2 MB pack declaring a 2 GiB blob of zeros, among 100 objects so ``git index-pack`` streams it
(no memory cap reached), took 35 s of CPU; at the sync timeout the service answered 503 but
killed only ``git http-backend``: ``receive-pack`` and ``index-pack`` ran on, orphaned, while
the scope's lock was free again (a pack of 4 KB doing as much, 100 deltas each making 64 MiB,
is read whole before the timeout, so its index-pack ran on to its end). git now runs in its own
process group, killed whole at the timeout, and under a CPU limit (``ulimit -t``) a second above
the timeout, rounded up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.settings import Settings
from memory_api.store.history.git import HistoryUnavailable, init_repository
from memory_api.store.sync.backend import (
    MachineRef,
    cgi_command,
    cgi_environment,
    push_data_cap,
    run_buffered,
)
from memory_core import layout

from tests.api.conftest import AgentHome, Client
from tests.api.test_r1_a_delta_bomb_is_refused import (
    PUSH_LIMIT,
    costly_deltas,
    fillers,
    pack_of,
)
from tests.api.test_r1_git_sync import MACHINE, scope_holds
from tests.api.test_r1_push_report import pkt
from tests.support.receive_pack import post_push

REF = f"refs/machines/{MACHINE}"
ZERO = "0" * 40
BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # git's empty blob: any id will do
_PF_EXITING = 0x4
"""The kernel's task flag (``/proc/<pid>/stat`` field 9) of a process on its way out."""
_SIGKILL_BIT = 1 << (9 - 1)
"""SIGKILL in ``/proc/<pid>/status``'s pending signal masks (``SigPnd``, ``ShdPnd``)."""


def _push_body() -> bytes:
    command = f"{ZERO} {BLOB} {REF}\0report-status".encode()
    return pkt(command) + b"0000" + pack_of(fillers(100) + costly_deltas(100))


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir, sync_timeout=1.0)


def _running_in(folder: Path) -> Iterator[int]:
    """The processes whose working folder is ``folder`` or under it (a zombie has none)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = (entry / "cwd").readlink()
        except OSError:
            continue
        if cwd == folder or folder in cwd.parents:
            yield int(entry.name)


def _left_running(pid: int) -> str | None:
    """How process ``pid`` runs on, read once from its own state, or None when it does not: it
    is gone, a zombie, exiting or has SIGKILL pending (killed: nothing it does counts now)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
        status = (Path("/proc") / str(pid) / "status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat.rpartition(")")[2].split()  # after the command name, which may hold spaces
    state, flags = fields[0], int(fields[6])
    pending = 0
    for line in status.splitlines():
        name, _, mask = line.partition(":")
        if name in ("SigPnd", "ShdPnd"):
            pending |= int(mask, 16)
    if state in ("Z", "X") or flags & _PF_EXITING or pending & _SIGKILL_BIT:
        return None
    return f"{stat[stat.index('(') + 1 : stat.rindex(')')]} in state {state}"


async def test_r1_a_push_past_the_sync_timeout_leaves_no_git_running(
    client: Client, agent: AgentHome
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    history = layout.history_root(agent.data_dir, agent.id)

    answer = await post_push(client, _push_body())

    assert answer.status == 503, await answer.text()
    left = {pid: _left_running(pid) for pid in _running_in(history.resolve())}
    assert not any(left.values()), f"git still running after the 503: {left}"


def test_r1_a_git_past_the_timeout_is_killed_with_every_process_it_started(
    tmp_path: Path,
) -> None:
    """A process git started that holds none of its pipes (so the service's wait for git's
    output does not outlast it) is killed at the timeout too, with git's process group."""
    started = tmp_path / "started"
    script = (
        f"sleep 600 </dev/null >/dev/null 2>&1 & echo $! >{started}.part && "
        f"mv {started}.part {started} && exec sleep 600"
    )

    with pytest.raises(HistoryUnavailable, match="longer than"):
        run_buffered(["sh", "-c", script], {"PATH": os.environ["PATH"]}, b"", timeout=3)

    child = int(started.read_text())
    assert _left_running(child) is None, f"still running after the timeout: {child}"


def test_r1_a_push_costing_git_more_cpu_than_its_limit_is_refused(tmp_path: Path) -> None:
    repository = tmp_path / "user.git"
    init_repository(repository)
    body = _push_body()
    env = cgi_environment(
        repository,
        "git-receive-pack",
        service="git-receive-pack",
        push_ref=MachineRef(MACHINE),
        method="POST",
        query="",
        content_type="application/x-git-receive-pack-request",
        content_length=len(body),
        user="laptop",
    )
    command = cgi_command(push_data_cap(PUSH_LIMIT), cpu_seconds=1)

    head, report = run_buffered(command, env, body, timeout=600)

    assert head.status == 200
    assert b"unpack index-pack abnormal exit" in report, report
    assert b"ng " + REF.encode() + b" unpacker error" in report, report


_UNDER_A_HARD_LIMIT = """
import resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_DATA, (int(sys.argv[2]), int(sys.argv[2])))
from memory_api.store.sync.backend import cgi_command, push_data_cap
env = {"REQUEST_METHOD": "GET", "PATH_INFO": "/none.git/info/refs", "QUERY_STRING": "",
       "GIT_PROJECT_ROOT": sys.argv[1], "GATEWAY_INTERFACE": "CGI/1.1"}
done = subprocess.run(cgi_command(push_data_cap(1 << 20)), env=env, capture_output=True)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
"""
"""The service's git, run from a process whose hard data limit is ``argv[2]`` bytes."""


def test_r1_a_git_runs_under_a_hosts_lower_hard_data_limit(tmp_path: Path) -> None:
    hard = 192 * 1024 * 1024  # systemd LimitDATA=, a container's ulimit: below git's cap
    assert hard < push_data_cap(1 << 20)

    done = subprocess.run(
        [sys.executable, "-c", _UNDER_A_HARD_LIMIT, str(tmp_path), str(hard)],
        capture_output=True,
        check=True,
    )

    assert done.stdout.startswith(b"Status: 404"), done.stderr
    assert b"ulimit" not in done.stderr, done.stderr
