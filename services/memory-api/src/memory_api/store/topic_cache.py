"""A parse cache for topic files that never serves content another process has since changed.

Listing a scope of thousands of topic files would otherwise re-read and re-parse every file
(YAML included) on every request. An entry is keyed by the file's real path (and the name it was
listed under, the topic's identity) *and* the identity of its content as the filesystem reports
it — ``(st_ino, st_size, st_mtime_ns)`` of the very descriptor the bytes were read from — so a
file replaced (new inode), grown, shrunk or touched by any process is re-read on the next
request (Q-4; the architecture's rule that caches notice changes on disk). Only an in-place
rewrite to the same size within one timestamp tick of the filesystem could go unseen; every
writer here replaces files atomically, which always gives a new inode.

The cache is bounded by entries and by the bytes of the bodies it holds, evicting the least
recently used. It is thread-safe: scans run in worker threads.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from memory_core.lint import lint_topic
from memory_core.topics import READ_CAP_BYTES, ParsedTopic, parse_topic
from memory_core.wire import Finding

from memory_api.store.containment import read_regular

__all__ = ["TopicCache", "stat_key"]

StatKey = tuple[int, int, int]


def stat_key(info: os.stat_result) -> StatKey:
    """Return what identifies a file's content for the cache: ``(inode, size, mtime_ns)``."""
    return (info.st_ino, info.st_size, info.st_mtime_ns)


@dataclass(slots=True)
class _Entry:
    key: StatKey
    topic: ParsedTopic
    findings: list[Finding] | None = None


class TopicCache:
    """Parsed topic files by real path, valid only while the file's stat key is unchanged.

    Besides the parse, an entry memoises the file's own lint findings (T-5: name, description,
    secrets), the costly part of linting a large scope. ``max_entries`` bounds the number of
    files, ``max_bytes`` the summed body sizes (characters, an approximation of memory use).
    """

    def __init__(self, *, max_entries: int = 20_000, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[Path, str], _Entry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def load(
        self, real: Path, file_name: str, known: os.stat_result | None = None
    ) -> tuple[ParsedTopic, os.stat_result]:
        """Return the parsed topic at ``real`` (resolved, contained) and the stat it was read at.

        ``known`` is a stat the caller already has (a directory scan's ``lstat`` of a regular
        file): when it matches a cached entry no file is opened at all. Otherwise the file is
        read (at most the 1 MiB cap + 1 byte, T-2) and parsed. Raises ``OSError`` like
        :func:`~memory_api.store.containment.read_regular`.
        """
        where = (real, file_name)
        if known is not None:
            hit = self._get(where, stat_key(known))
            if hit is not None:
                return hit, known
        raw, info = read_regular(real, READ_CAP_BYTES + 1)
        key = stat_key(info)
        hit = self._get(where, key)
        if hit is not None:
            return hit, info
        topic = parse_topic(raw, file_name)
        self._put(where, _Entry(key, topic))
        return topic, info

    def lint(self, real: Path, topic: ParsedTopic) -> list[Finding]:
        """Return :func:`memory_core.lint.lint_topic` of ``topic``, memoised with its entry.

        ``topic`` must come from :meth:`load` for ``real``; a topic no longer cached is linted
        afresh.
        """
        where = (real, topic.file)
        with self._lock:
            entry = self._entries.get(where)
            if entry is not None and entry.topic is topic and entry.findings is not None:
                return entry.findings
        findings = lint_topic(topic)
        with self._lock:
            entry = self._entries.get(where)
            if entry is not None and entry.topic is topic:
                entry.findings = findings
        return findings

    def _get(self, where: tuple[Path, str], key: StatKey) -> ParsedTopic | None:
        with self._lock:
            entry = self._entries.get(where)
            if entry is None or entry.key != key:
                return None
            self._entries.move_to_end(where)
            return entry.topic

    def _put(self, where: tuple[Path, str], entry: _Entry) -> None:
        size = len(entry.topic.body)
        with self._lock:
            old = self._entries.pop(where, None)
            if old is not None:
                self._bytes -= len(old.topic.body)
            if size > self.max_bytes:
                return
            self._entries[where] = entry
            self._bytes += size
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= len(evicted.topic.body)
