"""V-1, I-8: a scope's history repository holds every past version of its notes (a credential
removed since among them), so it is owner-only like the search index: its folders 0700, its files
without any group or other bit, whatever the umask; one made before that rule (0755 folders,
0644 files) is made so at its next record, and git keeps it so (``core.sharedRepository``).
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from memory_api.store.history import clocks, reading
from memory_api.store.history.deletions import INDEX_FILE
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_core import layout

from tests.api.conftest import write_topic


def modes_open_to_others(folder: Path) -> list[str]:
    """Every path under ``folder`` (itself too) with a group or other permission bit."""
    found = []
    for path in [folder, *folder.rglob("*")]:
        mode = os.lstat(path).st_mode
        if stat.S_IMODE(mode) & 0o077 and not stat.S_ISLNK(mode):
            found.append(f"{oct(stat.S_IMODE(mode))} {path.relative_to(folder.parent)}")
    return found


def record(data_dir: Path, scope: Path) -> str:
    recorded = ScopeHistories(data_dir).record("coder", scope, Attribution("checkpoint"))
    assert recorded is not None
    return recorded.version


def make_scope(data_dir: Path) -> Path:
    scope = layout.scope_dir(data_dir, "coder", "user")
    scope.mkdir(parents=True)
    write_topic(scope, "deploy.md")
    (scope / layout.INDEX_FILE).write_text("- [Deploy](deploy.md) — how\n", encoding="utf-8")
    return scope


def test_v1_a_new_history_is_owner_only(tmp_path: Path, umask_022: None) -> None:
    scope = make_scope(tmp_path)

    record(tmp_path, scope)
    write_topic(scope, "second.md")
    record(tmp_path, scope)

    history = layout.history_root(tmp_path, "coder")
    assert modes_open_to_others(history) == []
    assert stat.S_IMODE(history.stat().st_mode) == 0o700
    repository = history / "user.git"
    assert stat.S_IMODE(repository.stat().st_mode) == 0o700
    assert stat.S_IMODE((repository / "HEAD").stat().st_mode) == 0o600


def test_v1_a_history_made_before_the_rule_is_made_owner_only_at_its_next_record(
    tmp_path: Path, umask_022: None
) -> None:
    scope = make_scope(tmp_path)
    history = layout.history_root(tmp_path, "coder")
    repository = history / "user.git"
    record(tmp_path, scope)
    for path in [history, *history.rglob("*")]:  # as an older service left it
        path.chmod(0o755 if path.is_dir() else 0o644)
    git = ["git", f"--git-dir={repository}", "config"]
    subprocess.run([*git, "--unset", "core.sharedRepository"], check=True)

    write_topic(scope, "second.md")
    version = record(tmp_path, scope)

    assert modes_open_to_others(history) == []
    shared = subprocess.run([*git, "core.sharedRepository"], capture_output=True, check=True)
    assert shared.stdout.decode().strip() == "0600"
    names = subprocess.run(
        ["git", f"--git-dir={repository}", "ls-tree", "--name-only", version],
        capture_output=True, check=True,
    ).stdout.decode().split()  # fmt: skip
    assert names == [layout.INDEX_FILE, "deploy.md", "second.md"]  # the history still works


def test_v1_a_history_it_may_not_make_private_is_warned_of_and_still_records(
    tmp_path: Path,
    umask_022: None,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A file of another account in an old history (a job run as another user made it): the
    chmod is refused; a warning names the repository, and the record is still made (refusing
    it would refuse every change to the scope)."""
    scope = make_scope(tmp_path)
    repository = layout.history_root(tmp_path, "coder") / "user.git"
    record(tmp_path, scope)
    repository.chmod(0o755)

    def refused(path: object, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted", str(path))

    monkeypatch.setattr(os, "chmod", refused)  # the kernel's EPERM for another account's file
    write_topic(scope, "second.md")

    version = record(tmp_path, scope)

    assert version
    [warning] = [r for r in caplog.records if "still open to other accounts" in r.getMessage()]
    assert str(repository) in warning.getMessage()
    assert "Operation not permitted" in warning.getMessage()


def test_v1_the_index_of_deleted_files_is_owner_only(tmp_path: Path, open_umask: None) -> None:
    """The index of a history's deletions (``store/history/deletions.py``) names deleted files:
    owner-only like every other file of the history, whatever the umask; so is the service's
    other file there, the bound on clocks running behind (``store/history/clocks.py``)."""
    scope = make_scope(tmp_path)
    record(tmp_path, scope)
    (scope / "deploy.md").unlink()
    record(tmp_path, scope)
    repository = layout.history_root(tmp_path, "coder") / "user.git"

    listed, _ = reading.deleted_files(repository, set(), limit=10)
    reading.scope_changes(repository, limit=10, since=1)  # keeps the bound on clocks behind

    assert [item.file for item in listed] == ["deploy.md"]
    assert stat.S_IMODE((repository / INDEX_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE((repository / clocks.INDEX_FILE).stat().st_mode) == 0o600
    assert modes_open_to_others(layout.history_root(tmp_path, "coder")) == []
