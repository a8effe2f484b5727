"""V-2 (issue 24's budget: nothing grows with the scope): the first page of a file's history
reads the versions on that page, not the file's whole history, whatever the scope holds.

A file with many versions, then renamed (its history follows it across the rename): the
first page of its history, under its new name, makes git compare the same number of versions
with the ones below them whether the scope holds 3 files and the file 20 versions, or 30
files and 60 versions, and no more than the page and the rename it crosses need. Comparing a
version is reading its folder's tree, which grows with the scope's files, so reading every
older version made the first page cost the versions times the files (330 ms for 100 of 1,000
versions at 3,000 files). The work is counted as git itself reports it (its trace2
``bloom/statistics``: the versions whose changes it had to read), never timed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memory_api.store.history import git as history_git
from memory_api.store.history import reading
from memory_api.store.history.git import BRANCH, git
from memory_api.store.history.maintenance import maintain
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_core import layout

from bench.history import AGENT, long_history

PAGE = 5
OLD, NEW = "note-00001.md", "renamed.md"


def renamed_long_history(base: Path, files: int, versions: int) -> Path:
    """A history of ``files`` files whose ``note-00001.md`` has ``versions`` versions, then
    renamed ``renamed.md`` with its text kept (one more version), maintained as the service
    does (commit-graph with changed-path filters)."""
    repository, _, _ = long_history(base, files, versions)
    scope = layout.scope_dir(base / "long", AGENT, "user")
    (scope / NEW).write_bytes(git(repository, "show", f"{BRANCH}:{OLD}"))
    (scope / OLD).unlink()
    ScopeHistories(base / "long").record(AGENT, scope, Attribution("checkpoint"))
    maintain(repository)
    return repository


def versions_compared(
    monkeypatch: pytest.MonkeyPatch, events: Path, repository: Path
) -> tuple[int, list[tuple[str, str, str | None]]]:
    """How many versions git compared with the one below to read the first page of
    ``renamed.md``'s history, and the page (change, file, renamed from)."""
    environment = {**history_git.git_environment(), "GIT_TRACE2_EVENT": str(events)}
    monkeypatch.setattr(history_git, "git_environment", lambda: environment)
    page, more = reading.file_history(repository, NEW, limit=PAGE)
    monkeypatch.undo()
    assert more
    compared = 0
    for line in events.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("category") == "bloom" and event.get("key") == "statistics":
            counts = event["value"]
            compared += counts["maybe"] + counts["filter_not_present"]
    return compared, [(item.change, item.file or "", item.renamed_from) for item in page]


def test_v2_first_page_of_a_file_history_compares_as_many_versions_at_any_scope_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = renamed_long_history(tmp_path / "small", files=3, versions=20)
    large = renamed_long_history(tmp_path / "large", files=30, versions=60)

    small_work, small_page = versions_compared(monkeypatch, tmp_path / "small.json", small)
    large_work, large_page = versions_compared(monkeypatch, tmp_path / "large.json", large)

    expected = [("renamed", NEW, OLD)] + [("modified", OLD, None)] * (PAGE - 1)
    assert small_page == large_page == expected
    assert small_work == large_work
    # the page and one more under each name (whether more follow), never the older versions
    assert 0 < large_work <= PAGE + 2 * 2
