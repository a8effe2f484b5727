"""A benchmark script (``python -m bench.…``) run end to end the way ``make bench`` runs it, for
the tests that check it reports every row (never a figure: speed is measured by ``make bench``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def run_bench(module: str, *flags: str, out: Path) -> tuple[str, dict[str, Any]]:
    """Run ``python -m MODULE FLAGS --out OUT`` from the repository root; its standard output
    and the JSON report it wrote to ``out``. Fails the test, with the end of its standard error,
    when it exits non-zero (600 s at the most)."""
    done = subprocess.run(
        [sys.executable, "-m", module, *flags, "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return done.stdout, report
