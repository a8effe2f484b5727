"""A-6, R-1: the reason a sync shows for a push refused beside an index the service cannot
rewrite always holds what to do, however long the deleted files' names and the scope's key.

The machine shows at most 500 characters of the service's reason. The refusal names the files
the push deletes (up to three, each up to 255 bytes) and the scope: said first, they pushed the
fix out of what the machine showed ("… make MEMORY.md on the service's machine a regular f").
The service now says what to do first.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_core import layout
from memory_core.keys import key_for_real_path
from memory_core.scope_files import INDEX_CAP

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import machine, served_root, synced

__all__ = ["served_root"]  # the fixture, used by name

NAMES = [f"deployment-notes-of-the-{'long-' * 40}{n}.md" for n in ("first", "second", "third")]
F_TEXT = "---\ndescription: f\n---\nbody of f\n"
FIX = (
    "the push was not taken, and the machine keeps its change: make MEMORY.md on the service's "
    "machine a regular file of the scope's folder, no symlink, at most "
    f"{INDEX_CAP} bytes (or remove it), then sync again."
)


def test_a6_r1_a_refused_delete_of_three_long_names_in_a_long_scope_says_the_fix(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / f"a-workspace-whose-folder-name-{'goes-on-' * 8}and-on"
    workspace.mkdir()
    key = key_for_real_path(os.path.realpath(workspace))
    assert len(key) > 50
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    copy = laptop.memory_root / key
    copy.mkdir(parents=True)
    (copy / layout.INDEX_FILE).write_text(
        "".join(f"- [N]({name}) a note\n" for name in NAMES), encoding="utf-8"
    )
    for name in NAMES:
        (copy / name).write_text(F_TEXT, encoding="utf-8")
    synced(laptop, str(workspace))
    index = served_root / key / layout.INDEX_FILE
    outside = tmp_path / "dotfiles" / layout.INDEX_FILE
    outside.parent.mkdir()
    outside.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(outside)
    for name in NAMES:
        (copy / name).unlink()
    (copy / layout.INDEX_FILE).write_text("", encoding="utf-8")

    [refused] = [result for result in laptop.sync(str(workspace)) if result.scope == key]

    assert not refused.ok and refused.waiting
    assert refused.error is not None and "HTTP 409" in refused.error, refused.error
    assert f"(the service says: {FIX} The push deletes '{NAMES[0]}'" in refused.error
    assert all((served_root / key / name).exists() for name in NAMES)
