"""R-1, R-2: a push whose index change the service cannot write says so, and loses nothing.

The service writes a machine's index change into its ``MEMORY.md`` by a line merge; where that
file is no regular file it can rewrite (a symlink an agent on the service's machine made, a
file hard-linked elsewhere, A-7), the change cannot be written there. The machine that sent it
gets an outcome line saying what was not taken, the service's reason and what to do, and the
lines it added are kept in a file of the scope (on the service and every copy, in the history),
never dropped by the fetch that follows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, synced


def _symlink(index: Path) -> None:
    """The service's index made a symlink to a file beside the scope."""
    target = index.parent.parent / "elsewhere.md"
    target.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(target)


def _hard_link(index: Path) -> None:
    """The service's index given a second name outside the scope (A-7: never read)."""
    os.link(index, index.parent.parent / "second-name.md")


@pytest.mark.parametrize("spoil", [_symlink, _hard_link], ids=["symlink", "hard-link"])
def test_r1_an_index_change_the_service_cannot_write_is_said_and_kept(
    shared_service: RealService, new_agent: str, tmp_path: Path, spoil: object
) -> None:
    user = layout.memory_root(shared_service.data_dir, new_agent) / "user"
    append(user / "MEMORY.md", "- [Old](old.md) old\n")
    append(user / "old.md", "old\n")
    laptop: RemoteCopy = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    assert callable(spoil)
    spoil(user / "MEMORY.md")
    scope = laptop.memory_root / "user"
    append(scope / "new.md", "new\n")
    append(scope / "MEMORY.md", "- [New](new.md) the laptop's line\n")
    [result] = laptop.sync(None)
    said = [line for line in result.outcomes if line.startswith("MEMORY.md")]
    assert len(said) == 1, result.outcomes
    [line] = said
    kept = line.partition(" are kept in ")[2].partition(" ")[0]
    assert "could not be written on the service" in line and "; to keep them in the index" in line
    assert kept.endswith(".md") and kept != "MEMORY.md", line
    for copy in (user, scope):
        assert "- [New](new.md) the laptop's line" in (copy / kept).read_text(encoding="utf-8")
        assert (copy / "new.md").read_text(encoding="utf-8") == "new\n"
    [again] = laptop.sync(None)
    assert again.ok and not again.sent and not again.waiting


def test_r1_the_session_end_hook_says_what_the_service_did_with_what_it_sent(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """The hooks send without a person watching a sync's own answer: what the service's merge
    did beyond taking the files (here: an index it could not write) is said on the hook's
    stderr, one line for the scope, so the harness shows it."""
    from tests.plugin.test_r1_remote_cli import Machine

    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    meta = laptop.start("s1")
    scope = Path(meta["directories"]["memoryRoot"]) / "user"
    user = layout.memory_root(shared_service.data_dir, new_agent) / "user"
    append(user / "MEMORY.md", "- the service's line\n")
    _symlink(user / "MEMORY.md")
    append(scope / "MEMORY.md", "- [New](new.md) the laptop's line\n")
    hook = {"session_id": "s1", "cwd": str(laptop.workspace), "hook_event_name": "SessionEnd"}
    done = laptop.run("hook", "claude-code", "session-end", stdin=json.dumps(hook))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    said = [line for line in done.stderr.splitlines() if "scope user" in line]
    assert len(said) == 1, done.stderr
    assert "sent: MEMORY.md could not be written on the service" in said[0]
    assert "MEMORY-" in said[0] and "then move them into it" in said[0]


def test_r1_the_session_start_hook_tells_the_user_what_its_sync_merged(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    from tests.plugin.test_r1_remote_cli import Machine

    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    meta = laptop.start("s1")
    scope = Path(meta["directories"]["memoryRoot"]) / "user"
    user = layout.memory_root(shared_service.data_dir, new_agent) / "user"
    append(user / "MEMORY.md", "- the service's line\n")
    _hard_link(user / "MEMORY.md")
    append(scope / "MEMORY.md", "- [New](new.md) the laptop's line\n")
    hook = {"session_id": "s2", "cwd": str(laptop.workspace), "source": "startup"}
    done = laptop.run("hook", "codex", "session-start", stdin=json.dumps(hook))
    assert done.returncode == 0, done.stderr
    message = json.loads(done.stdout)["systemMessage"]
    assert "Agent Memory: syncing scope user: MEMORY.md could not be written" in message
    assert "then move them into it" in message, message


def test_r1_a_send_that_keeps_the_index_on_the_machine_says_so_and_what_to_do(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """The post-write hook's send-only sync of a copy whose only change is one the service
    never takes (an index made a symlink) sends nothing, and still says what stays on the
    machine and what to do: it said nothing at all, each write, until a Session start."""
    from tests.plugin.test_r1_remote_cli import Machine

    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    meta = laptop.start("s1")
    scope = Path(meta["directories"]["memoryRoot"]) / "user"
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("- [New](new.md) the laptop's line\n", encoding="utf-8")
    (scope / "MEMORY.md").unlink(missing_ok=True)
    (scope / "MEMORY.md").symlink_to(elsewhere)
    hook = {"session_id": "s1", "cwd": str(laptop.workspace), "hook_event_name": "SessionEnd"}
    done = laptop.run("hook", "claude-code", "session-end", stdin=json.dumps(hook))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    said = [line for line in done.stderr.splitlines() if "scope user" in line]
    assert len(said) == 1, done.stderr
    assert "MEMORY.md stays on this machine only, never sent to the service" in said[0]
    assert "put the file itself in its place to sync it" in said[0]
