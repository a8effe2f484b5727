"""Recording versions: what changed in a scope since its newest version becomes a new one (V-1).

A record compares the scope folder with the newest version (:mod:`.snapshot`) and commits the
difference (:func:`~.repo.commit_changes`), saying who in the message's trailers. It is a
snapshot, not an event: whatever changed on disk since the last record, by whom or whatever
(an agent's file tool, a shell, an editor, a record that was never made because a process
died), is in the next one. So a Session start can be answered first and recorded after, and a
crash in between loses nothing: the next record of the scope takes it.

The caller holds the scope's cross-process lock (``index.<agent>.<scope>``, the lock of delete
and import; :mod:`memory_api.store.locks`), so two service processes on one data dir never
record the same scope at once, and the second of two records of one change finds nothing left
to record: no version is lost or duplicated (Q-4). Git's own lock files from a killed process
are cleared under that lock (:func:`~.git.remove_stale_locks`).

An API change is wrapped by :meth:`ScopeHistories.around`: whatever is on disk is recorded
first (source ``found``), so the content a delete removes or a restore replaces is always in a
version, then the change is made and recorded. When the first record fails the change is not
made (:class:`~.git.HistoryUnavailable`, 503): a delete that could not be undone is refused.

Blocking: run it in a worker thread (:meth:`memory_api.store.locks.Locks.run_held`).
"""

from __future__ import annotations

import logging
import os
import stat
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from memory_core import layout
from memory_core.counting import counted
from memory_core.hidden_text import show_hidden
from memory_core.keys import has_control_character
from memory_core.wire import FileChangeKind, VersionSource

from memory_api.errors import READ_ACCESS_FIX, Conflict
from memory_api.store.containment import cannot_read, real_path
from memory_api.store.history.git import (
    REPAIR,
    HistoryDamaged,
    HistoryUnavailable,
    check_repository,
    init_repository,
    remove_stale_locks,
)
from memory_api.store.history.repo import (
    TreeEntry,
    blob_id,
    commit_changes,
    read_head,
    tree_of,
)
from memory_api.store.history.snapshot import BlobIds, KeptFile, Snapshot, take_snapshot
from memory_api.store.recently_used import RecentlyUsed

