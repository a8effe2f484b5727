"""``make bench``: the service's speed and memory per case, as ratios within one run (Q-3, Q-4).

Builds a data dir (:mod:`bench.perf_data`), starts ``memory-api serve`` as its own process on
loopback, drives it with ``wrk`` when installed, else from this process (:mod:`bench.perf_driver`),
and prints one table plus the machine it ran on; the same figures go to
``artifacts/bench-<size>.json``. Usage::

    python -m bench.perf [--quick] [--driver auto|wrk|python] [--out FILE] [--keep DIR]

The machine may be shared: absolute times are noisy, the ratios of one run are what to compare.
No test asserts on any of this (the suite's smoke test only checks that the script runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memory_api.settings import default_workers

from bench.history import history_bench
from bench.perf_cases import hook_medians, in_process_assembly, scandir_stat_ms
from bench.perf_data import AGENT, PROJECT, QUICK, BenchData, Size, build_data
from bench.perf_driver import DRIVERS, Driver, Measured, choose
from bench.perf_load import Figures, Request, drive
from bench.perf_server import Server, start, venv_bin
from bench.search import search_bench

__all__ = ["main"]

MEMORY = f"/api/projects/{PROJECT}/agents/{AGENT}/memory"


@dataclass(frozen=True, slots=True)
class Plan:
    """Request counts per case (each case also stops after ``max_s`` seconds); with ``wrk``
    the throughput cases run ``wrk_s`` seconds each instead."""

    light: int = 2000
    heavy: int = 400
    slow: int = 20
    cold_runs: int = 3
    inproc_runs: int = 200
    hook_runs: int = 20
    max_s: float = 20.0
    wrk_s: float = 5.0


QUICK_PLAN = Plan(
    light=60, heavy=30, slow=3, cold_runs=1, inproc_runs=10, hook_runs=2, max_s=5, wrk_s=1
)


@dataclass
class Report:
    """Everything one run measured; ``cases`` rows are dicts of :class:`Row` fields."""

    machine: dict[str, Any]
    size: dict[str, int]
    cases: list[dict[str, Any]] = field(default_factory=list)
    ratios: list[dict[str, Any]] = field(default_factory=list)
    scaling: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self, name: str, figures: Figures, rss_mb: float | None, measured: Measured | None = None
    ) -> Figures:
        row = {"case": name, **asdict(figures), "peak_rss_mb": rss_mb, "driver": "python"}
        if measured is not None:
            row |= {
                "driver": measured.driver,
                "service_cpu_us": measured.service_cpu_us,
                "driver_cpu_us": measured.driver_cpu_us,
            }
        self.cases.append(row)
        return figures

    def ratio(self, name: str, value: float, floor: float, reach: str, unit: str = "×") -> None:
        self.ratios.append(
            {"ratio": name, "value": value, "floor": floor, "reach": reach, "unit": unit}
        )


def _machine() -> dict[str, Any]:
    model = ""
    with_cpuinfo = Path("/proc/cpuinfo")
    if with_cpuinfo.exists():
        for line in with_cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "usable_cpus": default_workers(),
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
    plan: Plan,
    driver: Driver | None = None,
) -> Figures:
    """One case: a warm-up, then the measured run: ``driver``'s, with the CPU per request, or
    (the slow cases, a few requests each: too few for a CPU figure) the Python driver's."""
    runner = driver or Driver("python", plan.wrk_s, plan.max_s)
    runner.warm_up(server, request, count, concurrency)
    server.reset_peak()
    measured = runner.run(server, request, count, concurrency)
    keep_cpu = measured if driver is not None else None
    return report.add(name, measured.figures, server.peak_rss_mb(), keep_cpu)


def _service_cpu_us(report: Report, name: str) -> float:
    row = next(row for row in report.cases if row["case"] == name)
    value: float = row["service_cpu_us"]
    return value


def _throughput_cases(
    report: Report, server: Server, data: BenchData, plan: Plan, driver: Driver
) -> None:
    """``/healthz`` and Session start at concurrency 1 and 64, and their ratios."""
    session = Request("POST", MEMORY + "/session-start", {"workspace": str(data.big_workspace)})
    health = Request("GET", "/healthz")
    health1 = _case(report, server, "/healthz c=1", health, plan.light, 1, plan, driver)
    health64 = _case(report, server, "/healthz c=64", health, plan.light, 64, plan, driver)
    start1 = _case(report, server, "session start c=1", session, plan.heavy, 1, plan, driver)
    start64 = _case(report, server, "session start c=64", session, plan.light, 64, plan, driver)
    report.ratio(
        "session start c=1 p50 / healthz p50", start1.p50_ms / health1.p50_ms, health1.p50_ms, "≤ 2"
    )
    report.ratio(
        "session start c=64 req/s / healthz req/s",
        start64.throughput / health64.throughput,
        health64.throughput,
        "≥ 0.5",
    )
    report.ratio("session start c=64 p99 (ms)", start64.p99_ms, health64.p99_ms, "≤ 20", "ms")
    # Little's law: with 64 requests always in flight the mean latency is 64 / throughput.
    report.ratio(
        "Little's law: 64 / session start c=64 req/s (ms)",
        64_000 / start64.throughput if start64.throughput else 0.0,
        64_000 / health64.throughput if health64.throughput else 0.0,
        "mean latency at c=64; p99 ≥ it",
        "ms",
    )
    health_cpu = _service_cpu_us(report, "/healthz c=64")
    report.ratio(
        "session start c=64 service CPU µs/req / healthz's",
        _service_cpu_us(report, "session start c=64") / health_cpu if health_cpu else 0.0,
        health_cpu,
        "≤ 2 (what ≥ 0.5× the req/s needs on CPU-bound cores)",
    )


