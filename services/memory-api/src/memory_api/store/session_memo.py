"""Session-start answers kept while nothing they were built from changed on disk (A-9, Q-4).

A Session start reads one agent's settings, resolves the Workspace path, walks the memory
root, makes sure both scope folders and the marker exist, and joins the two capped indexes:
about thirty system calls and the assembly of a 25,000-character answer. When a harness starts
Session after Session in the same Workspace nothing of that changes, so the answer is kept for
``(agent, Workspace path as sent)`` together with **probes**: the ``lstat`` of every folder
and file it was built from — the app data dir, each folder down to the memory root, the user
and Workspace scope folders (device, inode and type: a folder swapped for a symlink or another
folder is a new answer), and the marker and both indexes (their full
:data:`~memory_api.store.stat_cache.FileKey`). A kept answer is given again only when

- the agent's record is equal to the one it was built for (``agent.json`` is stat-validated by
  :meth:`~memory_api.store.agents.AgentStore.cached`),
- the Workspace path resolves to the same real path (``realpath``: a symlink along it that now
  points elsewhere is seen) and is still a directory or absent,
- every probe gives the same answer now.

An answer is kept only when it was built for the real path probed (the Workspace is resolved
once per build: a symlink flipped to another folder and back while it runs cannot lend it
another Workspace's answer), the probes taken before building it equal those taken after —
the folders' modification and change times included there, so an entry created and removed, or
a folder moved away and back, while the files were read is seen — none of them is a symlink
(whose target could change unseen), and the Workspace is not below ``agents/`` (K-4's temporary
rule resolves other agents' folders, which are not probed). Under a ticket (below), armed
before the first probe, no event may have touched it by the last: then every file was read as
it is, however recent its change. Without one, no file or folder among the probes may have
changed within the racy window of :mod:`~memory_api.store.stat_cache` (a change within the
same tick of the filesystem's clock would leave the times as they were).

A warm check is, first, one look at an inotify queue: an answer kept with a
:class:`~memory_api.store.change_watch.Ticket` (every folder and file above watched, on a local
filesystem, the Workspace sent as its own real path) is fresh while no event touched the ticket
(:mod:`~memory_api.store.change_watch`). Without a ticket, or once an event touched it, the
probes decide: one ``openat2`` refusing symlinks of the Workspace when it was sent as its
own real path (:func:`_still_real`; else its ``realpath``), one of the Workspace scope folder
and its ``fstat`` (standing for the ``lstat`` of every folder from the app data dir down to
it: :func:`_anchored`; where ``openat2`` is missing an ``O_PATH`` open and ``/proc/self/fd``
``readlink`` do both) and four ``lstat`` calls, with no read. When they still agree after an
event (a file closed unchanged, say), a new ticket is armed *before* they are taken, so no change
falls between the two. Either way it is cheap enough for the event loop
(:meth:`~memory_api.store.memory.MemoryStore.session_start` answers a warm Session start without
a worker thread).
"""

from __future__ import annotations

import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import msgspec
from memory_core import layout
from memory_core.keys import USER_SCOPE, key_for_real_path
from memory_core.wire import SessionStartResponse

from memory_api.store import no_symlinks
from memory_api.store.agents import AgentRecord
from memory_api.store.change_watch import ChangeWatch, Ticket
from memory_api.store.sessions import check_real_workspace, opened_real_path
from memory_api.store.stat_cache import FileKey, file_key, is_racy

__all__ = ["SESSIONS_KEPT", "SessionMemo"]

SESSIONS_KEPT = 1024
"""How many ``(agent, Workspace path)`` answers are kept at most."""
SESSION_BYTES_KEPT = 16 * 1024 * 1024
"""And how many bytes of JSON they may hold together (an answer at the injection caps is about
64 KB of JSON with its sections and half that without, both kept, and its struct about as much
again): the memo stays within ~32 MB."""

Probe = tuple[int, ...] | None
"""What one probed path looked like: None (missing), a folder's ``(dev, ino, mode)`` (with its
``mtime_ns`` and ``ctime_ns`` in a build's :func:`_snapshot`), or a file's
:data:`~memory_api.store.stat_cache.FileKey`."""

_SYMLINK: Probe = (-1,)
"""The probe of a symlink: never kept (its target could change without the link changing)."""


