"""Q-1: a clone of the repository holds what every tracked symbolic link names.

``git clone`` recreates a tracked link as it was committed: one naming a path outside the
repository (``.venv-main`` → ``/work/main/.venv``, one developer's virtual environment,
committed by mistake) dangles in every other clone, or names whatever that path holds on the
newcomer's machine. So each tracked link is relative and resolves to a tracked file or folder
inside the repository.
"""

from __future__ import annotations

import posixpath
import subprocess
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parents[2]


def _tracked() -> dict[str, str]:
    """Each tracked path → its mode (``120000`` for a symbolic link), from ``git ls-files``."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-s", "-z"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    entries = (entry.split("\t", 1) for entry in listed.split("\0") if entry)
    return {path: info.split()[0] for info, path in entries}


def _outside(path: str, target: str, tracked: dict[str, str]) -> str | None:
    """Why the link at ``path`` naming ``target`` would not resolve in a fresh clone holding
    ``tracked``, or None when it would."""
    if PurePosixPath(target).is_absolute():
        return f"{path} -> {target}: an absolute path, another machine's"
    named = posixpath.normpath(str(PurePosixPath(path).parent / target))
    if named == ".." or named.startswith("../"):
        return f"{path} -> {target}: outside the repository"
    if named not in tracked and not any(other.startswith(named + "/") for other in tracked):
        return f"{path} -> {target}: names nothing the repository tracks"
    return None


def test_q1_every_tracked_link_resolves_inside_a_fresh_clone() -> None:
    tracked = _tracked()
    links = [path for path, mode in tracked.items() if mode == "120000"]

    reasons = [_outside(path, str((REPO / path).readlink()), tracked) for path in links]
    assert [why for why in reasons if why] == []


def test_q1_the_link_check_tells_each_link_a_clone_would_not_resolve() -> None:
    """The check itself: an absolute link, one climbing out, one to nothing tracked, and two
    that resolve (to a tracked file, to a tracked folder)."""
    tracked = {"README.md": "100644", "docs/web.md": "100644"}

    assert "absolute" in str(_outside(".venv-main", "/work/main/.venv", tracked))
    assert "outside the repository" in str(_outside("docs/up", "../../elsewhere", tracked))
    assert "nothing the repository tracks" in str(_outside("docs/gone", "nope.md", tracked))
    assert _outside("docs/readme", "../README.md", tracked) is None
    assert _outside("all-docs", "docs", tracked) is None
