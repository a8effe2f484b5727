"""No test runs a CLI in the user's real HOME (``~/.gemini/projects.json.*.tmp`` appeared there:
``gemini --version``, run to check the cached CLI's version, writes it)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

from tests.plugin.helpers import cli_env
from tests.support.npm_cache import version_of


def _real_home() -> Path:
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def test_the_suite_runs_in_a_home_of_its_own() -> None:
    home = Path(os.environ["HOME"])
    assert home != _real_home()
    assert home.name.startswith("tests-home-")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        assert name not in os.environ


def test_a_cli_version_check_writes_into_a_home_thrown_away(tmp_path: Path) -> None:
    """Like ``gemini --version``: the fake CLI writes into its HOME, then prints a version."""
    cli = tmp_path / "fake-cli"
    cli.write_text(
        '#!/bin/sh\nmkdir -p "$HOME/.fake" && echo "$HOME" > "$HOME/.fake/was-here"\n'
        "echo 'fake-cli 1.2.3'\n",
        encoding="utf-8",
    )
    cli.chmod(0o755)
    assert version_of(cli, last_word=True) == "1.2.3"
    for home in (Path(os.environ["HOME"]), _real_home()):
        assert not (home / ".fake").exists(), home


def test_a_cli_run_without_home_gets_a_spare_one(tmp_path: Path) -> None:
    spare = str(tmp_path / "spare")
    assert cli_env({"HARNESS_MEMORY_URL": "http://127.0.0.1:9"}, spare)["HOME"] == spare
    assert cli_env({}, spare)["HOME"] == spare
    assert cli_env({"HOME": "/given"}, spare)["HOME"] == "/given"
    assert cli_env(None, spare)["HOME"] == os.environ["HOME"] != str(_real_home())
