"""SQLite files that keep on disk what the service derives from the memory files, so a restart
does not derive it again: search's index (:mod:`~memory_api.store.search_index`), the listing
memo (:mod:`~memory_api.store.topic_memo`) and the overview's scope records
(:mod:`~memory_api.store.scope_records`).

Each is a cache, never a source of truth: its rows are used only while a fresh ``stat`` of the
files they came from gives the key they were stored under (Q-4), and a file that is damaged or
was written by other code is removed and built again (:func:`open_cache_file` raises, the
caller calls :func:`remove_cache_file` and opens once more). They hold text derived from
memory files, so they are created owner-only (0600, in a 0700 folder, I-8). Several service
processes may share one, on one host or a shared volume: SQLite's rollback journal (its locks
are POSIX byte-range locks, which the volume must provide for the service's own ``flock``,
docs/deploy.md), not WAL, whose shared memory works only among processes of one host; writes
go in ``BEGIN IMMEDIATE`` transaction (:func:`transaction`).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import memory_core

__all__ = [
    "WrittenByOtherCode",
    "open_cache_file",
    "rebuilt_level",
    "remove_cache_file",
    "source_digest",
    "transaction",
]


class WrittenByOtherCode(sqlite3.DatabaseError):
    """The cache file holds another version's fingerprint: the first start after every upgrade
    (or two versions sharing one data dir) meets it, and it is built again as a matter of course.
    """


def rebuilt_level(error: BaseException) -> int:
    """The log level that building a cache file again after ``error`` is said at: INFO for one
    another version wrote (:class:`WrittenByOtherCode`: expected, nothing for the operator to
    do; a WARNING there greeted every CLI command after an upgrade), WARNING for a damaged or
    unreadable one."""
    return logging.INFO if isinstance(error, WrittenByOtherCode) else logging.WARNING


def source_digest(*sources: Path, versions: str = "") -> str:
    """A hex digest of every ``memory_core`` module's source, of ``sources`` (the modules that
    derive what a cache file keeps) and of ``versions`` (the libraries they rely on): another
    version of that code, another digest. ``""`` when a source cannot be read (installed as
    bytecode only): then there is no digest to trust, and no cache file is kept."""
    digest = hashlib.sha256(versions.encode())
    core = sorted(Path(memory_core.__file__).resolve().parent.glob("*.py"))
    try:
        for source in [*core, *sources] if core else []:
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    except OSError:
        return ""
    return digest.hexdigest() if core else ""


def open_cache_file(
    path: Path | None, schema: str, fingerprint: str, *, timeout_s: float
) -> sqlite3.Connection:
    """Open the cache file ``path`` (None: in memory), creating it (0600, its folder 0700) and
    its ``schema`` (statements separated by ``;`` and a newline, among them a table
    ``meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)``) when it is new.

    ``fingerprint`` names the code that writes the rows; it is stored in ``meta`` at creation.
    The connection is in autocommit mode (``isolation_level=None``: use :func:`transaction`),
    usable from any thread under the caller's own lock, and waits ``timeout_s`` for another
    process's write. Raises ``sqlite3.DatabaseError`` when the file is damaged or holds another
    fingerprint (remove it, :func:`remove_cache_file`, and open again), ``sqlite3.Error`` or
    ``OSError`` when it cannot be opened at all.
    """
    if path is None:
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    else:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        db = sqlite3.connect(path, timeout=timeout_s, check_same_thread=False, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA synchronous = NORMAL")
        with transaction(db):  # a new file: two processes may race to create it, one wins
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,):
                for statement in schema.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (fingerprint,))
            elif db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone() != (
                fingerprint,
            ):
                raise WrittenByOtherCode("written by other code")
    except (sqlite3.Error, OSError):
        db.close()
        raise
    return db


def remove_cache_file(path: Path) -> None:
    """Remove the cache file ``path`` and its journal (the rollback journal, and a WAL file an
    earlier version may have left, which SQLite would otherwise replay); missing ones are
    fine."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction on the autocommit connection ``db``: committed when
    the block ends, rolled back when it raises (the error goes on)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
