"""H-3, H-7: a ``managed-settings.json`` Claude Code cannot read (a link to a folder or in a
loop, a file over the 2,097,152 bytes it reads) is reported as an unreadable drop-in is: Claude
Code starts without it ("Managed settings failed to load; policies from the failed source are
NOT in effect"), so ``status`` notes it, by name and why, and ``install`` never reads a setting
from it. Before, status said "claude-code (managed): cannot read its settings" and failed, and
a file over the cap was read as if in effect: its ``"disableAllHooks": true`` failed a user
install that Claude Code runs, and ``install --managed`` rewrote it small enough to be read,
putting a policy in effect that was not. ``install --managed`` now refuses such a file, leaving
it as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h7_claude_code_managed_drop_ins import UNREAD
from tests.plugin.test_h7_install_names_machine_settings_switching_hooks_off import (
    install,
    machine_settings,
)
from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli

KINDS = ["link to a folder", "link loop", "larger than Claude Code reads"]


def unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> tuple[Path, dict[str, str]]:
    """The machine's ``managed-settings.json`` made one Claude Code cannot read, ``how``."""
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    path.unlink()
    UNREAD[how](path)
    return path, env


@pytest.mark.parametrize("how", KINDS)
def test_status_notes_an_unreadable_managed_settings_file_as_a_drop_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    path, env = unreadable(tmp_path, monkeypatch, how)

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0 and ": PROBLEM: " not in said, said
    code, status = cli(tmp_path / "home", "status", **env)
    named = [line for line in status.splitlines() if str(path) in line]
    assert len(named) == 1, status
    assert named[0].startswith(f"claude-code (managed): note: {path}, of this machine's"), status
    assert "Claude Code starts without it" in named[0] and "none of its settings" in named[0]
    assert ": PROBLEM: " not in status and "cannot read its settings" not in status, status
    assert code == 0, status


@pytest.mark.parametrize("how", KINDS)
def test_a_managed_install_refuses_a_settings_file_claude_code_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    path, env = unreadable(tmp_path, monkeypatch, how)
    before = path.read_bytes() if path.is_file() else None

    code, said = install(tmp_path, "claude-code", env, "--managed", str(path.parent))

    assert code == 1, said
    assert f"{path}, of this machine's Claude Code managed settings" in caplog.text, caplog.text
    assert "Claude Code starts without it" in caplog.text
    assert "(nothing was changed)" in caplog.text
    assert (path.read_bytes() if path.is_file() else None) == before
    assert not list(path.parent.glob("managed-settings.json.harness-memory-backup-*"))
