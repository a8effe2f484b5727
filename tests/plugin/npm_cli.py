"""Install a coding agent's CLI from npm into a git-ignored cache inside the repository.

``<repo>/.cache/<folder>/`` receives the npm package at a pinned version, the one the tests were
verified with; :func:`npm_cli` returns its binary, installing it on first use. Without npm (or
when the install fails) the tests skip loudly, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

CACHE = Path(__file__).parents[2] / ".cache"
INSTALL_TIMEOUT_S = 900


@dataclass(frozen=True, slots=True)
class NpmCli:
    """One CLI: npm ``package`` at ``version``, cached in ``.cache/<folder>``, run as ``binary``."""

    package: str
    version: str
    folder: str
    binary: str

    @property
    def prefix(self) -> Path:
        return CACHE / self.folder

    @property
    def path(self) -> Path:
        return self.prefix / "node_modules" / ".bin" / self.binary


CODEX = NpmCli("@openai/codex", "0.171.0", "codex", "codex")
GEMINI = NpmCli("@google/gemini-cli", "0.61.0", "gemini-cli", "gemini")


def _unavailable(cli: NpmCli, reason: str) -> NoReturn:
    message = f"{cli.package} E2E NOT RUN: {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: this must run)")
    pytest.skip(reason=message)


def _version_of(binary: Path) -> str | None:
    """The last word of ``binary --version``'s first line, or None when it does not run."""
    try:
        done = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.strip().splitlines()
    return lines[0].split()[-1] if done.returncode == 0 and lines and lines[0].split() else None


def npm_cli(cli: NpmCli) -> Path:
    """Return a working binary of ``cli`` at its pinned version, installing it first if needed."""
    if cli.path.exists() and _version_of(cli.path) == cli.version:
        return cli.path
    npm = shutil.which("npm")
    if npm is None:
        _unavailable(cli, "npm is not installed")
    cli.prefix.mkdir(parents=True, exist_ok=True)
    package = f"{cli.package}@{cli.version}"
    try:
        done = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
                str(cli.prefix),
                package,
            ],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        _unavailable(cli, f"npm install {package} did not finish in {INSTALL_TIMEOUT_S} s")
    if not cli.path.exists() or _version_of(cli.path) != cli.version:
        _unavailable(
            cli,
            f"npm install {package} gave no working {cli.binary} (exit {done.returncode}):\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}",
        )
    return cli.path
