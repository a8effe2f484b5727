"""V-2: a page of a renamed note's history ``before`` a version deep down reads the page and
the renames above it, not every version above ``before``.

A note added, then edited 200 times, renamed, edited 200 times, renamed again and edited 200
times (other notes edited between): a page of five versions ``before`` one near its start
must find the name the note had there. It once read every version above ``before`` with all
its files (one ``git log`` of 600 and more versions, so the page's cost grew with the whole
history). Now the name is followed back rename by rename, by name (``git log --diff-filter=A
-- name``, the changed-path filters answer it), and the page reads a few dozen versions in a
few git processes; counted by wrapping the module's ``log`` and git runner, never timed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.history import git as history_git
from memory_api.store.history import reading
from memory_api.store.history.git import git, init_repository
from memory_api.store.history.repo import LogEntry, log

EDITS = 200
NAMES = ("first.md", "second.md", "third.md")
READ_BOUND = 60
"""Versions a page of five crossing two renames may read: the page, the renames, a window."""
PROCESS_BOUND = 12


def write(name: str, text: str) -> str:
    """A fast-import change that sets the file ``name`` to ``text``."""
    return f"M 100644 inline {name}\ndata {len(text)}\n{text}\n"


def imported(repository: Path, versions: list[str]) -> list[str]:
    """A new repository whose branch holds one version per item of ``versions`` (each its
    fast-import changes, oldest first); the branch's versions, newest first."""
    init_repository(repository)
    stream = []
    for number, changes in enumerate(versions, start=1):
        message = f"version {number}\n\nSource: checkpoint\n"
        stream.append(
            f"commit refs/heads/main\nauthor a <a@x> {1_800_000_000 + number} +0000\n"
            f"committer a <a@x> {1_800_000_000 + number} +0000\n"
            f"data {len(message)}\n{message}{changes}"
        )
    git(repository, "fast-import", "--quiet", "--done", stdin=("".join(stream) + "done\n").encode())
    return git(repository, "rev-list", "main").decode("ascii").split()


def edited_and_renamed(repository: Path) -> list[str]:
    """The note of the module docstring (and ``other.md`` edited between its versions); the
    branch's versions, newest first."""
    versions = [write(NAMES[0], "text 0")]
    for part, name in enumerate(NAMES):
        if part:
            versions.append(f"D {NAMES[part - 1]}\n" + write(name, f"text {part - 1}.{EDITS - 2}"))
        for edit in range(EDITS):
            other = edit % 2 == 1
            versions.append(
                write("other.md", str(edit)) if other else write(name, f"text {part}.{edit}")
            )
    return imported(repository, versions)


def counted_page(
    monkeypatch: pytest.MonkeyPatch, repository: Path, before: str
) -> tuple[int, int, list[tuple[str, str, str | None]]]:
    """Versions read (logged), git processes run, and the page of five before ``before``."""
    read: list[int] = []
    calls: list[tuple[str, ...]] = []
    run = history_git._run

    def logged(*args: Any, **kwargs: Any) -> list[LogEntry]:
        entries = log(*args, **kwargs)
        read.append(len(entries))
        return entries

    def counted(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(args[1])
        return run(*args, **kwargs)

    monkeypatch.setattr(reading, "log", logged)
    monkeypatch.setattr(history_git, "_run", counted)
    page, _ = reading.file_history(repository, NAMES[-1], limit=5, before=before)
    monkeypatch.undo()
    return sum(read), len(calls), [(p.change, p.file or "", p.renamed_from) for p in page]


def test_v2_a_page_below_two_renames_reads_its_own_versions_not_all_above(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository = tmp_path / "user.git"
    made = edited_and_renamed(repository)
    deep = made[-12]  # under the first name: five of its edits and its first version below

    read, processes, page = counted_page(monkeypatch, repository, deep)

    assert page == [("modified", NAMES[0], None)] * 5
    assert len(made) > 600
    assert read <= READ_BOUND
    assert processes <= PROCESS_BOUND
