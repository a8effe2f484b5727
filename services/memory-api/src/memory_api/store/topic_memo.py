"""What a listing derives from each topic file, kept on disk by the file's stat (A-5, issue 30).

Listing a scope of 5,000 topic files the first time after a start parses every file (YAML) and
screens every body for credentials (T-5, T-6): seconds of CPU, all of it a pure function of
each file's content. :class:`TopicMemo` keeps that result on disk beside the data, in
``<data dir>/memo/topics.sqlite3`` (0600, in a 0700 folder), under the same identity the
in-memory cache uses: the file's real path, the name it was listed under, and the
:func:`~memory_api.store.stat_cache.file_key` of the version it was read from. A row is served
only while a fresh ``lstat`` of the file gives that very key, so a file changed, replaced or
touched by any process is read again (Q-4), as with :mod:`~memory_api.store.stat_cache`; a
version changed less than 2 s ago is never stored (its racy rule).

A row is a :class:`LightTopic`: the file's listing row (masked, I-8), its own lint findings,
and what a scope's lint still reads of the file (its name as written, its problems and
``[[links]]`` with the lines they are first on; no description, no body text): no more than
the listing answers but the frontmatter ``name`` unmasked. A row may also hold that ``name``
alone (:meth:`TopicMemo.put_names`): a page whose ``[[link]]`` names no file asks every
topic's ``name`` (T-5b), and after a restart those of files never shown on a page are read
from here, not parsed again (:meth:`TopicMemo.names`). It is written
by the code of one version only: :data:`FINGERPRINT` covers the sources that derive it and the
parser's version; a file written by another is built again at open.

The memo is a cache: any error using it (a damaged file, a locked one, a full disk) is logged
once and the memo switched off for this process, never failing a request. Thread-safe.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
import yaml
from memory_core import json_text
from memory_core.topics import ParsedTopic
from memory_core.wire import Finding, TopicSummary

from memory_api.store.cache_file import (
    open_cache_file,
    rebuilt_level,
    remove_cache_file,
    source_digest,
    transaction,
)
from memory_api.store.stat_cache import FileKey, is_racy

__all__ = ["FINGERPRINT", "MEMO_FILE", "LightTopic", "TopicMemo", "light"]

logger = logging.getLogger(__name__)

MEMO_FILE = Path("memo") / "topics.sqlite3"
"""Where the memo lives, under the data dir."""
BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another process's; past it the rows are simply not stored."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE topics (
    path TEXT NOT NULL,
    file TEXT NOT NULL,
    scope TEXT NOT NULL,
    stat_key BLOB NOT NULL,
    name TEXT NOT NULL,
    value BLOB,
    PRIMARY KEY (path, file)
) WITHOUT ROWID;
CREATE INDEX topics_by_scope ON topics (scope);
"""


def _fingerprint() -> str:
    """What derives a row: every ``memory_core`` source (parse, lint, credential screen), the
    service modules that build the row, the schema, and the YAML parser's and msgspec's
    versions (:func:`~memory_api.store.cache_file.source_digest`). Any change builds the memo again.
    ``""`` when the sources are not there to digest (then no memo is kept)."""
    here = Path(__file__).resolve().parent
    versions = (
        f"{_SCHEMA} yaml {yaml.__version__}; msgspec {msgspec.__version__}; {sys.version_info[:2]}"
    )
    return source_digest(here / "answers.py", here / "topic_memo.py", versions=versions)[:32]


FINGERPRINT = _fingerprint()
"""What the rows of a memo file were derived by (see :func:`_fingerprint`)."""


class LightTopic(ParsedTopic, frozen=True, kw_only=True):
    """A topic file version as its memo row holds it: a :class:`~memory_core.topics.ParsedTopic`
    less what a scope's lint does not read once each file's own findings are kept (no
    description, no hidden-text lines; a ``body`` holding, on the line each ``[[link]]`` is first
    found on, only that link's opening ``[[target``, every other line blank, so a dangling link's
    line is the same, :func:`memory_core.lint.lint_links`), with the file's listing ``row``
    (masked, I-8) and its own lint ``findings`` (:func:`memory_core.lint.lint_topic`).

    It stands for the file in a listing and a scope's lint and nowhere else: its row and
    findings are the file's; never read its description or body as the file's."""

    row: TopicSummary
    findings: list[Finding]


def light(topic: ParsedTopic, row: TopicSummary, findings: list[Finding]) -> LightTopic:
    """The :class:`LightTopic` of ``topic``, whose listing row and own findings are given."""
    lines = topic.body.split("\n")
    kept = [""] * len(lines)
    for target in topic.links:
        needle = f"[[{target}"
        at = next((number for number, line in enumerate(lines) if needle in line), None)
        if at is not None:
            kept[at] = f"{kept[at]} {needle}" if kept[at] else needle
    while kept and not kept[-1]:
        kept.pop()
    fields = msgspec.structs.asdict(topic) | {
        "description": None,
        "body": "\n".join(kept),
        "hidden": (),
    }
    return LightTopic(**fields, row=row, findings=findings)


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(LightTopic)
_key_decoder = msgspec.msgpack.Decoder(tuple[int, int, int, int, int])


