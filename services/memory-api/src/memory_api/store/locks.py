"""Cross-process locks over one data dir (Q-4), taken from the event loop or from threads.

Several service processes may share one data dir, so every read-modify-write (an index
pruning, an agent config update, a marker creation) holds a *file* lock: ``filelock``'s
``flock``-based lock on ``<app_data_dir>/locks/<name>.lock``. The lock file is only a handle;
what it protects is named by ``name``, built from checked ids (see :func:`lock_name`).

How the two layers fit:

- **Between processes** the file lock is the whole story: the kernel grants it to one holder.
- **Inside one process** coroutines first queue on an ``asyncio.Lock`` per name, so they are
  served in arrival order (fair) and only one of them at a time polls the file lock instead of
  ten spinning in parallel. This in-process lock is an optimisation, never the guarantee: it
  holds no state another process would need, and each file lock attempt still conflicts with
  every other process's.

Every read-modify-write goes through :meth:`Locks.run_held`: queued on the in-process lock in
the event loop, then the file lock, the work and the release in **one** thread of the locks'
own small pool. A lock held across trips through the shared default executor (take the file
lock, read, write, release, each a hop) waited behind every request queued there while holding
it: at concurrency 100 a delete held the scope's lock for about a second and the deletes'
answer times grew through the soak past the client's 120 s timeout; config writes (A-2, A-4)
took the same path until they too moved here (``bench/replicas.py`` compares them with deletes).
Blocking code already running in a worker thread uses :meth:`Locks.hold_sync` (threads of one
process conflict on it like processes do, because each acquisition opens its own descriptor).

A lock that cannot be had within ``timeout`` seconds raises :class:`LockTimeoutError` (503); a
lock file the operating system refuses to open (a symlink or folder planted under that name, a
read-only ``locks/``) raises it too, at once, with the reason — never a bare ``OSError`` (500),
and the lock file is never followed out of ``locks/`` nor replaced.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import filelock

from memory_api.errors import ServiceError, write_fix

__all__ = ["DEFAULT_TIMEOUT", "LockTimeoutError", "Locks", "lock_name"]

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 30.0
"""Seconds to wait for a lock before giving up with :class:`LockTimeoutError`."""

HELD_WORKERS = 4
"""Threads of the pool :meth:`Locks.run_held` runs locked work in (one per lock at a time)."""

_NAME_RE = re.compile(r"[a-z0-9_][a-z0-9._-]{0,199}")

T = TypeVar("T")


class LockTimeoutError(ServiceError):
    """A lock stayed held by someone else for longer than the timeout (503, retry later)."""

    status = 503


def _unusable(name: str, error: OSError) -> LockTimeoutError:
    """The 503 for a lock file that cannot be opened; logged with the path, answered without,
    with the remedy of its cause (:func:`~memory_api.errors.write_fix`: a read-only mount is
    mounted read-write, a full disk freed; only a permission is a matter of the folder)."""
    logger.error("lock file of %s cannot be used: %s", name, error)
    reason = error.strerror or type(error).__name__
    fix = write_fix(
        error, "read and write access to the data dir's locks folder (its owner and mode)"
    )
    return LockTimeoutError(
        f"the data dir's lock for {name} cannot be taken ({reason}): {fix}, then try again"
    )


def lock_name(*parts: str) -> str:
    """Join checked ids into a lock name, e.g. ``index.coder.user`` for an index of agent coder.

    Each part must already be a K-7-checked id or a fixed word; a part holding anything outside
    ``[a-z0-9._-]`` (or an empty one) raises ``ValueError``, so a lock name is never a path.

    >>> lock_name("agent", "coder-1")
    'agent.coder-1'
    """
    name = ".".join(parts)
    if not parts or any(not part for part in parts) or _NAME_RE.fullmatch(name) is None:
        raise ValueError(f"not a lock name: {name!r}")
    return name


class Locks:
    """Named cross-process locks whose files live in one directory (``<app_data_dir>/locks``).

    One instance per application; it is safe to share between requests. ``timeout`` is in
    seconds.
    """

    def __init__(self, directory: Path, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.directory = directory
        self.timeout = timeout
        self._local: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._held_pool: ThreadPoolExecutor | None = None

    def path_for(self, name: str) -> Path:
        """Return the lock file of ``name`` (validated as by :func:`lock_name`)."""
        if _NAME_RE.fullmatch(name) is None:
            raise ValueError(f"not a lock name: {name!r}")
        return self.directory / f"{name}.lock"

    def _local_lock(self, name: str) -> asyncio.Lock:
        lock = self._local.get(name)
        if lock is None:
            lock = asyncio.Lock()
            self._local[name] = lock
        return lock

    async def run_held(self, name: str, work: Callable[..., T], *args: object) -> T:
        """Run the blocking ``work(*args)`` holding the lock ``name``; return its result.

        Waiters of this process queue on the in-process lock in the event loop (no thread
        waits); then one thread of the locks' own pool (:data:`HELD_WORKERS` threads, never
        behind the requests queued in the default executor) takes the file lock, runs ``work``
        and releases it. A cancelled caller leaves the lock to that thread, which releases it
        when ``work`` ends. Raises :class:`LockTimeoutError` like :meth:`hold_sync` and
        whatever ``work`` raises.
        """
        held = functools.partial(self._run_held_sync, name, work, *args)
        async with self._local_lock(name):
            return await asyncio.get_running_loop().run_in_executor(self._pool(), held)

    def _run_held_sync(self, name: str, work: Callable[..., T], *args: object) -> T:
        with self.hold_sync(name):
            return work(*args)

    def close(self) -> None:
        """Stop the pool of :meth:`run_held` once the work in it is done; blocking. A later
        :meth:`run_held` starts a new pool."""
        pool, self._held_pool = self._held_pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _pool(self) -> ThreadPoolExecutor:
        if self._held_pool is None:
            self._held_pool = ThreadPoolExecutor(HELD_WORKERS, thread_name_prefix="memory-held")
        return self._held_pool

    @contextmanager
    def hold_sync(self, name: str) -> Iterator[None]:
        """Hold the lock ``name`` from blocking code (a worker thread); raises like
        :meth:`run_held`."""
        file_lock = filelock.FileLock(self.path_for(name), timeout=self.timeout)
        try:
            file_lock.acquire()
        except filelock.Timeout:
            raise LockTimeoutError(f"the data dir is busy ({name}); try again shortly") from None
        except OSError as error:
            raise _unusable(name, error) from None
        try:
            yield
        finally:
            file_lock.release()
