"""Q-4, Q-2, Q-2a, A-10: three replicas on one data dir behind a balancer equal one process.

The local stand-in of the Kubernetes deployment (docs/deploy.md): three ``memory-api serve``
processes on one data dir, behind a round-robin TCP proxy on loopback. A seeded mixed workload
(Session starts, listings, reads, deletes, placeholder inserts) goes through the proxy while the
agent writes topic files and appends their index lines to ``MEMORY.md``; after a third of the
answers one replica is killed with SIGKILL (no graceful stop: its locks die with it). Then the
same workload and the same agent run against one process on a fresh data dir.

Both runs must end in the same state: the same files with the same bytes in every memory root,
and the same API answers about them; and in both, after a checkpoint, every scope's history is
whole, records no version twice and its newest version is the scope on disk (V-3). No line the
agent wrote is lost, no request fails (a request whose connection died with the replica is
retried on a live one), no 5xx is answered.
The figures are printed (``pytest -s``) and summarised in docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from memory_core import layout

from tests.deploy import replicated
from tests.deploy.replicated import AGENT, Agent, Outcome
from tests.support.round_robin import RoundRobinProxy
from tests.support.serve import ServedProcess, serve, venv_bin
from tests.support.zygote import Zygote

pytestmark = pytest.mark.e2e

REPLICAS = 3
KILL_AFTER = 1 / 3
"""The share of answered requests after which one replica is killed."""


@dataclass
class Result:
    """One run's end state and figures."""

    files: dict[str, bytes]
    temporary: list[str]
    view: dict[str, Any]
    agent_lines: list[str]
    outcome: Outcome
    history_problems: list[str]


def _env(tmp_path: Path) -> dict[str, str]:
    """The environment of every process: the token file from the "Secret" and nothing else."""
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    env["MEMORY_API_TOKENS_FILE"] = str(replicated.tokens_file(tmp_path))
    return env


@pytest.fixture
async def replicas(tmp_path: Path) -> AsyncIterator[list[ServedProcess]]:
    """Three open service processes on one data dir, started at once (each a ``memory-api
    serve`` of its own: a killed one's exit status is the signal's)."""
    async with _replicas_started(tmp_path, zygote=None) as running:
        yield running


@pytest.fixture
async def forked_replicas(tmp_path: Path) -> AsyncIterator[list[ServedProcess]]:
    """The three replicas of :func:`replicas`, forked from this test process's
    :class:`~tests.support.zygote.Zygote`: the same ``main(["serve"])`` in three processes of
    their own, without a second of imports each, for a test that kills none of them."""
    async with _replicas_started(tmp_path, zygote=Zygote.shared()) as running:
        yield running


@contextlib.asynccontextmanager
async def _replicas_started(
    tmp_path: Path, zygote: Zygote | None
) -> AsyncIterator[list[ServedProcess]]:
    """:data:`REPLICAS` open service processes on one data dir, started at once, stopped after
    the ``async with`` block; forked from ``zygote`` when one is given."""
    data_dir = tmp_path / "replicated" / "data"
    data_dir.mkdir(parents=True)
    env = _env(tmp_path)
    started = await asyncio.gather(
        *(asyncio.to_thread(serve, data_dir, env, zygote=zygote) for _ in range(REPLICAS)),
        return_exceptions=True,
    )
    running = [outcome for outcome in started if isinstance(outcome, ServedProcess)]
    try:
        for outcome in started:
            if isinstance(outcome, BaseException):
                raise outcome
        yield running
    finally:
        for served in running:
            served.stop()


@pytest.fixture
async def single(tmp_path: Path) -> AsyncIterator[ServedProcess]:
    """One service process on its own data dir."""
    data_dir = tmp_path / "single" / "data"
    data_dir.mkdir(parents=True)
    served = await asyncio.to_thread(serve, data_dir, _env(tmp_path))
    try:
        yield served
    finally:
        served.stop()


async def _run(
    base_url: str, data_dir: Path, workspaces: list[Path], kill: ServedProcess | None
) -> Result:
    await replicated.prepare(base_url, data_dir)
    requests = replicated.workload(workspaces)
    agent = Agent(layout.scope_dir(data_dir, AGENT, "user"))
    after = None
    if kill is not None:
        after = (int(len(requests) * KILL_AFTER), lambda: kill.process.send_signal(signal.SIGKILL))
    agent.start()
    outcome = await replicated.run(base_url, requests, after=after)
    await asyncio.to_thread(agent.join)
    files, temporary = replicated.memory_files(data_dir)
    view = await replicated.api_view(base_url)
    history = await replicated.history_problems(base_url, data_dir)
    return Result(files, temporary, view, agent.lines, outcome, history)


