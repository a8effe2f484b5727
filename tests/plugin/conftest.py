"""Fixtures for the plugin tests: a scripted service for failure cases, the real service for e2e.

The e2e tests share one real service per test worker (``shared_service``), each with an agent
of its own (``new_agent``, ``shared_memory_root``): starting ``memory-api serve`` per test was
most of their setup time. ``real_service`` starts a private one, for a test that stops it or
depends on the whole service's state. Each fixture's service is a ``memory-api serve`` of its
own, forked from the test worker's :class:`~tests.support.zygote.Zygote` (no test of these
judges the service's start-up; those start one with :func:`start_service` alone).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory import cli
from memory_core import layout

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.harness_run import InstalledHomes
from tests.plugin.real_service import RealService, seed_scope, start_service
from tests.plugin.scripted_service import ScriptedService, ServerFactory, serve_scripted
from tests.support.guard_cases import Layout, guarded_environment, guarded_layout
from tests.support.zygote import Zygote


@pytest.fixture(autouse=True)
def guard_time_unbounded() -> Iterator[None]:
    """The write guard's own time limit (``harness_memory.cli.GUARD_TIME_S``) lifted for the
    guard judged in this test process: it is wall time, which a loaded test machine spends
    freely, and these tests check what the guard decides (a cap's refusal counted, never timed).
    ``test_p3_guard_out_of_time`` sets the limit it checks; a hook run as a process keeps it.
    Set without ``monkeypatch``: an autouse use of it would undo a test's own patches (of
    ``os.scandir``) only after ``tmp_path``'s teardown had called them."""
    limit = cli.GUARD_TIME_S
    cli.GUARD_TIME_S = 3600.0
    yield
    cli.GUARD_TIME_S = limit


@pytest.fixture
async def service(aiohttp_server: ServerFactory, tmp_path: Path) -> ScriptedService:
    """A running scripted memory service on loopback; set ``.behaviour`` before calling it."""
    return await serve_scripted(aiohttp_server, tmp_path / "data")


@pytest.fixture
def real_service(tmp_path: Path) -> Iterator[RealService]:
    """The real ``memory-api serve`` in a separate process, stopped after the test."""
    running = start_service(tmp_path, zygote=Zygote.shared())
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def shared_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealService]:
    """One real ``memory-api serve`` per test worker, for tests that need a running service but
    not one of their own: each makes its agent with :func:`new_agent` (agents do not share
    memory, history or config), so no test sees another's files. A test that stops the service,
    fills its disk, reads its whole log or changes its settings keeps ``real_service``."""
    running = start_service(tmp_path_factory.mktemp("shared-service"), zygote=Zygote.shared())
    try:
        yield running
    finally:
        running.stop()


_AGENT_NUMBERS = itertools.count(1)


def _make_agent(service: RealService) -> str:
    """A new agent ``coder-<n>`` in project ``acme`` on ``service``, made through the API
    (A-1), not the CLI: one request instead of a Python process."""
    agent = f"coder-{next(_AGENT_NUMBERS)}"
    body = {"id": agent, "name": agent.title()}
    status, _, answer = service.request("POST", "/api/projects/acme/agents", body)
    assert status == 201, answer
    return agent


@pytest.fixture
def new_agent(shared_service: RealService) -> str:
    """The id of an agent made for this test alone on ``shared_service`` (``coder-<n>``, in
    project ``acme``), with nothing in its memory yet."""
    return _make_agent(shared_service)


@pytest.fixture(scope="module")
def module_agent(shared_service: RealService) -> str:
    """An agent on ``shared_service`` shared by one module's tests that only read its memory
    (each in a Workspace of its own): what one test's Session records is in no scope another
    test's Session is given, and no test asserts on the agent's records."""
    return _make_agent(shared_service)


@pytest.fixture(scope="module")
def module_memory_root(shared_service: RealService, module_agent: str) -> Path:
    """``module_agent``'s memory root, its user scope seeded from the corpus."""
    root = layout.memory_root(shared_service.data_dir, module_agent)
    seed_scope(root / "user", "user-scope")
    return root


@pytest.fixture(scope="session")
def installed_homes(tmp_path_factory: pytest.TempPathFactory) -> InstalledHomes:
    """Template HOMEs, one per set of install arguments in this test worker
    (:class:`~tests.plugin.harness_run.InstalledHomes`)."""
    return InstalledHomes(tmp_path_factory.mktemp("installed-homes"))


@pytest.fixture
def shared_memory_root(shared_service: RealService, new_agent: str) -> Path:
    """``new_agent``'s memory root on ``shared_service``, its user scope seeded from the corpus
    (``memory_root``'s for an agent of this test's own)."""
    root = layout.memory_root(shared_service.data_dir, new_agent)
    seed_scope(root / "user", "user-scope")
    return root


@pytest.fixture
def open_service(tmp_path: Path) -> Iterator[RealService]:
    """The real ``memory-api serve`` with no tokens configured (open, on loopback only)."""
    running = start_service(tmp_path, tokens=False, zygote=Zygote.shared())
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


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The write guard's data dir for the P-3 tests (:func:`~tests.support.guard_cases.
    guarded_layout`): agent ``coder``'s scopes, ``HOME`` the data dir."""
    return guarded_layout(tmp_path, monkeypatch)


@pytest.fixture(scope="module")
def module_guarded_layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    """One :class:`~tests.support.guard_cases.Layout` for a module's :func:`where_judged`."""
    return Layout(tmp_path_factory.mktemp("judged"))


@pytest.fixture
def where_judged(module_guarded_layout: Layout, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """:func:`where` for a test that only asks the hooks (in this process) and reads: one
    layout per module in this test's environment. A pre-tool hook writes nothing (not even
    its state dir), so each judgment reads the same files as on a layout of its own; a test
    that runs a command or changes a file takes :func:`where`."""
    return guarded_environment(module_guarded_layout, monkeypatch)
