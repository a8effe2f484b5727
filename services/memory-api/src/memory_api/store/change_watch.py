"""Which watched paths changed since an answer was kept: inotify for the Session-start memo (Q-4).

A warm Session start used to prove its kept answer fresh with nine system calls (``lstat`` of
the files, ``openat2`` of the folders). With a :class:`Ticket` it takes one: the kernel queues an
inotify event inside the very system call that changes a watched path (a ``write``, a
``rename``, a ``chmod``…), so once the queue is read empty, nothing watched changed before that
moment, whoever changed it. :meth:`ChangeWatch.unchanged` reads the queue (``FIONREAD``, and the
events when there are some) and says whether any event touched the ticket.

What a ticket watches (:meth:`ChangeWatch.arm`), for every path it is given (real paths, from
``/`` down):

- each folder on the way for the *name* of the next component: creating, removing, renaming
  or re-moding that entry (a folder swapped for a symlink, a scope removed, an index replaced by
  ``rename``) is an event of the parent;
- each existing file itself (its inode, however it is reached: an edit through a hard link in
  another folder is an event too) for writes, truncation, metadata and close-after-write.

It is used only where inotify sees every change: Linux, and paths on a local filesystem
(:data:`LOCAL_FILESYSTEMS`, read from ``/proc/self/mountinfo``). On NFS, SMB, FUSE or a
virtual-machine share another machine's writes raise no local event, so :meth:`ChangeWatch.arm`
returns None and the memo keeps checking with system calls, as it always did. So it does
when a watch cannot be added (``max_user_watches`` reached, no permission), and when the
watches would pass this process's share of the user's limit (:func:`watch_budget`): the same
limit serves the user's editors and build tools, which must not run out because of us.

Two limits inotify shares with every watcher: a file written through a shared writable
``mmap`` raises no event until it is closed, and a filesystem mounted over a watched folder
raises none. Neither is how an agent's file tools write a note.

One inotify instance serves the whole process (:meth:`ChangeWatch.shared`; a forked worker
makes its own), with one watch per inode shared by every ticket that needs it. A full event
queue (``IN_Q_OVERFLOW``) invalidates every ticket.
"""

from __future__ import annotations

import errno
import fcntl
import os
import termios
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from inotify_simple import INotify, parse_events

__all__ = ["LOCAL_FILESYSTEMS", "ChangeWatch", "Ticket", "filesystem_types", "watch_budget"]

LOCAL_FILESYSTEMS = frozenset(
    {
        "bcachefs",
        "btrfs",
        "ext2",
        "ext3",
        "ext4",
        "f2fs",
        "overlay",
        "ramfs",
        "tmpfs",
        "xfs",
        "zfs",
    }
)
"""Filesystems whose every change is made by this kernel, so an inotify watch sees it."""

# <sys/inotify.h>
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_MASK_ADD = 0x20000000

FOLDER_EVENTS = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF
"""What a folder's watch reports: an entry created, removed, renamed in or out, or re-moded."""
FILE_EVENTS = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF
"""What a file's watch reports: a write or truncation, metadata, a close after writing, its end."""

BUDGET_SHARE = 8
"""One process holds at most 1/8 of the user's inotify watches (``max_user_watches``)."""
BUDGET_CEILING = 16_384
"""… and never more than this many (the memo's 1,024 answers need about 5 each at most)."""
BUDGET_UNKNOWN = 1_024
"""The budget when the limit cannot be read."""

_NOTHING = b"\0\0\0\0"

Key = tuple[int, str]
"""A watch descriptor and the entry name an event must carry (``""``: the watched file itself)."""


@dataclass(eq=False, slots=True)
class Ticket:
    """The watches one kept answer depends on; ``valid`` turns False at the first event for any
    of ``keys`` and never back (a new ticket is armed instead)."""

    keys: frozenset[Key]
    wds: frozenset[int]
    valid: bool = field(default=True)


def _unescape(field_text: str) -> str:
    r"""A mount point as ``/proc/self/mountinfo`` writes it (``\040`` for a space …), decoded."""
    if "\\" not in field_text:
        return field_text
    raw = field_text.encode("utf-8", "surrogateescape")
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x5C and i + 3 < len(raw) and raw[i + 1 : i + 4].isdigit():
            out.append(int(raw[i + 1 : i + 4], 8))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def filesystem_types(mountinfo: str) -> list[tuple[str, str]]:
    """``(mount point, filesystem type)`` of every line of a ``/proc/PID/mountinfo`` text, the
    longest mount point first (so the first that contains a path is the one it lives on).

    >>> filesystem_types("22 1 8:1 / / rw - ext4 /dev/sda1 rw\\n"
    ...                  "40 22 0:5 / /mnt/n\\\\040fs rw shared:1 - nfs4 srv:/ rw\\n")
    [('/mnt/n fs', 'nfs4'), ('/', 'ext4')]
    """
    mounts: list[tuple[str, str]] = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        if len(fields) <= dash + 1 or len(fields) < 5:
            continue
        mounts.append((_unescape(fields[4]), fields[dash + 1]))
    mounts.sort(key=lambda mount: len(mount[0]), reverse=True)
    return mounts


