"""Soak: mixed requests against one service process while the agent writes its index (Q-2a, A-6).

``make soak`` (or ``python -m bench.soak``) starts ``memory-api serve`` on a fresh data dir and a
free loopback port, seeds an agent whose user scope holds many topic files, each linked from
``MEMORY.md``, and then sends ``--requests`` mixed requests (Session starts, overviews, listings,
reads, deletes) at ``--concurrency`` while an "agent" thread appends a prose line to
that ``MEMORY.md`` every ``--agent-interval`` seconds with ordinary file I/O (open, append, close),
as an agent's file tools do. The service's resident memory is sampled all along.

It prints, and with ``--json PATH`` stores: requests sent, answers by status, 5xx, transport
errors, agent lines written and lost, links of deleted files left in the index, and the RSS of
the first and second half of the run (median of the samples) with their ratio. It exits 1 when
any 5xx, transport error or lost line is seen, or when the second half's RSS exceeds the first's
by more than ``--rss-ratio-max`` (1.2). Figures are ratios within one run, never a time limit (Q-3).

The agent's appends make the index grow for as long as the run lasts (to about 5,000 lines in
20,000 requests): every overview, listing and read lints it and every Session start injects
its head, so a service whose work grew with the index would slow down and grow. What keeps it
flat, and the figures, are in ``docs/performance.md`` ("The soak"). Transport errors are counted
by kind (``transport_error_kinds``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.perf_server import start

PROJECT, AGENT = "soak", "soak-agent"
MIX = {"session": 20, "overview": 15, "listing": 20, "read": 43, "delete": 2}
"""Relative weights of the request kinds."""
WORKSPACES = 8


@dataclass
class Figures:
    """What one soak run measured."""

    requests: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    server_errors: int = 0
    transport_errors: int = 0
    transport_error_kinds: dict[str, int] = field(default_factory=dict)
    latency_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    deletes_ok: int = 0
    agent_lines_written: int = 0
    agent_lines_lost: int = 0
    deleted_links_left: int = 0
    index_lines_start: int = 0
    index_lines_end: int = 0
    rss_first_half_kib: int = 0
    rss_second_half_kib: int = 0
    rss_ratio: float = 0.0
    rss_by_tenth_kib: list[int] = field(default_factory=list)
    service_died: str = ""
    seconds: float = 0.0
    requests_per_second: float = 0.0


def seeded_line(name: str) -> str:
    """The index line :func:`seed` writes for the topic file ``name``."""
    return f"- [{name}]({name}) — soak note"


def seed(data_dir: Path, topics: int) -> tuple[Path, list[str]]:
    """Write ``topics`` topic files into the agent's user scope, each linked from the index."""
    user = data_dir / "agents" / AGENT / "agent_state" / "memory" / "user"
    user.mkdir(parents=True, exist_ok=True)
    names = [f"note-{number:05}.md" for number in range(topics)]
    for name in names:
        (user / name).write_text(f"---\ndescription: soak note {name}\n---\nA body.\n")
    index = user / "MEMORY.md"
    index.write_text("".join(seeded_line(name) + "\n" for name in names))
    return index, names


class Agent(threading.Thread):
    """Appends a prose line to the index every ``interval`` seconds (open, append, close)."""

    def __init__(self, index: Path, interval: float) -> None:
        super().__init__(daemon=True)
        self.index, self.interval = index, interval
        self.lines: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        """Write until stopped."""
        number = 0
        while not self.stop.wait(self.interval):
            line = f"- agent remark {number}: the soak keeps running, nothing linked"
            with self.index.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
            self.lines.append(line)
            number += 1


