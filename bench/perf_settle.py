"""The service at rest before each latency case: its first versions recorded (V-1).

A Session start is answered first and its scopes recorded after, in a task of the service's
own (:meth:`memory_api.store.history.service.HistoryStore.record_later`). A fresh data dir's
first record of the big scope writes its first version of 3,000 files in a worker thread
(seconds on 2 shared cores); a case started meanwhile measures that work too, and only in the
cases run after the first Session start. So :func:`first_session_start` makes the service's
first Session start before any case, and :func:`wait_recorded` waits, before each case, until
the service's history shows a version of every scope a Session start records (the user scope
and the big Workspace's): the service's own signal, read from ``GET …/scopes/{key}/changes``.
Later records of an unchanged scope are skipped or a ``stat`` scan (they are part of what a
Session start costs and stay in the cases).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

from memory_core.keys import USER_SCOPE

from bench.perf_data import PROJECT, BenchData
from bench.perf_load import Request, drive
from bench.perf_server import READY_WAIT_S, Server

__all__ = ["first_session_start", "session_start", "wait_recorded"]

POLL_S = 0.05
"""Between two looks at the history while a first version is being recorded."""


def session_start(data: BenchData) -> Request:
    """A Session start of ``data``'s agent in its big Workspace (the bench's hot call)."""
    memory = f"/api/projects/{PROJECT}/agents/{data.agent}/memory"
    return Request("POST", memory + "/session-start", {"workspace": str(data.big_workspace)})


def first_session_start(server: Server, data: BenchData) -> float:
    """The service's first Session start of ``data``'s agent, then :func:`wait_recorded`;
    returns the seconds the wait took (the first versions' record, as the bench saw it)."""
    drive(server.base_url, session_start(data), 1, 1, READY_WAIT_S)
    began = time.monotonic()
    wait_recorded(server, data)
    return time.monotonic() - began


def _versions(server: Server, data: BenchData, key: str) -> int | None:
    """How many versions (at most 1) the history of scope ``key`` shows; None when the
    service keeps no history (404: ``MEMORY_API_HISTORY=off``; 503: no git)."""
    url = f"{server.base_url}/api/projects/{PROJECT}/agents/{data.agent}/memory"
    url += f"/scopes/{key}/changes?limit=1"
    try:
        with urllib.request.urlopen(url, timeout=READY_WAIT_S) as answer:  # noqa: S310 - loopback
            return len(json.load(answer)["versions"])
    except urllib.error.HTTPError as error:
        if error.code in (404, 503):
            return None
        raise


def wait_recorded(server: Server, data: BenchData) -> None:
    """Return once the history shows a version of the user scope and of the big scope of
    ``data``'s agent (at once when it does, or when the service keeps no history).

    Raises RuntimeError when the service dies or shows none within :data:`READY_WAIT_S` (a
    guard against a hung record only) and ``urllib.error.HTTPError`` on any other error answer.
    """
    deadline = time.monotonic() + READY_WAIT_S
    waiting = [USER_SCOPE, data.big_key]
    while waiting:
        if server.process.poll() is not None:
            raise RuntimeError(f"memory-api serve exited: {server.log_path.read_text()}")
        waiting = [key for key in waiting if _versions(server, data, key) == 0]
        if not waiting:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"no first version of {waiting} within {READY_WAIT_S:.0f} s")
        time.sleep(POLL_S)
