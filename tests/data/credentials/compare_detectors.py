"""Compare our detector with detect-secrets on the labelled set (T-6); prints P, R and µs/line.

Not part of the suite (detect-secrets is no dependency of the repo): run
``.venv/bin/pip install detect-secrets && .venv/bin/python tests/data/credentials/compare_detectors.py``.
detect-secrets is tried both ways it offers: ``scan_line`` (every plugin on one line, no
filters) and ``SecretsCollection.scan_file`` (default plugins and filters, on a Markdown file).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory_core.credentials import find_secrets

HERE = Path(__file__).parent


def rows() -> list[tuple[bool, str]]:
    """Every labelled row of the ``*.tsv`` files beside this script (``\\n`` is a line end)."""
    found = []
    for path in sorted(HERE.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            label, _, text = line.partition("\t")
            found.append((label.startswith("secret:"), text.replace("\\n", "\n")))
    return found


def report(name: str, truth: list[bool], found: list[bool], seconds: float) -> None:
    tp = sum(f and t for f, t in zip(found, truth, strict=True))
    fp = sum(f and not t for f, t in zip(found, truth, strict=True))
    fn = sum(t and not f for f, t in zip(found, truth, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    print(
        f"{name:42s} precision {precision:.3f} recall {tp / (tp + fn):.3f} "
        f"(tp={tp} fp={fp} fn={fn}) {seconds / len(truth) * 1e6:7.1f} µs/line"
    )


def timed(detect: Callable[[str], bool], texts: list[str]) -> tuple[list[bool], float]:
    started = time.perf_counter()
    found = [detect(text) for text in texts]
    return found, time.perf_counter() - started


def main() -> None:
    data = rows()
    truth = [label for label, _ in data]
    texts = [text for _, text in data]
    report("memory_core.credentials", truth, *timed(lambda t: bool(find_secrets(t)), texts))

    from detect_secrets import SecretsCollection
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    with default_settings():
        found, seconds = timed(lambda t: any(True for _ in scan_line(t)), texts)
        report("detect-secrets scan_line", truth, found, seconds)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "notes.md"
            path.write_text("\n".join(texts) + "\n", encoding="utf-8")
            collection = SecretsCollection()
            started = time.perf_counter()
            collection.scan_file(str(path))
            seconds = time.perf_counter() - started
            lines = {secret.line_number for secret in collection[str(path)]}
        found = [number in lines for number in range(1, len(texts) + 1)]
        report("detect-secrets scan_file (default filters)", truth, found, seconds)


if __name__ == "__main__":
    main()
