"""Tests: plugin."""
