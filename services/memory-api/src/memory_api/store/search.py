"""Full-text search over every scope of an agent (S-1): SQLite FTS5 from the standard library.

Each process keeps, per agent, an in-memory FTS5 table of the topic files (name — with the file
stem, so ``feedback_prefers_uv`` is found by ``prefers`` — description and body) and the stat
key each row was built from (:func:`~memory_api.store.stat_cache.file_key`; a file changed in
the last moments is judged afresh every time). **Every search first re-scans the
agent's scopes** (one directory listing per scope and one ``lstat`` per file) and re-indexes
exactly the files whose stat key changed, drops the ones gone and adds the new ones, so a change
on disk — by an agent's file tools, another service process or an import — is seen by the next
search (S-1, Q-4) without any state another process would need. Parsing goes through the
stat-keyed :class:`~memory_api.store.topic_cache.TopicCache` the listing uses.

Ranking is FTS5's BM25 with the name weighted over the description over the body
(:data:`COLUMN_WEIGHTS`). Each hit carries a snippet of the best matching column as parts with
a ``hit`` flag, so a client highlights without ever parsing markup. Likely credentials are
masked before indexing (I-8): a secret can neither be found by search nor shown in a snippet.

The query is the user's words, never FTS5 syntax: each word is quoted and they must all match,
the last one as a prefix (search as you type). Tokenizer ``unicode61`` with diacritics removed,
so ``uber`` finds ``Über``; a CJK run is one token, found by a prefix of it.

Blocking and thread-safe (one lock per agent index): run searches in worker threads.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.credentials import mask_secret_lines
from memory_core.errors import InvalidId
from memory_core.topics import ParsedTopic
from memory_core.wire import SearchHit, SearchResults, SnippetPart

from memory_api.errors import BadRequest
from memory_api.store.scopes import TopicEntry, list_scopes, topic_entry
from memory_api.store.stat_cache import FileKey, file_key, is_racy
from memory_api.store.topic_cache import TopicCache

__all__ = [
    "COLUMN_WEIGHTS",
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MemorySearch",
    "fts_query",
]

COLUMN_WEIGHTS = (10.0, 4.0, 1.0)
"""BM25 weights of the name, description and body columns."""
MAX_QUERY_CHARS = 500
MAX_LIMIT = 100
SNIPPET_TOKENS = 16
"""Roughly how many words a snippet shows around the matches."""
MAX_AGENTS = 16
"""How many agents' indexes one process keeps (least recently searched dropped first)."""
_OPEN, _CLOSE, _ELLIPSIS = "\ue000", "\ue001", "…"
_WORD = re.compile(r"\w+")
_MARKS = re.compile(f"{_OPEN}(.*?){_CLOSE}", re.DOTALL)
_WEIGHT_NAMES = ("name_weight", "description_weight", "body_weight")
_COUNT_SQL = """
SELECT count(*) FROM docs WHERE docs MATCH :match AND (:scope IS NULL OR scope = :scope)
"""
# The snippet comes from the body, else the description (whichever holds a match); a hit by its
# name alone shows the start of its body.
_SEARCH_SQL = """
SELECT scope, file, name, description,
       bm25(docs, 0, 0, :name_weight, :description_weight, :body_weight) AS rank,
       snippet(docs, 4, :open, :close, :ellipsis, :tokens),
       snippet(docs, 3, :open, :close, :ellipsis, :tokens)
FROM docs WHERE docs MATCH :match AND (:scope IS NULL OR scope = :scope)
ORDER BY rank LIMIT :limit
"""


def fts_query(text: str) -> str | None:
    """Turn the user's words into an FTS5 query: every word quoted, all required, last a prefix.

    Returns None when the text holds no word (only spaces or punctuation: nothing can match).
    Raises :class:`BadRequest` when the text is empty or too long.

    >>> fts_query('deploy "notes')
    '"deploy" "notes"*'
    >>> fts_query("?!") is None
    True
    """
    if not text:
        raise BadRequest("q is required: the words to find")
    if len(text) > MAX_QUERY_CHARS:
        raise BadRequest(f"q must be at most {MAX_QUERY_CHARS} characters")
    words = _WORD.findall(text)
    if not words:
        return None
    quoted = [f'"{word}"' for word in words]
    quoted[-1] += "*"
    return " ".join(quoted)


