"""R-1, H-3: an install that switches the hooks' memory says from which to which, plainly.

A reviewer moved Claude Code's hooks from the service's memory root to remote mode (a local
copy synced with the service), and Codex CLI's remote hooks to another service: each install
said only "installed — wrote …" and "the rest …: --verbose", and ``--verbose`` said nothing of
it either. The install now says which memory the hooks used and which they use now, without
``--verbose``; installing again with the same settings says nothing of it.
"""

from __future__ import annotations

import io
from pathlib import Path

from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY

A = "http://127.0.0.1:9"
B = "http://127.0.0.2:9"


def install(home: Path, harness: str, *flags: str) -> str:
    out = io.StringIO()
    ids = ["--project", "acme", "--agent", "coder"] if flags else []
    argv = ["install", harness, "--home", str(home), *flags, *ids, "--no-check"]
    status = main(
        [*argv, "--executable", str(HARNESS_MEMORY)], environ={"HOME": str(home)}, stdout=out
    )
    assert status == 0, out.getvalue()
    return out.getvalue()


def test_r1_moving_the_hooks_into_remote_mode_says_from_which_memory_to_which(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    assert "switched" not in install(home, "claude-code", "--memory-root", str(root), "--url", A)

    said = install(home, "claude-code", "--remote", A)

    copy = home / ".harness-memory" / "remote" / "acme" / "agents" / "coder" / "agent_state"
    assert (
        f"claude-code: the hooks' memory switched: from the memory root {root} of the service "
        f"at {A} to a local copy in {copy / 'memory'} synced with the service at {A} (remote "
        "mode) (nothing of the old one was moved or removed)\n"
    ) in said
    assert "switched" not in install(home, "claude-code")  # again, as installed: nothing


def test_r1_remote_hooks_moved_to_another_service_say_so(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install(home, "codex", "--remote", A)

    said = install(home, "codex", "--remote", B)

    assert "codex: the hooks' memory switched: from a local copy in " in said
    assert f"synced with the service at {A} (remote mode) to a local copy in " in said
    assert f"synced with the service at {B} (remote mode) (the same folder: what it holds" in said