class RssSampler(threading.Thread):
    """Samples the process's resident memory (KiB) with the count of answered requests."""

    def __init__(self, pid: int, progress: list[int]) -> None:
        super().__init__(daemon=True)
        self.pid, self.progress = pid, progress
        self.samples: list[tuple[int, int]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        """Sample every 0.25 s until stopped."""
        status = Path(f"/proc/{self.pid}/status")
        while not self.stop.wait(0.25):
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    self.samples.append((self.progress[0], int(line.split()[1])))


def rss_tenths(samples: list[tuple[int, int]], total: int) -> list[int]:
    """Median RSS of the samples taken in each tenth of the requests (a trace of the run)."""
    tenths: list[list[int]] = [[] for _ in range(10)]
    for done, rss in samples:
        tenths[min(9, done * 10 // max(total, 1))].append(rss)
    return [int(statistics.median(tenth)) if tenth else 0 for tenth in tenths]


def rss_halves(samples: list[tuple[int, int]], total: int) -> tuple[int, int]:
    """Median RSS of the samples taken in the first and in the second half of the requests."""
    first = [rss for done, rss in samples if done < total // 2] or [0]
    second = [rss for done, rss in samples if done >= total // 2] or [0]
    return int(statistics.median(first)), int(statistics.median(second))


class Load:
    """The request generator: picks a kind by :data:`MIX` and tracks the outcomes."""

    def __init__(self, base: str, names: list[str], workspaces: list[Path], seed: int) -> None:
        self.memory = f"{base}/api/projects/{PROJECT}/agents/{AGENT}/memory"
        self.rng = random.Random(seed)  # noqa: S311 - a reproducible mix, not a secret
        self.alive = list(names)
        self.workspaces = workspaces
        self.statuses: Counter[str] = Counter()
        self.transport_errors = 0
        self.transport_error_kinds: Counter[str] = Counter()
        self.deleted: list[str] = []
        self.latencies: dict[str, list[float]] = {}

    def pick(self) -> tuple[str, str, str, dict[str, Any] | None, str | None]:
        """(kind, method, url, json body, file deleted) of one request."""
        kind = self.rng.choices(list(MIX), weights=list(MIX.values()))[0]
        files = f"{self.memory}/scopes/user/files"
        if kind == "session":
            workspace = str(self.rng.choice(self.workspaces))
            return kind, "POST", f"{self.memory}/session-start", {"workspace": workspace}, None
        if kind == "overview":
            return kind, "GET", self.memory, None, None
        if kind == "listing":
            return kind, "GET", files, None, None
        if kind == "delete" and len(self.alive) > 50:
            name = self.alive.pop(self.rng.randrange(len(self.alive)))
            return kind, "DELETE", f"{files}/{name}", None, name
        return "read", "GET", f"{files}/{self.rng.choice(self.alive)}", None, None

    async def worker(self, session: aiohttp.ClientSession, total: int, done: list[int]) -> None:
        """Send requests until ``total`` have been sent by all workers together."""
        while done[0] + 1 <= total:
            done[0] += 1
            kind, method, url, body, victim = self.pick()
            started = time.monotonic()
            try:
                async with session.request(method, url, json=body) as answer:
                    await answer.read()
                    self.statuses[str(answer.status)] += 1
                    self.latencies.setdefault(kind, []).append(time.monotonic() - started)
                    if victim is not None and answer.status == 200:
                        self.deleted.append(victim)
            except (TimeoutError, aiohttp.ClientError) as error:
                self.transport_errors += 1
                self.transport_error_kinds[f"{type(error).__name__}: {error}"[:120]] += 1


async def drive(load: Load, total: int, concurrency: int, progress: list[int]) -> None:
    """Run ``concurrency`` workers over one connection pool."""
    connector = aiohttp.TCPConnector(limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        created = await session.post(
            load.memory.rsplit("/agents/", 1)[0] + "/agents", json={"id": AGENT, "name": "Soak"}
        )
        if created.status not in (201, 409):
            raise RuntimeError(f"agent not created: {created.status} {await created.text()}")
        await asyncio.gather(*(load.worker(session, total, progress) for _ in range(concurrency)))


def latency_summary(latencies: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Median, 99th percentile and maximum answer time (ms) of each request kind."""
    summary: dict[str, dict[str, float]] = {}
    for kind, times in sorted(latencies.items()):
        ordered = sorted(times)
        at = min(len(ordered) - 1, int(len(ordered) * 0.99))
        summary[kind] = {
            "p50": round(statistics.median(ordered) * 1000, 1),
            "p99": round(ordered[at] * 1000, 1),
            "max": round(ordered[-1] * 1000, 1),
        }
    return summary


def run(args: argparse.Namespace) -> Figures:
    """One soak run in a temporary data dir; the service is stopped at the end."""
    work = Path(tempfile.mkdtemp(prefix="memory-soak-"))
    data_dir = work / "data"
    workspaces = [work / "workspaces" / f"project-{n}" for n in range(WORKSPACES)]
    for workspace in workspaces:
        workspace.mkdir(parents=True)
    deletes = args.requests * MIX["delete"] // sum(MIX.values())
    index, names = seed(data_dir, deletes + 200)
    lines_at_start = len(names)
    (work / "logs").mkdir()
    server = start(data_dir, work / "logs")
    process = server.process
    progress = [0]
    agent, sampler = Agent(index, args.agent_interval), RssSampler(process.pid, progress)
    load = Load(server.base_url, names, workspaces, seed=10)
    started = time.monotonic()
    try:
        agent.start()
        sampler.start()
        asyncio.run(drive(load, args.requests, args.concurrency, progress))
    finally:
        agent.stop.set()
        sampler.stop.set()
        agent.join()
        sampler.join()
        died = process.poll()  # before our SIGTERM: it ended by itself (or was killed)
        server.stop()
    elapsed = time.monotonic() - started
    final = Counter(index.read_text(encoding="utf-8").splitlines())
    first, second = rss_halves(sampler.samples, args.requests)
    figures = Figures(
        requests=sum(load.statuses.values()) + load.transport_errors,
        statuses=dict(sorted(load.statuses.items())),
        server_errors=sum(n for status, n in load.statuses.items() if status.startswith("5")),
        transport_errors=load.transport_errors,
        transport_error_kinds=dict(load.transport_error_kinds.most_common()),
        latency_ms=latency_summary(load.latencies),
        deletes_ok=len(load.deleted),
        agent_lines_written=len(agent.lines),
        agent_lines_lost=sum(1 for line in agent.lines if final[line] != 1),
        deleted_links_left=sum(1 for name in load.deleted if final[seeded_line(name)]),
        index_lines_start=lines_at_start,
        index_lines_end=sum(final.values()),
        rss_first_half_kib=first,
        rss_second_half_kib=second,
        rss_ratio=round(second / first, 3) if first else 0.0,
        rss_by_tenth_kib=rss_tenths(sampler.samples, args.requests),
        service_died="" if died is None else f"exit status {died} during the run (see its log)",
        seconds=round(elapsed, 1),
        requests_per_second=round(args.requests / elapsed, 1),
    )
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def main() -> None:
    """Parse the options, run the soak, print the figures, exit 1 on a failure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--agent-interval", type=float, default=0.05)
    parser.add_argument("--rss-ratio-max", type=float, default=1.2)
    parser.add_argument("--json", type=Path, help="also store the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the data dir and the log")
    args = parser.parse_args()
    figures = run(args)
    report = asdict(figures)
    for name, value in report.items():
        print(f"{name:>22}: {value}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    failed = (
        figures.server_errors
        or figures.transport_errors
        or figures.agent_lines_lost
        or figures.deleted_links_left
        or figures.rss_ratio > args.rss_ratio_max
        or figures.service_died
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
