"""How a service process takes SIGTERM and SIGINT: one thread waits for them, no handler runs.

The first stop signal ends ``web.run_app`` gracefully (in-flight requests finish); every later
one does nothing. Ctrl+C in a terminal sends SIGINT to the supervisor and to every worker at
once, the supervisor then passes SIGTERM on, and a held-down or repeated Ctrl+C sends more, so
signals keep arriving all through a worker's shutdown.

Taken by signal handlers, as asyncio's ``loop.add_signal_handler`` and aiohttp's
``handle_signals`` do, such late signals broke the shutdown in three ways, each seen in the
tests: aiohttp raised ``GracefulExit`` again inside the graceful shutdown ("worker failed");
closing the loop closes its wakeup pipe before it drops its handlers, and a signal landing in
between printed "Exception ignored when trying to write to the signal wakeup fd" (``EBADF``);
and once the loop had put Python's own SIGINT handler back, a late Ctrl+C raised
``KeyboardInterrupt`` in the exiting worker. A handler swapped for another can also meet a
signal already caught but not yet handled ("Signal 15 ignored due to race condition").

So the stop signals stay blocked in every thread of a service process and one thread takes
them with ``sigwait``: no handler runs at any time, nothing writes to the loop's pipe, and a
signal that comes after the loop has closed waits, unseen, until the process has ended.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading

from aiohttp import web

__all__ = ["STOP_SIGNALS", "GracefulStop", "block_stop_signals"]

logger = logging.getLogger(__name__)

STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})
"""The signals that stop a service process."""


def block_stop_signals() -> None:
    """Block :data:`STOP_SIGNALS` in the calling thread and so in every thread it starts later
    (a thread takes its creator's mask). Call it in the main thread before any other thread has
    started: a thread that has them unblocked would take a stop signal with its default action,
    which ends the process at once."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


class GracefulStop:
    """End ``web.run_app`` on ``loop`` gracefully at the first SIGTERM or SIGINT, once.

    A daemon thread takes the signals with ``signal.sigwait`` and hands the first to the loop
    (``call_soon_threadsafe``), which raises ``web.GracefulExit`` there; ``run_app`` then
    finishes in-flight requests within its ``shutdown_timeout``. Later signals do nothing, and
    once the loop is closed the thread ends. :func:`block_stop_signals` must have run first (the
    class does not check: ``sigwait`` only sees signals that are blocked in every thread).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._requested = False
        threading.Thread(target=self._wait, name="stop-signals", daemon=True).start()

    def _wait(self) -> None:
        while True:
            signum = signal.sigwait(STOP_SIGNALS)
            try:
                self._loop.call_soon_threadsafe(self._stop, signum)
            except RuntimeError:  # the loop is closed: the stop is done
                return

    def _stop(self, signum: int) -> None:
        if self._requested:
            return
        self._requested = True
        logger.info("%s: stopping once in-flight requests finish", signal.Signals(signum).name)
        raise web.GracefulExit
