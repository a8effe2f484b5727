"""What the overview keeps of each scope on disk, so a restart does not read every scope again
(A-3, issue 30): one SQLite file per agent, ``<data>/overview/<agent id>.sqlite3`` (0600),
beside the search index's folder and never inside the memory root.

Two tables, both caches of the files and nothing else:

- ``folders``: per scope folder (by its name under the memory root) the stat key
  (:func:`~memory_api.store.stat_cache.file_key`) of the folder when it was listed, how many
  topic files its listing gave as regular files, and the names it could not judge by type
  (symlinks, another case of ``.md``: judged again on every use,
  :class:`~memory_api.store.scopes.FolderListing`). A folder's stat key changes with any
  entry created, deleted or renamed in it, so a count is used only while the folder's fresh
  ``stat`` gives the same key (and one read less than 2 s after the folder changed is never
  kept: :func:`~memory_api.store.stat_cache.is_racy`).
- ``lints``: per scope the lint tallies of its overview entry (:class:`LintTally`) under a
  digest of everything the lint judged (:func:`lint_digest`: the stat key of the index and of
  every topic file, the names, the user index's text…). A tally is used only when the digest
  of the scope as it is now is the same: a file edited, touched, replaced, added or removed
  gives another digest.

So nothing here can disagree with the disk (Q-4): every value is checked against a ``stat``
taken for the request that uses it. The file carries a fingerprint of the code that wrote it
(the lint rules live in ``memory_core``): one written by other code, or damaged, is built again.
Several processes may share it (rollback journal and ``BEGIN IMMEDIATE``, as the search
index); each process reads the ``folders`` table once into memory, and writes what it found
new at the end of a request. Any SQLite error is logged and the request goes on without the
file: it only saves work.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from memory_core import json_text
from memory_core.wire import Severity

from memory_api.store.cache_file import (
    open_cache_file,
    rebuilt_level,
    remove_cache_file,
    source_digest,
    transaction,
)
from memory_api.store.recently_used import RecentlyUsed
from memory_api.store.stat_cache import FileKey, is_racy

__all__ = [
    "RECORDS_FOLDER",
    "FolderCount",
    "LintTally",
    "ScopeRecordFiles",
    "ScopeRecords",
    "lint_digest",
]

logger = logging.getLogger(__name__)

RECORDS_FOLDER = "overview"
"""The data dir's folder holding one ``<agent id>.sqlite3`` of scope records per agent."""
MAX_AGENTS = 16
"""How many agents' record files one process keeps open (least recently used closed first)."""
BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another process's write transaction."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folders (
    name TEXT PRIMARY KEY,
    dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
    regular INTEGER NOT NULL,
    judged BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS lints (name TEXT PRIMARY KEY, digest BLOB NOT NULL, tally BLOB NOT NULL);
"""


@functools.cache
def _fingerprint() -> str:
    """A digest of the schema and of the code whose results are kept: every module of
    ``memory_core`` (the lint rules), this package's answers and this module
    (:func:`~memory_api.store.cache_file.source_digest`; ``""`` when they cannot be read: then
    no file is kept); once per process."""
    here = Path(__file__).resolve().parent
    return source_digest(here / "answers.py", here / "scope_records.py", versions=_SCHEMA)


class LintTally(msgspec.Struct, frozen=True):
    """What a scope's overview entry shows of its lint (A-3, T-5a): findings per code, per
    severity, and each code's severity."""

    counts: dict[str, int]
    severities: dict[str, int]
    code_severities: dict[str, Severity]


_lint_decoder = msgspec.json.Decoder(LintTally)


def lint_digest(facts: object, keys: list[FileKey]) -> bytes:
    """A digest (16 bytes) of what a scope's lint judged: ``facts`` (names, texts, verdicts:
    tuples of strings, numbers and None, whose ``repr`` is the same in every process) and the
    stat ``keys`` of the files it read. Equal in every process exactly while all of them are."""
    text = repr((_fingerprint(), facts, keys))
    return hashlib.blake2b(text.encode("utf-8", "backslashreplace"), digest_size=16).digest()


