"""The write guard for a harness's file tools (P-3).

A write that lands in the memory root is allowed only into the user scope or the Session's own
Workspace scope; never onto a ``.workspace`` marker, never through a symlink, never with ``..``
climbing around inside it; never into the memory service's own folders of the data dir that holds
the memory root (tokens, drafts, locks, other agents, histories: :func:`memory_core.layout.
service_owned`). Other writes outside the memory root are not the guard's business and are
allowed (the harness's own permission rules still apply to them).

The guard writes no file and reads none but the kernel's mount table (and, for a hard-linked
file or without that table, the inodes of the memory root: :mod:`harness_memory.names`): it
resolves symlinks
(``os.path.realpath``) so that a link planted anywhere on the way cannot smuggle a write into
another scope, and, for a path that seems to lie outside the memory root, asks where the kernel
lands it, so that another name the kernel resolves and ``realpath`` does not cannot either: a
folder on its way that is the memory root by device and inode (a bind mount of the root,
another letter case on a case-insensitive disk), or a mount that shows a part of the memory
root elsewhere (a bind mount of one scope folder, of a folder in one, of one of its files:
:mod:`harness_memory.mounts`). The mount table is read once per decision and passed to every
path it judges (``mounts``); where it cannot be read on a kernel that has bind mounts, a path
outside the memory root that leads through one of the memory root's files or folders (same
device and inode, as a bind mount shows them) is refused, and every path on its filesystem
when those cannot all be read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePath

import msgspec
from memory_core.errors import InvalidId, UnresolvablePath
from memory_core.keys import (
    USER_SCOPE,
    check_scope_file_name,
    check_scope_key,
    names_no_file,
    real_path,
)
from memory_core.layout import MARKER_FILE, app_data_dir_of, service_owned

from harness_memory.mounts import MountTable, below_by_mount, read_mount_table

__all__ = [
    "HARD_LINK_REASON",
    "GuardDecision",
    "below_by_identity",
    "below_under_another_name",
    "check_write",
    "has_other_names",
    "is_usable_path",
    "name_problem",
    "replaceable_ancestor",
    "unseen_by_mount",
]


class GuardDecision(msgspec.Struct, frozen=True):
    """The guard's answer for one write.

    ``allowed`` says whether the write may go ahead; ``reason`` is one sentence a model or a
    person can act on (it becomes the harness's deny message); ``scope`` names the scope the
    write lands in (``user``, a Workspace key, another key) or is None outside the memory root.
    """

    allowed: bool
    reason: str
    scope: str | None = None


def is_usable_path(path: str) -> bool:
    """Tell whether ``path`` can name a file here: no NUL and encodable by ``os.fsencode``.

    JSON may carry a lone surrogate (``"\\ud800"``) that no file name holds; ``os.path.realpath``
    and friends raise on it (``UnicodeEncodeError``) and on NUL (``ValueError``).
    """
    if "\x00" in path:
        return False
    try:
        os.fsencode(path)
    except UnicodeEncodeError:
        return False
    return True


def _inside(path: str, root: str) -> tuple[str, ...] | None:
    """Return ``path``'s parts relative to ``root`` if it lies in or at ``root``, else None."""
    try:
        return PurePath(path).relative_to(root).parts
    except ValueError:
        return None


def check_write(
    target_path: str | os.PathLike[str],
    *,
    memory_root: str | os.PathLike[str],
    workspace_key: str | None,
    cwd: str | os.PathLike[str] | None = None,
    mounts: MountTable | None = None,
    naming: bool = False,
) -> GuardDecision:
    """Decide whether a file tool may write ``target_path`` (P-3).

    ``memory_root`` is ``<app_data_dir>/agents/<agent>/agent_state/memory`` as the harness's own
    settings name it (P-2a); ``workspace_key`` is the Session's Workspace key, or None for a
    temporary Workspace or with Memory off (then only the user scope is writable). A relative
    ``target_path`` is taken relative to ``cwd`` (the process's working directory when None).

    Denied: a path touching the memory root that holds a ``..`` component; a path whose real
    location (symlinks resolved) differs from its spelled location inside the memory root; the
    memory root itself or a file directly in it; any scope but ``user`` and ``workspace_key``;
    any ``.workspace`` marker (in any letter case); a path through a symlink that cannot be
    read (where it leads is unknown). A path that reaches the memory root under another name
    (:func:`below_under_another_name`: a bind mount of the root, of one scope folder, of a
    folder or a file in one; another letter case on a case-insensitive disk) is judged by
    where it lands, as the kernel will. Everything outside the memory root is allowed, but the
    service's own folders of the data dir that holds it (:func:`_outside_the_memory_root`).
    ``mounts`` is the decision's mount table (:func:`harness_memory.mounts.read_mount_table`),
    read here when None; where it could not be read on a kernel with bind mounts
    (``unknown``), a path outside the memory root through a file or folder of the memory root
    or the data dir (by device and inode) is denied (:func:`unseen_by_mount`). Never raises
    for odd input: an empty path, or one (joined with ``cwd``) holding NUL or a lone
    surrogate, is denied. ``naming`` (a file created or rewritten by that name) also denies a
    name the service cannot address in a scope it may write (K-7, :func:`name_problem`).
    """
    joined = _joined(target_path, cwd)
    if isinstance(joined, GuardDecision):
        return joined
    spelled = os.path.normpath(joined)  # lexical: the path as written, ".." folded
    root_spelled = os.path.normpath(Path(memory_root).absolute())
    try:
        real = real_path(joined)  # where the write would really land
        root_real = real_path(root_spelled)
    except UnresolvablePath as error:  # it could lead anywhere, the memory root included
        return GuardDecision(
            False,
            f"where the path leads cannot be known here: {error}; name the file by its real path",
        )

    spelled_parts = _inside(spelled, root_spelled)
    if spelled_parts is None:
        spelled_parts = _inside(spelled, root_real)
    real_parts = _inside(real, root_real)
    climbs = ".." in PurePath(joined).parts
    passes_root = _passes_through(joined, (root_spelled, root_real))

    if spelled_parts is None and real_parts is None and not passes_root:
        table = read_mount_table() if mounts is None else mounts
        real_parts = below_under_another_name(real, root_real, table)
        if real_parts is None:
            return _outside_the_memory_root(spelled, real, root_spelled, root_real, table)
        spelled_parts = real_parts  # the memory root under another name: judged where it lands
    if climbs:
        return GuardDecision(
            False,
            "paths into the memory root must not use '..'; name the file by its full path "
            "inside the user scope or this Session's Workspace scope",
        )
    if real_parts is None:
        return GuardDecision(
            False, "the path leads out of the memory root through a symlink; write the real file"
        )
    if spelled_parts is not None and spelled_parts != real_parts:
        return GuardDecision(
            False,
            "the path goes through a symlink inside the memory root; "
            "memory files are written only at their real location",
        )
    decision = _decide_scope(real_parts, workspace_key, naming=naming)
    if decision.allowed and has_other_names(real, root_real):
        return _HARD_LINKED
    return decision


def name_problem(below: tuple[str, ...]) -> str | None:
    """Why the memory service cannot address a file at ``below`` (its parts below a scope
    folder), with a name that it can, or None when it can: a scope holds files only at its
    top, each ``MEMORY.md`` or a topic file name (K-7: ``.md`` last, in lower case, no ``.``
    first, no ``\\`` or control character, UTF-8, at most 255 bytes). A file the service
    cannot address is never injected, searched, listed by name or synced (P-3)."""
    if not below:
        return None
    name = below[-1]
    rule = (
        "a memory file must be MEMORY.md or a topic file whose name ends in '.md' (lower "
        "case), does not start with '.', holds no '\\' or control character and is UTF-8 of "
        "at most 255 bytes (K-7)"
    )
    if len(below) > 1:
        why = f"the memory service reads only the files at a scope's top, not in {below[0]}/"
        return f"{why}; {rule}: write {_addressable(name)} in the scope itself"
    try:
        check_scope_file_name(name)
    except InvalidId as error:
        return (
            f"the memory service cannot address a file named '{_escaped(name)}' "
            f"({error.reason}), so it is never injected, searched or synced; {rule}: name it "
            f"{_addressable(name)}"
        )
    return None


def _escaped(name: str) -> str:
    """``name`` as a message shows it: a byte that is no UTF-8 as ``\\xNN`` (``caf\\xe9``), a
    control character as Python writes it (``\\n``, ``\\t``), the rest as it is."""
    shown: list[str] = []
    for char in name:
        if 0xDC80 <= ord(char) <= 0xDCFF:  # ``os.fsdecode``'s stand-in for a byte
            shown.append(f"\\x{ord(char) - 0xDC00:02x}")
        elif not char.isprintable() and char != " ":
            shown.append(repr(char)[1:-1])
        else:
            shown.append(char)
    return "".join(shown)


def _addressable(name: str) -> str:
    """A topic file name like ``name`` that K-7 accepts: undecodable bytes and control
    characters dropped, ``\\`` made ``-``, leading dots taken off, its last extension
    (``.MD``, ``.txt``) made ``.md``, cut to 255 bytes of UTF-8."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "ignore")
    text = "".join(char for char in text if char.isprintable() or char == " ").replace("\\", "-")
    stem = text.lstrip(".").strip()
    head, dot, _ = stem.rpartition(".")
    stem = head if dot and head else stem
    stem = stem.encode("utf-8")[: 255 - 3].decode("utf-8", "ignore") or "notes"
    return f"{stem}.md"


def _joined(
    target_path: str | os.PathLike[str], cwd: str | os.PathLike[str] | None
) -> str | GuardDecision:
    """``target_path`` joined with ``cwd`` (the working directory when None), or the refusal of
    a path no file name can be: empty, or holding NUL or a lone surrogate."""
    raw = os.fspath(target_path)
    if not raw or "\x00" in raw:
        return GuardDecision(False, "the target path is empty or holds a NUL character")
    joined = os.fspath(Path(cwd if cwd is not None else Path.cwd()) / raw)
    if not is_usable_path(joined):  # resolving it would raise: a crashed guard lets writes by
        return GuardDecision(
            False,
            "the target path (with the working directory) holds a NUL character or a lone "
            "surrogate, which no file name can hold; name the file by its real path",
        )
    return joined


def _outside_the_memory_root(
    spelled: str, real: str, root_spelled: str, root_real: str, mounts: MountTable
) -> GuardDecision:
    """Judge a write that lands outside the memory root: allowed, unless it lands (as spelled,
    resolved, or through another name of the folder) in the memory service's own folders of
    the data dir that holds the memory root (:func:`memory_core.layout.service_owned`:
    bearer tokens, drafts, locks, every agent's config, memory and history). A harness on the
    service's machine reaches the whole data dir; a token file written there would open the
    API to every project, another agent's memory root is no scope of this Session (P-3).
    Without a mount table to read where bind mounts exist, a path through a file or folder of
    the memory root or the data dir is refused (:func:`unseen_by_mount`); so is a folder above
    the data dir that this account may rename or remove (:func:`replaceable_ancestor`), and a
    file with another name in the memory root (:func:`has_other_names`)."""
    roots = tuple(dict.fromkeys((root_spelled, root_real)))
    data_dirs = [app_data_dir_of(Path(root)) for root in roots]
    held = [os.fspath(found) for found in data_dirs if found is not None]
    what = "the memory service's data dir" if held else "the memory root"
    if (above := replaceable_ancestor((spelled, real), held or list(roots))) is not None:
        return GuardDecision(
            False,
            f"the path is a folder holding {what} ({_shown_path(above)}) that this account "
            "may move, remove or replace: moving it away and back, or putting another folder "
            "in its place, reaches every scope without naming one; save memory in the user "
            "scope or this Session's Workspace scope",
        )
    for root in roots:
        data_dir = app_data_dir_of(Path(root))
        if data_dir is None:
            continue
        folder = os.fspath(data_dir)
        for parts in (_inside(spelled, folder), _inside(real, folder)):
            if parts is not None and service_owned(parts):
                where = (
                    f"lands in {'/'.join(parts[:2])} of the memory service's data dir"
                    if parts
                    else "is the memory service's data dir itself (removing, moving or "
                    "unpacking into it reaches every folder in it)"
                )
                return GuardDecision(
                    False,
                    f"the path {where}, whose tokens, drafts, locks, agents' configs, "
                    "memory and history "
                    "only the service writes; save memory in the user scope or this "
                    "Session's Workspace scope",
                )
    data_real = app_data_dir_of(Path(root_real))
    data_folder = None if data_real is None else os.fspath(data_real)
    if any(unseen_by_mount(real, folder, mounts) for folder in (root_real, data_folder) if folder):
        return GuardDecision(
            False,
            "the kernel's mount table cannot be read here (no /proc/self/mountinfo), and the "
            "path leads through a file or folder of the memory root or the service's data dir "
            "(same device and inode: mounted under another name), or their entries cannot all "
            "be read; write memory files by their path inside the memory root, or make /proc "
            "readable",
        )
    parts = None if data_folder is None else below_under_another_name(real, data_folder, mounts)
    if parts is not None and service_owned(parts):
        return GuardDecision(
            False,
            "the path reaches the memory service's data dir under another name (a bind mount, "
            "another letter case) and lands in its own folders, which only the service writes",
        )
    if has_other_names(real, root_real, mounts):
        return _HARD_LINKED
    return GuardDecision(True, "outside the memory root: not the memory guard's business")


HARD_LINK_REASON = (
    "the file has other names (hard links) on the filesystem of the memory root (or of the "
    "Session records), so writing it may write a file of another scope (or a record) under "
    "another name; write a new file, or memory files by their path in the user scope or this "
    "Session's Workspace scope"
)
"""Why a write of a file with another name is refused (:func:`has_other_names`)."""
_HARD_LINKED = GuardDecision(False, HARD_LINK_REASON)


def has_other_names(real: str, folder: str, mounts: MountTable | None = None) -> bool:
    """Whether writing ``real`` (symlinks resolved), an existing file with more than one name
    (a hard link) on ``folder``'s filesystem, may write a file of ``folder`` under another
    name: writing it writes every name, and one may lie in the memory root (or the Session
    records), in a scope this Session may not write. Which names a file has cannot be asked
    of the kernel, but ``folder`` holds one only if it holds the file's inode: with this
    decision's ``mounts``, the inodes ``folder`` holds are read (once per decision:
    :meth:`harness_memory.mounts.MountTable.inodes_in`) and a file of several names none of
    which is in it passes (a pnpm store on the same disk); without, any file of several names
    counts (inside the memory root, where the service leaves every memory file one name), as
    does any on ``folder``'s filesystem when its inodes cannot all be read. False for a
    folder, a missing file (or ``folder``). True when either cannot be looked at otherwise
    (``EACCES``, ``EIO`` …): a read error never lets a write through that a readable file
    would have been refused."""
    try:
        found = Path(real).lstat()
        if not stat.S_ISREG(found.st_mode) or found.st_nlink <= 1:
            return False
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        return not _name_too_long(real, error)
    if mounts is None:
        return True
    inodes = mounts.inodes_in(folder)
    if inodes is not None:  # compared as stat gives them (overlayfs: a file's own device)
        return (found.st_dev, found.st_ino) in inodes
    try:
        return found.st_dev == Path(folder).stat().st_dev
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _name_too_long(real: str, error: OSError) -> bool:
    """Whether looking ``real`` (as :func:`~memory_core.keys.real_path` answers it) up failed
    (``ENAMETOOLONG``) because no file has that path, by this spelling or any other, so none
    can be written by it: a name on its way is missing, or longer than its file system lets a
    name be (:func:`~memory_core.keys.names_no_file`). A quoted sentence in a command (``git
    commit -m "…"``, ``echo "<4 KB>" >> MEMORY.md``, a JSON body) is such a "path", of any
    length. A path past ``PATH_MAX`` through folders that are there is no such proof (a ``cd``
    and a shorter spelling reach the file): False. ``real_path`` never folds a ``..`` after a
    name it could not look at, so ``real`` is where the kernel's walk goes."""
    return error.errno == errno.ENAMETOOLONG and names_no_file(real)


def replaceable_ancestor(
    spellings: tuple[str, ...], folders: list[str], *, spare_home: bool = True
) -> str | None:
    """The folder of ``spellings`` (a path as spelled and resolved, absolute and normalised)
    that holds one of ``folders`` (the data dir or the memory root, spelled and resolved) and
    that this account may rename, remove or replace by another (a symlink to a folder of its
    own): the kernel lets it when its parent is writable here (``os.access``, asked at decision
    time). Moving such a folder away and back (``mv ~/.local/share /tmp/s && echo x >
    /tmp/s/…/<other>/a.md && mv /tmp/s ~/.local/share``) writes any scope by a path the guard
    cannot judge beforehand. ``/``, the account's home and the folders above it are never
    returned while ``spare_home``: ``cd ~``, ``cp x ~/`` and ``ls /`` name them every day;
    a command that renames what it names (``mv ~ /tmp/x``) passes ``spare_home=False``,
    and then they are judged like any other folder (root's ``/root``, whose parent ``/`` root
    may write; a home in a folder of the account's own). None when no spelling holds a folder
    so."""
    home = os.path.normpath(Path.home())
    for path in dict.fromkeys(spellings):
        if spare_home and (path == "/" or path == home or home.startswith(path.rstrip("/") + "/")):
            continue
        holds = any(folder.startswith(path.rstrip("/") + "/") for folder in folders)
        if holds and os.access(os.path.dirname(path), os.W_OK):  # noqa: PTH120
            return path
    return None


def _shown_path(path: str) -> str:
    """``path`` for a message, a lone surrogate written as ``\\udXXX`` (valid UTF-8 JSON)."""
    return path.encode("utf-8", "backslashreplace").decode("utf-8")


def below_under_another_name(real: str, root: str, mounts: MountTable) -> tuple[str, ...] | None:
    """``real``'s parts below ``root`` when the kernel lands it there although neither its
    spelling nor its real path lies in ``root``: a folder on its way is ``root`` itself
    (:func:`below_by_identity`), or a mount of this decision's table ``mounts`` shows a part
    of ``root`` on its way (a bind mount of a scope folder, a folder in one or one file:
    :func:`harness_memory.mounts.below_by_mount`). None when it lands outside ``root`` (or
    where cannot be looked up: see :func:`unseen_by_mount`)."""
    found = below_by_identity(real, root)
    return found if found is not None else below_by_mount(real, root, mounts)


def unseen_by_mount(real: str, root: str, mounts: MountTable) -> bool:
    """Whether ``real`` may land in ``root`` through a mount this decision cannot see: the
    mount table could not be read on a kernel with bind mounts (``mounts.unknown``) and
    ``real`` or a folder on its way is a file or folder of ``root`` by device and inode, which
    is what a bind mount shows
    (:meth:`harness_memory.mounts.MountTable.inodes_in`, read once per decision; compared as
    ``stat`` gives them, so a file of an overlayfs, whose device is its layer's, is found too);
    or the inodes of ``root`` cannot all be read and ``real`` lies on ``root``'s filesystem
    (then any path there may be one). False with a readable table, or when ``root`` cannot be
    looked at (a missing folder has no second name). One ``stat`` per folder on the way."""
    if not mounts.unknown:
        return False
    try:
        wanted = Path(root).stat().st_dev
    except OSError:
        return False
    path = PurePath(real)
    inodes = mounts.inodes_in(root)
    if inodes is None:  # unknown: any path on the root's filesystem may be a part of it
        for folder in (path, *path.parents):
            try:
                return Path(folder).stat().st_dev == wanted
            except OSError:
                continue
        return False
    for folder in (path, *path.parents):
        try:
            found = os.stat(folder)  # noqa: PTH116 (see below_by_identity)
        except OSError:
            continue  # not there (yet): a folder above may still be a mounted part
        if (found.st_dev, found.st_ino) in inodes:
            return True
    return False


def below_by_identity(real: str, root: str) -> tuple[str, ...] | None:
    """``real``'s parts below the memory root when a folder on its way *is* the memory root
    under another name, as the kernel finds it: same device and inode (a bind mount or a
    second mount of the volume; another letter case on a case-insensitive disk, macOS's
    default, which ``os.path.realpath`` leaves as spelled). None when none is (or the memory
    root cannot be looked at). One ``stat`` per folder on the way (each by its path string:
    a ``Path`` per folder would parse the whole path again, a cost growing with its depth
    squared)."""
    try:
        wanted = Path(root).stat()
    except OSError:
        return None
    path = PurePath(real)
    for folder in (path, *path.parents):
        try:
            found = os.stat(folder)  # noqa: PTH116 (see above)
        except OSError:
            continue  # not there (yet): a folder above may still be the root
        if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
            return path.relative_to(folder).parts
    return None


def _passes_through(joined: str, roots: tuple[str, ...]) -> bool:
    """Tell whether the spelled path, read left to right, enters any of ``roots`` (absolute and
    normalised) at some point. Compares strings: one pass over the parts, each prefix built
    once (no path parsed again per part)."""
    parts = PurePath(joined).parts
    if not parts:
        return False
    inside = [(root, root.rstrip("/") + "/") for root in roots]
    current = parts[0]
    for part in parts[1:]:
        current = current + part if current.endswith("/") else f"{current}/{part}"
        if part != ".." and any(
            current == root or current.startswith(prefix) for root, prefix in inside
        ):
            return True
    return False


def _decide_scope(
    parts: tuple[str, ...], workspace_key: str | None, *, naming: bool = False
) -> GuardDecision:
    """Judge a write by its location below the memory root (``parts`` is relative to it);
    ``naming``: one in a scope it may write by a name the service cannot address is denied
    (:func:`name_problem`)."""
    decision = _decide_scope_of(parts, workspace_key)
    if decision.allowed and naming and (problem := name_problem(parts[1:])) is not None:
        return GuardDecision(False, problem, decision.scope)
    return decision


def _is_key(name: str) -> bool:
    """Whether ``name`` is shaped as a Workspace's scope key (K-7)."""
    try:
        check_scope_key(name)
    except InvalidId:
        return False
    return True


def _decide_scope_of(parts: tuple[str, ...], workspace_key: str | None) -> GuardDecision:
    """Judge a write by the scope it lands in (``parts`` is relative to the memory root)."""
    own = "the user scope" if workspace_key is None else f"the user scope or {workspace_key}"
    if len(parts) == 1 and parts[0] not in (USER_SCOPE, workspace_key) and _is_key(parts[0]):
        return GuardDecision(
            False,
            f"{parts[0]} is another Workspace's memory scope (a program run in that folder "
            f"or given it may write into it); this Session may write only to {own}",
            parts[0],
        )
    if len(parts) < 2:
        return GuardDecision(
            False,
            f"memory files live inside a scope directory, not in the memory root itself; use {own}",
        )
    scope = parts[0]
    if parts[-1].casefold() == MARKER_FILE:  # ``.Workspace`` is the marker on a case-blind disk
        return GuardDecision(
            False,
            f"{MARKER_FILE} is the scope's marker, kept by the memory service; never write it",
            scope,
        )
    if scope == USER_SCOPE:
        return GuardDecision(True, "a write into the user scope", scope)
    if workspace_key is not None and scope == workspace_key:
        return GuardDecision(True, "a write into this Session's Workspace scope", scope)
    if workspace_key is None:
        return GuardDecision(
            False,
            f"this Session has no Workspace scope (temporary Workspace or Memory off); "
            f"{scope} belongs to another Workspace: save to the user scope instead",
            scope,
        )
    return GuardDecision(
        False,
        f"{scope} is another Workspace's memory scope; this Session may write only to the "
        f"user scope or its own scope {workspace_key}",
        scope,
    )
