"""Search over 3,000 topic files (S-1): warm p50 of ``GET …/memory/search`` through the real app.

Run: ``python -m bench.search [--files N] [--runs N]``. Builds an agent whose user scope and two
Workspace scopes hold ``--files`` topic files in all (sample corpus bodies plus a unique line),
serves the real application in-process, and reports, for a mix of queries:

- the first (cold) search, which parses and indexes every file;
- the warm p50 and p90 wall time of a search (the goal: p50 ≤ 20 ms at 3,000 files), and the
  p50 CPU time of this process per search (the figure a loaded machine distorts least);
- the floor of the freshness check as a ratio: a bare ``os.scandir`` + ``lstat`` of the same
  files (every warm search re-validates each file by its stat, so it cannot be cheaper).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_core import layout

__all__ = ["QUERIES", "search_bench"]

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"
QUERIES = ["deploy", "pnpm install", "migration", "review", "item12", "time zone", "flaky"]
PROJECT, AGENT = "bench", "searcher"


def _write_scopes(data_dir: Path, files: int) -> list[Path]:
    bodies = [
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(CORPUS.rglob("*.md"))
        if path.name != layout.INDEX_FILE
    ]
    chooser = random.Random(13)  # noqa: S311 - a reproducible test corpus, not a secret
    root = layout.memory_root(data_dir, AGENT)
    scopes = [root / "user", root / "shop-0000000a", root / "billing-0000000b"]
    for number in range(files):
        scope = scopes[number % len(scopes)]
        scope.mkdir(parents=True, exist_ok=True)
        text = chooser.choice(bodies) + f"\nnote {number} about item{number}\n"
        (scope / f"topic-{number:05d}.md").write_text(text, encoding="utf-8")
    return scopes


def _stat_floor(scopes: list[Path], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        for scope in scopes:
            for entry in os.scandir(scope):
                entry.stat(follow_symlinks=False)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


async def search_bench(files: int = 3000, rounds: int = 10) -> dict[str, float]:
    """Measure as described in the module docstring; returns the figures in milliseconds."""
    with tempfile.TemporaryDirectory(prefix="bench-search-") as temp:
        data_dir = Path(temp)
        client = TestClient(TestServer(create_app(Settings(data_dir=data_dir))))
        await client.start_server()
        try:
            created = await client.post(
                f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "Searcher"}
            )
            assert created.status == 201, await created.text()
            scopes = _write_scopes(data_dir, files)
            url = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/search"
            began = time.perf_counter()
            first = await client.get(url, params={"q": QUERIES[0]})
            cold = (time.perf_counter() - began) * 1000
            assert first.status == 200, await first.text()
            walls, cpus = [], []
            for _ in range(rounds):
                for query in QUERIES:
                    began, cpu = time.perf_counter(), time.process_time()
                    answer = await client.get(url, params={"q": query})
                    await answer.read()
                    walls.append((time.perf_counter() - began) * 1000)
                    cpus.append((time.process_time() - cpu) * 1000)
                    assert answer.status == 200
        finally:
            await client.close()
        walls.sort()
        floor = _stat_floor(scopes, rounds)
        p50 = statistics.median(walls)
        return {
            "files": files,
            "cold_ms": cold,
            "warm_p50_ms": p50,
            "warm_p90_ms": walls[int(len(walls) * 0.9)],
            "warm_cpu_p50_ms": statistics.median(cpus),
            "stat_floor_ms": floor,
            "p50_over_floor": p50 / floor if floor else 0.0,
        }


def main() -> None:
    """Print the figures of one run."""
    parser = argparse.ArgumentParser(prog="python -m bench.search")
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=10, help="rounds of the query mix")
    args = parser.parse_args()
    figures = asyncio.run(search_bench(args.files, args.runs))
    print(f"search over {figures['files']:.0f} topic files (S-1)")
    for name, value in figures.items():
        if name != "files":
            print(f"  {name:<18} {value:9.2f}")
    print("  goal: warm_p50_ms <= 20")


if __name__ == "__main__":
    main()
