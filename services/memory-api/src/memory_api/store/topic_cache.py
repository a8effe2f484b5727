"""A parse cache for topic files that never serves content another process has since changed.

Listing a scope of thousands of topic files would otherwise re-read and re-parse every file
(YAML included) on every request. An entry is a :class:`~memory_api.store.stat_cache.StatCache`
value keyed by the file's real path and the name it was listed under (the topic's identity),
valid for the :func:`~memory_api.store.stat_cache.file_key` of the very descriptor the bytes
were read from — so a file replaced, grown, shrunk or touched by any process is re-read on the
next request (Q-4).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_core.lint import lint_topic
from memory_core.topics import READ_CAP_BYTES, ParsedTopic, parse_topic
from memory_core.wire import Finding, TopicSummary

from memory_api.store.containment import can_open, read_regular
from memory_api.store.stat_cache import FileKey, StatCache, file_key
from memory_api.store.topic_memo import LightTopic, TopicMemo, light

__all__ = ["TopicCache"]


@dataclass(slots=True)
class _Entry:
    """One file version: its parse (or the :class:`LightTopic` of its memo row), its own lint
    findings and listing row once made, and whether the memo on disk holds it (``stored``)."""

    topic: ParsedTopic
    key: FileKey
    findings: list[Finding] | None = None
    summary: TopicSummary | None = None
    stored: bool = False

    @property
    def whole(self) -> bool:
        """Whether ``topic`` is the file's whole parse (not a memo row's light one)."""
        return not isinstance(self.topic, LightTopic)


PER_TOPIC_BYTES = 2048
"""What a cached topic costs beyond its texts: the parse's other fields, its own findings and
listing row once made, the cache's key and slot."""


def _weight(entry: _Entry) -> int:
    """Roughly the bytes ``entry`` takes: its texts as Python holds them (a body with one CJK
    character takes two or four bytes per character) and :data:`PER_TOPIC_BYTES`."""
    topic = entry.topic
    texts = (topic.body, topic.name, topic.description or "")
    return PER_TOPIC_BYTES + sum(sys.getsizeof(text) for text in texts)


