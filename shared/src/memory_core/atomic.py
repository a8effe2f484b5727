"""Atomic file replacement: a reader sees the old bytes or the new ones, never a torn file (Q-2).

The new content goes to a unique temporary file in the target's own directory
(``tempfile.mkstemp(dir=parent)``: two writers never share a temp name), is flushed to disk with
``fsync``, renamed over the target with ``os.replace`` (atomic on POSIX within one filesystem),
and the directory is fsynced so the rename itself survives a crash. The temp name starts with a
dot, so a half-written file is never listed as a topic (A-5) even if a crash leaves it behind.

:func:`create_new_bytes` creates a file only where none exists: the temp file is *hard-linked*
to the target name, and ``os.link`` fails with ``FileExistsError`` when the name is taken, the
atomic "create if absent" that ``os.replace`` (which always overwrites) cannot give.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = [
    "DEFAULT_MODE",
    "atomic_write_bytes",
    "create_new_bytes",
    "current_umask",
    "data_folder_mode",
    "fsync_directory",
    "make_dirs",
    "no_files_for_others_to_write",
    "write_temp_beside",
]

DEFAULT_MODE = 0o644
"""Permission bits of a file written without an explicit ``mode``: owner writes, all read."""


def make_dirs(folder: Path, mode: int = 0o700) -> None:
    """Create ``folder`` and its missing parents, each with permission bits ``mode`` (0700:
    the owner's only), never wider than the umask allows but never wider than ``mode`` either:
    ``Path.mkdir(parents=True)`` gives parents ``0777`` less the umask, world-writable under
    ``umask 000``. Folders that exist are left as they are. Raises ``OSError`` as ``mkdir``."""
    missing: list[Path] = []
    current = folder
    while not current.is_dir() and current.parent != current:
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=mode)
    if not folder.is_dir():
        raise NotADirectoryError(f"not a folder: {folder}")


def current_umask() -> int:
    """This process's umask, read from ``/proc/self/status`` (``Umask:``, Linux 4.7+) so no
    thread's file is ever made under a umask set only to read it; ``0o022`` where that line
    is not there (a guess that grants the group nothing it would write)."""
    try:
        with Path("/proc/self/status").open(encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def data_folder_mode() -> int:
    """The mode of a folder the memory service makes on the way to the notes (A-10, I-8):
    ``0o700``, owner-only whatever the umask (``022`` would give ``0755``, every account
    reading the notes below), so a note the agent writes ``0644`` with its own tools is still
    out of others' reach; ``0o770`` when the umask lets the group write (``002``: a data dir a
    group shares on purpose, Kubernetes' ``fsGroup``), which keeps the group's access."""
    return 0o770 if not current_umask() & 0o020 else 0o700


def no_files_for_others_to_write() -> None:
    """Keep this process from making folders and files other accounts may write.

    Under ``umask 000`` (WSL's long-standing default, some containers and shells) every folder
    and file made without an explicit mode — the data dir, memory scopes, history repositories
    whose ``config`` git runs — would be writable by every account on the machine: one could
    plant memories the model reads, or git configuration the service executes. A umask that
    lets *others* write is taken as no choice at all and group and other write are cleared
    (``000`` → ``022``); one that already keeps others out (``002``: a data dir shared by a
    group on purpose, as Kubernetes' ``fsGroup`` or OpenShift's group 0 use) is left as it is.
    Called first by both command lines."""
    old = os.umask(0o022)
    os.umask(old | 0o022 if not old & 0o002 else old)


def fsync_directory(directory: Path | str, *, dir_fd: int | None = None) -> None:
    """Flush ``directory``'s entries (a rename or a new file in it) to disk; ``dir_fd``: a
    folder held open that ``directory`` is relative to (``"."``: that folder itself).

    Some filesystems refuse to open or fsync a directory; durability then rests on the
    filesystem's own ordering, which is the best that can be done there.
    """
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_temp_beside(
    path: Path, data: bytes, *, mode: int | None = None, durable: bool = True
) -> Path:
    """Write ``data`` to a new hidden temp file in ``path``'s folder, fsynced; return its path.

    The name is unique (``mkstemp``), starts with a dot (never listed as a topic, A-5) and carries
    a byte-safe head of ``path``'s name. ``mode`` and ``durable`` as in
    :func:`atomic_write_bytes`. Raises
    ``OSError`` (nothing is left behind then). The caller renames the file into place or unlinks it.
    """
    parent = path.parent
    # The temp name carries (a byte-safe head of) the target's name for whoever finds a leftover;
    # cut so that the whole name stays under the usual 255-byte limit.
    hint = path.name.encode("utf-8", "surrogateescape")[:80].decode("utf-8", "ignore")
    fd, temp_name = tempfile.mkstemp(dir=parent, prefix=f".{hint}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), DEFAULT_MODE if mode is None else mode)
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temp_name).unlink()
        raise
    return Path(temp_name)


def atomic_write_bytes(
    path: Path, data: bytes, *, mode: int | None = None, durable: bool = True
) -> None:
    """Replace ``path`` with ``data`` atomically (temp file in the same folder, fsync, rename).

    ``mode`` sets the permission bits of the new file (e.g. the old file's, so a rewrite keeps
    them); by default :data:`DEFAULT_MODE` (``mkstemp`` alone would leave ``0o600``).
    ``durable=False`` skips both fsyncs: readers still see the old bytes or the new ones, but a
    crash of the machine may lose the change (for state that is rebuilt anyway, such as a
    harness's Session record, where an fsync would cost a hook tens of milliseconds, H-5).
    Raises ``OSError`` when the folder is missing or not writable; the target is then unchanged
    and no temp file is left behind. Blocking: call it through ``asyncio.to_thread``.

    This replaces whatever is there: a file that someone else may write at the same time (an
    index, an agent's config) is changed with :func:`memory_core.file_edit.edit_file` instead.
    """
    temp = write_temp_beside(path, data, mode=mode, durable=durable)
    try:
        temp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    if durable:
        fsync_directory(path.parent)


def create_new_bytes(
    path: Path, data: bytes, *, mode: int = DEFAULT_MODE, sync_parent: bool = True
) -> bool:
    """Write ``data`` to ``path`` unless ``path`` exists; return True when this call created it.

    Readers see no file or the whole file. ``sync_parent=False`` leaves the folder's fsync to
    the caller (one :func:`fsync_directory` after creating many files). Raises ``OSError`` when
    the folder is missing or not writable (no temp file is left behind). Blocking.
    """
    if os.path.lexists(path):  # a symlink, dangling or not, takes the name too
        return False  # the common "already there" case, without writing a temp file
    temp = write_temp_beside(path, data, mode=mode)
    try:
        os.link(temp, path)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    if sync_parent:
        fsync_directory(path.parent)
    return True
