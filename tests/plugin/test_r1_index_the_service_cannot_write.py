"""R-1, R-2: a push whose index change the service cannot write says so, and loses nothing.

The service writes a machine's index change into its ``MEMORY.md`` by a line merge; where that
file is no regular file it can rewrite (a symlink an agent on the service's machine made, a
file hard-linked elsewhere, A-7), the change cannot be written there. The machine that sent it
gets an outcome line saying what was not taken, the service's reason and what to do, and the
lines it added are kept in a file of the scope (on the service and every copy, in the history),
never dropped by the fetch that follows.
"""

from __future__ import annotations

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