class TopicCache:
    """Parsed topic files by real path, valid only while the file's stat key is unchanged.

    Besides the parse, an entry memoises the file's own lint findings (T-5: name, description,
    secrets), the costly part of linting a large scope. ``max_entries`` bounds the number of
    files, ``max_bytes`` the bytes they take (estimated from their texts, see ``_weight``).
    """

    def __init__(
        self,
        *,
        max_entries: int = 50_000,
        max_bytes: int = 40 * 1024 * 1024,
        memo: TopicMemo | None = None,
    ) -> None:
        # Keyed by strings: a Path hashes far slower, and a scope lists thousands per request.
        self._cache: StatCache[tuple[str, str], _Entry] = StatCache(
            max_entries=max_entries, max_weight=max_bytes, weigh=_weight
        )
        self.memo = memo if memo is not None else TopicMemo(None)

    def load(
        self,
        real: Path | str,
        file_name: str,
        known: os.stat_result | None = None,
        *,
        light_ok: bool = False,
    ) -> tuple[ParsedTopic, os.stat_result]:
        """Return the parsed topic at ``real`` (resolved, contained) and the stat it was read at.

        ``known`` is a stat the caller already has (a directory scan's ``lstat`` of a regular
        file): when it matches a cached entry no file is opened at all; with ``light_ok`` (a
        listing, a scope's lint) the topic may be the
        :class:`~memory_api.store.topic_memo.LightTopic` of the memo on disk (no description,
        no body; the listing row and own findings with it). Otherwise the file is read (at most
        the 1 MiB cap + 1 byte, T-2) and parsed. Raises ``OSError`` like
        :func:`~memory_api.store.containment.read_regular`.
        """
        where = (os.fspath(real), file_name)
        if known is not None:
            known_key = file_key(known)
            hit = self._cache.get(where, known_key)
            if hit is not None and (hit.whole or light_ok):
                return hit.topic, known
            if hit is None and light_ok:
                kept = self.memo.get(where[0], file_name, known_key)
                if kept is not None:
                    entry = _Entry(kept, known_key, kept.findings, kept.row, stored=True)
                    self._cache.put(where, known_key, entry)
                    return kept, known
        raw, info = read_regular(Path(real), READ_CAP_BYTES + 1, memory=True, real_folder=True)
        key = file_key(info)
        hit = self._cache.get(where, key)
        if hit is not None and hit.whole:
            return hit.topic, info
        entry = _Entry(parse_topic(raw, file_name), key)
        if hit is not None:  # the light parse of this very version: what it made still holds
            entry.findings, entry.summary, entry.stored = hit.findings, hit.summary, hit.stored
        self._cache.put(where, key, entry)
        return entry.topic, info

    def readable(self, real: Path | str, file_name: str, known: os.stat_result) -> bool:
        """Whether :meth:`load` of the file at ``real`` listed as ``file_name`` (with ``light_ok``)
        gives its topic, as far as that is known without reading it (T-5a: a convention holds
        over the files read, Q-2b): a parse is cached for the ``known`` stat key, or the file
        opens as :meth:`load` opens it (:func:`~memory_api.store.containment.can_open`: an
        ``open`` in its folder held open and checked, a regular file by ``fstat``, nothing read
        or parsed; a name elsewhere, the listing's ``lstat`` judged). False where the open
        fails (gone, no permission, its folder swapped for a symlink, A-7); a file whose read
        fails once it is open (an I/O error) is taken as readable."""
        if self._cache.get((os.fspath(real), file_name), file_key(known)) is not None:
            return True
        return can_open(real)

    def keep(self, scope: str, where: list[tuple[str, str]], listed: list[str]) -> None:
        """Store in the memo on disk what was made of the files ``where`` (``(real path, listed
        name)``) of the real scope folder ``scope`` and is not there yet: each one's light parse,
        listing row and own findings, once all three are made; ``listed`` names every topic
        file of the scope now (the memo forgets the others)."""
        rows: list[tuple[str, str, FileKey, LightTopic]] = []
        entries: list[_Entry] = []
        for path, file in where:
            entry = self._cache.peek((path, file))
            if entry is None or entry.stored or not entry.whole:
                continue
            if entry.findings is None or entry.summary is None:
                continue
            rows.append((path, file, entry.key, light(entry.topic, entry.summary, entry.findings)))
            entries.append(entry)
        if rows:
            self.memo.put(scope, rows, listed)
            for entry in entries:
                entry.stored = True  # one assignment: at worst a row is stored twice

    def names(self, scope: str, files: list[tuple[str, str, os.stat_result]]) -> dict[str, str]:
        """The frontmatter ``name`` of each of ``files`` (``(real path, listed name, stat)``) of
        the real scope folder ``scope`` whose version at that stat is known, by listed name,
        nothing read or parsed: from its parse in memory, else from the memo on disk
        (:meth:`~memory_api.store.topic_memo.TopicMemo.names`, asked once). A file changed
        since (another stat key) or never parsed is left out."""
        found: dict[str, str] = {}
        stored: dict[tuple[str, str], tuple[FileKey, str]] | None = None
        for path, file, info in files:
            key = file_key(info)
            entry = self._cache.peek((path, file))
            if entry is not None and entry.key == key:
                found[file] = entry.topic.name
                continue
            if stored is None:
                stored = self.memo.names(scope)
            kept = stored.get((path, file))
            if kept is not None and kept[0] == key:
                found[file] = kept[1]
        return found

    def keep_names(self, scope: str, names: list[tuple[str, str, FileKey, str]]) -> None:
        """Store in the memo on disk the frontmatter ``name`` of files of the real scope folder
        ``scope`` (``(real path, listed name, stat key of the version parsed, name)``), for
        :meth:`names` after a restart (T-5b)."""
        self.memo.put_names(scope, names)

    def lint(self, real: Path | str, topic: ParsedTopic) -> list[Finding]:
        """Return :func:`memory_core.lint.lint_topic` of ``topic``, memoised with its entry.

        ``topic`` must come from :meth:`load` for ``real``; a topic no longer cached is linted
        afresh, a :class:`~memory_api.store.topic_memo.LightTopic` gives the findings it holds.
        """
        if isinstance(topic, LightTopic):
            return topic.findings
        entry = self._cache.peek((os.fspath(real), topic.file))
        if entry is not None and entry.topic is topic and entry.findings is not None:
            return entry.findings
        findings = lint_topic(topic)
        if entry is not None and entry.topic is topic:
            entry.findings = findings  # one reference assignment: safe across worker threads
        return findings

    def summary(
        self, real: Path | str, topic: ParsedTopic, make: Callable[[], TopicSummary]
    ) -> TopicSummary:
        """Return ``make()`` — the listing row of ``topic``, masked (I-8) — memoised with its entry.

        ``topic`` must come from :meth:`load` for ``real``, and the row must be built from that
        version only (its parse, size and mtime): the entry is replaced when the file changes,
        so the row goes with it. A topic no longer cached gets a fresh row, a
        :class:`~memory_api.store.topic_memo.LightTopic` the row it holds.
        """
        if isinstance(topic, LightTopic):
            return topic.row
        entry = self._cache.peek((os.fspath(real), topic.file))
        if entry is not None and entry.topic is topic and entry.summary is not None:
            return entry.summary
        row = make()
        if entry is not None and entry.topic is topic:
            entry.summary = row  # one reference assignment: safe across worker threads
        return row
