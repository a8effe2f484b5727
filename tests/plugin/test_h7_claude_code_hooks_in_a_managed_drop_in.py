"""H-3, H-7: hooks of ours that an administrator keeps in a ``managed-settings.d`` drop-in (the
managed install's settings moved there, ``managed-settings.json`` left to other policies) run
for every user just the same: Claude Code lays the drop-ins over ``managed-settings.json``
(test_h7_claude_code_managed_drop_ins). ``status`` lists them as the managed install, naming
the drop-in that holds them. Before, it read ``managed-settings.json`` alone and said
"claude-code (managed): not installed".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.test_h7_claude_code_managed_drop_ins import drop_in
from tests.plugin.test_h7_install_names_machine_settings_switching_hooks_off import (
    install,
    machine_settings,
)
from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli


def test_status_lists_hooks_held_only_in_a_drop_in_as_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    code, said = install(tmp_path, "claude-code", env, "--managed", str(path.parent))
    assert code == 0, said
    ours = json.loads(path.read_text(encoding="utf-8"))
    held = drop_in(path, "50-agent-memory.json", json.dumps(ours))
    path.write_text('{"permissions": {"deny": ["Read(./.env)"]}}', encoding="utf-8")

    code, status = cli(tmp_path / "home", "status", **env)

    managed = [line for line in status.splitlines() if line.startswith("claude-code (managed)")]
    assert managed[0] == f"claude-code (managed): installed in {held}", status
    assert not any("not installed" in line for line in managed), status
    assert any("memory root" in line for line in managed), status


def test_a_user_install_warns_of_hooks_a_drop_in_already_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the managed install's hooks in a drop-in, a user install would run every hook
    twice (the memory injected twice): it says so, naming the drop-in, as beside hooks in
    ``managed-settings.json``."""
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    assert install(tmp_path, "claude-code", env, "--managed", str(path.parent))[0] == 0
    held = drop_in(path, "50-agent-memory.json", path.read_text(encoding="utf-8"))
    path.write_text("{}", encoding="utf-8")

    _, said = install(tmp_path, "claude-code", env)

    assert f"{held} (the managed install) already runs these hooks for every user" in said, said


def test_a_managed_install_again_warns_of_hooks_a_drop_in_already_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A managed install again, beside the hooks an administrator moved into a drop-in,
    writes them into ``managed-settings.json`` too: it says so, naming both files, as a user
    install does (before, it wrote them without a word)."""
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", "{}")
    assert install(tmp_path, "claude-code", env, "--managed", str(path.parent))[0] == 0
    held = drop_in(path, "50-agent-memory.json", path.read_text(encoding="utf-8"))
    path.write_text("{}", encoding="utf-8")

    code, said = install(tmp_path, "claude-code", env, "--managed", str(path.parent))

    warning = f"claude-code: WARNING: {held} (the managed install) already runs these hooks"
    assert code == 0 and warning in said and f"written into {path} too" in said, said
    assert f"`harness-memory uninstall claude-code --managed {path.parent}`" in said, said
