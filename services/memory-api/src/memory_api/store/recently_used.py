"""Keep the values of the most recently used keys and let the others go: the one LRU map.

For what a process keeps per agent or per repository between requests but not for every one
ever asked for: an agent's open search index and overview records file, its overview rows under
the change feed, a repository's newest file list. Nothing here looks at the disk: each caller
keeps only what cannot disagree with it (Q-4), or checks a value before using it (``usable``).
Thread-safe: one lock per map.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["RecentlyUsed"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class RecentlyUsed(Generic[K, V]):
    """At most ``limit`` values by key (≥ 1), the least recently used let go first.

    ``on_drop`` (optional) is called once with each value the map lets go of (evicted to make
    room, or replaced under its key by another value), under the map's lock: no other thread
    is handed a value while it is being closed. It must not use this map. Values are never None.
    Raises ``ValueError`` for a ``limit`` below 1.
    """

    def __init__(self, limit: int, *, on_drop: Callable[[V], None] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"a RecentlyUsed keeps at least one value, not {limit}")
        self.limit = limit
        self._on_drop = on_drop
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        """Whether a value is kept for ``key`` (its recency left as it was)."""
        return key in self._values

    def get(self, key: K, usable: Callable[[V], bool] | None = None) -> V | None:
        """The value kept for ``key``, now the most recently used; None when none is kept or
        ``usable`` (called under the lock) rejects it (then its recency is left as it was)."""
        with self._lock:
            return self._get(key, usable)

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` as the most recently used, replacing any value kept for
        it; let the least recently used go beyond ``limit``."""
        with self._lock:
            self._put(key, value)

    def get_or_make(
        self, key: K, make: Callable[[], V], usable: Callable[[V], bool] | None = None
    ) -> V:
        """The value kept for ``key`` (as :meth:`get`), else a new one from ``make()`` kept in
        its place (as :meth:`put`). ``make`` runs under the lock, so concurrent calls for one
        key make one value; what it raises is raised here, nothing kept."""
        with self._lock:
            value = self._get(key, usable)
            if value is None:
                value = make()
                self._put(key, value)
            return value

    def _get(self, key: K, usable: Callable[[V], bool] | None) -> V | None:
        value = self._values.get(key)
        if value is None or (usable is not None and not usable(value)):
            return None
        self._values.move_to_end(key)
        return value

    def _put(self, key: K, value: V) -> None:
        replaced = self._values.pop(key, None)
        self._values[key] = value
        if replaced is not None and replaced is not value:
            self._drop(replaced)
        while len(self._values) > self.limit:
            self._drop(self._values.popitem(last=False)[1])

    def _drop(self, value: V) -> None:
        if self._on_drop is not None:
            self._on_drop(value)
