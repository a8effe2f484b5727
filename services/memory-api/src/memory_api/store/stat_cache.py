"""One small cache for everything derived from a file: valid only while the file is unchanged.

The service keeps nothing between requests that could disagree with the disk (Q-4): each value
here (a parsed topic file, an index with its masked lines, a token file) is stored with the
identity of the content it came from, :func:`file_key` of the ``stat`` taken when the bytes were
read, and is served again only when a fresh ``stat`` of the file gives the same key. So a file
the agent's own tools changed, replaced, touched or removed is read again on the next request,
whichever process (service worker, plugin, editor) changed it.

The key is ``(st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns)``: an atomic replace gives a
new inode, an append a new size, any write a new mtime and ctime, and even a write that sets the
mtime back (``touch -d``, ``cp -p``) moves the ctime, which no user process can set.

What remains is a same-size rewrite in place within one tick of the filesystem's clock. So a
value read from a file changed less than :data:`RACY_WINDOW_NS` ago (2 s, the one racy window:
:mod:`memory_core.racy_window` says why) is not stored at all: a file still being written is
read again on every request until it has been quiet for that long.

Entries are bounded by count and by an optional weight (e.g. characters held), evicting the
least recently used; every method is thread-safe (requests run file work in worker threads).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

from memory_core.racy_window import RACY_WINDOW_NS

__all__ = [
    "RACY_WINDOW_NS",
    "FileKey",
    "NeedsBlockingIO",
    "StatCache",
    "derived_key",
    "file_key",
    "is_racy",
]

FileKey = tuple[int, int, int, int, int]
"""``(st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns)`` of one version of a file."""


N = TypeVar("N", bound=Hashable)
V = TypeVar("V")


class NeedsBlockingIO(Exception):
    """Raised by a lookup asked to take only ``stat`` calls (``cached_only``, on the event loop)
    when its answer needs a file read, created or written: nothing was changed, so the caller
    runs the same work again in a worker thread."""


def file_key(info: os.stat_result) -> FileKey:
    """The identity of a file's content as the filesystem reports it (see the module doc)."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def derived_key(facts: Hashable, keys: Sequence[FileKey]) -> FileKey:
    """The key of a value derived from several files (``keys``, one per file version read) and
    ``facts`` besides (names, texts it also depends on): equal exactly while every key and the
    facts are (up to a 64-bit hash of them all), and racy while any of the files is (its last
    part is their newest ctime). E.g. a scope's lint, from its index and every topic file."""
    newest = max((key[4] for key in keys), default=0)
    return (0, 0, len(keys), hash((facts, tuple(keys))), newest)


def is_racy(key: FileKey) -> bool:
    """Whether the file version ``key`` changed less than :data:`RACY_WINDOW_NS` ago (so it may
    still change within its current timestamp): nothing read from it may be kept."""
    return time.time_ns() - key[4] < RACY_WINDOW_NS


class StatCache(Generic[N, V]):
    """Values by name (a path, or a path and a label), each valid for one :data:`FileKey`.

    ``max_entries`` bounds the number of names; ``weigh`` (optional) gives each value a weight
    and ``max_weight`` bounds their sum. A value heavier than ``max_weight`` is not kept.
    """

    def __init__(
        self,
        *,
        max_entries: int,
        max_weight: int | None = None,
        weigh: Callable[[V], int] | None = None,
    ) -> None:
        self.max_entries = max_entries
        self.max_weight = max_weight
        self._weigh = weigh
        self._entries: OrderedDict[N, tuple[FileKey, V, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def weight(self) -> int:
        """The summed weight of the values held (0 without ``weigh``)."""
        return self._weight

    def get(self, name: N, key: FileKey) -> V | None:
        """The value stored for ``name`` if it was stored for ``key``, else None (a miss)."""
        with self._lock:
            found = self._entries.get(name)
            if found is None or found[0] != key:
                return None
            self._entries.move_to_end(name)
            return found[1]

    def peek(self, name: N) -> V | None:
        """The value stored for ``name`` whatever its key (to amend a value just read), or None."""
        with self._lock:
            found = self._entries.get(name)
            return None if found is None else found[1]

    def put(self, name: N, key: FileKey, value: V) -> None:
        """Store ``value`` for ``name`` at ``key``, replacing what was there; evict the oldest.

        A racily fresh ``key`` (ctime within :data:`RACY_WINDOW_NS` of now) only drops the old
        value: see the module doc.
        """
        weight = self._weigh(value) if self._weigh is not None else 0
        racy = is_racy(key)
        with self._lock:
            self._put(name, key, value, weight, racy)

    def _put(self, name: N, key: FileKey, value: V, weight: int, racy: bool) -> None:
        """:meth:`put` with the lock held."""
        self._drop(name)
        if racy:
            return
        if self.max_weight is not None and weight > self.max_weight:
            return
        self._entries[name] = (key, value, weight)
        self._weight += weight
        while len(self._entries) > self.max_entries or (
            self.max_weight is not None and self._weight > self.max_weight
        ):
            _, (_, _, evicted) = self._entries.popitem(last=False)
            self._weight -= evicted

    def kept_or_put(self, name: N, key: FileKey, value: V) -> V:
        """The value kept for ``name`` at ``key`` when there is one (another thread read the
        same version meanwhile), else :meth:`put` ``value`` and return it: readers of one
        version end with one value, so what is memoised by it stays one object."""
        weight = self._weigh(value) if self._weigh is not None else 0
        racy = is_racy(key)
        with self._lock:  # one look and one store: no other reader's value lands in between
            found = self._entries.get(name)
            if found is not None and found[0] == key:
                self._entries.move_to_end(name)
                return found[1]
            self._put(name, key, value, weight, racy)
        return value

    def discard(self, name: N) -> None:
        """Forget ``name`` (a file known to be gone)."""
        with self._lock:
            self._drop(name)

    def keep_only(self, names: Iterable[N]) -> None:
        """Forget every name not in ``names`` (e.g. the files a directory listing still holds)."""
        keep = set(names)
        with self._lock:
            for name in [name for name in self._entries if name not in keep]:
                self._drop(name)

    def _drop(self, name: N) -> None:
        old = self._entries.pop(name, None)
        if old is not None:
            self._weight -= old[2]
