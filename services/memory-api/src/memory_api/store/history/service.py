"""HistoryStore: the versions API's view of the disk (V-1, V-2), one method per route.

Like :class:`~memory_api.store.memory.MemoryStore`, each method checks its ids (K-7) before
any I/O, confirms the agent is one of the project (else 404, A-10) and does its file and git
work in a worker thread. Reads take no lock (git reads a repository safely while a version is
being recorded); every record and restore holds the scope's cross-process lock, the lock of
delete and import (``index.<agent>.<scope>``), in one thread of the locks' pool
(:meth:`~memory_api.store.locks.Locks.run_held`).

A Session start is answered first and recorded after (:meth:`HistoryStore.record_later`): the
record is a task of its own, at most one per scope at a time and at most one per
:data:`RECORD_INTERVAL` (Session starts that arrive meanwhile ask for one more run after it,
not one each), so a burst of Session starts costs a record a second per scope, and none of them
waits for one. A process that dies before
the task runs loses nothing: the next record of the scope finds the change on disk.

Such a record skips a scope the process's change feed vouches unchanged since this process last
recorded it (:mod:`.unchanged`): the scan would find nothing. It scans whenever the feed cannot
vouch (no feed, its first look after a start, an overflow, a scope it does not watch, a change
it names, the last record failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_core import layout
from memory_core.errors import InvalidId
from memory_core.keys import (
    USER_SCOPE,
    check_agent_id,
    check_project_id,
    check_scope_file_name,
    check_scope_key,
    check_version_id,
)
from memory_core.scope_files import is_scope_file
from memory_core.wire import (
    DeletedFiles,
    FileAtVersion,
    FileChange,
    FileDiff,
    FileHistory,
    RecordedScope,
    RecordResult,
    RestoreResult,
    ScopeChanges,
    UnrecordableFile,
)

from memory_api.errors import READ_ACCESS_FIX, CannotRead, Conflict, NotFound, ServiceError
from memory_api.store.agents import AgentStore
from memory_api.store.change_feed import ChangeFeed
from memory_api.store.containment import cannot_read, checked_memory_root
from memory_api.store.entity_tags import NO_PRECONDITIONS, Preconditions
from memory_api.store.file_names import name_among, on_disk_name
from memory_api.store.history import reading
from memory_api.store.history.git import NO_GIT, HistoryUnavailable, git_available
from memory_api.store.history.maintenance import maintain
from memory_api.store.history.recorder import (
    Attribution,
    Recorded,
    ScopeHistories,
    maintenance_due,
)
from memory_api.store.history.repo import read_head
from memory_api.store.history.restore import restore_file
from memory_api.store.history.snapshot import KeptFile, Snapshot, disk_blob, linked_index
from memory_api.store.history.unchanged import UnchangedScopes
from memory_api.store.locks import lock_name
from memory_api.store.scopes import (
    NOT_A_FOLDER_WHY,
    entry_refusal,
    existing_scope_dir,
    scope_dir_refusal,
    scope_unusable,
    scopes_and_blocked,
    vanished_scopes,
)

__all__ = ["HistoryStore", "scope_history_bytes"]

logger = logging.getLogger(__name__)

CLOSE_TIMEOUT = 10.0
"""Seconds the records still pending at shutdown get to finish."""
RECORD_INTERVAL = 1.0
"""Seconds between two records of one scope asked for by Session starts: a burst of Session
starts in one Workspace costs a record a second, not one each (what changed meanwhile is in the
next one)."""


@dataclass(slots=True)
class _Later:
    who: Attribution
    again: bool = False


def _is_regular_file(key: str, path: Path) -> bool:
    """Whether ``path`` (a file of scope ``key``) is a regular file itself (never through a
    symlink), readable or not. Raises :class:`~memory_api.errors.CannotRead` (503) when the
    folder cannot be searched: whether the file is there cannot be told then, and it is never
    taken for absent (Q-2b)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        raise CannotRead(
            f"scope {key!r} cannot be listed: the service {cannot_read(error)}; whether "
            f"{path.name!r} is there cannot be told"
        ) from None


