"""Fixtures for the plugin tests: a scripted service for failure cases, the real service for e2e."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.real_service import RealService, seed_scope, start_service
from tests.plugin.scripted_service import ScriptedService, ServerFactory, serve_scripted


@pytest.fixture
async def service(aiohttp_server: ServerFactory, tmp_path: Path) -> ScriptedService:
    """A running scripted memory service on loopback; set ``.behaviour`` before calling it."""
    return await serve_scripted(aiohttp_server, tmp_path / "data")


@pytest.fixture
def real_service(tmp_path: Path) -> Iterator[RealService]:
    """The real ``memory-api serve`` in a separate process, stopped after the test."""
    running = start_service(tmp_path)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def open_service(tmp_path: Path) -> Iterator[RealService]:
    """The real ``memory-api serve`` with no tokens configured (open, on loopback only)."""
    running = start_service(tmp_path, tokens=False)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def memory_root(real_service: RealService) -> Path:
    """Agent ``coder`` created with the service's CLI, its user scope seeded from the corpus."""
    root = real_service.create_agent("coder")
    seed_scope(root / "user", "user-scope")
    return root


@pytest.fixture
def claude() -> Path:
    """The pinned Claude Code CLI, installed into ``.cache/claude-code`` on first use."""
    return claude_code_binary()
