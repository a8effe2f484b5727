"""``serve``'s stop, bounded (A-11): past its timeout the process exits, naming what it cut short.

aiohttp gives the requests in flight the shutdown timeout, then cancels them; but a cancelled
request's file work already in a worker thread runs on (a wait for a lock held elsewhere may
last 30 s, :data:`~memory_api.store.locks.DEFAULT_TIMEOUT`), the app's cleanup waits for the
locks' pool to empty, and the interpreter joins every pool thread before it exits. A SIGTERM
then waited up to half a minute, past an orchestrator's grace period (SIGKILL, with no word of
why). :class:`StopDeadline` is started at the first stop signal: when the process is still
there once the timeout has passed, it logs each piece of work still under way (the thread and
the service's functions it is in) and ends the process with status 0 (it stopped as asked),
without waiting for them.

Abandoning that work is safe: every file the service writes is written whole to a temporary
name and renamed into place (:mod:`memory_core.atomic`), so a write cut short leaves the old
file as it was, never a torn one; the file locks are ``flock``s the kernel releases with the
process; a Session start's record not yet made is made by the next one (V-1).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path
from types import FrameType

import memory_core

__all__ = ["StopDeadline", "work_under_way"]

logger = logging.getLogger("memory_api")

_OUR_CODE = tuple(f"{Path(file).parent}{os.sep}" for file in (__file__, memory_core.__file__ or ""))
"""The folders of the service's own packages: a thread's frames there are its work."""


def _our_frames(frame: FrameType | None) -> list[str]:
    """The functions of the service's own code on ``frame``'s stack, outermost first, each as
    ``module-relative-file:line function``."""
    found: list[str] = []
    while frame is not None:
        file = frame.f_code.co_filename
        for root in _OUR_CODE:
            if file.startswith(root):
                where = f"{Path(root).name}/{file.removeprefix(root)}"
                found.append(f"{frame.f_code.co_name} ({where}:{frame.f_lineno})")
                break
        frame = frame.f_back
    return found[::-1]


def work_under_way(*, besides: set[int]) -> list[str]:
    """One line per thread (but those of ``besides``, by ident) that is running the service's
    own code now: its name and the service's functions it is in, outermost first. A pool's idle
    thread (waiting for work in ``concurrent.futures``) runs none and is left out."""
    frames = sys._current_frames()  # the documented way to see the other threads
    lines = []
    for thread in threading.enumerate():
        if thread.ident is None or thread.ident in besides:
            continue
        ours = _our_frames(frames.get(thread.ident))
        if ours:
            lines.append(f"{thread.name}: {' > '.join(ours)}")
    return lines


class StopDeadline:
    """Ends the process (``os._exit``: no thread joined, no ``atexit`` hook run) ``timeout``
    seconds after :meth:`start` unless it has ended by then; one per stop."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._thread = threading.Thread(target=self._watch, name="memory-stop", daemon=True)

    def start(self) -> None:
        """Start counting (call it once, at the first stop signal)."""
        self._thread.start()

    def _watch(self) -> None:
        threading.Event().wait(self.timeout)
        main = threading.main_thread().ident
        besides = {threading.get_ident()} | ({main} if main is not None else set())
        cut = work_under_way(besides=besides)
        logger.warning(
            "stop: the shutdown timeout (%g s) has passed, %d piece(s) of work still under "
            "way; exiting without them (every file is whole: writes are atomic renames)",
            self.timeout,
            len(cut),
        )
        for line in cut:  # one record each: a log line per record, as every other
            logger.warning("stop: cut short: %s", line)
        for handler in logging.getLogger().handlers + logger.handlers:
            handler.flush()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
