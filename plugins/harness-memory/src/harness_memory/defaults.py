"""Defaults of the plugin that several modules share, kept free of imports (H-5)."""

from __future__ import annotations

__all__ = ["DEFAULT_TIMEOUT_S"]

DEFAULT_TIMEOUT_S = 2.0
"""Whole-request budget in seconds: a Session start must not wait long for memory (P-2)."""
