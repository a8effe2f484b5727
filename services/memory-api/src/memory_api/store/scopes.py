"""Reading one memory root from disk: its scopes, their topic files, index and marker (A-3, A-5).

Blocking functions for worker threads. Every path is derived from checked ids and re-checked
with :mod:`memory_api.store.containment`; what lies outside the memory root is skipped as if it
did not exist. What lists (A-5): ``*.md`` files other than ``MEMORY.md`` whose names pass K-7 —
so dotfiles (``.workspace``, temp files, locks) and folders never do; a symlinked topic file
lists only when its target is a regular file inside the memory root (A-7).
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from memory_core import layout
from memory_core.atomic import data_folder_mode, make_dirs
from memory_core.byte_order import decode_marked, marked_codec, not_text
from memory_core.caps import folder_unlisted, folder_unreadable
from memory_core.char_classes import is_format_character
from memory_core.decoding import not_decoded_why
from memory_core.errors import InvalidId
from memory_core.file_kind import file_kind
from memory_core.ignorable import is_ignorable
from memory_core.index import IndexRead, index_lines, topic_link_targets
from memory_core.keys import USER_SCOPE, check_scope_key, check_topic_file_name, key_for_real_path
from memory_core.layout import NOT_A_FOLDER
from memory_core.markdown import line_texts
from memory_core.rules import WORKSPACE_PATH_MAX_BYTES
from memory_core.scope_files import fold_name
from memory_core.shown_names import shown_name
from memory_core.topics import READ_CAP_BYTES, decode_text
from memory_core.wiki_links import SUB_FOLDER_WALK_CAP, SUB_FOLDER_WALK_DEPTH

from memory_api.errors import READ_ACCESS_FIX, CannotRead, NotAFolder, NotFound, Unavailable
from memory_api.store.containment import (
    HARD_LINKED,
    NamedElsewhereError,
    NotRegularFileError,
    cannot_read,
    is_within,
    joined,
    named_elsewhere,
    opened_at,
    read_regular,
    real_child,
    real_path,
)
from memory_api.store.not_scopes import Skipped
from memory_api.store.workspace_mount import off_its_mount

__all__ = [
    "GONE_ERRNOS",
    "NOT_A_FOLDER",
    "NOT_A_FOLDER_WHY",
    "SUB_FOLDER_WALK_CAP",
    "SUB_FOLDER_WALK_DEPTH",
    "FolderListing",
    "IndexText",
    "Marker",
    "ScopeListing",
    "SubFolderWalk",
    "TopicEntry",
    "count_listed",
    "create_scope_dir",
    "entry_refusal",
    "existing_scope_dir",
    "index_refusal",
    "judged_topics",
    "list_folder",
    "list_scopes",
    "made_scope_dir",
    "memory_root_unread",
    "moved_scope",
    "no_topic_file",
    "read_index_text",
    "read_marker",
    "refusal_text",
    "refuse_no_folder",
    "scan_scope",
    "scan_topics",
    "scope_blocked",
    "scope_dir_error",
    "scope_dir_refusal",
    "scope_folders",
    "scope_real_dir",
    "scope_unusable",
    "scopes_and_blocked",
    "sub_folder_files",
    "sub_folder_files_any_case",
    "sub_folder_files_ending",
    "topic_entry",
    "unreadable_folder",
    "vanished_root",
    "vanished_scopes",
    "walk_sub_folders",
    "workspace_presence",
]

logger = logging.getLogger(__name__)

MARKER_READ_CAP = 64 * 1024
"""A marker is one path; anything longer is not read further."""
NAME_CHECKS_CACHED = 65_536
"""Scope keys whose K-7 verdict is memoised (a pure function of the name): every scope's, as
the overview lists the memory root on every request."""
TOPIC_NAME_CHECKS_CACHED = 8192
"""Topic file names whose K-7 verdict is memoised: a large scope's, listed again whenever its
folder changes (an unchanged folder's listing is kept whole, :mod:`.listings`); more would hold
memory for nothing."""
INDEX_COUNT_CAP = 16 * 1024 * 1024
"""How far past the read cap an over-large index is scanned for its line count and links."""
LINK_LINE_CAP = 64 * 1024
"""Of a line past the read cap, only this many first bytes are searched for links."""


@dataclass(frozen=True, slots=True)
class TopicEntry:
    """A topic file found in a scope: its name (identity), real path (``path`` as a string,
    ``real`` as a Path) and the real file's stat."""

    file: str
    path: str
    stat: os.stat_result

    @property
    def real(self) -> Path:
        """The real path as a :class:`~pathlib.Path`."""
        return Path(self.path)


@dataclass(frozen=True, slots=True)
class IndexText:
    """A scope's ``MEMORY.md`` as read (at most 1 MiB): its text with LF line ends, and stat.

    For an index over the read cap (T-5b) ``text`` holds only its complete lines within the
    first 1 MiB and ``partial`` says how many lines there are in all and where the rest links.
    For an index that is there but cannot be read (Q-2b) ``error`` says why
    (:func:`~memory_api.store.containment.cannot_read`) and ``text`` is empty. ``problems``
    holds the ``encoding`` problems of its decoding (:func:`~memory_core.decoding.decode_text`:
    bytes that are not UTF-8 and how they were read), which its lint names (T-2, T-5).
    """

    text: str
    stat: os.stat_result
    partial: IndexRead | None = None
    error: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def unread(self) -> tuple[int, bool]:
        """``(lines past the read cap, whether that count is exact)`` for the injection."""
        if self.partial is None:
            return (0, True)
        return (self.partial.lines_total - len(index_lines(self.text)), self.partial.exact)


@dataclass(frozen=True, slots=True)
class Marker:
    """What a Workspace scope's ``.workspace`` says (K-5, K-6a).

    ``path`` is the Workspace path it names (None when missing or unreadable); ``problems`` name
    what is wrong, including a marker naming another path than the key stands for; ``orphaned``
    is true when the named path no longer exists and the service had seen it; ``not_visible``
    when it does not exist here and was not there for the service at the latest Session start
    either (another mount namespace: in use, for all the service can tell), K-6a.
    """

    path: str | None
    problems: list[str] = field(default_factory=list)
    orphaned: bool = False
    not_visible: bool = False


GONE_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.ELOOP})
"""Lookup failures that say no Workspace folder is at a path (K-6a): only these make a Workspace
the service once saw *orphaned*; every other failure leaves it *not visible*."""


def workspace_presence(scope: Path | str, path: str) -> tuple[bool, bool]:
    """``(orphaned, not_visible)`` of the Workspace ``path`` a scope's marker names (K-6a).

    A folder at that path (through symlinks) is neither, unless it is empty and off the mount
    the Workspace lay on (:func:`~memory_api.store.workspace_mount.off_its_mount`: that mount
    point not mounted now, or the folder on another mount): then that folder is the one the
    mount covered (the
    Workspace's own folder as a bind mount's point, left empty on the filesystem below), *not
    visible*; a folder holding anything is the Workspace (one made again there, say), and its
    mount record is not read. A path with no folder there (nothing, or a file or a link to one
    left where the folder was) is *not visible* while the scope holds
    :data:`~memory_core.layout.NOT_VISIBLE_FILE` (the service could not see it at the latest
    Session start either) or its path is off the mount the Workspace lay on (its disk
    unplugged; or, by a record that tells mounts apart, the path now leading into another
    mount: a service moved into a container, a tmpfs over a folder above it), else *orphaned*
    (it was seen, or the scope predates the flag, and is gone from its own mount). Only an
    answer that says no
    folder is there (:data:`GONE_ERRNOS`: no such entry, a file on the way, a name too long to
    look up, a symlink loop) counts as gone; any other lookup failure is *not visible*, since
    whether it is gone cannot be told: a folder on its way is another account's (EACCES, EPERM),
    or it lies on a network or FUSE mount that dropped (ENOTCONN of a disconnected sshfs, ESTALE
    of NFS, EIO, a timeout).
    """
    try:
        # no Path per scope: an overview page judges hundreds
        mode = os.stat(path).st_mode  # noqa: PTH116
    except ValueError:  # a NUL in a hand-edited marker: no such path
        mode = None
    except OSError as error:
        if error.errno not in GONE_ERRNOS:
            return False, True
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        # the empty folder left where a mount's point was (its mount gone) is not the
        # Workspace: the Workspace's own folder as a bind mount's point reads so unmounted
        return False, _empty_folder(path) and off_its_mount(scope, path)
    unseen = os.path.lexists(f"{os.fspath(scope)}{os.sep}{layout.NOT_VISIBLE_FILE}")
    unseen = unseen or off_its_mount(scope, path)
    return not unseen, unseen


