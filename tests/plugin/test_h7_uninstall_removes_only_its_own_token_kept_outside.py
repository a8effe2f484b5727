"""H-7, A-10: an uninstall removes the token file its own hooks keep outside a settings folder
in git (``~/.config/harness-memory/tokens/<folder>-<digest>``), never another settings folder's
that some other text in the settings merely names.

A reviewer kept ``CLAUDE_CONFIG_DIR=~/dots/work`` in git (its token outside, ``work-…``), and a
plain ``~/.claude`` whose ``statusLine`` command named that file with ``--token-file``: the
uninstall of ``~/.claude`` removed the work folder's token and its ``.url``, and its hooks
could no longer read one. With the ``~/.claude`` record moved aside, it removed the other
folder's token and left its own.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.token_place import plugin_token_file

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

TOKEN = "mem_XpMNslI1b3G6u03ulartpAan0dPgIxqFAk5jnawLvag"


def run(
    home: Path, *argv: str, config_dir: Path | None = None, environ: dict[str, str] | None = None
) -> str:
    """What ``harness-memory ARGV`` (with ``--home``, ``environ`` added) said; it must succeed."""
    env = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": TOKEN, **(environ or {})}
    if config_dir is not None:
        env["CLAUDE_CONFIG_DIR"] = str(config_dir)
    out = io.StringIO()
    status = main([argv[0], "claude-code", "--home", str(home), *argv[1:]], environ=env, stdout=out)
    assert status == 0, out.getvalue()
    return out.getvalue()


def git_init(folder: Path) -> None:
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(folder)], check=True, env=env)


def outside_tokens(home: Path, name: str) -> list[Path]:
    """The token files (not their ``.url``) kept outside for settings folders named ``name``."""
    tokens = home / ".config" / "harness-memory" / "tokens"
    return sorted(p for p in tokens.glob(f"{name}-*") if p.suffix != ".url")


def work_installed(home: Path) -> tuple[Path, Path]:
    """``(the work settings folder, its token kept outside)``: ``CLAUDE_CONFIG_DIR`` in git."""
    work = home / "dots" / "work"
    work.mkdir(parents=True)
    git_init(home / "dots")
    run(home, "install", "--no-check", *flags(home, A), config_dir=work)
    (token,) = outside_tokens(home, "work")
    return work, token


def names_in_a_status_line(home: Path, token: Path) -> None:
    """``~/.claude/settings.json`` whose ``statusLine`` command reads ``token``."""
    (home / ".claude").mkdir(exist_ok=True)
    line = {"type": "command", "command": f"mystatus --token-file {token}"}
    settings = home / ".claude" / "settings.json"
    document = json.loads(settings.read_text()) if settings.exists() else {}
    settings.write_text(json.dumps({**document, "statusLine": line}))


def test_h7_uninstall_keeps_a_token_only_another_command_names(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _, work_token = work_installed(home)
    names_in_a_status_line(home, work_token)
    run(home, "install", "--no-check", *flags(home, A))

    said = run(home, "uninstall", "--verbose")

    assert work_token.read_text() == TOKEN + "\n", said
    assert work_token.with_name(work_token.name + ".url").is_file(), said
    assert str(work_token) not in said


def test_h7_uninstall_with_its_record_aside_removes_its_own_token_not_anothers(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    _, work_token = work_installed(home)
    git_init(home / ".claude")
    run(home, "install", "--no-check", *flags(home, A))
    (own,) = outside_tokens(home, "claude")
    names_in_a_status_line(home, work_token)
    record = home / ".claude" / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.aside"))

    said = run(home, "uninstall", "--verbose")

    assert work_token.is_file(), said
    assert not own.exists(), said
    assert f"removed {own}" in said


@pytest.mark.parametrize(
    "where", ["repo/harness-memory/tokens/deploy", ".config/harness-memory/tokens/deploy"]
)
def test_h7_only_a_token_file_the_plugin_names_is_its_own(tmp_path: Path, where: str) -> None:
    """A repository's own ``harness-memory/tokens`` folder, or a file there named unlike the
    ones an install writes (``<folder>-<12 hex digits>``), is not the plugin's."""
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    path.write_text("x\n")
    ours = path.with_name("claude-0123456789ab")
    ours.write_text("x\n")

    assert not plugin_token_file(path, path.parent)
    assert plugin_token_file(ours, ours.parent)
