"""Install a pinned npm package into the git-ignored ``<repo>/.cache/<folder>/``, once.

The tests that drive real tools from npm (the coding agents' CLIs, axe-core) share this: check
whether the pinned version is there, else ``npm install`` it, all under an exclusive file lock
(``.cache/<folder>.lock``) so that parallel test workers install a package once and never see a
half-written tree. Without npm, or when the install fails, the test skips loudly, except under
``CI=true``, where it fails: there the tool must run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest
from filelock import FileLock

CACHE = Path(__file__).parents[2] / ".cache"
INSTALL_TIMEOUT_S = 900


def unavailable(label: str, reason: str) -> NoReturn:
    """Skip with ``label NOT RUN: reason``, or fail under ``CI=true``."""
    message = f"{label} NOT RUN: {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: this must run)")
    pytest.skip(reason=message)


def ensure_npm_package(
    package: str, version: str, folder: str, ready: Callable[[Path], bool], *, label: str
) -> Path:
    """Return ``.cache/<folder>`` holding ``package@version``, installing it if ``ready`` says no.

    ``ready(prefix)`` tells whether the pinned version is usable there (a binary answering
    ``--version``, a file of the right version). Holds the folder's lock while checking and
    installing. Skips or fails through :func:`unavailable` (with ``label``) when npm is missing,
    times out after :data:`INSTALL_TIMEOUT_S` seconds, or leaves nothing ready.
    """
    prefix = CACHE / folder
    CACHE.mkdir(parents=True, exist_ok=True)
    with FileLock(str(CACHE / f"{folder}.lock")):
        if ready(prefix):
            return prefix
        npm = shutil.which("npm")
        if npm is None:
            unavailable(label, f"npm is not installed, so {package} cannot be installed")
        prefix.mkdir(parents=True, exist_ok=True)
        pinned = f"{package}@{version}"
        command = [npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(prefix)]
        try:
            done = subprocess.run(
                [*command, pinned],
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            unavailable(label, f"npm install {pinned} did not finish in {INSTALL_TIMEOUT_S} s")
        if not ready(prefix):
            unavailable(
                label,
                f"npm install {pinned} left nothing usable (exit {done.returncode}):\n"
                f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}",
            )
    return prefix


ONE_NODE = {"GEMINI_CLI_NO_RELAUNCH": "true"}
"""Set for a ``--version`` run: Gemini CLI starts Node, then (unless this is set) Node again as
a child with a bigger heap that prints the same version; the first start prints it itself
(measured: 1.3 s of CPU, not 2.3, once per test worker that drives Gemini CLI). Other
CLIs ignore it."""

_VERSIONS: dict[tuple[Path, bool, tuple[int, int, int, int]], str] = {}
"""The versions :func:`version_of` found, by the binary's real path and file identity: asked
again in this process, an unchanged file gets the same answer without starting the CLI."""
KEPT_VERSIONS = CACHE / "versions"
"""Where :func:`version_of` keeps each answer for the next test worker and run: one file a
binary's real path and file identity, named by their SHA-256, holding the version."""


def version_of(binary: Path, *, last_word: bool = False) -> str | None:
    """The version ``binary --version`` prints (its first word, or the first line's last word).

    None when the binary is missing, fails or prints nothing. It runs in a HOME of its own,
    removed afterwards: ``gemini --version`` writes ``~/.gemini/projects.json``. Each test
    that drives a CLI asks for it: the answer is kept for as long as the file it ran is the same
    (device, inode, size and mtime of its real path), so a reinstall is asked again. It runs
    with :data:`ONE_NODE`, so ``gemini --version`` starts Node once.
    """
    try:
        real = binary.resolve(strict=True)
        info = real.stat()
    except OSError:
        return None
    key = (real, last_word, (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns))
    if key not in _VERSIONS:
        kept = KEPT_VERSIONS / (hashlib.sha256(repr(key).encode()).hexdigest() + ".txt")
        found = kept.read_text(encoding="utf-8") if kept.is_file() else None
        if not found:
            found = _run_version(binary, last_word=last_word)
            if found is None:
                return None  # a failure (a timeout on a busy machine) is asked again next time
            _keep(kept, found)
        _VERSIONS[key] = found
    return _VERSIONS[key]


def _keep(kept: Path, version: str) -> None:
    """Write ``version`` to ``kept`` whole (a new file renamed over it): a worker reading it
    at the same time sees the old file, none or the new one, never a part."""
    kept.parent.mkdir(parents=True, exist_ok=True)
    fresh = kept.with_name(f"{kept.name}.{os.getpid()}")
    fresh.write_text(version, encoding="utf-8")
    fresh.replace(kept)


def _run_version(binary: Path, *, last_word: bool) -> str | None:
    """Run ``binary --version`` in a throwaway HOME; see :func:`version_of`."""
    with tempfile.TemporaryDirectory(prefix="version-home-") as home:
        try:
            done = subprocess.run(
                [str(binary), "--version"],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
                env={**os.environ, **ONE_NODE, "HOME": home},
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    lines = done.stdout.strip().splitlines()
    words = lines[0].split() if lines else []
    if done.returncode != 0 or not words:
        return None
    return words[-1] if last_word else words[0]
