"""One agent's search index on disk (S-1): an SQLite file with an FTS5 table, under the app
data dir's own ``search/`` folder, never inside the memory root.

Tables: ``files`` (one row per indexed topic file: scope, file, the stat key it was read at,
its name, description and body as written — credentials masked, I-8 — and their lengths),
``docs`` (a contentless FTS5 table over the same three fields as
:func:`~memory_api.store.search_text.index_text` gives them, ``rowid`` = ``files.id``),
``scopes`` (each scope's real folder and the stat key of that folder when it was listed) and
``meta`` (what wrote the file, and the memory root's stat key).

Several service processes may share the file, on one host or on a shared volume (Q-4): it
uses SQLite's rollback journal, whose locks are POSIX byte-range locks — what the volume must
already provide for the service's own ``flock`` (docs/deploy.md) — and not WAL, whose shared
memory works only among processes of one host. Every write is a short ``BEGIN IMMEDIATE``
transaction; a reader waits for a writer's commit at most :data:`BUSY_TIMEOUT_S`. The index is
a cache of the files: one written by another version of the code (:data:`FINGERPRINT`), or
found damaged, is deleted and built again from the files.

Each process keeps a mirror of ``scopes`` and of the stat keys in ``files`` (a few hundred
bytes per file) to compare with the disk without reading the table; when another process has
committed (``PRAGMA data_version`` moved) the mirror is read again.

Not thread-safe: the caller holds one lock per index.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import regex

from memory_api.store.search_rank import FIELD_WEIGHTS, FIELDS, FieldStats
from memory_api.store.search_text import Query, field_length, index_text

__all__ = [
    "BUSY_TIMEOUT_S",
    "FINGERPRINT",
    "Row",
    "ScopeState",
    "SearchIndex",
    "Topic",
]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
FINGERPRINT = (
    f"schema {SCHEMA_VERSION}; sqlite {sqlite3.sqlite_version}; regex {regex.__version__}; "
    f"unicode {unicodedata.unidata_version}; python {sys.version_info[0]}.{sys.version_info[1]}"
)
"""What the index file was written by: the indexed text of a row must be derived again,
identically, to delete the row from the contentless FTS5 table (and the stat keys are Python
hashes); any change means a rebuild."""
BUSY_TIMEOUT_S = 30.0
"""How long a connection waits for another process's write transaction."""

_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE scopes (key TEXT PRIMARY KEY, real TEXT NOT NULL, dir_key INTEGER);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    file TEXT NOT NULL,
    stat_key INTEGER,
    name TEXT NOT NULL,
    name_field TEXT NOT NULL,
    description TEXT NOT NULL,
    body TEXT NOT NULL,
    name_len INTEGER NOT NULL,
    description_len INTEGER NOT NULL,
    body_len INTEGER NOT NULL,
    UNIQUE (scope, file)
);
CREATE VIRTUAL TABLE docs USING fts5(
    name, description, body, content = '', tokenize = "{_TOKENIZER}"
);
"""
_RANK = " + ".join(
    f"{weight} * bm25(docs, {', '.join('1' if i == n else '0' for i in range(len(FIELDS)))})"
    for n, weight in enumerate(FIELD_WEIGHTS)
)
# FTS5's own bm25() per field, weighted: C-speed over every match, it picks the candidates that
# search_rank then scores exactly (its idf and length norm are the row's, not the field's).
_MATCH = "FROM docs {join} WHERE docs MATCH :match {scope}"
_JOIN = "JOIN files ON files.id = docs.rowid"
_IN_SCOPE = "AND files.scope = :scope"


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic file to index: its fields as written (masked) and its stat key (None: racy)."""

    file: str
    stat_key: int | None
    name: str
    name_field: str
    description: str
    body: str


@dataclass(frozen=True, slots=True)
class Row:
    """An indexed topic file read back for a hit."""

    id: int
    scope: str
    file: str
    name: str
    fields: tuple[str, str, str]
    lengths: tuple[int, int, int]


@dataclass(slots=True)
class ScopeState:
    """The mirror of one scope: its real folder, the folder's stat key when listed (None: list
    it again) and each indexed file's stat key (None: read it again)."""

    real: str
    dir_key: int | None
    files: dict[str, int | None] = field(default_factory=dict)


