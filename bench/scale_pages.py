"""The page rows of the scale case (issue 30): the Memory tab, reading and listing the biggest
scope, Session start and delete, each first after a start of the service and again, with the
service's CPU time per request and its peak RSS; and the RSS after a user opened everything.

Every "first" row starts the service afresh (:class:`bench.scale_starts.Starts`), so it pays for
whatever the service reads once (what it keeps on disk, the search index, the listing memo and
the scope records, stays: a restart; the Memory tab is also opened once with the scope records
removed and the big scope listed once with the listing memo removed, "first ever"); "again" is
the p50 of ``rounds`` requests after it. The service's CPU time per request (user + system of
its process, from ``/proc``) is the figure to compare on a shared machine: wall times there are
mostly the queue for a core. The floor row is what no overview that looks at every scope can go
below: a ``scandir`` of the memory root and a ``stat`` of each scope folder and of its index, in
this process.

Run through ``python -m bench.scale`` (:mod:`bench.scale`), which builds or reuses the data set.
"""

from __future__ import annotations

import functools
import json
import os
import re
import resource
import statistics
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_api.store.scope_records import RECORDS_FOLDER
from memory_api.store.topic_memo import MEMO_FILE
from memory_core import layout

from bench.perf_server import Server
from bench.scale_data import AGENT, PROJECT, ScaleData
from bench.scale_starts import Starts

__all__ = ["PAGE", "page_budgets", "page_rows"]

PAGE = 50
"""Scopes per overview page the bench asks for: the Memory tab's first page (its later pages
hold 100, ``static/js/views/group-pages.js``)."""
MEMORY = f"/api/projects/{PROJECT}/agents/{AGENT}/memory"
AGENTS = f"/api/projects/{PROJECT}/agents"
DELETES = 5
"""Memories written into the big scope and deleted again through the API (the data set is kept)."""
AGAIN_MIN = 20
"""The fewest requests an "again" figure is the p50 (wall) and mean (CPU) of."""
Row = tuple[str, float, str]


@dataclass(frozen=True, slots=True)
class Timed:
    """One request: its wall time and the service's CPU time for it, ms; its JSON answer."""

    wall_ms: float
    cpu_ms: float
    answer: Any


