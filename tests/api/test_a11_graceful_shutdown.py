"""A-11: ``memory-api serve`` stops gracefully on SIGTERM (an orchestrator) and SIGINT (Ctrl+C).

The real service runs as a subprocess in its own process group, as in a terminal. A stop signal
closes the listening socket at once, lets the requests in flight finish, and ends the process
with status 0 and no error in its log. Every wait here is on the thing's own signal (an exit
status, the in-flight gauge, a refused connection), with a deadline that only bounds a hang.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import filelock
import pytest
from memory_api.store.locks import lock_name
from prometheus_client.parser import text_string_to_metric_families

from tests.api.conftest import AGENT, PROJECT
from tests.support.serve import ServedProcess, serve

pytestmark = pytest.mark.e2e

DEADLINE_S = 30.0
"""How long a wait may last before the test fails as hung (not a timing under test)."""


@pytest.fixture
async def served(data_dir: Path) -> AsyncIterator[ServedProcess]:
    """An open (token-less) service over ``data_dir``."""
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = await asyncio.to_thread(serve, data_dir, env)
    try:
        yield process
    finally:
        process.stop()


async def _until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Poll ``check`` until it holds; fail naming ``what`` after :data:`DEADLINE_S`."""
    deadline = time.monotonic() + DEADLINE_S
    while not await check():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.02)


async def _exit_status(served: ServedProcess) -> int:
    return await asyncio.to_thread(served.process.wait, DEADLINE_S)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a11_a_stop_signal_ends_the_service_with_status_0_and_no_error(
    served: ServedProcess, stop: signal.Signals
) -> None:
    os.killpg(served.process.pid, stop)  # the whole group, as Ctrl+C in a terminal does

    assert await _exit_status(served) == 0
    log = served.log_text()
    assert "stopped serving the data dir" in log
    assert "Traceback" not in log and "ERROR" not in log, log


async def test_a11_a_second_stop_signal_during_the_stop_ends_it_as_cleanly(
    served: ServedProcess,
) -> None:
    """``make run`` stopped with ``kill %1`` (or any SIGTERM to its process group): the service
    gets the signal, and make, signalled too, sends its child one more. The second arrived while
    aiohttp was stopping and ended the stop in "RuntimeError: Event loop stopped before Future
    completed" and a traceback. Any stop signal after the first is logged and left to the stop
    under way, which ends within its shutdown timeout."""
    os.kill(served.process.pid, signal.SIGTERM)
    os.kill(served.process.pid, signal.SIGTERM)

    assert await _exit_status(served) == 0
    log = served.log_text()
    assert "stopped serving the data dir" in log
    assert "Traceback" not in log and "ERROR" not in log, log


async def test_a11_two_stop_signals_handled_in_one_turn_end_it_as_cleanly(
    served: ServedProcess,
) -> None:
    """SIGTERM and SIGINT that reach the service together (it was stopped, then continued)
    are both queued before the first is handled: the second raised the stop again at the start
    of aiohttp's cleanup and the process ended with status 1, cutting a request in flight."""
    served.process.send_signal(signal.SIGSTOP)
    served.process.send_signal(signal.SIGTERM)
    served.process.send_signal(signal.SIGINT)
    served.process.send_signal(signal.SIGCONT)

    assert await _exit_status(served) == 0
    log = served.log_text()
    assert "stopped serving the data dir" in log
    assert "Traceback" not in log and "ERROR" not in log, log


async def _in_flight(http: aiohttp.ClientSession) -> float:
    """The service's ``memory_api_requests_in_flight`` gauge (this scrape counts itself)."""
    async with http.get("/metrics") as response:
        text = await response.text()
    family = next(
        f for f in text_string_to_metric_families(text) if f.name == "memory_api_requests_in_flight"
    )
    return float(family.samples[0].value)


async def test_a11_a_request_in_flight_at_the_stop_still_gets_its_answer(
    served: ServedProcess, data_dir: Path
) -> None:
    """Graceful means the request being served when SIGTERM comes is finished, then the process
    exits; the listening socket closes at once, so a new connection is refused meanwhile. The
    request is an agent PATCH waiting for the agent's lock, which the test holds till then."""
    host, port = served.base_url.removeprefix("http://").split(":")

    async def refused() -> bool:
        try:
            _, writer = await asyncio.open_connection(host, int(port))
        except (ConnectionRefusedError, ConnectionResetError):  # reset: queued as it closed
            return True
        writer.close()
        return False

    config = f"/api/projects/{PROJECT}/agents/{AGENT}/config"
    async with aiohttp.ClientSession(served.base_url) as http:
        async with http.post(
            f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "Coder"}
        ) as created:
            assert created.status == 201, await created.text()
        lock = filelock.FileLock(data_dir / "locks" / f"{lock_name('agent', AGENT)}.lock")
        with lock:
            patch = asyncio.ensure_future(http.patch(config, json={"name": "Renamed"}))

            async def patch_in_flight() -> bool:
                return await _in_flight(http) >= 2  # the PATCH, and this scrape

            await _until(patch_in_flight, "the PATCH to reach the service")
            served.process.send_signal(signal.SIGTERM)
            await _until(refused, "the listening socket to close")
            assert not patch.done()
        async with await patch as response:
            assert response.status == 200, await response.text()
            assert (await response.json())["name"] == "Renamed"

    assert await _exit_status(served) == 0
    assert "Traceback" not in served.log_text()
