"""``memory-api serve --workers N``: N service processes answering on one port (Q-3, Q-4).

The parent binds the port once, then forks N workers that each run their own event loop and
application. On Linux each worker listens on its own socket bound to that port with
``SO_REUSEPORT``, so the kernel spreads new connections evenly over the workers (by a hash of
the peer's address and port); one shared listening socket would wake every worker for each
connection, and the first awake accepts all that are queued — 64 connections opened at once
would mostly land on one worker. The parent's own socket claims the port without
``SO_REUSEPORT`` first, so a port held by any other process is still refused at start
(``EADDRINUSE``) rather than silently shared. Elsewhere the workers share the parent's socket.
(The price of one socket per worker: connections still queued, not yet accepted, in a worker
that is killed are reset; the kernel sends new ones to the others at once.)
They share no memory after the fork — every answer comes from the files on disk, the caches
are keyed by file versions (:mod:`memory_api.store.stat_cache`) and writes take cross-process
locks — so any worker answers any request the same way (Q-4).

The parent only supervises: SIGTERM or SIGINT is passed on to every worker, each finishes its
in-flight requests (the application's graceful shutdown) and the parent exits once all have.
A worker that dies unexpectedly is replaced; one that dies within :data:`CRASH_WINDOW_S` of
its start is not (a broken configuration would only crash again) and the whole service stops
with exit status 1. A worker whose supervisor was killed outright stops by itself.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

from memory_api.stop_signals import STOP_SIGNALS

__all__ = ["CRASH_WINDOW_S", "REUSE_PORT", "WorkerPort", "bind_listener", "supervise"]

logger = logging.getLogger(__name__)

CRASH_WINDOW_S = 1.0
"""A worker that exits sooner than this after its start is a crash, not a one-off failure."""
BACKLOG = 1024
PARENT_POLL_S = 1.0
"""How often a worker checks that its supervisor still runs."""


def bind_listener(host: str, port: int) -> socket.socket:
    """Bind and listen on ``host``:``port`` (a name, an IPv4 or IPv6 address); the workers
    inherit it. Raises ``OSError`` when the address cannot be bound (in use, no permission)."""
    return _bind(host, port, reuse_port=False, listen=True)


def _bind(host: str, port: int, *, reuse_port: bool, listen: bool) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind(address)
        if listen:
            listener.listen(BACKLOG)
        listener.setblocking(False)
    except OSError:
        listener.close()
        raise
    return listener


REUSE_PORT = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
"""Whether each worker gets its own listening socket: Linux balances ``SO_REUSEPORT``
listeners; the BSDs and macOS accept the option but do not spread connections over them."""


class WorkerPort:
    """The port the workers serve: claimed by the parent, one listener per worker (module doc).

    ``WorkerPort(host, port)`` raises ``OSError`` when the address cannot be bound (in use by
    any other process, no permission). :meth:`listener` is called in each worker.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        # Claimed without SO_REUSEPORT, so that a port held by anyone else is refused here;
        # the option is set only afterwards, letting our workers' listeners join (Linux checks
        # the flag of each socket already bound when another binds).
        self._claim = _bind(host, port, reuse_port=False, listen=not REUSE_PORT)
        self.port: int = self._claim.getsockname()[1]
        if REUSE_PORT:
            self._claim.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)

    def listener(self) -> socket.socket:
        """In a worker: its own listening socket on the claimed port (``SO_REUSEPORT``), or
        the parent's shared one where the kernel would not balance them."""
        if not REUSE_PORT:
            return self._claim
        own = _bind(self.host, self.port, reuse_port=True, listen=True)
        # The claim never listens, so no connection waits on it; the worker needs only its own.
        self._claim.close()
        return own

    def close(self) -> None:
        """Release the claim (the parent, once every worker has stopped)."""
        self._claim.close()


def _watch_parent(parent: int) -> None:
    """In a worker: stop gracefully (SIGTERM to itself) once the supervisor is gone, so no
    worker outlives a supervisor that was killed outright."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)


def _spawn(run_worker: Callable[[], int]) -> int:
    # The stop signals are blocked across the fork and stay blocked in the worker, in all its
    # threads: it takes them with sigwait (memory_api.stop_signals), so one arriving before the
    # worker runs its app waits, and then ends the fresh worker like any other.
    supervisor = os.getpid()  # taken before the fork: it may be gone before the worker runs
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        raise
    if pid != 0:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    else:  # the worker: none of the supervisor's handlers, its own loop, never returns
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        threading.Thread(target=_watch_parent, args=(supervisor,), daemon=True).start()
        status = 1
        try:
            status = run_worker()
        except BaseException:
            logger.exception("worker %d failed", os.getpid())
        finally:
            logging.shutdown()
            os._exit(status)
    logger.info("worker %d started", pid)
    return pid


def _stop_all(workers: dict[int, float], signum: int) -> None:
    for pid in workers:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            continue


def _add(workers: dict[int, float], pid: int, stopping: list[int]) -> None:
    workers[pid] = time.monotonic()
    if stopping:  # a stop came in while it was forked, after the others were told
        os.kill(pid, signal.SIGTERM)


def supervise(count: int, run_worker: Callable[[], int]) -> int:
    """Fork ``count`` workers running ``run_worker`` (which serves and returns an exit status)
    and wait for them; returns 0 after a requested stop, 1 when a worker crashed at once.

    ``run_worker`` starts with SIGTERM and SIGINT blocked (see
    :func:`memory_api.stop_signals.block_stop_signals`). This process, which must have no other
    thread, takes them with a handler while it supervises and returns with them blocked: it is
    ending, and a late Ctrl+C must not raise ``KeyboardInterrupt`` on the way out.
    """
    stopping: list[int] = []

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stopping.append(signum)
        _stop_all(workers, signal.SIGTERM)

    workers: dict[int, float] = {}
    previous = {sig: signal.signal(sig, on_signal) for sig in STOP_SIGNALS}
    try:
        for _ in range(count):
            _add(workers, _spawn(run_worker), stopping)
        status = 0
        while workers:
            try:
                pid, wait_status = os.wait()
            except ChildProcessError:
                break
            started = workers.pop(pid, None)
            if started is None or stopping:
                continue
            code = os.waitstatus_to_exitcode(wait_status)
            logger.error("worker %d exited unexpectedly (status %d)", pid, code)
            if time.monotonic() - started < CRASH_WINDOW_S:
                logger.error("worker %d crashed right after its start; stopping the service", pid)
                stopping.append(signal.SIGTERM)
                _stop_all(workers, signal.SIGTERM)
                status = 1
                continue
            _add(workers, _spawn(run_worker), stopping)
        return status
    finally:
        # Blocked first: a signal caught but not yet handled is handled (by on_signal) when the
        # mask call returns, and none can be caught while the handlers are swapped back.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
