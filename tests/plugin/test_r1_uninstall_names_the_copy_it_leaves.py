"""R-1, H-3: the uninstall of the last remote-mode hooks names the local copy it leaves.

``install HARNESS --remote URL`` keeps a copy of the service's memory in ``~/.harness-memory``;
``uninstall`` takes the hooks out but keeps the copy, the only place a write not yet synced
lives. It used to say nothing of it: a user who uninstalled every harness found a folder of the
team's memory left in their home, with no word of what it was, whether anything in it still
had to go back, or how to send it and remove it. Now the uninstall that leaves a copy no hook
names says so, with its scopes as ``status`` gives them, the ``sync`` that sends what waits (a
command ``harness-memory sync`` takes) and the folder that removing the copy removes.
"""

from __future__ import annotations

import io
import shlex
from pathlib import Path

from harness_memory.cli import main
from harness_memory.settings import remote_memory_root

REMOTE = "http://127.0.0.1:9"  # checked by nothing here (--no-check): no service is started


def run(home: Path, *argv: str) -> str:
    out = io.StringIO()
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": "a-token-of-32-characters-or-so-x"}
    assert main([*argv], environ=environ, stdout=out) == 0, out.getvalue()
    return out.getvalue()


def install(home: Path, harness: str, *flags: str) -> None:
    run(home, "install", harness, "--project", "acme", "--agent", "coder", "--no-check", *flags)


def test_r1_the_last_remote_uninstall_names_the_copy_the_sync_and_the_folder(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    install(home, "claude-code", "--remote", REMOTE)
    install(home, "codex", "--remote", REMOTE)
    state = home / ".harness-memory"
    root = remote_memory_root(state, "acme", "coder")
    assert root.is_dir()

    first = run(home, "uninstall", "claude-code")  # codex's hooks still use the copy
    last = run(home, "uninstall", "codex")

    assert "local copy" not in first
    assert f"codex: the local copy of the service's memory stays in {state}" in last
    assert f"codex: remote copy {root}: no scope synced yet" in last
    assert root.is_dir()  # kept: what waits to go back lives nowhere else
    [sync] = [part for part in last.split("`") if part.startswith("harness-memory sync ")]
    said = run(home, *shlex.split(sync)[1:], "--status")  # the named sync is one sync takes
    assert f"remote copy {root}: no scope synced yet" in said
    [remove] = [part for part in last.split("`") if part.startswith("rm -rf ")]
    assert Path(shlex.split(remove)[-1]) == state / "remote" / "acme" / "agents" / "coder"


def test_r1_an_uninstall_of_hooks_with_no_copy_says_nothing_of_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    install(home, "gemini", "--url", REMOTE, "--memory-root", str(root))

    said = run(home, "uninstall", "gemini")

    assert "local copy" not in said
    assert not (home / ".harness-memory").exists()
