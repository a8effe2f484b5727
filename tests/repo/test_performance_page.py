"""Issue 24: ``docs/performance.md`` is the living page of budgets, how to run the bench and
the current table, under 200 lines (the history of earlier passes lives in the commits)."""

from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "performance.md"


def test_the_performance_page_stays_under_200_lines() -> None:
    lines = PAGE.read_text(encoding="utf-8").splitlines()

    assert len(lines) < 200, f"docs/performance.md has {len(lines)} lines: move history out"


def test_the_performance_page_names_every_budget_it_measures() -> None:
    text = PAGE.read_text(encoding="utf-8")

    for budget in ("≤ 100 ms", "≤ 2×", "≤ 2.5×", "## The current table", "## Running it"):
        assert budget in text, budget
