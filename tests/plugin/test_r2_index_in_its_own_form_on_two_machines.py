"""R-2: an index with CR-only line ends gets both machines' lines once each.

``tests/data/cases/delete-keeps-index-line``'s classic Mac index, synced: the service's user
index ends its lines in CR alone; a laptop and a desktop each append an index line the same
way, then both sync. Every copy and the service end with every line once, each ending in CR
alone (the other forms, UTF-16 and Windows-1252 among them, are merged by the same function:
``tests/core/test_r2_index_merged_in_its_own_form.py``).
"""

from __future__ import annotations

from pathlib import Path

from harness_memory.remote import RemoteCopy

from tests.plugin.test_r1_remote_sync import served_root, synced, two_machines

__all__ = ["served_root", "two_machines"]  # the fixtures, used by name


def test_r2_lines_both_machines_append_to_a_cr_only_index_arrive_once_each(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    first = "- [Café notes](cafe-notes.md) — the café's wifi\r"
    laptops, desktops = "- [A](a.md) from the laptop\r", "- [B](b.md) from the desktop\r"
    index = served_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(first.encode())
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    for copy, line in ((laptop, laptops), (desktop, desktops)):
        with (copy.memory_root / "user" / "MEMORY.md").open("ab") as handle:
            handle.write(line.encode())
    synced(laptop)
    synced(desktop)
    synced(laptop)
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        assert (root / "user" / "MEMORY.md").read_bytes() == (first + laptops + desktops).encode()
