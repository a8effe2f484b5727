"""Q-3: ``make bench``'s wrk driver (:mod:`bench.perf_wrk`) against the real service.

The driver's correctness only, never a figure: the request it sends (method, JSON body) is the
one the case names, its figures are read from wrk's own report, and any error answer aborts
the case as the Python driver's does. Needs ``wrk`` (``apt-get install wrk``; ``.ci/run``
installs it): skipped without it, failed under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import os
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.perf_load import Request
from bench.perf_wrk import drive_wrk, lua_script, wrk_path
from tests.api.conftest import AGENT, PROJECT, memory_url
from tests.support.npm_cache import unavailable
from tests.support.serve import ServedProcess, serve

pytestmark = pytest.mark.e2e


@pytest.fixture
async def served(data_dir: Path) -> AsyncIterator[ServedProcess]:
    """An open (token-less) one-process service over ``data_dir``."""
    if wrk_path() is None:
        unavailable("the wrk driver", "wrk is not installed (apt-get install wrk)")
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = await asyncio.to_thread(serve, data_dir, env)
    try:
        yield process
    finally:
        process.stop()


def _create_agent(base_url: str) -> None:
    request = urllib.request.Request(  # noqa: S310 - the loopback service
        f"{base_url}/api/projects/{PROJECT}/agents",
        data=b'{"id": "%s", "name": "Coder"}' % AGENT.encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
        assert answer.status == 201


def test_q3_the_script_carries_method_and_body_whatever_the_body_holds() -> None:
    script = lua_script(Request("POST", "/x", {"workspace": "/a]]b]=]c"}))

    assert "wrk.method = [[POST]]" in script
    assert 'wrk.body = [==[{"workspace": "/a]]b]=]c"}]==]' in script
    assert 'wrk.headers["Content-Type"] = "application/json"' in script
    assert "done = function(summary, latency, requests)" in script


async def test_q3_wrk_drives_a_session_start_with_its_json_body(
    served: ServedProcess, tmp_path: Path
) -> None:
    await asyncio.to_thread(_create_agent, served.base_url)
    workspace = tmp_path / "repo"
    workspace.mkdir()
    session = Request("POST", memory_url() + "/session-start", {"workspace": str(workspace)})

    result = await asyncio.to_thread(drive_wrk, served.base_url, session, 1, 4)

    assert result.figures.requests > 0  # every one a 200: an empty body would be a 400
    assert 0 < result.figures.p50_ms <= result.figures.p99_ms
    assert result.figures.throughput > 0
    assert result.driver_cpu_us > 0


async def test_q3_wrk_aborts_a_case_on_an_error_answer(served: ServedProcess) -> None:
    missing = Request("GET", memory_url(agent="nobody"))

    with pytest.raises(RuntimeError, match="wrk saw errors"):
        await asyncio.to_thread(drive_wrk, served.base_url, missing, 1, 2)
