"""``make bench``: the service's speed and memory per case, as ratios within one run (Q-3, Q-4).

Builds a data dir (:mod:`bench.perf_data`), starts ``memory-api serve`` as its own process on
loopback, drives it from this process (:mod:`bench.perf_load`), and prints one table plus the
machine it ran on; the same figures go to ``artifacts/bench-<size>.json``. Usage::

    python -m bench.perf [--quick] [--out FILE] [--keep DIR]

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

from bench.perf_cases import hook_medians, in_process_assembly, scandir_stat_ms
from bench.perf_data import AGENT, PROJECT, QUICK, BenchData, Size, build_data
from bench.perf_load import Figures, Request, drive
from bench.perf_server import Server, start, venv_bin
from bench.search import search_bench

__all__ = ["main"]

MEMORY = f"/api/projects/{PROJECT}/agents/{AGENT}/memory"


@dataclass(frozen=True, slots=True)
class Plan:
    """Request counts per case (each case also stops after ``max_s`` seconds)."""

    light: int = 2000
    heavy: int = 400
    slow: int = 20
    cold_runs: int = 3
    inproc_runs: int = 200
    hook_runs: int = 20
    max_s: float = 20.0


QUICK_PLAN = Plan(light=60, heavy=30, slow=3, cold_runs=1, inproc_runs=10, hook_runs=2, max_s=5)


@dataclass
class Report:
    """Everything one run measured; ``cases`` rows are dicts of :class:`Row` fields."""

    machine: dict[str, Any]
    size: dict[str, int]
    cases: list[dict[str, Any]] = field(default_factory=list)
    ratios: list[dict[str, Any]] = field(default_factory=list)
    scaling: list[dict[str, Any]] = field(default_factory=list)

    def add(self, name: str, figures: Figures, rss_mb: float | None) -> Figures:
        row = {"case": name, **asdict(figures), "peak_rss_mb": rss_mb}
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
) -> Figures:
    drive(server.base_url, request, max(1, count // 20), concurrency, plan.max_s)  # warm up
    server.reset_peak()
    figures = drive(server.base_url, request, count, concurrency, plan.max_s)
    return report.add(name, figures, server.peak_rss_mb())


def _serving_cases(report: Report, server: Server, data: BenchData, plan: Plan) -> None:
    session = Request("POST", MEMORY + "/session-start", {"workspace": str(data.big_workspace)})
    big = f"{MEMORY}/scopes/{data.big_key}"
    health1 = _case(report, server, "/healthz c=1", Request("GET", "/healthz"), plan.light, 1, plan)
    health64 = _case(
        report, server, "/healthz c=64", Request("GET", "/healthz"), plan.light, 64, plan
    )
    start1 = _case(report, server, "session start c=1", session, plan.heavy, 1, plan)
    start64 = _case(report, server, "session start c=64", session, plan.light, 64, plan)
    report.ratio(
        "session start c=1 p50 / healthz p50", start1.p50_ms / health1.p50_ms, health1.p50_ms, "≤ 2"
    )
    report.ratio(
        "session start c=64 req/s / healthz req/s",
        start64.throughput / health64.throughput,
        health64.throughput,
        "≥ 0.5",
    )
    report.ratio("session start c=64 p99 (ms)", start64.p99_ms, 0, "≤ 20", "ms")
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


def _scaling(report: Report, data: BenchData, logs: Path, plan: Plan) -> None:
    """Session start and /healthz at concurrency 64 with 1, 2, … up to one worker per usable
    CPU (the default of ``serve``); on a large machine only 1, 2, half and all of them."""
    session = Request("POST", MEMORY + "/session-start", {"workspace": str(data.big_workspace)})
    usable = default_workers()
    for workers in sorted({1, 2, usable // 2, usable} & set(range(1, usable + 1))):
        server = start(data.data_dir, logs, workers)
        try:
            row: dict[str, Any] = {"workers": workers}
            for name, request in (("healthz", Request("GET", "/healthz")), ("session", session)):
                drive(server.base_url, request, plan.light // 20, 64, plan.max_s)
                figures = drive(server.base_url, request, plan.light, 64, plan.max_s)
                row[f"{name}_req_s"] = figures.throughput
                row[f"{name}_p99_ms"] = figures.p99_ms
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
        f" {m['git']} at {m['when']}",
        "",
        "| case | requests | req/s | p50 ms | p99 ms | peak RSS MiB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in report.cases:
        out.append(
            f"| {row['case']} | {_cell(row.get('requests'))} | "
            f"{_cell(row.get('throughput'), 0)} | {_cell(row.get('p50_ms'))} | "
            f"{_cell(row.get('p99_ms'))} | {_cell(row.get('peak_rss_mb'), 1)} |"
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
            "| workers | healthz req/s | session start req/s | session p99 ms | RSS MiB |",
            "|---:|---:|---:|---:|---:|",
        ]
        for row in report.scaling:
            out.append(
                f"| {row['workers']} | {_cell(row['healthz_req_s'], 0)} | "
                f"{_cell(row['session_req_s'], 0)} | {_cell(row['session_p99_ms'])} | "
                f"{_cell(row['rss_mb'], 1)} |"
            )
    return "\n".join(out)


def run(base: Path, size: Size, plan: Plan) -> Report:
    """Build the data under ``base`` and measure every case; returns the report."""
    data = build_data(base, size)
    _create_agent(data)
    logs = base / "logs"
    logs.mkdir()
    workers = 1  # the single-process cases; :func:`_scaling` then adds workers
    report = Report(machine=_machine(), size=asdict(size))
    server = start(data.data_dir, logs, workers)
    try:
        _serving_cases(report, server, data, plan)
        _process_cases(report, server, data, base, plan)
    finally:
        server.stop()
    _cold_cases(report, data, logs, workers, plan)
    _scaling(report, data, logs, plan)
    _search_case(report, plan)
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


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run, print the tables and write the JSON; exit status 0."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.perf", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="a tiny data dir and few requests")
    parser.add_argument("--out", type=Path, help="JSON file (default artifacts/bench-<size>.json)")
    parser.add_argument("--keep", type=Path, help="build the data dir here and keep it")
    args = parser.parse_args(argv)
    size, plan = (QUICK, QUICK_PLAN) if args.quick else (Size(), Plan())
    out = args.out or Path("artifacts") / f"bench-{'quick' if args.quick else 'default'}.json"
    base = args.keep or Path(tempfile.mkdtemp(prefix="memory-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        report = run(base, size, plan)
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
