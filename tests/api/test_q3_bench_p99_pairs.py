"""Q-3 (issue 24's p99 budget): the Session-start p99 over ``/healthz``'s is judged on the
median of several pairs of c=64 runs, each pair's ratio shown, the two kinds measured the same
number of times with the same count and their order alternated, so that neither is always the
one measured later on a shared machine. Behaviour of the script only: the figures are made up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bench.perf as perf
from bench.perf_data import BenchData
from bench.perf_load import Figures


def test_q3_the_p99_budget_is_the_median_of_alternated_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p99s = iter([10.0, 30.0, 40.0, 10.0, 10.0, 15.0])  # ratios 3.0, 4.0, 1.5 by pair
    measured: list[tuple[str, int, int, bool]] = []

    def case(
        _report: Any,
        _server: Any,
        name: str,
        _req: Any,
        count: int,
        conc: int,
        *_: Any,
        listed: bool = True,
    ) -> Figures:
        measured.append((name, count, conc, listed))
        return Figures(count, 1.0, 100.0, 1.0, next(p99s))

    monkeypatch.setattr(perf, "_case", case)
    report = perf.Report(machine={}, size={})
    data = BenchData(Path("d"), "a", Path("w"), "k", Path("u"), Path("b"))
    health, start = perf._p99_pairs(report, None, data, perf.Plan(), None)  # type: ignore[arg-type]

    assert [(name, listed) for name, _, _, listed in measured] == [
        ("/healthz c=64", True),  # the first pair: the table's rows
        ("session start c=64", True),
        ("session start c=64", False),  # the start first in the second pair
        ("/healthz c=64", False),
        ("/healthz c=64", False),
        ("session start c=64", False),
    ]
    assert {(count, conc) for _, count, conc, _ in measured} == {(perf.Plan().light, 64)}
    assert (health.p99_ms, start.p99_ms) == (10.0, 30.0)  # the first pair's cases
    pairs = [row for row in report.ratios if row["ratio"].startswith("pair ")]
    assert [round(row["value"], 2) for row in pairs] == [3.0, 4.0, 1.5]
    (budget,) = report.budgets
    assert budget["budget"] == "session start c=64 p99 / /healthz c=64 p99"
    assert (budget["value"], budget["met"]) == (3.0, False)
