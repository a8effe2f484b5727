"""A ``git`` first on ``PATH`` that records each run's arguments, then runs the real git.

For a test that must know which git processes code started (none on a copy it should refuse
before git runs), not how long they took.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


class GitRuns:
    """The runs of the recording ``git`` (:func:`recording_git`), in the order they started."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def all(self) -> list[list[str]]:
        """Each run's arguments (empty when none ran)."""
        if not self.log.exists():
            return []
        text = self.log.read_text(encoding="utf-8", errors="surrogateescape")
        return [line.split("\t")[:-1] for line in text.splitlines()]

    def on(self, git_dir: Path, *, since: int = 0) -> list[list[str]]:
        """The runs given ``--git-dir=`` ``git_dir``, of those after the first ``since``."""
        return [run for run in self.all()[since:] if f"--git-dir={git_dir}" in run]


def recording_git(folder: Path, monkeypatch: pytest.MonkeyPatch) -> GitRuns:
    """Put a ``git`` in ``folder`` first on ``PATH`` (for the rest of the test) that appends
    its arguments, tab-separated, as one line to ``folder/runs.log`` before it becomes the real
    git: a run is recorded when it starts, a git that then waits forever included."""
    real_git = shutil.which("git")
    assert real_git is not None, "git is not installed"
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "runs.log"
    wrapper = folder / "git"
    wrapper.write_text(
        "#!/bin/sh\n"
        "line=$(printf '%s\\t' \"$@\")\n"
        f"printf '%s\\n' \"$line\" >> '{log}'\n"
        f"exec '{real_git}' \"$@\"\n",
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return GitRuns(log)
