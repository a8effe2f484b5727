"""The overview's order and pages (A-3): every scope placed at two ``stat`` calls, none read.

The Memory tab must never wait for every scope: the overview answers one page of scopes, in
the order of the whole (the user scope first, then the Workspaces by newest activity, ties by
key), with totals for all of them. Placing a scope in that order and counting its topic files
costs a ``stat`` of its folder (whose count, kept on disk by the folder's stat in
:class:`~memory_api.store.scope_records.ScopeRecords`, survives a restart) and an ``lstat`` of
its ``MEMORY.md``; only the scopes of the page are read, summarised and linted (their lint
tallies kept on disk too, by the stat of every file judged).

A scope's **activity** is the newest of its folder's mtime (a topic file created, deleted or
renamed, a file replaced by an atomic write) and its index's (an index line added, changed or
removed). A topic file edited in place with its index left alone moves neither; the scope's
listing still shows the file's own mtime. No file is read to place a scope, so each request
sees what the disk holds at that moment, whichever process changed it (Q-4). With a change
feed (:class:`FedRows`, :mod:`~memory_api.store.change_feed`) the rows are kept between
requests and only the scopes the kernel named as changed since are placed again (20,000 scopes:
two system calls each are 125–175 ms of CPU; the feed makes the Memory tab again a page's work).

A **cursor** names the last scope of a page by its place in the order (``user``, or
``<activity in ns>.<key>``); the next page starts after that place, so a scope that becomes
active meanwhile moves to the top instead of appearing twice or shifting the pages.
"""

from __future__ import annotations

import heapq
import os
import stat
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from memory_core import layout
from memory_core.keys import USER_SCOPE, WORKSPACE_KEY_PATTERN
from memory_core.rules import TextRule

from memory_api.errors import BadRequest
from memory_api.store.change_feed import Look, RootFeed
from memory_api.store.not_scopes import Skipped
from memory_api.store.scope_records import FolderCount, ScopeRecords
from memory_api.store.scopes import FolderListing, judged_topics, list_folder, scope_folders
from memory_api.store.stat_cache import file_key

__all__ = [
    "CURSOR_RULE",
    "GROUP_QUERY_MAX",
    "OVERVIEW_DEFAULT_LIMIT",
    "OVERVIEW_MAX_LIMIT",
    "FedRows",
    "Place",
    "ScopeRow",
    "after_cursor",
    "cursor_of",
    "folder_count",
    "page_of",
    "parse_cursor",
    "scope_activity",
    "scope_rows",
]

OVERVIEW_DEFAULT_LIMIT = 100
"""Scopes on a page when the request names no ``limit``."""
OVERVIEW_MAX_LIMIT = 500
"""The most scopes one page may ask for."""
GROUP_QUERY_MAX = 500
"""The longest group search (``q``), in characters."""

CURSOR_RULE = TextRule(
    pattern=f"^(?:{USER_SCOPE}|[0-9]{{1,20}}\\.{WORKSPACE_KEY_PATTERN[1:-1]})$",
    summary="must be a nextCursor of an overview: 'user' or '<digits>.<Workspace key>'",
)
"""What a cursor looks like (the ``nextCursor`` of an earlier page); anything else is a 400."""

Place = tuple[int, int, str]
"""A scope's place in the overview's order: ``(0, 0, "user")`` for the user scope, else
``(1, -activity in ns, key)``; pages follow ascending places."""


_USER_PLACE: Place = (0, 0, USER_SCOPE)


class ScopeRow(NamedTuple):
    """One scope as the whole overview needs it: its place in the order (:data:`Place`; first,
    so rows sort by it), key, real folder, activity (ns) and topic files. A tuple: the overview
    makes one per scope on every request."""

    place: Place
    key: str
    folder: str
    activity: int
    files: int

    @classmethod
    def of(cls, key: str, folder: str, activity: int, files: int) -> ScopeRow:
        """The row of scope ``key``, placed by its activity."""
        place = _USER_PLACE if key == USER_SCOPE else (1, -activity, key)
        return cls(place, key, folder, activity, files)


_INDEX_BESIDE = os.sep + layout.INDEX_FILE


def scope_activity(folder: str, folder_mtime_ns: int) -> int:
    """The scope's activity in ns: the newest of its folder's mtime and its index's (one
    ``lstat``; a missing or unreadable index counts nothing)."""
    try:
        index_mtime_ns = os.lstat(folder + _INDEX_BESIDE).st_mtime_ns
    except OSError:
        return folder_mtime_ns
    return max(folder_mtime_ns, index_mtime_ns)


