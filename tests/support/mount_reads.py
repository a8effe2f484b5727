"""Counting the reads of the kernel's mount table in a hook call (P-3, A-9, K-1).

The guard reads ``/proc/self/mountinfo`` once per decision through
:data:`harness_memory.mounts.MOUNT_TABLE`; the /proc rule's walk (a Session key derived from a
folder reached through a symlink) reads it on its own, with ``open``, only when it is given
no table. :func:`counted_reads` counts both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness_memory import mounts
from memory_core import proc_paths

from bench.mount_reads import CountingTable

if TYPE_CHECKING:
    import pytest

__all__ = ["CountingTable", "counted_reads"]


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> tuple[CountingTable, list[object]]:
    """The guard's table, counting its reads, and the list of files the /proc rule's walk
    opens itself (empty while it is handed the call's table), for the test's duration."""
    table = CountingTable()
    monkeypatch.setattr(mounts, "MOUNT_TABLE", table)
    opened: list[object] = []

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(file)
        return open(file, *args, **kwargs)  # noqa: PTH123 - the builtin it stands in for

    monkeypatch.setattr(proc_paths, "open", counting_open, raising=False)
    return table, opened