def _never_read(root: Path, scope: Path, key: str, name: str) -> str | None:
    """Why the history cannot keep ``name`` of the real ``scope`` when no regular file holds
    the name but another entry does (a FIFO, a folder, a socket, a symlink out of the root):
    there, never read (T-5b), as the listing names it and a restore refuses it (409), so
    never gone. None when nothing is there; :class:`~memory_api.errors.CannotRead` (503)
    when whether anything is there cannot be told (:func:`_is_regular_file`)."""
    if _is_regular_file(key, scope / name):
        return None
    why = entry_refusal(root, scope, name)
    return None if why is None else f"it is {why}, which the service never reads"


def _held_name(scope: Path, repository: Path, asked: str) -> str:
    """The name of the file a history, diff, version or restore request calling ``asked``
    means (V-2, A-5): ``asked`` when a file of that exact name is on disk; else the one other
    spelling on disk (:func:`~memory_api.store.file_names.on_disk_name`: the same note, its
    name rewritten in the other Unicode normalization by a Mac client or a sync), unless a
    version held both at once (:func:`~.reading.held_together`: twins, and ``asked`` is the
    one deleted while its other spelling stays: its history is its own, never its twin's);
    for a file no longer there in any spelling, the name the history holds for it
    (:func:`~.reading.history_name`). Raises :class:`~memory_api.errors.Conflict` (409) for
    twins neither of which is asked, on disk or in the history."""
    if os.path.lexists(scope / asked):
        return asked
    try:
        on_disk = on_disk_name(scope, asked)
    except Conflict:  # twins on disk, neither asked: a deleted third spelling is itself
        if reading.history_holds(repository, asked):
            return asked
        raise
    if on_disk == asked:
        return reading.history_name(repository, asked)
    return asked if reading.held_together(repository, asked, on_disk) else on_disk


def _names_at(
    histories: ScopeHistories, scope: Path, repository: Path, asked: str, version: str
) -> tuple[str, str]:
    """For a request calling ``asked`` at ``version`` (V-2: a file at a version, a restore):
    the file it means (:func:`_held_name`) and its name in ``version``: that same name, or the
    one of ``version``'s files that is it under NFC when they never were twins (the note was
    recorded in the other spelling then; twins: a version held both, or both are on disk).
    Raises :class:`NotFound` for a version not of this history or one that held only the
    file's twin (never the twin answered for it, or overwritten by its restore), and
    :class:`~memory_api.errors.Conflict` (409) for twins."""
    reading.check_version(repository, version)
    held = _held_name(scope, repository, asked)
    there = name_among(held, histories.tree(repository, version), f"in version {version}")
    if there != held and (  # twins: both on disk now (one never recorded), or held together
        os.path.lexists(scope / there) or reading.held_together(repository, held, there)
    ):
        raise NotFound(
            f"{held!r} is not in version {version}: it holds {there!r}, another file whose "
            "name differs only in its Unicode normalization"
        )
    return held, there


def _unrecordable(kept: KeptFile) -> UnrecordableFile:
    """A file a record could not take, as the answer names it: with what an operator must do
    when the service may not read it (Q-2b)."""
    why = f"{kept.why}: {READ_ACCESS_FIX}" if kept.unreadable else kept.why
    return UnrecordableFile(file=kept.name, why=why)


def scope_history_bytes(repository: Path) -> int:
    """Bytes the files of a history repository take (0 when there is none); blocking."""
    total = 0
    pending = [repository]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
                    elif entry.is_file(follow_symlinks=False):
                        total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
    return total


