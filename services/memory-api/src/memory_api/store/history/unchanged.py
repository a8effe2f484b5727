"""Scope folders a record can skip: unchanged since this process last recorded them (V-1).

A Session start asks for a record of its scopes (:meth:`~.service.HistoryStore.record_later`),
and a record is a snapshot: a ``scandir`` of the scope folder and an ``lstat`` per memory file
(3,000 files: 15–19 ms of CPU a second during a burst of Session starts). When the process's
change feed (:mod:`memory_api.store.change_feed`) has watched the folder since a record of it
that found the folder and its newest version equal, and names no change of it since, the disk
is as that record saw it: a new snapshot would find nothing to record, so none is taken.

:class:`UnchangedScopes` keeps, for one memory root, the names of such folders (``clean``). Each
record first :meth:`~UnchangedScopes.look`-s: the folders the feed names as changed leave the
set (all of them when the feed cannot vouch: its first look after a start, an overflow, the
root's watch gone, and whenever the root itself changed: a scope added, removed or renamed).
A folder enters the set only by :meth:`~UnchangedScopes.recorded`: a record that started after
a look, watched the folder before its scan, read every memory file (none kept back, none with
other hard links) and committed or found nothing new, and that no later look named since.

Other writers raise events here too (another service process on the same data dir, a shell,
an editor, a restore or a sync import of this process): the folder leaves the set and the next
record scans. A version another process recorded in between changes nothing on disk: the
history then holds what this process would have found. A scope the feed cannot watch (no feed,
another device, no watch left) never enters the set.

Thread-safe: records of several scopes of one root run at once in worker threads.
"""

from __future__ import annotations

import threading

from memory_api.store.change_feed import RootFeed

__all__ = ["UnchangedScopes"]


class UnchangedScopes:
    """The scope folders of one memory root a record may skip (see the module doc), with the
    reader of the root's ``feed`` that says which changed."""

    def __init__(self, feed: RootFeed) -> None:
        self.feed = feed
        """The memory root's feed."""
        self._reader = feed.reader()
        self._lock = threading.Lock()
        self._clean: set[str] = set()
        self._looks = 0
        """Looks taken so far; a look's number is its ticket."""
        self._distrusted = 0
        """The ticket of the last look that vouched for no folder (or whose root changed)."""
        self._named: dict[str, int] = {}
        """Scope folder name → the ticket of the last look that named it."""

    def look(self) -> int:
        """Drain the feed and forget every folder it names as changed (all of them when it
        cannot vouch or the root changed); the look's ticket, for :meth:`recorded`. Call it
        before :meth:`unchanged`, and before the scan of a record."""
        with self._lock:
            look = self._reader.look()
            self._looks += 1
            if look.everything or look.root:
                self._clean.clear()
                self._named.clear()
                self._distrusted = self._looks
            else:
                for name in look.folders:
                    self._clean.discard(name)
                    self._named[name] = self._looks
            return self._looks

    def unchanged(self, name: str) -> bool:
        """Whether scope folder ``name`` is as this process last recorded it, by the feed's
        word as of the last :meth:`look`."""
        with self._lock:
            return name in self._clean

    def recorded(self, name: str, ticket: int) -> None:
        """Scope folder ``name`` was recorded whole by a record that watched it and started
        after the look of ``ticket``: unchanged until a look names it, unless a look since that
        one already did (a change during the scan) or could not vouch."""
        with self._lock:
            if ticket >= self._distrusted and self._named.get(name, 0) <= ticket:
                self._clean.add(name)
