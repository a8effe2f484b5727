"""MemoryStore: the memory API's view of the disk (A-3…A-9), one method per route.

Each method checks the ids it is given (K-7) before any I/O, confirms the agent exists in the
project through the :class:`~memory_api.store.agents.AgentStore` (an agent of another project is
a 404, A-10), then does its file work in a worker thread (``asyncio.to_thread``) so the event
loop never blocks on the disk.

Nothing is remembered between requests except what is keyed by the stat of the files it came
from and so can never disagree with the disk: the parse cache
(:mod:`memory_api.store.topic_cache`), the search index and the overview's scope records
(:mod:`memory_api.store.scope_records`, on disk beside the data); so several service processes
can share one data dir (Q-4). The API only reads and deletes (A-8): its one
write into a scope is the index pruning of A-6, done under the scope's cross-process lock; it
also creates the user scope on demand (K-6) and, at Session start, a Workspace scope and its
marker (K-5).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from memory_core.keys import (
    USER_SCOPE,
    check_agent_id,
    check_project_id,
    check_scope_key,
    check_topic_file_name,
)
from memory_core.template import has_memory_placeholder, insert_placeholder
from memory_core.wire import (
    DeleteResult,
    Finding,
    ForgetResult,
    IndexView,
    MemoryOverview,
    PlaceholderResult,
    ScopeSummary,
    SearchResults,
    SessionStartRequest,
    SessionStartResponse,
    TopicFile,
    TopicList,
)

from memory_api.errors import BadRequest, NotFound, ServiceError
from memory_api.store.agents import AgentRecord, AgentStore
from memory_api.store.answers import OverviewPage, ScopeAnswers
from memory_api.store.change_feed import ChangeFeed
from memory_api.store.containment import checked_memory_root, real_path
from memory_api.store.entity_tags import NO_PRECONDITIONS, Preconditions
from memory_api.store.file_names import on_disk_name
from memory_api.store.file_pages import FILES_DEFAULT_LIMIT, check_page
from memory_api.store.forget import forget_scope, recover_leftover
from memory_api.store.history.recorder import Attribution, NotRecorded, Recorded, ScopeHistories
from memory_api.store.history.service import scope_history_bytes
from memory_api.store.listings import FolderListings
from memory_api.store.locks import lock_name
from memory_api.store.not_scopes import forgotten_key, skipped_entries
from memory_api.store.overview import (
    GROUP_QUERY_MAX,
    OVERVIEW_DEFAULT_LIMIT,
    OVERVIEW_MAX_LIMIT,
    FedRows,
    Place,
    parse_cursor,
)
from memory_api.store.pruning import Pruned, delete_topic
from memory_api.store.recently_used import RecentlyUsed
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.scope_records import MAX_AGENTS, ScopeRecordFiles
from memory_api.store.scopes import (
    existing_scope_dir,
    scope_real_dir,
    scope_unusable,
    vanished_scopes,
)
from memory_api.store.search import MemorySearch
from memory_api.store.sessions import check_workspace_path, start_session
from memory_api.store.stat_cache import NeedsBlockingIO
from memory_api.store.topic_cache import TopicCache
from memory_api.store.topic_memo import MEMO_FILE, TopicMemo

__all__ = ["MemoryStore"]

T = TypeVar("T")

logger = logging.getLogger(__name__)


def _check(project: str, agent_id: str, key: str | None = None, file: str | None = None) -> None:
    """Check every id of a request against K-7 before any I/O; raises ``InvalidId`` (400)."""
    check_project_id(project)
    check_agent_id(agent_id)
    if key is not None:
        check_scope_key(key)
    if file is not None:
        check_topic_file_name(file)


class MemoryStore:
    """The memory files of every agent under one data dir.

    ``app_data_dir`` is the service's data dir; ``agents`` the agent store of the same dir (its
    cross-process locks are shared); ``cache`` a parse cache (by default a fresh one over the
    listing memo on disk, :mod:`~memory_api.store.topic_memo`);
    ``histories`` the scopes' histories a delete is recorded in (V-1; none kept without it);
    ``feed`` the process's change feed (:mod:`~memory_api.store.change_feed`; a new one by
    default).
    """

    def __init__(
        self,
        app_data_dir: Path,
        agents: AgentStore,
        *,
        cache: TopicCache | None = None,
        histories: ScopeHistories | None = None,
        feed: ChangeFeed | None = None,
    ) -> None:
        self.app_data_dir = real_path(app_data_dir)
        self.agents = agents
        self.locks = agents.locks
        self.histories = histories or ScopeHistories(self.app_data_dir, enabled=False)
        self.files = ScopeFiles()
        self.folders = FolderListings()
        parse_cache = (
            cache
            if cache is not None
            else TopicCache(memo=TopicMemo(self.app_data_dir / MEMO_FILE))
        )
        self.answers = ScopeAnswers(parse_cache, self.files, self.folders)
        self.feed = feed if feed is not None else ChangeFeed()
        """What changed in the memory roots between requests (inotify, where it sees all)."""
        self.searcher = MemorySearch(self.app_data_dir, feed=self.feed)
        self.records = ScopeRecordFiles(self.app_data_dir)
        self._fed_rows: RecentlyUsed[str, FedRows] = RecentlyUsed(MAX_AGENTS)

    # --- helpers (blocking ones run in worker threads) ---------------------------------------

    def _root(self, agent_id: str) -> Path:
        return checked_memory_root(self.app_data_dir, agent_id)

    def _scope(self, agent_id: str, key: str) -> tuple[Path, Path]:
        """Return (real root, real scope dir); the user scope is created on demand (K-6).

        A scope that is missing or is no directory inside the root (a file on its way) is
        :class:`NotFound` (404), never a 500; one whose folder's place holds a file, a FIFO or
        a socket is :class:`~memory_api.errors.NotAFolder` (503: it is there, and cannot be
        used); the user scope, when the operating system refuses to make it (a read-only or
        full data dir, no permission) is :class:`Unavailable` (503) saying why, never "no
        scope" (:func:`~memory_api.store.scopes.existing_scope_dir`).
        """
        root = self._root(agent_id)
        return root, existing_scope_dir(root, key, agent_id)

    def _with_agent(
        self, project: str, agent_id: str, work: Callable[..., T], *args: Any
    ) -> tuple[AgentRecord, T]:
        """Load the agent (``NotFound`` unless it is one of ``project``), then run ``work``:
        both in the one worker thread a request uses (each thread hop costs a wake-up)."""
        return self.agents.load(project, agent_id), work(*args)

    def _start(
        self, project: str, agent_id: str, workspace: str, *, cached_only: bool
    ) -> SessionStartResponse:
        record = self.agents.load(project, agent_id, cached_only=cached_only)
        return start_session(
            self.app_data_dir, record, workspace, self.files, cached_only=cached_only
        )

    def _overview(
        self, agent_id: str, limit: int, after: Place | None, query: str | None
    ) -> OverviewPage:
        root = self._root(agent_id)
        for again in (True, False):  # listed again (no feed: it may not have seen it yet)
            page = self.answers.overview(  # once leftovers of a forget were put back
                root,
                limit=limit,
                after=after,
                query=query,
                records=self.records.of(agent_id),
                fed=self._fed(agent_id, root) if again else None,
                user_unusable=scope_unusable(root, USER_SCOPE, agent_id),
            )
            if not (again and page.skipped.forgetting and self._recover(agent_id, root, page)):
                break
        scopes = [self._with_history(agent_id, root, scope) for scope in page.scopes]
        return OverviewPage(scopes, page.totals, page.next_cursor, page.skipped)

    def _recover(self, agent_id: str, root: Path, page: OverviewPage) -> bool:
        """Put back or finish what the forgets that stopped half-way left in ``root``, each
        under its scope's lock (:func:`~memory_api.store.forget.recover_leftover`, K-5);
        whether any changed (then the overview is listed again)."""
        changed = False
        for hidden in page.skipped.forgetting:
            key = forgotten_key(hidden)
            if key is None:
                continue
            try:
                with self.locks.hold_sync(lock_name("index", agent_id, key)):
                    changed = recover_leftover(root, hidden, key) or changed
            except (OSError, ServiceError) as error:
                logger.warning("agent %s: %s not recovered: %s", agent_id, hidden, error)
        return changed

    def _fed(self, agent_id: str, root: Path) -> FedRows:
        """The overview rows of ``agent_id`` kept under the change feed of its ``root`` (the
        last :data:`~memory_api.store.scope_records.MAX_AGENTS` agents asked)."""
        return self._fed_rows.get_or_make(
            agent_id,
            lambda: FedRows(self.feed.root(os.fspath(root))),
            usable=lambda fed: fed.reader is not None,  # else ask again: the root may be there now
        )

    def _scope_summary(self, agent_id: str, key: str) -> ScopeSummary:
        root, scope = self._scope(agent_id, key)
        summary = self.answers.scope_summary(root, key, scope, self.records.of(agent_id))
        return self._with_history(agent_id, root, summary)

    def _with_history(self, agent_id: str, root: Path, scope: ScopeSummary) -> ScopeSummary:
        """``scope`` with what its history takes on disk (V-3), when histories are kept."""
        if not self.histories.enabled:
            return scope
        history = self._history_bytes(agent_id, root / scope.key)
        return msgspec.structs.replace(scope, history_bytes=history)

    def _history_bytes(self, agent_id: str, scope: Path) -> int:
        try:
            return scope_history_bytes(self.histories.repository(agent_id, scope))
        except ServiceError:  # a history folder that is no plain folder: reported as none
            return 0

    def _list(self, agent_id: str, key: str, limit: int, cursor: str | None) -> TopicList:
        return self.answers.topic_list(*self._scope(agent_id, key), key, limit, cursor)

    def _read(self, agent_id: str, key: str, file_name: str, reveal: bool) -> TopicFile:
        root, scope = self._scope(agent_id, key)
        name = on_disk_name(scope, file_name)
        return self.answers.topic_file(root, scope, key, name, reveal=reveal)

    def _scope_and_name(self, agent_id: str, key: str, file_name: str) -> tuple[Path, Path, str]:
        """(real root, real scope dir, the file's name on disk: :func:`on_disk_name`)."""
        root, scope = self._scope(agent_id, key)
        return root, scope, on_disk_name(scope, file_name)

    def _index(self, agent_id: str, key: str, reveal: bool) -> IndexView:
        return self.answers.index_view(*self._scope(agent_id, key), key, reveal=reveal)

    # --- the routes' operations ---------------------------------------------------------------

    async def overview(
        self,
        project: str,
        agent_id: str,
        *,
        limit: int = OVERVIEW_DEFAULT_LIMIT,
        cursor: str | None = None,
        query: str | None = None,
    ) -> MemoryOverview:
        """A-3: the switch, whether the template holds ``{{MEMORY}}``, one page of scopes and
        the totals of all of them.

        Scopes: the user scope first (created on demand, K-6), then the Workspace scopes by
        newest activity (newest first, ties by key); ``limit`` (1 to
        :data:`~memory_api.store.overview.OVERVIEW_MAX_LIMIT`) of them after ``cursor`` (the
        ``nextCursor`` of the page before), only those matching the group search ``query``.
        Raises ``InvalidId``, :class:`~memory_api.errors.BadRequest` (a bad limit, cursor or
        query) and :class:`~memory_api.errors.NotFound` (unknown agent, or one of another
        project).
        """
        _check(project, agent_id)
        if not 1 <= limit <= OVERVIEW_MAX_LIMIT:
            raise BadRequest(f"limit must be between 1 and {OVERVIEW_MAX_LIMIT}")
        if query is not None and len(query) > GROUP_QUERY_MAX:
            raise BadRequest(f"q must be at most {GROUP_QUERY_MAX} characters")
        after = parse_cursor(cursor) if cursor is not None else None
        record, page = await asyncio.to_thread(
            self._with_agent, project, agent_id, self._overview, agent_id, limit, after, query
        )
        return MemoryOverview(
            enabled=record.memory.enabled,
            template_has_memory=has_memory_placeholder(record.template),
            scopes=page.scopes,
            totals=page.totals,
            next_cursor=page.next_cursor,
            skipped=skipped_entries(page.skipped),
            skipped_count=page.skipped.count,
        )

    async def scope(self, project: str, agent_id: str, key: str) -> ScopeSummary:
        """A-3 for one scope: its overview entry, wherever it stands in the order.

        Raises ``InvalidId`` (400) and :class:`NotFound` (404: agent, or a Workspace key with
        no directory; the user scope is created on demand).
        """
        _check(project, agent_id, key)
        _, answer = await asyncio.to_thread(
            self._with_agent, project, agent_id, self._scope_summary, agent_id, key
        )
        return answer

    async def list_files(
        self,
        project: str,
        agent_id: str,
        key: str,
        *,
        limit: int = FILES_DEFAULT_LIMIT,
        cursor: str | None = None,
    ) -> TopicList:
        """A-5: a page of scope ``key``'s topic files, sorted by file name: at most ``limit``
        (1-:data:`~memory_api.store.file_pages.FILES_MAX_LIMIT`) after ``cursor`` (the
        ``nextCursor`` of the page before); its ``nextCursor`` names the next page, none left
        out.

        Raises ``InvalidId`` (400), :class:`~memory_api.errors.BadRequest` (a bad limit or
        cursor) and :class:`NotFound` (404: agent, or a Workspace key with no directory; the
        user scope is created on demand).
        """
        _check(project, agent_id, key)
        check_page(limit, cursor)
        _, answer = await asyncio.to_thread(
            self._with_agent, project, agent_id, self._list, agent_id, key, limit, cursor
        )
        return answer

    async def read_index(
        self, project: str, agent_id: str, key: str, *, reveal: bool = False
    ) -> IndexView:
        """A-5: the scope's raw index, each line kept or dropped by the injection, and lint.

        Likely credentials are masked (I-8) unless ``reveal`` (W-6)."""
        _check(project, agent_id, key)
        _, answer = await asyncio.to_thread(
            self._with_agent, project, agent_id, self._index, agent_id, key, reveal
        )
        return answer

    async def read_file(
        self, project: str, agent_id: str, key: str, file_name: str, *, reveal: bool = False
    ) -> TopicFile:
        """A-5: one topic file's fields, body (frontmatter stripped), ``[[links]]``, findings.

        Likely credentials are masked (I-8) unless ``reveal`` (W-6). Raises ``InvalidId`` for a
        bad name (K-7) and :class:`NotFound` for a missing file or one that leads outside the
        memory root (A-7).
        """
        _check(project, agent_id, key, file_name)
        _, answer = await asyncio.to_thread(
            self._with_agent, project, agent_id, self._read, agent_id, key, file_name, reveal
        )
        return answer

    async def delete_file(
        self,
        project: str,
        agent_id: str,
        key: str,
        file_name: str,
        principal: str = "local",
        conditions: Preconditions = NO_PRECONDITIONS,
    ) -> DeleteResult:
        """A-6: delete the topic file and every index line linking to it, under the scope lock,
        recorded as a version by ``principal`` (V-1; what was on disk is recorded first).

        Raises ``InvalidId``, :class:`NotFound`, :class:`~memory_api.errors.Conflict` (409,
        nothing deleted) when the index kept changing during every pruning attempt, or the file
        is one the history can never keep as it is (over its read cap, hard-linked), and
        :class:`~memory_api.store.history.git.HistoryUnavailable` (503, nothing deleted) when
        the history cannot record what the delete would remove now (git refuses; the file
        cannot be read). Beside a ``MEMORY.md`` that is no index the service rewrites (a folder,
        a FIFO, a symlink out of the root, a file hard-linked outside its folder) the delete is
        refused too (409, nothing deleted): a line there linking the file could not be removed.
        ``conditions`` (the request's ``If-Match`` / ``If-None-Match``) are judged under the
        scope's lock against the file as it is then (a topic file has no ETag):
        :class:`~memory_api.errors.PreconditionFailed` (412), nothing deleted; a file not there
        is the 404 it is without them (RFC 9110 §13.2.1).
        """
        _check(project, agent_id, key, file_name)
        await self.agents.get(project, agent_id)
        root, scope, file_name = await asyncio.to_thread(
            self._scope_and_name, agent_id, key, file_name
        )
        # Locked by the scope's real name: a scope reached through a symlinked alias shares it.
        # Lock, pruning and unlock in one thread hop (see Locks.run_held).
        name = lock_name("index", agent_id, scope.name)
        who = Attribution("delete", principal=principal, subject=file_name)

        def held() -> tuple[Pruned, Recorded | NotRecorded | None]:
            if os.path.lexists(scope / file_name):  # one not there: the 404 of delete_topic
                conditions.check(f"the topic file {file_name!r}", exists=True)
            return self.histories.around(
                agent_id, scope, who, delete_topic, root, scope, file_name, removes=(file_name,)
            )

        pruned, recorded = await self.locks.run_held(name, held)
        removed = pruned.removed
        unindexed = list(pruned.unindexed)
        if recorded is None:
            return DeleteResult(
                file=file_name,
                removed_index_lines=removed,
                unindexed_files=unindexed,
            )
        if isinstance(recorded, NotRecorded):  # deleted: never the answer of "no history kept"
            return DeleteResult(
                file=file_name,
                removed_index_lines=removed,
                unrecorded=recorded.why,
                unindexed_files=unindexed,
            )
        return DeleteResult(
            file=file_name,
            removed_index_lines=removed,
            version=recorded.version,
            restore_version=recorded.parent,
            unindexed_files=unindexed,
        )

    async def forget(
        self,
        project: str,
        agent_id: str,
        key: str,
        conditions: Preconditions = NO_PRECONDITIONS,
        *,
        dry_run: bool = False,
    ) -> ForgetResult:
        """K-5: forget the empty Workspace scope ``key`` (:mod:`~memory_api.store.forget`),
        under the scope's lock; its history is kept.

        Raises ``InvalidId`` (400), :class:`NotFound` (404: agent, or no such scope),
        :class:`~memory_api.errors.Conflict` (409, nothing changed: the user scope, a scope
        holding a topic file, an index line or anything else of the agent's) and
        :class:`~memory_api.errors.PreconditionFailed` (412: ``If-Match`` other than ``*``,
        ``If-None-Match: *``; a scope has no ETag). ``dry_run`` (the CLI's ``--dry-run``):
        checked the same, nothing changed.
        """
        _check(project, agent_id, key)
        await self.agents.get(project, agent_id)
        root, scope = await asyncio.to_thread(self._scope, agent_id, key)

        def held() -> str | None:
            if scope_real_dir(root, key) is None:
                raise NotFound(f"no scope {key!r} in the memory of agent {agent_id!r}")
            conditions.check(f"the scope {key!r}", exists=True)
            return forget_scope(root, scope, agent_id, key, dry_run=dry_run)

        workspace = await self.locks.run_held(lock_name("index", agent_id, scope.name), held)
        if not dry_run:
            logger.info("agent %s: scope %s forgotten (Workspace %r)", agent_id, key, workspace)
        return ForgetResult(key=key, workspace=workspace)

    def _search(
        self, agent_id: str, query: str, key: str | None, limit: int, typing: bool
    ) -> SearchResults:
        root = self._root(agent_id)
        if key is not None:
            self._scope(agent_id, key)  # 404 for a Workspace key with no directory
        found = self.searcher.search(agent_id, root, query, scope=key, limit=limit, typing=typing)
        why = scope_unusable(root, USER_SCOPE, agent_id) if key is None else None
        if why is None:
            return found
        # a vanished root: every scope its history holds is named, not the user scope alone
        keys = [USER_SCOPE, *(held for held in vanished_scopes(root) if held != USER_SCOPE)]
        unusable = [
            Finding(
                code="unreadable",
                severity="error",
                file=f"{held}/",
                line=None,
                message=f"scope {held!r} cannot be used: the service {why}: none of its "
                "files was searched",
            )
            for held in keys
        ]
        return msgspec.structs.replace(found, unreadable=[*unusable, *found.unreadable])

    async def search(
        self,
        project: str,
        agent_id: str,
        query: str,
        key: str | None,
        limit: int,
        *,
        typing: bool = False,
    ) -> SearchResults:
        """S-1: rank the topic files of every scope (or of scope ``key``) against ``query``;
        ``typing``: a query still being typed (a Korean last syllable is open, S-2).

        A change on disk is seen by this very search (the index is re-validated by stat).
        Raises ``InvalidId`` (400), :class:`~memory_api.errors.BadRequest` for an empty or too
        long query or a bad ``limit``, and :class:`NotFound` (agent, or a missing Workspace
        scope). A query without a word (only punctuation) finds nothing.
        """
        _check(project, agent_id, key)
        await self.agents.get(project, agent_id)
        return await asyncio.to_thread(self._search, agent_id, query, key, limit, typing)

    async def session_start(
        self, project: str, agent_id: str, body: SessionStartRequest
    ) -> SessionStartResponse:
        """A-9: prepare the Session's scopes (K-4…K-6, I-5) and return the injection; its
        ``sections`` only when ``body`` asks for them.

        The ids and the Workspace path are checked first; then the agent is read, the scopes are
        prepared and both indexes are read through the stat-keyed
        :class:`~memory_api.store.scope_files.ScopeFiles`, capped and wrapped (nothing else is
        kept between requests, so a change on disk is seen by the next one, Q-4). A repeat
        Session start, whose files are all kept at their current versions and which has nothing
        to create, runs on the event loop (``stat`` calls only: a thread hop and its GIL
        handovers cost more than the whole answer); anything else (a first Session, a changed
        index, a missing marker) runs the same code in a worker thread. Raises
        ``InvalidId``, :class:`NotFound`, and :class:`~memory_api.errors.BadRequest` for a
        Workspace path that is not absolute or names no folder (see ``check_workspace_path``).
        """
        _check(project, agent_id)
        workspace = check_workspace_path(body.workspace)
        try:
            answer = self._start(project, agent_id, workspace, cached_only=True)
        except NeedsBlockingIO:
            answer = await asyncio.to_thread(
                functools.partial(self._start, project, agent_id, workspace, cached_only=False)
            )
        return answer if body.sections else msgspec.structs.replace(answer, sections=[])

    async def insert_placeholder(
        self, project: str, agent_id: str, conditions: Preconditions = NO_PRECONDITIONS
    ) -> PlaceholderResult:
        """A-4: insert ``{{MEMORY}}`` and the key line into the template (I-7), idempotently.

        Runs under the agent's cross-process lock (read, insert, atomic write), so concurrent
        inserts change the template once (Q-2a). ``conditions`` are judged against the config's
        ETag under that lock (412, nothing written).
        """
        template, changed = await self.agents.update_template(
            project, agent_id, insert_placeholder, conditions
        )
        return PlaceholderResult(template=template, changed=changed)
