"""Containment: nothing is read, listed or deleted outside an agent's memory root (A-7, Q-2).

Paths are only ever derived from K-7-checked ids (``memory_core.layout``). Because a scope or a
topic file may still be a symlink (an agent's file tools can make one), every path is resolved
with ``os.path.realpath`` and re-checked to lie inside the *real* memory root before it is
touched:

- the memory root itself must be a plain directory path: if ``agents/<id>``, ``agent_state`` or
  ``memory`` is a symlink, the whole root is refused (:func:`checked_memory_root`);
- a file resolving outside the root is treated as absent (:class:`OutsideMemoryRoot`, a 404 —
  its existence is not confirmed to the caller); a scope whose place holds a symlink that does
  not lead to another scope folder of the root is there but not usable (503 ``NotAFolder``
  naming "a symlink", never where it leads: :func:`~memory_api.store.scopes.existing_scope_dir`);
- a file is opened by its resolved path with ``O_NOFOLLOW`` (a symlink swapped in after the check
  is refused, not followed) and ``O_NONBLOCK`` (a FIFO named ``x.md`` cannot hang a request),
  then must be a regular file by ``fstat``.

- a memory file (topic file, index, marker) with a name outside its own folder — another hard
  link: ``ln /some/other/file scope/notes.md`` by anyone who may write the scope — is never
  read (:func:`memory_core.hard_links.named_elsewhere`, the one rule, which the rewrites of
  ``memory_core.file_edit`` apply too): its content is that other file's, perhaps outside the
  memory root. The listing names one as a refused entry (:data:`HARD_LINKED`), a read of it is
  a 404 saying so.

- a folder on the way swapped for a symlink between the check and the open (the agent, which
  writes in the memory root, exchanging its scope folder with a link to another agent's, over
  and over) is caught: a memory file is read only when the kernel names the opened descriptor
  in the very folder that was checked (``read_regular(…, real_folder=True)``, by
  ``/proc/self/fd``), and a delete works in its scope folder held open by a descriptor, walked
  from the memory root with no symlink followed (:func:`held_folder`). Both raced before: a
  project's token read another project's notes, and a delete removed one of them. Where the
  kernel offers no ``/proc/self/fd``, a read or a listing compares the descriptor with the
  entry found by walking the checked path following no symlink (:func:`found_at`), and a
  change that needs a held folder is refused (:class:`FolderNotHeld`): never the name alone.

Everything here blocks on the filesystem: call it from a worker thread.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memory_core import layout
from memory_core.errors import NotRegularFileError
from memory_core.hard_links import (
    HARD_LINKED,
    NamedElsewhereError,
    check_named_here,
    named_elsewhere,
)
from memory_core.swap import open_waiting_for_lease
from memory_core.wire import PROBLEM_TYPE_BASE

from memory_api.errors import CannotRead, NotFound

logger = logging.getLogger(__name__)

__all__ = [
    "HARD_LINKED",
    "FolderNotHeld",
    "FolderSwapped",
    "NamedElsewhereError",
    "NotRegularFileError",
    "OutsideMemoryRoot",
    "can_open",
    "cannot_read",
    "checked_memory_root",
    "descriptor_path",
    "found_at",
    "held_folder",
    "is_within",
    "joined",
    "memory_root_below",
    "named_by_the_kernel",
    "named_elsewhere",
    "opened_at",
    "read_regular",
    "real_child",
    "real_path",
    "walked_folder",
    "without_descriptor_paths",
]

_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC


class OutsideMemoryRoot(NotFound):
    """A path resolves outside the memory root (a symlink out), or the memory root itself is
    no plain folder: 404 (A-7: never followed nor read) with a ``type`` of its own, so a client
    tells it from a plain 404 "no such scope" (``about:blank``): the harness plugin's sync reads
    only the latter as a Workspace scope not made yet (R-1)."""

    problem_type = PROBLEM_TYPE_BASE + "outside-memory-root"


class FolderSwapped(OSError):
    """A folder on the way to a memory file was replaced (by a symlink, a file, or moved) after
    it was checked: the file is not read or changed there. An ``OSError`` (``ELOOP``, as for a
    file itself swapped for a symlink after the check), so every reader names it as a file it
    cannot read; nothing of what was opened is used."""

    def __init__(self, name: str) -> None:
        super().__init__(
            errno.ELOOP,
            "a folder on its way changed while it was opened (swapped for a symlink?)",
            name,
        )


_FOLDER_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC


class FolderNotHeld(OSError):
    """A change (a delete, a restore, a push) needs its folder held open and reached
    through the descriptor (:func:`held_folder`), and the kernel offers no path to do so (no
    ``/proc/self/fd``): the change is refused rather than made through the folder's name, which
    may be swapped for a symlink meanwhile (A-7). An ``OSError`` (``EOPNOTSUPP``): answered as
    a 503 naming the reason and :attr:`fix`, never done elsewhere."""

    fix = (
        "an operator must mount /proc where the service runs (a container started without "
        "it: the service changes memory files only through folders it holds open, by "
        "/proc/self/fd)"
    )
    """What an operator must do, for a ``detail``."""

    detail = (
        "/proc is not mounted where the service runs (no /proc/self/fd): a delete, a restore "
        "and a push change memory files only through their scope folder held open and reached "
        "by /proc/self/fd/<n>, never through the folder's name, which an agent may swap for a "
        "symlink to another agent's meanwhile (A-7); no other path reaches a held folder "
        "(/dev/fd is /proc's too), so the change is refused and nothing was changed: "
        f"{fix}, then try again"
    )
    """The whole ``detail`` of the 503 answering a change refused so: what is missing, why
    nothing else will do, and what an operator must do (docs/deploy.md)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            errno.EOPNOTSUPP,
            "its folder cannot be held open for the change (the kernel offers no "
            "/proc/self/fd): refused rather than made through a name that may be swapped",
            name,
        )


