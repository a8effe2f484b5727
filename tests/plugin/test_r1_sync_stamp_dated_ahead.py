"""R-1, R-2: a Session start syncs even when the last sync was dated by a clock running ahead.

Claude Code runs a Session's SessionStart entries at once; the first to take a scope's lock
syncs it and the others read what it brought, telling its sync by the stamp it left, dated
after their own start. A stamp written while the machine's clock ran ahead (a day, then set
back by NTP) is dated after every later start too: every Session start read the copy as it was,
without a word to the service, until the clock caught up. Only a stamp dated between the
entry's start and now is a parallel entry's sync.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from harness_memory.session import started_no_earlier

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, synced

DAY_S = 24 * 60 * 60


def test_r1_a_sync_stamp_dated_ahead_by_the_clock_is_no_fresh_sync(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    synced(laptop)
    synced(desktop)
    stamp = laptop.sync_dir / "user.synced"
    ahead = time.time() + DAY_S
    os.utime(stamp, (ahead, ahead))  # the clock ran a day ahead at that sync
    append(desktop.memory_root / "user" / "MEMORY.md", "- [Later](later.md) from the desktop\n")
    synced(desktop)

    [result] = laptop.sync(None, fresh_since=time.time())

    assert result.ok and not result.skipped, result.as_json()
    index = (laptop.memory_root / "user" / "MEMORY.md").read_text(encoding="utf-8")
    assert "- [Later](later.md) from the desktop\n" in index


def test_r1_a_parallel_entry_s_sync_since_this_start_is_still_read_not_made_again(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    started = time.time() - 1.0
    synced(laptop)  # the entry that took the lock first

    [result] = laptop.sync(None, fresh_since=started)

    assert result.ok and result.skipped, result.as_json()


def test_r1_a_sync_ended_before_this_entry_started_is_never_taken_for_a_parallel_entry_s() -> None:
    """The Session before (its sync a few milliseconds before this entry's process began) must
    not pass for a parallel entry's: the kernel rounds the start down to a clock tick."""
    hz, boot = 100, 1_700_000_000.0
    for thousandths in range(0, 1000, 7):
        started = 5_000 + thousandths / 1000  # seconds since boot
        for age in (0.004, 0.05, 0.3):
            uptime = started + age
            stat = f"42 (harness-memory) S {'0 ' * 18}{int(started * hz)} 0"
            since = started_no_earlier(
                stat, f"{int(uptime * 100) / 100:.2f} 1.00", boot + uptime, hz
            )
            assert since >= boot + started, (started, age, since - boot)
            assert since <= boot + started + 2 / hz, (started, age, since - boot)