def topic_entry_or_none(root: Path, scope: Path, name: str) -> TopicEntry | None:
    """:func:`~memory_api.store.scopes.topic_entry`, None for a name that fails K-7 too."""
    try:
        return topic_entry(root, scope, name)
    except InvalidId:
        return None


def _masked(text: str) -> str:
    return "\n".join(mask_secret_lines(text.split("\n")))


def _name_column(topic: ParsedTopic) -> str:
    stem = topic.file.removesuffix(".md")
    return topic.name if topic.name == stem else f"{topic.name} {stem}"


def _parts(snippet: str) -> list[SnippetPart]:
    """Split an FTS5 snippet with private-use marks into plain and highlighted parts."""
    parts: list[SnippetPart] = []
    position = 0
    for match in _MARKS.finditer(snippet):
        if match.start() > position:
            parts.append(SnippetPart(text=snippet[position : match.start()], hit=False))
        parts.append(SnippetPart(text=match.group(1), hit=True))
        position = match.end()
    if position < len(snippet):
        parts.append(SnippetPart(text=snippet[position:], hit=False))
    return parts


@dataclass(slots=True)
class _AgentIndex:
    """One agent's FTS5 table and, per scope and file name, its row id and stat key.

    ``valid_names`` remembers the file names that passed K-7, so a search over thousands of
    unchanged files does not check every name again.
    """

    db: sqlite3.Connection
    rows: dict[str, dict[str, tuple[int, FileKey | None]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    valid_names: set[str] = field(default_factory=set)


def _delete(index: _AgentIndex, rowid: int) -> None:
    index.db.execute("DELETE FROM docs WHERE rowid = ?", (rowid,))


def _new_index() -> _AgentIndex:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(scope UNINDEXED, file UNINDEXED, name, "
        "description, body, tokenize = 'unicode61 remove_diacritics 2')"
    )
    return _AgentIndex(db)


class MemorySearch:
    """The search indexes of this process, one per agent, validated by stat on every search.

    ``cache`` is the parse cache shared with the listings.
    """

    def __init__(self, cache: TopicCache, *, max_agents: int = MAX_AGENTS) -> None:
        self.cache = cache
        self.max_agents = max_agents
        self._indexes: OrderedDict[Path, _AgentIndex] = OrderedDict()
        self._lock = threading.Lock()

    def _index_for(self, root: Path) -> _AgentIndex:
        with self._lock:
            index = self._indexes.get(root)
            if index is None:
                index = self._indexes[root] = _new_index()
            self._indexes.move_to_end(root)
            while len(self._indexes) > self.max_agents:
                _, dropped = self._indexes.popitem(last=False)
                dropped.db.close()
            return index

    def _store(self, index: _AgentIndex, key: str, entry: TopicEntry) -> None:
        """(Re-)index one topic file of scope ``key``; a file gone meanwhile is dropped."""
        known = index.rows.setdefault(key, {})
        old = known.pop(entry.file, None)
        if old is not None:
            _delete(index, old[0])
        try:
            topic, info = self.cache.load(entry.real, entry.file, entry.stat)
        except OSError:
            return  # gone or unreadable since the scan: not found, like the listing
        fields: tuple[str, ...] = (_name_column(topic), topic.description or "", topic.body)
        # The file's lint (memoised with its parse, shared with the overview) says whether it
        # holds a likely credential; only then is the costlier masking run (I-8).
        if any(finding.code == "secret" for finding in self.cache.lint(entry.real, topic)):
            fields = tuple(_masked(text) for text in fields)
        cursor = index.db.execute(
            "INSERT INTO docs (scope, file, name, description, body) VALUES (?, ?, ?, ?, ?)",
            (key, entry.file, *fields),
        )
        version = file_key(info)
        # A file changed in the last moments may change again within its timestamp: its row is
        # kept but judged afresh by the next search (the parse cache's rule, stat_cache).
        known[entry.file] = (cursor.lastrowid or 0, None if is_racy(version) else version)

    def _refresh_scope(self, root: Path, index: _AgentIndex, key: str, scope: Path) -> None:
        """Re-index the changed and new files of one scope, drop the ones gone (S-1).

        The common case — a regular file whose name is known to pass K-7 and whose stat key is
        unchanged — costs one ``lstat`` through the directory entry and two dict lookups; new
        names and symlinks get the listing's full judgement (K-7, A-7).
        """
        known = index.rows.setdefault(key, {})
        valid = index.valid_names
        seen: list[str] = []
        try:
            entries = list(os.scandir(scope))
        except OSError:
            entries = []
        for entry in entries:
            name = entry.name
            if not name.endswith(".md"):
                continue
            info = None
            if name in valid:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone since the listing
            if info is not None and stat.S_ISREG(info.st_mode):
                old = known.get(name)
                if old is None or old[1] != file_key(info):
                    self._store(index, key, TopicEntry(name, str(scope / name), info))
                seen.append(name)
                continue
            found = topic_entry_or_none(root, scope, name)
            if found is not None:
                valid.add(name)
                old = known.get(name)
                if old is None or old[1] != file_key(found.stat):
                    self._store(index, key, found)
                seen.append(name)
        if len(seen) != len(known):  # new files were stored, so equal sizes mean none is gone
            for name in known.keys() - set(seen):
                _delete(index, known.pop(name)[0])

    def _refresh(self, root: Path, index: _AgentIndex) -> None:
        """Bring the table in line with the disk: every scope, and scopes that are gone."""
        keys: set[str] = set()
        for key, scope in list_scopes(root):
            keys.add(key)
            self._refresh_scope(root, index, key, scope)
        for key in index.rows.keys() - keys:
            for rowid, _ in index.rows.pop(key).values():
                _delete(index, rowid)

    def search(self, root: Path, query: str, *, scope: str | None, limit: int) -> SearchResults:
        """Search the agent whose real memory root is ``root``; best hits first, at most
        ``limit`` of them, only in scope ``scope`` when given. ``total`` counts every match.

        A query without a word finds nothing. Raises :class:`BadRequest` for an empty or too
        long query or a bad ``limit``.
        """
        match = fts_query(query)
        if not 1 <= limit <= MAX_LIMIT:
            raise BadRequest(f"limit must be between 1 and {MAX_LIMIT}")
        if match is None:
            return SearchResults(query=query, scope=scope, total=0, hits=[])
        index = self._index_for(root)
        with index.lock:
            self._refresh(root, index)
            filters = {"match": match, "scope": scope}
            count = int(index.db.execute(_COUNT_SQL, filters).fetchone()[0])
            rows = index.db.execute(
                _SEARCH_SQL,
                {
                    **filters,
                    **dict(zip(_WEIGHT_NAMES, COLUMN_WEIGHTS, strict=True)),
                    "open": _OPEN,
                    "close": _CLOSE,
                    "ellipsis": _ELLIPSIS,
                    "tokens": SNIPPET_TOKENS,
                    "limit": limit,
                },
            ).fetchall()
        hits = [
            SearchHit(
                scope=row[0],
                file=row[1],
                name=self._display_name(row[1], row[2]),
                description=row[3] or None,
                score=-float(row[4]),
                snippet=_parts(row[5] if _OPEN in row[5] or _OPEN not in row[6] else row[6]),
            )
            for row in rows
        ]
        return SearchResults(query=query, scope=scope, total=count, hits=hits)

    @staticmethod
    def _display_name(file: str, name_column: str) -> str:
        stem = file.removesuffix(".md")
        suffix = f" {stem}"
        if name_column.endswith(suffix) and name_column != stem:
            return name_column.removesuffix(suffix)
        return name_column
