"""Config writes under load on replicas: how long each kind of request takes (Q-3, Q-4).

``make bench-replicas`` (or ``python -m bench.replicas``) starts ``--replicas`` service processes
over one fresh data dir, as replicas on a shared volume are, and drives them
with ``--clients`` concurrent clients, each sending ``--requests`` requests round-robin over the
replicas, one agent for all: config PATCHes (a new name and a template without ``{{MEMORY}}``),
placeholder inserts (which put it back), deletes of distinct topic files (each pruning the
index), listings and Session starts. Every write of one agent takes that agent's cross-process
lock, so the config writes queue behind each other on every replica.

It prints, and with ``--json PATH`` stores, per kind: count, p50, p90, p99 and max in ms, and
the statuses seen; it exits 1 on any answer that is not the kind's success. The figures are for
comparing two versions on one machine, never a limit (Q-3); docs/performance.md has a run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from bench.perf_server import Server, start

PROJECT, AGENT = "bench", "coder"
PLAIN_TEMPLATE = "You are Coder.\n\n# Environment\n- CWD: {{CWD}}\n"
MIX = {"patch-config": 25, "placeholder": 15, "delete": 20, "listing": 20, "session-start": 20}
"""Relative weights of the request kinds."""
SUCCESS = {"patch-config": 200, "placeholder": 200, "delete": 200, "listing": 200,
           "session-start": 200}  # fmt: skip
TOPIC = "---\nname: {0}\ndescription: topic {0}\nupdated_at: 2026-11-20\n---\nbody of {0}\n"


def _seed(data_dir: Path, topics: int) -> list[str]:
    """The agent's user scope: ``topics`` topic files, each linked from ``MEMORY.md``."""
    scope = data_dir / "agents" / AGENT / "agent_state" / "memory" / "user"
    scope.mkdir(parents=True, exist_ok=True)
    names = [f"topic-{number:05d}.md" for number in range(topics)]
    for name in names:
        (scope / name).write_text(TOPIC.format(name.removesuffix(".md")), encoding="utf-8")
    index = "".join(f"- [{name}]({name}) — a note\n" for name in names)
    (scope / "MEMORY.md").write_text(index, encoding="utf-8")
    return names


def _kinds(seed: int, only: str | None) -> Iterator[str]:
    rng = random.Random(seed)  # noqa: S311 - a reproducible mix, not a secret
    mix = MIX if only is None else {only: 1}
    kinds, weights = list(mix), list(mix.values())
    while True:
        yield rng.choices(kinds, weights)[0]


async def _send(
    session: aiohttp.ClientSession,
    base: str,
    kind: str,
    number: int,
    work: Path,
    deletes: list[str],
) -> int:
    agent = f"{base}/api/projects/{PROJECT}/agents/{AGENT}"
    if kind == "patch-config":
        body = {"name": f"Coder {number}", "template": PLAIN_TEMPLATE}
        call = session.patch(f"{agent}/config", json=body)
    elif kind == "placeholder":
        call = session.post(f"{agent}/memory/template-placeholder")
    elif kind == "delete":
        call = session.delete(f"{agent}/memory/scopes/user/files/{deletes.pop()}")
    elif kind == "listing":
        call = session.get(f"{agent}/memory/scopes/user/files")
    else:
        call = session.post(f"{agent}/memory/session-start", json={"workspace": str(work)})
    async with call as answer:
        await answer.read()
        return answer.status


async def _client(
    number: int,
    bases: list[str],
    requests: int,
    work: Path,
    deletes: list[str],
    seen: dict[str, list[float]],
    statuses: Counter[tuple[str, int]],
    only: str | None,
) -> None:
    kinds = _kinds(number, only)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        for sent in range(requests):
            kind = next(kinds)
            base = bases[(number + sent) % len(bases)]
            started = time.perf_counter()
            status = await _send(session, base, kind, number * 100_000 + sent, work, deletes)
            seen[kind].append(time.perf_counter() - started)
            statuses[(kind, status)] += 1


def _rank(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] * 1000


async def drive(
    bases: list[str],
    clients: int,
    requests: int,
    work: Path,
    deletes: list[str],
    only: str | None = None,
) -> dict[str, Any]:
    """Run the clients (every kind of :data:`MIX`, or ``only`` one); return per-kind figures
    (ms) and the statuses seen."""
    seen: dict[str, list[float]] = defaultdict(list)
    statuses: Counter[tuple[str, int]] = Counter()
    started = time.perf_counter()
    await asyncio.gather(
        *(_client(n, bases, requests, work, deletes, seen, statuses, only) for n in range(clients))
    )
    wall = time.perf_counter() - started
    figures: dict[str, Any] = {"wall_s": round(wall, 2), "kinds": {}}
    for kind, latencies in sorted(seen.items()):
        ordered = sorted(latencies)
        figures["kinds"][kind] = {
            "count": len(ordered),
            "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p90_ms": round(_rank(ordered, 0.90), 1),
            "p99_ms": round(_rank(ordered, 0.99), 1),
            "max_ms": round(ordered[-1] * 1000, 1),
        }
    figures["statuses"] = {f"{kind} {status}": count for (kind, status), count in statuses.items()}
    figures["failed"] = sum(
        count for (kind, status), count in statuses.items() if status != SUCCESS[kind]
    )
    return figures


def _create_agent(base: str) -> None:
    import urllib.request

    body = json.dumps({"id": AGENT, "name": "Coder", "template": PLAIN_TEMPLATE}).encode()
    request = urllib.request.Request(  # noqa: S310 - the loopback service
        f"{base}/api/projects/{PROJECT}/agents",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
        if answer.status != 201:
            raise RuntimeError(f"creating the agent answered {answer.status}")


def run(replicas: int, clients: int, requests: int, only: str | None = None) -> dict[str, Any]:
    """Start the replicas over a fresh data dir, drive them, stop them; return the figures."""
    with tempfile.TemporaryDirectory(prefix="bench-replicas-") as tmp:
        base_dir = Path(tmp)
        data_dir, work = base_dir / "data", base_dir / "work"
        data_dir.mkdir()
        work.mkdir()
        servers: list[Server] = []
        try:
            servers.append(start(data_dir, base_dir))
            _create_agent(servers[0].base_url)
            deletes = _seed(data_dir, clients * requests)
            random.Random(7).shuffle(deletes)  # noqa: S311 - reproducible, not a secret
            servers += [start(data_dir, base_dir) for _ in range(replicas - 1)]
            bases = [server.base_url for server in servers]
            figures = asyncio.run(drive(bases, clients, requests, work, deletes, only))
        finally:
            for server in servers:
                server.stop()
    figures |= {"replicas": replicas, "clients": clients, "requests_per_client": requests}
    return figures


def render(figures: dict[str, Any]) -> str:
    """The figures as a small table."""
    lines = [
        f"{figures['replicas']} replicas, {figures['clients']} clients x "
        f"{figures['requests_per_client']} requests, {figures['wall_s']} s",
        f"{'kind':<14} {'count':>6} {'p50 ms':>9} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9}",
    ]
    for kind, row in figures["kinds"].items():
        lines.append(
            f"{kind:<14} {row['count']:>6} {row['p50_ms']:>9} {row['p90_ms']:>9} "
            f"{row['p99_ms']:>9} {row['max_ms']:>9}"
        )
    lines.append(f"answers: {figures['statuses']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.replicas``; exits 1 on any unexpected answer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--requests", type=int, default=25, help="per client")
    parser.add_argument("--only", choices=list(MIX), help="send only this kind")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    figures = run(args.replicas, args.clients, args.requests, args.only)
    print(render(figures))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if figures["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