class TopicMemo:
    """The memo file at ``path`` (None: no memo, every lookup a miss), opened (made, if need
    be) at its first use: a command that lists nothing (``memory import --dry-run``, ``agent
    create``) leaves no memo file behind."""

    def __init__(self, path: Path | None) -> None:
        self._lock = threading.Lock()
        self._path = path if FINGERPRINT else None
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection | None:
        """The open memo (opened now on first use), or None: none, or unusable. Under the lock."""
        if self._path is not None:
            path, self._path = self._path, None
            try:
                self._db = _open(path)
            except (OSError, sqlite3.Error) as error:
                logger.warning("listing memo %s unusable (%s): not kept on disk", path, error)
        return self._db

    def get(self, path: str, file: str, key: FileKey) -> LightTopic | None:
        """The row of ``file`` listed at the real ``path``, if stored for the version ``key``."""
        with self._lock:
            db = self._connection()
            if db is None:
                return None
            try:
                found = db.execute(
                    "SELECT stat_key, value FROM topics WHERE path = ? AND file = ?", (path, file)
                ).fetchone()
            except sqlite3.Error as error:
                self._off_unless_busy(error)
                return None
        if found is None or found[1] is None:
            return None
        try:  # a damaged row is no row: the file is parsed, as with no memo
            if json_text.decode(_key_decoder, found[0]) != key:
                return None
            return json_text.decode(_decoder, found[1])
        except (msgspec.DecodeError, TypeError):
            return None

    def names(self, scope: str) -> dict[tuple[str, str], tuple[FileKey, str]]:
        """The frontmatter ``name`` of each file of the real scope folder ``scope`` the memo
        holds, by ``(path, file)``, with the version (stat key) it is that file's name for:
        serve one only while a fresh ``lstat`` of the file gives that key."""
        with self._lock:
            db = self._connection()
            if db is None:
                return {}
            try:
                rows = db.execute(
                    "SELECT path, file, stat_key, name FROM topics WHERE scope = ?", (scope,)
                ).fetchall()
            except sqlite3.Error as error:
                self._off_unless_busy(error)
                return {}
        kept: dict[tuple[str, str], tuple[FileKey, str]] = {}
        for path, file, key, name in rows:
            try:  # a damaged row is no row: its file is parsed, as with no memo
                decoded = json_text.decode(_key_decoder, key)
            except (msgspec.DecodeError, TypeError):
                continue
            if isinstance(path, str) and isinstance(file, str) and isinstance(name, str):
                kept[(path, file)] = (decoded, name)
        return kept

    def put(
        self,
        scope: str,
        rows: Iterable[tuple[str, str, FileKey, LightTopic]],
        listed: Iterable[str],
    ) -> None:
        """Store ``rows`` of the real scope folder ``scope`` (``(path, file, key, memo)``, a
        racily fresh key skipped) and forget its other files but those ``listed`` (its topic
        files now), in one transaction."""
        values = [
            (path, file, scope, _encoder.encode(key), topic.name, _encoder.encode(topic))
            for path, file, key, topic in rows
            if not is_racy(key)
        ]
        forget = (scope, msgspec.json.encode(list(listed)).decode())
        self._write(
            ("INSERT OR REPLACE INTO topics VALUES (?, ?, ?, ?, ?, ?)", values),
            (
                "DELETE FROM topics WHERE scope = ? AND file NOT IN "
                "(SELECT value FROM json_each(?))",
                [forget],
            ),
        )

    def put_names(self, scope: str, names: Iterable[tuple[str, str, FileKey, str]]) -> None:
        """Store the frontmatter ``name`` of files of the real scope folder ``scope`` (``(path,
        file, key, name)``, a racily fresh key skipped), the name alone: a row of the same
        version, which holds it already, is left as it is; one of another version replaced."""
        values = [
            (path, file, scope, _encoder.encode(key), name)
            for path, file, key, name in names
            if not is_racy(key)
        ]
        if not values:
            return
        self._write(
            (
                "INSERT INTO topics VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (path, file) DO "
                "UPDATE SET scope = excluded.scope, stat_key = excluded.stat_key, "
                "name = excluded.name, value = NULL WHERE stat_key != excluded.stat_key",
                values,
            ),
        )

    def _write(self, *statements: tuple[str, Sequence[tuple[object, ...]]]) -> None:
        """Run each statement over its rows, all in one transaction; a busy memo (another
        process writing) skips them, any other error switches the memo off."""
        with self._lock:
            db = self._connection()
            if db is None:
                return
            try:
                with transaction(db):
                    for sql, rows in statements:
                        db.executemany(sql, rows)
            except sqlite3.Error as error:
                self._off_unless_busy(error)  # busy: these rows are stored another time

    def _off_unless_busy(self, error: sqlite3.Error) -> None:
        """Switch the memo off for ``error``, unless another process holds it (locked, busy):
        then only this use goes without it."""
        if isinstance(error, sqlite3.OperationalError) and (
            "locked" in str(error) or "busy" in str(error)
        ):
            return
        self._off(error)

    def _off(self, error: sqlite3.Error) -> None:
        logger.warning("listing memo unusable (%s): not kept on disk from now on", error)
        if self._db is not None:
            self._db.close()
            self._db = None


def _open(path: Path) -> sqlite3.Connection:
    """Open the memo file (:func:`~memory_api.store.cache_file.open_cache_file`); remove it and
    create it again when it is damaged or another version of the code wrote it."""
    try:
        return open_cache_file(path, _SCHEMA, FINGERPRINT, timeout_s=BUSY_TIMEOUT_S)
    except sqlite3.DatabaseError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise
        logger.log(rebuilt_level(error), "listing memo %s: %s; built again", path, error)
    remove_cache_file(path)
    return open_cache_file(path, _SCHEMA, FINGERPRINT, timeout_s=BUSY_TIMEOUT_S)
