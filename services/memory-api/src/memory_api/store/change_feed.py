"""Which scope folders of a memory root changed since a reader last looked: inotify (Q-4).

The overview and the search keep what they derived from every scope between requests (the
overview's scope rows, the search index's mirror) and must see any change on disk at the next
request, whoever made it. Proving 20,000 scopes unchanged by ``stat`` costs two system calls a
scope and one a topic file (hundreds of ms at that size, issue 30); the kernel can say instead.
An inotify event is queued by the very system call that makes the change (a ``write``, a
``rename``, a ``chmod``…), so once a reader has drained the queue at the start of a request,
every change made before that moment is in what it read: re-checking the folders the events
name, by the same ``stat`` calls as before, gives the answer a full sweep would.

What is watched: the memory root (scope folders created, removed, renamed, re-moded) and each
scope folder a reader :meth:`RootFeed.watch`-es before it first ``stat``-s it (an entry of the
folder created, removed, renamed, written, truncated or re-moded; the folder itself removed or
moved). A folder's watch reports changes made through that folder's entries, so what a watch
cannot vouch for is left to the readers to check on every request: a topic file or index
reached through a symlink or with other hard links, a scope that is a symlink, a folder on
another device than the root.

A reader sweeps — checks every scope by ``stat``, as without a feed — whenever the feed cannot
vouch: at its first look (a restart catches up on what changed while no process watched), after
the queue overflowed (``IN_Q_OVERFLOW``), after the root's own watch went, and for every scope
whose watch could not be added (the watch budget below, no permission). No feed at all (every
look is a sweep) where inotify does not see every change: a data dir not on a local filesystem
(:data:`LOCAL_FILESYSTEMS`, judged from ``/proc/self/mountinfo``; on NFS, SMB, FUSE or a
virtual-machine share another machine's writes raise no event here), a kernel without inotify,
or no inotify instance to be had.

Two limits inotify shares with every watcher: a file written through a shared writable
``mmap`` raises no event (until it is closed, ``IN_CLOSE_WRITE``, which is watched), and a
filesystem mounted over a watched folder raises none. Neither is how an agent's tools write a
note. A process holds at most :data:`WATCH_SHARE` of the user's inotify watches
(``max_user_watches``): the same limit serves the user's editors and build tools; scopes past
it are checked by ``stat`` on every request.

One :class:`ChangeFeed` per process (each service process keeps its own; a forked child starts
its own queue), one :class:`RootFeed` per memory root, one :class:`FeedReader` per consumer
(each keeps its own "changed since my last look"). Thread-safe; every call is short and
non-blocking (the queue is read with ``FIONREAD``, never waited on).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import weakref
from dataclasses import dataclass

from inotify_simple import INotify, flags
from memory_core.mount_table import filesystem_type

__all__ = [
    "EVERYTHING",
    "LOCAL_FILESYSTEMS",
    "WATCH_SHARE",
    "ChangeFeed",
    "FeedReader",
    "Look",
    "RootFeed",
    "filesystem_type",
    "watch_budget",
]

logger = logging.getLogger(__name__)

LOCAL_FILESYSTEMS = frozenset(
    {
        "bcachefs",
        "btrfs",
        "ext2",
        "ext3",
        "ext4",
        "f2fs",
        "jfs",
        "nilfs2",
        "overlay",
        "ramfs",
        "reiserfs",
        "tmpfs",
        "xfs",
        "zfs",
    }
)
"""Filesystems whose every change is made by this kernel, so an inotify watch sees it."""

WATCH_SHARE = 4
"""A process holds at most 1/4 of the user's inotify watches (``max_user_watches``)."""
WATCHES_UNKNOWN = 8_192
"""The limit assumed when ``max_user_watches`` cannot be read (the kernel's old default)."""

FOLDER_EVENTS = (
    flags.MODIFY
    | flags.ATTRIB
    | flags.CLOSE_WRITE
    | flags.CREATE
    | flags.DELETE
    | flags.MOVED_FROM
    | flags.MOVED_TO
    | flags.DELETE_SELF
    | flags.MOVE_SELF
    | flags.ONLYDIR
    | flags.DONT_FOLLOW
)
"""What a folder's watch reports: an entry written, truncated, re-moded, created, removed or
renamed in or out; the folder itself removed or moved (then the watch no longer vouches)."""
_GONE = flags.IGNORED | flags.DELETE_SELF | flags.MOVE_SELF | flags.UNMOUNT
"""Events after which a watch no longer stands for the folder at its path."""


@dataclass(frozen=True, slots=True)
class Look:
    """What changed since a reader's last look: ``everything`` (the feed cannot say: check
    every scope), else whether the root's own entries changed (``root``: a scope added,
    removed or renamed) and the names of the scope folders to check again (``folders``: an
    event named them, or they are not watched)."""

    everything: bool
    root: bool = False
    folders: frozenset[str] = frozenset()


EVERYTHING = Look(everything=True)
"""The look of a reader the feed cannot vouch for."""