def _empty_folder(path: str) -> bool:
    """Whether the folder ``path`` holds no entry; False when it cannot be listed (then nothing
    says it is a mount's empty point)."""
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def scope_real_dir(root: Path, key: str) -> Path | None:
    """Return the real directory of scope ``key`` under the real ``root``, or None when no
    folder of this root is in its place.

    ``key`` is K-7-checked (``InvalidId``). A scope that is a symlink is an alias only when it
    lands on another scope folder directly under the root (its real name a scope key too, so
    locks keyed by the real name cover both spellings). Any other symlink — dangling, leading
    out of the root, to the root itself, into a folder deeper down or to a file — is None, like
    a file, a FIFO or a socket there (where it leads is never used, A-7): callers tell that
    apart from nothing at all with :func:`refuse_no_folder` (503 ``NotAFolder``, K-6). A root
    the service may not look into (another account's, ``r--``) raises :class:`CannotRead`
    naming the memory root (:func:`memory_root_unread`), never "no such scope" (Q-2b)."""
    child = joined(root, check_scope_key(key))
    try:
        mode = os.lstat(child).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        mode = None  # a file where the root should be: let realpath say what it resolves to
    except OSError as error:  # the root not searchable (no permission, an I/O error), Q-2b
        logger.warning("%s cannot be looked into: %s", root, error)
        raise CannotRead(memory_root_unread(root, error)) from None
    if mode is not None and not stat.S_ISLNK(mode):
        return child if stat.S_ISDIR(mode) else None  # below a real root: its own real path
    resolved = real_path(child)
    if resolved.parent != root or not _is_scope_key(resolved.name):
        return None
    return resolved if resolved.is_dir() else None


def create_scope_dir(root: Path, key: str) -> bool:
    """Create scope ``key`` under the real ``root`` (and the root) if missing; blocking (K-5, K-6).

    Returns False when the operating system refused (no permission, a file on the way; logged).
    An entry of that name that is no directory (a file, a symlink, dangling or not) is left
    alone and is no failure here: :func:`scope_real_dir` judges it next, and nothing is ever
    created through a symlink. Raises ``InvalidId`` for a bad ``key``.
    """
    return scope_dir_refusal(root, key) is None


def scope_dir_refusal(root: Path, key: str) -> str | None:
    """:func:`create_scope_dir`, returning None when the scope is there (or was made) and else
    why not, for a person: ``"could not create its folder (Read-only file system)"`` (A-9 says
    so, never a calm answer naming a folder that is not there), or :func:`vanished_root`'s
    words when the memory root is gone while its history holds scopes (nothing is made)."""
    if (vanished := vanished_root(root)) is not None:
        return vanished
    error = scope_dir_error(root, key)
    return None if error is None else refusal_text(error)


def scope_dir_error(root: Path, key: str) -> OSError | None:
    """:func:`create_scope_dir`, returning the operating system's refusal (logged) or None."""
    try:
        folder = root / check_scope_key(key)
        mode = data_folder_mode()  # owner-only whatever the umask: the notes below
        make_dirs(root, mode)
        folder.mkdir(mode=mode)
    except FileExistsError:
        pass
    except OSError as error:
        logger.warning("cannot create scope %s in %s: %s", key, root, error)
        return error
    return None


NOT_A_FOLDER_WHY = (
    f"{NOT_A_FOLDER}; an operator must move it away (the scope's folder is then made again)"
)
""":data:`NOT_A_FOLDER` with what to do about it."""


def made_scope_dir(root: Path, key: str, agent_id: str) -> Path:
    """Create scope ``key`` of agent ``agent_id`` under the real ``root`` if missing (a scope
    made on demand: the user scope, K-6, or a Workspace scope a push or an import makes) and
    return its real folder.

    Raises :class:`~memory_api.errors.Unavailable` (503) when the operating system refuses to
    make it (a read-only or full data dir, no permission: never "no scope", there should be
    one), :class:`~memory_api.errors.NotAFolder` (503) when something that is not a folder is
    in its folder's place (a file, a symlink that does not lead to another scope folder of the
    root: dangling, out of the root, to a file; there is a scope, it cannot be used; where a
    link leads is never said) and
    :class:`~memory_api.errors.NotFound` (404) when it is no folder inside the root (a file on
    the root's way), and :class:`~memory_api.errors.CannotRead` (503) when the root cannot be
    looked into (:func:`scope_real_dir`): the scope may well be there (Q-2b)."""
    found = scope_real_dir(root, key)  # there already (the usual case), or the root unread
    if found is not None:
        return found
    if (vanished := vanished_root(root)) is not None:
        raise Unavailable(
            f"scope {key!r} of agent {agent_id!r} is not there and the service {vanished}"
        )
    error = scope_dir_error(root, key)
    if error is not None and not isinstance(error, NotADirectoryError):
        raise Unavailable(
            f"scope {key!r} of agent {agent_id!r} is not there and the service "
            f"{refusal_text(error)}"
        )
    scope = scope_real_dir(root, key)
    if scope is None:
        if error is None:
            refuse_no_folder(root, key, agent_id)
        raise NotFound(f"no scope {key!r} in the memory of agent {agent_id!r}")
    return scope


def existing_scope_dir(root: Path, key: str, agent_id: str) -> Path:
    """The real folder of scope ``key`` of agent ``agent_id`` under the real ``root``, for a
    route that addresses one scope (A-3, A-5, A-6, V-2, S-1, R-1); the user scope is made on
    demand (:func:`made_scope_dir`).

    Raises :class:`~memory_api.errors.NotAFolder` (503) when a regular file, a FIFO, a socket
    or a symlink that does not lead to another scope folder of the root (dangling, leading out
    of the root or deeper, to a file) stands in a Workspace scope's folder's place, as for the
    user scope: the scope is there and cannot be used (the overview names that entry too, a
    checkpoint and an export say it alike), never a 404 "no scope" that sends an operator
    looking for one that never existed; a link is named as "a symlink", where it leads never
    said nor followed (A-7). :class:`~memory_api.errors.Unavailable` (503) with
    :func:`vanished_root`'s words when the memory root is gone and its history holds this
    scope (it said 404 "no scope"). :class:`~memory_api.errors.NotFound` (404) when nothing is
    there."""
    if key == USER_SCOPE:
        return made_scope_dir(root, key, agent_id)
    scope = scope_real_dir(root, key)
    if scope is None:
        refuse_no_folder(root, key, agent_id)
        if key in vanished_scopes(root) and (vanished := vanished_root(root)) is not None:
            raise Unavailable(
                f"scope {key!r} of agent {agent_id!r} is not there and the service {vanished}"
            )
        raise NotFound(f"no scope {key!r} in the memory of agent {agent_id!r}")
    return scope


def refuse_no_folder(root: Path, key: str, agent_id: str) -> None:
    """Raise :class:`~memory_api.errors.NotAFolder` naming what stands in scope ``key``'s
    folder's place under the real ``root`` (``a FIFO``; a link's target is never looked at),
    when anything does: for a caller that found no scope folder there and would say "no
    scope". ``key`` must be K-7-checked."""
    try:
        mode = os.lstat(root / key).st_mode
    except FileNotFoundError:
        return
    except OSError:
        mode = None
    kind = "an entry the service cannot look at" if mode is None else file_kind(mode)
    raise NotAFolder(
        f"scope {key!r} of agent {agent_id!r} cannot be used: the service {NOT_A_FOLDER_WHY}, "
        f"then try again (in its place: {kind})"
    )


