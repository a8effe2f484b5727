"""P-3: without the kernel's mount table the guard still decides, and refuses what it cannot know.

``/proc/self/mountinfo`` is missing on macOS and Windows, and on Linux in a chroot or a sandbox
without ``/proc``. On Linux a bind mount can show a part of the memory root anywhere on its
filesystem, and only the table says where by path; but a bind mount shows the very folder (or
file) it mounts, same device and inode. So without the table the guard reads the memory root's
(and the data dir's, and the Session records') inodes once per decision and refuses a path
outside them that leads through one of them, naming the missing table: another Workspace's
scope mounted in the Workspace is refused for real (in a mount namespace of the test's own).
Everyday writes in a Workspace on the same filesystem pass (once every command there was
refused). When those inodes cannot all be read (past the scan's cap of entries, a folder that
cannot be read), every path on that filesystem is refused as before: a read error never widens
access. Where the kernel has no bind mounts (macOS, Windows) nothing is hidden: the guard
decides by the spelling, the real path and the memory root's device and inode.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory import mounts, names
from harness_memory.guard import check_write
from harness_memory.mounts import read_mount_table

from tests.support.guard_cases import Layout, answer, guarded_layout, refusal

ANOTHER_FILESYSTEM = Path("/dev/shm")  # tmpfs here; the tests' folders are on another device


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The guard's layout, with no mount table to read (``/proc`` not mounted)."""
    found = guarded_layout(tmp_path, monkeypatch)
    monkeypatch.setattr(mounts, "MOUNT_TABLE", tmp_path / "no-proc" / "mountinfo")
    return found


def shell(where: Layout, command: str) -> str | None:
    return refusal(answer(where, "claude-code", "Bash", {"command": command}))


def write(where: Layout, path: Path) -> str | None:
    return refusal(answer(where, "claude-code", "Write", {"file_path": str(path), "content": ""}))


def test_p3_linux_without_a_mount_table_judges_a_path_by_the_memory_roots_inodes(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Workspace's own files, on the memory root's filesystem, are no part of it by inode:
    written as with a table. The memory root's scopes are judged by their paths."""
    monkeypatch.setattr(mounts, "BIND_MOUNTS", True)
    table = read_mount_table()
    assert table.unknown and not table.mounts
    assert (where.workspace.stat().st_dev) == where.root.stat().st_dev

    def decide(path: Path) -> bool:
        return check_write(path, memory_root=where.root, workspace_key=where.own).allowed

    assert decide(where.root / "user" / "a.md")
    assert decide(where.root / where.own / "a.md")
    assert not decide(where.root / where.other / "a.md")
    assert decide(where.workspace / "notes.md")
    assert decide(ANOTHER_FILESYSTEM / "guard-test-never-written.txt")

    assert write(where, where.workspace / "src" / "a.md") is None
    assert write(where, where.root / where.own / "a.md") is None
    assert write(where, where.root / where.other / "a.md") is not None
    assert shell(where, f"echo x > {where.root}/{where.own}/a.md") is None
    assert shell(where, f"echo x > {where.workspace}/notes.md && ls") is None
    assert shell(where, f"echo x > {where.root}/{where.other}/a.md") is not None


def test_p3_linux_without_a_mount_table_refuses_the_filesystem_when_the_inodes_are_unknown(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory root entries past the scan's cap (counted: here 2): which inodes it holds is
    unknown, so every path outside it on its filesystem could be a part of it mounted there,
    and a word built at run time whose literal part lies there could reach it."""
    monkeypatch.setattr(mounts, "BIND_MOUNTS", True)
    monkeypatch.setattr(names, "NAMES_CAP", 2)
    monkeypatch.delenv("UNSET_VARIABLE", raising=False)

    reason = write(where, where.workspace / "mounted" / "a.md")
    assert reason is not None and "mount table cannot be read" in reason
    assert write(where, where.root / where.own / "a.md") is None
    assert write(where, ANOTHER_FILESYSTEM / "guard-test-never-written.txt") is None
    reason = shell(where, f"echo x > {where.root}/{where.own}/a.md")
    assert reason is not None and "mount table cannot be read" in reason  # ``echo`` here

    def mcp_write(folder: Path) -> str | None:
        arguments = {"path": f"{folder}/$UNSET_VARIABLE.md"}
        return refusal(answer(where, "claude-code", "mcp__files__write", arguments))

    reason = mcp_write(where.workspace)
    assert reason is not None and "could reach the memory root" in reason
    assert mcp_write(ANOTHER_FILESYSTEM / "guard-test-never-written") is None


def test_p3_where_the_kernel_has_no_bind_mounts_a_missing_table_hides_nothing(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """macOS and Windows: the guard decides by spelling, real path and identity, and every
    everyday write in the Workspace passes."""
    monkeypatch.setattr(mounts, "BIND_MOUNTS", False)
    table = read_mount_table()
    assert not table.unknown and not table.mounts

    assert shell(where, f"echo x > {where.workspace}/notes.md") is None
    assert shell(where, f"echo x > {where.workspace}/out-$(date).log") is None
    assert shell(where, f"echo x > {where.root}/{where.own}/a.md") is None
    assert shell(where, f"echo x > {where.root}/{where.other}/a.md") is not None
    assert shell(where, "echo x > notes/a.md") is not None  # a symlink into the other scope
    assert shell(where, f"echo x > {where.data}/tokens/mine.json") is not None


_THROUGH_A_BIND_MOUNT_WITHOUT_THE_TABLE = """
import io, json, subprocess, sys
from harness_memory import mounts, names
from harness_memory.cli import main
root, source, alias, workspace, state, missing = sys.argv[1:7]
subprocess.run(["mount", "--bind", source, alias], check=True)
mounts.MOUNT_TABLE = mounts.Path(missing)
mounts.BIND_MOUNTS = True
answers = {}
for path in sys.argv[7:]:
    hook = {"session_id": "s-1", "cwd": workspace, "hook_event_name": "PreToolUse",
            "tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}}
    out = io.StringIO()
    flags = ["hook", "claude-code", "pre-tool-use", "--memory-root", root, "--state-dir", state]
    assert main(flags, environ={}, stdin=io.BytesIO(json.dumps(hook).encode()), stdout=out) == 0
    answers[path] = out.getvalue()
print(json.dumps(answers))
"""


def test_p3_a_scope_bind_mounted_in_the_workspace_is_refused_without_the_table(
    where: Layout,
) -> None:
    """For real, in a user and mount namespace of the test's own: another Workspace's scope
    mounted inside this Workspace while the guard cannot read the mount table. The write
    through it is refused naming the missing table; the Session's own scope by its path and
    a file of the Workspace beside the mount are not."""
    alias = where.workspace / "other-memory"
    alias.mkdir()
    through, own = alias / "a.md", where.root / where.own / "a.md"
    plain = where.workspace / "notes.md"
    missing = where.workspace / "no-proc"
    arguments = [where.root, where.root / where.other, alias, where.workspace, where.state]
    arguments += [missing, through, own, plain]
    script = [sys.executable, "-c", _THROUGH_A_BIND_MOUNT_WITHOUT_THE_TABLE]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *script, *map(str, arguments)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)

    assert "mount table cannot be read" in answers[str(through)]
    assert answers[str(own)] == ""
    assert answers[str(plain)] == ""  # the Workspace's own file, on the same filesystem