class FedRows:
    """One agent's scope rows kept between requests while a change feed vouches for them
    (:mod:`~memory_api.store.change_feed`): only the scopes its reader names are placed again.

    ``feed`` is the memory root's feed (None: every request places every scope). Use it under
    its ``lock``, one request at a time."""

    def __init__(self, feed: RootFeed | None) -> None:
        self.reader = feed.reader() if feed is not None else None
        self.lock = threading.Lock()
        self.rows: dict[str, ScopeRow] = {}
        """By scope key, as last placed."""
        self.always: set[str] = set()
        """Keys placed on every request: what a folder's watch cannot vouch for (a symlinked
        scope, one on another device, an index with other hard links, entries judged on use)."""
        self.skipped = Skipped()
        """The root's entries that are no scope, as its latest listing found them."""


def scope_rows(
    root: Path, records: ScopeRecords, fed: FedRows | None = None, skipped: Skipped | None = None
) -> list[ScopeRow]:
    """Every scope under the real ``root`` with its activity and topic file count; the root's
    entries that are no scope added to ``skipped`` (with ``fed``: kept in ``fed.skipped``
    from the root's latest listing instead).

    Costs a ``scandir`` of the root, then per scope a ``stat`` of its folder (its count comes
    from ``records`` while the folder is unchanged, else from a listing of it, kept there) and
    an ``lstat`` of its index. A scope gone meanwhile is left out; one that cannot be listed
    stays, with no files counted (A-5). The records of scopes no longer there are dropped.

    With ``fed`` (its lock held by the caller) only the scopes its feed names as changed since
    the last request are placed again, the others kept as they were; the first request, and
    any the feed cannot vouch for, places every scope (and watches each folder first).

    The hot loop of the Memory tab (20,000 scopes: two system calls each, and as little Python
    as can be around them).
    """
    reader = None if fed is None else fed.reader
    if fed is None or reader is None:
        return _all_rows(root, records, skipped=skipped)
    look = reader.look()
    try:
        if look.everything:
            fed.always.clear()
            fed.skipped = Skipped()
            rows = _all_rows(root, records, reader.feed, fed.always, fed.skipped)
            fed.rows = {row.key: row for row in rows}
            return rows
        _fed_rows(root, records, fed, reader.feed, look)
        return list(fed.rows.values())
    except BaseException:
        reader.distrust()  # what the look named may not all be placed: all of them next time
        raise


def _all_rows(
    root: Path,
    records: ScopeRecords,
    feed: RootFeed | None = None,
    always: set[str] | None = None,
    skipped: Skipped | None = None,
) -> list[ScopeRow]:
    """Every scope placed by ``stat``; with ``feed`` each folder watched before its ``stat``,
    the keys the feed cannot vouch for added to ``always``, the entries that are no scope to
    ``skipped``."""
    rows: list[ScopeRow] = []
    known = records.folder_counts()
    for key, folder in scope_folders(root, skipped):
        row = _place(root, key, folder, known, records, feed, always)
        if row is not None:
            rows.append(row)
    if records.known_folders() > len(rows):
        records.keep_only({row.folder.rpartition(os.sep)[2] for row in rows})
    records.flush()
    return rows


def _fed_rows(root: Path, records: ScopeRecords, fed: FedRows, feed: RootFeed, look: Look) -> None:
    """Place again the scopes of ``fed`` that ``look`` names, those it always places, and
    (when the root changed) the ones added; drop the ones gone."""
    rows, always = fed.rows, fed.always
    places = {key: rows[key].folder for key in look.folders if key in rows}
    places.update((key, rows[key].folder) for key in always if key in rows)
    if look.root:
        fed.skipped = Skipped()
        listed = dict(scope_folders(root, fed.skipped))
        gone = [key for key in rows if key not in listed]
        for key in gone:
            del rows[key]
            always.discard(key)
            places.pop(key, None)  # its folder's own events named it too: never placed again
        feed.forget(set(gone))
        places.update(
            (key, folder)
            for key, folder in listed.items()
            if key not in rows or rows[key].folder != folder
        )
        records.keep_only({folder.rpartition(os.sep)[2] for folder in listed.values()})
    known = records.folder_counts()
    for key, folder in places.items():
        always.discard(key)
        row = _place(root, key, folder, known, records, feed, always)
        if row is None:
            rows.pop(key, None)
            always.add(key)  # gone, or no stat now: looked at again next time
        else:
            rows[key] = row
    records.flush()