def scope_unusable(root: Path, key: str, agent_id: str) -> str | None:
    """Make scope ``key`` if missing (:func:`made_scope_dir`); :data:`NOT_A_FOLDER_WHY` when
    something that is not a folder is in its folder's place (a link leading out of the root
    too: the overview left the user scope out, a search said nothing of it, while Session start
    said it cannot be used), else None (a folder, or no root to make it in). Raises
    :class:`~memory_api.errors.Unavailable` (503) when the kernel refuses to make it."""
    try:
        made_scope_dir(root, key, agent_id)
    except NotAFolder:
        return NOT_A_FOLDER_WHY
    except Unavailable:
        if (vanished := vanished_root(root)) is not None:
            return vanished  # said in the answer (the overview's user row, a search), never 503
        raise
    except NotFound:
        return None
    return None


def scope_blocked(root: Path, key: str) -> bool:
    """Whether something that is no folder of the real ``root`` stands in scope ``key``'s place
    (a file, a FIFO, a symlink that does not lead to another scope folder of the root:
    :func:`scope_unusable`'s case), judged without making anything: for answers that only
    read, such as the agents list's count. False for a folder, a link to another scope, or
    nothing there."""
    return scope_real_dir(root, key) is None and os.path.lexists(root / key)


VANISHED_SHOWN = 3
"""How many of the scopes its history holds a vanished memory root's notice names."""


def vanished_scopes(root: Path) -> list[str]:
    """The scope keys the agent's history holds (sorted) when its memory ``root`` is not there
    at all (:func:`vanished_root`); none when the root is there or no history is kept."""
    if os.path.lexists(root):
        return []
    try:
        with os.scandir(root.parent / "history") as entries:
            names = [entry.name[: -len(".git")] for entry in entries if entry.name.endswith(".git")]
    except OSError:
        return []
    return sorted(name for name in names if _is_scope_key(name))


def vanished_root(root: Path) -> str | None:
    """Why no scope is made under the real memory ``root`` (``…/agent_state/memory``) when it
    is not there at all while the agent's history (``…/agent_state/history``) holds scopes: it
    was moved or deleted, and a read that made it again showed an empty memory as normal (a
    Session start then recorded every file as removed, V-1). In words that follow "the service
    …"; None when the root is there (or something is in its place), or no history holds a
    scope (a new agent: nothing saved yet)."""
    held = vanished_scopes(root)
    if not held:
        return None
    named = ", ".join(map(repr, held[:VANISHED_SHOWN])) + (
        ", …" if len(held) > VANISHED_SHOWN else ""
    )
    return (
        f"finds no memory root (the folder of the agent's scopes), while its history holds "
        f"{len(held)} scope{'s' if len(held) > 1 else ''} ({named}): it was moved or deleted, "
        "and nothing is made in its place; an operator must put it back (or make it again, "
        "empty, to start with no memory: the next Session start records every file as removed)"
    )


def refusal_text(error: OSError) -> str:
    """What :func:`scope_dir_refusal` says of ``error``."""
    return f"could not create its folder ({error.strerror or error})"


@functools.lru_cache(maxsize=NAME_CHECKS_CACHED)
def _is_scope_key(name: str) -> bool:
    """K-7 for a listed scope name, memoised: the overview lists every scope on each request."""
    try:
        check_scope_key(name)
    except InvalidId:
        return False
    return True


def _entries(root: Path) -> list[os.DirEntry[str]]:
    """The entries of the memory root ``root``; none when it does not exist (no scope made
    yet, or a file on its way: :func:`~.containment.checked_memory_root`). Raises
    :class:`CannotRead` (503, Q-2b) when it is there but cannot be listed or entered (no
    permission, mode ``r--`` or ``-wx``, an I/O error): shown as holding no scope, it made the
    overview and search answer "no memory", the agents list count 0 memories and an export
    write an archive of no scope."""
    try:
        with os.scandir(root) as listing:
            entries = list(listing)
        os.lstat(f"{os.fspath(root)}{os.sep}{os.curdir}")  # entered: every scope lies in it
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as error:
        logger.warning("%s cannot be listed: %s", root, error)
        raise CannotRead(memory_root_unread(root, error)) from None
    return entries


def memory_root_unread(root: Path, error: OSError) -> str:
    """What the service says of the memory root ``root`` (``…/agents/<id>/agent_state/memory``)
    that it cannot list, from the error of the listing (never the path)."""
    agent = root.parent.parent.name
    return (
        f"the memory root of agent {agent!r} (the folder of its scopes) cannot be listed: the "
        f"service {cannot_read(error)}"
    )


def list_scopes(root: Path, skipped: Skipped | None = None) -> list[tuple[str, Path]]:
    """Return ``(key, real dir)`` of every scope directly under ``root``, sorted by key.

    Entries whose names are no scope key (K-7), that are not directories, or that resolve
    outside the root are skipped, each added to ``skipped`` when given (see
    :func:`scope_folders`). A plain folder (the listing's own file type says so) is its own
    real path; a symlink is resolved and judged by :func:`scope_real_dir`.
    """
    return sorted((key, Path(folder)) for key, folder in scope_folders(root, skipped))


def scopes_and_blocked(root: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """:func:`list_scopes` of the real ``root``, and the keys (sorted; never ``user``, whose
    own row says it) of the scopes whose folder's place holds something that is no folder of
    the root (:func:`scope_blocked`: a file, a FIFO, a socket, a symlink that does not lead to
    another scope folder of the root: dangling, out of the root, to a file): there and not
    usable, as every scope route says (503, :func:`existing_scope_dir`), for an answer over
    every scope that must not leave them out as if absent."""
    skipped = Skipped(most=sys.maxsize)
    listed = list_scopes(root, skipped)
    blocked = [
        name for name, _ in skipped.named if _is_scope_key(name) and scope_blocked(root, name)
    ]
    return listed, blocked


def scope_folders(root: Path, skipped: Skipped | None = None) -> list[tuple[str, str]]:
    """:func:`list_scopes` unsorted, each real dir a string (thousands of scopes are cheaper
    so: no ``Path`` made per scope). Each entry that is no scope (a stray file, a folder not
    named like one, a symlink out of the root or to nothing) is added to ``skipped`` when
    given (:class:`~memory_api.store.not_scopes.Skipped`: what the overview and the agents
    list name, A-3)."""
    scopes: list[tuple[str, str]] = []
    for entry in _entries(root):
        name = entry.name
        try:
            if _is_plain_folder(entry) and _is_scope_key(name):
                scopes.append((name, entry.path))
                continue
            found = scope_real_dir(root, name)
        except InvalidId:
            found = None
        if found is not None:
            scopes.append((name, os.fspath(found)))
        elif skipped is not None and name != USER_SCOPE:  # the user scope's row says it (K-6)
            skipped.add(entry)
    return scopes


def _is_plain_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the listing's file type says ``entry`` is a folder, not a symlink (``d_type``:
    no system call on the filesystems that report it; others fall back to one ``lstat``)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


@functools.lru_cache(maxsize=TOPIC_NAME_CHECKS_CACHED)
def _is_topic_name(name: str) -> bool:
    """K-7 for a listed name, memoised: a large scope is listed again when one file changes."""
    try:
        check_topic_file_name(name)
    except InvalidId:
        return False
    return True


@dataclass(frozen=True, slots=True)
class ScopeListing:
    """What one listing of a scope folder holds: its topic files (A-5) sorted by file name,
    ``(name, why)`` of each entry that is never read (T-5b), sorted, and ``error``: why the
    folder itself could not be listed (Q-2b; then nothing else is known)."""

    topics: list[TopicEntry]
    refused: list[tuple[str, str]]
    error: str | None = None


