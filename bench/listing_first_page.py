"""The first page of a big scope's file listing on a cold cache (A-5): what it parses and takes.

Run: ``python -m bench.listing_first_page [--files N] [--limit N] [--runs N] [--shape S]``. A
user scope of ``--files`` topic files (their mtimes set back past the caches' racy window), of
one ``--shape`` (:data:`SHAPES`), is listed by a fresh
application each run (every in-memory cache empty), served in-process: first with no memo on
disk (the first listing ever, or after an upgrade), then with the memo the runs before left.
Printed per case: the wall time and the process's CPU time of the first page (``--limit`` files)
and of the page after it, and how many topic files were parsed (``parse_topic`` calls) for each. The
budget (docs/performance.md): a page view ≤ 100 ms, costing what it shows, not the scope.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store import topic_cache
from memory_api.store.topic_memo import MEMO_FILE
from memory_core import layout
from memory_core.topics import parse_topic

__all__ = ["first_page_bench"]

PROJECT, AGENT = "bench", "lister"
BODY = "Some text about the project, with a [[{link}]] link. " * 4

SHAPES = {
    "kebab": ("note-{n:05d}", "note-00001"),
    "spaces": ("Note {n:05d}", "Note 00001"),
    "dangling": ("note-{n:05d}", "Not Written Yet"),
}
"""The scope's shapes: each file's stem and the ``[[link]]`` its body holds. ``kebab``:
Memory's own names, a link to a file of the first page; ``spaces``: names as an Obsidian vault
writes them (``Deploy Freeze.md``, ``name`` the same), so each file has a ``name-not-kebab``
finding that the scope's ``naming-convention`` stands for (T-5a); ``dangling``: kebab-case
names, each body linking to a note no file is named or titled as (``dangling-wiki-link``, as
an Obsidian vault links notes not written yet)."""


def _write_scope(scope: Path, files: int, shape: str = "kebab") -> None:
    """``files`` topic files of ``shape`` (:data:`SHAPES`) with frontmatter, and an index of
    the first 150."""
    scope.mkdir(parents=True, exist_ok=True)
    old = time.time() - 3600
    stem_of, link = SHAPES[shape]
    body = BODY.format(link=link)
    for number in range(files):
        stem = stem_of.format(n=number)
        path = scope / f"{stem}.md"
        path.write_text(
            f"---\nname: {stem}\ndescription: note {number} of the bench\n---\n{body}{number}\n",
            encoding="utf-8",
        )
        os.utime(path, (old, old))
    index = "".join(  # a name with a space is linked as Obsidian links it
        f"- [[{stem}]] — note {n}\n" if " " in stem else f"- [Note {n}]({stem}.md) — note {n}\n"
        for n, stem in ((n, stem_of.format(n=n)) for n in range(min(files, 150)))
    )
    (scope / layout.INDEX_FILE).write_text(index, encoding="utf-8")


class _Parses:
    """Counts ``parse_topic`` calls of the topic cache while installed."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> _Parses:
        def counting(raw: bytes, file: str) -> Any:
            self.count += 1
            return parse_topic(raw, file)

        setattr(topic_cache, "parse_topic", counting)  # noqa: B010 - not exported, patched
        return self

    def __exit__(self, *_: object) -> None:
        setattr(topic_cache, "parse_topic", parse_topic)  # noqa: B010


async def _one_run(data_dir: Path, limit: int) -> list[tuple[float, float, int]]:
    """A fresh app's first page and the page after it: (wall ms, process CPU ms, parses)."""
    app = create_app(Settings(data_dir=data_dir, history=False))
    url = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/scopes/user/files"
    async with TestClient(TestServer(app)) as client:
        figures: list[tuple[float, float, int]] = []
        cursor: str | None = None
        for _ in range(2):
            params = {"limit": str(limit)} | ({"cursor": cursor} if cursor else {})
            with _Parses() as parses:
                began, cpu = time.perf_counter(), time.process_time()
                response = await client.get(url, params=params)
                page = await response.json()
                wall_ms = (time.perf_counter() - began) * 1000
                figures.append((wall_ms, (time.process_time() - cpu) * 1000, parses.count))
            assert response.status == 200, page
            cursor = page["nextCursor"]
    return figures


async def first_page_bench(
    files: int, limit: int, runs: int, shape: str = "kebab"
) -> dict[str, list[int]]:
    """Print the cold first page's figures for a scope of ``shape`` (:data:`SHAPES`), with and
    without the memo on disk; return the files parsed for the first page and the next, per case
    (``"no memo"``, ``"memo on disk"``)."""
    parsed: dict[str, list[int]] = {}
    base = Path(tempfile.mkdtemp(prefix="listing-bench-"))
    try:
        data_dir = base / "data"
        data_dir.mkdir()
        app = create_app(Settings(data_dir=data_dir, history=False))
        async with TestClient(TestServer(app)) as client:
            created = await client.post(
                f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "Lister"}
            )
            assert created.status == 201, await created.text()
        _write_scope(layout.scope_dir(data_dir, AGENT, "user"), files, shape)
        for memo in (False, True):
            results = []
            for _ in range(runs):
                if not memo:
                    shutil.rmtree(data_dir / MEMO_FILE.parent, ignore_errors=True)
                results.append(await _one_run(data_dir, limit))
            said = []
            for number, page in enumerate(("first page", "next page")):
                wall = statistics.median(result[number][0] for result in results)
                cpu = statistics.median(result[number][1] for result in results)
                said.append(
                    f"{page} {wall:.0f} ms wall, {cpu:.0f} ms CPU, {results[-1][number][2]} parsed"
                )
            where = "memo on disk" if memo else "no memo"
            print(
                f"{files} {shape} files, limit {limit}, {where}: {'; '.join(said)} "
                f"(median of {runs})"
            )
            parsed[where] = [page[2] for page in results[-1]]
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return parsed


def main() -> None:
    """Parse the arguments and run the bench."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=30_000)
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="kebab")
    args = parser.parse_args()
    asyncio.run(first_page_bench(args.files, args.limit, args.runs, args.shape))


if __name__ == "__main__":
    main()
