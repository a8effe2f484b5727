"""Versions on git (V-1, V-3): what recording costs a Session start, reading a long history,
and the disk a version takes.

Run: ``python -m bench.history [--files N] [--versions N] [--starts N]``. Three figures:

- **Session-start delay**: the real application served in-process over an agent whose user
  scope holds ``--files`` topic files; before each Session start one file is rewritten, so
  every start is followed by a record (of both scopes) that overlaps the next requests. The
  p50 and p90 answer times with history on, minus the same with ``MEMORY_API_HISTORY=off``
  (the budget: ≤ 10 ms at 3,000 files). The record itself, timed in-process: nothing changed,
  one file changed, and the first record of the whole scope.
- **History read**: a scope of ``--files`` files whose one file has ``--versions`` versions
  (recorded through the service's own ``fast-import`` format, then maintained as the service
  does: geometric repack, commit-graph with changed-path filters); p50 of the history of that
  file, its first page (100) and all of it (the budget: ≤ 100 ms at 1,000 versions).
- **Disk per version**: the repository's growth per version once maintained, and the pack one
  version takes before maintenance.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.appkeys import HISTORY_STORE_KEY
from memory_api.settings import Settings
from memory_api.store.history import reading
from memory_api.store.history.git import git
from memory_api.store.history.maintenance import maintain
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_api.store.history.repo import COMMITTER, read_head
from memory_api.store.history.service import scope_history_bytes
from memory_core import layout

__all__ = ["history_bench", "long_history"]

PROJECT, AGENT = "bench", "historian"
BODY = "---\ndescription: a note of the bench\n---\n" + "Some text about the project. " * 20


def _write_scope(scope: Path, files: int) -> None:
    scope.mkdir(parents=True, exist_ok=True)
    for number in range(files):
        (scope / f"note-{number:05d}.md").write_text(f"{BODY}{number}\n", encoding="utf-8")
    index = "".join(f"- [Note {n}](note-{n:05d}.md)\n" for n in range(min(files, 150)))
    (scope / layout.INDEX_FILE).write_text(index, encoding="utf-8")


def _p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def _session_starts(base: Path, files: int, starts: int, history: bool) -> list[float]:
    data_dir = base / ("on" if history else "off")
    workspace = base / "workspace"
    workspace.mkdir(exist_ok=True)
    app = create_app(Settings(data_dir=data_dir, history=history))
    async with TestClient(TestServer(app)) as client:
        created = await client.post(
            f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "Historian"}
        )
        assert created.status == 201, await created.text()
        user = layout.scope_dir(data_dir, AGENT, "user")
        _write_scope(user, files)
        url = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/session-start"
        body = {"workspace": str(workspace)}
        await client.post(url, json=body)  # the first record of 3,000 files: not measured
        await app[HISTORY_STORE_KEY].idle()
        times = []
        for number in range(starts):
            (user / f"note-{number % files:05d}.md").write_text(f"rewritten {number}\n")
            began = time.perf_counter()
            response = await client.post(url, json=body)
            await response.read()
            times.append((time.perf_counter() - began) * 1000)
        await app[_history_key()].idle()
    return times


def _history_key() -> Any:
    from memory_api.appkeys import HISTORY_STORE_KEY

    return HISTORY_STORE_KEY


def _record_costs(base: Path, files: int, runs: int) -> dict[str, float]:
    data_dir = base / "record"
    scope = layout.scope_dir(data_dir, AGENT, "user")
    _write_scope(scope, files)
    histories = ScopeHistories(data_dir)
    who = Attribution("checkpoint")
    began = time.perf_counter()
    histories.record(AGENT, scope, who)
    first = (time.perf_counter() - began) * 1000
    time.sleep(2.1)  # past the racy window: the blob ids of unchanged files are kept from now
    histories.record(AGENT, scope, who)
    unchanged, changed = [], []
    for number in range(runs):
        began = time.perf_counter()
        histories.record(AGENT, scope, who)
        unchanged.append((time.perf_counter() - began) * 1000)
        (scope / f"note-{number:05d}.md").write_text(f"changed {number}\n", encoding="utf-8")
        began = time.perf_counter()
        histories.record(AGENT, scope, who)
        changed.append((time.perf_counter() - began) * 1000)
    return {
        "record_first_ms": first,
        "record_unchanged_p50_ms": statistics.median(unchanged),
        "record_one_change_p50_ms": statistics.median(changed),
    }


def long_history(base: Path, files: int, versions: int) -> tuple[Path, int, int]:
    """A repository of ``files`` files whose ``note-00001.md`` has ``versions`` versions, made
    in one ``fast-import`` run of the recorder's format; (repository, bytes after the first
    version and maintenance, one version's own pack in bytes)."""
    data_dir = base / "long"
    scope = layout.scope_dir(data_dir, AGENT, "user")
    _write_scope(scope, files)
    histories = ScopeHistories(data_dir)
    histories.record(AGENT, scope, Attribution("checkpoint"))
    repository = histories.repository(AGENT, scope)
    maintain(repository)
    first_bytes = scope_history_bytes(repository)
    (scope / "note-00001.md").write_text("one more\n", encoding="utf-8")
    packs_before = scope_history_bytes(repository)
    histories.record(AGENT, scope, Attribution("checkpoint"))
    one_version = scope_history_bytes(repository) - packs_before
    stream = []
    for number in range(versions - 2):
        text = f"{BODY}version {number}\n".encode()
        message = (
            f"Written in a claude-code Session (Edit)\n\nSource: write\nSession-Id: s{number}\n"
        )
        stream.append(
            b"commit refs/heads/main\n"
            + f"author claude-code <h@x> {1_700_000_000 + number} +0000\n".encode()
            + f"committer {COMMITTER} {1_700_000_000 + number} +0000\n".encode()
            + b"data %d\n%s\n" % (len(message), message.encode())
            + (b"from refs/heads/main^0\n" if number == 0 else b"")
            + b"M 100644 inline note-00001.md\n"
            + b"data %d\n%s\n" % (len(text), text)
        )

    git(repository, "fast-import", "--quiet", "--done", stdin=b"".join(stream) + b"done\n")
    maintain(repository)
    assert read_head(repository) is not None
    return repository, first_bytes, one_version


