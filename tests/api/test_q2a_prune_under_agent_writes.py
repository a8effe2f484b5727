"""Q-2, Q-2a, A-6: deletes prune the index while the agent writes it; no line of theirs is lost.

Two real service processes share one data dir and delete topic files (each delete prunes the
index's lines linking it), while writer processes change the same ``MEMORY.md`` with ordinary
file I/O and no lock the service knows of (``tests/support/agent_writer.py``): appending
(open, append, close), rewriting it in place, and writing a temp file renamed over it. Bounded
to a few seconds; it failed on the pruning that replaced the index by ``rename`` after a re-read.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from memory_core import layout

from tests.api.conftest import file_url, write_topic

pytestmark = pytest.mark.e2e

WRITER = Path(__file__).resolve().parents[1] / "support" / "agent_writer.py"
STYLES = ("append", "append", "inplace", "rename")
"""The writer processes: two appenders and one of each rewriting style, taking turns."""
VICTIMS = 36
KEEPERS = 12
WRITER_PAUSE_S = 0.002
WRITERS_WAIT_S = 30.0


@pytest.fixture
def writers(tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """A place for the writer processes; any still running at the end is killed."""
    processes: list[subprocess.Popen[bytes]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def start_writers(
    index: Path, work: Path, processes: list[subprocess.Popen[bytes]]
) -> tuple[Path, list[Path]]:
    """Start one writer process per style; return the stop file and their result files."""
    stop, lock = work / "stop", work / "agent-turns.lock"
    results = []
    for number, style in enumerate(STYLES):
        result = work / f"writer-{number}.json"
        results.append(result)
        command = [sys.executable, str(WRITER), style, str(index), str(result)]
        command += ["--writer", f"w{number}", "--pause", str(WRITER_PAUSE_S)]
        command += ["--serial-lock", str(lock), "--stop-file", str(stop)]
        processes.append(subprocess.Popen(command))
    return stop, results


def index_lines(index: Path, lock: Path) -> set[str]:
    """The lines of ``index`` between two writer turns: read holding the writers' turn lock, so
    no rewrite is half done (the service's own edits replace the file in one step)."""
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            return set(index.read_text(encoding="utf-8").splitlines())
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


async def each_writer_writes(index: Path, lock: Path) -> None:
    """Wait until ``index`` holds, for every writer of :data:`STYLES`, a line it did not hold
    when called. Fails after :data:`WRITERS_WAIT_S` (a hang guard, not a speed check)."""
    seen = await asyncio.to_thread(index_lines, index, lock)
    deadline = time.monotonic() + WRITERS_WAIT_S
    while True:
        new = await asyncio.to_thread(index_lines, index, lock) - seen
        if all(any(line.startswith(f"- w{n} note ") for line in new) for n in range(len(STYLES))):
            return
        assert time.monotonic() < deadline, "a writer wrote nothing"
        await asyncio.sleep(WRITER_PAUSE_S)


async def delete_all(session: aiohttp.ClientSession, bases: list[str], victims: list[str]) -> None:
    """Delete the victims through both processes, a few at a time, spread over a moment."""
    gate = asyncio.Semaphore(4)
    rng = random.Random(10)  # noqa: S311 - a reproducible spread, not a secret

    async def delete(number: int, name: str) -> None:
        await asyncio.sleep(rng.uniform(0, 1.5))
        async with gate, session.delete(bases[number % 2] + file_url("user", name)) as answer:
            body: dict[str, Any] = await answer.json()
            assert answer.status == 200, body
            assert body["file"] == name

    await asyncio.gather(*(delete(number, name) for number, name in enumerate(victims)))


async def test_q2a_deletes_pruning_the_index_lose_no_line_the_agent_writes_meanwhile(
    data_dir: Path,
    bases: list[str],
    writers: list[subprocess.Popen[bytes]],
    tmp_path: Path,
) -> None:
    async with aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[0]}/api/projects/acme/agents", json={"id": "coder", "name": "Coder"}
        )
        assert created.status == 201, await created.text()
        user = layout.scope_dir(data_dir, "coder", "user")
        topics = [f"t{number:02}.md" for number in range(VICTIMS + KEEPERS)]
        for name in topics:
            write_topic(user, name)
        index = user / layout.INDEX_FILE
        index.write_text("".join(f"- [{name}]({name}) — a note\n" for name in topics))
        victims = topics[:VICTIMS]
        work = tmp_path / "writers"
        work.mkdir()

        stop, results = start_writers(index, work, writers)
        turns = work / "agent-turns.lock"
        await each_writer_writes(index, turns)  # under way before the first delete
        await delete_all(session, bases, victims)
        await each_writer_writes(index, turns)  # and still writing after the last one
        stop.touch()
        for process in writers:
            assert await asyncio.to_thread(process.wait, 30) == 0

    final = index.read_text(encoding="utf-8").splitlines()
    written = [json.loads(result.read_text()) for result in results]
    lines = [line for record in written for line in record["lines"]]
    assert len(lines) > 200, "the writers barely wrote: the race was not exercised"
    missing = [line for line in lines if final.count(line) != 1]
    assert missing == [], f"{len(missing)} of {len(lines)} agent lines lost or doubled"
    for name in topics[VICTIMS:]:
        assert final.count(f"- [{name}]({name}) — a note") == 1
    # A whole-file rewrite that read the index before a delete and wrote it back after can
    # bring that file's link back (its own stale copy; lint reports it). Nothing else may.
    stale = {name for record in written for name in record["stale_links"]}
    left = [name for name in victims if any(f"]({name})" in line for line in final)]
    assert set(left) <= stale, f"links of deleted files left behind: {sorted(set(left) - stale)}"
    assert len(left) <= VICTIMS // 12  # that straddle takes microseconds: seldom, never many
