"""A-10, H-3: an ``uninstall`` reads no token, so a ``HARNESS_MEMORY_TOKEN`` left exported (too
short for a bearer token, or pasted text with a line break) never stops it; nor does it stop a
managed ``install --no-check``, which writes no token and checks no service with it.

A reviewer ran ``HARNESS_MEMORY_TOKEN=short harness-memory uninstall claude-code``: exit 1,
"the token from HARNESS_MEMORY_TOKEN is 5 characters … (nothing was changed)"; the same for
``uninstall --managed DIR`` and ``install --managed DIR --no-check``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

TOKEN = "mem_XpMNslI1b3G6u03ulartpAan0dPgIxqFAk5jnawLvag"
LEFT_OVER = ["short", "Bearer mem_Xp\nMNsl and the rest of a pasted line"]


def run(home: Path, *argv: str, token: str) -> tuple[int, str]:
    """``(exit status, what was said)`` of ``harness-memory ARGV --home HOME``."""
    out = io.StringIO()
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": token}
    status = main([*argv, "--home", str(home)], environ=environ, stdout=out)
    return status, out.getvalue()


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("left_over", LEFT_OVER)
def test_a10_uninstall_works_whatever_token_is_left_exported(
    tmp_path: Path, harness: str, left_over: str
) -> None:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    assert run(home, "install", harness, "--no-check", *flags(home), token=TOKEN)[0] == 0
    settings = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}[harness]

    status, said = run(home, "uninstall", harness, token=left_over)

    assert status == 0, said
    assert not (home / settings / "harness-memory" / "token").exists(), said


@pytest.mark.parametrize("left_over", LEFT_OVER)
def test_a10_a_managed_install_unchecked_and_its_uninstall_judge_no_token(
    tmp_path: Path, left_over: str
) -> None:
    home, managed = tmp_path / "home", ["--managed", str(tmp_path / "managed")]
    Path(flags(home)[1]).mkdir(parents=True)

    installed = run(home, "install", "codex", "--no-check", *flags(home), *managed, token=left_over)
    assert installed[0] == 0, installed[1]
    assert "harness-memory" in (tmp_path / "managed" / "requirements.toml").read_text()
    removed = run(home, "uninstall", "codex", *managed, token=left_over)

    assert removed[0] == 0, removed[1]
    assert not (tmp_path / "managed" / "requirements.toml").exists(), removed[1]
