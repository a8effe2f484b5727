"""V-3 with R-1: a version the operator's retention squashed is gone from every copy once the
copies sync, and nothing a copy holds is lost.

The laptop synced while the scope's history held an old text of ``a.md``, then once more (its
files hold the newer text, its local history the old one); the desktop went on syncing, and
``memory-api history prune`` kept the newest version only. The laptop then writes a note and
syncs: the note reaches the service, the laptop's files are the service's, and neither the
service's history nor the laptop's local copy holds the old text or its version any more (the
copy once kept them in its git dir for good, and sent them back to the service).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, served_root, synced, two_machines
from tests.support.serve import venv_bin

__all__ = ["served_root", "two_machines"]  # fixtures

OLD_TEXT = "the old deploy token lives in vault/old\n"


def holds(git_dir: Path, obj: str) -> bool:
    """Whether the git dir ``git_dir`` still holds the object ``obj``."""
    done = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "-e", obj], check=False)
    return done.returncode == 0


def old_objects(git_dir: Path) -> tuple[str, str]:
    """The version holding :data:`OLD_TEXT` and its blob, read from ``git_dir``."""
    found = subprocess.run(
        ["git", f"--git-dir={git_dir}", "log", "--format=%H", "-S", OLD_TEXT.strip(), "main"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    blob = subprocess.run(
        ["git", f"--git-dir={git_dir}", "hash-object", "--stdin"],
        input=OLD_TEXT, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return found[-1], blob


def test_v3_after_a_prune_the_squashed_text_leaves_the_stale_copy_and_the_service(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    laptop, desktop = two_machines
    append(desktop.memory_root / "user" / "a.md", OLD_TEXT)
    synced(desktop)
    synced(laptop)
    service_git = layout.history_root(shared_service.data_dir, new_agent) / "user.git"
    laptop_git = laptop.sync_dir / "user.git"
    old_version, old_blob = old_objects(service_git)
    for text in ("second\n", "third\n"):
        (desktop.memory_root / "user" / "a.md").write_text(text, encoding="utf-8")
        synced(desktop)
        if text == "second\n":
            synced(laptop)
    assert holds(laptop_git, old_blob)
    subprocess.run(
        [venv_bin("memory-api"), "history", "prune", "--agent", new_agent],
        env={**shared_service.served.env, "MEMORY_API_HISTORY_MAX_VERSIONS": "1"},
        capture_output=True, check=True,
    )  # fmt: skip
    assert not holds(service_git, old_blob)

    append(laptop.memory_root / "user" / "b.md", "from the laptop\n")
    synced(laptop)

    assert (served_root / "user" / "b.md").read_text(encoding="utf-8") == "from the laptop\n"
    assert (laptop.memory_root / "user" / "b.md").read_text(encoding="utf-8") == (
        "from the laptop\n"
    )
    for git_dir in (service_git, laptop_git):
        assert not holds(git_dir, old_blob), git_dir
        assert not holds(git_dir, old_version), git_dir