def without_descriptor_paths() -> str | None:
    """What the service cannot do here, for a log line at start, when the kernel offers no
    ``/proc/self/fd`` (a container started without ``/proc``: :class:`FolderNotHeld`), else
    None. One ``stat``."""
    if os.name != "posix" or os.path.isdir(os.path.dirname(descriptor_path(0))):  # noqa: PTH112, PTH120
        return None
    return (
        "/proc is not mounted where the service runs (no /proc/self/fd): deletes, restores "
        "and pushes are refused (503), and a Workspace path through a symlink is refused (400); "
        + FolderNotHeld.fix.removeprefix("an operator must ")
    )


def descriptor_path(fd: int) -> str:
    """The path through which the kernel reaches the open descriptor ``fd`` itself
    (``/proc/self/fd/<fd>``); it exists only where ``/proc`` is mounted."""
    return f"/proc/self/fd/{fd}"


def named_by_the_kernel(fd: int) -> str | None:
    """The path the kernel gives the open descriptor ``fd`` (:func:`descriptor_path`), or None
    where it says none (no ``/proc``): where the file or folder opened really is, whatever
    names led to it."""
    try:
        return os.readlink(descriptor_path(fd))  # noqa: PTH115 - a string, no Path
    except OSError:
        return None


def found_at(fd: int, path: str | os.PathLike[str]) -> bool:
    """Whether the open descriptor ``fd`` is the very file or folder now at the real, absolute
    ``path``: ``path`` is walked from ``/`` one name at a time following no symlink (its
    folders with ``O_PATH``, its last name by an ``lstat`` relative to the folder walked), and
    the entry found compared with ``fstat(fd)`` by device and inode. So a folder on the way
    swapped for a symlink (before the descriptor was opened, or now) gives False; no name is
    resolved twice. False too when anything on the way cannot be walked: a read error never
    widens access. The check where :func:`named_by_the_kernel` says nothing; never raises."""
    parts = os.fspath(path).split(os.sep)  # noqa: PTH206 - the names walked, "" first
    if parts[0] != "" or not parts[-1]:
        return False  # not absolute, or "/" itself: no memory file or scope folder
    try:
        held = os.fstat(fd)
        folder = os.open(os.sep, _FOLDER_FLAGS)
        try:
            for name in parts[1:-1]:
                inner = os.open(name, _FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=folder)
                os.close(folder)
                folder = inner
            seen = os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
        finally:
            os.close(folder)
    except OSError:
        return False
    return (seen.st_dev, seen.st_ino) == (held.st_dev, held.st_ino)


