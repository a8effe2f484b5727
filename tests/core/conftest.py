"""Fixtures of the core tests: the sample memory folders under tests/data/corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


@pytest.fixture
def corpus() -> Path:
    """The root of the sample memory folders (read-only: tests copy before changing)."""
    return CORPUS


CASES = Path(__file__).resolve().parent.parent / "data" / "cases"


@pytest.fixture
def cases() -> Path:
    """The failing-case folders under tests/data/cases (each with a README of its right value)."""
    return CASES
