"""R-2, K-7: a topic file whose name is near the 255-byte limit, edited on two machines.

The later text is kept under ``<stem>-<machine>.md``, which would pass 255 bytes of UTF-8 (the
limit of ext4, xfs, btrfs, APFS): its stem is cut at a character and marked with a hash of the
whole name (:func:`memory_core.scope_merge.kept_name`). Two such names alike in their first
230 bytes keep copies apart, every copy — the service and both machines — ends with the same
files, each index line links the text it was written for, and a kept copy edited on one
machine reaches the other under its name: the cut name round-trips.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.test_r1_remote_sync import served_root, synced, two_machines
from tests.support.scope_texts import texts

__all__ = ["served_root", "two_machines"]  # the fixtures, used by name

NAMES = ["長" * 83 + "a.md", "長" * 83 + "b.md", "é" * 125 + "x.md", "😀" * 62 + "y.md"]


def test_r2_long_names_edited_on_two_machines_keep_both_texts_apart_and_round_trip(
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "desktop")  # the name in a kept copy's
    user = served_root / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / layout.INDEX_FILE).write_text(
        "".join(f"- [Note {n}]({name}) note {n}\n" for n, name in enumerate(NAMES)), "utf-8"
    )
    for name in NAMES:
        (user / name).write_text("base\n", encoding="utf-8")
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    for copy in (laptop, desktop):
        for n, name in enumerate(NAMES):
            (copy.memory_root / "user" / name).write_text(f"base\n{copy is laptop} {n}\n", "utf-8")
    synced(laptop)
    [merged] = synced(desktop)
    synced(laptop)

    held = texts(user)
    assert held == texts(laptop.memory_root / "user") == texts(desktop.memory_root / "user")
    kept = sorted(set(held) - {*NAMES, layout.INDEX_FILE})
    assert len(kept) == len(NAMES) == len(merged.outcomes)
    assert all(len(name.encode()) <= 255 and name.endswith("-desktop.md") for name in kept)
    index = held[layout.INDEX_FILE].splitlines()
    for n, name in enumerate(NAMES):
        assert held[name] == f"base\nTrue {n}\n"
        [theirs] = [k for k in kept if held[k] == f"base\nFalse {n}\n"]
        assert f"- [Note {n}]({theirs}) note {n}" in index
        assert f"- [Note {n}]({name}) note {n}" in index

    (laptop.memory_root / "user" / kept[0]).write_text("edited on the laptop\n", "utf-8")
    synced(laptop)
    synced(desktop)
    assert (desktop.memory_root / "user" / kept[0]).read_text("utf-8") == "edited on the laptop\n"
    assert texts(desktop.memory_root / "user") == texts(user)