def history_bench(files: int, versions: int, starts: int, runs: int = 20) -> dict[str, Any]:
    """Every figure of the module docstring, as a dict."""
    base = Path(tempfile.mkdtemp(prefix="memory-history-bench-"))
    try:
        off = asyncio.run(_session_starts(base, files, starts, history=False))
        on = asyncio.run(_session_starts(base, files, starts, history=True))
        figures: dict[str, Any] = {
            "files": files,
            "versions": versions,
            "session_start_off_p50_ms": statistics.median(off),
            "session_start_on_p50_ms": statistics.median(on),
            "session_start_delay_p50_ms": statistics.median(on) - statistics.median(off),
            "session_start_delay_p90_ms": _p(on, 0.9) - _p(off, 0.9),
        }
        figures |= _record_costs(base, files, runs)
        repository, first_bytes, one_version = long_history(base, files, versions)
        for label, limit in (("page", 100), ("all", versions)):
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                found, _ = reading.file_history(repository, "note-00001.md", limit=limit)
                times.append((time.perf_counter() - began) * 1000)
            figures[f"history_{label}_p50_ms"] = statistics.median(times)
            figures[f"history_{label}_count"] = len(found)
        total = scope_history_bytes(repository)
        figures["disk_per_version_bytes"] = (total - first_bytes) / (versions - 1)
        figures["disk_one_version_before_repack_bytes"] = one_version
        figures["disk_total_bytes"] = total
        return figures
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Print the figures of :func:`history_bench`."""
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__)
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--starts", type=int, default=60)
    args = parser.parse_args(argv)
    for name, value in history_bench(args.files, args.versions, args.starts).items():
        print(f"{name:42} {value:.1f}" if isinstance(value, float) else f"{name:42} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