def _connect(path: Path | None) -> sqlite3.Connection:
    if path is None:
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    else:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)  # masked notes: owner only
        os.close(fd)
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
        )
    try:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA synchronous = NORMAL")
        if db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone() != (
            FINGERPRINT,
        ):
            raise sqlite3.DatabaseError("written by another version")
    except sqlite3.OperationalError as error:
        if "no such table" not in str(error):
            db.close()
            raise
        with _transaction(db):  # a new file (two processes may race here: one wins)
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,):
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (FINGERPRINT,))
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class SearchIndex:
    """The index of one agent in the file ``path`` (None: in memory, when the file cannot be
    used). Opening a damaged file or one from another version deletes and rebuilds it; when
    even that fails, the index lives in memory for this process (logged once).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db = self._open()
        self.root_key: int | None = None
        self.scopes: dict[str, ScopeState] = {}
        self._version = -1
        self._stats: dict[str, FieldStats] = {}
        self.load()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return _connect(None)
        for attempt in range(2):
            try:
                return _connect(self.path)
            except (sqlite3.DatabaseError, OSError) as error:
                if attempt == 0 and isinstance(error, sqlite3.DatabaseError):
                    logger.warning("search index %s: %s; building it again", self.path, error)
                    self._remove()
                    continue
                logger.warning("search index %s unusable (%s): kept in memory", self.path, error)
        self.path = None
        return _connect(None)

    def _remove(self) -> None:
        assert self.path is not None
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def close(self) -> None:
        """Close the connection (the file stays)."""
        self.db.close()

    def reset(self) -> None:
        """Start again from an empty index (after the file turned out damaged mid-use)."""
        self.db.close()
        if self.path is not None:
            self._remove()
        self.db = self._open()
        self.load()

    # --- the mirror ---------------------------------------------------------------------------

    def load(self) -> None:
        """Read the mirror from the file (at open, and after another process wrote)."""
        self._version = self.db.execute("PRAGMA data_version").fetchone()[0]
        found = self.db.execute("SELECT value FROM meta WHERE key = 'root_key'").fetchone()
        self.root_key = None if found is None else int(found[0])
        self.scopes = {
            key: ScopeState(real, dir_key)
            for key, real, dir_key in self.db.execute("SELECT key, real, dir_key FROM scopes")
        }
        for scope, file, stat_key in self.db.execute("SELECT scope, file, stat_key FROM files"):
            state = self.scopes.get(scope)
            if state is not None:
                state.files[file] = stat_key
        self._stats.clear()

    def refresh_mirror(self) -> None:
        """Read the mirror again if another connection committed since it was read."""
        if self.db.execute("PRAGMA data_version").fetchone()[0] != self._version:
            self.load()

    def _wrote(self) -> None:
        # Our own commits do not move data_version for this connection.
        self._stats.clear()

    # --- writes -------------------------------------------------------------------------------

    def set_root_key(self, key: int | None) -> None:
        """Remember the memory root's stat key (None: list the root again next time)."""
        with _transaction(self.db):
            if key is None:
                self.db.execute("DELETE FROM meta WHERE key = 'root_key'")
            else:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('root_key', ?)", (str(key),))
        self.root_key = key

    def set_scope(self, key: str, real: str, dir_key: int | None) -> ScopeState:
        """Record scope ``key`` (its real folder and the folder's stat key after a listing)."""
        with _transaction(self.db):
            self.db.execute(
                "INSERT INTO scopes VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE "
                "SET real = excluded.real, dir_key = excluded.dir_key",
                (key, real, dir_key),
            )
        state = self.scopes.setdefault(key, ScopeState(real, dir_key))
        state.real, state.dir_key = real, dir_key
        return state

    def drop_scope(self, key: str) -> None:
        """Forget scope ``key`` and its files (the folder is gone)."""
        with _transaction(self.db):
            self._delete_rows("scope = ?", (key,))
            self.db.execute("DELETE FROM scopes WHERE key = ?", (key,))
        self.scopes.pop(key, None)
        self._wrote()

    def put(self, scope: str, topics: Iterable[Topic]) -> None:
        """Index (or index again) ``topics`` of ``scope``, in one transaction."""
        state = self.scopes[scope]
        with _transaction(self.db):
            for topic in topics:
                self._delete_rows("scope = ? AND file = ?", (scope, topic.file))
                fields = (topic.name_field, topic.description, topic.body)
                cursor = self.db.execute(
                    "INSERT INTO files (scope, file, stat_key, name, name_field, description, "
                    "body, name_len, description_len, body_len) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        scope,
                        topic.file,
                        topic.stat_key,
                        topic.name,
                        *fields,
                        *(field_length(text) for text in fields),
                    ),
                )
                self.db.execute(
                    "INSERT INTO docs (rowid, name, description, body) VALUES (?, ?, ?, ?)",
                    (cursor.lastrowid, *(index_text(text) for text in fields)),
                )
                state.files[topic.file] = topic.stat_key
        self._wrote()

    def drop(self, scope: str, files: Sequence[str]) -> None:
        """Forget ``files`` of ``scope`` (gone from the folder, or no topic file any more)."""
        state = self.scopes[scope]
        with _transaction(self.db):
            for file in files:
                self._delete_rows("scope = ? AND file = ?", (scope, file))
                state.files.pop(file, None)
        self._wrote()

    def _delete_rows(self, where: str, values: tuple[str, ...]) -> None:
        rows = self.db.execute(
            f"SELECT id, name_field, description, body FROM files WHERE {where}",  # noqa: S608
            values,
        ).fetchall()
        for rowid, *fields in rows:
            self.db.execute(
                "INSERT INTO docs (docs, rowid, name, description, body) "
                "VALUES ('delete', ?, ?, ?, ?)",
                (rowid, *(index_text(text) for text in fields)),
            )
        self.db.execute(f"DELETE FROM files WHERE {where}", values)  # noqa: S608

    # --- reads --------------------------------------------------------------------------------

    def count(self, query: Query, scope: str | None) -> int:
        """How many files match ``query`` (in ``scope`` when given)."""
        sql = "SELECT count(*) " + _MATCH.format(
            join=_JOIN if scope else "", scope=_IN_SCOPE if scope else ""
        )
        return int(self.db.execute(sql, {"match": query.fts, "scope": scope}).fetchone()[0])

    def candidates(self, query: Query, scope: str | None, limit: int) -> list[Row]:
        """The ``limit`` files FTS5's weighted ``bm25()`` ranks best, to be scored exactly."""
        sql = (
            "SELECT files.id, files.scope, files.file, files.name, files.name_field, "
            "files.description, files.body, files.name_len, files.description_len, "
            f"files.body_len {_MATCH.format(join=_JOIN, scope=_IN_SCOPE if scope else '')} "
            f"ORDER BY {_RANK} LIMIT :limit"
        )
        found = self.db.execute(sql, {"match": query.fts, "scope": scope, "limit": limit})
        return [
            Row(row[0], row[1], row[2], row[3], (row[4], row[5], row[6]), (row[7], row[8], row[9]))
            for row in found
        ]

    def stats(self, query: Query) -> FieldStats:
        """:class:`FieldStats` of the whole index for ``query``'s terms."""
        known = self._stats.get(query.fts)
        if known is not None:
            return known
        files, *averages = self.db.execute(
            "SELECT count(*), avg(name_len), avg(description_len), avg(body_len) FROM files"
        ).fetchone()
        holding = tuple(
            tuple(
                int(
                    self.db.execute(
                        "SELECT count(*) FROM docs WHERE docs MATCH ?",
                        (query.in_column(term, column),),
                    ).fetchone()[0]
                )
                for term in range(len(query.terms))
            )
            for column in FIELDS
        )
        stats = FieldStats(
            files=int(files),
            average_length=(averages[0] or 0.0, averages[1] or 0.0, averages[2] or 0.0),
            holding=(holding[0], holding[1], holding[2]),
        )
        if len(self._stats) > 64:
            self._stats.clear()
        self._stats[query.fts] = stats
        return stats
