"""R-1: a machine's local copy whose git cannot say what waits to be sent never says nothing
waits.

The copy's git index is a file git rewrites at each sync; a crash or a full disk can leave it
torn. Every later sync then failed, and ``harness-memory status`` (``RemoteCopy.status``) said
"nothing waits" of a scope whose agent had written a memory since its last sync, which had
never been sent (and the failed sync's own result said ``waiting: false``). Right: changes
may wait, and why it cannot tell is said.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_r1_hostile_service import _copy, _publish, stand_in
from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test

__all__ = ["stand_in"]  # the fixture, used by name


def test_r1_a_copy_whose_index_is_torn_never_says_nothing_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    note = "---\nname: new\ndescription: d\n---\nbody\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    (copy.sync_dir / "user.git" / "index").write_bytes(b"DIRC torn")

    (scope,) = copy.status()
    result = copy.sync_scope("user")

    assert scope.waiting
    assert scope.last_error is not None and "index" in scope.last_error
    assert not result.ok and result.waiting


def test_r1_a_copy_whose_git_dir_may_not_be_read_never_says_nothing_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    """A git dir this account may not search (another account's after a restore, a mode
    changed by hand): ``harness-memory sync --status`` (and ``status``) ended in a traceback,
    ``PermissionError`` on its ``HEAD``. Right: changes may wait, and why it cannot tell."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    note = "---\nname: new\ndescription: d\n---\nbody\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    git_dir = copy.sync_dir / "user.git"
    git_dir.chmod(0)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "HARNESS_MEMORY_URL": url, "HARNESS_MEMORY_PROJECT": "acme",
           "HARNESS_MEMORY_AGENT": "coder", "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "laptop"),
           **code_under_test()}  # fmt: skip
    try:
        done = subprocess.run(
            [*refused_prefix(), HARNESS_MEMORY, "sync", "--status"],
            env=env, capture_output=True, text=True, check=False, timeout=60,
        )  # fmt: skip
    finally:
        git_dir.chmod(0o700)

    assert done.returncode == 0, done.stderr
    assert "user: last sync" in done.stdout and "changes wait to go back" in done.stdout
    assert f"{git_dir}/HEAD: Permission denied" in done.stdout
