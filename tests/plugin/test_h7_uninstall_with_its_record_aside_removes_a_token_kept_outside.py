"""H-7, A-10: a settings folder kept in git (``git init ~/.codex``) has its token kept outside
it (``~/.config/harness-memory/tokens/codex-…``); an ``uninstall`` whose install record was
moved aside (its own advice for a record it cannot read) removes that token by the rule it
applies inside the state folder: with nothing telling the user's token from the hooks' own,
the hooks' token is removed, and said removed.

A reviewer moved the record aside and uninstalled: the token outside stayed, without a word.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags


def outside_token(tmp_path: Path) -> tuple[Path, Path]:
    """``(home, the token file)`` of codex installed with ``~/.codex`` in a git work tree."""
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(home / ".codex")], check=True, env=env)
    token = {"HARNESS_MEMORY_TOKEN": "s3cr3t-Token-4711-outside"}
    status, said = install(home, "codex", *flags(home, A), environ=token)
    assert status == 0, said
    tokens = home / ".config" / "harness-memory" / "tokens"
    (token_file,) = (path for path in tokens.glob("codex-*") if path.suffix != ".url")
    record = home / ".codex" / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.broken"))
    return home, token_file


@pytest.mark.parametrize("hooks_gone", [False, True])
def test_h7_uninstall_with_the_record_aside_removes_the_token_kept_outside(
    tmp_path: Path, hooks_gone: bool
) -> None:
    """Found by the hooks' ``--token-file``, or (the hooks taken out by hand) where an install
    for that settings folder keeps it."""
    home, token_file = outside_token(tmp_path)
    if hooks_gone:
        (home / ".codex" / "hooks.json").unlink()
    out = io.StringIO()

    status = main(
        ["uninstall", "codex", "--home", str(home), "--verbose"],
        environ={"HOME": str(home)},
        stdout=out,
    )

    assert status == 0, out.getvalue()
    assert not token_file.exists(), out.getvalue()
    assert f"removed {token_file}" in out.getvalue(), out.getvalue()
