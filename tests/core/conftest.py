"""Fixtures of the core tests: the sample memory folders under tests/data/corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


@pytest.fixture
def corpus() -> Path:
    """The root of the sample memory folders (read-only: tests copy before changing)."""
    return CORPUS