USER_INDEX = f"{AGENT}/agent_state/memory/user/{layout.INDEX_FILE}"


def _lost_agent_lines(result: Result) -> list[str]:
    lines = set(result.files[USER_INDEX].decode("utf-8").splitlines())
    return [line for line in result.agent_lines if line not in lines]


def _port(served: ServedProcess) -> int:
    return int(served.base_url.rsplit(":", 1)[1])


async def test_q4_three_replicas_one_killed_end_like_one_process(
    tmp_path: Path, replicas: list[ServedProcess], single: ServedProcess
) -> None:
    workspaces = replicated.workspace_dirs(tmp_path / "src")
    victim = replicas[1]
    async with RoundRobinProxy([_port(served) for served in replicas]) as proxy:
        spread = await _run(proxy.base_url, replicas[0].data_dir, workspaces, kill=victim)
    assert victim.process.wait(timeout=10) == -signal.SIGKILL
    alone = await _run(single.base_url, single.data_dir, workspaces, kill=None)

    print(
        f"\nQ-4 replicated stand-in: {spread.outcome.requests} requests through "
        f"{REPLICAS} replicas in {spread.outcome.elapsed_s:.2f} s "
        f"(one process: {alone.outcome.elapsed_s:.2f} s); connections per replica "
        f"{dict(proxy.connections)}, refused after the kill {sum(proxy.refused.values())}, "
        f"requests retried after a dropped connection {spread.outcome.retried}; "
        f"agent lines {len(spread.agent_lines)}, lost {len(_lost_agent_lines(spread))} "
        f"(one process: {len(_lost_agent_lines(alone))}); service temp files left "
        f"{len(spread.temporary)}; answers {dict(spread.outcome.statuses)}"
    )
    for result in (spread, alone):
        assert result.history_problems == []  # V-3: no version lost or recorded twice
        assert not [kind for kind, status in result.outcome.statuses if status >= 500]
        assert result.view["legacy template"].count("{{MEMORY}}") == 1
        index = result.files[USER_INDEX].decode("utf-8")
        assert not [name for name in replicated.victims() if f"]({name})" in index]
    # Every replica took work; once killed, one took none and no connection was left unrouted.
    assert all(proxy.connections[_port(served)] > 0 for served in replicas)
    assert proxy.unrouted == 0
    assert spread.files.keys() == alone.files.keys()
    differing = [path for path in spread.files if spread.files[path] != alone.files[path]]
    assert [path for path in differing if path != USER_INDEX] == []
    assert spread.view["files"] == alone.view["files"]

    lost = _lost_agent_lines(spread) + _lost_agent_lines(alone)
    assert lost == [], "a line the agent wrote is lost"
    assert differing == []
    assert spread.view == alone.view  # the index, and lint counts that follow from it


async def _statuses(replicas: list[ServedProcess], headers: dict[str, str]) -> list[int]:
    async with aiohttp.ClientSession(headers=headers) as session:
        statuses = []
        for served in replicas:
            async with session.get(f"{served.base_url}/api/projects") as response:
                statuses.append(response.status)
        return statuses


def _token_cli(served: ServedProcess, *args: str) -> str:
    done = subprocess.run(
        [venv_bin("memory-api"), "token", *args],
        env=served.env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


async def test_q4_a10_tokens_on_the_volume_count_at_once_on_every_replica(
    forked_replicas: list[ServedProcess],
) -> None:
    """The Secret's token file reaches every replica; a token made or revoked on the shared
    data dir (by any pod) counts on every replica at the next request, with no restart."""
    assert await _statuses(forked_replicas, {}) == [401] * REPLICAS
    assert await _statuses(forked_replicas, replicated.AUTH) == [200] * REPLICAS
    secret = await asyncio.to_thread(_token_cli, forked_replicas[2], "create", "--name", "late")
    late = {"Authorization": f"Bearer {secret}"}

    assert await _statuses(forked_replicas, late) == [200] * REPLICAS

    await asyncio.to_thread(_token_cli, forked_replicas[0], "revoke", "--name", "late")
    assert await _statuses(forked_replicas, late) == [401] * REPLICAS