class FeedReader:
    """One consumer's view of a :class:`RootFeed`: what changed since its own last
    :meth:`look`. The first look is :data:`EVERYTHING`; so is a look after :meth:`distrust`."""

    __slots__ = ("__weakref__", "_everything", "_feed", "_folders", "_root")

    def __init__(self, feed: RootFeed) -> None:
        self._feed = feed
        self._everything = True
        self._root = False
        self._folders: set[str] = set()

    @property
    def feed(self) -> RootFeed:
        """The root feed this reader reads."""
        return self._feed

    def look(self) -> Look:
        """Drain the process's event queue and say what changed under the root since this
        reader's last look (forgetting it: the caller checks it now). Call it before the first
        ``stat`` of the request it serves."""
        return self._feed.look(self)

    def distrust(self) -> None:
        """Make the next look :data:`EVERYTHING` (the caller could not finish what the last
        look asked it to check, e.g. an error midway)."""
        with self._feed.owner.lock:
            self._everything = True


class RootFeed:
    """The watches of one memory root and of its scope folders, and their readers."""

    def __init__(self, owner: ChangeFeed, root: str, device: int) -> None:
        self.owner = owner
        """The process's feed (its inotify instance and lock)."""
        self.root = root
        """The real memory root, a string."""
        self.device = device
        """The root's ``st_dev``: a scope folder elsewhere is never vouched for."""
        self._root_wd: int | None = None
        self._wds: dict[str, int] = {}
        """Scope folder name → the watch standing for it."""
        self._unwatched: set[str] = set()
        """Scope folders whose watch could not be added or is distrusted: in every look."""
        self._readers: weakref.WeakSet[FeedReader] = weakref.WeakSet()

    def reader(self) -> FeedReader:
        """A new reader of this root (its first look is :data:`EVERYTHING`); dropped with
        the last reference to it."""
        reader = FeedReader(self)
        with self.owner.lock:
            self._readers.add(reader)
        return reader

    @property
    def watch_count(self) -> int:
        """Scope folders watched now."""
        with self.owner.lock:
            return len(self._wds)

    def look(self, reader: FeedReader) -> Look:
        """:meth:`FeedReader.look`."""
        owner = self.owner
        with owner.lock:
            if not owner.drain() or (self._root_wd is None and not self._watch_root()):
                reader._everything = True
                return EVERYTHING
            if reader._everything:
                look = EVERYTHING
            elif not reader._folders and not self._unwatched:
                look = Look(False, reader._root)
            else:
                look = Look(False, reader._root, frozenset(reader._folders | self._unwatched))
            reader._everything, reader._root = False, False
            reader._folders = set()
            return look

    def watch(self, name: str) -> None:
        """Watch scope folder ``name`` (directly under the root; not a symlink) from now on,
        if not already: call it before the ``stat`` that reads the folder for a kept value.
        When no watch can be added (the budget, no permission, gone) the name is in every
        look until a later call succeeds."""
        owner = self.owner
        with owner.lock:
            if name in self._wds:
                return
            wd = owner.add_watch(f"{self.root}{os.sep}{name}", self, name)
            if wd is None:
                self._unwatched.add(name)
                return
            self._wds[name] = wd
            self._unwatched.discard(name)

    def forget(self, names: set[str]) -> None:
        """Stop watching the scope folders ``names`` (gone from the root)."""
        with self.owner.lock:
            for name in names:
                wd = self._wds.pop(name, None)
                if wd is not None:
                    self.owner.drop_watch(wd)
                self._unwatched.discard(name)

    # --- called by the owner, its lock held ---------------------------------------------------

    def _watch_root(self) -> bool:
        wd = self.owner.add_watch(self.root, self, None)
        if wd is None:
            return False
        self._root_wd = wd
        return True

    def changed(self, wd: int, name: str | None, entry: str, mask: int) -> None:
        """An event ``mask`` of watch ``wd``, that of scope folder ``name`` (None: the root's,
        about its entry ``entry``): tell every reader; a watch gone no longer vouches."""
        readers = list(self._readers)
        if name is None:
            if mask & _GONE:
                self._root_wd = None
                for reader in readers:
                    reader._everything = True
                return
            for reader in readers:
                reader._root = True
                if entry:
                    reader._folders.add(entry)
            return
        if mask & _GONE and self._wds.get(name) == wd:
            del self._wds[name]
        for reader in readers:
            reader._folders.add(name)

    def overflowed(self) -> None:
        """The queue lost events: every reader checks everything at its next look."""
        for reader in list(self._readers):
            reader._everything = True


