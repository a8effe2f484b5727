"""Install the real Claude Code CLI from npm into a git-ignored cache inside the repository.

``<repo>/.cache/claude-code/`` receives ``@anthropic-ai/claude-code`` at :data:`VERSION`, the
version these tests were verified with. Its npm package brings the native binary as a
platform package (``@anthropic-ai/claude-code-linux-x64`` …) from the registry itself, so the
install needs no download beyond npm. Without npm the tests skip loudly, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

VERSION = "2.1.332"
PACKAGE = f"@anthropic-ai/claude-code@{VERSION}"
CACHE = Path(__file__).parents[2] / ".cache" / "claude-code"
INSTALL_TIMEOUT_S = 900


def _unavailable(reason: str) -> NoReturn:
    message = f"CLAUDE CODE E2E NOT RUN: {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: this must run)")
    pytest.skip(reason=message)


def _version_of(binary: Path) -> str | None:
    """``binary --version``'s first word, or None when it does not run."""
    try:
        done = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = done.stdout.split()
    return words[0] if done.returncode == 0 and words else None


def _candidates() -> list[Path]:
    """The npm shim first, then the platform package's binary (if install scripts were blocked)."""
    modules = CACHE / "node_modules"
    found = [modules / ".bin" / "claude"]
    found += sorted((modules / "@anthropic-ai").glob("claude-code-*/claude"))
    return found


def _installed() -> Path | None:
    for binary in _candidates():
        if binary.exists() and _version_of(binary) == VERSION:
            return binary
    return None


def claude_code_binary() -> Path:
    """Return a working ``claude`` of :data:`VERSION`, installing it first if needed."""
    binary = _installed()
    if binary is not None:
        return binary
    npm = shutil.which("npm")
    if npm is None:
        _unavailable("npm is not installed, so @anthropic-ai/claude-code cannot be installed")
    CACHE.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
                str(CACHE),
                PACKAGE,
            ],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        _unavailable(f"npm install {PACKAGE} did not finish in {INSTALL_TIMEOUT_S} s")
    binary = _installed()
    if binary is None:
        _unavailable(
            f"npm install {PACKAGE} gave no working claude binary "
            f"(exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
    return binary