@dataclass(frozen=True, slots=True)
class _Kept:
    record: AgentRecord
    real_workspace: str
    paths: tuple[tuple[str, bool], ...]
    probes: tuple[Probe, ...]
    answer: SessionStartResponse
    body: bytes
    plain: bytes
    """``body`` without the sections: what a request that did not ask for them is sent."""
    anchor: int
    """How many leading ``paths`` one :func:`_anchored` check of the last of them stands for
    (every folder from the base down to the Workspace scope folder), or 0: all probed."""
    ticket: Ticket | None
    """The inotify watches of everything the answer was built from, or None: probes only."""
    racy: bool
    """A file changed within the racy window when it was built: kept only under a ticket that
    no event touched, and never re-armed (its probes could not tell a rewrite)."""


def _size(kept: _Kept) -> int:
    """Bytes of JSON ``kept`` holds: both encodings."""
    return len(kept.body) + len(kept.plain)


def _unchanged(paths: tuple[tuple[str, bool], ...], probes: tuple[Probe, ...]) -> bool:
    """Whether every path gives its kept probe now; stops at the first that does not.

    :func:`_snapshot` and :func:`_kept_probes` inlined: where no ticket is armed this is a warm
    Session start's largest cost after sending the answer. A kept probe is never a symlink's,
    so a path that is one now differs in its mode or inode.
    """
    lstat = os.lstat
    for (path, is_file), probe in zip(paths, probes, strict=True):
        try:
            info = lstat(path)
        except OSError:
            if probe is None:
                continue
            return False
        if is_file:
            now: Probe = (
                info.st_dev,
                info.st_ino,
                info.st_size,
                info.st_mtime_ns,
                info.st_ctime_ns,
            )
        else:
            now = (info.st_dev, info.st_ino, info.st_mode)
        if now != probe:
            return False
    return True


_HAS_O_PATH = hasattr(os, "O_PATH")


def _anchored(folder: str, probe: Probe) -> bool:
    """Whether ``folder`` (a real path) still names the folder ``probe`` was taken of, with no
    symlink anywhere along its path: one ``O_PATH`` open, whose ``/proc/self/fd`` link the kernel
    resolves like ``realpath`` (so equal to ``folder`` only when no ancestor and not the folder
    is a symlink, and the folder was not removed), and one ``fstat`` of it.

    It stands for the ``lstat`` of each folder from the base down: an ancestor swapped for a
    symlink changes the link, one swapped for another folder changes the folder's inode (its
    subfolders cannot be hard-linked into the new one), and the files below are probed apart.
    """
    if no_symlinks.AVAILABLE:  # one openat2 that refuses any symlink: no /proc lookup
        fd = no_symlinks.open_folder(os.fsencode(folder))
        if fd < 0:
            return False
        try:
            info = os.fstat(fd)
        finally:
            os.close(fd)
    else:
        opened = opened_real_path(folder, folder=True)
        if opened is None or opened[0] != folder:
            return False
        info = opened[1]
    return (info.st_dev, info.st_ino, info.st_mode) == probe


def _still_real(workspace: str, real: str) -> bool:
    """Whether the Workspace path as sent is, with certainty and cheaply, still the folder
    ``real`` it resolved to: when it was its own real path and is reached through no symlink
    now (one ``openat2``), it still is. False means "ask
    :func:`~memory_api.store.sessions.check_real_workspace`", not "changed"."""
    if workspace != real or not no_symlinks.AVAILABLE:
        return False
    fd = no_symlinks.open_folder(os.fsencode(workspace))
    if fd < 0:
        return False
    os.close(fd)
    return True


def _anchor(paths: tuple[tuple[str, bool], ...], probes: tuple[Probe, ...]) -> int:
    """How many leading ``paths`` :func:`_anchored` may check at once (``_Kept.anchor``): the
    folders down to the Workspace scope folder when it exists, is a real folder and
    ``/proc/self/fd`` names what is opened with ``O_PATH``; else 0."""
    scope = len(paths) - 5  # the order of SessionMemo._paths
    folder, is_file = paths[scope]
    probe = probes[scope]
    if not _HAS_O_PATH or is_file or probe is None or probe == _SYMLINK:
        return 0
    return scope + 1 if _anchored(folder, probe) else 0


def _snapshot(paths: tuple[tuple[str, bool], ...]) -> tuple[Probe, ...]:
    """What a build compares before and after reading, from one ``lstat`` per path: None
    (missing), :data:`_SYMLINK`, a file's :data:`~memory_api.store.stat_cache.FileKey`, or a
    folder's ``(dev, ino, mode, mtime_ns, ctime_ns)`` (an entry created, removed or renamed in
    it moves the times; :func:`_kept_probes` leaves them out of what is kept)."""
    shot: list[Probe] = []
    for path, is_file in paths:
        try:
            info = os.lstat(path)
        except OSError:
            shot.append(None)
            continue
        if stat.S_ISLNK(info.st_mode):
            shot.append(_SYMLINK)
        elif is_file:
            shot.append(file_key(info))
        else:
            shot.append(
                (info.st_dev, info.st_ino, info.st_mode, info.st_mtime_ns, info.st_ctime_ns)
            )
    return tuple(shot)


