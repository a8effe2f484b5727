"""R-1, R-2: every ``harness-memory sync`` says in one line per scope what it did.

Two machines write to one scope without touching each other's files: the service joins their
changes with no conflict, so no ``merged:`` line is printed, and the scope's line is all that
tells the second machine its changes went out and the first one's came in. Each line is
checked against what the service and the copies then hold: ``sent N files``, ``received M
files``, ``joined with changes made elsewhere`` when both, ``nothing to do`` when neither.
Each ``sync`` runs the command's entry point in the test process (``Machine(in_process=True)``:
only its stdout is read here); ``test_r1_remote_cli`` runs it as a process of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory import remote
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_cli import Machine, served_root
from tests.plugin.test_r1_remote_sync import synced, two_machines
from tests.support.scope_texts import texts

__all__ = ["served_root", "two_machines"]  # the fixtures, used by name


def user_line(machine: Machine) -> tuple[str, list[str]]:
    """The user scope's line of ``harness-memory sync`` on ``machine`` and the lines under it."""
    done = machine.run("sync")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    [at] = [n for n, line in enumerate(lines) if line.startswith("user: ")]
    under = [line for line in lines[at + 1 :] if line.startswith("  ")]
    return lines[at].removeprefix("user: "), under


def write(machine: Machine, name: str, words: str) -> None:
    """A topic file and its index line, written into ``machine``'s copy of the user scope."""
    user = machine.state / "remote" / "acme" / "agents" / machine.agent / "agent_state"
    user = user / "memory" / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / name).write_text(f"---\ndescription: {words}\n---\n{words}\n", encoding="utf-8")
    with (user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write(f"- [{words}]({name}) {words}\n")


def copy_texts(machine: Machine) -> dict[str, str]:
    root = machine.state / "remote" / "acme" / "agents" / machine.agent / "agent_state"
    return texts(root / "memory" / "user")


def test_r2_a_sync_that_joins_two_machines_changes_without_conflict_says_so(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    desktop = Machine(tmp_path, "desktop", shared_service, new_agent, in_process=True)
    write(laptop, "pnpm.md", "use pnpm")
    write(desktop, "ruff.md", "lint with ruff")  # neither machine has synced yet

    assert user_line(laptop) == ("synced: sent 2 files", [])
    said, under = user_line(desktop)
    assert said == "synced: sent 2 files, received 2 files, joined with changes made elsewhere"
    assert under == []  # the join had no conflict: no merged line
    assert user_line(laptop) == ("synced: received 2 files", [])
    held = texts(served_root / "user")
    assert held == copy_texts(laptop) == copy_texts(desktop)
    assert set(held) == {layout.INDEX_FILE, "pnpm.md", "ruff.md"}
    for machine in (laptop, desktop):
        assert user_line(machine) == (
            "synced: nothing to do: nothing to send, nothing new on the service",
            [],
        )


def test_r2_a_sync_that_only_receives_or_only_deletes_counts_its_files(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    desktop = Machine(tmp_path, "desktop", shared_service, new_agent, in_process=True)
    for name in ("a.md", "b.md", "c.md"):
        write(laptop, name, f"note {name}")
    assert user_line(laptop) == ("synced: sent 4 files", [])
    assert user_line(desktop) == ("synced: received 4 files", [])
    root = desktop.state / "remote" / "acme" / "agents" / new_agent / "agent_state"
    (root / "memory" / "user" / "c.md").unlink()
    assert user_line(desktop) == ("synced: sent 1 file", [])
    assert not (served_root / "user" / "c.md").exists()
    assert user_line(laptop) == ("synced: received 1 file", [])
    assert copy_texts(laptop) == copy_texts(desktop) == texts(served_root / "user")


def test_r2_a_delete_undone_by_another_machine_s_edit_is_said_to_the_deleting_machine(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The laptop deletes a note and syncs; the desktop, which had not synced since, edits it
    and syncs: the service keeps the edited note and tells the desktop. The laptop's next sync
    brings the note back, and says why, with whose sync the merge was made: its delete was
    taken before the edit came, so no version of its own holds the outcome."""
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    desktop = Machine(tmp_path, "desktop", shared_service, new_agent, in_process=True)
    write(laptop, "pnpm.md", "use pnpm")
    user_line(laptop)
    user_line(desktop)
    root = laptop.state / "remote" / "acme" / "agents" / new_agent / "agent_state"
    (root / "memory" / "user" / "pnpm.md").unlink()
    assert user_line(laptop) == ("synced: sent 1 file", [])
    other = desktop.state / "remote" / "acme" / "agents" / new_agent / "agent_state"
    with (other / "memory" / "user" / "pnpm.md").open("a", encoding="utf-8") as note:
        note.write("pnpm 9 at least\n")
    kept = "pnpm.md was deleted on one machine and edited on another: kept"
    assert user_line(desktop) == ("synced: sent 1 file", [f"  merged: {kept}"])
    said, under = user_line(laptop)
    assert said == "synced: received 1 file"
    [line] = under
    assert line.startswith(f"  merged: {kept} (merged when ") and line.endswith(" synced)")
    assert copy_texts(laptop) == copy_texts(desktop) == texts(served_root / "user")


def test_r2_nothing_to_do_beside_a_file_that_stays_here_claims_no_equal_copies(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """A file no scope holds stays on this machine, named under the line: the line says there
    was nothing to send or receive, never that the copy and the service hold the same."""
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    write(laptop, "pnpm.md", "use pnpm")
    user_line(laptop)
    root = laptop.state / "remote" / "acme" / "agents" / new_agent / "agent_state"
    (root / "memory" / "user" / "notes.txt").write_text("scratch\n", encoding="utf-8")
    said, [under] = user_line(laptop)
    assert said == "synced: nothing to do: nothing to send, nothing new on the service"
    assert under.startswith("  merged: notes.txt stays on this machine only")


def test_r2_a_file_written_while_the_sync_moves_the_files_is_sent_by_the_same_sync(
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The agent writes ``deploy.md`` just as the sync, having sent what it had, moves the
    files to the version fetched, which changes ``deploy.md`` too (the laptop's edit): git
    will not move that file. The sync runs again at once: the write is sent, both texts are
    kept and said, and the sync succeeds, where it failed with git's words (``Entry
    'deploy.md' not uptodate. Cannot merge.``) and left the write for the next one."""
    laptop, desktop = two_machines
    user = served_root / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / "deploy.md").write_text("v0\n", encoding="utf-8")
    synced(laptop)
    synced(desktop)
    (laptop.memory_root / "user" / "deploy.md").write_text("v1 laptop\n", encoding="utf-8")
    synced(laptop)
    (desktop.memory_root / "user" / "other.md").write_text("sent first\n", encoding="utf-8")
    fit = remote._ScopeRun._fit_names
    writes: list[Path] = []

    def write_meanwhile(run: remote._ScopeRun, incoming: str) -> str:
        if not writes:  # once: the agent's one write, made as the files are about to move
            writes.append(run.scope / "deploy.md")
            writes[0].write_text("v2 desktop, written during the sync\n", encoding="utf-8")
        return fit(run, incoming)

    monkeypatch.setattr(remote._ScopeRun, "_fit_names", write_meanwhile)
    [result] = synced(desktop)
    monkeypatch.undo()

    assert writes and result.sent and not result.waiting
    assert result.sent_files == 2  # other.md in the first run, deploy.md in the second
    [kept] = result.outcomes
    assert kept.startswith("deploy.md was edited on two machines: both are kept")
    held = texts(user)
    assert {held["deploy.md"], *(t for n, t in held.items() if n.startswith("deploy-"))} == {
        "v1 laptop\n",
        "v2 desktop, written during the sync\n",
    }
    assert held == texts(desktop.memory_root / "user")


def test_r1_a_sync_that_sent_files_never_says_nothing_was_saved() -> None:
    """A sync that sent files and then found no version of the scope on the service (one that
    recorded nothing, seen on a FUSE disk whose folder times were cached) said "nothing saved
    yet, here or on the service": its own files were there."""
    from harness_memory.cli_sync import _said
    from harness_memory.remote import SyncResult

    sent = SyncResult("user", ok=True, sent=True, missing=True, sent_files=2)
    assert _said(sent) == (
        "sent 2 files, but the service showed no version of this scope after taking them; "
        "the next sync brings what it keeps"
    )
    assert _said(SyncResult("user", ok=True, missing=True)) == (
        "nothing saved yet, here or on the service"
    )