@dataclass(frozen=True, slots=True)
class FolderListing:
    """What the entries of a scope folder are, as one ``scandir`` tells (A-5, T-5b).

    Valid while the folder itself is unchanged: an entry created, deleted or renamed changes the
    folder's mtime and ctime, and so does any change of an entry's file type (which takes a new
    entry). ``regular``: the names of topic files the listing reports as regular files, sorted;
    ``judged``: entries whose verdict can change while the folder does not (a symlink, whose
    target may change; a file with more than one hard link, which may have a name outside the
    folder, A-7; a name like the index in another case), judged again on each use;
    ``refused``: ``(name, why)`` of entries refused by their type or name alone (a name no
    route can address among them, escaped); ``error``: why the folder could not be listed
    (Q-2b: no permission, an I/O error), when it could not.
    """

    regular: tuple[str, ...]
    judged: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    error: str | None = None

    @property
    def weight(self) -> int:
        """Roughly the bytes this listing holds (names and their objects), for cache bounds."""
        names = (*self.regular, *self.judged, *(name for name, _ in self.refused))
        return 200 + sum(_NAME_OVERHEAD + len(name) for name in names)


_NAME_OVERHEAD = 64
"""Bytes of a short ``str`` object and its slot in a tuple, beyond its characters."""


def list_folder(scope: Path | str, *, real: bool = False) -> FolderListing | None:
    """List the real scope dir ``scope`` once and sort its entries into a :class:`FolderListing`;
    None when it is gone (missing, no directory). A folder that is there but cannot be listed
    (no permission, an I/O error) gives an empty listing whose ``error`` says why (Q-2b, logged):
    it is never taken for an empty scope. So is a folder whose names can be listed but which
    may not be entered (read without search permission, mode ``r--``): no file in it can be
    opened or even ``lstat``-ed, so each would vanish from the listing without a word. One that
    may be entered but not listed (mode ``0711``) says so (:func:`_why_not_listed`).

    ``real``: ``scope`` was checked to be a real folder of the memory root, so the folder
    listed must be that very one as the kernel names it: one swapped for a symlink to another
    agent's scope since the check is not listed (None, as gone), so no name of that folder is
    answered as this scope's (A-7)."""
    try:
        fd = os.open(scope, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            if real and not opened_at(fd, scope):
                logger.info("%s was replaced while it was listed; not listed", scope)
                return None
            with os.scandir(fd) as entries:
                listing = _classify(Path(scope), entries)
        finally:
            os.close(fd)
        os.lstat(f"{os.fspath(scope)}{os.sep}{os.curdir}")  # entered: needs search permission
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        logger.warning("%s cannot be listed: %s", scope, error)
        return FolderListing((), (), (), error=_why_not_listed(scope, error))
    return listing


def _why_not_listed(scope: Path | str, error: OSError) -> str:
    """Why ``scope`` could not be listed (``error``): :func:`~memory_core.caps.folder_unlisted`
    when read was denied but the folder may be entered (mode ``0711``: its files open by name,
    its index is injected), else :func:`cannot_read`. One ``lstat`` inside it tells."""
    if error.errno not in (errno.EACCES, errno.EPERM):
        return cannot_read(error)
    try:
        os.lstat(f"{os.fspath(scope)}{os.sep}{os.curdir}")
    except OSError:
        return cannot_read(error)
    return folder_unlisted(error.strerror or type(error).__name__)


def _classify(scope: Path, entries: Iterable[os.DirEntry[str]]) -> FolderListing:
    regular: list[str] = []
    judged: list[str] = []
    refused: list[tuple[str, str]] = []
    for entry in entries:
        name = entry.name
        if name.startswith("."):
            # K-7 refuses it: a dot-named ``*.md`` file is named (T-5b); the atomic writes'
            # ``.*.tmp``, other dotfiles and editors' lock links (``.#notes.md``) are not.
            if name.endswith(".md") and not _is_link(entry):
                refused.append((shown_name(name), _name_refusal(name, entry)))
            continue
        if not name.endswith(".md"):
            if name.casefold().endswith(".md"):
                judged.append(name)  # another case of ".md": the index itself on some disks
            elif _goes_on_after_md(name) and not _is_link(entry):
                refused.append((shown_name(name), _name_refusal(name, entry)))  # "notes.md " (T-5b)
            continue
        if name == layout.INDEX_FILE:
            if not _regular_by_type(entry):
                judged.append(name)
            continue
        if not _is_topic_name(name):
            refused.append((shown_name(name), _name_refusal(name, entry)))  # never read, but named
            continue
        if name.casefold() == layout.INDEX_FILE.casefold() or _is_link(entry):
            judged.append(name)
        elif _regular_by_type(entry):
            (judged if _has_other_names(entry) else regular).append(name)
        else:
            why = _refusal_by_type(scope / name)
            if why is not None:
                refused.append((name, why))
    return FolderListing(tuple(sorted(regular)), tuple(judged), tuple(refused))


def _goes_on_after_md(name: str) -> bool:
    """Whether ``name`` would be a topic file's but for blanks, dots or characters no one sees
    after its ``.md`` (``notes.md ``, ``notes.md.``, ``notes.md\n``, ``notes.md`` then U+200B or
    U+FEFF: a title pasted by a script, copied from a page), which no route reads. Unseen: a
    format character (category Cf, U+FFFB and U+0600 too, those of Unicode versions newer
    than this Python's data as well: :func:`~memory_core.char_classes.is_format_character`)
    or a default-ignorable one (the
    Hangul filler U+3164 too, :func:`~memory_core.ignorable.is_ignorable`)."""
    kept = name.rstrip()
    while kept and (kept[-1] == "." or kept[-1].isspace() or _unseen(kept[-1])):
        kept = kept[:-1]
    return len(kept) < len(name) and kept.casefold().endswith(".md")


def _unseen(char: str) -> bool:
    return is_format_character(char) or is_ignorable(char)


def _name_refusal(name: str, entry: os.DirEntry[str]) -> str:
    """Why a ``*.md`` entry whose name fails K-7 is never read: what it is (a file, a folder, a
    symlink, a FIFO …, by its own type, never followed) and what is wrong with its name."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        what = "is not UTF-8 (bytes of another encoding, e.g. Latin-1)"
    else:
        if any(unicodedata.category(char) == "Cc" for char in name):
            what = "holds a control character (a line break, a tab …)"
        elif _goes_on_after_md(name):
            what = "goes on after '.md' (a trailing space, dot or unseen character)"
        elif "\\" in name or "/" in name:
            what = "holds a backslash"
        elif name.startswith("."):
            what = "starts with '.' (a hidden file)"
        else:
            try:
                check_topic_file_name(name)
            except InvalidId as error:
                what = str(error).rpartition(": ")[2]
            else:
                what = "cannot be addressed"
    return f"{_entry_kind(entry)} whose name {what}, so no route can read or delete it (rename it)"


def _entry_kind(entry: os.DirEntry[str]) -> str:
    """What ``entry`` is, by its own type (a symlink is not followed), in
    :func:`~memory_core.file_kind.file_kind`'s words; ``"an entry"`` when it cannot be told
    (gone meanwhile, no permission)."""
    try:
        return file_kind(entry.stat(follow_symlinks=False).st_mode)
    except OSError:
        return "an entry"


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return True  # judged on use, which finds out


def _refusal_by_type(lexical: Path) -> str | None:
    """Why the entry at ``lexical`` (no symlink) is never read, by its type; None if regular or
    gone."""
    try:
        return _kind_of(os.lstat(lexical).st_mode)
    except OSError:
        return None


def scan_topics(root: Path, scope: Path, listing: FolderListing | None = None) -> list[TopicEntry]:
    """Return the topic files of the real scope dir ``scope``, sorted by file name (A-5)."""
    return scan_scope(root, scope, listing).topics


def scan_scope(root: Path, scope: Path, listing: FolderListing | None = None) -> ScopeListing:
    """The topic files of the real scope dir ``scope`` and its entries never read.

    ``listing`` is the folder's :class:`FolderListing` when the caller keeps one for the
    folder's current version, else the folder is listed now. Each topic file costs an ``lstat``
    (its stat is the key of its parse); the judged entries are judged now.

    Refused (T-5b): ``MEMORY.md`` or a name that passes K-7 when it is a symlink leading outside
    the memory root, a dangling symlink or a loop, a folder, a FIFO, a socket or a device, or a
    file with another hard link outside its folder (A-7: :data:`~memory_api.store.
    containment.HARD_LINKED`); and a
    name ending in ``.MD`` / ``.Md``, which no route reads (``MEMORY.MD`` above all, an index in
    another case), or in ``.md`` and then blanks or dots (``notes.md ``). Dotfiles and other
    names are neither.
    """
    if listing is None:
        listing = list_folder(scope, real=True) or _EMPTY
    if listing.error is not None:
        return ScopeListing([], [], listing.error)
    try:
        folder = os.open(scope, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return ScopeListing([], [])  # gone since it was listed, as list_folder says
    except OSError as error:
        logger.warning("%s cannot be listed: %s", scope, error)
        return ScopeListing([], [], cannot_read(error))
    try:
        if not opened_at(folder, scope):  # swapped for a symlink since it was checked
            logger.info("%s was replaced while it was listed; not listed", scope)
            return ScopeListing([], [])
        return _scan_held(root, scope, folder, listing)
    finally:
        os.close(folder)


def _scan_held(root: Path, scope: Path, folder: int, listing: FolderListing) -> ScopeListing:
    """:func:`scan_scope` in the real ``scope`` held open as ``folder``: each row's ``lstat`` is
    taken relative to that descriptor, so it describes the very file listed there, whatever
    the scope's name leads to meanwhile (A-7)."""
    topics: list[TopicEntry] = []
    refused = list(listing.refused)
    if layout.INDEX_FILE not in listing.judged and _index_named_elsewhere(scope, folder):
        refused.append((layout.INDEX_FILE, HARD_LINKED))  # a regular file by its listing
    for name in listing.regular:
        found = _topic_entry(root, scope, name, folder)
        if found is not None:
            topics.append(found)
        else:
            why = _refusal(root, scope / name, folder)  # replaced meanwhile
            if why is not None:
                refused.append((name, why))
    for name in listing.judged:
        found, why = _judge(root, scope, name, folder)
        if found is not None:
            topics.append(found)
        elif why is not None:
            refused.append((name, why))
    topics.sort(key=lambda topic: topic.file)
    return ScopeListing(topics, sorted(refused))


def _index_named_elsewhere(scope: Path, folder: int) -> bool:
    """Whether the scope's ``MEMORY.md`` is a regular file with another hard link outside its
    folder (never read, A-7); one ``lstat`` relative to the scope held open as ``folder``, a
    listing of it only when it has more than one name."""
    lexical = f"{os.fspath(scope)}{os.sep}{layout.INDEX_FILE}"
    try:
        info = os.stat(layout.INDEX_FILE, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and named_elsewhere(lexical, info, folder=folder)


def count_listed(root: Path, scope: Path | str, listing: FolderListing) -> int:
    """How many topic files the scope lists (A-5), from its ``listing``: the regular ones as
    the listing says, the judged ones judged now (no other file is looked at)."""
    if not listing.judged:
        return len(listing.regular)
    return len(listing.regular) + len(judged_topics(root, Path(scope), listing))


def judged_topics(root: Path, scope: Path, listing: FolderListing) -> list[TopicEntry]:
    """The topic files among the judged entries of ``listing`` (symlinks resolved), judged now."""
    judged = (_judge(root, scope, name)[0] for name in listing.judged)
    return [entry for entry in judged if entry is not None]


_EMPTY = FolderListing((), (), ())


def _judge(
    root: Path, scope: Path, name: str, folder: int | None = None
) -> tuple[TopicEntry | None, str | None]:
    """A judged entry of :class:`FolderListing`: the topic file it is, or why it is refused (or
    neither: gone, or not a topic file); looked at in ``folder``, the scope held open, when
    given."""
    lexical = scope / name
    if not name.endswith(".md"):
        why = _other_case_extension(name)
        # on a case-insensitive disk "MEMORY.MD" opens MEMORY.md: it is read as the index
        if why is not None and not _is_the_index(scope, lexical):
            return None, why
        return None, None
    if name == layout.INDEX_FILE:
        return None, _refusal(root, lexical, folder)
    found = _topic_entry(root, scope, name, folder)
    return (found, None) if found is not None else (None, _refusal(root, lexical, folder))


def topic_entry(root: Path, scope: Path, name: str) -> TopicEntry | None:
    """Find the checked topic file ``name`` in the real ``scope``; None if it does not list."""
    return _topic_entry(root, scope, check_topic_file_name(name))


def _topic_entry(
    root: Path, scope: Path, name: str, folder: int | None = None
) -> TopicEntry | None:
    """The topic file ``name`` of the real ``scope`` as it lists (None: it does not); its
    ``lstat`` taken in ``folder``, the scope held open, when given: the very file listed."""
    # Strings, not Paths: a large scope lists thousands of these on every request.
    lexical = f"{os.fspath(scope)}{os.sep}{name}"
    if name.casefold() == layout.INDEX_FILE.casefold() and _is_the_index(scope, Path(lexical)):
        return None  # "Memory.md" on a case-insensitive disk: the index itself, not a topic
    try:
        info = _lstat(lexical, name, folder)
        if stat.S_ISLNK(info.st_mode):
            resolved = real_path(Path(lexical))
            if not is_within(root, resolved):
                logger.warning("topic file %s links outside the memory root; ignored", lexical)
                return None
            info = resolved.stat()
            target, held = os.fspath(resolved), None
        else:
            target, held = lexical, folder
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or named_elsewhere(target, info, folder=held):
        return None  # another hard link outside its folder: never read, named refused
    return TopicEntry(file=name, path=target, stat=info)


def _lstat(lexical: str, name: str, folder: int | None) -> os.stat_result:
    """The ``lstat`` of the entry ``name``: relative to ``folder`` (a scope held open) when
    given, else of the path ``lexical``."""
    if folder is None:
        return os.lstat(lexical)
    return os.stat(name, dir_fd=folder, follow_symlinks=False)


def sub_folder_files(scope: Path, targets: list[str]) -> frozenset[str]:
    """The index link targets into sub-folders of the real ``scope`` that are regular files
    there, symlinks resolved and kept inside the scope (T-5b). ``targets`` are relative POSIX
    paths without ``..`` (:func:`memory_core.index.scope_link_targets`); only ``stat`` is done,
    and one that fails (no permission, a name too long) means the file is not there, as does
    one no file can be named (a NUL, a lone surrogate: :func:`_nameable`). ``scope`` may be a
    folder held open (:func:`~memory_api.store.containment.held_folder`): a file is inside
    when it is inside the folder the descriptor reaches."""
    present = set()
    inside = real_path(scope) if targets else scope
    for target in filter(_nameable, targets):
        resolved = real_path(scope / target)
        if is_within(inside, resolved) and os.path.isfile(resolved):  # noqa: PTH113 - no raise
            present.add(target)
    return frozenset(present)


def _nameable(target: str) -> bool:
    """Whether the kernel can name the path ``target`` at all: no NUL, and encodable as the
    file system encodes names (a lone surrogate, ``\\udcff``, from ``surrogateescape`` is; one
    that is not raises in any ``stat``). A link to a path that cannot be named opens nothing."""
    try:
        return b"\0" not in os.fsencode(target)
    except UnicodeError:
        return False


def sub_folder_files_any_case(scope: Path, targets: list[str]) -> frozenset[str]:
    """The files of the real ``scope``'s sub-folders that the ``targets`` (as for
    :func:`sub_folder_files`) not there as written name in another case, as their paths are
    spelled on disk (``Notes/Deploy.md`` → ``notes/deploy.md``): a wiki link names a file so,
    as Obsidian finds it (:mod:`memory_core.wiki_links`); a Markdown link, a path, does not.
    Each folder on the way is listed once per target (the name written exactly so first, then
    the first in sorted order); a folder that cannot be listed holds none, and a target no
    file can be named (:func:`_nameable`) names none."""
    found: set[str] = set()
    for target in filter(_nameable, targets):
        if sub_folder_files(scope, [target]):
            continue
        spelled: list[str] = []
        for part in target.split("/"):
            try:
                names = sorted(entry.name for entry in scope.joinpath(*spelled).iterdir())
            except OSError:
                break
            same = [name for name in names if name == part] or [
                name for name in names if name.casefold() == part.casefold()
            ]
            if not same:
                break
            spelled.append(same[0])
        else:
            found |= sub_folder_files(scope, ["/".join(spelled)])
    return frozenset(found)


@dataclass(frozen=True)
class SubFolderWalk:
    """What one walk of a scope's sub-folders saw (:func:`walk_sub_folders`, T-5b).

    ``files``: the relative POSIX paths (``archive/2026/feb.md``) of the entries that are no
    folder, in the order walked; ``stopped``: where the walk did not look, each said as a
    finding ends (the walk stopped at :data:`SUB_FOLDER_WALK_CAP` entries, left a folder
    deeper than :data:`SUB_FOLDER_WALK_DEPTH` unentered, could not list a folder: which one);
    ``complete`` when there is none, else a file not in ``files`` may still be there.
    """

    files: tuple[str, ...]
    stopped: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether the walk looked everywhere: a file not in ``files`` is not there."""
        return not self.stopped


def walk_sub_folders(scope: Path) -> SubFolderWalk:
    """The :class:`SubFolderWalk` of the real ``scope``'s sub-folders: each folder listed once
    (``os.scandir``, an explicit stack: no recursion however deep the chain), depth first in
    sorted order, no symlinked folder followed, no hidden folder entered (``.git``), entries
    counted as they are read and the walk stopped at :data:`SUB_FOLDER_WALK_CAP` of them
    (a folder of 100,000 entries is not read whole); a folder that cannot be listed (another
    account's, ``chmod 700``) holds none that was seen, and makes the walk incomplete: a file
    may be in it (Q-2b). The scope's own files are its topic files, looked up apart, and not
    counted."""
    files: list[str] = []
    stack: list[tuple[str, int]] = [("", 0)]
    seen = 0
    unread: list[str] = []  # folders that could not be listed
    too_deep: list[str] = []  # folders deeper than any memory nests: not entered
    while stack:
        relative, depth = stack.pop()
        folders: list[str] = []
        try:
            with os.scandir(scope / relative if relative else scope) as entries:
                for entry in entries:
                    if relative:
                        seen += 1
                        if seen > SUB_FOLDER_WALK_CAP:
                            return SubFolderWalk(tuple(files), _stopped(unread, too_deep, True))
                    _walked(entry, relative, folders, files)
        except OSError:
            unread.append(relative)  # not looked in: what it holds is not known
            continue
        if folders and depth >= SUB_FOLDER_WALK_DEPTH:
            too_deep.extend(folders)
            continue
        stack.extend((name, depth + 1) for name in sorted(folders, reverse=True))
    return SubFolderWalk(tuple(files), _stopped(unread, too_deep, False))


def _stopped(unread: list[str], too_deep: list[str], capped: bool) -> tuple[str, ...]:
    """Where a walk of a scope's sub-folders did not look (:attr:`SubFolderWalk.stopped`):
    past :data:`SUB_FOLDER_WALK_CAP` entries when ``capped``, the ``too_deep`` folders it left
    unentered and the ``unread`` ones it could not list (relative POSIX paths), the first of
    each named."""
    said: list[str] = []
    if capped:
        said.append(
            f"this scope's sub-folders were not looked up past {SUB_FOLDER_WALK_CAP:,} entries"
        )
    if too_deep:
        said.append(
            f"this scope's sub-folders were not looked up deeper than {SUB_FOLDER_WALK_DEPTH} "
            f"folders ({_first_of(too_deep)} not entered)"
        )
    if unread:
        said.append(unreadable_folder(_first_of(unread)))
    return tuple(said)


def _first_of(folders: list[str]) -> str:
    """The first of ``folders`` (relative POSIX paths; ``""``: the scope's own) as a finding
    names it, and how many others there are."""
    first = f"the folder {folders[0]!r}" if folders[0] else "this scope's own folder"
    others = len(folders) - 1
    return first + (f" and {others} other folder{'s' if others > 1 else ''}" if others else "")


def unreadable_folder(folder: str) -> str:
    """How a finding ends about a link sought through a folder of the scope that the service
    may not list or search (Q-2b): ``folder`` names it (``the folder 'notes'``, with what else
    went unread) and its permissions are said to refuse it."""
    return f"the service cannot read {folder} (its owner, mode or ACL)"


def _walked(entry: os.DirEntry[str], relative: str, folders: list[str], files: list[str]) -> None:
    """Put the ``entry`` of the folder ``relative`` (``""``: the scope's own) among the
    ``folders`` to enter (a real, not hidden folder) or the ``files`` (no folder, below the
    scope's own), as relative POSIX paths; a symlinked or hidden folder is neither."""
    path = f"{relative}/{entry.name}" if relative else entry.name
    try:
        if entry.is_dir(follow_symlinks=False):
            if not entry.name.startswith("."):
                folders.append(path)
            return
        if entry.is_dir():
            return  # a symlink to a folder: never followed
    except OSError:
        return
    if relative:
        files.append(path)


def sub_folder_files_ending(
    scope: Path, targets: list[str], walk: SubFolderWalk | None = None
) -> frozenset[str]:
    """The files of the real ``scope``'s sub-folders whose path ends with one of ``targets``
    (relative POSIX paths with a folder, as for :func:`sub_folder_files`) in any case or
    Unicode form (:func:`~memory_core.scope_files.fold_name`), as their paths are spelled on
    disk: Obsidian opens ``[[b/c]]`` as ``a/b/c.md`` when no
    ``b/c.md`` is there (:mod:`memory_core.wiki_links` picks among them). Looked up among the
    files of ``walk`` (:func:`walk_sub_folders` of the ``scope``, walked now when None); each
    file found is kept only inside the scope (:func:`sub_folder_files`)."""
    endings: dict[str, set[str]] = {}
    for target in filter(_nameable, targets):
        endings.setdefault(fold_name(target.rpartition("/")[2]), set()).add(fold_name(f"/{target}"))
    if not endings:
        return frozenset()
    found: list[str] = []
    for path in (walk or walk_sub_folders(scope)).files:
        name = path.rpartition("/")[2]
        if any(fold_name(f"/{path}").endswith(end) for end in endings.get(fold_name(name), ())):
            found.append(path)
    return sub_folder_files(scope, found)


def moved_scope(scope: Path, where: str) -> NotFound | None:
    """The :class:`NotFound` (404) of a request whose real ``scope`` folder, checked at its
    start, is no longer there (renamed or moved away, removed: its ``lstat`` finds nothing),
    saying so (Q-2b: never "no topic file" of a scope still there, nor "cannot read it" sending
    an operator to a file's mode); ``where`` names the scope (``"scope 'user'"``). None when
    something is at its place (a symlink swapped in is judged by the caller, A-7) or it cannot
    be looked at. One ``lstat``."""
    try:
        os.lstat(scope)
    except FileNotFoundError:
        return NotFound(
            f"{where} is not there now: its folder was moved or removed while this request was "
            "served, so nothing of it was read or changed; if it was moved on purpose, use the "
            "scope where it is now"
        )
    except OSError:
        return None
    return None


def no_topic_file(root: Path, scope: Path, file_name: str, where: str) -> NotFound | CannotRead:
    """The :class:`NotFound` (404) for a read or delete of ``file_name`` (K-7-checked) that
    :func:`topic_entry` does not list in the real ``scope`` (``where`` names the scope in the
    detail). When an entry of that name is there but is never read (a folder, a FIFO, a
    symlink to nothing or to outside the memory root: what the listing names as a
    ``refused-entry``, T-5b), the detail says what it is rather than only that no topic file
    is there (Q-2b: an answer never claims absent what is on disk). An entry that cannot even
    be looked at (its ``lstat`` fails with an I/O error, a stale mount, no permission) is a
    :class:`CannotRead` (503) naming it, never a 404. An ``lstat`` or two.
    """
    detail = f"no topic file {file_name!r} in {where}"
    lexical = f"{os.fspath(scope)}{os.sep}{file_name}"
    try:
        os.lstat(lexical)
    except (FileNotFoundError, NotADirectoryError):
        return NotFound(detail)
    except OSError as error:  # there, or cannot tell: never "no topic file" (Q-2b)
        return CannotRead(
            f"topic file {file_name!r} in {where} cannot be looked at: the service "
            f"{cannot_read(error)}"
        )
    why = _refusal(root, Path(lexical))
    if why is not None:
        detail += (
            f": {file_name!r} there is {why}, which the service never reads or deletes "
            "(rename, replace or remove it on disk)"
        )
    return NotFound(detail)


def _is_the_index(scope: Path, lexical: Path) -> bool:
    try:
        return lexical.samefile(scope / layout.INDEX_FILE)
    except OSError:
        return False


def index_refusal(root: Path, scope: Path) -> str | None:
    """Why the real ``scope``'s ``MEMORY.md``, which is there, is never read (T-5b): ``"a
    symlink to outside the memory root"``, ``"a FIFO (named pipe), not a regular file"`` …;
    None when it is a readable regular file or is not there. One ``lstat`` when it is missing."""
    return _refusal(root, scope / layout.INDEX_FILE)


def entry_refusal(root: Path, scope: Path, name: str) -> str | None:
    """Why the entry ``name`` of the real ``scope`` is never read (T-5b: ``"a FIFO (named
    pipe), not a regular file"``, ``"a folder, not a file"``, ``"a symlink to outside the
    memory root"`` …), or None when it is a readable regular file or is not there."""
    return _refusal(root, scope / name)


def _refusal(root: Path, lexical: Path, folder: int | None = None) -> str | None:
    """Why the entry at ``lexical`` is never read, or None when it is readable (T-5b); looked
    at in ``folder``, its folder held open, when given."""
    try:
        info = _lstat(os.fspath(lexical), lexical.name, folder)
    except (FileNotFoundError, NotADirectoryError):
        return None  # vanished meanwhile
    except OSError as error:  # there as far as anyone can tell: never taken for absent (Q-2b)
        return not_looked_at(error)
    if stat.S_ISLNK(info.st_mode):
        target = real_path(lexical)
        if not is_within(root, target):
            return "a symlink to outside the memory root"
        try:
            info = target.stat()
        except (FileNotFoundError, NotADirectoryError):
            return "a symlink to nothing"
        except OSError as error:
            return "a symlink loop" if error.errno == errno.ELOOP else not_looked_at(error)
        what = _kind_of(info.st_mode)
        if what is None and named_elsewhere(target, info):
            return f"a symlink to {HARD_LINKED}"
        return None if what is None else f"a symlink to {what}"
    what = _kind_of(info.st_mode)
    if what is None and named_elsewhere(lexical, info, folder=folder):
        return HARD_LINKED
    return None if what is None else what


def not_looked_at(error: OSError) -> str:
    """What the listing says of an entry whose ``lstat`` (or its symlink's target's ``stat``)
    failed for another reason than "not there" (an I/O error, a stale network mount, no
    permission to look into its folder): ``"an entry the service cannot look at (Input/output
    error)"``. Such an entry is named among those never read (T-5b, Q-2b), never left out of
    the listing as if it were absent."""
    return f"an entry the service cannot look at ({error.strerror or type(error).__name__})"


def _kind_of(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "a device, not a regular file"


def _has_other_names(entry: os.DirEntry[str]) -> bool:
    """Whether the regular ``entry`` has more than one hard link (one ``lstat``, relative to
    the folder listed): then it is judged on every use like a symlink, so a name outside its
    folder (never read, A-7) keeps it out of every count as it is out of the listing. One that
    cannot be looked at is judged too, which finds out."""
    try:
        return entry.stat(follow_symlinks=False).st_nlink > 1
    except OSError:
        return True


def _regular_by_type(entry: os.DirEntry[str]) -> bool:
    """Whether the directory listing itself says ``entry`` is a regular file (``d_type``, no
    system call on the filesystems that report it; others fall back to one ``lstat``)."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _other_case_extension(name: str) -> str | None:
    """Why ``name`` (not ending in ``.md``) is never read when it ends in ``.MD`` / ``.mD``…"""
    if not name.casefold().endswith(".md"):
        return None
    if name.casefold() == layout.INDEX_FILE.casefold():
        return f"named like the index in another case (the index must be named {layout.INDEX_FILE})"
    return "not a topic file (a topic file's name ends in lower-case .md)"


def read_index_text(root: Path, scope: Path) -> IndexText | None:
    """Read the scope's ``MEMORY.md`` (at most 1 MiB, T-2); None when it does not exist.

    An index that is a symlink out of the root, a loop or a directory counts as absent (the
    listing names it as a refused entry, T-5b); one that is there but cannot be read (no
    permission, an I/O error) is an :class:`IndexText` whose ``error`` says why (Q-2b), and so
    is one in a legacy multi-byte encoding (Shift-JIS, GB18030, …), which would read as mojibake
    (:func:`~memory_core.decoding.not_decoded_why`).
    """
    lexical = scope / layout.INDEX_FILE
    target = real_child(scope, layout.INDEX_FILE)
    if not is_within(root, target):
        logger.warning("index %s links outside the memory root; ignored", lexical)
        return None
    try:
        raw, info = read_regular(target, READ_CAP_BYTES + 1, memory=True, real_folder=True)
        if len(raw) > READ_CAP_BYTES:
            raw, info = read_regular(
                target, READ_CAP_BYTES + INDEX_COUNT_CAP + 1, memory=True, real_folder=True
            )
    except FileNotFoundError:
        return None
    except OSError as error:
        return _index_not_read(root, scope, target, error)
    head = raw[: raw.rfind(b"\n", 0, READ_CAP_BYTES) + 1] if len(raw) > READ_CAP_BYTES else raw
    if (why := not_decoded_why(head)) is not None:
        return IndexText(text="", stat=info, error=why)  # never injected as mojibake
    if len(raw) <= READ_CAP_BYTES:
        text, problems = decode_text(raw)
        return IndexText(text=text, stat=info, problems=_encoding(problems))
    return _over_cap_index(raw, info)


def _encoding(problems: list[str]) -> tuple[str, ...]:
    """The ``encoding`` problems of an index's decoding."""
    return tuple(problem for problem in problems if problem.startswith("encoding: "))


def _index_not_read(root: Path, scope: Path, target: Path, error: OSError) -> IndexText | None:
    """What :func:`read_index_text` answers for an index whose open or read raised ``error``.

    None only when no index is to be read there: none at all, or an entry the listing names as
    never read (:func:`index_refusal`: a folder, a FIFO, a symlink loop, T-5b). An index the
    kernel refused though its name is a regular file (swapped for a symlink or another entry
    between the look and the open, a folder on its way swapped, ``ELOOP``/``EINVAL``; no
    permission; an I/O error) is an :class:`IndexText` whose ``error`` says why (Q-2b): never
    absent, so never "nothing saved yet".
    """
    refused = isinstance(error, NotRegularFileError) or error.errno == errno.ELOOP
    if refused and index_refusal(root, scope) is not None:
        return None  # a refused entry, named as such by the listing and the injection
    logger.warning("index %s cannot be read: %s", scope / layout.INDEX_FILE, error)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError:
        # A scope folder the service may not enter (another account's, mode 0700): whether
        # its index is there is unknown, so it is unreadable, never missing (Q-2b). The
        # folder's own stat stands in (its ctime moves when its mode is fixed).
        try:
            info = os.lstat(scope)
        except OSError:
            return None
        why = folder_unreadable(error.strerror or type(error).__name__)
        return IndexText(text="", stat=info, error=why)
    return IndexText(text="", stat=info, error=cannot_read(error))


_WIDE = ("encoding: UTF-16", "encoding: UTF-32")
"""The ``encoding`` problems of text read as UTF-16 or UTF-32 (its units wider than a byte)."""


def _cut_at_a_line(raw: bytes, *, exact: bool) -> tuple[str, list[str], bytes]:
    """The complete lines of an over-cap index's first :data:`READ_CAP_BYTES` as text, the
    problems of their decoding, and the lines after them (to :data:`INDEX_COUNT_CAP` more
    bytes, complete lines, unless ``exact``: all) as UTF-8 bytes for the rest's scan (T-5b).

    UTF-8 (or 8-bit) text is cut at its last ``\n`` byte. UTF-16 or UTF-32 text (with a byte
    order mark, or UTF-16 without one) is decoded first, an incomplete unit at the cap dropped,
    and cut at its last line end: a ``\n`` byte there may be half of a unit (``\n\x00``)."""
    head = raw[:READ_CAP_BYTES]
    whole_head, problems = decode_text(head, partial=True)
    if not any(problem.startswith(_WIDE) for problem in problems):
        cut = head.rfind(b"\n") + 1  # the line the cap cuts through is not read at all
        text, problems = decode_text(head[:cut])
        return text, problems, raw[cut:] if exact else raw[cut : raw.rfind(b"\n") + 1]
    text = whole_head[: whole_head.rfind("\n") + 1]
    window = raw if exact else raw[: READ_CAP_BYTES + INDEX_COUNT_CAP]
    rest = decode_text(window, partial=not exact)[0][len(text) :]
    if not exact:
        rest = rest[: rest.rfind("\n") + 1]
    return text, problems, rest.encode("utf-8", "surrogatepass")


def _over_cap_index(raw: bytes, info: os.stat_result) -> IndexText:
    """An index over the read cap (T-5b): the complete lines of its first 1 MiB, true counts.

    The rest is scanned (up to :data:`INDEX_COUNT_CAP` more bytes) to count its lines and find
    the topic files its lines link to, so no file is called unindexed falsely; past that bound
    the count is a lower bound ("at least").
    """
    exact = len(raw) <= READ_CAP_BYTES + INDEX_COUNT_CAP
    text, problems, rest = _cut_at_a_line(raw, exact=exact)
    read_lines = len(index_lines(text))
    links: dict[str, list[int]] = {}
    number, start = read_lines + 1, 0  # the number of the rest's line at ``start``
    mark = _LINK_MARK.search(rest)
    while mark is not None:  # only lines that may link are decoded and parsed
        line_start = rest.rfind(b"\n", 0, mark.start()) + 1
        end = rest.find(b"\n", mark.start())
        end = len(rest) if end == -1 else end
        number += rest.count(b"\n", start, line_start)
        start = line_start
        line = rest[line_start:end]
        cut_line = line[:LINK_LINE_CAP]
        head_text = decode_text(cut_line, partial=len(line) > LINK_LINE_CAP, name_legacy=False)[0]
        for target in topic_link_targets(head_text):
            links.setdefault(unicodedata.normalize("NFC", target), []).append(number)
        mark = _LINK_MARK.search(rest, end + 1)
    rest_count = rest.count(b"\n") + (1 if rest and not rest.endswith(b"\n") else 0)
    partial = IndexRead(
        size=info.st_size,
        lines_total=read_lines + rest_count + (0 if exact else 1),
        exact=exact,
        links=links,
    )
    return IndexText(text=text, stat=info, partial=partial, problems=_encoding(problems))


_LINK_MARK = re.compile(rb"[\[`=]")
"""A byte every form of link or entry of an index line needs (T-4): ``[`` (a Markdown,
reference or wiki link), a backquote (the entry form) or ``=`` (an HTML link's ``href=``), the
same byte in every encoding an index is read in. A line past the read cap with none is only
counted, never decoded and parsed: an index of millions of plain lines past its cap (12 MB of
``- x``) took a minute a request, so every route that reads it (the overview, a Session start,
one topic file) outlasted its client."""


MARKER_IN_THE_WAY_FIX = (
    "not read: move it away, and the next Session start in its Workspace writes the marker "
    "again (K-5)"
)
"""What to do about a folder, FIFO or socket where a scope's ``.workspace`` marker should be."""


def read_marker(root: Path, scope: Path, key: str) -> Marker:
    """Read and judge a Workspace scope's ``.workspace`` marker (K-5, K-6a).

    The marker is UTF-8, or the encoding a byte order mark it starts with names (a marker
    edited by hand in Notepad or PowerShell), the mark no part of the path. Problems reported:
    missing, unreadable, not UTF-8 (nor the text its mark names), empty, longer than a
    Workspace path (more than :data:`~memory_core.rules.WORKSPACE_PATH_MAX_BYTES`, which no
    Session start writes: it is neither answered nor quoted), more than one line, not an
    absolute path, and a path whose key is not ``key`` (the marker names another Workspace; it
    is kept as it is, never rewritten). ``orphaned`` and ``not_visible`` are left false: whether
    the named Workspace is there is asked where it is shown (:meth:`ScopeFiles.marker
    <memory_api.store.scope_files.ScopeFiles.marker>`, :func:`workspace_presence`), never by a
    read for the path alone (a group search, a Session start's check of its marker).
    """
    target = real_child(scope, layout.MARKER_FILE)
    if not is_within(root, target):
        return Marker(None, ["marker: links outside the memory root; not read"])
    try:
        raw, _ = read_regular(target, MARKER_READ_CAP + 1, memory=True, real_folder=True)
    except FileNotFoundError:
        return Marker(None, ["marker: missing (.workspace not found)"])
    except NamedElsewhereError:
        return Marker(None, [f"marker: {HARD_LINKED}; not read"])
    except NotRegularFileError as error:
        logger.warning("marker %s is no regular file: %s", target, error)
        what = _refusal(root, scope / layout.MARKER_FILE) or "not a regular file"
        return Marker(None, [f"marker: {layout.MARKER_FILE} is {what}; {MARKER_IN_THE_WAY_FIX}"])
    except OSError as error:
        logger.warning("marker %s cannot be read: %s", target, error)
        why = error.strerror or type(error).__name__
        return Marker(None, [f"marker: cannot be read ({why}): {READ_ACCESS_FIX}"])
    try:  # a hand-edited marker may start with a byte order mark (Notepad, PowerShell)
        text = decode_marked(raw[:MARKER_READ_CAP])
    except UnicodeDecodeError as error:
        marked = marked_codec(raw) is not None
        return Marker(None, [f"marker: {not_text(error)}" if marked else "marker: not valid UTF-8"])
    lines = line_texts(text)  # a path may hold U+2028, \f…: only LF, CRLF, CR end a line
    path = lines[0].strip() if lines else ""
    problems: list[str] = []
    if not path:
        return Marker(None, ["marker: empty"])
    if "\x00" in path:
        return Marker(None, ["marker: holds a NUL character; not a path"])
    if (length := len(path.encode("utf-8"))) > WORKSPACE_PATH_MAX_BYTES:  # never quoted: 64 KiB
        return Marker(
            None,
            [
                f"marker: its line is {length} bytes, longer than a Workspace path (at most "
                f"{WORKSPACE_PATH_MAX_BYTES} bytes); not a path"
            ],
        )
    if len([line for line in lines if line.strip()]) > 1:
        problems.append("marker: holds more than one line; the first is used")
    if not PurePath(path).is_absolute():
        return Marker(None, [*problems, f"marker: {path!r} is not an absolute path"])
    named_key = key_for_real_path(path)
    if named_key != key:
        problems.append(
            f"marker: names {path!r}, whose key is {named_key!r}, not this scope's; kept as it is"
        )
    return Marker(path, problems)