def _kept_probes(shot: tuple[Probe, ...], paths: tuple[tuple[str, bool], ...]) -> tuple[Probe, ...]:
    """The probes kept with an answer: ``shot`` with the folders' times left out (a topic file
    written in a scope moves them, and changes no answer)."""
    return tuple(
        probe if is_file or probe is None or probe == _SYMLINK else probe[:3]
        for probe, (_, is_file) in zip(shot, paths, strict=True)
    )


def _racy(shot: tuple[Probe, ...], paths: tuple[tuple[str, bool], ...], *, folders: bool) -> bool:
    """Whether a file (and with ``folders``, a folder) of :func:`_snapshot` ``shot`` changed
    within the racy window of :mod:`~memory_api.store.stat_cache` (its times could miss a change
    in the same tick of the filesystem's clock)."""
    for probe, (_, is_file) in zip(shot, paths, strict=True):
        if probe is None or probe == _SYMLINK or not (is_file or folders):
            continue
        if is_racy(cast(FileKey, probe)):  # the ctime is last in both shapes
            return True
    return False


class SessionMemo:
    """Session-start answers of one app data dir (``base``, a real path), thread-safe.

    At most ``max_entries`` answers and ``max_bytes`` bytes of their JSON are kept; the least
    recently given answer goes first. ``watch`` (True: the process's
    :class:`~memory_api.store.change_watch.ChangeWatch`; False: probes only) tells a kept answer
    fresh without system calls where it can. :meth:`close` releases its watches.
    """

    def __init__(
        self,
        base: Path,
        *,
        max_entries: int = SESSIONS_KEPT,
        max_bytes: int = SESSION_BYTES_KEPT,
        watch: ChangeWatch | bool = True,
    ) -> None:
        self._base = os.fspath(base)
        self._agents_prefix = f"{self._base}{os.sep}{layout.AGENTS_DIR}{os.sep}"
        self._max = max_entries
        self._max_bytes = max_bytes
        self._watch = (
            (ChangeWatch.shared() if watch else None) if isinstance(watch, bool) else watch
        )
        self._bytes = 0
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def _paths(self, agent_id: str, real_workspace: str) -> tuple[tuple[str, bool], ...]:
        """Every folder (False) and file (True) a Session start of this agent depends on."""
        root = os.fspath(layout.memory_root(Path(self._base), agent_id))
        folders = [root]
        while folders[-1] != self._base:  # each folder from the memory root up to the base
            folders.append(folders[-1].rpartition(os.sep)[0])
        sep = os.sep
        user = f"{root}{sep}{USER_SCOPE}"
        scope = f"{root}{sep}{key_for_real_path(real_workspace)}"
        return (
            *((folder, False) for folder in reversed(folders)),
            (scope, False),  # last of the folders one _anchored check stands for
            (f"{scope}{sep}{layout.MARKER_FILE}", True),
            (f"{scope}{sep}{layout.INDEX_FILE}", True),
            (user, False),
            (f"{user}{sep}{layout.INDEX_FILE}", True),
        )

    def _arm(self, workspace: str, real: str, paths: tuple[tuple[str, bool], ...]) -> Ticket | None:
        """Watch ``paths`` and the Workspace, when the Workspace was sent as its real path (a
        symlink in the path as sent would go unwatched); None: the probes decide."""
        if self._watch is None or workspace != real:
            return None
        folders = [path for path, is_file in paths if not is_file]
        folders.append(real)
        return self._watch.arm(folders, [path for path, is_file in paths if is_file])

    def _probes_hold(self, kept: _Kept, workspace: str) -> bool:
        """Whether the Workspace and every probe of ``kept`` are as they were (module doc)."""
        real = kept.real_workspace
        if not _still_real(workspace, real) and check_real_workspace(workspace) != real:
            return False
        anchor = kept.anchor
        if anchor:
            if not _anchored(kept.paths[anchor - 1][0], kept.probes[anchor - 1]):
                return False
            return _unchanged(kept.paths[anchor:], kept.probes[anchor:])
        return _unchanged(kept.paths, kept.probes)

    def _fresh(self, kept: _Kept, workspace: str) -> bool:
        """Whether ``kept`` may be given for ``workspace`` now; re-arms a ticket an event touched
        when the probes show nothing it depends on changed."""
        ticket = kept.ticket
        if ticket is None:
            return self._probes_hold(kept, workspace)
        assert self._watch is not None
        if self._watch.unchanged(ticket):
            return True
        if kept.racy:
            return False
        renewed = self._arm(workspace, kept.real_workspace, kept.paths)  # before the probes
        if not self._probes_hold(kept, workspace):
            if renewed is not None:
                self._watch.release(renewed)
            return False
        self._swap_ticket(kept, workspace, renewed)
        return True

    def _swap_ticket(self, kept: _Kept, workspace: str, ticket: Ticket | None) -> None:
        """Keep ``kept`` again with ``ticket`` (unless it was replaced meanwhile)."""
        key = (kept.record.id, workspace)
        with self._lock:
            current = self._kept.get(key) is kept
            if current:
                self._kept[key] = replace(kept, ticket=ticket)
        if self._watch is None:
            return
        self._release(kept.ticket)
        if not current:
            self._release(ticket)

    def _watched(self, ticket: Ticket) -> bool:
        """Whether no event touched ``ticket`` (armed before the build's first probe): then
        every file was read as it is now, however recently it changed."""
        return self._watch is not None and self._watch.unchanged(ticket)

    def _release(self, ticket: Ticket | None) -> None:
        if ticket is not None and self._watch is not None:
            self._watch.release(ticket)

    def answer(
        self, record: AgentRecord, workspace: str, *, sections: bool = True
    ) -> tuple[SessionStartResponse, bytes] | None:
        """The kept answer for ``record`` in the checked ``workspace`` and its JSON encoding
        (made once, when it was kept: encoding 25,000 characters is a Session start's largest
        single cost) if still valid, else None. The answer always has its sections; the JSON
        has them only when ``sections`` is true (A-9: they repeat the ``memory`` text).

        Raises :class:`~memory_api.errors.BadRequest` like
        :func:`~memory_api.store.sessions.check_real_workspace` (a file, not a folder).
        """
        with self._lock:
            kept = self._kept.get((record.id, workspace))
        if kept is None or kept.record != record or not self._fresh(kept, workspace):
            return None
        with self._lock:
            if (record.id, workspace) in self._kept:
                self._kept.move_to_end((record.id, workspace))
        return kept.answer, kept.body if sections else kept.plain

    def build(
        self,
        record: AgentRecord,
        workspace: str,
        make: Callable[[str], SessionStartResponse],
    ) -> SessionStartResponse:
        """Run ``make`` (the full Session start, given the Workspace's real path) and keep its
        answer when it may be (module doc).

        Raises what ``make`` and :func:`~memory_api.store.sessions.check_real_workspace` raise.
        """
        real = check_real_workspace(workspace)
        paths = self._paths(record.id, real)
        keepable = not real.startswith(self._agents_prefix)
        ticket = self._arm(workspace, real, paths) if keepable else None  # before any probe
        try:
            before = _snapshot(paths)
            answer = make(real)
            after = _snapshot(paths)
        except BaseException:
            self._release(ticket)
            raise
        if (
            before != after
            or not keepable
            or _SYMLINK in after  # a link's target could change unseen
            or check_real_workspace(workspace) != real
            or not (
                self._watched(ticket)  # nothing changed from before the first probe on
                if ticket is not None
                else not _racy(after, paths, folders=True)
            )
        ):
            self._release(ticket)
            return answer
        plain = msgspec.json.encode(msgspec.structs.replace(answer, sections=[]))
        body = msgspec.json.encode(answer)
        probes = _kept_probes(after, paths)
        anchor = _anchor(paths, probes)
        racy = _racy(after, paths, folders=False)
        kept = _Kept(record, real, paths, probes, answer, body, plain, anchor, ticket, racy)
        if _size(kept) > self._max_bytes:
            self._release(ticket)
            return answer
        self._keep((record.id, workspace), kept)
        return answer

    def _keep(self, key: tuple[str, str], kept: _Kept) -> None:
        """Keep ``kept`` under ``key``, evicting the least recently given answers over the caps."""
        dropped: list[_Kept] = []
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._bytes -= _size(old)
                dropped.append(old)
            self._kept[key] = kept
            self._bytes += _size(kept)
            while len(self._kept) > self._max or self._bytes > self._max_bytes:
                _, evicted = self._kept.popitem(last=False)
                self._bytes -= _size(evicted)
                dropped.append(evicted)
        for gone in dropped:
            self._release(gone.ticket)

    def close(self) -> None:
        """Forget every kept answer and release its watches (the app is stopping)."""
        with self._lock:
            kept = list(self._kept.values())
            self._kept.clear()
            self._bytes = 0
        for gone in kept:
            self._release(gone.ticket)