def _mount_of(path: str, mounts: list[tuple[str, str]]) -> str | None:
    """The filesystem type ``path`` (a real path) lives on, or None when no mount holds it."""
    for point, kind in mounts:
        if point == "/" or path == point or path.startswith(point + "/"):
            return kind
    return None


def _chain(path: str) -> list[tuple[str, str]]:
    """``(folder, name)`` of every component of the absolute ``path``, from ``/`` down.

    >>> _chain("/a/b/c")
    [('/', 'a'), ('/a', 'b'), ('/a/b', 'c')]
    """
    links: list[tuple[str, str]] = []
    folder = "/"
    for name in path.split("/"):
        if not name:
            continue
        links.append((folder, name))
        folder = f"{folder}{name}" if folder == "/" else f"{folder}/{name}"
    return links


def watch_budget(limit_file: str = "/proc/sys/fs/inotify/max_user_watches") -> int:
    """How many inotify watches one process may hold: :data:`BUDGET_SHARE` of the user's limit
    read from ``limit_file`` (8,192 on older kernels, up to 1,048,576 scaled to memory on newer
    ones), at most :data:`BUDGET_CEILING`; :data:`BUDGET_UNKNOWN` when it cannot be read."""
    try:
        limit = int(_read_text(limit_file).strip())
    except (OSError, ValueError):
        return BUDGET_UNKNOWN
    return max(0, min(limit // BUDGET_SHARE, BUDGET_CEILING))


class _Unwatchable(Exception):
    """A path that cannot be watched reliably (not local, a symlink, a watch refused)."""


class ChangeWatch:
    """One inotify instance and the tickets armed on it; thread-safe. Linux only: elsewhere (or
    when no instance can be made) :meth:`arm` returns None and nothing else is ever called."""

    _shared: ClassVar[ChangeWatch | None] = None
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, mountinfo: str = "/proc/self/mountinfo", budget: int | None = None) -> None:
        self._mountinfo = mountinfo
        """Where the filesystem of each path is read (a test gives its own)."""
        self._budget = watch_budget() if budget is None else budget
        """The most watches held at once (:func:`watch_budget`); past it :meth:`arm` says None."""
        self._lock = threading.Lock()
        self._inotify: INotify | None = None
        self._fd = -1
        self._broken = False
        self._pid = os.getpid()
        self._users: dict[int, int] = {}
        """Tickets using each watch descriptor; a watch is removed when none does."""
        self._tickets: dict[Key, set[Ticket]] = {}
        self._by_wd: dict[int, set[Ticket]] = {}

    @classmethod
    def shared(cls) -> ChangeWatch:
        """The process's instance (a forked child gets a fresh one: the parent's queue is not
        its own)."""
        with cls._shared_lock:
            watch = cls._shared
            if watch is None or watch._pid != os.getpid():
                watch = cls._shared = ChangeWatch()
            return watch

    @property
    def watch_count(self) -> int:
        """How many inotify watches the tickets armed now hold (one per inode)."""
        with self._lock:
            return len(self._users)

    # --- arming and releasing ------------------------------------------------------------------

    def arm(self, folders: Iterable[str], files: Iterable[str]) -> Ticket | None:
        """Watch ``folders`` and ``files`` (absolute real paths, checked by the caller to hold no
        symlink) and every folder above them; the ticket goes invalid at the first change to
        any. A missing path is watched from its deepest folder that exists, on the name of the
        next (its creation is a change).

        None when they cannot all be watched (see the module doc), or when holding their
        watches would pass the budget (:func:`watch_budget`): the caller checks with system
        calls instead. Blocking: a few ``inotify_add_watch`` calls per path.
        """
        try:
            mountinfo = _read_text(self._mountinfo)
        except OSError:
            return None
        mounts = filesystem_types(mountinfo)
        with self._lock:
            if not self._open():
                return None
            # Events queued before now are older than the ticket: they go to the tickets that
            # were armed then, never to this one (whose caller probes after this call).
            self._drain()
            keys: set[Key] = set()
            wds: set[int] = set()
            try:
                for path in folders:
                    self._watch_chain(path, None, mounts, keys, wds)
                for path in files:
                    self._watch_chain(path, FILE_EVENTS, mounts, keys, wds)
            except _Unwatchable:
                self._drop_unused(wds)
                return None
            if len(self._users.keys() | wds) > self._budget:
                self._drop_unused(wds)
                return None
            ticket = Ticket(frozenset(keys), frozenset(wds))
            for key in ticket.keys:
                self._tickets.setdefault(key, set()).add(ticket)
            for wd in ticket.wds:
                self._users[wd] = self._users.get(wd, 0) + 1
                self._by_wd.setdefault(wd, set()).add(ticket)
            return ticket

    def release(self, ticket: Ticket) -> None:
        """Forget ``ticket``; a watch no other ticket uses is removed. Idempotent."""
        with self._lock:
            ticket.valid = False
            if self._pid != os.getpid():
                return
            for key in ticket.keys:
                holders = self._tickets.get(key)
                if holders is not None:
                    holders.discard(ticket)
                    if not holders:
                        del self._tickets[key]
            emptied = []
            for wd in ticket.wds:
                holders = self._by_wd.get(wd)
                if holders is None or ticket not in holders:
                    continue
                holders.discard(ticket)
                self._users[wd] -= 1
                if self._users[wd] <= 0:
                    emptied.append(wd)
            self._drop_unused(emptied)

    def close(self) -> None:
        """Close the inotify instance; every ticket goes invalid and none is armed again."""
        with self._lock:
            for holders in self._by_wd.values():
                for ticket in holders:
                    ticket.valid = False
            self._users.clear()
            self._tickets.clear()
            self._by_wd.clear()
            self._broken = True
            self._fd = -1
            if self._inotify is not None:
                self._inotify.close()
                self._inotify = None

    def unchanged(self, ticket: Ticket) -> bool:
        """Whether no event touched ``ticket`` since it was armed: reads the queue first, so a
        change made before this call returns is seen. One ``ioctl`` when nothing happened."""
        if not ticket.valid:
            return False
        with self._lock:
            self._drain()
        return ticket.valid

    # --- internals ----------------------------------------------------------------------------

    def _open(self) -> bool:
        if self._inotify is not None:
            return True
        if self._broken:
            return False
        try:  # close-on-exec, non-blocking
            self._inotify = INotify(nonblocking=True)
        except (OSError, AttributeError):  # not Linux (no inotify_init1), no instance left
            self._broken = True
            return False
        self._fd = self._inotify.fileno()
        return True

    def _add(self, path: str, mask: int) -> int | None:
        """The watch descriptor of ``path`` with at least ``mask``; None when it does not exist.

        Raises :class:`_Unwatchable` for any other refusal (a symlink, no room, no permission).
        """
        assert self._inotify is not None
        try:
            return int(self._inotify.add_watch(path, mask | IN_DONT_FOLLOW | IN_MASK_ADD))
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _Unwatchable(f"{path}: {error}") from None

    def _watch_chain(
        self,
        path: str,
        file_mask: int | None,
        mounts: list[tuple[str, str]],
        keys: set[Key],
        wds: set[int],
    ) -> None:
        """Watch every folder above ``path`` for the next name, and ``path`` itself when it is
        a file (``file_mask``). Where a folder is missing the watch of its parent, on its name,
        already stands for everything below it (it must be created first).

        Raises :class:`_Unwatchable` for a folder or the file on a filesystem not in
        :data:`LOCAL_FILESYSTEMS`, and as :meth:`_add` does.
        """
        if _mount_of(path, mounts) not in LOCAL_FILESYSTEMS:
            raise _Unwatchable(f"{path}: not on a local filesystem")
        for folder, name in _chain(path):
            if _mount_of(folder, mounts) not in LOCAL_FILESYSTEMS:
                raise _Unwatchable(f"{folder}: not on a local filesystem")
            wd = self._add(folder, FOLDER_EVENTS | IN_ONLYDIR)
            if wd is None:  # missing: the key of the step before watches for its creation
                return
            keys.add((wd, name))
            wds.add(wd)
        if file_mask is not None:
            wd = self._add(path, file_mask)
            if wd is not None:
                keys.add((wd, ""))
                wds.add(wd)
        # a folder that is the last component needs no watch of its own: its parent reports it

    def _drop_unused(self, wds: Iterable[int]) -> None:
        if self._inotify is None:
            return
        for wd in wds:
            if self._users.get(wd, 0) > 0:
                continue
            self._users.pop(wd, None)
            self._by_wd.pop(wd, None)
            try:
                self._inotify.rm_watch(wd)
            except OSError as error:  # already gone with its inode (IN_IGNORED on the way)
                if error.errno != errno.EINVAL:
                    raise

    def _drain(self) -> None:
        """Read every queued event and invalidate the tickets they touch."""
        fd = self._fd
        if fd < 0:
            return
        while True:
            waiting = int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, _NOTHING), "little")
            if waiting <= 0:
                return
            try:
                data = os.read(fd, waiting)
            except BlockingIOError:
                return
            self._dispatch(data)

    def _dispatch(self, data: bytes) -> None:
        for wd, mask, _cookie, name in parse_events(data):
            if mask & IN_Q_OVERFLOW:
                for holders in self._by_wd.values():
                    for ticket in holders:
                        ticket.valid = False
                continue
            if mask & (IN_IGNORED | IN_UNMOUNT):  # the watch is gone: all that used it is blind
                for ticket in self._by_wd.pop(wd, ()):
                    ticket.valid = False
                self._users.pop(wd, None)
                continue
            for ticket in self._tickets.get((wd, name), ()):
                ticket.valid = False


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="surrogateescape") as stream:  # noqa: PTH123
        return stream.read()
