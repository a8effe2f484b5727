"""Full-text search over every scope of an agent (S-1), on an index kept on disk.

The index of each agent is an SQLite FTS5 file under ``<data dir>/search/``
(:mod:`.search_index`), shared by every service process on the data dir and kept across
restarts. **Every search first brings it up to date with the disk, by stat**: the memory root's
folder (a scope added or removed changes it), each scope's folder (a file added, removed or
renamed changes it; an unchanged one is not listed again) and each indexed file (``lstat``: an
edit in place changes only the file). Exactly the files whose stat key moved are read and indexed
again, the ones gone dropped, the new ones added — so a change on disk, by an agent's file tools,
another service process or an import, is seen by the next search (S-1, Q-4), and the first search
after a restart costs those ``stat`` calls, not a reading of every file. With the process's
change feed (:mod:`.change_feed`, inotify on a local filesystem) a search after the first checks
only the scopes whose folder an event named since the last one (and those the feed cannot vouch
for); every scope again after the queue overflowed or another process wrote the index. Likely
credentials are masked before indexing (I-8): a secret can neither be found by search nor shown
in a snippet. Hidden text (I-9) is searched as a person sees it, its characters left out (a
word spelt in tag characters is not found, ``password`` finds ``pass\u200bword``), and an
answer shows each run as its mark, ``[hidden: 67 tag characters]``: a snippet an agent reads
carries nothing a person cannot see, and ``hidden`` finds only a note that says it.

Matching, ranking and highlighting: :mod:`.search_text` (words in any script, a run of Chinese,
Japanese, Korean or Thai found anywhere inside, in the text as rendered: :mod:`.search_markup`,
``[成语](https://x)接龙`` found by ``成语接龙``, S-2), :mod:`.search_rank` (BM25 per field, name and
description weighted over the body). FTS5 counts the matches and picks the
:data:`CANDIDATES` best by its own weighted ``bm25()``; those are scored exactly and the best
``limit`` returned, each with its name and description marked and a passage of its body.

Blocking and thread-safe (one lock per agent index): run searches in worker threads.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.credentials import mask_secret_lines
from memory_core.decoding import NOT_DECODED
from memory_core.errors import InvalidId
from memory_core.hidden_text import show_hidden
from memory_core.topics import READ_CAP_BYTES, ParsedTopic, parse_topic
from memory_core.wire import Finding, SearchHit, SearchResults, SnippetPart

from memory_api.errors import BadRequest
from memory_api.store.change_feed import ChangeFeed, FeedReader, Look, RootFeed
from memory_api.store.containment import NotRegularFileError, cannot_read, read_regular
from memory_api.store.listed_text import cut_parts, listed
from memory_api.store.locks import LockTimeoutError
from memory_api.store.recently_used import RecentlyUsed
from memory_api.store.scopes import (
    NOT_A_FOLDER_WHY,
    TopicEntry,
    scan_scope,
    scope_real_dir,
    scopes_and_blocked,
    topic_entry,
)
from memory_api.store.search_index import Row, ScopeState, SearchIndex, Topic
from memory_api.store.search_rank import FieldStats, score
from memory_api.store.search_text import (
    Query,
    Shown,
    marked_parts,
    parse_query,
    shown_matches,
    snippet,
)
from memory_api.store.stat_cache import file_key, is_racy

__all__ = [
    "CANDIDATES",
    "INDEX_FOLDER",
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MAX_QUERY_TERMS",
    "SCORED_CHARS",
    "MemorySearch",
]

logger = logging.getLogger(__name__)

INDEX_FOLDER = "search"
"""The data dir's folder holding one ``<agent id>.sqlite3`` index per agent."""
MAX_QUERY_CHARS = 500
MAX_QUERY_TERMS = 32
"""Distinct words (or runs of unspaced script) one query may hold: each is matched through
every candidate's text, so the cost of a search grows with them (about 35 ms a word over a
600 KB topic)."""
MAX_LIMIT = 100
CANDIDATES = MAX_LIMIT
"""How many of FTS5's best matches are scored exactly (as many as an answer may hold, so a
larger ``limit`` only shows more of the same order)."""
SCORED_CHARS = 65_536
"""How much of each field of a candidate is matched (characters from its start): its matches
are counted for the score, marked and shown in its snippet. Matching is linear in the text, so
one search matches at most :data:`CANDIDATES` times three times this (and each shown name
again), however large the topic files (1 MiB each: 100 of them were 100 MB matched per query
word). A term FTS5 found in a candidate (every candidate holds every term) that none of those
parts holds is in the rest of a longer field: it counts once there. When that field is the body
of a hit shown with no match in this part, its snippet is the first later part holding one
(:func:`_far_passage`): at most the file's size (:data:`READ_CAP_BYTES`) more matched, for that
hit alone."""
_OVERLAP = 1_024
"""How far each later part of a body matched for its snippet reaches back into the part before,
so that a match the cut split (a term of up to :data:`MAX_QUERY_CHARS`, with markup between its
words) is whole in the next."""
MAX_AGENTS = 16
"""How many agents' indexes one process keeps open (least recently searched closed first)."""


