"""K-5, A-9, Q-2b: a Workspace scope whose ``.workspace`` marker is there, on a memory root the
service cannot write (a read-only mount, a Q-2b group without write permission), is used as it
is: a Session start writes nothing there, says nothing is wrong, and keeps the marker it read,
so the next start is answered from ``stat`` calls alone (A-9).

A marker the service finds in place is never written again: no temp file is made (and fsynced)
beside it on every start that misses the cache, and one refused by the filesystem is no reason
to warn "cannot write its .workspace marker" of a marker that is there.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.store import stat_cache
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.sessions import ensure_workspace_scope_why
from memory_api.store.stat_cache import NeedsBlockingIO
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.support.read_only_mount import read_only


def test_k5_a_marker_in_place_on_a_read_only_root_is_read_kept_and_never_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))  # a marker written just now
    workspace = tmp_path / "payroll-app"
    workspace.mkdir()
    real = str(workspace.resolve())
    root = tmp_path / "memory"
    scope = root / key_for_real_path(real)
    scope.mkdir(parents=True)
    (scope / layout.MARKER_FILE).write_text(real + "\n", encoding="utf-8")
    files = ScopeFiles()
    how: list[str] = []

    with read_only(root), caplog.at_level(logging.WARNING, logger="memory_api"):
        for _ in range(3):  # as a Session start asks: on the loop first, then in a thread
            try:
                _, ensured = ensure_workspace_scope_why(root, real, files, cached_only=True)
                how.append("cached")
            except NeedsBlockingIO:
                _, ensured = ensure_workspace_scope_why(root, real, files)
                how.append("blocking")
            assert ensured.path == scope.resolve() and ensured.uncreated is None

    assert how == ["blocking", "cached", "cached"]
    assert [r.getMessage() for r in caplog.records] == []
    assert sorted(p.name for p in scope.iterdir()) == [layout.MARKER_FILE]
