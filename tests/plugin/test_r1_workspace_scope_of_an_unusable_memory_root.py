"""R-1, A-7: a Workspace scope's fetch answered 404 because the memory root cannot be used.

The service answers a fetch of a Workspace scope it does not hold 404 ("no scope yet": nothing
to fetch), and a memory root that a symlink (or a file) stands in place of 404 too (A-7: never
followed). ``harness-memory sync`` read every 404 of a Workspace fetch as the first, so the
Workspace's line said "nothing saved yet, here or on the service" while the user scope's line
beside it gave the service's word on the broken root. Right: the service names the memory-root
404 by its problem ``type`` (a "no scope" 404 is ``about:blank``), and the sync gives that 404's
``detail`` in the Workspace scope's line as in the user scope's; a scope truly not there yet is
still "nothing saved yet".
"""

from __future__ import annotations

import shutil
from pathlib import Path

from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_cli import Machine

BROKEN_ROOT = (
    "memory service answered 404: the memory root of agent {agent!r} is not a plain directory"
)


def _lines(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.splitlines() if not line.startswith(" "))


def test_r1_a_memory_root_the_service_never_follows_is_said_for_the_workspace_scope_too(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    key = laptop.start("s1")["key"]
    root = layout.memory_root(shared_service.data_dir, new_agent)
    shutil.move(root, tmp_path / "moved-away")
    root.symlink_to(tmp_path / "moved-away", target_is_directory=True)

    synced = laptop.run("sync", "--workspace", str(laptop.workspace))

    assert synced.returncode == 1, synced.stdout + synced.stderr
    said = _lines(synced.stdout)
    broken = BROKEN_ROOT.format(agent=new_agent)
    assert said["user"].startswith(f"not synced ({broken}"), said["user"]
    assert said[key].startswith(f"not synced ({broken}"), said[key]
    assert "an operator must move it away" in said[key]
    assert "check the URL" not in said["user"] + said[key]  # the detail says the fix


def test_r1_a_workspace_scope_the_service_does_not_hold_is_still_no_scope_yet(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    copy = RemoteCopy(
        url=shared_service.url, token=shared_service.token, project="acme", agent=new_agent,
        state_dir=tmp_path / "state", timeout=30.0,
    )  # fmt: skip

    result = copy.sync_scope("elsewhere-0123abcd")

    assert result.ok and result.missing and not result.sent, result.error


def test_r1_only_the_service_s_own_problem_types_name_a_kind_of_404() -> None:
    """A 404 whose problem ``type`` is the service's own (the memory root it never follows)
    says what is wrong there; a proxy's 404 with a type of its own (ASP.NET's RFC 9110 link)
    is no such answer, and ``about:blank`` is the service's "no scope"."""
    from harness_memory.remote import _names_a_kind

    assert _names_a_kind(("tag:agent-memory,2026:problem/outside-memory-root", "…"))
    assert not _names_a_kind(("https://tools.ietf.org/html/rfc9110#section-15.5.5", "Not Found"))
    assert not _names_a_kind(("about:blank", "no scope 'app-1'"))
    assert not _names_a_kind(None)