class ChangeFeed:
    """This process's inotify instance and the roots it watches (see the module doc).

    ``mountinfo`` is where the filesystem of a root is judged (a test gives its own);
    ``budget`` the most watches held at once (default :func:`watch_budget`).
    """

    def __init__(self, mountinfo: str = "/proc/self/mountinfo", budget: int | None = None) -> None:
        self.lock = threading.Lock()
        """Held around every use of the instance and of the roots' state."""
        self._mountinfo = mountinfo
        self._budget = watch_budget() if budget is None else budget
        self._inotify: INotify | None = None
        self._broken = False
        self._pid = -1
        self._targets: dict[int, tuple[RootFeed, str | None]] = {}
        """Watch descriptor → the root feed and scope folder name (None: the root) it serves."""
        self._roots: dict[str, RootFeed | None] = {}

    def root(self, root: str) -> RootFeed | None:
        """The feed of the real memory root ``root``; None when its filesystem is not local
        (:data:`LOCAL_FILESYSTEMS`) or inotify cannot be had: then every request sweeps."""
        with self.lock:
            if root in self._roots:
                return self._roots[root]
        try:
            device = os.stat(root).st_dev  # noqa: PTH116 - a string path
            kind = filesystem_type(_read_text(self._mountinfo), root, device)
        except OSError:
            return None  # no root yet: judged when there is one
        feed = RootFeed(self, root, device) if kind in LOCAL_FILESYSTEMS else None
        if feed is None:
            logger.info("%s is on %s, not a local filesystem: scopes checked by stat", root, kind)
        with self.lock:
            if feed is not None and not self._open():
                feed = None
            return self._roots.setdefault(root, feed)

    def close(self) -> None:
        """Close the inotify instance (every root feed then sweeps)."""
        with self.lock:
            if self._inotify is not None:
                self._inotify.close()
            self._inotify = None
            self._broken = True

    # --- with the lock held --------------------------------------------------------------------

    def _open(self) -> bool:
        if self._pid != os.getpid() and self._inotify is not None:
            # A forked child: the queue is its parent's too. Start over with a queue of its own.
            self._inotify.close()  # the child's descriptor only: the parent's stays open
            self._inotify = None
            self._targets.clear()
            for feed in self._roots.values():
                if feed is not None:
                    feed._root_wd = None
                    feed._wds.clear()
                    feed.overflowed()
        if self._inotify is None and not self._broken:
            try:
                self._inotify = INotify(nonblocking=True)
                self._pid = os.getpid()
            except OSError as error:
                logger.warning("no inotify instance (%s): scopes checked by stat", error)
                self._broken = True
        return self._inotify is not None

    def drain(self) -> bool:
        """Read every queued event and hand it to its root feed; False when there is no
        instance (the caller sweeps)."""
        if not self._open():
            return False
        assert self._inotify is not None
        try:
            events = self._inotify.read(timeout=0)
        except OSError as error:
            logger.warning("inotify queue unreadable (%s): scopes checked by stat", error)
            self._overflow()
            return True
        targets = self._targets
        for event in events:
            if event.mask & flags.Q_OVERFLOW:
                self._overflow()
                continue
            target = targets.get(event.wd)
            if target is None:
                continue
            feed, name = target
            if event.mask & _GONE:
                del targets[event.wd]
            feed.changed(event.wd, name, event.name, event.mask)
        return True

    def _overflow(self) -> None:
        for feed in self._roots.values():
            if feed is not None:
                feed.overflowed()

    def add_watch(self, path: str, feed: RootFeed, name: str | None) -> int | None:
        """Watch the folder ``path`` for ``feed`` (scope folder ``name``, None: the root); its
        watch descriptor, or None when it cannot be watched (past the budget, refused)."""
        if not self._open():
            return None
        assert self._inotify is not None
        if len(self._targets) >= self._budget:
            return None
        try:
            wd = int(self._inotify.add_watch(path, FOLDER_EVENTS))
        except OSError:
            return None
        former = self._targets.get(wd)
        if former is not None and former != (feed, name):
            # The same folder under a new name (renamed within the root): the old name's
            # watch no longer stands for the folder at its path.
            old_feed, old_name = former
            if old_name is None:
                old_feed._root_wd = None
                old_feed.overflowed()
            else:
                old_feed.changed(wd, old_name, "", flags.MOVE_SELF)
        self._targets[wd] = (feed, name)
        return wd

    def drop_watch(self, wd: int) -> None:
        """Remove the watch ``wd`` (its folder gone from the root, or distrusted)."""
        if self._targets.pop(wd, None) is None or self._inotify is None:
            return
        with contextlib.suppress(OSError):  # already gone with its folder
            self._inotify.rm_watch(wd)


def watch_budget(limit_file: str = "/proc/sys/fs/inotify/max_user_watches") -> int:
    """How many inotify watches one process may hold: :data:`WATCH_SHARE` of the user's limit
    read from ``limit_file`` (8,192 on older kernels, up to 1,048,576 scaled to memory on
    newer ones), or of :data:`WATCHES_UNKNOWN` when it cannot be read."""
    try:
        limit = int(_read_text(limit_file).strip())
    except (OSError, ValueError):
        limit = WATCHES_UNKNOWN
    return max(0, limit // WATCH_SHARE)


def _read_text(path: str) -> str:
    """``path``'s text as it is: a carriage return in a mount point is no line end."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:  # noqa: PTH123
        return handle.read()
