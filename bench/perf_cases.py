"""The measurements that need no running service: the floors some HTTP cases are compared with.

In-process: Session-start assembly (the work a repeat request runs on the event loop)
against a raw read-and-join of the same two index files; a bare ``os.scandir`` + ``stat`` of the
big scope (the floor of a listing).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from memory_api.store.agents import AgentStore
from memory_api.store.locks import Locks
from memory_api.store.memory import MemoryStore
from memory_api.store.sessions import start_session

from bench.perf_data import PROJECT, BenchData

__all__ = ["in_process_assembly", "median_ms", "scandir_stat_ms"]


def median_ms(action: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``action``, in milliseconds."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def in_process_assembly(data: BenchData, runs: int) -> tuple[float, float]:
    """(Session-start assembly ms, raw read-and-join ms), medians of ``runs`` after a warm-up.

    The assembly is :func:`~memory_api.store.sessions.start_session` for one Session start of
    the big Workspace after a first one, through the store's stat-keyed file cache, as a warm
    request runs it on the event loop (``cached_only``: ``stat`` calls only).
    """
    store = MemoryStore(data.data_dir, AgentStore(data.data_dir, Locks(data.data_dir / "locks")))
    record = asyncio.run(store.agents.get(PROJECT, data.agent))
    workspace = str(data.big_workspace)

    def assemble() -> object:
        return start_session(store.app_data_dir, record, workspace, store.files, cached_only=True)

    def raw() -> str:
        with data.user_index.open("rb") as user, data.big_index.open("rb") as big:
            return (user.read() + b"\n" + big.read()).decode("utf-8")

    start_session(store.app_data_dir, record, workspace, store.files)  # reads the files
    raw()
    return median_ms(assemble, runs), median_ms(raw, runs)


def scandir_stat_ms(scope: Path, runs: int) -> float:
    """Median ms of a bare ``os.scandir`` + ``stat`` of every entry of ``scope``."""

    def scan() -> int:
        return sum(entry.stat().st_size for entry in os.scandir(scope))

    scan()
    return median_ms(scan, runs)
