"""``make bench``: the service's speed and memory against the budgets a user feels (Q-3, Q-4).

Builds a data dir (:mod:`bench.perf_data`: an agent with 500 Workspace scopes and a scope of
3,000 topic files, and one at half that size), starts ``memory-api serve`` as its own process on
loopback, drives it with ``wrk`` when installed, else from this process
(:mod:`bench.perf_driver`), and prints three tables: the cases, the budgets (each met or not),
and ratios to a floor measured in the same run (information). The same figures go to
``artifacts/bench-<size>.json``. Usage::

    python -m bench.perf [--quick] [--driver auto|wrk|python] [--out FILE] [--keep DIR]

The budgets (docs/performance.md): Session start's p99 at concurrency 64 within 2× that of
``/healthz`` in the same run; every page view and API call ≤ 100 ms warm (p50); a ``memory-api``
command (``agent list``, ``token list``) from start to exit under a second (p50); and nothing
growing faster than linearly: each page's service CPU per request at the full size over the
same at half the size, ≤ 2.5 (linear work doubles; quadratic work would quadruple). The
machine may be shared: wall times are noisy, so each case also gives the service's CPU time
per request. No test asserts on any of this (the suite's smoke test only checks that the script
runs). The hook processes' budget is measured by ``plugins/harness-memory/bench/hook_cost.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.history import history_bench
from bench.perf_cases import in_process_assembly, median_ms, scandir_stat_ms
from bench.perf_data import AGENT, HALF_AGENT, PROJECT, SIZES, BenchData, Size, build_data
from bench.perf_driver import DRIVERS, Driver, choose
from bench.perf_load import Figures, Request, drive
from bench.perf_server import Server, start, venv_bin
from bench.perf_settle import first_session_start, session_start, wait_recorded
from bench.search import search_bench
from bench.sync import SYNC_NO_CHANGE_BUDGET_MS, SYNC_ONE_FILE_BUDGET_MS, sync_bench

__all__ = ["main"]

PAGE_BUDGET_MS = 100.0
"""Every page view and API call, warm, at the default size (p50)."""
P99_OVER_HEALTHZ = 2.0
"""Session start's p99 at concurrency 64 over ``/healthz``'s in the same run."""
GROWTH_LIMIT = 2.5
"""A page's service CPU per request at the full size over the same at half the size."""
CLI_BUDGET_MS = 1000.0
"""A ``memory-api`` command (not ``serve``) from start to exit, wall (p50): under a second."""


@dataclass(frozen=True, slots=True)
class Plan:
    """Request counts per case (each case also stops after ``max_s`` seconds); with ``wrk``
    the throughput cases run ``wrk_s`` seconds each instead."""

    light: int = 2000
    heavy: int = 400
    slow: int = 20
    cold_runs: int = 3
    inproc_runs: int = 200
    max_s: float = 20.0
    wrk_s: float = 5.0
    p99_pairs: int = 3
    """Pairs of c=64 runs (``/healthz``, Session start) the p99 budget is the median of: one
    run's p99 on a shared machine swings by ±40 %, its neighbour's with it or not."""


QUICK_PLAN = Plan(
    light=60, heavy=30, slow=3, cold_runs=1, inproc_runs=10, max_s=5, wrk_s=1, p99_pairs=2
)


