"""H-3, H-7: after ``uninstall`` no file the install made that holds the bearer token is left
anywhere under HOME, and the user's own settings are theirs again byte for byte, through the
symlink a dotfiles repository keeps them behind.

What the installs write (``installers/claude_code.py``, ``codex.py``, ``gemini.py``): Claude
Code's ``settings.json`` (hooks, the memory root's permissions, ``autoMemoryEnabled`` and
``env.CLAUDE_CODE_DISABLE_AUTO_MEMORY``), Codex CLI's ``config.toml`` (features) and
``hooks.json``, Gemini CLI's ``settings.json`` (hooks, ``context.includeDirectoryTree``); the
token in a 0600 file of the state folder beside them (``harness-memory/token``, with
``install.json`` and ``.gitignore``), or in ``~/.config/harness-memory/tokens/`` when that folder
lies in a git work tree; a backup of each settings file it rewrites, 0600 when it holds a token
(the ``env.HARNESS_MEMORY_TOKEN`` or ``--token T`` of an earlier install). Each case here installs
twice with two tokens (the second install's backup holds the first's settings) and uninstalls.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main

FIRST, SECOND = "first-token-0123456789abcdefghij", "second-token-0123456789abcdefghi"
OWN = {  # the user's own settings, in their own layout
    "claude-code": (
        ".claude",
        "settings.json",
        '{\n    "theme": "dark",\n    "env": {"FOO": "1"}\n}\n',
    ),
    "codex": (".codex", "config.toml", '# mine\nmodel = "o3"\n\n[tui]\nnotifications = true\n'),
    "gemini": (".gemini", "settings.json", '{"ui": {"theme": "GitHub"}, "general": {}}\n'),
}


def run(home: Path, *argv: str) -> str:
    out = io.StringIO()
    environ = {"HOME": str(home), "PATH": os.environ["PATH"]}
    assert main([*argv], environ=environ, stdout=out) == 0, out.getvalue()
    return out.getvalue()


def holding_a_token(home: Path) -> list[str]:
    """Every file under ``home`` (hidden ones and git's objects too) whose bytes hold a token."""
    return sorted(
        str(path.relative_to(home))
        for path in home.rglob("*")
        if path.is_file() and not path.is_symlink()
        for data in [path.read_bytes()]
        if FIRST.encode() in data or SECOND.encode() in data
    )


def dotfiles(home: Path, linked: str, name: str, text: str) -> tuple[Path, Path]:
    """``~/dotfiles``, a git repository holding ``name`` with ``text`` (committed) under the
    folder ``linked`` names (``.claude/settings.json`` or ``.claude``), and the link to it from
    ``~/LINKED``; ``(the link, the settings file in the repository)``."""
    repository = home / "dotfiles"
    target = repository / name
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8", newline="")
    git = ["git", "-C", str(repository), "-c", "user.name=u", "-c", "user.email=u@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "mine"], check=True)
    link = home / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target if linked.endswith(name) else repository / linked)
    return link, target


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("mode", ["local", "remote", "folder-in-dotfiles"])
def test_h7_uninstall_leaves_no_token_and_the_users_settings_as_they_were(
    tmp_path: Path, harness: str, mode: str
) -> None:
    home = tmp_path / "home"
    folder, name, text = OWN[harness]
    if mode == "folder-in-dotfiles":  # the whole settings folder in the repository
        link, target = dotfiles(home, folder, f"{folder}/{name}", text)
    else:
        link, target = dotfiles(home, f"{folder}/{name}", name, text)
    mode_before = target.stat().st_mode
    where = (
        ["--remote", "http://127.0.0.1:9"]
        if mode == "remote"
        else ["--url", "http://127.0.0.1:9", "--memory-root", str(tmp_path / "memory")]
    )
    for token in (FIRST, SECOND):
        words = ["install", harness, "--project", "acme", "--agent", "coder", "--no-check"]
        run(home, *words, *where, "--token", token)
    assert holding_a_token(home), "the install keeps the token in a file"

    said = run(home, "uninstall", harness)

    assert holding_a_token(home) == [], said
    assert link.is_symlink(), said  # edited through the link, never replaced by a file
    assert target.read_text(encoding="utf-8") == text, said
    assert target.stat().st_mode == mode_before
    status = ["git", "-C", str(home / "dotfiles"), "status", "--porcelain", "--ignored"]
    assert subprocess.run(status, capture_output=True, text=True, check=True).stdout == ""
    assert f"{harness}: uninstalled" in said
    assert f"{harness}: removed " in said, said  # what it removed, named


def test_h7_uninstall_takes_out_the_token_an_earlier_install_wrote_into_claude_codes_env(
    tmp_path: Path,
) -> None:
    """Claude Code's settings, linked whole from a dotfiles repository, hold the user's keys
    and what an earlier install wrote: ``env.HARNESS_MEMORY_TOKEN`` and a hook command with
    ``--token``. An install moves the token into its file; the uninstall leaves the user's keys
    and no token in any file (the backup that held it included)."""
    home = tmp_path / "home"
    hook = "harness-memory hook claude-code session-start --project acme --agent coder"
    earlier = (
        '{"theme": "dark", "env": {"FOO": "1", "HARNESS_MEMORY_TOKEN": "' + FIRST + '"}, '
        '"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "'
        + f"{hook} --token {FIRST}"
        + '"}]}]}}\n'
    )
    link, target = dotfiles(home, ".claude", ".claude/settings.json", earlier)
    target.chmod(0o600)
    words = ["install", "claude-code", "--project", "acme", "--agent", "coder", "--no-check"]
    run(home, *words, "--url", "http://127.0.0.1:9", "--memory-root", str(tmp_path / "memory"))
    assert holding_a_token(home) != []

    said = run(home, "uninstall", "claude-code")

    assert holding_a_token(home) == [], said
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == '{"theme": "dark", "env": {"FOO": "1"}}\n'
