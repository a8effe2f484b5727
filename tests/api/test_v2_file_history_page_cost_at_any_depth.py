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
from tests.api.test_v2_file_history_page_below_renames_reads_the_page import imported, write

BOUND = 12
"""Git processes a page may take: its start checked, its name found (the renames above it read
together, a window four times larger each time), a few reads."""


def processes_for_page(
    monkeypatch: pytest.MonkeyPatch,
    repository: Path,
    limit: int,
    before: str | None,
    note: str = name(RENAMES),
) -> tuple[int, list[tuple[str, str, str, str | None]]]:
    """How many git processes reading one page of the history of ``note`` ran, and the
    page."""
    calls: list[tuple[str, ...]] = []
    run = history_git._run

    def counted(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(args[1])
        return run(*args, **kwargs)

    monkeypatch.setattr(history_git, "_run", counted)
    page, _ = reading.file_history(repository, note, limit=limit, before=before)
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


SPREAD_RENAMES = 60
GAP = 30
"""Versions of another note between two renames of the note (renames spread out)."""


def renamed_with_gaps(repository: Path) -> list[str]:
    """A note ``n0.md`` added and edited four times, then renamed ``n{r-1}.md`` to ``n{r}.md``
    :data:`SPREAD_RENAMES` times with :data:`GAP` versions of ``other.md`` before each rename;
    the branch's versions, newest first."""
    versions = [write("n0.md", f"note text {edit}") for edit in range(5)]
    for rename in range(1, SPREAD_RENAMES + 1):
        versions += [write("other.md", f"{rename}.{edit}") for edit in range(GAP)]
        versions.append(f"R n{rename - 1}.md n{rename}.md\n")
    return imported(repository, versions)


def test_v2_a_page_below_renames_spread_out_takes_a_few_git_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository = tmp_path / "user.git"
    made = renamed_with_gaps(repository)

    processes, page = processes_for_page(
        monkeypatch, repository, 5, before=made[-3], note=f"n{SPREAD_RENAMES}.md"
    )

    assert page == [(made[-2], "modified", "n0.md", None), (made[-1], "added", "n0.md", None)]
    assert processes <= BOUND