def opened_at(fd: int, path: str | os.PathLike[str], *, in_folder: bool = False) -> bool:
    """Whether the descriptor ``fd`` was opened at the real ``path`` (``in_folder``: in the
    folder of ``path``, the file perhaps renamed or replaced since), as the kernel names it
    (:func:`named_by_the_kernel`); where it names none, as :func:`found_at` finds it then, the
    file at ``path`` itself (so a file replaced meanwhile is refused too: failing closed)."""
    named = named_by_the_kernel(fd)
    if named is None:
        return found_at(fd, path)
    wanted = os.fspath(path)
    if in_folder:
        return os.path.dirname(named) == os.path.dirname(wanted)  # noqa: PTH120 - strings
    return named == wanted


@contextmanager
def walked_folder(root: Path, folder: Path) -> Iterator[int]:
    """Hold the real ``folder`` (``root`` or a folder below it, both real) open: yield an
    ``O_PATH`` descriptor of it, walked from ``root`` one name at a time following no symlink
    (``O_NOFOLLOW``). What is done relative to it (``dir_fd``) happens in that very folder,
    even when its name is swapped for a symlink meanwhile, with or without ``/proc``.

    Raises :class:`FolderSwapped` when a name on the way is no longer a folder (a symlink, a
    file), ``FileNotFoundError`` when it is gone, ``OSError`` when it cannot be opened, and
    :class:`OutsideMemoryRoot` when ``folder`` is not ``root`` or below it."""
    if not is_within(root, folder):
        raise OutsideMemoryRoot(f"{folder.name!r} is not inside the memory root")
    below = os.path.relpath(folder, root)
    fd = os.open(root, _FOLDER_FLAGS)
    try:
        for name in Path(below).parts:  # none for the root itself ("." has no parts)
            try:
                inner = os.open(name, _FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as error:
                if error.errno in (errno.ENOTDIR, errno.ELOOP):
                    raise FolderSwapped(name) from None
                raise
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


@contextmanager
def held_folder(root: Path, folder: Path) -> Iterator[Path]:
    """Hold the real ``folder`` open (:func:`walked_folder`), and yield a path that reaches it
    through that descriptor (:func:`descriptor_path`): whatever is done through the path (open,
    unlink, rename) happens in that very folder, even when its name is swapped for a symlink
    meanwhile. For code that needs a path (an index rewritten, a delete judged as the listing
    judges); a single file made, replaced or removed needs no path
    (:mod:`memory_api.store.held_writes`, which works without ``/proc``).

    Raises as :func:`walked_folder`, and :class:`FolderNotHeld` where the kernel offers no
    such path (no ``/proc``): the change is refused there, never made through the folder's own
    name (that raced, A-7).
    """
    with walked_folder(root, folder) as fd:
        through = descriptor_path(fd)
        try:
            seen, held = Path(through).stat(), os.fstat(fd)
            pinned = (seen.st_dev, seen.st_ino) == (held.st_dev, held.st_ino)
        except OSError:
            pinned = False
        if not pinned:
            raise FolderNotHeld(folder.name)
        yield Path(through)


def cannot_read(error: OSError) -> str:
    """What the service says of a file or folder it may not read (Q-2b), from the error of the
    read: ``"cannot read it (Permission denied)"``, never the path."""
    return f"cannot read it ({error.strerror or type(error).__name__})"


_RESOLVE_TRIES = 8
"""How often :func:`real_path` resolves a path that keeps changing under it before it gives up."""
_CHANGED_MEANWHILE = (errno.ENOENT, errno.EINVAL)
"""What ``readlink`` says of a symlink removed, or replaced by another entry, since its
``lstat``."""


def real_path(path: Path) -> Path:
    """Resolve every symlink and ``..`` in ``path`` (it need not exist; loops do not raise).

    A symlink on the way that is removed or replaced between the ``lstat`` that saw it and its
    ``readlink`` (an agent writing a note by rename) makes ``os.path.realpath`` raise: the path
    is then resolved again, as it now is. Raises that ``OSError`` only when the path changed
    under each of :data:`_RESOLVE_TRIES` tries; any other ``OSError`` at once.
    """
    for _ in range(_RESOLVE_TRIES - 1):
        try:
            return Path(os.path.realpath(path))
        except OSError as error:
            if error.errno not in _CHANGED_MEANWHILE:
                raise
    return Path(os.path.realpath(path))


def real_child(parent: Path, name: str) -> Path:
    """Return ``real_path(parent / name)`` for a real ``parent`` and one checked path component.

    The same answer at the cost of one ``lstat`` instead of one per component of the whole path:
    below a real parent, an entry that is no symlink (or does not exist) is its own real path.
    A symlink is resolved in full. Raises ``ValueError`` for a ``name`` that is not a single
    component (empty, ``.``, ``..``, or holding ``/``).
    """
    if not name or name in (".", "..") or "/" in name:
        raise ValueError(f"{name!r} is not a single path component")
    child = parent / name
    try:
        if not stat.S_ISLNK(os.lstat(child).st_mode):
            return child
    except FileNotFoundError:
        return child
    except OSError:
        pass  # e.g. a file where the parent should be: let realpath say what it resolves to
    return real_path(child)


def is_within(root: Path, candidate: Path) -> bool:
    """Tell whether the real ``candidate`` is ``root`` or lies below it; both already resolved."""
    # Compared as strings: both are normalised absolute paths, and this runs per file listed.
    inner, outer = os.fspath(candidate), os.fspath(root)
    return inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep)


