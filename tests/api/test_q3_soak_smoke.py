"""Q-2a, Q-3: ``make soak`` — the soak script runs end to end at a tiny size against a real
service process while its agent appends, and reports every figure the issue asks for (5xx,
transport errors by kind, lines lost, RSS halves and trace, answer times by kind). No speed or
memory figure is asserted on: those are read from a full run (docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]


def test_q2a_a_small_soak_loses_no_line_and_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.soak",
            "--requests",
            "300",
            "--concurrency",
            "10",
            "--agent-interval",
            "0.05",  # make soak's pace: lines appended grow with the run's wall time, and so
            # does every request's work on the index (a faster pace slows a loaded machine's run)
            "--rss-ratio-max",
            "100",  # a run this short says nothing about memory
            "--json",
            str(out),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    figures = json.loads(out.read_text(encoding="utf-8"))

    assert figures["requests"] == 300
    assert sum(figures["statuses"].values()) == 300
    assert figures["server_errors"] == figures["transport_errors"] == 0
    assert figures["transport_error_kinds"] == {}
    assert figures["agent_lines_written"] > 0
    assert figures["agent_lines_lost"] == figures["deleted_links_left"] == 0
    assert figures["index_lines_end"] > figures["index_lines_start"] - figures["deletes_ok"]
    assert set(figures["latency_ms"]) <= {"session", "overview", "listing", "read", "delete"}
    assert {"session", "read"} <= set(figures["latency_ms"])
    assert len(figures["rss_by_tenth_kib"]) == 10