__all__ = [
    "MAINTENANCE_PACKS",
    "MERGED_VALUE_MAX",
    "TRAILER_VALUE_MAX",
    "Attribution",
    "NotRecorded",
    "Recorded",
    "ScopeHistories",
    "checked_history_root",
    "maintenance_due",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAINTENANCE_PACKS = 16
"""Packs in a history (one per version recorded since the last repack) that call for one."""
TRAILER_VALUE_MAX = 200
"""Characters of a client-given Session id, harness or tool name a version keeps."""
MERGED_VALUE_MAX = 1000
"""Characters of a ``Merged:`` trailer kept at most: the service's own outcome line (R-2),
whose file names are cut to 120 characters each; cut at :data:`TRAILER_VALUE_MAX`, a machine
read a line fetched with the version as another outcome than the whole one its push got."""
TREES_KEPT = 64
"""Newest-version file lists kept per process (each a few hundred KB at 3,000 files)."""
BLOB_IDS_KEPT = 200_000
"""File versions whose blob id is kept per process (about 200 bytes each)."""
AUTHOR_EMAIL = "history@memory-api.invalid"


@dataclass(frozen=True, slots=True)
class Attribution:
    """Who and what a version is from (V-1); ``subject`` is what the change concerned (a file
    name, an import's source) for the summary line. Values are cut and cleaned on use."""

    source: VersionSource
    principal: str | None = None
    session_id: str | None = None
    harness: str | None = None
    tool: str | None = None
    restored_from: str | None = None
    subject: str | None = None
    machine: str | None = None
    machine_id: str | None = None
    merged: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Recorded:
    """A version just recorded: its id, the version it follows (None for the first), its files
    and how each changed, and whether the history has gathered enough packs for a maintenance
    run (:mod:`.maintenance`)."""

    version: str
    parent: str | None
    files: list[tuple[str, FileChangeKind]]
    maintenance_due: bool


@dataclass(frozen=True, slots=True)
class NotRecorded:
    """A change made on disk that the history could not record as a version (a full disk, a
    damaged history): why. The next record of the scope takes it (as found); until then no
    version names it, which an answer must say, never leave to look like "nothing changed"."""

    why: str


def clean_value(value: str | None, limit: int = TRAILER_VALUE_MAX) -> str | None:
    """A client-given value as a trailer keeps it: control characters dropped, each other run
    of hidden characters shown as its mark (``[hidden: U+202E]``, I-9: a harness, tool or file
    name never turns around in ``git log`` or on the page), whitespace trimmed, cut to
    ``limit`` characters (:data:`TRAILER_VALUE_MAX`); None when nothing is left."""
    if value is None:
        return None
    if has_control_character(value):
        value = "".join(char for char in value if char.isprintable() or char == " ")
    value = show_hidden(value).strip()[:limit].strip()
    return value or None


def _summary(who: Attribution, parent: str | None, count: int) -> str:
    subject = who.subject or "the scope"
    if parent is None and who.source in ("session-start", "found", "checkpoint", "write"):
        return f"History starts: {counted(count, 'file')} found"
    match who.source:
        case "session-start":
            return "Changes found at a Session start"
        case "write":
            tool = f" ({who.tool})" if who.tool else ""
            return f"Written in a {who.harness or 'harness'} Session{tool}"
        case "checkpoint":
            return "Checkpoint"
        case "found":
            return f"Changes found before {subject}"
        case "delete":
            return f"Delete {subject}"
        case "restore":
            return f"Restore {subject} from {(who.restored_from or '')[:12]}"
        case "import":
            return f"Import {subject}"
        case "sync":
            return f"Sent from {who.machine or 'a machine'}"
        case _:
            return subject


def message_for(who: Attribution, parent: str | None, count: int) -> str:
    """The commit message of a version: a summary line, a blank line, the trailers."""
    trailers = [f"Source: {who.source}"]
    for name, value in (
        ("Principal", who.principal),
        ("Session-Id", who.session_id),
        ("Harness", who.harness),
        ("Tool", who.tool),
        ("Restored-From", who.restored_from),
        ("Machine", who.machine),
        ("Machine-Id", who.machine_id),
        *(("Merged", line) for line in who.merged),
    ):
        limit = MERGED_VALUE_MAX if name == "Merged" else TRAILER_VALUE_MAX
        cleaned = clean_value(value, limit)
        if cleaned is not None:
            trailers.append(f"{name}: {cleaned}")
    summary = clean_value(_summary(who, parent, count)) or who.source
    return summary + "\n\n" + "\n".join(trailers) + "\n"


def _author(who: Attribution) -> str:
    name = who.machine or who.principal or who.harness
    name = name or ("Session" if who.session_id else "memory-api")
    cleaned = (clean_value(name) or "memory-api").replace("<", "").replace(">", "")
    return f"{cleaned} <{AUTHOR_EMAIL}>"


def _history_unlooked(app_data_dir: Path, folder: Path, error: OSError) -> HistoryUnavailable:
    """The 503 for a history the kernel will not let the service look into: ``folder`` (on
    the way to a scope's repository, under the real ``app_data_dir`` or that folder itself)
    cannot be searched; named by its place in the data dir, never its host path (Q-2b)."""
    logger.error("the history folder %s cannot be looked into: %s", folder, error)
    place = (
        "the data dir itself"
        if folder == app_data_dir
        else f"its folder {folder.relative_to(app_data_dir).as_posix()} in the data dir"
    )
    return HistoryUnavailable(
        f"the history cannot be read: the service cannot look into {place} "
        f"({error.strerror or type(error).__name__}): {READ_ACCESS_FIX}"
    )


def checked_history_root(app_data_dir: Path, agent_id: str) -> Path:
    """The agent's history folder (``agent_state/history``, :func:`memory_core.layout.
    history_root`) under the real ``app_data_dir``; raises :class:`HistoryUnavailable` when a
    symlink or a non-folder stands anywhere on its way below the data dir (it could lead
    anywhere): :class:`~.git.HistoryDamaged`, which says what to do."""
    path = layout.history_root(app_data_dir, agent_id)
    current = app_data_dir
    for part in path.relative_to(app_data_dir).parts:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            break
        except OSError as error:  # a folder on its way the kernel will not search (Q-2b)
            raise _history_unlooked(app_data_dir, current.parent, error) from None
        if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
            raise HistoryDamaged(
                f"the history of agent {agent_id!r} is not a plain folder (a symlink or a file "
                f"on its way): {REPAIR}"
            )
    return path


class ScopeHistories:
    """The history repositories of every scope under one data dir (blocking methods).

    ``enabled`` False (``MEMORY_API_HISTORY=off``) records nothing and runs changes as they
    are. The per-process caches (blob ids by file version, the newest version's file list by
    version id) only spare reads; every record still compares with the disk and the branch.
    """

    def __init__(self, app_data_dir: Path, *, enabled: bool = True) -> None:
        self.app_data_dir = real_path(app_data_dir)
        self.enabled = enabled
        self.blob_ids: BlobIds = BlobIds(max_entries=BLOB_IDS_KEPT)
        self._trees: RecentlyUsed[Path, tuple[str, dict[str, TreeEntry]]] = RecentlyUsed(TREES_KEPT)
        self._failures: dict[Path, str] = {}
        """Why the last record of a scope (by its real folder) failed; gone once one works."""

    def record_failure(self, scope: Path) -> str | None:
        """Why the last record of the real ``scope`` folder in this process failed (the
        :class:`HistoryUnavailable` detail: ``"the disk holding the history is full …"``,
        a file system mounted read-only, no permission), or None when it worked or none was
        made since the process started. What a file history says of a change on disk that no
        version holds (V-1, V-2): never a bare "unrecorded" that reads as "nobody recorded
        it yet" while every record is refused."""
        return self._failures.get(scope)

    def repository(self, agent_id: str, scope: Path) -> Path:
        """The repository of the real scope folder ``scope`` (named by its real name, so a
        symlinked alias of a scope shares it, as it shares its lock). It may not exist yet."""
        path = checked_history_root(self.app_data_dir, agent_id) / f"{scope.name}.git"
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return path
        except OSError as error:
            raise _history_unlooked(self.app_data_dir, path.parent, error) from None
        if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
            raise HistoryDamaged(f"the history of scope {scope.name!r} is not a folder: {REPAIR}")
        check_repository(path)
        return path

    def tree(self, repository: Path, version: str) -> dict[str, TreeEntry]:
        """The files of ``version`` (kept per process for the newest versions)."""
        kept = self._trees.get(repository, usable=lambda tree: tree[0] == version)
        if kept is not None:
            return kept[1]
        files = tree_of(repository, version)  # git, outside the lock
        self._trees.put(repository, (version, files))
        return files

    def record(
        self,
        agent_id: str,
        scope: Path,
        who: Attribution,
        only: Collection[str] | None = None,
        *,
        keep_empty: bool = False,
        seen: Callable[[Snapshot], None] | None = None,
    ) -> Recorded | None:
        """Record what changed in the real ``scope`` folder since its newest version, as
        ``who``; None when nothing did (or history is off). With ``only`` (file names), just
        those files are looked at: the caller knows nothing else changed (or leaves another
        change to the next record). With ``keep_empty`` a version is recorded even when no file
        changed (a machine's push whose merge changed nothing but must be reported, R-2), once
        the scope has a version. ``seen`` is given the scope as found (before it is
        committed). The caller holds the scope's lock.

        Raises :class:`HistoryUnavailable` when git or the disk refuses (no version then; the
        memory files are only ever read here); its detail is kept as the scope's
        :meth:`record_failure` until a record of the whole scope (no ``only``) works.
        """
        if not self.enabled:
            return None
        try:
            recorded = self._record(agent_id, scope, who, only, keep_empty, seen)
        except HistoryUnavailable as error:
            self._failures[scope] = error.detail
            raise
        if only is None:  # the whole scope is taken: nothing waits for a record any more
            self._failures.pop(scope, None)
        return recorded

    def _record(
        self,
        agent_id: str,
        scope: Path,
        who: Attribution,
        only: Collection[str] | None,
        keep_empty: bool,
        seen: Callable[[Snapshot], None] | None,
    ) -> Recorded | None:
        """:meth:`record`, history on; raises what it says."""
        repository = self.repository(agent_id, scope)
        init_repository(repository)
        remove_stale_locks(repository)
        head = read_head(repository)
        before = {} if head is None else self.tree(repository, head)
        try:
            snapshot = take_snapshot(scope, before, self.blob_ids, only)
        except OSError as error:  # nothing is taken for deleted: the record is refused
            raise HistoryUnavailable(
                f"scope {scope.name!r} cannot be listed: the service {cannot_read(error)}: "
                f"{READ_ACCESS_FIX}"
            ) from None
        if seen is not None:
            seen(snapshot)
        if not snapshot.changes and not (keep_empty and head is not None):
            return None
        now = int(time.time())
        made = now
        if (
            who.source in ("session-start", "write", "checkpoint", "found")
            and snapshot.newest_mtime
        ):
            made = min(now, int(snapshot.newest_mtime))
        present = sum(1 for change in snapshot.changes if change.data is not None)
        version = commit_changes(
            repository,
            head,
            snapshot.changes,
            author=_author(who),
            author_time=made,
            commit_time=now,
            message=message_for(who, head, present),
        )
        files = dict(before)
        changed: list[tuple[str, FileChangeKind]] = []
        for change in snapshot.changes:
            if change.data is None:
                files.pop(change.name, None)
                changed.append((change.name, "deleted"))
            else:
                kind: FileChangeKind = "modified" if change.name in files else "added"
                files[change.name] = TreeEntry("100644", blob_id(change.data))
                changed.append((change.name, kind))
        self._trees.put(repository, (version, files))
        return Recorded(version, head, changed, maintenance_due(repository))

    def around(
        self,
        agent_id: str,
        scope: Path,
        who: Attribution,
        work: Callable[..., T],
        *args: object,
        removes: Collection[str] = (),
    ) -> tuple[T, Recorded | NotRecorded | None]:
        """Run the change ``work(*args)`` on the real ``scope`` between two records: what is
        on disk first (as ``found``, so nothing the change removes is lost to the history),
        then the change, as ``who``. Returns ``work``'s result and the change's version (None:
        nothing changed; :class:`NotRecorded`: changed, but the second record failed).
        ``removes`` names the files the change deletes or replaces: each must have been taken
        as it is by the first record, or the change could not be undone.

        The caller holds the scope's lock. Raises :class:`HistoryUnavailable` (503) when the
        first record fails, or could not read a file of ``removes`` as it is now (an operator's
        fix, Q-2b); :class:`~memory_api.errors.Conflict` (409) when a file of ``removes`` is
        one the history can never take as it is (over its read cap, hard-linked: a condition of
        the file, which no retry changes); ``work`` is not run then. And whatever ``work``
        raises. A failure of the second record
        is logged and returned as :class:`NotRecorded`; the next record of the scope takes the
        change.
        """
        if not self.enabled:
            return work(*args), None
        # what was found was made by someone unknown, not by the change's caller
        found = Attribution("found", subject=_before(who))
        taken: list[Snapshot] = []
        self.record(agent_id, scope, found, seen=taken.append)
        for kept in taken[0].kept if taken else ():
            if kept.name in removes:  # the same words, and a 4xx when no retry can pass
                refused = HistoryUnavailable if kept.unreadable else Conflict
                raise refused(_not_undoable(who, kept))
        result = work(*args)
        try:
            return result, self.record(agent_id, scope, who)
        except HistoryUnavailable as error:
            logger.error(
                "the %s in scope %s is not recorded yet: %s", who.source, scope.name, error.detail
            )
            return result, NotRecorded(error.detail)


def _not_undoable(who: Attribution, kept: KeptFile) -> str:
    """Why a change that would remove or replace the file ``kept`` names is refused: the
    history could not take its content as it is now (``kept.why``), so the change could never
    be undone. A file the service may not read says what an operator must do (Q-2b)."""
    done, then = {
        "delete": ("deleted", "delete the file by hand if it should go for good"),
        "restore": (
            "replaced",
            "write the version's content in place by hand (read the file at that version) if "
            "it should replace the file for good",
        ),
    }.get(who.source, ("changed", "try again"))
    refused = (
        f"{kept.name!r} was not {done}: the history cannot keep its content as it is now "
        f"({kept.why}), so the {who.source} could not be undone; nothing changed"
    )
    if not kept.unreadable:
        return f"{refused}. Fix that, or {then}"
    by_hand = f"; or {then}" if who.source in ("delete", "restore") else ""
    return f"{refused}: {READ_ACCESS_FIX}{by_hand}"


def _before(who: Attribution) -> str:
    what = {"delete": "a delete", "restore": "a restore", "import": "an import"}
    return what.get(who.source, who.source) + (f" of {who.subject}" if who.subject else "")


def maintenance_due(repository: Path) -> bool:
    """Whether ``repository`` holds :data:`MAINTENANCE_PACKS` packs or more (one ``scandir``)."""
    try:
        with os.scandir(repository / "objects" / "pack") as listing:
            packs = sum(1 for entry in listing if entry.name.endswith(".pack"))
    except OSError:
        return False
    return packs >= MAINTENANCE_PACKS
