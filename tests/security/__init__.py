"""Tests: security."""