_FOLDER = ""
"""The file name under which a scope folder the service cannot list is indexed, unreadable
(Q-2b): no topic file has an empty name, so a search names the scope, never a file of it."""
_BLOCKED = ""
"""The real folder recorded for a scope whose folder's place holds something that is no folder
of the root (a file, a FIFO, a symlink out of the root or to nothing: K-6,
:func:`~memory_api.store.scopes.scopes_and_blocked`): none of its files is searched, and its
:data:`_FOLDER` row names it as unusable in every search (Q-2b), never an empty scope."""


def _stat_key(info: os.stat_result) -> int | None:
    """A file version's stat key as one number (None while racy: read it again next time)."""
    key = file_key(info)
    return None if is_racy(key) else hash(key)


def _changed(folder: str, files: dict[str, int | None]) -> tuple[list[str], bool]:
    """The names among ``files`` (name → stat key) of ``folder`` whose ``lstat`` no longer
    gives that key: changed, replaced, gone, racy (None) or no regular file any more (a
    symlink's own key is never its target's); and whether any has other hard links (an edit
    through another folder is no event of this one's watch). The hot loop of a search: one
    ``lstat`` each."""
    prefix, lstat, changed, linked = folder + os.sep, os.lstat, [], False
    for name, known in files.items():
        try:
            info = lstat(prefix + name)
        except OSError:
            changed.append(name)
            continue
        if known != hash(
            (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        ):
            changed.append(name)
        if info.st_nlink > 1:
            linked = True
    return changed, linked


def _unwatchable(folder: str, entries: list[TopicEntry]) -> bool:
    """Whether a topic file among ``entries`` of ``folder`` is reached through a symlink or
    has other hard links: a change to it may raise no event in the folder's watch."""
    prefix = folder + os.sep
    return any(entry.stat.st_nlink > 1 or entry.path != prefix + entry.file for entry in entries)


def _scope_folder(path: str) -> tuple[os.stat_result | None, str | None]:
    """The stat of a scope's folder and None; ``(None, None)`` when it is gone (or no folder);
    ``(None, why)`` when its ``stat`` failed otherwise (an I/O error, no permission): it is
    there for all anyone can tell, so its files are not searched and every search says why
    (Q-2b), never "no hit" as if the scope were empty."""
    try:
        info = os.stat(path)  # noqa: PTH116 - a string path, 20,000 folders a search
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as error:
        logger.warning("scope folder %s cannot be looked at: %s", path, error)
        return None, cannot_read(error)
    return (info, None) if stat.S_ISDIR(info.st_mode) else (None, None)


def _folder(path: str | Path) -> os.stat_result | None:
    """The stat of a folder, None if absent (or no folder)."""
    try:
        info = os.stat(path)  # noqa: PTH116 - a string path, 20,000 folders a search
    except OSError:
        return None
    return info if stat.S_ISDIR(info.st_mode) else None


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _masked(text: str) -> str:
    """``text`` as search keeps it: likely credentials masked (I-8). Its hidden characters
    stay: left out of what is indexed and matched, shown as ``[hidden: …]`` in an answer
    (I-9, :func:`~.search_text.shown_matches`)."""
    return "\n".join(mask_secret_lines(text.split("\n")))


def _name_field(topic: ParsedTopic) -> str:
    """The indexed name: with the file stem when it differs (``prefers`` finds
    ``feedback_prefers_uv.md`` whatever its ``name``)."""
    stem = topic.file.removesuffix(".md")
    return topic.name if topic.name == stem else f"{topic.name} {stem}"


@dataclass(slots=True)
class _Agent:
    index: SearchIndex
    reader: FeedReader | None = None
    """What changed under the agent's memory root since its last whole refresh (None: no
    feed, every search checks every scope)."""
    always: set[str] = field(default_factory=set)
    """Scope keys the feed cannot vouch for: checked on every search."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def _close(agent: _Agent) -> None:
    """Close an agent's index once no search of it runs."""
    with agent.lock:
        agent.index.close()


class MemorySearch:
    """The search of this process: one :class:`SearchIndex` per agent, up to date by stat.

    ``app_data_dir`` is the data dir whose :data:`INDEX_FOLDER` holds the index files (None:
    indexes in memory, for tools).
    """

    def __init__(
        self,
        app_data_dir: Path | None,
        *,
        max_agents: int = MAX_AGENTS,
        feed: ChangeFeed | None = None,
    ) -> None:
        self.folder = None if app_data_dir is None else app_data_dir / INDEX_FOLDER
        self.feed = feed
        """The process's change feed (None: every search checks every scope by ``stat``)."""
        self._agents: RecentlyUsed[str, _Agent] = RecentlyUsed(max_agents, on_drop=_close)

    def _agent(self, agent_id: str, root: Path | None = None) -> _Agent:
        """The index of ``agent_id`` (opened now if it is not), with a reader of the change
        feed of its real memory ``root`` when one is given and the feed serves it."""

        def open_index() -> _Agent:
            path = None if self.folder is None else self.folder / f"{agent_id}.sqlite3"
            return _Agent(SearchIndex(path))

        found = self._agents.get_or_make(agent_id, open_index)
        if found.reader is None and self.feed is not None and root is not None:
            feed = self.feed.root(os.fspath(root))
            found.reader = None if feed is None else feed.reader()
        return found

    # --- bringing the index up to date --------------------------------------------------------

    @staticmethod
    def _topic(entry: TopicEntry) -> Topic | None:
        """Read one topic file for the index, likely credentials masked (I-8); None if it is
        gone. One that is there but cannot be read, or that is not decoded (a legacy CJK
        encoding, T-2), is indexed by its name alone, with why (Q-2b); one that could not be
        read is indexed with no stat key, so it is read again at the next search: a failure
        that passes with nothing on disk changing (a lease held past its wait, an I/O error, no
        file descriptor left) is never kept as the file's state. Read past the listings'
        parse cache: a first build reads every file once, and must not fill that cache with
        them (memory stays bounded)."""
        try:
            raw, info = read_regular(entry.real, READ_CAP_BYTES + 1, memory=True, real_folder=True)
        except (FileNotFoundError, NotRegularFileError):
            return None  # gone since the scan: not found, like the listing
        except OSError as error:
            stem = _nfc(entry.file.removesuffix(".md"))
            why = cannot_read(error)
            return Topic(entry.file, None, stem, stem, "", "", unreadable=why)
        topic = parse_topic(raw, entry.file)
        texts = [topic.name, _name_field(topic), topic.description or "", topic.body]
        # NFC: what is highlighted is what was indexed (a note written in NFD reads the same)
        name, name_field, description, body = (_nfc(_masked(text)) for text in texts)
        # a legacy CJK encoding: not decoded, named by every search as a file it cannot read
        undecoded = [problem for problem in topic.problems if problem.startswith(NOT_DECODED)]
        no_text = (
            f"does not decode it: {undecoded[0].removeprefix(NOT_DECODED)}" if undecoded else None
        )
        return Topic(entry.file, _stat_key(info), name, name_field, description, body, no_text)

    def _index(self, index: SearchIndex, key: str, entries: list[TopicEntry]) -> None:
        """(Re-)index ``entries`` of scope ``key``; the ones gone meanwhile dropped."""
        for entry in entries:
            topic = self._topic(entry)
            if topic is None:
                index.drop(key, entry.file)
            else:
                index.put(key, topic)

    def _refresh_scope(
        self, root: Path, index: SearchIndex, key: str, feed: RootFeed | None = None
    ) -> bool:
        """Bring scope ``key`` up to date: list its folder only when that changed, else one
        ``lstat`` per indexed file; read what changed (S-1). With ``feed``, the folder is
        watched first; whether the feed cannot vouch for the scope (a symlinked scope or topic
        file, a file with other hard links, a folder on another device, a file it could not
        read, which no event says is readable again): check it every time."""
        state = index.scopes[key]
        if state.real == _BLOCKED:
            return False  # named as it is until the root's listing changes (_refresh_root)
        folder_name = state.real.rpartition(os.sep)[2]
        if feed is not None and folder_name == key:
            feed.watch(folder_name)
        folder, unlooked = _scope_folder(state.real)
        folder_key = None if folder is None else _stat_key(folder)
        unwatchable = (
            feed is None
            or folder_name != key
            or (folder is not None and folder.st_dev != feed.device)
        )
        if folder_key is not None and folder_key == state.dir_key:
            suspects, linked = _changed(state.real, state.files)
            if not suspects:
                return unwatchable or linked
            # New stat, a symlink, or gone: the listing's full judgement (K-7, A-7) for these.
            found = {name: _entry(root, Path(state.real), name) for name in suspects}
            for name in [name for name, entry in found.items() if entry is None]:
                index.drop(key, name)
            entries = [entry for entry in found.values() if entry is not None]
            self._index(index, key, [entry for entry in entries if _stale(state, entry)])
            unread = bool(index.unreadable(key))
            return unwatchable or linked or unread or _unwatchable(state.real, entries)
        scanned = scan_scope(root, Path(state.real)) if folder is not None else None
        entries = scanned.topics if scanned is not None else []
        error = scanned.error if scanned is not None else unlooked
        listed = {entry.file for entry in entries} | ({_FOLDER} if error else set())
        for name in [name for name in state.files if name not in listed]:
            index.drop(key, name)
        changed = [entry for entry in entries if _stale(state, entry)]
        self._index(index, key, changed)
        if error is not None and index.unreadable_in(key, _FOLDER) != error:
            # A folder it may not list (Q-2b): named by every search, listed again each time.
            index.put(key, Topic(_FOLDER, None, "", "", "", "", unreadable=error))
        index.set_scope(key, state.real, None if error else folder_key)
        unread = error is not None or bool(index.unreadable(key))
        return unwatchable or unread or _unwatchable(state.real, entries)

    def _refresh(self, root: Path, agent: _Agent, only: str | None) -> None:
        """Bring the index in line with the disk: the scopes (all, or ``only``), then files.
        With a change feed, a whole refresh checks only the scopes it names as changed since
        the last one (and those it cannot vouch for); the first, and any after another
        process wrote the index, checks every scope."""
        index, reader = agent.index, agent.reader
        if index.refresh_mirror() and reader is not None:
            reader.distrust()  # another process wrote: its rows are checked like any other
        if only is not None:
            real = scope_real_dir(root, only)
            state = index.scopes.get(only)
            if real is None:
                if state is not None and state.real != _BLOCKED:
                    index.drop_scope(only)
                return
            if state is None or state.real != os.fspath(real):
                index.set_scope(only, os.fspath(real), None)
            self._refresh_scope(root, index, only)
            return
        if reader is None:
            self._refresh_all(root, agent, None)
            return
        look = reader.look()
        if look.everything:
            self._refresh_all(root, agent, reader.feed)
        else:
            self._refresh_fed(root, agent, reader.feed, look)

    def _refresh_root(self, root: Path, index: SearchIndex, feed: RootFeed | None) -> set[str]:
        """Bring the scopes' list in line with the root's folder (listed only when its stat
        moved); the keys added or moved (the ones gone are dropped, their watches too)."""
        folder = _folder(root)
        root_key = None if folder is None else _stat_key(folder)
        if root_key is not None and root_key == index.root_key:
            return set()
        found, blocked = scopes_and_blocked(root)
        listed = {key: os.fspath(folder) for key, folder in found}
        listed.update(dict.fromkeys(blocked, _BLOCKED))
        gone = [key for key in index.scopes if listed.get(key) in {None, _BLOCKED}]
        for key in gone:
            index.drop_scope(key)
        if feed is not None:
            feed.forget(set(gone))
        added: set[str] = set()
        for key, where in listed.items():
            state = index.scopes.get(key)
            if state is None or state.real != where:
                index.set_scope(key, where, None)
                added.add(key)
        for key in blocked:  # there and not usable (K-6): named by every search (Q-2b)
            index.put(key, Topic(_FOLDER, None, "", "", "", "", unreadable=NOT_A_FOLDER_WHY))
        index.set_root_key(root_key)
        return added

    def _refresh_all(self, root: Path, agent: _Agent, feed: RootFeed | None) -> None:
        """Check every scope by ``stat`` (and watch each folder first, with ``feed``)."""
        index = agent.index
        self._refresh_root(root, index, feed)
        agent.always = {
            key for key in list(index.scopes) if self._refresh_scope(root, index, key, feed)
        }

    def _refresh_fed(self, root: Path, agent: _Agent, feed: RootFeed, look: Look) -> None:
        """Check the scopes ``look`` names, those checked every time, and any added."""
        index = agent.index
        keys = {key for key in look.folders if key in index.scopes} | agent.always
        if look.root:
            keys |= self._refresh_root(root, index, feed)
            agent.always &= index.scopes.keys()
        for key in keys & index.scopes.keys():
            agent.always.discard(key)
            if self._refresh_scope(root, index, key, feed):
                agent.always.add(key)

    # --- the search ---------------------------------------------------------------------------

    def search(
        self,
        agent_id: str,
        root: Path,
        query: str,
        *,
        scope: str | None,
        limit: int,
        typing: bool = False,
    ) -> SearchResults:
        """Search agent ``agent_id`` whose real memory root is ``root``; the best hits first,
        at most ``limit`` of them, only in scope ``scope`` when given (its key checked by the
        caller). ``total`` counts every match. ``typing``: ``query`` is still being typed (see
        :func:`~.search_text.parse_query`).

        A query without a word finds nothing. Raises :class:`BadRequest` for an empty or too
        long query or a bad ``limit``, :class:`LockTimeoutError` (503) when another process
        kept the index locked for :data:`~.search_index.BUSY_TIMEOUT_S`.
        """
        if not query:
            raise BadRequest("q is required: the words to find")
        if len(query) > MAX_QUERY_CHARS:
            raise BadRequest(f"q must be at most {MAX_QUERY_CHARS} characters")
        if not 1 <= limit <= MAX_LIMIT:
            raise BadRequest(f"limit must be between 1 and {MAX_LIMIT}")
        parsed = parse_query(query, typing=typing)
        if parsed is None:
            return SearchResults(query=query, scope=scope, total=0, hits=[])
        if len(parsed.terms) > MAX_QUERY_TERMS:
            raise BadRequest(
                f"q holds {len(parsed.terms)} different words; at most {MAX_QUERY_TERMS} are "
                "searched together"
            )
        agent = self._agent(agent_id, root)
        with agent.lock:
            try:
                total, rows, stats = self._run(root, agent, parsed, scope)
            except sqlite3.DatabaseError as error:
                if "locked" in str(error) or "busy" in str(error):
                    raise LockTimeoutError("the search index is busy; retry later") from error
                logger.warning("search index of %s unusable (%s): built again", agent_id, error)
                agent.index.reset()
                if agent.reader is not None:
                    agent.reader.distrust()  # the new index is empty: fill it from every scope
                total, rows, stats = self._run(root, agent, parsed, scope)
            unsearched = agent.index.unreadable(scope)
        hits = _ranked(parsed, rows, stats, limit)
        unreadable = [
            Finding(
                code="unreadable",
                severity="error",
                file=f"{key}/{file}",
                line=None,
                message=f"scope {key!r} cannot be {_unusable(why)}: the service {why}: none of "
                "its files was searched"
                if file == _FOLDER
                else f"{file} in scope {key!r} is there but the service {why}: only its name "
                "was searched",
            )
            for key, file, why in unsearched
        ]
        return SearchResults(
            query=query, scope=scope, total=total, hits=hits, unreadable=unreadable
        )

    def _run(
        self, root: Path, agent: _Agent, query: Query, scope: str | None
    ) -> tuple[int, list[Row], FieldStats | None]:
        index = agent.index
        try:
            self._refresh(root, agent, scope)
            index.commit()
        except BaseException:
            index.abandon()
            if agent.reader is not None:
                agent.reader.distrust()  # what its look named may not be indexed: all next time
            raise
        total = index.count(query, scope)
        if not total:
            return 0, [], None
        rows = index.candidates(query, scope, CANDIDATES)
        typed = query.as_typed()
        if typed != query:  # a syllable opened: the best files holding it as typed too,
            first = index.candidates(typed, scope, CANDIDATES)  # which rank first (_ranked)
            ids = {row.id for row in first}
            rows = [*first, *(row for row in rows if row.id not in ids)]
        return total, rows, index.stats(query)


def _unusable(why: str) -> str:
    """What a scope the search could not look into cannot be: ``used`` (something that is no
    folder in its place, as every route on it says), else ``listed``."""
    return "used" if why == NOT_A_FOLDER_WHY else "listed"


def _stale(state: ScopeState, entry: TopicEntry) -> bool:
    """Whether the indexed version of ``entry`` (if any) is not the one on disk now."""
    known = state.files.get(entry.file)
    return known is None or known != _stat_key(entry.stat)


def _entry(root: Path, scope: Path, name: str) -> TopicEntry | None:
    """:func:`~memory_api.store.scopes.topic_entry`, None for a name that fails K-7 too."""
    try:
        return topic_entry(root, scope, name)
    except InvalidId:
        return None


def _ranked(query: Query, rows: list[Row], stats: FieldStats | None, limit: int) -> list[SearchHit]:
    """The candidates scored (:func:`~.search_rank.score`), the best ``limit`` as hits: first
    those with the fewest terms found only loosely (:attr:`~.search_text.Match.loose`: ``공부``
    before ``공분`` for a ``공부`` being typed, ``على`` before ``علي``), then those holding the
    most of the query's identifiers exactly as typed (``user_name`` before ``user named``),
    then by score. Each field is matched in its first :data:`SCORED_CHARS`
    characters only: a snippet shows a passage of those."""
    if stats is None:
        return []
    terms = range(len(query.terms))
    scored: list[tuple[int, int, float, Row, list[Shown], bool]] = []
    for row in rows:
        rest = False  # a term found in no part read: it is in the rest of a field
        shown = [shown_matches(text[:SCORED_CHARS], query) for text in row.fields]
        found = [field.found for field in shown]
        frequencies = [
            [sum(m.term == term and not m.part for m in field) for term in terms] for field in found
        ]
        cut = [number for number, text in enumerate(row.fields) if len(text) > SCORED_CHARS]
        for term in terms if cut else ():  # one matched in no part read is in the rest
            if not any(field[term] for field in frequencies):
                frequencies[cut[-1]][term] = 1
                rest = True
        exact = len({m.term for field in found for m in field if m.exact})
        matched = {m.term for field in found for m in field}
        loose = len(matched - {m.term for field in found for m in field if not m.loose})
        scored.append((loose, exact, score(stats, row.lengths, frequencies), row, shown, rest))
    scored.sort(key=lambda item: (item[0], -item[1], -item[2]))  # stable: ties keep FTS5's
    return [
        _hit(query, row, value, shown, rest) for _, _, value, row, shown, rest in scored[:limit]
    ]


def _hit(query: Query, row: Row, value: float, shown: list[Shown], rest: bool) -> SearchHit:
    """One hit: its name and description marked, a passage of its body; each field as
    :func:`~.search_text.shown_matches` shows it (``shown``: its first :data:`SCORED_CHARS`
    characters; an ellipsis for the rest). A body with no match there while a term is in the
    rest of a field (``rest``) shows the passage of its first later part with one
    (:func:`_far_passage`). A name or description is given up to
    :data:`~.listed_text.LISTED_CHARS` characters, as a listing gives it."""
    name = shown_matches(row.name[:SCORED_CHARS], query)
    description, body = shown[1:]
    far = _far_passage(row.fields[2], query) if rest and not body.found else []
    passage = far or snippet(body.text, body.found, body.marks)
    if len(row.fields[2]) > SCORED_CHARS and passage and passage[-1].text != "…" and not far:
        passage.append(SnippetPart(text="…", hit=False))
    return SearchHit(
        scope=row.scope,
        file=row.file,
        name=show_hidden(listed(row.name)),
        description=show_hidden(listed(row.fields[1])) if row.fields[1] else None,
        score=round(value, 4),
        name_parts=cut_parts(_cut(marked_parts(name.text, name.found), row.name)),
        description_parts=cut_parts(
            _cut(marked_parts(description.text, description.found), row.fields[1])
        ),
        snippet=passage,
    )


def _far_passage(body: str, query: Query) -> list[SnippetPart]:
    """The snippet (:func:`~.search_text.snippet`) of the first part of ``body`` after its
    first :data:`SCORED_CHARS` characters that holds a match of ``query``, an ellipsis before it
    (and after it when more follows); empty when no part does. The parts are
    :data:`SCORED_CHARS` characters each, each overlapping the one before by :data:`_OVERLAP`;
    the body of a file of :data:`READ_CAP_BYTES` has at most 17 of them (S-1)."""
    start = SCORED_CHARS - _OVERLAP
    while start + _OVERLAP < len(body):
        end = start + SCORED_CHARS
        part = shown_matches(body[start:end], query)
        if part.found:
            passage = snippet(part.text, part.found, part.marks)
            if passage and passage[0].text != "…":
                passage.insert(0, SnippetPart(text="…", hit=False))
            if passage and end < len(body) and passage[-1].text != "…":
                passage.append(SnippetPart(text="…", hit=False))
            return passage
        start = end - _OVERLAP
    return []


def _cut(parts: list[SnippetPart], text: str) -> list[SnippetPart]:
    """``parts`` of the first :data:`SCORED_CHARS` characters of ``text``, an ellipsis after
    them when ``text`` is longer."""
    if len(text) > SCORED_CHARS:
        parts.append(SnippetPart(text="…", hit=False))
    return parts
