"""The two small files of a scope read on every request, ``MEMORY.md`` and ``.workspace``,
per file version.

Every Session start injects both indexes with likely credentials masked (I-8) and judges the
Workspace's marker (K-5); every overview reads and lints each scope's index and judges its
marker. Scanning each index line for credentials on each request was most of their cost.
:class:`ScopeFiles` keeps the text of each index and, once asked for, what is derived from that
text alone: its :class:`~memory_core.injection.PreparedIndex` (lines split and masked) and its
:class:`~memory_core.index_facts.IndexFacts` (links, long lines, credentials, for lint); and
each marker's judgement, all valid only for the :func:`~memory_api.store.stat_cache.file_key`
they were read at. A request costs an ``lstat`` or two per file; a file changed, replaced or
removed by any process (the agent's own file tools included) is read again (Q-4).
"""

from __future__ import annotations

import dataclasses
import os
import stat
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from memory_core import layout
from memory_core.index import index_lines, links_of_lines, wiki_link_targets
from memory_core.index_facts import IndexFacts, index_facts
from memory_core.injection import PreparedIndex, prepare_index, unreadable_index

from memory_api.store.scopes import (
    IndexText,
    Marker,
    index_refusal,
    read_index_text,
    read_marker,
    workspace_presence,
)
from memory_api.store.stat_cache import NeedsBlockingIO, StatCache, file_key
from memory_api.store.workspace_mount import MountRecords

__all__ = ["ScopeFiles", "ScopeIndex"]

_MISSING = prepare_index(None)
_PREPARING = threading.Lock()
"""Held while a reading's prepared index is kept (:meth:`ScopeIndex.prepared`)."""


@dataclass(slots=True)
class ScopeIndex:
    """One version of a scope's ``MEMORY.md``: ``read`` as read, and what depends on its text
    alone, each made on first use and kept with it while the file is unchanged."""

    read: IndexText
    here: str | None = None
    """The scope folder's path, by which a link to ``../user/x.md`` or an absolute path names
    its files (:func:`~memory_core.index.scope_relative`), as a delete reads it (A-6)."""
    _prepared: PreparedIndex | None = None
    _facts: IndexFacts | None = None
    _links: dict[str, list[int]] | None = None
    _wiki: dict[str, tuple[int, ...]] | None = None

    @property
    def text(self) -> str:
        """The index text (LF line ends; only the first 1 MiB of an over-large index)."""
        return self.read.text

    @property
    def error(self) -> str | None:
        """Why the index, which is there, could not be read (Q-2b); None when it was read."""
        return self.read.error

    @property
    def readable_text(self) -> str | None:
        """The text, or None for an index that could not be read (lint then judges no line)."""
        return None if self.read.error is not None else self.read.text

    def prepared(self) -> PreparedIndex:
        """The index split and masked for the caps (I-8), lines past the read cap counted; one
        that could not be read is injected as a note saying so (Q-2b)."""
        if self.read.error is not None:
            return unreadable_index(self.read.error)
        if self._prepared is None:
            # two threads may both make it; the first one kept is the one handed out (the
            # Session start's memo compares a different one line by line, every time)
            made = prepare_index(self.read.text, self.read.unread)
            with _PREPARING:
                if self._prepared is None:
                    self._prepared = made
        return self._prepared

    def facts(self) -> IndexFacts:
        """:func:`~memory_core.index_facts.index_facts` of the text, for lint (T-5)."""
        if self._facts is None:
            self._facts = index_facts(self.read.text, self.here)
        return self._facts

    def links(self) -> dict[str, list[int]]:
        """The topic files the text links to and the lines linking each (the ``links`` of
        :meth:`facts`, without the rest of the facts: no credential scan)."""
        if self._facts is not None:
            return self._facts.links
        if self._links is None:
            self._links = links_of_lines(index_lines(self.read.text), here=self.here)
        return self._links

    def wiki(self) -> dict[str, tuple[int, ...]]:
        """The :meth:`links` written as wiki links and the lines writing each (the ``wiki`` of
        :meth:`facts`, without the rest of the facts: no credential scan)."""
        if self._facts is not None:
            return dict(self._facts.wiki)
        if self._wiki is None:
            self._wiki = wiki_link_targets(index_lines(self.read.text))
        return self._wiki


