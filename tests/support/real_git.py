"""Real ``git`` run as a test's user would run it, with no user or system configuration."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Run real git in ``cwd`` (also its ``HOME``: no ``~/.gitconfig`` of the machine's, no
    system configuration) with a fixed author, ``env`` added to its environment; its output.
    Fails the test, showing git's error, when git exits with another status than 0."""
    environ = {
        "HOME": str(cwd),
        "PATH": "/usr/bin:/bin",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        **(env or {}),
    }
    done = subprocess.run(["git", *args], cwd=cwd, env=environ, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout
