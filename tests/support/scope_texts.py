"""What a scope folder holds, read for a test's assertions (R-2: nothing a sync kept is lost)."""

from __future__ import annotations

from pathlib import Path


def lines_of(scope: Path) -> set[str]:
    """Every non-blank line of every file in ``scope`` (UTF-8), wherever it is kept."""
    return {
        line
        for path in scope.iterdir()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }


def texts(scope: Path) -> dict[str, str]:
    """Each file of ``scope`` by name → its text (UTF-8), in name order."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(scope.iterdir())}
