"""Wait for the clock Linux stamps files and folders with to move on.

That clock is coarse (one kernel tick, up to 10 ms): two changes within one tick get the same
mtime, so a cache keyed by it cannot tell them apart. A test that means "a change made later"
waits for the clock's own signal, a timestamp it has not given before, instead of sleeping
for a tick it guesses.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PROBE_NAME = ".file-clock-probe"
TICK_WAIT_S = 5.0
"""A hang guard: the file clock moves on every kernel tick (at most 10 ms)."""


def next_file_tick(folder: Path) -> None:
    """Return once a file touched now would get a later mtime than one touched at the call.

    The probe file lives in ``folder`` for the wait: pick one whose own mtime nothing under
    test looks at (a test's ``tmp_path``, beside the data dir). Raises AssertionError when the
    stamp has not changed after :data:`TICK_WAIT_S`.
    """
    probe = folder / PROBE_NAME
    probe.touch()
    try:
        first = probe.stat().st_mtime_ns
        deadline = time.monotonic() + TICK_WAIT_S
        while True:
            os.utime(probe)  # stamped by the same clock as any write or rename
            if probe.stat().st_mtime_ns != first:
                return
            assert time.monotonic() < deadline, "the file clock did not move on"
    finally:
        probe.unlink()
