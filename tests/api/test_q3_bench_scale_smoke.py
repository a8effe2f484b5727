"""Issue 30: ``python -m bench.scale`` — the scale case runs end to end (at a tiny size) and
reports every search row and every page row (bench/scale_pages.py), and a second run reuses the
data set and search index the first left. Correctness of the script only: no figure is asserted
on (speed is measured by ``make bench``, never in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.bench_script import REPO, run_bench

pytestmark = pytest.mark.e2e


SEARCH_ROWS = {
    "first search ever (builds the index)",
    "first search after a restart (median of 3)",
    "search again p50",
    "search again p90",
    "service CPU per search (mean)",
    "service peak RSS (search)",
    "search after one file edited in place",
    "index file size",
}
PAGE_ROWS = {
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
}
"""The rows of the table (bench/scale.py, bench/scale_pages.py), names as printed."""


def test_q3_bench_scale_tiny_run_reports_every_row_then_reuses_its_data_and_index(
    tmp_path: Path,
) -> None:
    """A tiny run with ``--data`` naming a folder not there yet builds the data set in it and
    reports every row; a second run with ``--data`` on that folder and ``--keep-index`` reuses
    the data set and the search index the first built (its first-ever rows left out: nothing
    was built). One round of the warm queries each: which rows are reported, not how many
    queries make them, is what is checked. The first run takes every row from one service
    start (``--one-start``, marked in its report); the second starts the service for each of
    its rows as ``make bench-scale`` does, so a restarted service finds the kept index."""
    data = ("--data", str(tmp_path / "set"), "--keep-index")

    # the first run: builds the data set (kept in --data) and the index, reports every row
    said, report = run_bench(
        "bench.scale", "--tiny", "--rounds", "1", *data, "--one-start", out=tmp_path / "1.json"
    )
    rows = {what.strip(): value for what, value, _ in report["rows"]}
    assert set(rows) >= SEARCH_ROWS
    assert set(rows) >= PAGE_ROWS
    assert all(value >= 0 for value in rows.values())
    assert report["size"]["scopes"] == 20
    assert report["data_built_s"] is not None and "(data built in" in said
    assert "list the 20-file scope: again, p50" in said  # the budget lines
    assert report["one_start"] is True and "(--one-start)" in said

    # the second run: the same data set and its search index reused, a start for each row
    flags = ("--tiny", "--rounds", "1", *data, "--only", "search")
    said, report = run_bench("bench.scale", *flags, out=tmp_path / "2.json")
    again = {what.strip() for what, _, _ in report["rows"]}
    assert report["data_built_s"] is None and "(data reused)" in said
    assert report["one_start"] is False and "(--one-start)" not in said
    assert "first search ever (builds the index)" not in again
    assert "search again p50" in again


def test_q3_bench_scale_never_reuses_a_data_set_whose_build_was_cut_short(tmp_path: Path) -> None:
    """A ``--data`` folder without the mark a whole build leaves (``.built``: a run stopped
    while building) is refused, saying so, before anything is measured on it."""
    (tmp_path / "set" / "data").mkdir(parents=True)  # what a build cut short leaves

    done = subprocess.run(
        [sys.executable, "-m", "bench.scale", "--tiny", "--data", str(tmp_path / "set")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 2
    assert "holds no whole data set" in done.stderr
    assert not (tmp_path / "set" / ".built").exists()
