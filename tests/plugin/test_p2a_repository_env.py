"""P-2a: a repository's settings can set the environment of a Session's hooks (Claude Code's
``.claude/settings.json`` ``env``, Gemini CLI's ``.env`` files), so the hooks ``harness-memory
install`` writes take their settings from their own flags (``--flags-only``): no
``HARNESS_MEMORY_*`` variable but the token can move the memory, the Session records the guard
trusts or the template, and the Session-start hook names the variables it ignored."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path
from typing import Any

from aiohttp.test_utils import unused_port
from harness_memory.cli import main
from harness_memory.settings import load_settings

from tests.plugin.helpers import hook_fixture

HOOK_ENV = ("TEMPLATE", "STATE_DIR", "REMOTE", "TIMEOUT", "ROOT", "URL", "AGENT", "TOKEN_FILE")


def install(harness: str, home: Path, root: Path) -> None:
    argv = ["install", harness, "--home", str(home), "--memory-root", str(root)]
    argv += ["--url", f"http://127.0.0.1:{unused_port()}", "--project", "acme", "--agent", "coder"]
    argv += ["--executable", "/opt/am/bin/harness-memory", "--no-check"]
    assert main(argv, environ={"HOME": str(home)}, stdout=io.StringIO()) == 0


def hook_argv(command: str) -> list[str]:
    """The ``harness-memory`` arguments of an installed hook command (its shell tail cut)."""
    return shlex.split(command.split(" || ", 1)[0])[1:]


def run_hook(argv: list[str], environ: dict[str, str], stdin: bytes) -> Any:
    out = io.StringIO()
    assert main(argv, environ=environ, stdin=io.BytesIO(stdin), stdout=out) == 0
    return json.loads(out.getvalue()) if out.getvalue() else None


def repository_env(home: Path, repo: Path) -> dict[str, str]:
    """What a cloned repository's settings put into the hooks' environment."""
    template = repo / "template.md"
    template.write_text("Be brief.\n", encoding="utf-8")  # no {{MEMORY}}: memory shrinks away
    return {
        "HOME": str(home),
        "HARNESS_MEMORY_TEMPLATE": str(template),
        "HARNESS_MEMORY_STATE_DIR": str(repo / ".records"),
        "HARNESS_MEMORY_REMOTE": "on",
        "HARNESS_MEMORY_TIMEOUT": "3600",
        "HARNESS_MEMORY_AGENT": "intruder",
    }


def make_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    return root


def test_p2a_claude_code_hooks_ignore_a_repositorys_env_and_say_so(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    repo.mkdir()
    root = make_root(tmp_path)
    install("claude-code", home, root)
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    start = hook_argv(settings["hooks"]["SessionStart"][0]["hooks"][0]["command"])

    answer = run_hook(
        start, repository_env(home, repo), hook_fixture("session_start.json", workspace=str(repo))
    )

    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "Be brief." not in context
    assert "Workspace Memory Key" in context  # the built-in template, memory and key line
    assert "- Agent id: coder" in context
    for name in ("AGENT", "REMOTE", "STATE_DIR", "TEMPLATE", "TIMEOUT"):
        assert f"HARNESS_MEMORY_{name}" in answer["systemMessage"]
    assert not (repo / ".records").exists()
    records = home / ".claude" / "harness-memory" / "sessions"
    assert [p.name for p in records.iterdir()] == ["6ae0bd3a-31ab-479d-8199-c610bd3ebf18.json"]


def test_p2a_every_installed_hook_command_takes_its_settings_from_its_flags(
    tmp_path: Path,
) -> None:
    root = make_root(tmp_path)
    files = {
        "claude-code": ".claude/settings.json",
        "codex": ".codex/hooks.json",
        "gemini": ".gemini/settings.json",
    }
    for harness, name in files.items():
        home = tmp_path / harness
        install(harness, home, root)
        hooks = json.loads((home / name).read_text(encoding="utf-8"))["hooks"]
        commands = [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]]
        assert commands
        for command in commands:
            argv = hook_argv(command)
            assert "--flags-only" in argv, command
            assert "--state-dir" in argv, command


def test_p2a_flags_only_reads_the_token_and_no_other_variable() -> None:
    environ = {f"HARNESS_MEMORY_{name}": "/repo/x" for name in HOOK_ENV}
    environ |= {"HARNESS_MEMORY_TOKEN": "t0k", "HARNESS_MEMORY_URL": "http://127.0.0.1:1"}
    flags: dict[str, str | None] = {"url": "http://127.0.0.1:1", "agent": "coder"}

    settings = load_settings(flags, environ, flags_only=True)

    assert settings.token == "t0k"
    assert settings.template_file is None
    assert settings.memory_root is None
    assert settings.token_file is None
    assert settings.remote is False
    assert settings.agent == "coder"
    assert settings.ignored_env == tuple(
        sorted(f"HARNESS_MEMORY_{n}" for n in HOOK_ENV if n != "URL")  # the URL agrees
    )


def test_p2a_status_warns_about_hooks_an_earlier_install_wrote_without_flags_only(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    install("claude-code", home, make_root(tmp_path))
    path = home / ".claude" / "settings.json"
    path.write_text(path.read_text(encoding="utf-8").replace(" --flags-only", ""), "utf-8")

    def status() -> str:
        out = io.StringIO()
        main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
        return out.getvalue()

    assert "run `harness-memory install claude-code` again" in status()
    assert "--flags-only" in status()
    install("claude-code", home, tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory")
    assert "--flags-only" not in status()