def _regular(path: Path | str) -> os.stat_result | None:
    """The ``lstat`` of ``path`` when it is a regular file (no symlink), else None."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info if stat.S_ISREG(info.st_mode) else None


_PER_LINE_BYTES = 120
"""What an index line costs beyond its characters once split, masked and linted (its ``str``
object, list slots, facts)."""
_PER_FILE_BYTES = 1024
"""What a cached file costs beyond its content (the cache's key, value and slot objects)."""


def _weight(entry: ScopeIndex) -> int:
    """Roughly the bytes an index takes once prepared and linted: its text and three copies of
    it split into lines (the prepared lines and the lint facts' own, with masked lines where a
    line holds a credential), and a per-line share (:data:`_PER_LINE_BYTES`). Measured with
    ``tracemalloc`` on the scale data set: 126 KB for an index of 123 lines, 30 KB of text."""
    text = entry.text
    return 4 * sys.getsizeof(text) + _PER_LINE_BYTES * text.count("\n") + _PER_FILE_BYTES


def _marker_weight(marker: Marker) -> int:
    """Roughly the bytes a marker's judgement takes: its path, problems and objects."""
    texts = (marker.path or "", *marker.problems)
    return _PER_FILE_BYTES // 2 + sum(sys.getsizeof(text) for text in texts)


class ScopeFiles:
    """Index texts and marker judgements by real path, valid while the file key is unchanged;
    thread-safe.

    ``max_entries`` bounds the number of indexes (and of markers); ``max_bytes`` the bytes the
    indexes take and ``marker_bytes`` those of the markers, each estimated from their texts
    (an overview pages through thousands of scopes, and a user may open every one).
    """

    def __init__(
        self,
        *,
        max_entries: int = 50_000,
        max_bytes: int = 16 * 1024 * 1024,
        marker_bytes: int = 16 * 1024 * 1024,
    ) -> None:
        self._cache: StatCache[str, ScopeIndex] = StatCache(
            max_entries=max_entries, max_weight=max_bytes, weigh=_weight
        )
        self._markers: StatCache[tuple[str, str], Marker] = StatCache(
            max_entries=max_entries, max_weight=marker_bytes, weigh=_marker_weight
        )
        self.mounts = MountRecords(max_entries=max_entries)
        """The device each scope's ``.workspace-mount`` records (K-6a)."""

    def marker(
        self,
        root: Path,
        scope: Path | str,
        key: str,
        *,
        orphan_check: bool = True,
        cached_only: bool = False,
    ) -> Marker:
        """:func:`~memory_api.store.scopes.read_marker` of the real ``scope``, the file judged
        once per version; ``orphaned`` and ``not_visible`` (does the named Workspace still
        exist, and had the service seen it? :func:`~memory_api.store.scopes.workspace_presence`)
        are asked anew, unless ``orphan_check`` is false (then both are false: a read for the
        path alone, as a group search's, costs no look at the Workspace). ``cached_only``: raise
        :class:`NeedsBlockingIO` instead of reading the file (a marker missing, odd or not
        judged at this version)."""
        path = f"{os.fspath(scope)}{os.sep}{layout.MARKER_FILE}"  # a group search asks each
        info = _regular(path)
        hit = None if info is None else self._markers.get((path, key), file_key(info))
        if hit is None:
            if cached_only:
                raise NeedsBlockingIO(path)
            hit = read_marker(root, Path(scope), key)
            if info is not None:  # one missing, a symlink or odd is judged each time
                # Stored under the key seen before the read: a change in between makes a miss.
                self._markers.put((path, key), file_key(info), hit)
        if hit.path is None or not orphan_check:
            return hit
        orphaned, not_visible = workspace_presence(scope, hit.path)
        return dataclasses.replace(hit, orphaned=orphaned, not_visible=not_visible)

    def read(self, root: Path, scope: Path, *, cached_only: bool = False) -> ScopeIndex | None:
        """:func:`~memory_api.store.scopes.read_index_text` of the real ``scope`` under the real
        ``root``, from the cache while the file is unchanged; None when there is no index. An
        index that could not be read (its ``error`` set, Q-2b) is never kept: read again next.

        Only an index that is a plain file (its own real path, as ``scope`` is real) is kept; a
        symlinked one is resolved, checked and read on every request. ``cached_only``: raise
        :class:`NeedsBlockingIO` instead of reading (an index not kept at this version)."""
        path = f"{os.fspath(scope)}{os.sep}{layout.INDEX_FILE}"  # no Path per request
        try:
            info: os.stat_result | None = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError:
            info = None  # the read below names the reason
        if info is not None and stat.S_ISREG(info.st_mode):
            hit = self._cache.get(path, file_key(info))
            if hit is not None:
                return hit
        else:
            info = None
        if cached_only:
            raise NeedsBlockingIO(path)
        found = read_index_text(root, scope)  # resolves and checks the path itself
        if found is None:
            return None
        entry = ScopeIndex(found, str(scope))
        if info is not None and found.error is None:  # another thread's reading, if it kept one
            return self._cache.kept_or_put(path, file_key(found.stat), entry)
        return entry

    def prepared(
        self, root: Path, scope: Path | None, *, cached_only: bool = False
    ) -> PreparedIndex:
        """The scope's index split and masked for the caps (I-8); a missing index (or no scope,
        None) gives the blank one, one that is there but never read (a symlink out of the root,
        a FIFO, a folder: T-5b) a note saying so, as for an unreadable one (Q-2b), never
        "nothing saved yet". Masked once per version of the file. ``cached_only``: as for
        :meth:`read`."""
        entry = self.read(root, scope, cached_only=cached_only) if scope is not None else None
        if entry is not None:
            return entry.prepared()
        if scope is None or cached_only:
            return _MISSING  # read() answers None without reading only for no file at all
        why = index_refusal(root, scope)
        return _MISSING if why is None else unreadable_index(f"does not read it: it is {why}")