@dataclass(frozen=True, slots=True)
class FolderCount:
    """A scope folder's listing as the overview counts it: the topic files it gives as regular
    files, and the entries judged on every use (their names)."""

    regular: int
    judged: tuple[str, ...]


def _judged_blob(names: tuple[str, ...]) -> bytes:
    return b"\0".join(os.fsencode(name) for name in names)  # no name holds a NUL


def _judged_names(blob: bytes) -> tuple[str, ...]:
    return tuple(os.fsdecode(name) for name in blob.split(b"\0")) if blob else ()


@dataclass(slots=True)
class _Pending:
    folders: dict[str, tuple[FileKey, FolderCount]] = field(default_factory=dict)
    lints: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    gone: set[str] = field(default_factory=set)


class ScopeRecords:
    """The scope records of one agent in the file ``path`` (None: this process's memory only,
    when the file cannot be used); thread-safe. See the module doc."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._folders: dict[str, tuple[int, int, int, int, int, int, bytes]] = {}
        """By folder name: its stat key's five numbers, the regular count, the judged blob."""
        self._lints: dict[str, tuple[bytes, bytes]] = {}
        """By scope folder name: the digest and the tally as stored (JSON), only while there is
        no file (a page's tallies are read from the file: a mirror of 20,000 held 7.7 MiB)."""
        self._pending = _Pending()
        self._loaded = False

    # --- the file -----------------------------------------------------------------------------

    def _open(self) -> None:
        """Open the file and read its folder counts (once); on any failure go on in memory."""
        if self._loaded:
            return
        self._loaded = True
        if self.path is None:
            return
        for attempt in range(2):
            try:
                self._db = _connect(self.path)
                rows = self._db.execute(
                    "SELECT name, dev, ino, size, mtime_ns, ctime_ns, regular, judged FROM folders"
                )
                self._folders = {row[0]: row[1:] for row in rows}  # 20,000 rows: no more work
                return
            except (sqlite3.Error, OSError) as error:
                self._close()
                if attempt == 0 and isinstance(error, sqlite3.DatabaseError):
                    logger.log(
                        rebuilt_level(error),
                        "scope records %s: %s; starting it again",
                        self.path,
                        error,
                    )
                    with contextlib.suppress(OSError):
                        remove_cache_file(self.path)
                    continue
                logger.warning("scope records %s unusable (%s): kept in memory", self.path, error)
                return

    def close(self) -> None:
        """Close the connection (the file stays); what was kept since the last flush is lost."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- folder counts ------------------------------------------------------------------------

    def folder_count(self, name: str, key: FileKey) -> FolderCount | None:
        """The count kept for scope folder ``name`` at stat key ``key``, else None (a miss)."""
        with self._lock:
            self._open()
            found = self._folders.get(name)
        if found is None or found[:5] != key:
            return None
        return FolderCount(found[5], _judged_names(found[6]))

    def folder_counts(self) -> Mapping[str, tuple[int, int, int, int, int, int, bytes]]:
        """Every kept folder count by folder name: ``(st_dev, st_ino, st_size, st_mtime_ns,
        st_ctime_ns, regular, judged)`` (``judged`` empty when no entry is judged on use), for
        a caller's hot loop; read it without the lock (one dict lookup at a time) and check the
        five stat numbers, as :meth:`folder_count` does."""
        with self._lock:
            self._open()
            return self._folders

    def known_folders(self) -> int:
        """How many folders have a kept count (or lint tally)."""
        return max(len(self._folders), len(self._lints))

    def keep_folder_count(self, name: str, key: FileKey, count: FolderCount) -> None:
        """Keep ``count`` of scope folder ``name`` listed at ``key`` (not when racy); written
        by the next :meth:`flush`."""
        if is_racy(key):
            return
        with self._lock:
            self._folders[name] = (*key, count.regular, _judged_blob(count.judged))
            self._pending.folders[name] = (key, count)

    def keep_only(self, names: set[str]) -> None:
        """Forget the records of every scope folder not in ``names`` (gone from the root)."""
        with self._lock:
            if len(self._folders) <= len(names) and len(self._lints) <= len(names):
                return
            gone = (set(self._folders) | set(self._lints)) - names
            for name in gone:
                self._folders.pop(name, None)
                self._lints.pop(name, None)
            self._pending.gone |= gone

    # --- lint tallies -------------------------------------------------------------------------

    def lint_tally(self, name: str, digest: bytes) -> LintTally | None:
        """The tally kept for scope ``name`` under ``digest`` (:func:`lint_digest`), or None."""
        with self._lock:
            self._open()
            found = self._pending.lints.get(name)
            if found is None:
                found = self._lints.get(name) if self._db is None else self._read_lint(name)
        if found is None or found[0] != digest:
            return None
        try:
            return json_text.decode(_lint_decoder, found[1])
        except msgspec.DecodeError:  # a damaged row (nested too deep too) is no row
            return None

    def _read_lint(self, name: str) -> tuple[bytes, bytes] | None:
        assert self._db is not None
        try:
            row = self._db.execute(
                "SELECT digest, tally FROM lints WHERE name = ?", (name,)
            ).fetchone()
        except sqlite3.Error as error:
            logger.warning("scope records %s: %s", self.path, error)
            return None
        if row is None:
            return None
        return bytes(row[0]), bytes(row[1])

    def keep_lint_tally(self, name: str, digest: bytes, tally: LintTally, *, racy: bool) -> None:
        """Keep ``tally`` of scope ``name`` under ``digest`` (not when ``racy``: a file it read
        changed less than 2 s ago); written by the next :meth:`flush`."""
        if racy:
            return
        with self._lock:
            kept = self._pending.lints[name] = (digest, msgspec.json.encode(tally))
            if self._db is None:
                self._lints[name] = kept

    # --- writing ------------------------------------------------------------------------------

    def flush(self) -> None:
        """Write what was kept since the last flush, in one transaction; a failure is logged
        and forgotten (the records only save work)."""
        with self._lock:
            pending, self._pending = self._pending, _Pending()
            if self._db is None or not (pending.folders or pending.lints or pending.gone):
                return
            try:
                with transaction(self._db):
                    self._write(self._db, pending)
            except sqlite3.Error as error:
                logger.warning("scope records %s not written: %s", self.path, error)

    @staticmethod
    def _write(db: sqlite3.Connection, pending: _Pending) -> None:
        db.executemany(
            "INSERT OR REPLACE INTO folders VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (name, *key, count.regular, _judged_blob(count.judged))
                for name, (key, count) in pending.folders.items()
            ],
        )
        db.executemany(
            "INSERT OR REPLACE INTO lints VALUES (?, ?, ?)",
            [(name, digest, tally) for name, (digest, tally) in pending.lints.items()],
        )
        gone = [(name,) for name in pending.gone]
        db.executemany("DELETE FROM folders WHERE name = ?", gone)
        db.executemany("DELETE FROM lints WHERE name = ?", gone)


def _connect(path: Path) -> sqlite3.Connection:
    """Open (or create) the records file; ``DatabaseError`` when it is damaged or was written
    by other code (the caller removes it and tries once more)."""
    return open_cache_file(path, _SCHEMA, _fingerprint(), timeout_s=BUSY_TIMEOUT_S)


class ScopeRecordFiles:
    """The scope records of this process: one :class:`ScopeRecords` per agent, in
    ``<app_data_dir>/overview/`` (None: in memory, for tools); thread-safe."""

    def __init__(self, app_data_dir: Path | None, *, max_agents: int = MAX_AGENTS) -> None:
        self.folder = None if app_data_dir is None else app_data_dir / RECORDS_FOLDER
        self._agents: RecentlyUsed[str, ScopeRecords] = RecentlyUsed(
            max_agents, on_drop=ScopeRecords.close
        )

    def of(self, agent_id: str) -> ScopeRecords:
        """The records of the (checked) ``agent_id``."""

        def open_records() -> ScopeRecords:
            path = None  # in memory: no folder, or no code digest to trust
            if self.folder is not None and _fingerprint():
                path = self.folder / f"{agent_id}.sqlite3"
            return ScopeRecords(path)

        return self._agents.get_or_make(agent_id, open_records)
