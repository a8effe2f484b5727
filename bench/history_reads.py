"""A busy scope's history read (V-2): its changes since a time, and its recently deleted files.

Run: ``python -m bench.history_reads [--files N] [--versions N] [--keep DIR]``. The history
is made as a busy scope's is (:func:`busy_history`): ``--versions`` versions over ``--files``
topic files, each rewriting one file, every 1,000th deleting one (30 in all), every 50th from
a replica whose clock runs 10 minutes behind; then maintained as the service does (repack,
commit-graph, the kept indexes). Timed in-process, p50 of warm calls:

- **changes since** a time (``GET …/changes?since=``) for the last 10 minutes, the last day
  and everything (a page of 50 each), and with the kept bound of :mod:`~memory_api.store.
  history.clocks` gone (the first look after an upgrade);
- **recently deleted** (``GET …/deleted``): each look while the index of deletions is first
  built (no index: the first look after an upgrade), how many looks until it is complete, and
  a warm look.

The budget: every API call ≤ 100 ms warm (docs/performance.md).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_api.store.history import clocks, deletions, reading
from memory_api.store.history.git import git
from memory_api.store.history.maintenance import maintain
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_api.store.history.repo import COMMITTER, read_head
from memory_core import layout

from bench.history import AGENT, BODY, _write_scope

__all__ = ["STEP", "busy_history", "history_reads_bench"]

STEP = 10
"""Seconds between two versions of the busy history."""
BEHIND = 600
"""Seconds the clock of the replica that records every 50th version runs behind."""
DELETED = 30
"""Files the history deletes, one every ``versions / 30`` versions (every 1,000th of 30,000):
``note-00000.md`` … ``note-00029.md``; the others are rewritten in turn."""


def busy_history(base: Path, files: int, versions: int) -> tuple[Path, int]:
    """A scope's history as a busy scope has it (see the module), made in one ``fast-import``
    run of the recorder's format after a first record of the whole scope, then maintained;
    ``(repository, recorded time of its newest version)``. ``files`` must be over 30."""
    data_dir = base / "busy"
    scope = layout.scope_dir(data_dir, AGENT, "user")
    _write_scope(scope, files)
    histories = ScopeHistories(data_dir)
    histories.record(AGENT, scope, Attribution("checkpoint"))
    repository = histories.repository(AGENT, scope)
    start = int(time.time())
    every = max(1, versions // DELETED)
    stream = []
    for number in range(versions - 1):
        when = start + STEP * (number + 1) - (BEHIND if number % 50 == 49 else 0)
        message = f"Edited in a claude-code Session\n\nSource: write\nSession-Id: s{number}\n"
        if number % every == every - 1:
            change = f"D note-{number // every:05d}.md\n".encode()
        else:
            text = f"{BODY}version {number}\n".encode()
            name = f"note-{DELETED + number % (files - DELETED):05d}.md"
            change = f"M 100644 inline {name}\n".encode() + b"data %d\n%s\n" % (len(text), text)
        stream.append(
            b"commit refs/heads/main\n"
            + f"author claude-code <h@x> {when} +0000\n".encode()
            + f"committer {COMMITTER} {when} +0000\n".encode()
            + b"data %d\n%s\n" % (len(message), message.encode())
            + (b"from refs/heads/main^0\n" if number == 0 else b"")
            + change
        )
    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join(stream) + b"done\n")
    maintain(repository)
    return repository, start + STEP * (versions - 1)


def _p50(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def history_reads_bench(
    files: int, versions: int, runs: int = 15, keep: Path | None = None
) -> dict[str, Any]:
    """Every figure of the module docstring, as a dict (``keep``: the folder to make the
    history in and reuse, else a temporary one)."""
    base = keep or Path(tempfile.mkdtemp(prefix="memory-history-reads-"))
    try:
        return _figures(base, files, versions, runs)
    finally:
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)


def _figures(base: Path, files: int, versions: int, runs: int) -> dict[str, Any]:
    made = base / "made.txt"
    if made.exists():
        repository, newest = Path(made.read_text().split()[0]), int(made.read_text().split()[1])
    else:
        repository, newest = busy_history(base, files, versions)
        made.write_text(f"{repository} {newest}")
    head = read_head(repository)
    assert head is not None
    figures: dict[str, Any] = {"files": files, "versions": versions}
    for label, seconds in (("10 minutes", 600), ("day", 86400), ("all", newest)):
        since = newest - seconds

        def changes(since: int = since) -> object:
            return reading.scope_changes(repository, limit=50, since=since)

        figures[f"changes_since_{label.replace(' ', '_')}_p50_ms"] = _p50(changes, runs)
    (repository / clocks.INDEX_FILE).unlink(missing_ok=True)
    began = time.perf_counter()
    reading.scope_changes(repository, limit=50, since=newest - 600)
    figures["changes_since_first_look_ms"] = (time.perf_counter() - began) * 1000
    (repository / deletions.INDEX_FILE).unlink(missing_ok=True)
    looks: list[float] = []
    complete = False
    while not complete:
        began = time.perf_counter()
        _, complete = reading.deleted_files(repository, set(), limit=50)
        looks.append((time.perf_counter() - began) * 1000)
    figures["deleted_building_looks"] = len(looks)
    figures["deleted_building_look_p50_ms"] = statistics.median(looks)
    figures["deleted_building_look_max_ms"] = max(looks)
    figures["deleted_building_total_ms"] = sum(looks)
    figures["deleted_warm_p50_ms"] = _p50(
        lambda: reading.deleted_files(repository, set(), limit=50), runs
    )
    figures["deleted_listed"] = len(reading.deleted_files(repository, set(), limit=50)[0])
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the figures of :func:`history_reads_bench`."""
    parser = argparse.ArgumentParser(prog="python -m bench.history_reads", description=__doc__)
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--versions", type=int, default=30000)
    parser.add_argument("--keep", type=Path, help="make the history here, or reuse it")
    args = parser.parse_args(argv)
    figures = history_reads_bench(args.files, args.versions, keep=args.keep)
    for name, value in figures.items():
        print(f"{name:42} {value:.1f}" if isinstance(value, float) else f"{name:42} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