class HistoryStore:
    """The histories of every scope under one data dir, for the routes (async).

    ``feed`` is the process's change feed (shared with the memory store): with it a Session
    start's record skips the scopes it vouches unchanged (:mod:`.unchanged`); None: every
    record scans.
    """

    def __init__(
        self, agents: AgentStore, histories: ScopeHistories, feed: ChangeFeed | None = None
    ) -> None:
        self.agents = agents
        self.locks = agents.locks
        self.histories = histories
        self.feed = feed
        self._unchanged: dict[str, UnchangedScopes] = {}
        """By real memory root, for the roots the feed serves."""
        self._later: dict[tuple[str, str], _Later] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._maintaining: set[tuple[str, str]] = set()
        self._hurry = asyncio.Event()

    # --- helpers (blocking ones run in worker threads) ---------------------------------------

    def ensure_enabled(self) -> None:
        """Raise :class:`NotFound` when history is off, :class:`HistoryUnavailable` without
        git."""
        if not self.histories.enabled:
            raise NotFound("this service keeps no history (MEMORY_API_HISTORY=off)")
        if not git_available():
            raise HistoryUnavailable(NO_GIT)

    def _scope(self, agent_id: str, key: str) -> tuple[Path, Path]:
        """(real memory root, real scope folder); the user scope is created on demand (K-6);
        :func:`~memory_api.store.scopes.existing_scope_dir` says what else it raises."""
        root = checked_memory_root(self.histories.app_data_dir, agent_id)
        return root, existing_scope_dir(root, key, agent_id)

    def _repository(self, agent_id: str, key: str) -> tuple[Path, Path]:
        """(real scope folder, its history repository)."""
        _, scope = self._scope(agent_id, key)
        return scope, self.histories.repository(agent_id, scope)

    async def _checked(self, project: str, agent_id: str, key: str, name: str | None) -> None:
        check_project_id(project)
        check_agent_id(agent_id)
        check_scope_key(key)
        if name is not None:
            check_scope_file_name(name)
        self.ensure_enabled()
        await self.agents.get(project, agent_id)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- reading (V-2) -------------------------------------------------------------------------

    def _file_history(
        self, agent_id: str, key: str, name: str, limit: int, before: str | None
    ) -> FileHistory:
        root, scope = self._scope(agent_id, key)
        repository = self.histories.repository(agent_id, scope)
        name = _held_name(scope, repository, name)
        linked = linked_index(scope) if name == layout.INDEX_FILE else None
        recorded_as = linked or name  # an index linked to a file: its text is recorded there
        wanted = limit + 1 if linked is not None and before is None else limit
        versions, more = reading.file_history(repository, name, limit=wanted, before=before)
        if wanted > limit:  # the newest "deleted" is where it became the link: it is there
            if versions and versions[0].change == "deleted":
                versions = versions[1:]
            more, versions = more or len(versions) > limit, versions[:limit]
        on_disk, unrecordable = disk_blob(scope, name, self.histories.blob_ids)
        if linked is not None:  # the index is there, through its link (never "deleted")
            on_disk, unrecordable = disk_blob(scope, linked, self.histories.blob_ids)
            unrecordable = unrecordable or (
                f"it is a link to {linked!r} of its folder, whose versions hold its text"
            )
        if on_disk is None and unrecordable is None:
            unrecordable = _never_read(root, scope, key, name)
        head = read_head(repository)
        newest = None if head is None else self.histories.tree(repository, head).get(recorded_as)
        # a file the service cannot read (or over its read cap) is there all the same (Q-2b):
        # never "deleted", and what it holds now is in no version
        exists = (
            on_disk is not None or unrecordable is not None or _is_regular_file(key, scope / name)
        )
        unrecorded = (
            (on_disk is None or newest is None or on_disk != newest.blob)
            if exists
            else newest is not None
        )
        kept_back = unrecorded and not (exists and unrecordable is not None)
        return FileHistory(
            scope=key,
            file=name,
            exists=exists,
            unrecorded=unrecorded,
            unrecordable=unrecordable if exists else None,
            versions=versions,
            more=more,
            record_failed=self.histories.record_failure(scope) if kept_back else None,
        )

    async def file_history(
        self, project: str, agent_id: str, key: str, name: str, limit: int, before: str | None
    ) -> FileHistory:
        """V-2: the versions of ``name`` (``MEMORY.md`` or a topic file), newest first.

        Raises ``InvalidId`` (400), :class:`NotFound` (agent, scope, a ``before`` not of this
        history), :class:`~.git.HistoryUnavailable` (503).
        """
        await self._checked(project, agent_id, key, name)
        if before is not None:
            check_version_id(before)
        return await asyncio.to_thread(self._file_history, agent_id, key, name, limit, before)

    async def file_at(
        self, project: str, agent_id: str, key: str, name: str, version: str, reveal: bool
    ) -> FileAtVersion:
        """V-2: ``name`` as it was at ``version``; 404 when that version did not hold it."""
        await self._checked(project, agent_id, key, name)
        check_version_id(version)

        def work() -> FileAtVersion:
            scope, repository = self._repository(agent_id, key)
            _, there = _names_at(self.histories, scope, repository, name, version)
            return reading.file_at(repository, key, there, version, reveal=reveal)

        return await asyncio.to_thread(work)

    async def file_diff(
        self,
        project: str,
        agent_id: str,
        key: str,
        name: str,
        versions: tuple[str | None, str | None],
        reveal: bool,
    ) -> FileDiff:
        """V-2: the diff of ``name`` between two versions (``from``, ``to``; see
        :func:`~.reading.file_diff` for the defaults)."""
        await self._checked(project, agent_id, key, name)
        for version in versions:
            if version is not None:
                check_version_id(version)

        def work() -> FileDiff:
            scope, repository = self._repository(agent_id, key)
            return reading.file_diff(
                repository,
                key,
                _held_name(scope, repository, name),
                from_version=versions[0],
                to_version=versions[1],
                reveal=reveal,
            )

        return await asyncio.to_thread(work)

    async def changes(
        self,
        project: str,
        agent_id: str,
        key: str,
        *,
        limit: int,
        since: int | None,
        after: str | None,
        before: str | None,
    ) -> ScopeChanges:
        """V-2: the scope's versions since a time (``since``, seconds) or a version
        (``after``), newest first, each with the files it changed."""
        await self._checked(project, agent_id, key, None)
        for version in (after, before):
            if version is not None:
                check_version_id(version)

        def work() -> ScopeChanges:
            _, repository = self._repository(agent_id, key)
            versions, more = reading.scope_changes(
                repository, limit=limit, since=since, after=after, before=before
            )
            return ScopeChanges(scope=key, versions=versions, more=more)

        return await asyncio.to_thread(work)

    async def deleted(self, project: str, agent_id: str, key: str, limit: int) -> DeletedFiles:
        """V-2: the scope's recently deleted files (not there now), newest deletion first;
        ``complete`` false while a long history is still being looked through (each look
        goes on for a bounded time: :mod:`.deletions`)."""
        await self._checked(project, agent_id, key, None)

        def work() -> DeletedFiles:
            scope, repository = self._repository(agent_id, key)
            try:
                with os.scandir(scope) as listing:
                    present = {entry.name for entry in listing if is_scope_file(entry.name)}
            except OSError as error:  # what is there now cannot be told, so neither what is not
                raise CannotRead(
                    f"scope {key!r} cannot be listed: the service {cannot_read(error)}"
                ) from None
            files, complete = reading.deleted_files(repository, present, limit=limit)
            return DeletedFiles(scope=key, files=files, complete=complete)

        return await asyncio.to_thread(work)

    # --- changing (V-1, V-2) -------------------------------------------------------------------

    async def restore(
        self,
        project: str,
        agent_id: str,
        key: str,
        name: str,
        version: str,
        principal: str,
        conditions: Preconditions = NO_PRECONDITIONS,
    ) -> RestoreResult:
        """V-2: restore ``name`` to its bytes at ``version`` and its index lines, recorded as
        a new version (:func:`~.restore.restore_file`). ``conditions`` (``If-Match`` /
        ``If-None-Match``) are judged under the scope's lock against the file as it is then (no
        ETag; not there when deleted). Raises ``InvalidId`` (400), :class:`NotFound`,
        :class:`~memory_api.errors.Conflict` (409, changed meanwhile, or a file the history can
        never keep as it is), :class:`~memory_api.errors.PreconditionFailed` (412, nothing
        written) and :class:`~.git.HistoryUnavailable` (503)."""
        await self._checked(project, agent_id, key, name)
        check_version_id(version)
        root, scope = await asyncio.to_thread(self._scope, agent_id, key)

        def work() -> tuple[RestoreResult, bool]:
            repository = self.histories.repository(agent_id, scope)
            held, there = _names_at(self.histories, scope, repository, name, version)
            if there not in self.histories.tree(repository, version):  # 404 first (§13.2.1)
                raise NotFound(f"{there!r} is not in version {version}; nothing to restore")
            exists = os.path.lexists(scope / held)
            if not exists:  # gone: it comes back as the version held it
                held = there
            what = "the index" if held == layout.INDEX_FILE else f"the topic file {held!r}"
            conditions.check(what, exists=exists)
            result = restore_file(
                self.histories, agent_id, root, scope, (held, there), version, principal
            )
            return result, self._due(agent_id, scope)

        result, due = await self.locks.run_held(lock_name("index", agent_id, scope.name), work)
        if due:
            self._maintain_later(agent_id, scope)
        return result

    def _due(self, agent_id: str, scope: Path) -> bool:
        return maintenance_due(self.histories.repository(agent_id, scope))

    async def _record_scope(
        self,
        agent_id: str,
        key: str,
        scope: Path,
        who: Attribution,
        vouched: tuple[UnchangedScopes, int] | None = None,
    ) -> RecordedScope:
        """Record ``scope``; with ``vouched`` (its root's :class:`UnchangedScopes` and the
        ticket of a look taken before the folder was watched and scanned) a record that took
        the folder whole marks it unchanged."""
        found: list[Snapshot] = []

        def work() -> tuple[Recorded | None, bool]:
            recorded = self.histories.record(agent_id, scope, who, seen=found.append)
            # the packs of deletes and imports count too, so due is asked after every record
            return recorded, self._due(agent_id, scope)

        recorded, due = await self.locks.run_held(lock_name("index", agent_id, scope.name), work)
        if vouched is not None and found and found[0].whole:
            vouched[0].recorded(scope.name, vouched[1])
        if due:
            self._maintain_later(agent_id, scope)
        # a file it could not take is named, never left out as if recorded (Q-2b)
        unrecordable = [_unrecordable(kept) for kept in found[0].kept] if found else []
        if recorded is None:
            return RecordedScope(scope=key, version=None, files=[], unrecordable=unrecordable)
        return RecordedScope(
            scope=key,
            version=recorded.version,
            files=[FileChange(file=name, change=kind) for name, kind in recorded.files],
            unrecordable=unrecordable,
        )

    async def record(
        self, project: str, agent_id: str, key: str | None, who: Attribution
    ) -> RecordResult:
        """V-1: record what changed on disk in scope ``key`` (every scope when None) as
        ``who``: a checkpoint, or a post-write hook's record. Raises ``InvalidId`` (400),
        :class:`NotFound` and :class:`~.git.HistoryUnavailable` (503).

        Of every scope, one that could not be recorded (its history damaged or refused, the
        user scope's folder not made, a file or a FIFO in a scope folder's place) is an entry
        with ``skipped`` saying why, and the others
        are recorded; the request fails (503) only when no scope could be recorded."""
        check_project_id(project)
        check_agent_id(agent_id)
        if key is not None:
            check_scope_key(key)
        self.ensure_enabled()
        await self.agents.get(project, agent_id)

        def scopes() -> tuple[list[tuple[str, Path]], str | None, list[str], list[str]]:
            if key is not None:
                return [(key, self._scope(agent_id, key)[1])], None, [], []
            root = checked_memory_root(self.histories.app_data_dir, agent_id)
            refused = scope_dir_refusal(root, USER_SCOPE)
            refused = refused or scope_unusable(root, USER_SCOPE, agent_id)
            listed, blocked = scopes_and_blocked(root)
            return listed, refused, blocked, vanished_scopes(root)

        found, user_refused, blocked, vanished = await asyncio.to_thread(scopes)
        if key is not None:
            return RecordResult(scopes=[await self._record_scope(agent_id, key, found[0][1], who)])
        recorded: list[RecordedScope] = []
        failures: list[HistoryUnavailable] = []
        for name, scope in found:
            try:
                recorded.append(await self._record_scope(agent_id, name, scope, who))
            except HistoryUnavailable as error:
                # one damaged or refused history never stops the record of every other scope;
                # it is named with why, never left out as if recorded
                failures.append(error)
                recorded.append(
                    RecordedScope(scope=name, version=None, files=[], skipped=error.detail)
                )
        if failures and len(failures) == len(found):
            raise failures[0]  # nothing recorded at all: the request failed
        if all(item.scope != USER_SCOPE for item in recorded):
            # never a calm answer for a scope that was not recorded: it is named, and why
            why = user_refused or "its entry in the memory root is no folder inside the root"
            recorded.insert(0, RecordedScope(scope=USER_SCOPE, version=None, files=[], skipped=why))
        # a Workspace scope whose folder's place holds a file is there and was not recorded
        recorded.extend(
            RecordedScope(scope=name, version=None, files=[], skipped=NOT_A_FOLDER_WHY)
            for name in blocked
        )
        # a memory root moved away: each scope its history holds is named, none recorded empty
        recorded.extend(
            RecordedScope(scope=name, version=None, files=[], skipped=user_refused)
            for name in vanished
            if name != USER_SCOPE
        )
        return RecordResult(scopes=recorded)

    def record_later(self, agent_id: str, keys: list[str], who: Attribution) -> None:
        """Record scopes ``keys`` of the (checked) agent soon, in a task of their own (see the
        module docstring); returns at once. Session starts arriving while a scope's record is
        pending ask for one more, after :data:`RECORD_INTERVAL`, unless they are the pending
        one's own Session. Failures are logged, never raised."""
        if not self.histories.enabled:
            return
        for key in keys:
            slot = (agent_id, key)
            pending = self._later.get(slot)
            if pending is not None:
                if who.session_id is not None and who.session_id == pending.who.session_id:
                    # another hook of the same Session start (Claude Code runs several): its
                    # record is the one pending, and a second one would take the Session's
                    # first writes from their post-write record
                    continue
                pending.who = who
                pending.again = True
                continue
            self._later[slot] = _Later(who)
            self._spawn(self._record_later(slot))

    async def _record_later(self, slot: tuple[str, str]) -> None:
        agent_id, key = slot
        try:
            while True:
                pending = self._later[slot]
                pending.again = False
                try:
                    scope, vouched, skip = await asyncio.to_thread(self._look, agent_id, key)
                    if not skip:
                        await self._record_scope(agent_id, key, scope, pending.who, vouched)
                except (ServiceError, InvalidId, OSError) as error:
                    detail = error.detail if isinstance(error, ServiceError) else str(error)
                    logger.warning("scope %s of agent %s not recorded: %s", key, agent_id, detail)
                # Session starts arriving now ask for one more record, after the interval
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), RECORD_INTERVAL)
                if not pending.again:
                    break
        finally:
            self._later.pop(slot, None)

    def _look(
        self, agent_id: str, key: str
    ) -> tuple[Path, tuple[UnchangedScopes, int] | None, bool]:
        """Before a Session start's record of scope ``key``: its real folder; when the feed
        serves its root, the root's :class:`UnchangedScopes` with the ticket of a look taken
        now (else None); and whether the record is skipped (the look vouches the folder
        unchanged since its last record). A folder to scan is watched first (blocking)."""
        root, scope = self._scope(agent_id, key)
        unchanged = self._unchanged_scopes(root)
        if unchanged is None:
            return scope, None, False
        ticket = unchanged.look()
        if unchanged.unchanged(scope.name):
            return scope, None, True
        unchanged.feed.watch(scope.name)  # before the scan: a change from now on is named
        try:
            device = os.stat(scope).st_dev  # noqa: PTH116 - one stat
        except OSError:
            return scope, None, False  # the record says what is wrong
        if device != unchanged.feed.device:
            return scope, None, False  # another device than the root's: never vouched for
        return scope, (unchanged, ticket), False

    def _unchanged_scopes(self, root: Path) -> UnchangedScopes | None:
        """The :class:`UnchangedScopes` of the real memory ``root``; None without a feed."""
        name = os.fspath(root)
        unchanged = self._unchanged.get(name)
        if unchanged is None and self.feed is not None:
            feed = self.feed.root(name)
            if feed is not None:
                unchanged = self._unchanged.setdefault(name, UnchangedScopes(feed))
        return unchanged

    def _maintain_later(self, agent_id: str, scope: Path) -> None:
        """Repack the scope's history in a task of its own (one at a time per scope)."""
        slot = (agent_id, scope.name)
        if slot in self._maintaining:
            return
        self._maintaining.add(slot)

        def work() -> None:
            maintain(self.histories.repository(agent_id, scope))

        async def run() -> None:
            try:
                await self.locks.run_held(lock_name("index", agent_id, scope.name), work)
            except ServiceError as error:
                logger.warning("history of %s not repacked: %s", scope.name, error.detail)
            finally:
                self._maintaining.discard(slot)

        self._spawn(run())

    async def idle(self) -> None:
        """Wait until every record and maintenance this process started has finished (the
        interval between two Session-start records of a scope is cut short)."""
        self._hurry.set()
        try:
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
        finally:
            self._hurry.clear()

    async def close(self) -> None:
        """At shutdown: let pending records finish (at most :data:`CLOSE_TIMEOUT` seconds)."""
        try:
            await asyncio.wait_for(self.idle(), CLOSE_TIMEOUT)
        except TimeoutError:
            logger.warning("records still pending at shutdown; the next record takes them")
