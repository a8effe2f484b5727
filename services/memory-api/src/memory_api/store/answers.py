"""The read answers of the memory API built from disk: overview, listing, file, index (A-3, A-5).

Blocking; :class:`~memory_api.store.memory.MemoryStore` runs these in worker threads after it
has checked the ids and resolved the real memory root and scope. Topic files are parsed through
the stat-keyed :class:`~memory_api.store.topic_cache.TopicCache` and folders listed through
:class:`~memory_api.store.listings.FolderListings`; a file that vanishes between the directory
scan and the read is simply left out; one that is there but cannot be read (no permission, an
I/O error) is listed and counted with that problem, named by an ``unreadable`` finding, and a
read of it is a 503 naming it, never a 404 (Q-2b): no answer takes it for absent. Lint (T-5)
runs on every scope shown (the overview's page, a listing, an index view), kept by the stat keys
of the files it judged (a scope unchanged on disk is not linted again); for a Workspace
scope the user index is passed along, because both share the injection's character budget
(I-4). A topic file's answer lints that file alone
(:func:`~memory_core.lint.lint_topic_in_scope`), so it costs the same in a scope of 5 files
and of 5,000.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import msgspec
from memory_core import layout
from memory_core.caps import is_folder_unread
from memory_core.index import index_lines
from memory_core.injection import cap_indexes
from memory_core.keys import USER_SCOPE
from memory_core.lint import (
    SEVERITIES,
    convention_findings,
    lint_names_in_scope,
    lint_scope,
    lint_topic_in_scope,
    lint_topics,
    lint_topics_in_scope,
    mask_secret_lines,
)
from memory_core.topics import ParsedTopic
from memory_core.wiki_links import WikiFiles, link_keys
from memory_core.wire import (
    Finding,
    IndexLine,
    IndexView,
    OverviewTotals,
    ScopeSummary,
    TopicFile,
    TopicList,
    TopicSummary,
    utc_timestamp,
)

from memory_api.errors import CannotRead, NotFound
from memory_api.store.containment import NotRegularFileError, cannot_read
from memory_api.store.file_pages import FILES_DEFAULT_LIMIT, page_after
from memory_api.store.listed_text import listed_row
from memory_api.store.listings import FolderListings
from memory_api.store.not_scopes import Skipped
from memory_api.store.overview import (
    FedRows,
    Place,
    ScopeRow,
    after_cursor,
    cursor_of,
    folder_count,
    page_of,
    scope_activity,
    scope_rows,
)
from memory_api.store.scope_files import ScopeFiles, ScopeIndex
from memory_api.store.scope_records import LintTally, ScopeRecords, lint_digest
from memory_api.store.scopes import (
    FolderListing,
    ScopeListing,
    TopicEntry,
    judged_topics,
    moved_scope,
    no_topic_file,
    scan_scope,
    scope_real_dir,
    topic_entry,
    walk_sub_folders,
)
from memory_api.store.stat_cache import FileKey, StatCache, derived_key, file_key, is_racy
from memory_api.store.topic_cache import TopicCache
from memory_api.store.wiki_notes import (
    Walk,
    index_sub_folder_files,
    named_sub_folder_files,
    sought_in_sub_folders,
)

__all__ = ["USER_TITLE", "OverviewPage", "ScopeAnswers"]

logger = logging.getLogger(__name__)

USER_TITLE = "User memory"
"""The overview title of the user scope (A-3)."""


SCOPE_LINTS_CACHED = 4096
"""Scopes whose whole lint is kept (the overview's pages, the scopes listed)."""
SCOPE_LINT_BYTES = 4 * 1024 * 1024
"""The most the kept scope lints may take, estimated by ``_lint_weight``."""


SCOPE_TITLES_KEPT = 16
"""Scopes whose topics' titles a listing keeps (:meth:`ScopeAnswers._beside_page`)."""
SCOPE_TITLE_BYTES = 8 * 1024 * 1024
"""The most the kept titles may take (bytes, :func:`_titles_weight`): a scope of 30,000
topics' keys take about 4.8 MB."""


def _titles_weight(titles: frozenset[str]) -> int:
    """The bytes ``titles`` keep alive: the set's own, each key's (``sys.getsizeof``, its
    length and width counted) and 1 KiB for the cache's entry."""
    return 1024 + sys.getsizeof(titles) + sum(map(sys.getsizeof, titles))


def _lint_weight(findings: list[Finding]) -> int:
    """Roughly the bytes a scope's findings take (a finding with its message about 400)."""
    return 100 + 400 * len(findings)


@dataclass(frozen=True, slots=True)
class OverviewPage:
    """One page of the overview (A-3): its scopes in order, the totals of every scope, and the
    cursor of the next page (None: this is the last)."""

    scopes: list[ScopeSummary]
    totals: OverviewTotals
    next_cursor: str | None
    skipped: Skipped = field(default_factory=Skipped)
    """The memory root's entries that are no scope (named in the answer, A-3)."""


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A topic file as read: its listing entry, its parse, and the stat it was read at."""

    entry: TopicEntry
    topic: ParsedTopic
    size: int
    mtime_ns: int
    key: FileKey


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A topic file that is there but could not be read, and why (Q-2b)."""

    entry: TopicEntry
    why: str

    def row(self) -> TopicSummary:
        """Its listing row: the file name, its stat, and the problem in ``problems``."""
        return TopicSummary(
            file=self.entry.file,
            name=self.entry.file.removesuffix(".md"),
            description=None,
            updated_at=None,
            size=self.entry.stat.st_size,
            mtime=utc_timestamp(self.entry.stat.st_mtime_ns / 1e9),
            problems=[f"unreadable: the service {self.why}"],
        )


@dataclass(frozen=True, slots=True)
class _Read:
    """The topic files of a listing as read: those parsed and those that could not be read."""

    loaded: list[_Loaded]
    unreadable: list[_Unreadable]

    @property
    def files(self) -> list[str]:
        """Every topic file's name, read or not (what lint takes as present)."""
        return [item.entry.file for item in self.loaded] + [
            item.entry.file for item in self.unreadable
        ]


def _masked(text: str | None, reveal: bool) -> str | None:
    """``text`` with likely credentials masked (I-8), or as written when ``reveal``."""
    if text is None or reveal:
        return text
    return "\n".join(mask_secret_lines(text.split("\n")))


def _raw_shown(text: str, written: list[str], shown: list[str]) -> str:
    """An index's ``text`` as its ``shown`` lines (``written`` masked, I-8) make it: the same
    text when nothing was masked, else those lines rejoined (one scan of the credentials, not
    two: the scan costs about 0.15 ms a line), or ``text`` masked again when a ``\r`` would
    not survive the rejoining."""
    if shown == written:
        return text
    if "\r" in text:
        return _masked(text, False) or ""
    return "\n".join(shown) + ("\n" if text.endswith("\n") else "")


def _topic_summary(item: _Loaded, *, reveal: bool = False) -> TopicSummary:
    """The listing row of a loaded topic file; a file answer adds its body and links (A-5).

    A credential in the name or description is masked unless ``reveal`` (W-6).
    """
    return TopicSummary(
        file=item.entry.file,
        name=_masked(item.topic.name, reveal) or item.topic.name,
        description=_masked(item.topic.description, reveal),
        updated_at=item.topic.updated_at,
        size=item.size,
        mtime=utc_timestamp(item.mtime_ns / 1e9),
        problems=item.topic.problems,
    )


class ScopeAnswers:
    """Builds the read answers of one app; the caches are shared by every request.

    ``cache`` holds topic parses, ``files`` indexes and markers, ``folders`` folder listings.
    """

    def __init__(
        self, cache: TopicCache, files: ScopeFiles, folders: FolderListings | None = None
    ) -> None:
        self.cache = cache
        self.files = files
        self.folders = folders if folders is not None else FolderListings()
        self.records = ScopeRecords(None)
        self._lints: StatCache[str, list[Finding]] = StatCache(
            max_entries=SCOPE_LINTS_CACHED, max_weight=SCOPE_LINT_BYTES, weigh=_lint_weight
        )
        self._titles: StatCache[str, frozenset[str]] = StatCache(
            max_entries=SCOPE_TITLES_KEPT, max_weight=SCOPE_TITLE_BYTES, weigh=_titles_weight
        )

    def _scan(self, root: Path, scope: Path) -> ScopeListing:
        """The scope's topic files (an ``lstat`` each) and refused entries, from its listing."""
        return scan_scope(root, scope, self.folders.listing(scope))

    def _load(self, entries: list[TopicEntry], *, light_ok: bool = True) -> _Read:
        """Parse ``entries``; one gone meanwhile (or replaced by a non-file) is left out, one
        that cannot be read is kept as :class:`_Unreadable` (Q-2b). With ``light_ok`` (every
        answer but one file's) a topic may be the light parse of the memo on disk
        (:meth:`TopicCache.load`): for a listing row and a scope's lint, never for a body."""
        loaded: list[_Loaded] = []
        unreadable: list[_Unreadable] = []
        for entry in entries:
            try:
                topic, info = self.cache.load(entry.path, entry.file, entry.stat, light_ok=light_ok)
            except (FileNotFoundError, NotRegularFileError) as error:
                logger.info("skipping %s: %s", entry.path, error)
                continue
            except OSError as error:
                logger.warning("topic file %s cannot be read: %s", entry.path, error)
                unreadable.append(_Unreadable(entry, cannot_read(error)))
                continue
            loaded.append(_Loaded(entry, topic, info.st_size, info.st_mtime_ns, file_key(info)))
        return _Read(loaded, unreadable)

    def _listed(self, item: _Loaded) -> TopicSummary:
        """The masked listing row of ``item``, memoised with its parse (the credential scan of
        its name and description is the costly part of a warm listing)."""
        return self.cache.summary(item.entry.path, item.topic, lambda: _topic_summary(item))

    def _user_scope(self, root: Path) -> Path | None:
        return scope_real_dir(root, USER_SCOPE)

    def _lint(
        self,
        key: str,
        scope: Path,
        listing: ScopeListing,
        index: ScopeIndex | None,
        read: _Read,
        user_index: str | None,
        walk: Walk | None = None,
    ) -> list[Finding]:
        """``lint_scope`` of the real ``scope`` as ``listing`` found it and ``read`` read it,
        topics from the cache; what could not be read (the folder, the index, a topic file) is
        named ``unreadable`` (Q-2b) and judged present.

        The scope-level findings come from ``lint_scope`` with no topics (the index's facts kept
        with its version; its links into sub-folders looked up, T-5b); then ``lint_topics``,
        each file's own findings kept with the file's parse. The whole is kept by the stat keys
        of the index and every topic file it judged (and the names, texts and verdicts it took
        besides): a scope unchanged on disk is not linted again, one changed in any file is.
        The scope's sub-folders are walked once at most (``walk``, the request's own).
        """
        walk = walk or _walker(scope)
        inputs = _lint_inputs(
            key,
            scope,
            listing,
            index,
            read.files,
            [(item.entry.file, item.why) for item in read.unreadable],
            [file_key(item.entry.stat) for item in read.loaded],
            user_index,
            walk,
        )
        files, unreadable, in_sub_folders = read.files, inputs.unreadable, inputs.in_sub_folders
        text, companion = inputs.text, inputs.companion
        facts = index.facts() if index is not None and text is not None else None
        loaded = [item.topic for item in read.loaded]
        linked_deeper, unsought = body_sub_folder_files(scope, loaded, walk, files)
        looked = (in_sub_folders, _said(inputs.not_looked_up), linked_deeper, _said(unsought))
        memo = derived_key((inputs.judged, *looked), inputs.keys)
        known = self._lints.get(os.fspath(scope), memo)
        if known is not None:
            return list(known)
        findings = lint_scope(
            text,
            [],
            files,
            companion_index=companion,
            refused=listing.refused,
            unreadable=unreadable,
            partial=index.read.partial if index is not None else None,
            facts=facts,
            in_sub_folders=in_sub_folders,
            not_looked_up=inputs.not_looked_up,
            index_problems=index.read.problems if index is not None else (),
        )
        paths_of = {item.topic.file: item.entry.path for item in read.loaded}
        findings.extend(
            lint_topics(
                [item.topic for item in read.loaded],
                files,
                own=lambda topic: self.cache.lint(paths_of[topic.file], topic),
                in_sub_folders=linked_deeper,
                not_looked_up=unsought,
            )
        )
        self._lints.put(os.fspath(scope), memo, findings)
        return list(findings)

    def _tally(
        self,
        key: str,
        scope: Path,
        listing: ScopeListing,
        index: ScopeIndex | None,
        user_index: str | None,
        records: ScopeRecords,
    ) -> tuple[LintTally, int]:
        """The lint tally of a scope's overview entry and its topic file count (A-3, T-5).

        The tally ``records`` keep for the scope is used while :func:`lint_digest` of its lint's
        inputs as the listing finds them (every topic file's and the index's stat key, the
        names, the user index…) is unchanged; else the scope is read and linted
        (:meth:`_lint`) and the tally kept, on disk, unless something could not be read or a
        file changed less than 2 s ago.
        """
        topics = listing.topics
        walk = _walker(scope)
        inputs = _lint_inputs(
            key,
            scope,
            listing,
            index,
            [entry.file for entry in topics],
            [],
            [file_key(entry.stat) for entry in topics],
            user_index,
            walk,
        )
        looked = (tuple(sorted(inputs.in_sub_folders)), _said(inputs.not_looked_up))
        digest = lint_digest((inputs.judged, *looked), inputs.keys)
        if not inputs.unreadable:
            known = records.lint_tally(scope.name, digest)
            if known is not None:
                return known, len(topics)
        read = self._load(topics)
        findings = self._lint(key, scope, listing, index, read, user_index, walk)
        severities = {f.code: f.severity for f in sorted(findings, key=lambda f: f.code)}
        tally = LintTally(
            counts=dict(sorted(Counter(f.code for f in findings).items())),
            severities=dict(sorted(Counter(f.severity for f in findings).items())),
            code_severities=dict(severities),
        )
        if not inputs.unreadable and not read.unreadable and len(read.loaded) == len(topics):
            racy = any(is_racy(version) for version in inputs.keys)
            records.keep_lint_tally(scope.name, digest, tally, racy=racy)
        return tally, len(read.files)

    def _summary(
        self, root: Path, row: ScopeRow, user_index: str | None, records: ScopeRecords
    ) -> ScopeSummary:
        """One overview entry (A-3) of the scope ``row`` places; ``user_index`` is the user
        scope's index text (the companion of a Workspace's, I-4)."""
        key, scope = row.key, Path(row.folder)
        listing = self._scan(root, scope)
        index = self.files.read(root, scope)
        tally, file_count = self._tally(key, scope, listing, index, user_index, records)
        if key == USER_SCOPE:
            title, path, problems, orphaned, not_visible = USER_TITLE, None, [], False, False
        else:
            marker = self.files.marker(root, scope, key)
            path, problems = marker.path, marker.problems
            orphaned, not_visible = marker.orphaned, marker.not_visible
            title = _title(path, key)
        return ScopeSummary(
            key=key,
            kind="user" if key == USER_SCOPE else "workspace",
            title=title,
            workspace_path=path,
            file_count=file_count,
            last_activity=utc_timestamp(row.activity / 1e9),
            marker_problems=problems,
            orphaned=orphaned,
            not_visible=not_visible,
            lint_counts=tally.counts,
            severity_counts=tally.severities,
            lint_severities=tally.code_severities,
            unreadable=listing.error,
        )

    def overview(
        self,
        root: Path,
        *,
        limit: int,
        after: Place | None = None,
        query: str | None = None,
        records: ScopeRecords | None = None,
        fed: FedRows | None = None,
        user_unusable: str | None = None,
    ) -> OverviewPage:
        """One page of the scopes under the real ``root`` (A-3): the user scope first, then the
        Workspaces by newest activity (ties by key), ``limit`` at most, those placed after the
        cursor place ``after``; with ``query``, only the scopes whose title, key or Workspace
        path holds it (case-insensitive).

        Every scope is placed and counted from its folder's and index's stat
        (:mod:`~memory_api.store.overview`); only the page's scopes are read and linted, their
        counts and lint tallies kept in ``records`` (the agent's file; by default this
        object's, in memory); with ``fed`` (the agent's rows kept under a change feed) only the
        scopes changed since the last request are placed again. ``user_unusable`` says why the
        user scope, which there always is (K-6), has no folder (something else in its place):
        it is then listed first all the same, ``unreadable`` saying so, with no files, and
        counted (Q-2b: never left out as if there were none).
        """
        records = records if records is not None else self.records
        skipped = Skipped()
        if fed is None:
            rows = scope_rows(root, records, skipped=skipped)
        else:
            with fed.lock:
                rows = scope_rows(root, records, fed)
                skipped = fed.skipped
        if user_unusable is not None and all(row.key != USER_SCOPE for row in rows):
            rows = [ScopeRow.of(USER_SCOPE, "", 0, 0), *rows]
        totals_files = sum(row.files for row in rows)
        matching = rows if not query else [r for r in rows if self._matches(root, r, query)]
        page, more = page_of(after_cursor(matching, after), limit)
        user_text = self._user_index_text(root) if page else None
        scopes = [
            self._summary(root, row, user_text, records)
            if row.folder
            else _unusable_user_scope(user_unusable or "")
            for row in page
        ]
        records.flush()
        return OverviewPage(
            scopes=scopes,
            totals=OverviewTotals(scopes=len(rows), files=totals_files, matching=len(matching)),
            next_cursor=cursor_of(page[-1]) if more else None,
            skipped=skipped,
        )

    def _matches(self, root: Path, row: ScopeRow, query: str) -> bool:
        """Whether the group search ``query`` is in the scope's key, title or Workspace path
        (compared case-folded); a Workspace's path comes from its marker, judged once per
        version (:meth:`ScopeFiles.marker`)."""
        wanted = query.casefold()
        if row.key == USER_SCOPE:
            return any(wanted in text.casefold() for text in (USER_SCOPE, USER_TITLE))
        if wanted in row.key:
            return True
        path = self.files.marker(root, row.folder, row.key, orphan_check=False).path
        return path is not None and wanted in path.casefold()

    def scope_summary(
        self, root: Path, key: str, scope: Path, records: ScopeRecords | None = None
    ) -> ScopeSummary:
        """The overview entry (A-3) of the one scope ``key`` at the real ``scope``; its counts
        and lint tally kept in ``records`` as :meth:`overview` keeps them."""
        records = records if records is not None else self.records
        folder = os.fspath(scope)
        try:
            info = scope.stat()
        except (FileNotFoundError, NotADirectoryError):
            raise NotFound(f"no scope {key!r}") from None
        except OSError as error:  # there, but cannot be looked at: never "no scope" (Q-2b)
            logger.warning("scope folder %s cannot be looked at: %s", scope, error)
            raise CannotRead(
                f"scope {key!r} cannot be looked at: the service {cannot_read(error)}"
            ) from None
        files = folder_count(root, folder, info, records)
        row = ScopeRow.of(key, folder, scope_activity(folder, info.st_mtime_ns), files)
        summary = self._summary(root, row, self._user_index_text(root), records)
        records.flush()
        return summary

    def _scope_findings(
        self, root: Path, scope: Path, key: str, listing: ScopeListing, read: _Read
    ) -> list[Finding]:
        """The scope's whole lint (T-5), as the listing reports it."""
        index = self.files.read(root, scope)
        user_index = None if key == USER_SCOPE else self._user_index_text(root)
        return self._lint(key, scope, listing, index, read, user_index)

    def _user_index_text(self, root: Path) -> str | None:
        """The user index's text, the companion of every Workspace index (I-4), or None."""
        user_scope = self._user_scope(root)
        found = self.files.read(root, user_scope) if user_scope is not None else None
        return found.readable_text if found is not None else None

    def topic_list(
        self,
        root: Path,
        scope: Path,
        key: str,
        limit: int = FILES_DEFAULT_LIMIT,
        cursor: str | None = None,
    ) -> TopicList:
        """A page of the scope's topic files, sorted by file name, and the scope's lint paged
        with them (A-5, :mod:`~memory_api.store.file_pages`): at most ``limit`` files after
        ``cursor``; a file that cannot be read is listed with that problem. :class:`CannotRead`
        (503) when the folder itself cannot be listed: it is never answered as an empty scope
        (Q-2b).

        A page costs its own rows: the scope's names are listed (an ``lstat`` each), only the
        page's topic files are read and linted (:func:`~memory_core.lint.lint_topic_in_scope`,
        each beside the scope's names and index). The first page also carries the scope-wide
        findings from the names and the index (the index's, the folder's, the names'); the last
        the convention findings (T-5a), for which every topic is parsed (through the cache,
        filled by the pages before) but none linted. A page reads other files only when one
        decides a finding about a file of the page (a naming or frontmatter convention it may
        fold into, a ``[[link]]`` to a frontmatter name), and only up to the first that
        decides it (:meth:`_page_findings`)."""
        listing = self._scan(root, scope)
        if listing.error is not None:
            raise CannotRead(f"scope {key!r} cannot be listed: the service {listing.error}")
        entries = sorted(listing.topics, key=lambda entry: entry.file)
        names = [entry.file for entry in entries]
        start, end, next_cursor = page_after(names, cursor, limit)
        read = self._load(entries[start:end])
        rows: list[tuple[str, _Loaded | _Unreadable]] = [
            *((item.entry.file, item) for item in read.loaded),
            *((item.entry.file, item) for item in read.unreadable),
        ]
        rows.sort(key=lambda row: row[0])
        files = [  # a name or description past LISTED_CHARS cut (the file's answer: whole)
            listed_row(self._listed(item)) if isinstance(item, _Loaded) else item.row()
            for _, item in rows
        ]
        findings = self._page_findings(
            root, scope, key, listing, names, read, first=start == 0, last=next_cursor is None
        )
        self.cache.keep(
            os.fspath(scope), [(item.entry.path, item.entry.file) for item in read.loaded], names
        )
        return TopicList(
            scope=key, files=files, findings=findings, total=len(names), next_cursor=next_cursor
        )

    def _page_findings(
        self,
        root: Path,
        scope: Path,
        key: str,
        listing: ScopeListing,
        names: list[str],
        read: _Read,
        *,
        first: bool,
        last: bool,
    ) -> list[Finding]:
        """The findings a page of the listing carries (T-5, A-5): on the ``first`` page those
        about the scope from its names and index (the index, the folder, refused entries); on
        the ``last`` the conventions (T-5a), which judge every file's frontmatter; then, for
        each file of the page (``read``), what the scope's lint says about it. ``names`` are
        every topic file of the scope, judged present. Other files are read (through the cache)
        only as far as a finding about a file of the page needs them
        (:func:`~memory_core.lint.lint_topics_in_scope`), and all on the last page."""
        index = self.files.read(root, scope)
        user_index = None if key == USER_SCOPE else self._user_index_text(root)
        unreadable = [(item.entry.file, item.why) for item in read.unreadable]
        walk = _walker(scope)
        inputs = _lint_inputs(key, scope, listing, index, names, unreadable, [], user_index, walk)
        listed, on_page = set(names), {item.entry.file for item in read.loaded}

        on_page.update(name for name, _ in unreadable)
        scope_topics, parsed_files, titles = self._beside_page(scope, listing, read, on_page)
        partial = index.read.partial if index is not None else None
        facts = index.facts() if index is not None and inputs.text is not None else None
        findings: list[Finding] = []
        if first:  # the scope's own: the index's, the folder's, refused entries
            found = lint_scope(
                inputs.text,
                [],
                names,
                companion_index=inputs.companion,
                refused=listing.refused,
                unreadable=inputs.unreadable,
                partial=partial,
                facts=facts,
                in_sub_folders=inputs.in_sub_folders,
                not_looked_up=inputs.not_looked_up,
                index_problems=index.read.problems if index is not None else (),
                names_judged=False,  # lint_names_in_scope's, file by file, below
            )
            findings.extend(finding for finding in found if finding.file not in listed)
        findings.extend(
            lint_names_in_scope(
                names,
                on_page,
                inputs.text,
                unreadable=unreadable,
                partial=partial,
                facts=facts,
                in_sub_folders=inputs.in_sub_folders,
            )
        )
        if last and len(names) > 1:
            findings.extend(convention_findings(list(scope_topics())))
        paths_of = {item.topic.file: item.entry.path for item in read.loaded}
        topics = [item.topic for item in read.loaded]
        deeper, unsought = body_sub_folder_files(scope, topics, walk, names)
        findings.extend(
            lint_topics_in_scope(
                topics,
                names,
                scope_topics=scope_topics,
                parsed_files=parsed_files,
                titles=titles,
                own=lambda topic: self.cache.lint(paths_of[topic.file], topic),
                in_sub_folders=deeper,
                not_looked_up=unsought,
            )
        )
        return findings

    def _beside_page(
        self, scope: Path, listing: ScopeListing, read: _Read, on_page: Collection[str]
    ) -> tuple[
        Callable[[], Iterator[ParsedTopic]],
        Callable[[], Iterator[str]],
        Callable[[], frozenset[str] | None],
    ]:
        """What a page's lint draws beside its files ``read`` (``on_page``: theirs, read or
        not), lazily: every topic of the scope, the page's first, the others read one at a
        time; their names, none parsed: the page's read ones, then each other file that opens
        (:meth:`TopicCache.readable`, T-5a); and the link keys of every topic's ``name``
        (:meth:`_scope_titles`), kept by every topic file's stat key: a page whose ``[[link]]``
        names no file (a note not written yet) finds them without parsing the scope's files
        but once, not once a page nor once a restart (T-5b)."""
        where, topics = os.fspath(scope), listing.topics

        @functools.cache
        def version() -> FileKey:
            return derived_key(tuple(e.file for e in topics), [file_key(e.stat) for e in topics])

        def scope_topics() -> Iterator[ParsedTopic]:
            titles: set[str] = set()
            for topic in self._topics_beside(listing, read, on_page):
                titles.update(link_keys(topic.name))
                yield topic
            self._titles.put(where, version(), frozenset(titles))  # every one drawn

        def parsed_files() -> Iterator[str]:
            yield from (item.entry.file for item in read.loaded)
            for entry in listing.topics:
                if entry.file not in on_page and self.cache.readable(
                    entry.path, entry.file, entry.stat
                ):
                    yield entry.file

        def titles() -> frozenset[str]:
            kept = self._titles.get(where, version())
            if kept is None:
                kept = self._scope_titles(where, listing, read, on_page)
                self._titles.put(where, version(), kept)
            return kept

        return scope_topics, parsed_files, titles

    def _scope_titles(
        self, scope: str, listing: ScopeListing, read: _Read, on_page: Collection[str]
    ) -> frozenset[str]:
        """The link keys of the frontmatter ``name`` of every topic of the real scope folder
        ``scope`` that reads, as drawing them all gives (T-5b): the page's (``read``), then
        each other file's as known for its listed stat, in memory or in the memo on disk
        (:meth:`TopicCache.names`, nothing parsed), the rest read (one gone or unreadable left
        out, Q-2b) and their names stored in the memo for the next start."""
        others = [entry for entry in listing.topics if entry.file not in on_page]
        known = self.cache.names(scope, [(entry.path, entry.file, entry.stat) for entry in others])
        fresh = self._load([entry for entry in others if entry.file not in known]).loaded
        self.cache.keep_names(
            scope, [(item.entry.path, item.entry.file, item.key, item.topic.name) for item in fresh]
        )
        names = [
            *(item.topic.name for item in read.loaded),
            *known.values(),
            *(item.topic.name for item in fresh),
        ]
        return frozenset().union(*map(link_keys, names))

    def _topics_beside(
        self, listing: ScopeListing, read: _Read, on_page: Collection[str]
    ) -> Iterator[ParsedTopic]:
        """Every topic of the scope, those ``read`` first, the others read one at a time."""
        yield from (item.topic for item in read.loaded)
        for entry in listing.topics:
            if entry.file not in on_page:
                yield from (item.topic for item in self._load([entry]).loaded)

    def topic_file(
        self, root: Path, scope: Path, key: str, file_name: str, *, reveal: bool = False
    ) -> TopicFile:
        """One topic file (A-5); :class:`NotFound` when it does not list (missing, outside),
        :class:`CannotRead` (503) when it is there but cannot be read, or its scope folder
        cannot be listed, so whether it is there is unknown (Q-2b).

        Its findings are those the scope's lint gives about this file, found by linting it
        alone beside the scope's index and file names (the other files are read only when one
        of them decides a finding about it, :func:`~memory_core.lint.lint_topic_in_scope`);
        likely credentials are masked (I-8) unless ``reveal`` (W-6).
        """
        entry = topic_entry(root, scope, file_name)
        read = self._load([entry], light_ok=False) if entry is not None else _Read([], [])
        if not read.loaded and (moved := moved_scope(scope, f"scope {key!r}")) is not None:
            raise moved  # its folder moved or removed meanwhile: said, never "no file" (Q-2b)
        if read.unreadable:
            raise CannotRead(
                f"topic file {file_name!r} in scope {key!r} is there, but the service "
                f"{read.unreadable[0].why}"
            )
        if not read.loaded:
            listing = self.folders.listing(scope) if entry is None else None
            if listing is not None and listing.error is not None:
                raise CannotRead(  # a folder it may not enter: absent for all it can tell
                    f"topic file {file_name!r} in scope {key!r} cannot be looked up: the "
                    f"scope cannot be listed: the service {listing.error}"
                )
            raise no_topic_file(root, scope, file_name, f"scope {key!r}")
        item = read.loaded[0]
        body = _masked(item.topic.body, reveal) or ""
        summary = _topic_summary(item, reveal=reveal)
        names = self._scope_names(root, scope, item)
        deeper, unsought = body_sub_folder_files(scope, [item.topic], _walker(scope), names)
        return TopicFile(
            **msgspec.structs.asdict(summary),
            body=body,
            links=item.topic.links,
            link_files=self._link_files(root, scope, item, [*names, *deeper]),
            findings=self._file_findings(root, scope, item, names, (deeper, unsought)),
            masked=body != item.topic.body
            or summary.description != item.topic.description
            or summary.name != item.topic.name,
        )

    def _scope_names(self, root: Path, scope: Path, item: _Loaded) -> list[str]:
        """The names of the scope's topic files, the loaded ``item``'s among them."""
        listing = self.folders.listing(scope)
        names = _listed_names(root, scope, listing) if listing is not None else []
        if item.entry.file not in names:
            names.append(item.entry.file)
        return names

    def _scope_topics(self, root: Path, scope: Path) -> list[ParsedTopic]:
        """Every topic file of the scope, parsed (from the cache where it is current)."""
        return [loaded.topic for loaded in self._load(self._scan(root, scope).topics).loaded]

    def _link_files(
        self, root: Path, scope: Path, item: _Loaded, names: list[str]
    ) -> dict[str, str | None]:
        """The file each ``[[link]]`` of ``item``'s body opens, as the lint resolves it
        (:class:`~memory_core.wiki_links.WikiFiles`), or None: among ``names``, the scope's
        topic files and the files of its sub-folders the links name
        (:func:`body_sub_folder_files`: ``[[notes/deploy]]`` opens ``notes/deploy.md``,
        ``[[feb]]`` ``archive/2026/feb.md`` when no topic file is named so), by file names
        first, the other files read for their frontmatter names only when a link is left
        (T-5b)."""
        links = item.topic.links
        files = WikiFiles(names)
        found = {link: files.resolve(link) for link in links}
        if None in found.values():
            titled = [(topic.name, topic.file) for topic in self._scope_topics(root, scope)]
            files = WikiFiles(names, titled)
            found = {link: files.resolve(link) for link in links}
        return found

    def _file_findings(
        self,
        root: Path,
        scope: Path,
        item: _Loaded,
        names: list[str],
        deeper: tuple[frozenset[str], dict[str, str]],
    ) -> list[Finding]:
        """The scope lint's findings about the loaded topic file ``item`` (T-5); ``names``
        the scope's topic files (:meth:`_scope_names`), ``deeper`` the files of its
        sub-folders its body's ``[[links]]`` name and the links' paths not looked up so far
        (:func:`body_sub_folder_files`)."""
        index = self.files.read(root, scope)

        def scope_topics() -> list[ParsedTopic]:
            return self._scope_topics(root, scope)

        def parsed_files() -> list[str]:  # scope_topics()'s names, none parsed
            topics = self._scan(root, scope).topics
            return [e.file for e in topics if self.cache.readable(e.path, e.file, e.stat)]

        return lint_topic_in_scope(
            item.topic,
            names,
            index.readable_text if index is not None else None,
            scope_topics=scope_topics,
            parsed_files=parsed_files,
            own=self.cache.lint(item.entry.path, item.topic),
            partial=index.read.partial if index is not None else None,
            facts=index.facts() if index is not None else None,
            in_sub_folders=deeper[0],
            not_looked_up=deeper[1],
        )

    def index_view(self, root: Path, scope: Path, key: str, *, reveal: bool = False) -> IndexView:
        """The raw index, each line kept or dropped by the injection, and the scope's lint.

        A Workspace index is capped as a Session in that Workspace would get it: beside the
        user index, sharing the character budget (I-4); the user index as if injected alone.
        Likely credentials are masked in the text and its lines (I-8) unless ``reveal`` (W-6).
        """
        index = self.files.read(root, scope)
        text = index.readable_text if index is not None else None
        prepared = self.files.prepared(root, scope)  # carries any lines past the read cap
        user_index = None
        if key == USER_SCOPE:
            capped = cap_indexes(prepared, None, workspace_key=None)[0]
        else:
            user_scope = self._user_scope(root)
            user_index = self._user_index_text(root)
            user_prepared = self.files.prepared(root, user_scope)
            capped = cap_indexes(user_prepared, prepared, workspace_key=key)[1]
        kept = set(capped.kept)
        written = index_lines(text or "")
        shown = written if reveal else mask_secret_lines(written)
        lines = [
            IndexLine(number=number, text=line, kept=number in kept)
            for number, line in enumerate(shown, start=1)
        ]
        listing = self._scan(root, scope)
        read = self._load(listing.topics)
        findings = self._lint(key, scope, listing, index, read, user_index)
        for item in read.loaded:  # the memo keeps a file's findings with its listing row:
            self._listed(item)  # the next process then reads none (5,000 files: 3 s of CPU)
        stored = [(item.entry.path, item.entry.file) for item in read.loaded]
        self.cache.keep(os.fspath(scope), stored, [entry.file for entry in listing.topics])
        return IndexView(
            scope=key,
            exists=_index_there(index, capped.manifest.unreadable),
            raw=_raw_shown(text or "", written, shown),
            lines=lines,
            manifest=capped.manifest,
            findings=findings,
        )


def _index_there(index: ScopeIndex | None, unread: str | None) -> bool:
    """:attr:`~memory_core.wire.IndexView.exists`: a ``MEMORY.md`` read, or there and never
    read (no permission; a FIFO, a folder, a symlink out of the root, T-5b: the manifest's
    ``unreadable`` says why, as the injection does); False when none is there or its scope
    folder cannot be read, so whether one is cannot be told (Q-2b)."""
    if index is None:
        return unread is not None and not is_folder_unread(unread)
    return not (index.error and is_folder_unread(index.error))


@dataclass(frozen=True, slots=True)
class _LintInputs:
    """What a scope's lint judges besides the topics' parses: the index's text, the
    user index beside it (``companion``), what could not be read, the index's links into
    sub-folders found there, the facts a memo of the lint is keyed by (``judged``: the
    companion, the file names, the refused and unreadable entries) and the stat keys of the
    files read (the topic files, then the index)."""

    text: str | None
    companion: str | None
    unreadable: list[tuple[str, str]]
    in_sub_folders: frozenset[str]
    not_looked_up: dict[str, str]
    judged: tuple[object, ...]
    keys: list[FileKey]


def _lint_inputs(
    key: str,
    scope: Path,
    listing: ScopeListing,
    index: ScopeIndex | None,
    files: list[str],
    unreadable_files: list[tuple[str, str]],
    keys: list[FileKey],
    user_index: str | None,
    walk: Walk,
) -> _LintInputs:
    """The :class:`_LintInputs` of scope ``key`` at the real ``scope``: its ``listing``, its
    ``index`` as read, the topic ``files`` judged present (``unreadable_files`` among them,
    with why), the stat ``keys`` of the topic files read and the request's ``walk`` of the
    scope's sub-folders (:func:`_walker`)."""
    text = index.readable_text if index is not None else None
    links = index.links() if index is not None and text is not None else {}
    unreadable = list(unreadable_files)
    if index is not None and index.error is not None:
        unreadable.append((layout.INDEX_FILE, index.error))
    if listing.error is not None:
        unreadable.append(("", listing.error))
    if index is not None:
        keys = [*keys, file_key(index.read.stat)]
    companion = None if key == USER_SCOPE else user_index
    judged = (companion, tuple(files), tuple(listing.refused), tuple(unreadable))
    # a wiki link names a note by its path's end, or by its name alone in any folder; a
    # Markdown link, a path, does not: found as every reader of the index finds them
    wiki = index.wiki if index is not None else dict
    there, not_looked_up = index_sub_folder_files(scope, links, wiki, files, walk)
    return _LintInputs(text, companion, unreadable, there, not_looked_up, judged, keys)


def _unusable_user_scope(why: str) -> ScopeSummary:
    """The overview entry of a user scope with no folder, ``why`` saying what is in its place
    (A-3, K-6, Q-2b): no files known, one ``unreadable`` error, no activity."""
    return ScopeSummary(
        key=USER_SCOPE,
        kind="user",
        title=USER_TITLE,
        workspace_path=None,
        file_count=0,
        last_activity=None,
        marker_problems=[],
        orphaned=False,
        lint_counts={"unreadable": 1},
        severity_counts={SEVERITIES["unreadable"]: 1},
        lint_severities={"unreadable": SEVERITIES["unreadable"]},
        unreadable=why,
    )


def _title(path: str | None, key: str) -> str:
    """A Workspace scope's title: its path's basename, else the path, else the key (A-3)."""
    return (PurePath(path).name or path) if path else key


def _said(not_looked_up: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """``not_looked_up`` (path → where the service did not look) as a memo's key holds it."""
    return tuple(sorted(not_looked_up.items()))


def body_sub_folder_files(
    scope: Path, topics: list[ParsedTopic], walk: Walk, names: Collection[str]
) -> tuple[frozenset[str], dict[str, str]]:
    """``(there, not_looked_up)`` of the ``[[links]]`` of the ``topics``' bodies in the real
    ``scope``'s sub-folders (``names``: the scope's topic files): the files they name with a
    folder (``[[Notes/Deploy]]``: ``notes/deploy.md`` when it is there, in any case,
    :func:`~memory_api.store.scopes.sub_folder_files_any_case`; else, as Obsidian finds it, a
    file whose path ends so, ``archive/notes/deploy.md``,
    :func:`~memory_api.store.scopes.sub_folder_files_ending`) or by a name alone that no topic
    file has (``[[feb]]``: ``archive/2026/feb.md``), as relative paths, which the lint
    resolves those links among (T-5b); and the links' paths the walk stopped at its bound
    before finding (:func:`~memory_api.store.wiki_notes.named_sub_folder_files`). A ``stat``
    or a listing per link with a folder, the request's one ``walk`` of the sub-folders
    (:func:`_walker`) when one is left; none for a body whose links all name topic files."""
    paths = sought_in_sub_folders((link for topic in topics for link in topic.links), names)
    if not paths:
        return frozenset(), {}
    return named_sub_folder_files(scope, paths, walk, by_end=paths)


def _walker(scope: Path) -> Walk:
    """The :data:`Walk` of the real ``scope``: :func:`~memory_api.store.scopes.walk_sub_folders`
    run at most once, when a link first needs it, however many readers ask (T-5b)."""
    return functools.cache(functools.partial(walk_sub_folders, scope))


def _listed_names(root: Path, scope: Path, listing: FolderListing) -> list[str]:
    """The names of the topic files a folder ``listing`` holds (judged entries judged now)."""
    names = list(listing.regular)
    names.extend(entry.file for entry in judged_topics(root, scope, listing))
    return names