def _serving_cases(report: Report, server: Server, data: BenchData, plan: Plan) -> None:
    session = Request("POST", MEMORY + "/session-start", {"workspace": str(data.big_workspace)})
    big = f"{MEMORY}/scopes/{data.big_key}"
    overview = _case(report, server, "overview warm", Request("GET", MEMORY), plan.slow, 1, plan)
    report.ratio("overview of all scopes warm p50 (ms)", overview.p50_ms, 0, "≤ 100", "ms")
    floor = scandir_stat_ms(data.big_index.parent, plan.slow)
    for what in ("files", "index"):
        warm = _case(
            report,
            server,
            f"big scope {what} warm",
            Request("GET", f"{big}/{what}"),
            plan.slow,
            1,
            plan,
        )
        report.ratio(
            f"big scope {what} warm p50 / os.scandir+stat", warm.p50_ms / floor, floor, "≤ 10"
        )
    before = server.rss_mb()
    for _ in range(2):  # a second identical round must not grow the process
        drive(server.base_url, session, plan.light, 64, plan.max_s)
        drive(server.base_url, Request("GET", MEMORY), plan.slow, 1, plan.max_s)
    report.ratio(
        "RSS growth over a second identical run (MiB)",
        server.rss_mb() - before,
        before,
        "≈ 0",
        "MiB",
    )