PATHS_KEPT = 1024
"""Joined paths :func:`joined` keeps (the memory roots and scope folders of the Sessions being
started; a path is ~0.5 KB)."""


@functools.lru_cache(maxsize=PATHS_KEPT, typed=True)
def joined(base: Path, *names: str) -> Path:
    """``base.joinpath(*names)``, the same object for the same arguments. A Session start names
    the same memory root and scope folders each time; a ``Path`` made anew (its parts parsed,
    its ``str`` and hash taken again) cost more than the ``lstat`` that checks it. Nothing on
    disk is kept: only the path's spelling."""
    return base.joinpath(*names)


def checked_memory_root(app_data_dir: Path, agent_id: str) -> Path:
    """Return the real memory root of ``agent_id`` under the (trusted) ``app_data_dir``.

    The data dir comes from the operator and may itself sit behind a symlink; below it the
    path ``agents/<id>/agent_state/memory`` must contain no symlink, else the root could be
    redirected anywhere and :class:`OutsideMemoryRoot` is raised; so it is when the root itself
    is a file, a FIFO or anything else but a directory. The root need not exist yet (nor can it,
    behind a file on the way: every scope is then simply absent).
    Raises ``InvalidId`` for a bad agent id (K-7).
    """
    return memory_root_below(real_path(app_data_dir), agent_id)


def memory_root_below(real_app_data_dir: Path, agent_id: str) -> Path:
    """:func:`checked_memory_root` for a data dir that is a real path already (the
    service resolves its own once, at start): one ``lstat`` per folder below it, four."""
    parts = layout.memory_root_parts(agent_id)
    current = os.fspath(real_app_data_dir)
    for depth, part in enumerate(parts, start=1):  # one lstat per folder below the base
        current = current + os.sep + part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            break  # the rest does not exist yet: nothing on the way can redirect it
        except OSError as error:
            raise _root_not_looked_at(current, parts[:depth], agent_id, error) from None
        if stat.S_ISLNK(mode) or (depth == len(parts) and not stat.S_ISDIR(mode)):
            raise _root_redirected(current, parts[:depth], agent_id, mode)
        if not stat.S_ISDIR(mode):
            break  # a file on the way: the root cannot exist, and nothing lies below it
    return joined(real_app_data_dir, *parts)


def _root_redirected(
    path: str, shown: tuple[str, ...], agent_id: str, mode: int
) -> OutsideMemoryRoot:
    """The :class:`OutsideMemoryRoot` (404, A-7: never read) of a memory root that a symlink
    on its way redirects, or that is no folder (``mode``: the ``lstat`` of ``path``, whose
    parts below the data dir are ``shown``), naming that entry by its place in the data dir
    and the fix; the log names the full path."""
    logger.warning("the memory root of agent %s is not a plain directory: %s", agent_id, path)
    what = "a symlink" if stat.S_ISLNK(mode) else "no folder"
    return OutsideMemoryRoot(
        f"the memory root of agent {agent_id!r} is not a plain directory: "
        f"{'/'.join(shown)} in the data dir is {what}, which the service never follows or "
        "reads (A-7): an operator must move it away and put a plain folder there (the "
        "agent's memory, from a backup), then try again"
    )


