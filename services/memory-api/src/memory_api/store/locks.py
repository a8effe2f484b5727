"""Cross-process locks over one data dir (Q-4), usable from the event loop and from threads.

Several service processes may share one app data dir, so every read-modify-write (an index
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
- The file lock is taken with ``filelock.AsyncFileLock``, whose blocking attempts run in the
  default executor; a cancelled acquisition is rolled back by the library, so a cancelled request
  never leaves a lock held.

Blocking code already running in a worker thread uses :meth:`Locks.hold_sync` instead; it takes
only the file lock (threads of one process conflict on it like processes do, because each
acquisition opens its own descriptor).

A lock that cannot be had within ``timeout`` seconds raises :class:`LockTimeoutError` (503); a
lock file the operating system refuses to open (a symlink or folder planted under that name, a
read-only ``locks/``) raises it too, at once, with the reason — never a bare ``OSError`` (500),
and the lock file is never followed out of ``locks/`` nor replaced.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import filelock

from memory_api.errors import ServiceError

__all__ = ["DEFAULT_TIMEOUT", "LockTimeoutError", "Locks", "lock_name"]

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 30.0
"""Seconds to wait for a lock before giving up with :class:`LockTimeoutError`."""

_NAME_RE = re.compile(r"[a-z0-9_][a-z0-9._-]{0,199}")


class LockTimeoutError(ServiceError):
    """A lock stayed held by someone else for longer than the timeout (503, retry later)."""

    status = 503


def _unusable(name: str, error: OSError) -> LockTimeoutError:
    """The 503 for a lock file that cannot be opened; logged with the path, answered without."""
    logger.error("lock file of %s cannot be used: %s", name, error)
    reason = error.strerror or type(error).__name__
    return LockTimeoutError(
        f"the data dir's lock for {name} cannot be taken ({reason}); an operator must fix "
        "the locks folder"
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

    @asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        """Hold the lock ``name`` for the ``async with`` body, across processes.

        Raises :class:`LockTimeoutError` when it cannot be had within ``self.timeout`` seconds.
        """
        path = self.path_for(name)
        local = self._local_lock(name)  # a strong reference for as long as we wait or hold
        async with local:
            file_lock = filelock.AsyncFileLock(path, timeout=self.timeout)
            try:
                await file_lock.acquire()
            except filelock.Timeout:
                raise LockTimeoutError(
                    f"the data dir is busy ({name}); try again in a moment"
                ) from None
            except OSError as error:
                raise _unusable(name, error) from None
            try:
                yield
            finally:
                await file_lock.release()

    @contextmanager
    def hold_sync(self, name: str) -> Iterator[None]:
        """Hold the lock ``name`` from blocking code (a worker thread); see :meth:`hold`."""
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
