"""The scale case of ``make bench`` (issue 30): an agent with 20,000 Workspaces and 100,000
memories should feel like one with 20. Rows of the issue's table, each cold (first after a
start of the service) and warm, with the service's memory.

Run: ``python -m bench.scale [--full] [--data DIR [--keep-index]] [--rounds N] [--one-start]
[--out FILE]``.
Builds the data set of :mod:`bench.scale_data` (:data:`~bench.scale_data.SMALL` by default, a
tenth of the issue's size; ``--full`` for 20,000 scopes / 100,000 files; ``--data`` reuses one
built before with ``python -m bench.scale_data`` or by an earlier run given the same ``--data``
(a folder that does not exist yet is built and kept), ``--keep-index`` its search index too),
creates the agent with the service's CLI, and runs
``memory-api serve`` as its own process (:mod:`bench.perf_server`), started afresh for each
"first after a start" row (``--one-start``, for a smoke run only: once for every row,
:mod:`bench.scale_starts`).

Search rows (S-1): the first search ever (it builds the index from every file), the first
search after a restart (three restarts, a different query each), a search again (p50 and p90 of
a query mix: a word in a third of the files, one in a single file, two words, a prefix, Chinese),
the first search after one file is edited in place, the index's size on disk, and the service's
peak RSS. Wall times on a shared machine move with its load; the service's CPU time per search
(user + system, from ``/proc``) moves least. Other rows of the table (overview, read, list)
belong here too, on the same data.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import asdict
from pathlib import Path

from memory_core import layout
from memory_core.keys import key_for_real_path

from bench.perf_server import Server, venv_bin
from bench.scale_data import (
    AGENT,
    BUILT,
    FULL,
    PROJECT,
    SMALL,
    TINY,
    ScaleData,
    ScaleSize,
    build_scale_data,
)
from bench.scale_pages import page_budgets, page_rows
from bench.scale_starts import Starts

__all__ = ["QUERIES", "main", "search_rows"]

QUERIES = ["deploy", "item004242", "rollback window", "depl", "迁移", "成语接龙"]
SEARCH = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/search"
Row = tuple[str, float, str]
"""(what a user does, figure, unit)."""
ONE_START_NOTE = (
    "one service start for every row (--one-start): a smoke run, the figures are not comparable"
)


def _get(server: Server, path: str, **params: str) -> float:
    """GET ``path`` and read the answer; its wall time in ms. Raises on a non-200."""
    url = server.base_url + path + ("?" + urllib.parse.urlencode(params) if params else "")
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=3600) as answer:  # noqa: S310 - loopback
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: {answer.status}")
    return (time.perf_counter() - began) * 1000


def _create_agent(data_dir: Path) -> None:
    if (data_dir / "agents" / AGENT / "agent.json").exists():
        return
    env = dict(os.environ) | {"MEMORY_API_DATA_DIR": str(data_dir)}
    subprocess.run(  # noqa: S603 - our own console script, fixed arguments
        [
            venv_bin("memory-api"),
            "agent",
            "create",
            "--project",
            PROJECT,
            "--id",
            AGENT,
            "--name",
            "Scale",
        ],
        env=env,
        check=True,
        capture_output=True,
    )


def search_rows(
    data: ScaleData, starts: Starts, rounds: int, *, keep_index: bool = False
) -> list[Row]:
    """The search rows of the table (see the module doc); with ``keep_index`` an index built
    by an earlier run on the same data is kept (brought up to date by the first search) and
    the rows of the first search ever are left out."""
    rows: list[Row] = []
    index = data.data_dir / "search" / f"{AGENT}.sqlite3"
    if not (keep_index and index.exists()):
        for stale in index.parent.glob(f"{AGENT}.sqlite3*"):
            stale.unlink()  # a data set reused: the first search must build the index

        def first_ever(server: Server) -> None:
            rows.append(
                ("first search ever (builds the index)", _get(server, SEARCH, q="deploy"), "ms")
            )

        peak = starts.run(first_ever)
        rows.append(("  service peak RSS while building", peak, "MiB"))
    rows.append(("  index file size", index.stat().st_size / 1024 / 1024, "MiB"))
    cold: list[float] = []
    warm: list[float] = []
    cold_cpu: list[float] = []
    warm_cpu: list[float] = []
    peaks: list[float] = []
    for query in QUERIES[:3]:

        def after_restart(server: Server, query: str = query) -> None:
            began = server.cpu_s()
            cold.append(_get(server, SEARCH, q=query))
            cold_cpu.append((server.cpu_s() - began) * 1000)
            began = server.cpu_s()
            for _ in range(rounds):
                warm.extend(_get(server, SEARCH, q=other) for other in QUERIES)
            warm_cpu.append((server.cpu_s() - began) * 1000 / (rounds * len(QUERIES)))

        peaks.append(starts.run(after_restart))
    rows.append(("first search after a restart (median of 3)", statistics.median(cold), "ms"))
    rows.append(("  slowest of the 3", max(cold), "ms"))
    rows.append(("  service CPU for it (median)", statistics.median(cold_cpu), "ms"))
    warm.sort()
    rows.append(("search again p50", statistics.median(warm), "ms"))
    rows.append(("search again p90", warm[int(len(warm) * 0.9)], "ms"))
    rows.append(("  service CPU per search (mean)", statistics.mean(warm_cpu), "ms"))
    rows.append(("  service peak RSS (search)", max(peaks), "MiB"))
    rows.append(("search after one file edited in place", _edited_search(data, starts), "ms"))
    return rows


def _edited_search(data: ScaleData, starts: Starts) -> float:
    big = data.memory_root / data.big_key
    path = next(path for path in sorted(big.glob("*-*.md")))
    times: list[float] = []

    def edit_then_search(server: Server) -> None:
        _get(server, SEARCH, q="deploy")
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\nzeppelin hangar\n")
        times.append(_get(server, SEARCH, q="zeppelin"))

    starts.run(edit_then_search)
    return times[0]


def _print(rows: list[Row], size: ScaleSize, built_s: float | None) -> None:
    print(f"scale case: {size.scopes:,} Workspace scopes, {size.files:,} topic files", end="")
    print(f" (data built in {built_s:.0f} s)" if built_s is not None else " (data reused)")
    for what, value, unit in rows:
        print(f"  {what:<46} {value:>10,.1f} {unit}")
    print("  budgets at the full size: first search after a restart ≤ 2,000 ms, again ≤ 300 ms")


def main() -> None:
    """Build or reuse the data set, measure, print the table and write the JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--full", action="store_true", help="20,000 scopes / 100,000 files")
    sizes.add_argument("--tiny", action="store_true", help="20 scopes (a smoke test)")
    parser.add_argument(
        "--data",
        type=Path,
        help="a folder built by python -m bench.scale_data, or one to build the data set in and"
        " keep (when it does not exist yet)",
    )
    parser.add_argument(
        "--keep-index",
        action="store_true",
        help="with --data: keep the search index an earlier run built (no first-ever rows)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the warm query mix")
    parser.add_argument(
        "--one-start",
        action="store_true",
        help="a smoke run: every row on one service started once (checks that every row is"
        " reported; its first-after-a-start and RSS figures are not what their names say)",
    )
    parser.add_argument("--out", type=Path, help="JSON file (default artifacts/bench-scale-*.json)")
    parser.add_argument(
        "--only", choices=("search", "pages"), help="only the search rows, or only the page rows"
    )
    args = parser.parse_args()
    size = FULL if args.full else TINY if args.tiny else SMALL
    name = "full" if args.full else "tiny" if args.tiny else "small"
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as temp:
        built_s = None
        if args.data is None or not args.data.exists():
            began = time.perf_counter()
            data = build_scale_data(args.data or Path(temp), size)
            built_s = time.perf_counter() - began
        elif not (args.data / BUILT).exists():
            parser.error(
                f"{args.data} holds no whole data set (no {BUILT}: a build cut short, or one "
                f"made before {BUILT} was written): remove it, or touch {args.data / BUILT} if "
                "it is whole"
            )
        else:
            data = _reused(args.data, size)
        _create_agent(data.data_dir)
        with Starts(data.data_dir, Path(temp), one_start=args.one_start) as starts:
            rows = (
                []
                if args.only == "pages"
                else search_rows(data, starts, args.rounds, keep_index=args.keep_index)
            )
            if args.only != "search":
                rows += page_rows(data, starts, args.rounds)
    _print(rows, size, built_s)
    if args.one_start:
        print(f"  {ONE_START_NOTE}")
    print("\n".join(page_budgets(rows)))
    out = args.out or Path("artifacts") / f"bench-scale-{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "size": asdict(size),
        "data_built_s": built_s,
        "one_start": args.one_start,
        "rows": rows,
    }
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"  figures in {out}")


def _reused(base: Path, size: ScaleSize) -> ScaleData:
    """The :class:`ScaleData` of a data set built before into ``base``; one copied from
    elsewhere (``cp -a``) keeps the keys and markers of the place it was built in."""
    workspace = (base / "workspaces" / "repo-00000").resolve()
    key = key_for_real_path(str(workspace))
    root = layout.memory_root(base / "data", AGENT)
    if not (root / key).is_dir():
        workspace, key = _copied_big_scope(root, workspace, key)
    return ScaleData(base / "data", root, key, workspace, size.scopes, size.files)


def _copied_big_scope(root: Path, workspace: Path, key: str) -> tuple[Path, str]:
    """The biggest Workspace's path and key in a data set copied from elsewhere: the scope of
    ``repo-00000``, and the path its marker names (so a Session start finds that scope)."""
    for scope in root.glob(f"{workspace.name}-*"):
        marker = (scope / layout.MARKER_FILE).read_text(encoding="utf-8").strip()
        return Path(marker), scope.name
    return workspace, key


if __name__ == "__main__":
    main()