def _root_not_looked_at(
    path: str, shown: tuple[str, ...], agent_id: str, error: OSError
) -> CannotRead:
    """The :class:`CannotRead` (503, Q-2b) of a memory root the service cannot look at: the
    ``lstat`` of ``path`` (``shown``: its parts below the data dir) on the way to it failed
    (no search permission on the folder above, an I/O error). The ``detail`` names the entry
    by its place in the data dir, never the host path; the log names the full path."""
    logger.warning("the memory root of agent %s cannot be looked at: %s", agent_id, error)
    place = "/".join(shown)
    above = "/".join(shown[:-1]) or "the data dir"
    return CannotRead(
        f"the memory root of agent {agent_id!r} cannot be looked at: the service cannot look "
        f"at {place} in the data dir ({error.strerror or type(error).__name__}; it needs search "
        f"access to {above})"
    )


def can_open(path: Path | str) -> bool:
    """Whether the file at ``path`` (already resolved and checked: a listing's regular file, in
    a real folder of the memory root) opens for reading as :func:`read_regular` would read it,
    nothing read: its folder is opened first (``O_PATH``, following no symlink) and must be the
    very folder ``path`` names, as the kernel names it (:func:`opened_at`); the file is then
    opened in that held folder (``O_NOFOLLOW``, ``O_NONBLOCK``: a FIFO never hangs it) and must
    be a regular file by ``fstat``. So a folder swapped for a symlink since the listing is
    refused before anything in it is opened: no file outside the memory root is ever opened
    (A-7). False for any ``OSError`` (gone, no permission, a symlink now); a lease a safe edit
    holds is waited out as a read waits it out."""
    folder, name = os.path.split(os.fspath(path))
    try:
        folder_fd = os.open(folder, _FOLDER_FLAGS | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        if not opened_at(folder_fd, folder):
            return False
        fd = open_waiting_for_lease(name, _OPEN_FLAGS | os.O_NOFOLLOW, dir_fd=folder_fd)
    except OSError:
        return False
    finally:
        os.close(folder_fd)
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False
    finally:
        os.close(fd)


def read_regular(
    path: Path,
    limit: int,
    *,
    follow_symlinks: bool = False,
    memory: bool = False,
    real_folder: bool = False,
) -> tuple[bytes, os.stat_result]:
    """Read at most ``limit`` bytes of the regular file at ``path`` (already resolved and checked).

    Returns ``(data, stat)``; ``stat`` is taken from the open descriptor, so it describes exactly
    the file read (pass the read cap + 1 to tell a file at the cap from a longer one). Raises
    ``FileNotFoundError`` when the file is missing, :class:`NotRegularFileError` for anything but a
    regular file (a socket too, which ``open`` refuses with ``ENXIO``: never "cannot read it",
    which sends an operator to its mode), and ``OSError`` (e.g. ``ELOOP`` when the last
    component became a symlink after the check) otherwise. ``follow_symlinks`` lifts
    ``O_NOFOLLOW`` for files outside any memory root that an operator may link (a token
    mounted as a secret); a FIFO still never blocks.
    A ``memory`` file (a topic file, an index, a marker) with a name outside its own folder
    raises :class:`NamedElsewhereError` (a :class:`NotRegularFileError`), judged on the open
    descriptor's ``fstat``: another hard link made after the listing is still seen.
    ``real_folder``: ``path``'s folder is real (a memory file's, checked inside the memory
    root), so the file opened must lie in that very folder as the kernel names the descriptor,
    or, where it names none (no ``/proc``), be the very file walked to by ``path`` following
    no symlink (:func:`opened_at`); one reached through a folder swapped for a symlink after
    the check raises :class:`FolderSwapped` (nothing of it is returned).
    """
    flags = _OPEN_FLAGS if follow_symlinks else _OPEN_FLAGS | os.O_NOFOLLOW
    try:
        fd = open_waiting_for_lease(path, flags)  # a safe edit's lease lasts milliseconds
    except OSError as error:
        if error.errno == errno.ENXIO:  # a socket (or a device with nothing behind it)
            raise NotRegularFileError(
                errno.ENXIO, f"{path.name!r} is a socket or device, not a regular file"
            ) from None
        raise
    try:
        if real_folder and not opened_at(fd, path, in_folder=True):
            raise FolderSwapped(path.name)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(f"{path.name!r} is not a regular file")
        if memory:
            check_named_here(path, info)
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        remaining = limit
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks), info
