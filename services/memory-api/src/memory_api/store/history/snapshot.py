"""What a version holds: a scope's memory files as they are on disk now (V-1).

Recorded are exactly the files that are memory: the index ``MEMORY.md``, the Workspace marker
``.workspace`` (the scope's identity, K-5) and the topic files (names passing K-7); never temp
files, ``.kept-*`` copies, locks, folders or anything else. Each must be a regular file in the
real scope folder: a symlink is never followed (wherever it leads), a FIFO never opened. Each is
read through the containment checks (``O_NOFOLLOW``, a regular file by ``fstat``) and at most up
to its read cap (:func:`memory_core.scope_files.scope_file_cap`: 1 MiB, the index 16 MiB, what
the service rewrites). A file over its cap, one that cannot be read now, or one with another
hard link outside its folder (never read, A-7: its content may be a file's from outside the
memory root), keeps the content its newest version holds (nothing is recorded for it, it is not
taken for deleted); it is named in the debug log.

Reading 3,000 files on every Session start would cost a Session's worth of disk reads, so the
blob id of each file is kept per file version (:class:`~memory_api.store.stat_cache.StatCache`
by ``(dev, inode, size, mtime, ctime)``; never for a file changed in the last 2 s, as git does
with its "racily clean" entries): an unchanged scope costs one ``scandir`` and an ``lstat`` per
entry. Only files whose id differs from the newest version's are kept in memory, to be recorded.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from memory_core import layout
from memory_core.said_once import first_time
from memory_core.scope_files import is_scope_file
from memory_core.scope_files import scope_file_cap as read_cap
from memory_core.scope_merge import blob_id

from memory_api.store.containment import (
    HARD_LINKED,
    FolderSwapped,
    NotRegularFileError,
    cannot_read,
    named_elsewhere,
    opened_at,
    read_regular,
)
from memory_api.store.history.repo import Change, TreeEntry
from memory_api.store.stat_cache import StatCache, file_key

__all__ = [
    "BlobIds",
    "KeptFile",
    "Snapshot",
    "disk_blob",
    "linked_index",
    "over_cap",
    "read_cap",
    "take_snapshot",
]

logger = logging.getLogger(__name__)

BlobIds = StatCache[str, str]
"""Blob id by file path, valid for one file version."""


class KeptFile(NamedTuple):
    """A memory file whose content a record could not take as it is now (it keeps the content
    of its newest version): its ``name``, ``why`` (``"cannot be read (Permission denied)"``,
    ``"larger than its read cap of 1048576 bytes"``) and whether the service may not read it
    (``unreadable``: an operator's fix, Q-2b) rather than it being over its read cap."""

    name: str
    why: str
    unreadable: bool


@dataclass(slots=True)
class Snapshot:
    """A scope as found now, against its newest version's files ``before``.

    ``changes`` are the files to record (new bytes, or None for a file gone); ``newest_mtime``
    the latest modification time among the changed files still there (seconds, 0 for none);
    ``kept`` the files whose content could not be taken now, each with why (:class:`KeptFile`);
    ``linked`` whether a memory file has other hard links (it can change through another
    folder).
    """

    changes: list[Change] = field(default_factory=list)
    newest_mtime: float = 0.0
    kept: list[KeptFile] = field(default_factory=list)
    linked: bool = False

    @property
    def whole(self) -> bool:
        """Every memory file of the folder was taken as it is now, and each can change only
        through this folder (a plain file of one link): what a watch of the folder vouches for
        (:mod:`~memory_api.store.history.unchanged`)."""
        return not self.kept and not self.linked


@dataclass(frozen=True, slots=True)
class _Listed:
    """A memory file's entry of the scope folder: its ``name`` and ``path`` (the folder's)."""

    name: str
    path: str

    def stat(self, *, follow_symlinks: bool = False) -> os.stat_result:
        """The entry's ``lstat`` (``stat`` with ``follow_symlinks``), as a ``DirEntry`` gives."""
        return os.stat(self.path, follow_symlinks=follow_symlinks)  # noqa: PTH116 - a string


def _entries(scope: Path) -> list[_Listed]:
    """The memory files of the real ``scope``, listed from the very folder that was checked:
    one swapped for a symlink to another agent's scope meanwhile raises :class:`FolderSwapped`
    (an ``OSError``), so none of its names is recorded, nor this scope's files taken for
    deleted (A-7)."""
    fd = os.open(scope, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if not opened_at(fd, scope):
            raise FolderSwapped(scope.name)
        with os.scandir(fd) as listing:
            names = [entry.name for entry in listing if is_scope_file(entry.name)]
    finally:
        os.close(fd)
    return [_Listed(name, f"{os.fspath(scope)}{os.sep}{name}") for name in names]


def take_snapshot(
    scope: Path,
    before: dict[str, TreeEntry],
    blob_ids: BlobIds,
    only: Collection[str] | None = None,
) -> Snapshot:
    """Compare the memory files of the real ``scope`` folder with ``before`` (name → entry of
    the newest version; empty before the first); with ``only``, just the files of those names
    (the others are neither looked at nor taken for deleted). A file removed while it is
    taken (listed, then gone when looked at or read) is gone, like one never listed. Raises
    ``OSError`` when the folder cannot be listed (nothing is then taken for deleted)."""
    snapshot = Snapshot()
    seen: set[str] = set()
    for entry in _entries(scope):
        name = entry.name
        if only is not None and name not in only:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue  # removed since the folder was listed: gone, as a file never there
        except OSError as error:
            _keep(snapshot, seen, KeptFile(name, f"cannot be looked at ({error.strerror})", True))
            continue
        if not stat.S_ISREG(info.st_mode):
            # a symlink, folder or FIFO is no memory file: not there for the history. An index
            # linked to a file of its scope is recorded under that file's name only: a version
            # never holds a stale MEMORY.md beside it (a restore reads the index a delete pruned)
            continue
        if named_elsewhere(entry.path, info):  # never read: its last version is kept
            _keep(snapshot, seen, KeptFile(name, HARD_LINKED, False))
            continue
        seen.add(name)
        if info.st_nlink > 1:
            snapshot.linked = True
        if info.st_size > read_cap(name):
            _keep(snapshot, seen, _over_cap(name))
            continue
        key = file_key(info)
        known = blob_ids.get(entry.path, key)
        previous = before.get(name)
        if known is not None and previous is not None and known == previous.blob:
            continue
        try:
            data, opened = read_regular(
                Path(entry.path), read_cap(name) + 1, memory=True, real_folder=True
            )
        except FileNotFoundError:
            seen.discard(name)  # removed since it was looked at: gone (no read error to keep)
            continue
        except (OSError, NotRegularFileError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            refused = not isinstance(error, NotRegularFileError)  # not a FIFO put in its place
            _keep(snapshot, seen, KeptFile(name, f"cannot be read ({reason})", refused))
            continue
        if len(data) > read_cap(name):
            _keep(snapshot, seen, _over_cap(name))
            continue
        blob = blob_id(data)
        blob_ids.put(entry.path, file_key(opened), blob)
        if previous is None or previous.blob != blob or previous.mode != "100644":
            snapshot.changes.append(Change(name, data))
            snapshot.newest_mtime = max(snapshot.newest_mtime, opened.st_mtime)
    for name in before if only is None else [name for name in only if name in before]:
        if name not in seen:
            snapshot.changes.append(Change(name, None))
    snapshot.changes.sort(key=lambda change: change.name)
    _said(scope, snapshot.kept)
    return snapshot


def linked_index(scope: Path) -> str | None:
    """The name of the memory file (:func:`~memory_core.scope_files.is_scope_file`: one the
    history records) of the real ``scope`` folder that its ``MEMORY.md`` is a symlink to (an
    index kept under another name, read, pruned and merged through the link: A-6, V-2), or
    None when it is no such link (a link to ``kept.txt``, which no version holds, is none).
    Its text is recorded under that name; the History says the index is there (V-1), and a
    restore reads the index a delete pruned there. Only looked at, never read."""
    path = scope / layout.INDEX_FILE
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
        target = Path(os.path.realpath(path))
        regular = stat.S_ISREG(os.lstat(target).st_mode)
    except OSError:
        return None
    if not regular or target.name == layout.INDEX_FILE or not is_scope_file(target.name):
        return None
    return target.name if target.parent == Path(os.path.realpath(scope)) else None


def _keep(snapshot: Snapshot, seen: set[str], kept: KeptFile) -> None:
    seen.add(kept.name)
    snapshot.kept.append(kept)


def _said(scope: Path, kept: list[KeptFile]) -> None:
    """Log each file of the real ``scope`` whose content the history could not take as a
    WARNING (V-1, Q-2b: the user's history of it is not being kept, which an operator must
    hear without a debug log level), once per process for each file and reason; later records
    finding the same say it at DEBUG (a Session start records the scope again)."""
    for file in kept:
        if not first_time((__name__, os.fspath(scope), file.name, file.why)):
            logger.debug("history: %s keeps its last recorded content: %s", file.name, file.why)
            continue
        logger.warning(
            "history of scope %s: %s keeps its last recorded content, its changes are not "
            "recorded: %s",
            scope,
            file.name,
            file.why,
        )


def _over_cap(name: str) -> KeptFile:
    return KeptFile(name, f"larger than its read cap of {read_cap(name)} bytes", False)


def disk_blob(scope: Path, name: str, blob_ids: BlobIds) -> tuple[str | None, str | None]:
    """``(blob id, None)`` of the memory file ``name`` as it is on disk now; ``(None, why)``
    when it is a regular file the history cannot take as it is (Q-2b), ``why`` said as the
    listing says it: ``"the service cannot read it (Permission denied)"``, ``"it is larger
    than 1 MiB (its read cap)"``; ``(None, None)`` when there is no such regular file."""
    path = scope / name
    try:
        info = os.lstat(path)
    except OSError:
        return None, None
    if not stat.S_ISREG(info.st_mode):
        return None, None
    if named_elsewhere(path, info):
        return None, f"it is {HARD_LINKED}, which the service never reads"
    if info.st_size > read_cap(name):
        return None, over_cap(name)
    known = blob_ids.get(os.fspath(path), file_key(info))
    if known is not None:
        return known, None
    try:
        data, opened = read_regular(path, read_cap(name) + 1, memory=True, real_folder=True)
    except (FileNotFoundError, NotRegularFileError):
        return None, None  # gone, or no regular file, since the lstat
    except OSError as error:
        return None, f"the service {cannot_read(error)}"
    if len(data) > read_cap(name):
        return None, over_cap(name)
    blob = blob_id(data)
    blob_ids.put(os.fspath(path), file_key(opened), blob)
    return blob, None


def over_cap(name: str) -> str:
    """Why a file over its read cap cannot be kept: ``"it is larger than 1 MiB (its read
    cap)"`` (16 MiB for ``MEMORY.md``)."""
    return f"it is larger than {read_cap(name) >> 20} MiB (its read cap)"
