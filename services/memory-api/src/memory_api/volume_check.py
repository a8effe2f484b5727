"""``python -m memory_api.volume_check``: does this data dir's filesystem hold replicas together?

Replicas on several hosts rely on the shared volume for two things (Q-4, docs/deploy.md): a
rename that replaces a file atomically, and ``flock`` locks that one host's holder makes another
host's taker wait for. The first is checked here on the spot; the second needs two hosts, so
it is checked in two steps, one per host (e.g. two pods of the Deployment)::

    python -m memory_api.volume_check --hold 60     # host A: takes the probe lock and holds it
    python -m memory_api.volume_check               # host B, meanwhile: must find it taken

Host A records who holds the lock in ``locks/volume-check.holder``; host B, seeing a holder on
another host whose hold has not run out, tries the lock without waiting. Getting it means the
filesystem keeps locks per host: replicas there would prune one index at the same time.

Exit status: 0 when every check that could run passed, 1 when one failed, 2 for a data dir that
cannot be used at all. The data dir is ``--data-dir`` or ``MEMORY_API_DATA_DIR``.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from memory_core import json_text
from memory_core.atomic import atomic_write_bytes

from memory_api.settings import Settings, SettingsError
from memory_api.stores import LOCKS_DIR

__all__ = ["HOLDER_FILE", "LOCK_FILE", "check_lock_across_hosts", "check_rename", "hold", "main"]

LOCK_FILE = "volume-check.lock"
HOLDER_FILE = "volume-check.holder"
_RENAME_PROBE = ".volume-check.rename"


def check_rename(locks: Path) -> str:
    """Replace a probe file twice by rename and read each version back; return a report line.

    Raises ``OSError`` when the folder cannot be written; a wrong read-back is reported as a
    line starting with ``FAIL``.
    """
    probe = locks / _RENAME_PROBE
    try:
        for version in (b"first\n", b"second\n"):
            atomic_write_bytes(probe, version)
            if probe.read_bytes() != version:
                return "FAIL atomic rename: a replaced file read back other bytes"
    finally:
        probe.unlink(missing_ok=True)
    return "ok   atomic rename: a replaced file reads back whole"


def _holder(locks: Path) -> dict[str, object] | None:
    try:
        record = json_text.loads((locks / HOLDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def check_lock_across_hosts(locks: Path) -> str:
    """Judge the probe lock against a holder recorded by ``--hold`` on another host.

    Returns a report line: ``FAIL`` when a live holder on another host is recorded but the
    lock could be taken here; ``skip`` when no such holder is recorded (nothing to compare).
    """
    holder = _holder(locks)
    here = socket.gethostname()
    until = holder.get("until") if holder else None
    if holder is None or holder.get("host") == here or not isinstance(until, int | float):
        return "skip locks across hosts: no hold by another host (run --hold there first)"
    if until < time.time():
        return f"skip locks across hosts: the hold by {holder.get('host')} has run out"
    with (locks / LOCK_FILE).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return f"ok   locks across hosts: the lock held on {holder.get('host')} is taken here"
        fcntl.flock(handle, fcntl.LOCK_UN)
    return (
        f"FAIL locks across hosts: {holder.get('host')} holds the lock, yet {here} got it: "
        "this filesystem keeps locks per host"
    )


def hold(locks: Path, seconds: float) -> str:
    """Take the probe lock, record this host as its holder for ``seconds``, then release it."""
    with (locks / LOCK_FILE).open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        record = {"host": socket.gethostname(), "pid": os.getpid(), "until": time.time() + seconds}
        atomic_write_bytes(locks / HOLDER_FILE, json.dumps(record).encode())
        print(f"holding the probe lock for {seconds:g} s on {record['host']}", flush=True)
        try:
            time.sleep(seconds)
        finally:
            (locks / HOLDER_FILE).unlink(missing_ok=True)
            fcntl.flock(handle, fcntl.LOCK_UN)
    return f"ok   held the probe lock for {seconds:g} s"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; print one line per check; return the exit status (see the module doc)."""
    parser = argparse.ArgumentParser(
        prog="python -m memory_api.volume_check",
        description="Does this data dir's filesystem hold replicas together (Q-4)?",
    )
    parser.add_argument("--data-dir", help="the data dir [MEMORY_API_DATA_DIR]")
    parser.add_argument(
        "--hold",
        type=float,
        metavar="SECONDS",
        help="hold the probe lock this long, for a check run on another host meanwhile",
    )
    args = parser.parse_args(argv)
    try:
        data_dir = Path(args.data_dir) if args.data_dir else Settings.from_env().data_dir
    except SettingsError as error:
        parser.error(str(error))
    locks = data_dir / LOCKS_DIR
    lines: list[str] = []
    try:
        locks.mkdir(parents=True, exist_ok=True)
        lines.append(_say(check_rename(locks)))
        lines.append(_say(hold(locks, args.hold) if args.hold else check_lock_across_hosts(locks)))
    except OSError as error:
        print(f"FAIL the data dir {data_dir} cannot be used: {error}", file=sys.stderr)
        return 2
    return 1 if any(line.startswith("FAIL") for line in lines) else 0


def _say(line: str) -> str:
    print(line, flush=True)
    return line


if __name__ == "__main__":
    raise SystemExit(main())
