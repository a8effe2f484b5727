"""Q-3: ``make bench`` — the benchmark script runs end to end (at a tiny size) and reports every
case, budget and ratio docs/performance.md names. Correctness of the script only: no figure is
asserted on, since speed is judged by ratios within one benchmark run, never in tests. It runs
the Python driver, which ``make bench`` falls back to without ``wrk``; the wrk driver has its
own test (``test_q3_bench_wrk.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.bench_script import run_bench

pytestmark = pytest.mark.e2e


def test_q3_bench_quick_run_reports_every_case_budget_and_ratio(tmp_path: Path) -> None:
    said, report = run_bench(
        "bench.perf", "--quick", "--driver", "python", out=tmp_path / "bench.json"
    )

    cases = {row["case"] for row in report["cases"]}
    pages = [
        "agents list",
        "agent config",
        "overview",
        "big scope files",
        "big scope index",
        "big scope one file",
        "search",
    ]
    assert {
        "/healthz c=1",
        "/healthz c=64",
        "session start c=1",
        "session start c=64",
        *(f"{page} warm" for page in pages),
        *(f"{page} warm, half size" for page in pages[2:5]),
        "big scope files cold (fresh process)",
        "big scope index cold (fresh process)",
        "in-process session assembly",
        "in-process raw read+join of both indexes",
        "memory-api agent list (a process, start to exit)",
        "memory-api token list (a process, start to exit)",
    } <= cases
    for row in report["cases"]:
        assert row["p50_ms"] > 0, row
    throughput = [row for row in report["cases"] if "c=" in row["case"]]
    assert len(throughput) == 4
    for row in throughput:
        assert row["driver"] == "python"
        assert row["service_cpu_us"] >= 0 and row["driver_cpu_us"] > 0, row
    assert report["machine"]["driver"] == "python"
    budgets = {row["budget"]: row for row in report["budgets"]}
    assert "session start c=64 p99 / /healthz c=64 p99" in budgets
    assert {f"{page} warm p50 (ms)" for page in pages} <= set(budgets)
    assert "session start c=1 p50 (ms)" in budgets
    assert {"memory-api agent list, wall p50 (ms)", "memory-api token list, wall p50 (ms)"} <= set(
        budgets
    )
    for page in pages[2:5]:
        assert f"{page}: CPU/req at full size / at half size" in budgets
    assert all(row["met"] in (True, False, None) for row in budgets.values())
    ratios = {row["ratio"]: row for row in report["ratios"]}
    assert "in-process assembly / raw read+join" in ratios
    assert "session start c=64 req/s / healthz req/s" in ratios
    assert "RSS growth over a second identical run (MiB)" in ratios
    assert "Little's law: 64 / session start c=64 req/s (ms)" in ratios
    assert "session start c=64 service CPU µs/req / healthz's" in ratios
    assert "search over 300 files warm p50 (ms)" in ratios  # S-1 (3,000 files without --quick)
    assert "session start delay from recording at 300 files p50" in budgets  # V-1
    assert "history of a file with 100 versions, newest 100, p50" in budgets  # V-2
    assert "disk per version, repacked (bytes)" in ratios  # V-3
    assert "Session-start sync at 300 files, nothing changed, p50 (ms)" in budgets
    assert "sync sending one changed file at 300 files, p50 (ms)" in budgets
    assert all(row["reach"] for row in ratios.values())
    assert "| case |" in said
    assert "| budget |" in said
    assert "| ratio (information) |" in said


def test_q3_bench_history_reads_runs_at_a_tiny_size() -> None:
    """``bench/history_reads.py`` (docs/performance.md): every figure, at 40 files and 400
    versions; the recently deleted index built by looks until complete, 30 files listed."""
    from bench.history_reads import history_reads_bench

    figures = history_reads_bench(files=40, versions=400, runs=1)

    assert figures["deleted_listed"] == 30
    assert figures["deleted_building_looks"] >= 1
    for name in (
        "changes_since_10_minutes_p50_ms",
        "changes_since_day_p50_ms",
        "changes_since_all_p50_ms",
        "changes_since_first_look_ms",
        "deleted_warm_p50_ms",
    ):
        assert figures[name] > 0, name


async def test_q3_bench_listing_first_page_runs_at_a_tiny_size() -> None:
    """``bench/listing_first_page.py`` (docs/performance.md) at 30 files, pages of 10: a fresh
    process's first page parses its own 10 files, and so does the next page (files changed less
    than 2 s ago, as here, are never kept in the memo: parsed again with it on disk too)."""
    from bench.listing_first_page import first_page_bench

    parsed = await first_page_bench(files=30, limit=10, runs=1)

    assert parsed == {"no memo": [10, 10], "memo on disk": [10, 10]}
