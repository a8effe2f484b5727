"""Q-2c: past the open-file limit the service refuses connections with a 503, in one log line.

A process has a limit of open files (``RLIMIT_NOFILE``), and every connection takes one. Held
open by enough clients, the last descriptors went to connections: ``accept()`` failed with
EMFILE and asyncio logged a traceback for every attempt (tens of thousands of lines in seconds)
while requests could not open their files. The real service runs here with a low limit
(``prlimit``) and more connections are opened than it admits.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from memory_api.http.connections import ConnectionCap, cap_for

from tests.support.serve import ServedProcess, serve

FILE_LIMIT = 384
CONNECTIONS = 300
DEADLINE_S = 60.0
"""How long the service may take to show a condition before the test gives up (a bound, not a
timed assertion: each wait ends as soon as the thing is seen)."""
CAP_REACHED = "the most this process admits"
AGAIN = "accepting connections again"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        pytest.skip("prlimit is needed to start the service with a low open-file limit")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = serve(data_dir, env, command_prefix=(prlimit, f"--nofile={FILE_LIMIT}"))
    try:
        yield process
    finally:
        process.stop()


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen within {DEADLINE_S} s: {what}")
        time.sleep(0.05)


def _healthy(base: str) -> bool:
    with urllib.request.urlopen(base + "/healthz", timeout=30) as answer:  # noqa: S310 - loopback
        return bool(answer.status == 200)


def test_q2c_past_the_file_limit_connections_get_503_and_one_log_line_not_a_flood(
    served: ServedProcess,
) -> None:
    port = int(served.base_url.rsplit(":", 1)[1])
    held = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(CONNECTIONS)]
    try:
        # the last ones opened are past the cap (cap_for(384) admits 192): answered at once
        answer = held[-1].recv(4096)
        _wait_for(lambda: CAP_REACHED in served.log_text(), "the cap reached, logged")
    finally:
        for connection in held:
            connection.close()

    assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert b"application/problem+json" in answer
    assert b"open connections (192)" in answer
    _wait_for(lambda: _healthy(served.base_url) and AGAIN in served.log_text(), "recovery")
    log = served.log_text()
    assert log.count(CAP_REACHED) == 1, log[-3000:]
    assert log.count(AGAIN) == 1
    assert "Traceback" not in log
    assert "Too many open files" not in log  # the cap keeps accept() below the limit


def test_q2c_the_cap_leaves_room_for_files_and_an_accept_burst() -> None:
    assert cap_for(1024) == 768
    assert cap_for(FILE_LIMIT) == 192
    cap = ConnectionCap(limit=2)
    assert [cap.admit(), cap.admit(), cap.admit()] == [True, True, False]
    cap.release()
    assert cap.admit() is True
    assert (cap.open, cap.refused) == (2, 1)
