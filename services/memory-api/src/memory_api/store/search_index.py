"""One agent's search index on disk (S-1): an SQLite file with an FTS5 table, under the app
data dir's own ``search/`` folder, never inside the memory root.

Tables: ``files`` (one small row per indexed topic file: scope, file, the stat key it was read
at, the lengths of its fields, why it could not be read when it could not, Q-2b), ``texts``
(beside it, by ``id``: its name, description and body as written — credentials masked, I-8,
hidden characters kept, shown as marks only in an answer, I-9), ``docs`` (a contentless FTS5
table over the same three fields as a person sees them,
:func:`~memory_api.store.search_text.visible_text`, and as
:func:`~memory_api.store.search_text.index_text` gives them, ``rowid`` = ``files.id``),
``scopes`` (each scope's real folder and the stat key of that folder when it was listed) and
``meta`` (what wrote the file, and the memory root's stat key).

Several service processes may share the file, on one host or on a shared volume (Q-4): it
uses SQLite's rollback journal, whose locks are POSIX byte-range locks — what the volume must
already provide for the service's own ``flock`` (docs/deploy.md) — and not WAL, whose shared
memory works only among processes of one host. The writes of one search go in one
``BEGIN IMMEDIATE`` transaction, committed every :data:`BATCH` rows (a first build of 100,000
files commits 100 times, not once per file or scope); a reader waits for a writer's commit at
most :data:`BUSY_TIMEOUT_S`. The index is
a cache of the files: one written by another version of the code (:func:`fingerprint`), or
found damaged, is deleted and built again from the files.

Each process keeps a mirror of ``scopes``, of the stat keys in ``files`` (a few hundred bytes
per file) and of the files that could not be read, to compare with the disk and name those
files without reading the table; when another process has
committed (``PRAGMA data_version`` moved) the mirror is read again.

Not thread-safe: the caller holds one lock per index.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import sqlite3
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import regex

from memory_api.store.cache_file import open_cache_file, rebuilt_level, remove_cache_file
from memory_api.store.search_rank import FIELD_WEIGHTS, FIELDS, FieldStats
from memory_api.store.search_text import (
    Query,
    field_length,
    index_text,
    sign_separators,
    visible_text,
)

__all__ = [
    "BUSY_TIMEOUT_S",
    "Row",
    "ScopeState",
    "SearchIndex",
    "Topic",
    "fingerprint",
]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 20
"""Raise when what is indexed changes without the schema text changing (2: a scope folder that
cannot be listed is indexed as unreadable; 3: text is indexed in its search form,
:func:`~memory_api.store.search_text.search_form`; 4: that form folds compatibility
characters and Turkish ``ı``, and math signs are words; 5: a sound mark written apart,
``ﾞ ﾟ ゛ ゜``, voices the kana before it: ``カﾞ`` is ``ガ``; hidden characters are indexed
shown as ``[hidden: …]``, I-9; a topic file in a legacy CJK encoding by its name alone; an
Arabic word holding the article with its parts, ``والنشر`` as ``والنشر النشر نشر``; a
zero-width space left out of a word, as Thai word breaks hold it; 6: text is indexed as a
person sees it, hidden characters left out, I-9: never their ``[hidden: …]`` marks, which an
answer puts in when it shows the text; an Indic word as pairs of its grapheme clusters; 7: a
UTF-8 file with a line of another encoding is indexed read line by line, not as cp1252; 8: Yi,
Tangut, Nushu, the Tai scripts, Ahom, Javanese and Balinese are unspaced runs,
:data:`~memory_api.store.search_text.UNSPACED_SCRIPTS`; 9: a word a zero-width non-joiner
parts, Persian ``می‌خواهم``, is indexed written without it too; a Hebrew word with its ends after
its prefixes, ``הקפה`` as ``הקפה קפה``; 10: a variation selector after a character that takes
none is hidden, I-9, left out of what is indexed; a file that could not be read is indexed with
no stat key, read again at the next search, never kept unreadable while its stat stays; 11:
the Latin letters with a stroke, ``ł đ ø ħ``, as the letter under it, ``æ œ þ ð`` as ``ae oe
th d``, and the Arabic letter forms written alike, ``أ إ آ ٱ ى ی ک ة``, as one; a flag, two
regional indicators, one word; katakana as hiragana; 12: an ideographic variation selector,
U+E0100–U+E01EF, and a Mongolian free one, U+180B–U+180D, U+180F, left out of a word as
U+FE00–U+FE0F are: ``葛\U000e0100城`` is ``葛城``; 13: an Arabic word holding a letter those
folds merge or merge onto is indexed as written too, its token marked, so the files writing a
query word as typed are fetched first; 14: the capitals SQLite's ``unicode61`` leaves
unfolded, Cherokee's, Georgian Mtavruli, every cased letter above plane 0, as small letters;
a run of combining grapheme joiners hidden whole, I-9; 15: a hard wrap between two characters
of an unspaced script left out, ``喝\\n咖啡`` indexed as ``喝咖啡`` (in a paragraph, never
in code nor before a sound mark), and a no-break, em, narrow or
ideographic space kept as a space, ``100\\u00a0km`` as two words; 16: a line break is a hard
wrap only after a line of 20 characters or more, never at a hard line break, and a body opening
with an indented code block keeps its indent: ``张三\\n李四``, a name a line, is two runs;
17: Markdown is indexed as a reader sees it rendered, S-2: ``[成语](https://x)接龙`` as
``成语接龙`` with its link target after the text; 18: a scope whose folder's place holds
something that is no folder of the root, a file or a symlink out of it, is indexed as
unusable, named by every search, K-6, Q-2b; 19: a Windows-1252 file holding a byte cp1252 does
not define, ``0x81``, is indexed read as cp1252 but on that byte's lines, never as Latin-1
throughout, T-2, its dashes no hidden U+0096; 20: each byte read as cp1252 on that line too,
only the undefined byte a C1 control, WHATWG's windows-1252, so ``Šárka`` is no hidden text)."""
BUSY_TIMEOUT_S = 30.0
"""How long a connection waits for another process's write transaction."""
BATCH = 1000
"""Rows written per transaction (another process's search waits at most for one)."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE scopes (key TEXT PRIMARY KEY, real TEXT NOT NULL, dir_key INTEGER);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    file TEXT NOT NULL,
    stat_key INTEGER,
    name_len INTEGER NOT NULL,
    description_len INTEGER NOT NULL,
    body_len INTEGER NOT NULL,
    unreadable TEXT,
    UNIQUE (scope, file)
);
CREATE TABLE texts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_field TEXT NOT NULL,
    description TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE VIRTUAL TABLE docs USING fts5(
    name, description, body, content = '', tokenize = "{tokenizer}"
);
"""
_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co M* So Sm' separators '{}'"


@functools.cache
def _schema() -> str:
    """The index file's schema, with the signs its tokenizer breaks words at
    (:func:`~memory_api.store.search_text.sign_separators`, found on first use)."""
    return _SCHEMA.format(tokenizer=_TOKENIZER.format(sign_separators()))


@functools.cache
def fingerprint() -> str:
    """What the index file was written by: the indexed text of a row must be derived again,
    identically, to delete the row from the contentless FTS5 table (and the stat keys are Python
    hashes); any change means a rebuild."""
    return (
        f"schema {SCHEMA_VERSION} {hashlib.sha256(_schema().encode()).hexdigest()[:16]}; "
        f"sqlite {sqlite3.sqlite_version}; regex {regex.__version__}; "
        f"unicode {unicodedata.unidata_version}; python {sys.version_info[0]}.{sys.version_info[1]}"
    )


_RANK = f"bm25(docs, {', '.join(str(weight) for weight in FIELD_WEIGHTS)})"
# FTS5's own bm25(), weighted: C-speed over every match, it picks the candidates that
# search_rank then scores exactly (its idf and length norm are the row's, not the field's).
_IN_SCOPE = "AND rowid IN (SELECT id FROM files WHERE scope = :scope)"
# Only constants are put together here (no value ever enters the SQL text).
_COUNT = "SELECT count(*) FROM docs WHERE docs MATCH :match "
_CANDIDATES = (
    "SELECT files.id, scope, file, name, name_field, description, body, name_len, "  # noqa: S608
    "description_len, body_len FROM ("
    f"SELECT rowid AS id, {_RANK} AS rank FROM docs WHERE docs MATCH :match {{scope}} "
    "ORDER BY rank LIMIT :limit) AS best JOIN files USING (id) JOIN texts USING (id) "
    "ORDER BY best.rank"
)
_ROWS_OF_FILE = "scope = :scope AND file = :file"
_ROWS_OF_SCOPE = "scope = :scope"


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic file to index: its fields as written (masked) and its stat key (None: racy);
    ``unreadable`` says why a file that is there could not be read (Q-2b: then only its name
    is indexed, and every search names it)."""

    file: str
    stat_key: int | None
    name: str
    name_field: str
    description: str
    body: str
    unreadable: str | None = None


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
    return open_cache_file(path, _schema(), fingerprint(), timeout_s=BUSY_TIMEOUT_S)


def _indexed(text: str) -> str:
    """What FTS5 indexes of a field as written: the text a person sees (hidden characters
    left out, I-9), pieced (:func:`~memory_api.store.search_text.index_text`)."""
    return index_text(visible_text(text))


def _inode(path: Path) -> int:
    try:
        return path.stat().st_ino
    except OSError:
        return -1


class SearchIndex:
    """The index of one agent in the file ``path`` (None: in memory, when the file cannot be
    used). Opening a damaged file or one from another version deletes and rebuilds it; when
    even that fails, the index lives in memory for this process (logged once).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._inode = -1
        self.db = self._open()
        self.root_key: int | None = None
        self.scopes: dict[str, ScopeState] = {}
        self._unreadable: dict[tuple[str, str], str] = {}
        self._version = -1
        self._pending = 0
        self._stats: dict[str, FieldStats] = {}
        self.load()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return _connect(None)
        for attempt in range(2):
            try:
                db = _connect(self.path)
                self._inode = self.path.stat().st_ino
                return db
            except (sqlite3.DatabaseError, OSError) as error:
                if attempt == 0 and isinstance(error, sqlite3.DatabaseError):
                    logger.log(
                        rebuilt_level(error),
                        "search index %s: %s; building it again",
                        self.path,
                        error,
                    )
                    self._remove()
                    continue
                logger.warning("search index %s unusable (%s): kept in memory", self.path, error)
        self.path = None
        return _connect(None)

    def _remove(self) -> None:
        assert self.path is not None
        remove_cache_file(self.path)

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
        self._unreadable = {}
        rows = self.db.execute("SELECT scope, file, stat_key, unreadable FROM files")
        for scope, file, stat_key, why in rows:
            state = self.scopes.get(scope)
            if state is not None:
                state.files[file] = stat_key
            if why is not None:
                self._unreadable[scope, file] = why
        self._stats.clear()

    def refresh_mirror(self) -> bool:
        """Read the mirror again if another connection committed since it was read; open the
        file again if another process replaced it (it found this one damaged or old). Whether
        it was read again."""
        if self.path is not None and _inode(self.path) != self._inode:
            self.db.close()
            self.db = self._open()
            self.load()
            return True
        if self.db.execute("PRAGMA data_version").fetchone()[0] != self._version:
            self.load()
            return True
        return False

    # --- writes -------------------------------------------------------------------------------

    def _write(self, rows: int = 1) -> None:
        """Count ``rows`` written (opening the transaction first); commit every :data:`BATCH`."""
        self._stats.clear()
        self._pending += rows
        if self._pending >= BATCH:
            self.commit()

    def _begin(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN IMMEDIATE")
            self._pending = 0

    def commit(self) -> None:
        """Commit what was written (our own commits do not move ``data_version`` for us)."""
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        self._pending = 0

    def abandon(self) -> None:
        """Roll back what was not committed and read the mirror again (after an error)."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        self._pending = 0
        self.load()

    def set_root_key(self, key: int | None) -> None:
        """Remember the memory root's stat key (None: list the root again next time)."""
        self._begin()
        if key is None:
            self.db.execute("DELETE FROM meta WHERE key = 'root_key'")
        else:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('root_key', ?)", (str(key),))
        self._write()
        self.root_key = key

    def set_scope(self, key: str, real: str, dir_key: int | None) -> ScopeState:
        """Record scope ``key`` (its real folder and the folder's stat key after a listing)."""
        self._begin()
        self.db.execute(
            "INSERT INTO scopes VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE "
            "SET real = excluded.real, dir_key = excluded.dir_key",
            (key, real, dir_key),
        )
        self._write()
        state = self.scopes.setdefault(key, ScopeState(real, dir_key))
        state.real, state.dir_key = real, dir_key
        return state

    def drop_scope(self, key: str) -> None:
        """Forget scope ``key`` and its files (the folder is gone)."""
        self._begin()
        self._write(self._delete_rows(_ROWS_OF_SCOPE, {"scope": key}))
        self.db.execute("DELETE FROM scopes WHERE key = ?", (key,))
        self.scopes.pop(key, None)
        for where in [where for where in self._unreadable if where[0] == key]:
            del self._unreadable[where]

    def put(self, scope: str, topic: Topic) -> None:
        """Index (or index again) ``topic`` of ``scope``."""
        self._begin()
        self._delete_rows(_ROWS_OF_FILE, {"scope": scope, "file": topic.file})
        fields = (topic.name_field, topic.description, topic.body)
        shown = [visible_text(text) for text in fields]  # once each: the costly part (S-2)
        cursor = self.db.execute(
            "INSERT INTO files (scope, file, stat_key, name_len, description_len, body_len, "
            "unreadable) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                scope,
                topic.file,
                topic.stat_key,
                *(field_length(text) for text in shown),
                topic.unreadable,
            ),
        )
        self.db.execute(
            "INSERT INTO texts VALUES (?, ?, ?, ?, ?)", (cursor.lastrowid, topic.name, *fields)
        )
        self.db.execute(
            "INSERT INTO docs (rowid, name, description, body) VALUES (?, ?, ?, ?)",
            (cursor.lastrowid, *(index_text(text) for text in shown)),
        )
        self.scopes[scope].files[topic.file] = topic.stat_key
        if topic.unreadable is None:
            self._unreadable.pop((scope, topic.file), None)
        else:
            self._unreadable[scope, topic.file] = topic.unreadable
        self._write()

    def drop(self, scope: str, file: str) -> None:
        """Forget ``file`` of ``scope`` (gone from the folder, or no topic file any more)."""
        self._begin()
        self._write(self._delete_rows(_ROWS_OF_FILE, {"scope": scope, "file": file}))
        self.scopes[scope].files.pop(file, None)
        self._unreadable.pop((scope, file), None)

    def _delete_rows(self, where: str, values: dict[str, str]) -> int:
        """Delete the rows ``where`` (:data:`_ROWS_OF_FILE` or :data:`_ROWS_OF_SCOPE`)."""
        rows = self.db.execute(
            "SELECT id, name_field, description, body FROM texts "  # noqa: S608 - constants
            f"WHERE id IN (SELECT id FROM files WHERE {where})",
            values,
        ).fetchall()
        for rowid, *fields in rows:
            self.db.execute(
                "INSERT INTO docs (docs, rowid, name, description, body) "
                "VALUES ('delete', ?, ?, ?, ?)",
                (rowid, *(_indexed(text) for text in fields)),
            )
            self.db.execute("DELETE FROM texts WHERE id = ?", (rowid,))
        self.db.execute(f"DELETE FROM files WHERE {where}", values)  # noqa: S608 - constants
        return len(rows)

    # --- reads --------------------------------------------------------------------------------

    def count(self, query: Query, scope: str | None) -> int:
        """How many files match ``query`` (in ``scope`` when given)."""
        sql = _COUNT + (_IN_SCOPE if scope else "")
        return int(self.db.execute(sql, {"match": query.fts, "scope": scope}).fetchone()[0])

    def candidates(self, query: Query, scope: str | None, limit: int) -> list[Row]:
        """The ``limit`` files FTS5's weighted ``bm25()`` ranks best, to be scored exactly."""
        sql = _CANDIDATES.format(scope=_IN_SCOPE if scope else "")
        found = self.db.execute(sql, {"match": query.fts, "scope": scope, "limit": limit})
        return [
            Row(row[0], row[1], row[2], row[3], (row[4], row[5], row[6]), (row[7], row[8], row[9]))
            for row in found
        ]

    def unreadable(self, scope: str | None) -> list[tuple[str, str, str]]:
        """``(scope, file, why)`` of the indexed files that could not be read (Q-2b), in
        ``scope`` when given, sorted; from the mirror."""
        return sorted(
            (key, file, why)
            for (key, file), why in self._unreadable.items()
            if scope is None or key == scope
        )

    def unreadable_in(self, scope: str, file: str) -> str | None:
        """Why ``file`` of ``scope`` could not be read when it is indexed so, else None."""
        return self._unreadable.get((scope, file))

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
