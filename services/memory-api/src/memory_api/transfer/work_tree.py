"""Whether a file an export wrote would go into a git repository with ``git add -A`` (P-5).

An export archive holds every memory of an agent (what the user is like, the systems they use,
sometimes a credential an agent wrote down): written into a checkout, as ``-o coder.tar.gz``
run from the repository root writes it, the next ``git add -A`` commits it. The README says to
export outside the checkout; the export now says so when it did not, by asking git itself
(``git rev-parse --show-toplevel`` and ``git check-ignore``: the repository's ``.gitignore``
files, ``info/exclude`` and the user's global excludes, as ``git add`` reads them).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["committable_in"]

_TIMEOUT_S = 10
"""A hang guard for each git run (a work tree on a network filesystem that stopped answering)."""


def committable_in(path: Path) -> Path | None:
    """The root of the git work tree in which ``path`` (a file) lies, not ignored, so that
    ``git add -A`` there would take it; None when it lies in none, is ignored, or git cannot
    tell (not installed, not a work tree, an error). Never raises."""
    git = shutil.which("git")
    if git is None:
        return None
    folder = path.resolve().parent
    top = _git(git, folder, "rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0 or not top.stdout.strip():
        return None
    ignored = _git(git, folder, "check-ignore", "--quiet", "--", path.name)
    if ignored is None or ignored.returncode != 1:  # 0: ignored; 128: git could not tell
        return None
    return Path(top.stdout.strip())


def _git(git: str, folder: Path, *words: str) -> subprocess.CompletedProcess[str] | None:
    """``git -C folder words…``, its output as text; None when it could not be run."""
    try:
        return subprocess.run(  # noqa: S603 - git found on PATH, arguments never through a shell
            [git, "-C", str(folder), *words],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
