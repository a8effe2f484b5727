"""V-2: a page of a file's history costs as many git processes however deep it starts and
however many renames it crosses.

A note renamed 150 times, one version per rename (renames are cheap through the API, so any
client can make such a history): a page ``before`` a version 140 renames down once walked the
history once per rename above it (two git processes each, 1,584 processes and 32 s for a page
790 renames down), and a page crossing 50 renames read each one alone. Both are now a handful
of processes (the renames above ``before`` read in growing windows, never the versions between
renames: :mod:`tests.api.test_v2_file_history_page_below_renames_reads_the_page`), counted by
wrapping the module's git runner, never timed; the pages still name each version as the
history holds it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.history import git as history_git
from memory_api.store.history import reading

from tests.api.test_v2_file_history_follows_many_renames import (
    RENAMES,
    name,
    renamed_many_times,
    shown,
    whole_history,
)

BOUND = 12
"""Git processes a page may take: its start checked, its name found (the renames above it read
together, a window four times larger each time), a few reads."""


def processes_for_page(
    monkeypatch: pytest.MonkeyPatch, repository: Path, limit: int, before: str | None
) -> tuple[int, list[tuple[str, str, str, str | None]]]:
    """How many git processes reading one page of the note's history ran, and the page."""
    calls: list[tuple[str, ...]] = []
    run = history_git._run

    def counted(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(args[1])
        return run(*args, **kwargs)

    monkeypatch.setattr(history_git, "_run", counted)
    page, _ = reading.file_history(repository, name(RENAMES), limit=limit, before=before)
    monkeypatch.undo()
    return len(calls), shown(page)


def test_v2_a_page_deep_in_a_renamed_files_history_takes_a_few_git_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository = tmp_path / "user.git"
    made = renamed_many_times(repository)
    history = whole_history(made)

    deep, deep_page = processes_for_page(monkeypatch, repository, 5, before=history[140][0])
    wide, wide_page = processes_for_page(monkeypatch, repository, 50, before=None)

    assert deep_page == history[141:146]
    assert wide_page == history[:50]
    assert deep <= BOUND
    assert wide <= BOUND