def _cold_cases(
    report: Report, data: BenchData, logs: Path, workers: int | None, plan: Plan
) -> None:
    big = f"{MEMORY}/scopes/{data.big_key}"
    for what in ("files", "index"):
        times, peaks = [], []
        for _ in range(plan.cold_runs):
            server = start(data.data_dir, logs, workers)
            try:
                figures = drive(server.base_url, Request("GET", f"{big}/{what}"), 1, 1, 600)
                times.append(figures.p50_ms)
                peaks.append(server.peak_rss_mb())
            finally:
                server.stop()
        times.sort()
        median = times[len(times) // 2]
        report.add(
            f"big scope {what} cold (fresh process)",
            Figures(len(times), sum(times) / 1000, 0.0, median, times[-1]),
            max(peaks),
        )
        report.ratio(f"big scope {what} cold (ms)", median, 0, "≤ 1000", "ms")


def _process_cases(report: Report, server: Server, data: BenchData, base: Path, plan: Plan) -> None:
    assembly, raw = in_process_assembly(data, plan.inproc_runs)
    report.cases.append({"case": "in-process session assembly", "p50_ms": assembly})
    report.cases.append({"case": "in-process raw read+join of both indexes", "p50_ms": raw})
    report.ratio("in-process assembly / raw read+join", assembly / raw, raw, "≤ 3")
    hooks = hook_medians(server.base_url, data, base / "hook-home", plan.hook_runs)
    floor = hooks.pop("python -c pass")
    report.cases.append({"case": "python -c pass (median)", "p50_ms": floor})
    for name, median in hooks.items():
        report.cases.append({"case": f"{name} (median)", "p50_ms": median})
        report.ratio(f"{name} / python -c pass", median / floor, floor, "≤ 3")


def _scaling(report: Report, data: BenchData, logs: Path, plan: Plan, driver: Driver) -> None:
    """Session start and /healthz at concurrency 64 with 1, 2, … up to one worker per usable
    CPU (the default of ``serve``); on a large machine only 1, 2, half and all of them."""
    session = Request("POST", MEMORY + "/session-start", {"workspace": str(data.big_workspace)})
    usable = default_workers()
    for workers in sorted({1, 2, usable // 2, usable} & set(range(1, usable + 1))):
        server = start(data.data_dir, logs, workers)
        try:
            row: dict[str, Any] = {"workers": workers, "driver": driver.name}
            for name, request in (("healthz", Request("GET", "/healthz")), ("session", session)):
                driver.warm_up(server, request, plan.light, 64)
                measured = driver.run(server, request, plan.light, 64)
                row[f"{name}_req_s"] = measured.figures.throughput
                row[f"{name}_p99_ms"] = measured.figures.p99_ms
                row[f"{name}_cpu_us"] = measured.service_cpu_us
            row["rss_mb"] = server.rss_mb()
            report.scaling.append(row)
        finally:
            server.stop()


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
            AGENT,
            "--name",
            "Bench",
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
    """The report as Markdown tables: cases, ratios (with the issue's reach), scaling."""
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
    out += ["", "| ratio | value | floor | reach |", "|---|---:|---:|---|"]
    for row in report.ratios:
        out.append(
            f"| {row['ratio']} | {_cell(row['value'])}{row['unit'] if row['unit'] == '×' else ''}"
            f" | {_cell(row['floor'] or None)} | {row['reach']} |"
        )
    if report.scaling:
        out += [
            "",
            "| workers | driver | healthz req/s | healthz p99 ms | session start req/s |"
            " session p99 ms | ratio | session CPU µs/req | RSS MiB |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in report.scaling:
            ratio = row["session_req_s"] / row["healthz_req_s"] if row["healthz_req_s"] else 0
            out.append(
                f"| {row['workers']} | {row['driver']} | {_cell(row['healthz_req_s'], 0)} | "
                f"{_cell(row['healthz_p99_ms'])} | {_cell(row['session_req_s'], 0)} | "
                f"{_cell(row['session_p99_ms'])} | {ratio:.2f}× | "
                f"{_cell(row['session_cpu_us'], 0)} | {_cell(row['rss_mb'], 1)} |"
            )
    return "\n".join(out)


def run(base: Path, size: Size, plan: Plan, driver: Driver) -> Report:
    """Build the data under ``base`` and measure every case; returns the report."""
    data = build_data(base, size)
    _create_agent(data)
    logs = base / "logs"
    logs.mkdir()
    workers = 1  # the single-process cases; :func:`_scaling` then adds workers
    report = Report(machine=_machine() | {"driver": driver.name}, size=asdict(size))
    server = start(data.data_dir, logs, workers)
    try:
        _throughput_cases(report, server, data, plan, driver)
        _serving_cases(report, server, data, plan)
        _process_cases(report, server, data, base, plan)
    finally:
        server.stop()
    _cold_cases(report, data, logs, workers, plan)
    _scaling(report, data, logs, plan, driver)
    _search_case(report, plan)
    _history_case(report, plan)
    return report


def _search_case(report: Report, plan: Plan) -> None:
    """S-1: search over 3,000 topic files (a tenth in ``--quick``), see :mod:`bench.search`."""
    files = SEARCH_FILES if plan.light >= Plan().light else SEARCH_FILES // 10
    figures = asyncio.run(search_bench(files, rounds=max(2, plan.hook_runs // 2)))
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
    figures = history_bench(files, versions, starts=60 if full else 10, runs=max(3, plan.hook_runs))
    for case, key in (
        (f"session start at {files:,} files, history off", "session_start_off_p50_ms"),
        (f"session start at {files:,} files, recording after", "session_start_on_p50_ms"),
        (f"record at {files:,} files, nothing changed", "record_unchanged_p50_ms"),
        (f"record at {files:,} files, one file changed", "record_one_change_p50_ms"),
        (f"history of a file with {versions:,} versions, newest 100", "history_page_p50_ms"),
        (f"history of a file with {versions:,} versions, all", "history_all_p50_ms"),
    ):
        report.cases.append({"case": case, "p50_ms": figures[key]})
    report.ratio(
        f"session start delay from recording at {files:,} files p50 (ms)",
        figures["session_start_delay_p50_ms"],
        figures["session_start_off_p50_ms"],
        "≤ 10",
        "ms",
    )
    report.ratio(
        "session start delay from recording p90 (ms)",
        figures["session_start_delay_p90_ms"],
        figures["session_start_off_p50_ms"],
        "≤ 10",
        "ms",
    )
    report.ratio(
        f"history of a file with {versions:,} versions, newest 100, p50 (ms)",
        figures["history_page_p50_ms"],
        0,
        "≤ 100",
        "ms",
    )
    report.ratio(
        f"history of a file with {versions:,} versions, all of them, p50 (ms)",
        figures["history_all_p50_ms"],
        0,
        "≤ 100",
        "ms",
    )
    report.ratio(
        "disk per version, repacked (bytes)",
        figures["disk_per_version_bytes"],
        figures["disk_one_version_before_repack_bytes"],
        "—",
        "B",
    )


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
    size, plan = (QUICK, QUICK_PLAN) if args.quick else (Size(), Plan())
    driver = choose(args.driver, plan.wrk_s, plan.max_s)
    out = args.out or Path("artifacts") / f"bench-{'quick' if args.quick else 'default'}.json"
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
