"""R-2, K-7: a name the service cuts for its disk is said as what it is, never as a join.

The service's memory root is on a disk of 143-byte names (a real FUSE file system,
:mod:`tests.support.short_names_disk`); a laptop sends a note whose name takes 196 bytes. The
service keeps it under a cut name, and the laptop's fetch moves its copy there: the only
difference between what it sent and what it got back. ``harness-memory sync`` said "received 3
files, joined with changes made elsewhere" of it, though no other machine changed anything: now
it says which name was kept under which cut, and no join. The merge's line says how many index
lines were pointed at the cut name, and says nothing of index lines when none links to it (it
said "its index lines pointing there" of a note the index never named).
"""

from __future__ import annotations

from pathlib import Path

from harness_memory.cli_sync import _what_moved
from harness_memory.remote import SyncResult
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_cli import Machine, served_root
from tests.plugin.test_r2_sync_says_what_it_did import copy_texts, user_line
from tests.support.scope_texts import texts
from tests.support.short_names_disk import ECRYPTFS_NAME_MAX, short_names_disk

__all__ = ["served_root"]  # the fixture, used by name

LONG = "deploy-notes-" + "é" * 90 + ".md"  # 196 bytes of UTF-8
TEXT = "---\ndescription: how we ship\n---\nship on Fridays\n"


def _user(machine: Machine) -> Path:
    root = machine.state / "remote" / "acme" / "agents" / machine.agent / "agent_state"
    return root / "memory" / "user"


def test_r2_a_name_the_service_cut_is_said_kept_under_its_cut_not_joined(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root):
        laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
        user_line(laptop)
        (_user(laptop) / LONG).write_text(TEXT, encoding="utf-8")
        (_user(laptop) / layout.INDEX_FILE).write_text(f"- [Deploys]({LONG}) how we ship\n")

        said, under = user_line(laptop)

        held = texts(served_root / "user")
        [cut] = set(held) - {layout.INDEX_FILE}
        assert len(cut.encode()) <= ECRYPTFS_NAME_MAX
        assert copy_texts(laptop) == held
        assert said == (
            f"synced: sent 2 files, kept {LONG} under its cut name {cut} (the service's disk "
            "takes no longer names)"
        )
        assert under == [
            f"  merged: {LONG} takes 196 bytes, more than the service's disk takes in a name "
            f"({ECRYPTFS_NAME_MAX}): it is kept as {cut} on every copy, 1 index line pointing "
            "there"
        ]


def test_r2_a_cut_name_no_index_line_links_to_says_nothing_of_index_lines(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root):
        laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
        user_line(laptop)
        (_user(laptop) / LONG).write_text(TEXT, encoding="utf-8")
        (_user(laptop) / layout.INDEX_FILE).write_text("- a line naming no file\n")

        said, under = user_line(laptop)

        [cut] = set(texts(served_root / "user")) - {layout.INDEX_FILE}
        assert said.startswith(f"synced: sent 2 files, kept {LONG} under its cut name {cut} (")
        assert under == [
            f"  merged: {LONG} takes 196 bytes, more than the service's disk takes in a name "
            f"({ECRYPTFS_NAME_MAX}): it is kept as {cut} on every copy"
        ]


def test_r2_a_cut_beside_a_change_made_elsewhere_is_a_join_all_the_same() -> None:
    """The cut's files are no change made elsewhere; one file more is."""
    result = SyncResult(
        "user", ok=True, sent=True, sent_files=2, received_files=1, cuts={LONG: "d~1a2b3c.md"}
    )
    assert _what_moved(result) == (
        f"sent 2 files, received 1 file, kept {LONG} under its cut name d~1a2b3c.md (the "
        "service's disk takes no longer names), joined with changes made elsewhere"
    )
