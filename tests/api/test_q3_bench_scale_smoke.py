"""Issue 30: ``python -m bench.scale`` — the scale case runs end to end (at a tiny size) and
reports every search row and every page row (bench/scale_pages.py). Correctness of the script
only: no figure is asserted on (speed is measured by ``make bench``, never in tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.scale_data import TINY, build_scale_data
from tests.support.bench_script import run_bench

pytestmark = pytest.mark.e2e


def test_q3_bench_scale_tiny_run_reports_every_row(tmp_path: Path) -> None:
    said, report = run_bench("bench.scale", "--tiny", "--rounds", "1", out=tmp_path / "s.json")
    rows = {what.strip(): value for what, value, _ in report["rows"]}
    assert {
        "first search ever (builds the index)",
        "first search after a restart (median of 3)",
        "search again p50",
        "search again p90",
        "service CPU per search (mean)",
        "service peak RSS (search)",
        "search after one file edited in place",
        "index file size",
    } <= set(rows)
    assert {
        "open the Memory tab (first page): first after a start",
        "open the Memory tab (first page): again, p50",
        "the next page (scrolled to), p50",
        "search groups by a name, again p50",
        "search groups by a path part, again p50",
        "agents list (memory counts), again p50",
        "read one memory in the 20-file scope: first after a start",
        "read one memory in the 20-file scope: again, p50",
        "the same in a scope of a few files, again p50",
        "list the 20-file scope: first after a start",
        "list the 20-file scope: again, p50",
        "Session start in the 20-file Workspace: first after a start",
        "Session start in the 20-file Workspace: again, p50",
        "delete one memory of the 20-file scope, p50 of 5",
        "service peak RSS after opening everything",
        "floor: scandir + stat + lstat of every scope, CPU",
    } <= set(rows)
    assert all(value >= 0 for value in rows.values())
    assert report["size"]["scopes"] == 20
    assert "list the 20-file scope: again, p50" in said  # the budget lines


def test_q3_bench_scale_reuses_a_data_set_and_its_search_index(tmp_path: Path) -> None:
    """``--data`` runs on a data set built before; ``--keep-index`` keeps the search index an
    earlier run built there (its first-ever rows left out: nothing was built). One round of
    the warm queries each: which rows are reported, not how many queries make them, is what
    is checked."""
    build_scale_data(tmp_path / "set", TINY)
    data = ("--data", str(tmp_path / "set"), "--keep-index")
    flags = ("--tiny", "--rounds", "1", *data, "--only", "search")
    rows = [
        {what.strip() for what, _, _ in run_bench("bench.scale", *flags, out=out)[1]["rows"]}
        for out in (tmp_path / "first.json", tmp_path / "second.json")
    ]
    assert "first search ever (builds the index)" in rows[0]
    assert "first search ever (builds the index)" not in rows[1]
    assert "search again p50" in rows[1]
