"""The first page load after ``memory-api serve`` starts (W-5, I-9): wall ms of its requests.

``python -m bench.first_load [--runs 3]``: per run, a fresh data dir seeded with the demo
(``memory-api demo seed --corpus tests/data/corpus``: no cache file of the service yet), a
service started over it (ready by ``/readyz``), then at once the requests a page load makes
first, one after another: the page (``/``), its module of Unicode classes
(``/static/js/unicode-classes.js``) and the demo agent's memory list
(``…/memory?limit=50``). Prints one line per run and request, wall ms.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.perf_server import start, venv_bin

__all__ = ["REQUESTS", "main"]

REQUESTS = (
    ("page", "/"),
    ("unicode classes", "/static/js/unicode-classes.js"),
    ("memory list", "/api/projects/demo/agents/demo/memory?limit=50"),
)
"""What a page load asks first: (label, path)."""

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"


def _get_ms(url: str) -> float:
    """Wall ms of one GET of ``url`` read whole; raises on a status other than 200."""
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:  # noqa: S310 - our own service
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: {answer.status}")
    return (time.perf_counter() - began) * 1000


def one_run(work: Path) -> dict[str, float]:
    """A fresh seeded data dir under ``work``, a service over it: each request's wall ms."""
    data_dir = work / "data"
    subprocess.run(  # noqa: S603 - our own console script
        [
            venv_bin("memory-api"),
            "demo",
            "seed",
            "--data-dir",
            str(data_dir),
            "--corpus",
            str(CORPUS),
        ],
        check=True,
        capture_output=True,
    )
    server = start(data_dir, work)
    try:
        return {label: _get_ms(server.base_url + path) for label, path in REQUESTS}
    finally:
        server.stop()


def main() -> None:
    """Run ``--runs`` fresh starts and print each request's wall ms."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for run in range(1, runs + 1):
        with tempfile.TemporaryDirectory(prefix="first-load-") as work:
            figures = one_run(Path(work))
        print(f"run {run}: " + ", ".join(f"{k} {v:.0f} ms" for k, v in figures.items()))


if __name__ == "__main__":
    main()
