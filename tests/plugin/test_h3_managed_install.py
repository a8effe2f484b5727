"""``install claude-code --managed [DIR]``: the hooks in Claude Code's managed settings, which no
repository can switch off (``tests/data/cases/repository-switches-hooks-off``; the real-CLI proof
is ``test_e2e_repository_switches_hooks_off.py``)."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.claude_code import managed_dir

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]


def run(tmp_path: Path, *words: str) -> tuple[int, str]:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    out = io.StringIO()
    extra = [*FLAGS, "--memory-root", str(root)] if words[0] == "install" else []
    argv = [*words, "--home", str(tmp_path / "home"), *extra]
    status = main(argv, environ={"HOME": str(tmp_path / "home")}, stdout=out)
    return status, out.getvalue()


def test_repository_switches_hooks_off_managed_install_writes_managed_settings(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "etc" / "claude-code"
    status, said = run(tmp_path, "install", "claude-code", "--managed", str(folder))
    assert status == 0
    path = folder / "managed-settings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["autoMemoryEnabled"] is False
    assert any(
        "hook claude-code pre-tool-use" in h["command"]
        for g in document["hooks"]["PreToolUse"]
        for h in g["hooks"]
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # every user's Claude Code reads it
    commands = [h["command"] for gs in document["hooks"].values() for g in gs for h in g["hooks"]]
    for command in commands:  # one command for every user: each finds their own state folder
        assert "--flags-only" in command  # in their account's home (test_p2a_repository_env)
        assert "--state-dir" not in command and "--token" not in command
    assert "no repository's or user's settings can switch them off" in said
    assert not (tmp_path / "home" / ".claude").exists()

    status, said = run(tmp_path, "uninstall", "claude-code", "--managed", str(folder))
    assert status == 0
    assert not path.exists()  # the install created it; nothing else was added since
    assert not folder.exists()  # and the folder it made for it


def test_repository_switches_hooks_off_user_install_says_a_repository_can(
    tmp_path: Path,
) -> None:
    status, said = run(tmp_path, "install", "claude-code")
    assert status == 0
    assert '"disableAllHooks": true' in said and "--managed" in said


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["install", "gemini", "--managed"], "--managed is for claude-code and codex only"),
        (["install", "codex", "--managed", "--token", "t"], "a token there is anyone's"),
        (["install", "claude-code", "--managed", "--token", "t"], "a token there is anyone's"),
    ],
)
def test_repository_switches_hooks_off_managed_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(tmp_path, *words)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("platform", "folder"),
    [
        ("linux", "/etc/claude-code"),
        ("darwin", "/Library/Application Support/ClaudeCode"),
        ("win32", "C:/ProgramData/ClaudeCode"),
    ],
)
def test_repository_switches_hooks_off_managed_settings_live_where_claude_code_reads_them(
    platform: str, folder: str
) -> None:
    assert managed_dir(platform) == Path(folder)