def _call(server: Server, path: str, method: str = "GET", body: Any = None, **params: str) -> Timed:
    """One request to the service; raises on any status but 200."""
    url = server.base_url + path + ("?" + urllib.parse.urlencode(params) if params else "")
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(  # noqa: S310 - loopback
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    cpu, began = server.cpu_s(), time.perf_counter()
    with urllib.request.urlopen(request, timeout=3600) as answer:  # noqa: S310 - loopback
        raw = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: {answer.status}")
    wall = (time.perf_counter() - began) * 1000
    return Timed(wall, (server.cpu_s() - cpu) * 1000, json.loads(raw))


def _again(rounds: int, call: Callable[[], Timed]) -> tuple[float, float]:
    """p50 wall and mean service CPU (ms) of ``rounds`` calls, at least :data:`AGAIN_MIN` (the
    kernel counts a process's CPU time in 10 ms ticks: a mean needs many requests)."""
    done = [call() for _ in range(max(rounds, AGAIN_MIN))]
    return (
        statistics.median(item.wall_ms for item in done),
        statistics.mean(item.cpu_ms for item in done),
    )


def _first_and_again(
    rows: list[Row],
    what: str,
    data: ScaleData,
    starts: Starts,
    rounds: int,
    call: Callable[[Server], Timed],
) -> None:
    """The rows of one action: first after a start and again (wall, service CPU), peak RSS."""

    def measure(server: Server) -> None:
        first = call(server)
        rows.append((f"{what}: first after a start", first.wall_ms, "ms"))
        rows.append(("  service CPU for it", first.cpu_ms, "ms"))
        wall, cpu = _again(rounds, lambda: call(server))
        rows.append((f"{what}: again, p50", wall, "ms"))
        rows.append(("  service CPU per request", cpu, "ms"))

    rows.append(("  service peak RSS", starts.run(measure), "MiB"))


def _tab_rows(data: ScaleData, starts: Starts, rounds: int) -> list[Row]:
    rows: list[Row] = []

    def tab(server: Server) -> Timed:
        return _call(server, MEMORY, limit=str(PAGE))

    # First ever: a service with no scope records on disk (store/scope_records.py) counts every
    # folder and lints the page; the rows after it measure a restart with the records kept.
    for records in (data.data_dir / RECORDS_FOLDER).glob("*"):
        records.unlink()

    def first_ever(server: Server) -> None:
        timed = tab(server)
        rows.append(("open the Memory tab (first page): first ever", timed.wall_ms, "ms"))
        rows.append(("  service CPU for it", timed.cpu_ms, "ms"))

    rows.append(("  service peak RSS", starts.run(first_ever), "MiB"))
    _first_and_again(rows, "open the Memory tab (first page)", data, starts, rounds, tab)

    def more(server: Server) -> None:
        cursor = (
            tab(server).answer["nextCursor"]
            or _call(server, MEMORY, limit="1").answer["nextCursor"]
        )  # a data set of fewer scopes than a page: the page after the first scope
        wall, cpu = _again(rounds, lambda: _call(server, MEMORY, limit=str(PAGE), cursor=cursor))
        rows.append(("  the next page (scrolled to), p50", wall, "ms"))
        rows.append(("  service CPU per request", cpu, "ms"))
        for label, query in (("a name", "repo-01234"), ("a path part", "workspaces/repo-000")):
            search = functools.partial(_call, server, MEMORY, limit=str(PAGE), q=query)
            rows.append((f"  search groups by {label}, first", search().wall_ms, "ms"))
            wall, cpu = _again(rounds, search)
            rows.append((f"  search groups by {label}, again p50", wall, "ms"))
            rows.append(("  service CPU per request", cpu, "ms"))
        wall, cpu = _again(rounds, lambda: _call(server, AGENTS))
        rows.append(("agents list (memory counts), again p50", wall, "ms"))
        rows.append(("  service CPU per request", cpu, "ms"))

    rows.append(("  service peak RSS", starts.run(more), "MiB"))
    return rows


def _big(data: ScaleData) -> tuple[str, list[str]]:
    """How the rows name the biggest scope (``the 5,000-file scope`` at the full size), and its
    topic files."""
    files = sorted(path.name for path in (data.memory_root / data.big_key).glob("*-*.md"))
    return f"the {len(files):,}-file scope", files


def _scope_rows(data: ScaleData, starts: Starts, rounds: int) -> list[Row]:
    rows: list[Row] = []
    big, files = _big(data)
    middle = files[len(files) // 2]
    small_key, small_file = _small_scope(data)

    def read(server: Server) -> Timed:
        return _call(server, f"{MEMORY}/scopes/{data.big_key}/files/{middle}")

    _first_and_again(rows, f"read one memory in {big}", data, starts, rounds, read)

    def read_small(server: Server) -> None:
        wall, cpu = _again(
            rounds, lambda: _call(server, f"{MEMORY}/scopes/{small_key}/files/{small_file}")
        )
        rows.append(("  the same in a scope of a few files, again p50", wall, "ms"))
        rows.append(("  service CPU per request", cpu, "ms"))

    starts.run(read_small)

    def listing(server: Server) -> Timed:
        return _call(server, f"{MEMORY}/scopes/{data.big_key}/files")

    rows += _first_listing_ever_rows(data, starts, big, listing)
    _first_and_again(rows, f"list {big}", data, starts, rounds, listing)
    return rows


def _first_listing_ever_rows(
    data: ScaleData, starts: Starts, big: str, listing: Callable[[Server], Timed]
) -> list[Row]:
    """The big scope listed by a service that never listed it: the listing memo on disk
    (``store/topic_memo.py``) removed first, so every file is read, parsed and linted. The
    listing rows after it ("first after a start") then measure a restart with the memo kept."""
    rows: list[Row] = []
    (data.data_dir / MEMO_FILE).unlink(missing_ok=True)

    def first_ever(server: Server) -> None:
        timed = listing(server)
        rows.append((f"list {big}: first ever (no listing memo)", timed.wall_ms, "ms"))
        rows.append(("  service CPU for it", timed.cpu_ms, "ms"))

    rows.append(("  service peak RSS", starts.run(first_ever), "MiB"))
    return rows


def _small_scope(data: ScaleData) -> tuple[str, str]:
    """A Workspace scope of a few files and one of its topic files."""
    for entry in sorted(os.scandir(data.memory_root), key=lambda entry: entry.name):
        if entry.name in (data.big_key, "user") or not entry.is_dir():
            continue
        names = sorted(path.name for path in Path(entry.path).glob("*.md"))
        topics = [name for name in names if name != layout.INDEX_FILE]
        if 3 <= len(topics) <= 9:
            return entry.name, topics[0]
    raise RuntimeError("no scope of a few files in the data set")


def _session_and_delete_rows(data: ScaleData, starts: Starts, rounds: int) -> list[Row]:
    rows: list[Row] = []
    body = {"workspace": str(data.big_workspace)}

    def session(server: Server) -> Timed:
        return _call(server, f"{MEMORY}/session-start", "POST", body)

    big, _ = _big(data)
    workspace = big.replace("scope", "Workspace")
    _first_and_again(rows, f"Session start in {workspace}", data, starts, rounds, session)

    folder = data.memory_root / data.big_key
    names = [f"bench-delete-{number}.md" for number in range(DELETES)]
    for name in names:
        (folder / name).write_text(f"---\nname: {name[:-3]}\ndescription: d\n---\nx\n", "utf-8")
    with (folder / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.writelines(f"- [{name}]({name}) — to be deleted\n" for name in names)

    def delete(server: Server) -> None:
        done = [
            _call(server, f"{MEMORY}/scopes/{data.big_key}/files/{name}", "DELETE")
            for name in names
        ]
        assert all(item.answer["removedIndexLines"] for item in done), "an index line was kept"
        rows.append(
            (
                f"delete one memory of {big}, p50 of {DELETES}",
                statistics.median(t.wall_ms for t in done),
                "ms",
            )
        )
        rows.append(("  service CPU per request", statistics.mean(t.cpu_ms for t in done), "ms"))

    rows.append(("  service peak RSS", starts.run(delete), "MiB"))
    return rows


def _everything_rows(data: ScaleData, starts: Starts) -> list[Row]:
    """The RSS after a user opened everything: every overview page, the biggest scope's listing
    and index, a few hundred of its memories, group searches, the agents list."""
    rows: list[Row] = []

    def everything(server: Server) -> None:
        cursor, pages = None, 0
        while True:
            params = {"limit": "500"} | ({"cursor": cursor} if cursor else {})
            cursor = _call(server, MEMORY, **params).answer["nextCursor"]
            pages += 1
            if cursor is None:
                break
        listing = _call(server, f"{MEMORY}/scopes/{data.big_key}/files").answer
        _call(server, f"{MEMORY}/scopes/{data.big_key}/index")
        for row in listing["files"][::25]:
            _call(server, f"{MEMORY}/scopes/{data.big_key}/files/{urllib.parse.quote(row['file'])}")
        for query in ("repo-1", "workspaces", "user"):
            _call(server, MEMORY, q=query)
        _call(server, AGENTS)
        rows.append(("  overview pages of 500 walked through", pages, ""))
        rows.append(("  service RSS at the end", server.rss_mb(), "MiB"))

    peak = starts.run(everything)
    rows.insert(0, ("service peak RSS after opening everything", peak, "MiB"))
    return rows


def floor_ms(data: ScaleData) -> float:
    """CPU ms of a ``scandir`` of the memory root and a ``stat`` of each scope folder and of
    its ``MEMORY.md``, in this process (the floor of an overview that looks at every scope)."""

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    began = cpu()
    for entry in os.scandir(data.memory_root):
        try:
            os.stat(entry.path)  # noqa: PTH116 - the floor: bare calls
            os.lstat(f"{entry.path}/{layout.INDEX_FILE}")
        except OSError:
            continue
    return (cpu() - began) * 1000


def page_rows(data: ScaleData, starts: Starts, rounds: int) -> list[Row]:
    """Every page row of the table (see the module doc)."""
    rows = _tab_rows(data, starts, rounds)
    rows += _scope_rows(data, starts, rounds)
    rows += _session_and_delete_rows(data, starts, rounds)
    rows += _everything_rows(data, starts)
    floor = statistics.median(floor_ms(data) for _ in range(3))
    rows.append(("floor: scandir + stat + lstat of every scope, CPU", floor, "ms"))
    return rows


BUDGETS = (
    (re.compile(r"open the Memory tab \(first page\): first after a start"), 1000),
    (re.compile(r"open the Memory tab \(first page\): again, p50"), 100),
    (re.compile(r"read one memory in the [\d,]+-file scope: again, p50"), 20),
    (re.compile(r"list the [\d,]+-file scope: first after a start"), 1000),
    (re.compile(r"list the [\d,]+-file scope: again, p50"), 200),
    (re.compile(r"service peak RSS after opening everything"), 200),
)
"""Issue 30's budgets at the full size (ms, and MiB for the RSS), by the rows they judge."""


def page_budgets(rows: list[Row]) -> list[str]:
    """One line per budget: the wall figure, the service's CPU for it, the limit, met or not."""
    lines = []
    for pattern, limit in BUDGETS:
        at = next((n for n, row in enumerate(rows) if pattern.fullmatch(row[0].strip())), None)
        if at is None:
            continue
        what, value, unit = rows[at]
        cpu = rows[at + 1][1] if at + 1 < len(rows) and "CPU" in rows[at + 1][0] else None
        met = (
            "met"
            if value <= limit
            else ("met in CPU" if cpu is not None and cpu <= limit else "not met")
        )
        cpu_text = f", service CPU {cpu:,.0f} ms" if cpu is not None else ""
        lines.append(f"  {what}: {value:,.0f} {unit}{cpu_text} (≤ {limit:,} {unit}: {met})")
    return lines
