"""R-2, V-3: the service's history is replaced under two machines holding unsent edits.

An operator moves a damaged history aside (docs/operations.md, "A full disk, a damaged
history"), or retention cuts it: the version each machine last fetched is no version of the
scope any more, so each push is merged as one with no base and whatever differs is kept twice.
Every line both machines wrote must end on the service and on both machines, and every topic
file kept must be linked by an index line (an unindexed note is never shown at Session start):
the service's own files, written since its last record, raced each push, and the pushed text
kept beside the service's file lost its index line.
"""

from __future__ import annotations

from pathlib import Path

from harness_memory.remote import RemoteCopy
from memory_core import layout
from memory_core.index import index_lines_linking

from tests.plugin.test_r1_remote_sync import append, served_root, synced, two_machines
from tests.support.scope_texts import lines_of, texts

__all__ = ["served_root", "two_machines"]  # the fixtures, used by name


def write_on(copy: RemoteCopy, who: str) -> None:
    """An edit of ``a.md`` and a new note with its index line, on ``copy``."""
    scope = copy.memory_root / "user"
    (scope / "a.md").write_text(f"base\n{who}'s line\n", encoding="utf-8")
    (scope / f"{who}.md").write_text(f"{who}'s note\n", encoding="utf-8")
    append(scope / layout.INDEX_FILE, f"- [{who}]({who}.md) {who}'s note\n")


def test_r2_a_history_moved_aside_under_two_machines_loses_no_line_and_indexes_every_file(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    user = served_root / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / layout.INDEX_FILE).write_text("- [A](a.md) about a\n", encoding="utf-8")
    (user / "a.md").write_text("base\n", encoding="utf-8")
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    write_on(laptop, "laptop")
    write_on(desktop, "desktop")
    written = lines_of(laptop.memory_root / "user") | lines_of(desktop.memory_root / "user")
    history = served_root.parent / "history"
    (history / "user.git").rename(history / "user.git.damaged")

    said = [result.outcomes for copy in (laptop, desktop) for result in synced(copy)]
    synced(laptop)

    own = [[line for line in outcomes if " synced)" not in line] for outcomes in said]
    assert all(len(outcomes) == 1 for outcomes in own), said  # another's merge is said as its
    held = texts(user)
    assert held == texts(laptop.memory_root / "user") == texts(desktop.memory_root / "user")
    assert written <= lines_of(user)
    index = held[layout.INDEX_FILE]
    for name in set(held) - {layout.INDEX_FILE}:
        assert index_lines_linking(index, name), f"{name} is in no index line: {index!r}"


def test_r2_a_push_racing_an_unrecorded_write_on_the_service_keeps_both_texts_indexed(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """An agent on the service's machine rewrites ``a.md`` (no record yet) while the laptop's
    edit of it arrives: the service's text keeps the name and its line, the laptop's is kept
    beside, linked by the laptop's line pointed at it."""
    user = served_root / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / layout.INDEX_FILE).write_text("- [A](a.md) about a\n", encoding="utf-8")
    (user / "a.md").write_text("base\n", encoding="utf-8")
    laptop, _ = two_machines
    synced(laptop)
    (user / "a.md").write_text("base\nwritten on the service\n", encoding="utf-8")
    (laptop.memory_root / "user" / "a.md").write_text("base\nthe laptop's\n", encoding="utf-8")

    [result] = synced(laptop)

    [kept] = [name for name in texts(user) if name not in (layout.INDEX_FILE, "a.md")]
    assert result.outcomes == [
        f"a.md was edited on two machines: both are kept, the later one as {kept}"
    ]
    assert texts(user) == texts(laptop.memory_root / "user")
    assert texts(user)["a.md"] == "base\nwritten on the service\n"
    assert texts(user)[kept] == "base\nthe laptop's\n"
    assert texts(user)[layout.INDEX_FILE] == f"- [A](a.md) about a\n- [A]({kept}) about a\n"
