"""The pinned CLIs' ``--version`` is asked once per installed file, not once per test worker.

:func:`tests.support.npm_cache.version_of` keeps each answer in ``.cache/versions`` by the
binary's real path and file identity: another worker (a new process, its in-memory answers
empty) reads it without starting the CLI, and a binary changed since (a reinstall) is asked
again.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import npm_cache


def _counting_cli(folder: Path, version: str) -> tuple[Path, Path]:
    """A ``cli`` printing ``tool VERSION`` that adds a line to ``runs`` each time it starts."""
    runs = folder / "runs"
    cli = folder / "cli"
    cli.write_text(f"#!/bin/sh\necho ran >> '{runs}'\necho 'tool {version}'\n", encoding="utf-8")
    cli.chmod(0o755)
    return cli, runs


def test_a_version_asked_by_another_worker_is_read_not_run_again_until_the_binary_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(npm_cache, "KEPT_VERSIONS", tmp_path / "versions", raising=False)
    monkeypatch.setattr(npm_cache, "_VERSIONS", {})
    cli, runs = _counting_cli(tmp_path, "1.2.3")

    assert npm_cache.version_of(cli, last_word=True) == "1.2.3"
    monkeypatch.setattr(npm_cache, "_VERSIONS", {})  # another worker: nothing in its memory
    assert npm_cache.version_of(cli, last_word=True) == "1.2.3"
    assert runs.read_text(encoding="utf-8").count("ran") == 1, "asked twice"

    cli.write_text(cli.read_text(encoding="utf-8").replace("1.2.3", "1.2.40"), encoding="utf-8")
    os.utime(cli, ns=(1, 1))  # a reinstall: another file (its size and mtime)
    monkeypatch.setattr(npm_cache, "_VERSIONS", {})
    assert npm_cache.version_of(cli, last_word=True) == "1.2.40"
    assert runs.read_text(encoding="utf-8").count("ran") == 2, "a changed binary not asked"
    kept = sorted(path.read_text(encoding="utf-8") for path in (tmp_path / "versions").iterdir())
    assert kept == ["1.2.3", "1.2.40"], kept
