"""H-6, H-3: this machine's Claude Code managed settings (``managed-settings.json`` and its
``managed-settings.d`` drop-ins, merged as Claude Code merges them) win over the user's: a false
``env.CLAUDE_CODE_DISABLE_AUTO_MEMORY`` there keeps Claude Code's own auto memory on whatever the
user install writes, and ``"autoMemoryEnabled": true`` there does while the user's settings set
no variable. Before, ``install claude-code`` said "Claude Code's own auto memory: turned off"
twice and ``status`` said nothing; now both say a WARNING naming the file and the key, and that
an administrator must change it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.test_h7_install_names_machine_settings_switching_hooks_off import (
    install,
    machine_settings,
)
from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli

TURNED_OFF = "Claude Code's own auto memory: turned off"
KEPT_ON = "this machine's Claude Code managed settings, keeps Claude Code's own auto memory on"


def warnings(said: str) -> list[str]:
    """The lines of ``said`` warning that the managed settings keep auto memory on."""
    return [line for line in said.splitlines() if "WARNING" in line and KEPT_ON in line]


@pytest.mark.parametrize("value", ['"0"', '"false"', "false", '" OFF "'])
def test_managed_env_turning_auto_memory_on_is_a_warning_in_install_and_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    text = f'{{"env": {{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": {value}}}, "autoMemoryEnabled": true}}'
    path, env = machine_settings(tmp_path, monkeypatch, "claude-code", text)

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0, said
    assert TURNED_OFF not in said, said
    (line,) = warnings(said)
    assert line.startswith(f"claude-code: WARNING: {path}, "), line
    assert "env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = " in line and "administrator" in line
    _, status = cli(tmp_path / "home", "status", **env)
    (line,) = warnings(status)
    assert line.startswith(f"claude-code: WARNING: {path}, "), status


def test_a_drop_in_turning_auto_memory_on_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, env = machine_settings(
        tmp_path, monkeypatch, "claude-code", '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}'
    )
    drop_in = path.parent / "managed-settings.d" / "50-memory.json"
    drop_in.parent.mkdir()
    drop_in.write_text('{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}', encoding="utf-8")

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0 and TURNED_OFF not in said, said
    (line,) = warnings(said)
    assert line.startswith(f"claude-code: WARNING: {drop_in}, "), line
    _, status = cli(tmp_path / "home", "status", **env)
    assert [line] == warnings(status), status


def test_managed_auto_memory_enabled_wins_where_the_user_sets_no_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The install sets the variable to "1", which Claude Code reads first: off, as it says.
    Taken out of the user's settings again, the managed ``autoMemoryEnabled`` wins over the
    user's ``false``, and ``status`` says so."""
    path, env = machine_settings(
        tmp_path, monkeypatch, "claude-code", '{"autoMemoryEnabled": true}'
    )

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0 and TURNED_OFF in said and not warnings(said), said
    user = tmp_path / "home" / ".claude" / "settings.json"
    settings = json.loads(user.read_text(encoding="utf-8"))
    del settings["env"]["CLAUDE_CODE_DISABLE_AUTO_MEMORY"]
    user.write_text(json.dumps(settings), encoding="utf-8")
    _, status = cli(tmp_path / "home", "status", **env)
    (line,) = warnings(status)
    assert (
        line.startswith(f"claude-code: WARNING: {path}, ") and '"autoMemoryEnabled": true' in line
    )


@pytest.mark.parametrize(
    "text",
    ['{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, "autoMemoryEnabled": true}', "{}"],
)
def test_managed_settings_keeping_auto_memory_off_leave_turned_off_true(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    _, env = machine_settings(tmp_path, monkeypatch, "claude-code", text)

    code, said = install(tmp_path, "claude-code", env)

    assert code == 0 and TURNED_OFF in said and not warnings(said), said
    _, status = cli(tmp_path / "home", "status", **env)
    assert not warnings(status) and "auto memory is on" not in status, status


def test_a_managed_install_beside_a_drop_in_keeping_auto_memory_on_says_so_as_status_does(
    tmp_path: Path,
) -> None:
    """``install claude-code --managed``: Claude Code lays its ``managed-settings.d`` drop-ins
    over ``managed-settings.json``, so one setting ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` to
    ``"0"`` keeps its own memory on whatever the install writes there. It said "turned off"."""
    managed = tmp_path / "etc" / "claude-code"
    drop_in = managed / "managed-settings.d" / "50-memory.json"
    drop_in.parent.mkdir(parents=True)
    drop_in.write_text('{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}', encoding="utf-8")

    code, said = install(tmp_path, "claude-code", {}, "--managed", str(managed))

    assert code == 0, said
    assert TURNED_OFF not in said, said
    (line,) = warnings(said)
    assert line.startswith(f"claude-code: WARNING: {drop_in}, "), line
    assert 'env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = "0"' in line and "administrator" not in line
    assert "with its own auto memory off" not in said
    _, status = cli(tmp_path / "home", "status", "--managed", str(managed))
    assert [line.replace("claude-code:", "claude-code (managed):", 1)] == warnings(status)


def test_no_check_reads_no_managed_settings_for_the_own_memory_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-check``: settings prepared for another machine, which this one's say nothing of
    (its help and README): the note says what the written settings do, as without managed
    settings here; it read them and warned. ``status`` here still says it."""
    path, env = machine_settings(
        tmp_path, monkeypatch, "claude-code", '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}'
    )

    code, said = install(tmp_path, "claude-code", env, "--no-check")

    assert code == 0, said
    assert TURNED_OFF in said and not warnings(said), said
    _, status = cli(tmp_path / "home", "status", **env)
    (line,) = warnings(status)
    assert line.startswith(f"claude-code: WARNING: {path}, "), status
