"""An install into settings that switch every hook off themselves says so, and ``status``
reports it as a problem (H-3, H-7, P-3).

The repository's settings switching the user's hooks off are
``test_h7_status_names_a_workspace_switching_hooks_off.py``; this is the user's own file (or a
managed one) saying it: Claude Code's ``"disableAllHooks": true``, Codex CLI's ``[features]
hooks = false`` (or ``codex_hooks = false``), Gemini CLI's ``hooksConfig.enabled: false`` or a
``hooksConfig.disabled`` naming our hooks. Before, the install said "installed" and ``status``
"installed in", while no Session ever got memory or the write guard. The install leaves the
switch as the user set it (other hooks may be off on purpose).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]
FLAGS += ["--executable", "/opt/venv/bin/harness-memory"]

SWITCHED_OFF = {
    ("claude-code", ".claude/settings.json", '{"disableAllHooks": true}\n'): (
        '"disableAllHooks": true'
    ),
    ("codex", ".codex/config.toml", "[features]\nhooks = false\n"): "[features] hooks = false",
    ("codex", ".codex/config.toml", "# mine\n[features]\ncodex_hooks = false # old name\n"): (
        "[features] codex_hooks = false"
    ),
    ("gemini", ".gemini/settings.json", '{\n  // mine\n  "hooksConfig": {"enabled": false}\n}\n'): (
        "hooksConfig.enabled: false"
    ),
    # Gemini CLI 0.61 reads "true"/"false" in any case as booleans (measured: no hook runs)
    ("gemini", ".gemini/settings.json", '{"hooksConfig": {"enabled": "FALSE"}}\n'): (
        "hooksConfig.enabled: false"
    ),
    (
        "gemini",
        ".gemini/settings.json",
        '{"hooksConfig": {"disabled": ["agent-memory-before-tool", "lint"]}}\n',
    ): "hooksConfig.disabled lists agent-memory-before-tool",
}
"""(harness, the user's settings file, its text) → what the warning names."""

LEFT_ON = {
    "claude-code": (".claude/settings.json", '{"disableAllHooks": false}\n'),
    "codex": (".codex/config.toml", "[features]\nhooks = true\n"),
    "gemini": (".gemini/settings.json", '{"hooksConfig": {"enabled": true, "disabled": ["x"]}}\n'),
}


def cli(home: Path, *words: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return code, out.getvalue()


def install(tmp_path: Path, harness: str, *more: str) -> tuple[Path, str]:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    code, said = cli(home, "install", harness, *FLAGS, "--memory-root", str(root), *more)
    assert code == 0, said
    return home, said


def settings(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / "home" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("harness", "name", "text"), list(SWITCHED_OFF), ids=str)
def test_an_install_into_settings_that_switch_hooks_off_warns_and_keeps_the_switch(
    tmp_path: Path, harness: str, name: str, text: str
) -> None:
    path = settings(tmp_path, name, text)
    why = SWITCHED_OFF[(harness, name, text)]

    _, dry = install(tmp_path, harness, "--dry-run")
    home, said = install(tmp_path, harness)

    for output in (dry, said):
        assert f"{harness}: WARNING: {path} switches these hooks off itself ({why}" in output
        assert (
            "Sessions go without what they do (memory at Session start, the write guard)" in output
        )
    assert why.split(" ")[-1] in path.read_text(encoding="utf-8")  # still the user's choice
    code, status = cli(home, "status")
    assert f"{harness}: PROBLEM: {path} switches these hooks off itself ({why}" in status
    assert code == 1


@pytest.mark.parametrize("harness", list(LEFT_ON))
def test_settings_that_leave_hooks_on_get_no_such_warning(tmp_path: Path, harness: str) -> None:
    settings(tmp_path, *LEFT_ON[harness])

    home, said = install(tmp_path, harness)
    _, status = cli(home, "status")

    assert "switches these hooks off itself" not in said + status


def test_a_managed_install_into_settings_that_switch_every_hook_off_warns(tmp_path: Path) -> None:
    managed = tmp_path / "etc" / "claude-code"
    managed.mkdir(parents=True)
    path = managed / "managed-settings.json"
    path.write_text('{"disableAllHooks": true}\n', encoding="utf-8")

    _, said = install(tmp_path, "claude-code", "--managed", str(managed))

    assert f'WARNING: {path} switches these hooks off itself ("disableAllHooks": true)' in said


def test_status_says_when_managed_settings_let_only_managed_hooks_run(tmp_path: Path) -> None:
    managed = tmp_path / "etc" / "claude-code"
    managed.mkdir(parents=True)
    path = managed / "managed-settings.json"
    path.write_text('{"allowManagedHooksOnly": true}\n', encoding="utf-8")
    home, _ = install(tmp_path, "claude-code")

    code, said = cli(home, "status", "--managed", str(managed))

    assert (
        f'claude-code: PROBLEM: {path} lets only managed hooks run ("allowManagedHooksOnly"' in said
    )
    assert "`harness-memory install claude-code --managed` (as root) writes them there" in said
    assert code == 1
    path.write_text('{"allowManagedHooksOnly": false}\n', encoding="utf-8")
    assert "lets only managed hooks run" not in cli(home, "status", "--managed", str(managed))[1]


@pytest.mark.parametrize(("on", "off"), [("true", "false"), ('"True"', '"false"')])
def test_status_says_nothing_of_gemini_user_settings_when_the_system_pins_hooks_on(
    tmp_path: Path, on: str, off: str
) -> None:
    """Gemini CLI's system settings override the user's: their ``hooksConfig.enabled: true``
    keeps the user install's hooks running whatever the user's file says; Gemini CLI 0.61
    reads the strings ``"true"``/``"false"`` (any case) there as booleans."""
    settings(tmp_path, ".gemini/settings.json", f'{{"hooksConfig": {{"enabled": {off}}}}}\n')
    system = tmp_path / "etc" / "gemini-cli" / "settings.json"
    system.parent.mkdir(parents=True)
    system.write_text(f'{{"hooksConfig": {{"enabled": {on}}}}}\n', encoding="utf-8")
    home, _ = install(tmp_path, "gemini")
    out = io.StringIO()
    environ = {"HOME": str(home), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(system)}

    main(["status", "--home", str(home)], environ=environ, stdout=out)

    assert "switches these hooks off itself" not in out.getvalue()
    system.write_text('{"hooksConfig": {}}\n', encoding="utf-8")
    out = io.StringIO()
    main(["status", "--home", str(home)], environ=environ, stdout=out)
    assert "gemini: PROBLEM: " in out.getvalue()
    assert "switches these hooks off itself (hooksConfig.enabled: false)" in out.getvalue()
