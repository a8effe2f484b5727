"""A-10: ``--remote B`` with ``HARNESS_MEMORY_URL=A`` in the environment never keeps A's token.

The installed hooks' token was kept when the environment's URL named their service A, while the
hooks were then written for ``--remote B``: B got ``Bearer <A's token>`` (the check; with
``--no-check`` the token file was kept for B's hooks). The URL compared is the one the install
writes into the hooks, for every harness; a dry run's ``next:`` line, run in the same
environment, does what the dry run showed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.plugin.test_a10_install_again_makes_the_token_file_private import (
    TOKEN,
    install,
    installed,
)

A, B = "http://127.0.0.1:9", "http://127.0.0.2:9"
REMOTE = ["--remote", B, "--project", "acme", "--agent", "coder"]


def settings_text(home: Path, harness: str) -> str:
    name = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}
    return (home / name.get(harness, ".gemini/settings.json")).read_text("utf-8")


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_the_environments_url_does_not_keep_a_token_for_remote_b(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness)
    status, said = install(home, harness, *REMOTE, environ={"HARNESS_MEMORY_URL": A})
    assert status == 0, said
    assert not token_file.exists(), said
    text = settings_text(home, harness)
    assert B in text and "--token" not in text and TOKEN not in text


def test_a10_a_dry_runs_next_line_for_remote_b_keeps_no_token(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex")
    environ = {"HARNESS_MEMORY_URL": A}
    status, said = install(home, "codex", *REMOTE, "--dry-run", environ=environ)
    assert status == 0, said
    assert f"would remove {token_file}" in said, said
    words = shlex.split(said.rsplit("next: ", 1)[1])
    status, done = install(home, "codex", *words[3:], environ=environ)
    assert status == 0, done
    assert not token_file.exists(), done
    assert "--token" not in settings_text(home, "codex")