@dataclass
class Report:
    """Everything one run measured; ``cases`` rows are dicts of figures, ``budgets`` and
    ``ratios`` rows dicts of a name, a value and its limit or floor."""

    machine: dict[str, Any]
    size: dict[str, int]
    cases: list[dict[str, Any]] = field(default_factory=list)
    budgets: list[dict[str, Any]] = field(default_factory=list)
    ratios: list[dict[str, Any]] = field(default_factory=list)

    def case(self, name: str) -> dict[str, Any]:
        """The row of case ``name``."""
        return next(row for row in self.cases if row["case"] == name)

    def budget(self, name: str, value: float | None, limit: float, unit: str) -> None:
        """A budget row: met when ``value`` ≤ ``limit``; None: too little was measured (the
        CPU time of a few quick requests is below the clock tick it is counted in)."""
        met = None if value is None else value <= limit
        self.budgets.append(
            {"budget": name, "value": value, "limit": limit, "unit": unit, "met": met}
        )

    def ratio(self, name: str, value: float, floor: float, reach: str, unit: str = "×") -> None:
        """An information row: ``value`` beside the ``floor`` it was measured against."""
        self.ratios.append(
            {"ratio": name, "value": value, "floor": floor, "reach": reach, "unit": unit}
        )


def _machine() -> dict[str, Any]:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_avg_at_start": list(os.getloadavg()),
        "git": _git_describe(),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def _git_describe() -> str:
    done = subprocess.run(
        ["git", "describe", "--always", "--dirty"],  # noqa: S607 - git from PATH, like make
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()


def _case(
    report: Report,
    server: Server,
    name: str,
    request: Request,
    count: int,
    concurrency: int,
    driver: Driver,
    data: BenchData,
    *,
    listed: bool = True,
) -> Figures:
    """One case, once the history shows the first versions of ``data``'s Session-start scopes
    (:mod:`bench.perf_settle`): a warm-up, then the measured run, with the service's CPU per
    request; a row of the table unless not ``listed`` (a repeat shown only by its ratio)."""
    wait_recorded(server, data)
    driver.warm_up(server, request, count, concurrency)
    server.reset_peak()
    measured = driver.run(server, request, count, concurrency)
    if not listed:
        return measured.figures
    report.cases.append(
        {
            "case": name,
            **asdict(measured.figures),
            "driver": measured.driver,
            "service_cpu_us": measured.service_cpu_us,
            "driver_cpu_us": measured.driver_cpu_us,
            "peak_rss_mb": server.peak_rss_mb(),
        }
    )
    return measured.figures


def _throughput_cases(
    report: Report, server: Server, data: BenchData, plan: Plan, driver: Driver
) -> None:
    """``/healthz`` and Session start at concurrency 1 and 64: the p99 budget and the ratios.

    The service's first Session start comes first, and the first versions it records (V-1)
    are waited for (:mod:`bench.perf_settle`): no case measures that one-time record. The p99
    budget is the median over ``plan.p99_pairs`` pairs of c=64 runs (:func:`_p99_pairs`)."""
    session, health = session_start(data), Request("GET", "/healthz")
    report.machine["first_record_s"] = first_session_start(server, data)
    health1 = _case(report, server, "/healthz c=1", health, plan.light, 1, driver, data)
    start1 = _case(report, server, "session start c=1", session, plan.heavy, 1, driver, data)
    health64, start64 = _p99_pairs(report, server, data, plan, driver)
    report.ratio(
        "session start c=1 p50 / healthz p50", start1.p50_ms / health1.p50_ms, health1.p50_ms, "—"
    )
    report.ratio(
        "session start c=64 req/s / healthz req/s",
        start64.throughput / health64.throughput,
        health64.throughput,
        "—",
    )
    # Little's law: with 64 requests always in flight the mean latency is 64 / throughput.
    report.ratio(
        "Little's law: 64 / session start c=64 req/s (ms)",
        64_000 / start64.throughput if start64.throughput else 0.0,
        64_000 / health64.throughput if health64.throughput else 0.0,
        "the mean latency at c=64; p99 ≥ it",
        "ms",
    )
    health_cpu = report.case("/healthz c=64")["service_cpu_us"]
    report.ratio(
        "session start c=64 service CPU µs/req / healthz's",
        report.case("session start c=64")["service_cpu_us"] / health_cpu if health_cpu else 0.0,
        health_cpu,
        "—",
    )


def _p99_pairs(
    report: Report, server: Server, data: BenchData, plan: Plan, driver: Driver
) -> tuple[Figures, Figures]:
    """``plan.p99_pairs`` pairs of c=64 runs of ``/healthz`` and of Session start, each with
    the same count and warm-up, their order alternated (``/healthz`` first in the first pair,
    the start first in the second, …) so that neither is always measured on a machine one run
    busier; each pair's p99 ratio is an information row, the budget their median. The first
    pair's runs are the table's cases ``/healthz c=64`` and ``session start c=64``; returns
    their figures. The later pairs are shown by their ratios only."""
    session, health = session_start(data), Request("GET", "/healthz")
    runs = [("/healthz c=64", health), ("session start c=64", session)]
    pairs: list[tuple[Figures, Figures]] = []
    for pair in range(1, plan.p99_pairs + 1):
        figures = {
            name: _case(
                report, server, name, request, plan.light, 64, driver, data, listed=pair == 1
            )
            for name, request in (runs if pair % 2 else runs[::-1])
        }
        health64, start64 = figures["/healthz c=64"], figures["session start c=64"]
        pairs.append((health64, start64))
        report.ratio(
            f"pair {pair}: session start c=64 p99 / /healthz c=64 p99 (ms: "
            f"{start64.p99_ms:.2f} / {health64.p99_ms:.2f})",
            _over(start64.p99_ms, health64.p99_ms),
            health64.p99_ms,
            "—",
        )
    median = statistics.median(_over(start.p99_ms, health.p99_ms) for health, start in pairs)
    report.budget("session start c=64 p99 / /healthz c=64 p99", median, P99_OVER_HEALTHZ, "×")
    return pairs[0]


def _over(value: float, floor: float) -> float:
    """``value / floor``; 0 for a floor of 0 (no request was measured)."""
    return value / floor if floor else 0.0


def _memory(agent: str) -> str:
    return f"/api/projects/{PROJECT}/agents/{agent}/memory"


def _pages(data: BenchData) -> dict[str, Request]:
    """Every page view's and API call's request (the page's own calls), for ``data``'s agent."""
    memory = _memory(data.agent)
    big = f"{memory}/scopes/{data.big_key}"
    return {
        "agents list": Request("GET", f"/api/projects/{PROJECT}/agents"),
        "agent config": Request("GET", f"/api/projects/{PROJECT}/agents/{data.agent}/config"),
        "overview": Request("GET", memory),
        "big scope files": Request("GET", f"{big}/files"),
        "big scope index": Request("GET", f"{big}/index"),
        "big scope one file": Request("GET", f"{big}/files/topic-0001.md"),
        "search": Request("GET", f"{memory}/search?q=deploy+schema"),
    }


GROWING = ("overview", "big scope files", "big scope index")
"""The pages whose work grows with the data: measured at the full and at half the size."""


def _page_cases(
    report: Report, server: Server, full: BenchData, half: BenchData, plan: Plan
) -> None:
    """Every page warm at the full size (≤ 100 ms), and the growing ones at half the size."""
    python = Driver("python", plan.wrk_s, plan.max_s)
    for name, request in _pages(full).items():
        figures = _case(report, server, f"{name} warm", request, plan.slow, 1, python, full)
        report.budget(f"{name} warm p50 (ms)", figures.p50_ms, PAGE_BUDGET_MS, "ms")
    start1 = report.case("session start c=1")
    report.budget("session start c=1 p50 (ms)", start1["p50_ms"], PAGE_BUDGET_MS, "ms")
    half_pages = _pages(half)
    for name in GROWING:
        page = half_pages[name]
        _case(report, server, f"{name} warm, half size", page, plan.slow, 1, python, full)
        at_half = report.case(f"{name} warm, half size")["service_cpu_us"]
        at_full = report.case(f"{name} warm")["service_cpu_us"]
        report.budget(
            f"{name}: CPU/req at full size / at half size",
            at_full / at_half if at_half and at_full else None,
            GROWTH_LIMIT,
            "×",
        )
    floor = scandir_stat_ms(full.big_index.parent, plan.slow)
    for what in ("files", "index"):
        warm = report.case(f"big scope {what} warm")["p50_ms"]
        report.ratio(f"big scope {what} warm p50 / os.scandir+stat", warm / floor, floor, "—")


def _rss_growth(report: Report, server: Server, data: BenchData, plan: Plan) -> None:
    """Two more identical rounds of Session starts and overviews must not grow the process."""
    session = session_start(data)
    before = server.rss_mb()
    for _ in range(2):
        drive(server.base_url, session, plan.light, 64, plan.max_s)
        drive(server.base_url, Request("GET", _memory(data.agent)), plan.slow, 1, plan.max_s)
    report.ratio(
        "RSS growth over a second identical run (MiB)",
        server.rss_mb() - before,
        before,
        "≈ 0",
        "MiB",
    )


def _cold_cases(report: Report, data: BenchData, logs: Path, plan: Plan) -> None:
    """The big scope's listing and index view as the first request of a fresh process."""
    big = f"{_memory(data.agent)}/scopes/{data.big_key}"
    for what in ("files", "index"):
        times, peaks = [], []
        for _ in range(plan.cold_runs):
            server = start(data.data_dir, logs)
            try:
                figures = drive(server.base_url, Request("GET", f"{big}/{what}"), 1, 1, 600)
                times.append(figures.p50_ms)
                peaks.append(server.peak_rss_mb())
            finally:
                server.stop()
        times.sort()
        median = times[len(times) // 2]
        report.cases.append(
            {
                "case": f"big scope {what} cold (fresh process)",
                **asdict(Figures(len(times), sum(times) / 1000, 0.0, median, times[-1])),
                "driver": "python",
                "peak_rss_mb": max(peaks),
            }
        )
        report.ratio(f"big scope {what} cold (ms)", median, 0, "the first request only", "ms")


def _cli_case(report: Report, data: BenchData, plan: Plan) -> None:
    """A ``memory-api`` command as a user runs one (a process of its own, start to exit):
    ``agent list`` on the full data dir (it counts every scope's memories) and ``token list``
    (little work: the start itself), each beside a bare ``python -c pass``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}

    def run_ms(command: list[str]) -> float:
        return median_ms(
            lambda: subprocess.run(  # noqa: S603 - our own interpreter and console script
                command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            ),
            plan.cold_runs,
        )

    floor = run_ms([venv_bin("python"), "-c", "pass"])
    for args in (["agent", "list"], ["token", "list"]):
        ms = run_ms([venv_bin("memory-api"), *args, "--data-dir", str(data.data_dir)])
        name = f"memory-api {' '.join(args)}"
        report.cases.append({"case": f"{name} (a process, start to exit)", "p50_ms": ms})
        report.budget(f"{name}, wall p50 (ms)", ms, CLI_BUDGET_MS, "ms")
        report.ratio(f"{name} / python -c pass", ms / floor, floor, "Python's own start")


def _assembly_case(report: Report, data: BenchData, plan: Plan) -> None:
    assembly, raw = in_process_assembly(data, plan.inproc_runs)
    report.cases.append({"case": "in-process session assembly", "p50_ms": assembly})
    report.cases.append({"case": "in-process raw read+join of both indexes", "p50_ms": raw})
    report.ratio("in-process assembly / raw read+join", assembly / raw, raw, "—")


def _search_case(report: Report, plan: Plan) -> None:
    """S-1: search over 3,000 topic files (a tenth in ``--quick``), see :mod:`bench.search`."""
    files = SEARCH_FILES if plan.light >= Plan().light else SEARCH_FILES // 10
    figures = asyncio.run(search_bench(files, rounds=max(2, plan.slow // 2)))
    report.ratio(
        f"search over {files:,} files warm p50 (ms)", figures["warm_p50_ms"], 0, "≤ 20", "ms"
    )
    report.ratio(
        "search warm p50 / bare scandir+lstat of the same files",
        figures["p50_over_floor"],
        figures["stat_floor_ms"],
        "freshness costs one lstat per file",
    )


SEARCH_FILES = 3000
"""Topic files of the search case (S-1: p50 ≤ 20 ms warm at 3,000)."""
HISTORY_FILES, HISTORY_VERSIONS = 3000, 1000
"""The history case (V-1, V-3): a scope of 3,000 files, one of them with 1,000 versions."""


def _history_case(report: Report, plan: Plan) -> None:
    """V-1, V-3: see :mod:`bench.history` (a tenth of the files and versions in ``--quick``)."""
    full = plan.light >= Plan().light
    files = HISTORY_FILES if full else HISTORY_FILES // 10
    versions = HISTORY_VERSIONS if full else HISTORY_VERSIONS // 10
    figures = history_bench(files, versions, starts=60 if full else 10, runs=max(3, plan.slow))
    for case, key in (
        (f"session start at {files:,} files, history off", "session_start_off_p50_ms"),
        (f"session start at {files:,} files, recording after", "session_start_on_p50_ms"),
        (f"record at {files:,} files, nothing changed", "record_unchanged_p50_ms"),
        (f"record at {files:,} files, one file changed", "record_one_change_p50_ms"),
        (f"history of a file with {versions:,} versions, newest 100", "history_page_p50_ms"),
        (f"history of a file with {versions:,} versions, all", "history_all_p50_ms"),
    ):
        report.cases.append({"case": case, "p50_ms": figures[key]})
    for name, key, limit in (
        (
            f"session start delay from recording at {files:,} files p50",
            "session_start_delay_p50_ms",
            10.0,
        ),
        ("session start delay from recording p90", "session_start_delay_p90_ms", 10.0),
        (
            f"history of a file with {versions:,} versions, newest 100, p50",
            "history_page_p50_ms",
            100.0,
        ),
    ):
        report.budget(name, figures[key], limit, "ms")
    report.ratio(
        "disk per version, repacked (bytes)",
        figures["disk_per_version_bytes"],
        figures["disk_one_version_before_repack_bytes"],
        "—",
        "B",
    )


SYNC_FILES = 3000
"""The sync case (R-1): a machine's copy of a user scope of 3,000 files."""


def _sync_case(report: Report, plan: Plan) -> None:
    """R-1: see :mod:`bench.sync` (a tenth of the files in ``--quick``)."""
    files = SYNC_FILES if plan.light >= Plan().light else SYNC_FILES // 10
    figures = sync_bench(files, runs=max(3, plan.slow))
    report.cases.append(
        {"case": f"sync at {files:,} files, first (a clone)", "p50_ms": figures["first_sync_ms"]}
    )
    report.cases.append(
        {
            "case": "send-only sync, nothing to send",
            "p50_ms": figures["send_only_idle_p50_ms"],
        }
    )
    report.budget(
        f"Session-start sync at {files:,} files, nothing changed, p50 (ms)",
        figures["no_change_p50_ms"],
        SYNC_NO_CHANGE_BUDGET_MS,
        "ms",
    )
    report.budget(
        f"sync sending one changed file at {files:,} files, p50 (ms)",
        figures["one_file_sent_p50_ms"],
        SYNC_ONE_FILE_BUDGET_MS,
        "ms",
    )


def _create_agent(data: BenchData) -> None:
    env = dict(os.environ) | {"MEMORY_API_DATA_DIR": str(data.data_dir)}
    subprocess.run(  # noqa: S603 - our own console script, fixed arguments
        [
            venv_bin("memory-api"),
            "agent",
            "create",
            "--project",
            PROJECT,
            "--id",
            data.agent,
            "--name",
            data.agent.title(),
        ],
        env=env,
        check=True,
        capture_output=True,
    )


def _cell(value: Any, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value)


def render(report: Report) -> str:
    """The report as Markdown tables: cases, budgets (met or not), ratios (information)."""
    m = report.machine
    out = [
        f"Machine: {m['cpus']} CPUs ({m['cpu_model']}), {m['platform']}, Python {m['python']},"
        f" load {', '.join(f'{x:.2f}' for x in m['load_avg_at_start'])} at start;"
        f" {m['git']} at {m['when']}; throughput cases driven by {m.get('driver', 'python')}",
        "",
        "| case | driver | requests | req/s | p50 ms | p99 ms | service CPU µs/req |"
        " driver CPU µs/req | peak RSS MiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in report.cases:
        driver = row.get("driver", "—") if "requests" in row else "—"
        out.append(
            f"| {row['case']} | {driver} | {_cell(row.get('requests'))} | "
            f"{_cell(row.get('throughput'), 0)} | {_cell(row.get('p50_ms'))} | "
            f"{_cell(row.get('p99_ms'))} | {_cell(row.get('service_cpu_us'), 0)} | "
            f"{_cell(row.get('driver_cpu_us'), 0)} | {_cell(row.get('peak_rss_mb'), 1)} |"
        )
    out += ["", "| budget | value | limit | met |", "|---|---:|---:|---|"]
    verdicts = {True: "yes", False: "**no**", None: "—"}
    for row in report.budgets:
        unit = row["unit"] if row["unit"] == "×" and row["value"] is not None else ""
        out.append(
            f"| {row['budget']} | {_cell(row['value'])}{unit} | ≤ {_cell(row['limit'], 1)}"
            f"{row['unit'] if row['unit'] == '×' else ''} | {verdicts[row['met']]} |"
        )
    out += ["", "| ratio (information) | value | floor | note |", "|---|---:|---:|---|"]
    for row in report.ratios:
        out.append(
            f"| {row['ratio']} | {_cell(row['value'])}{row['unit'] if row['unit'] == '×' else ''}"
            f" | {_cell(row['floor'] or None)} | {row['reach']} |"
        )
    return "\n".join(out)


def run(base: Path, size: Size, plan: Plan, driver: Driver) -> Report:
    """Build the data under ``base`` and measure every case; returns the report."""
    full = build_data(base, size, agent=AGENT)
    half = build_data(base, size.half(), agent=HALF_AGENT)
    for data in (full, half):
        _create_agent(data)
    logs = base / "logs"
    logs.mkdir()
    report = Report(machine=_machine() | {"driver": driver.name}, size=asdict(size))
    server = start(full.data_dir, logs)
    try:
        _throughput_cases(report, server, full, plan, driver)
        _page_cases(report, server, full, half, plan)
        _rss_growth(report, server, full, plan)
    finally:
        server.stop()
    _cold_cases(report, full, logs, plan)
    _cli_case(report, full, plan)
    _assembly_case(report, full, plan)
    _search_case(report, plan)
    _history_case(report, plan)
    _sync_case(report, plan)
    return report


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run, print the tables and write the JSON; exit status 0."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.perf", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="a tiny data dir and few requests")
    parser.add_argument("--out", type=Path, help="JSON file (default artifacts/bench-<size>.json)")
    parser.add_argument("--keep", type=Path, help="build the data dir here and keep it")
    parser.add_argument(
        "--driver",
        choices=DRIVERS,
        default="auto",
        help="load generator of the throughput cases: wrk when installed (auto), or python",
    )
    args = parser.parse_args(argv)
    size_name = "quick" if args.quick else "default"
    size, plan = SIZES[size_name], QUICK_PLAN if args.quick else Plan()
    driver = choose(args.driver, plan.wrk_s, plan.max_s)
    out = args.out or Path("artifacts") / f"bench-{size_name}.json"
    base = args.keep or Path(tempfile.mkdtemp(prefix="memory-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        report = run(base, size, plan, driver)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(render(report))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(asdict(report), indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
