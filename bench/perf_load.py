"""Drive the service over HTTP: N requests at concurrency C over keep-alive connections.

Latencies are measured per request in the driving process (``time.perf_counter``) from sending
to the last body byte; throughput is completed requests over the wall time of the whole batch.
Any answer other than the expected status aborts the case (a benchmark of errors means nothing).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

__all__ = ["Figures", "Request", "drive", "figures_of"]


@dataclass(frozen=True, slots=True)
class Request:
    """One request to repeat: method, path (joined to the base URL) and JSON body."""

    method: str
    path: str
    body: dict[str, Any] | None = None


@dataclass(slots=True)
class Figures:
    """What one case measured: requests, seconds, throughput (req/s), p50 and p99 (ms)."""

    requests: int
    seconds: float
    throughput: float
    p50_ms: float
    p99_ms: float
    extra: dict[str, float] = field(default_factory=dict)


def figures_of(latencies_s: list[float], wall_s: float) -> Figures:
    """Summarise per-request latencies (seconds) and the wall time of the batch."""
    ordered = sorted(latencies_s)
    count = len(ordered)

    def rank(q: float) -> float:
        return ordered[min(count - 1, max(0, round(q * count) - 1))] * 1000

    return Figures(
        requests=count,
        seconds=wall_s,
        throughput=count / wall_s if wall_s > 0 else 0.0,
        p50_ms=statistics.median(ordered) * 1000 if ordered else 0.0,
        p99_ms=rank(0.99) if ordered else 0.0,
    )


async def _worker(
    session: aiohttp.ClientSession,
    base: str,
    request: Request,
    budget: list[int],
    deadline: float,
    latencies: list[float],
) -> None:
    while budget[0] > 0 and time.perf_counter() < deadline:
        budget[0] -= 1
        began = time.perf_counter()
        async with session.request(request.method, base + request.path, json=request.body) as r:
            await r.read()
            if r.status != 200:
                raise RuntimeError(f"{request.method} {request.path}: {r.status} {await r.text()}")
        latencies.append(time.perf_counter() - began)


async def _drive(
    base: str, request: Request, count: int, concurrency: int, max_s: float
) -> Figures:
    connector = aiohttp.TCPConnector(limit=concurrency, force_close=False)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        latencies: list[float] = []
        budget = [count]
        began = time.perf_counter()
        deadline = began + max_s
        await asyncio.gather(
            *(
                _worker(session, base, request, budget, deadline, latencies)
                for _ in range(concurrency)
            )
        )
        return figures_of(latencies, time.perf_counter() - began)


def drive(base: str, request: Request, count: int, concurrency: int, max_s: float) -> Figures:
    """Send ``request`` ``count`` times (stopping early after ``max_s`` seconds), ``concurrency``
    at a time; raises RuntimeError on any non-200 answer."""
    return asyncio.run(_drive(base, request, count, concurrency, max_s))
