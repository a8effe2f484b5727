"""The kernel's mount table, counting its reads: what the write guard's cost is measured by (P-3).

:class:`CountingTable` stands in for :data:`harness_memory.mounts.MOUNT_TABLE` (it has the one
method the guard calls), so a bench (``plugins/harness-memory/bench/guard_cost.py``) and the
tests (``tests/support/mount_reads.py``) count how often one decision reads the table: once per
call, however many paths it names.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CountingTable"]


class CountingTable:
    """The real mount table (``/proc/self/mountinfo``), counting how often it is read
    (``reads``, set back to 0 by the caller between decisions)."""

    def __init__(self) -> None:
        self.reads = 0

    def read_bytes(self) -> bytes:
        """The table's bytes, as ``Path.read_bytes``; raises ``OSError`` as it does."""
        self.reads += 1
        return Path("/proc/self/mountinfo").read_bytes()
