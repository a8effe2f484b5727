"""R-1, H-3: the uninstall of the last remote-mode hooks names the local copy it leaves.

``install HARNESS --remote URL`` keeps a copy of the service's memory in ``~/.harness-memory``;
``uninstall`` takes the hooks out but keeps the copy, the only place a write not yet synced
lives. It used to say nothing of it: a user who uninstalled every harness found a folder of the
team's memory left in their home, with no word of what it was, whether anything in it still
had to go back, or how to send it and remove it. Now the uninstall that leaves a copy no hook
names says so, with its scopes as ``status`` gives them, the folder that removing the copy
removes and, while something waits to go back, first the ``sync`` that sends it: every scope
of the copy, wherever it is run (the bare ``harness-memory sync`` it named sent the user scope
and the working directory's, made a scope for that folder and left the waiting one, which the
``rm -rf`` after it destroyed).
"""

from __future__ import annotations

import io
import os
import shlex
import socket
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.settings import remote_memory_root
from memory_core import layout

from tests.plugin.real_service import RealService

REMOTE = "http://127.0.0.1:9"  # checked by nothing here (--no-check): no service is started


def run(home: Path, *argv: str) -> str:
    out = io.StringIO()
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": "a-token-of-32-characters-or-so-x"}
    assert main([*argv], environ=environ, stdout=out) == 0, out.getvalue()
    return out.getvalue()


def install(home: Path, harness: str, *flags: str) -> None:
    run(home, "install", harness, "--project", "acme", "--agent", "coder", "--no-check", *flags)


def test_r1_the_last_remote_uninstall_names_the_copy_and_the_folder(tmp_path: Path) -> None:
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
    assert root.is_dir()  # kept: it is the user's to remove
    assert "harness-memory sync" not in last  # nothing waits: no sync to run first
    [remove] = [part for part in last.split("`") if part.startswith("rm -rf ")]
    assert "nothing waits to go back: `rm -rf " in last
    assert Path(shlex.split(remove)[-1]) == state / "remote" / "acme" / "agents" / "coder"


def test_r1_a_scope_written_but_never_synced_waits_and_the_uninstall_says_to_sync_it(
    tmp_path: Path,
) -> None:
    """A scope folder the agent wrote into with no sync ever run (git missing, say: no git
    dir) holds what lives nowhere else: ``status`` lists it as waiting (it said "no scope
    synced yet") and the uninstall names the sync before the ``rm -rf``."""
    home = tmp_path / "home"
    install(home, "claude-code", "--remote", REMOTE)
    root = remote_memory_root(home / ".harness-memory", "acme", "coder")
    (root / "user").mkdir(parents=True)
    (root / "user" / "MEMORY.md").write_text("- written, never synced\n", encoding="utf-8")
    (root / "not-a-scope").mkdir()  # no scope key (K-7): no scope
    (root / "not-a-scope" / "x.md").write_text("x\n", encoding="utf-8")

    said = run(home, "uninstall", "claude-code")

    assert "  user: last sync never; changes wait to go back" in said
    assert "not-a-scope" not in said
    assert "goes back with `harness-memory sync --every-scope " in said


def _closed_url() -> str:
    """The URL of a loopback port nothing listens on (bound, never listened, then closed)."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{closed.getsockname()[1]}"


def test_r1_the_sync_the_uninstall_names_sends_every_scope_that_waits_from_any_folder(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scope synced while the service was down (a Workspace's, and the user scope written
    offline) waits in the copy; the uninstall lists it and names a sync that, run from any
    other folder, sends both: then nothing waits, the service holds both, and no scope was
    made for the folder it ran in. Only then is the copy's ``rm -rf`` harmless."""
    home = tmp_path / "home"
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": shared_service.token}
    environ["PATH"] = os.environ["PATH"]
    flags = ["--project", "acme", "--agent", new_agent]
    install = ["install", "claude-code", "--remote", shared_service.url, *flags, "--no-check"]
    assert main(install, environ=environ, stdout=io.StringIO()) == 0
    state = home / ".harness-memory"
    root = remote_memory_root(state, "acme", new_agent)
    shop = tmp_path / "code" / "shop"
    shop.mkdir(parents=True)
    offline = ["sync", "--remote", "on", "--state-dir", str(state), "--url", _closed_url()]
    said = io.StringIO()
    assert main([*offline, *flags, "--workspace", str(shop)], environ=environ, stdout=said) == 1
    [key] = [line.split(":")[0] for line in said.getvalue().splitlines() if "user" not in line]
    (root / "user" / "MEMORY.md").write_text("- written offline\n", encoding="utf-8")

    out = io.StringIO()
    assert main(["uninstall", "claude-code"], environ=environ, stdout=out) == 0
    left = out.getvalue()
    assert f"{key}: last sync never; changes wait to go back" in left
    assert "user: last sync never; changes wait to go back" in left
    [sync] = [part for part in left.split("`") if part.startswith("harness-memory sync ")]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    done = io.StringIO()
    assert main(shlex.split(sync)[1:], environ=environ, stdout=done) == 0, done.getvalue()

    out = io.StringIO()
    assert main([*shlex.split(sync)[1:], "--status"], environ=environ, stdout=out) == 0
    status = out.getvalue()
    assert "changes wait" not in status, status
    scopes = [line.split(":")[0].strip() for line in status.splitlines()[1:]]
    assert scopes == sorted(["user", key]), status  # none made for the folder it ran in
    served = layout.memory_root(shared_service.data_dir, new_agent)
    assert (served / "user" / "MEMORY.md").read_text(encoding="utf-8") == "- written offline\n"
    assert (served / key / layout.MARKER_FILE).read_text(encoding="utf-8") == f"{shop}\n"


def test_r1_an_uninstall_of_hooks_with_no_copy_says_nothing_of_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    install(home, "gemini", "--url", REMOTE, "--memory-root", str(root))

    said = run(home, "uninstall", "gemini")

    assert "local copy" not in said
    assert not (home / ".harness-memory").exists()