def _place(
    root: Path,
    key: str,
    folder: str,
    known: Mapping[str, tuple[int, int, int, int, int, int, bytes]],
    records: ScopeRecords,
    feed: RootFeed | None,
    always: set[str] | None,
) -> ScopeRow | None:
    """Scope ``key``'s row from an ``lstat`` of its real ``folder`` and of its index (None: no
    folder there now); its folder watched first when there is a ``feed``, its key added to
    ``always`` when the watch cannot vouch for it. Once per scope on a sweep: kept lean.

    ``folder`` is a real path, so a symlink found there now replaced the folder since it was
    listed (one leading out of the root, A-7): it is no folder of this root, never followed.
    """
    name = folder.rpartition(os.sep)[2]
    if feed is not None and name == key:
        feed.watch(name)
    try:
        info = os.lstat(folder)  # a string path: 20,000 folders a sweep
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    mtime = info.st_mtime_ns
    kept = known.get(name)
    if (
        kept is not None
        and not kept[6]  # no entry to judge now
        and kept[3] == mtime
        and kept[4] == info.st_ctime_ns
        and kept[1] == info.st_ino
        and kept[2] == info.st_size
        and kept[0] == info.st_dev
    ):
        files, judged = kept[5], False
    else:
        files, judged = _count(root, folder, info, records)
    try:
        index = os.lstat(folder + _INDEX_BESIDE)
        index_mtime, links = index.st_mtime_ns, index.st_nlink
    except OSError:
        index_mtime, links = 0, 1
    activity = mtime if mtime >= index_mtime else index_mtime
    if always is not None and (
        judged or links > 1 or name != key or feed is None or info.st_dev != feed.device
    ):
        always.add(key)
    place = _USER_PLACE if key == USER_SCOPE else (1, -activity, key)
    return ScopeRow(place, key, folder, activity, files)


def folder_count(root: Path, folder: str, info: os.stat_result, records: ScopeRecords) -> int:
    """How many topic files the real scope ``folder`` (whose ``stat`` is ``info``) lists (A-5):
    the count ``records`` keep for this version of the folder, else from a listing now (kept
    for the next request); the entries judged on use are judged now. 0 for a folder gone or
    one that cannot be listed."""
    return _count(root, folder, info, records)[0]


def _count(
    root: Path, folder: str, info: os.stat_result, records: ScopeRecords
) -> tuple[int, bool]:
    """:func:`folder_count`, and whether the folder holds entries judged on use (a symlink…)."""
    name = folder.rpartition(os.sep)[2]
    key = file_key(info)
    count = records.folder_count(name, key)
    if count is None:
        listing = list_folder(folder)
        if listing is None or listing.error is not None:
            return 0, False
        count = FolderCount(len(listing.regular), listing.judged)
        records.keep_folder_count(name, key, count)  # the key seen before the listing
    if not count.judged:
        return count.regular, False
    judged = FolderListing((), count.judged, ())
    return count.regular + len(judged_topics(root, Path(folder), judged)), True


def parse_cursor(text: str) -> Place:
    """The place a cursor names; :class:`~memory_api.errors.BadRequest` (400) for anything not
    made by :func:`cursor_of` (see :data:`CURSOR_RULE`)."""
    problem = CURSOR_RULE.problem(text)
    if problem is not None:
        raise BadRequest(f"cursor {problem}")
    if text == USER_SCOPE:
        return (0, 0, USER_SCOPE)
    activity, key = text.split(".", 1)
    return (1, -int(activity), key)


def cursor_of(row: ScopeRow) -> str:
    """The cursor naming ``row``'s place (the inverse of :func:`parse_cursor`)."""
    return USER_SCOPE if row.key == USER_SCOPE else f"{row.activity}.{row.key}"


def after_cursor(rows: list[ScopeRow], after: Place | None) -> list[ScopeRow]:
    """The rows placed after ``after`` (all of them for None)."""
    if after is None:
        return rows
    return [row for row in rows if row[0] > after]


def page_of(rows: list[ScopeRow], limit: int) -> tuple[list[ScopeRow], bool]:
    """The first ``limit`` rows in the overview's order, and whether more follow; the order of
    the others is never computed (``heapq``: n log ``limit``; rows compare by their place,
    which names the scope: no two are equal)."""
    first = heapq.nsmallest(limit + 1, rows)
    return first[:limit], len(first) > limit
