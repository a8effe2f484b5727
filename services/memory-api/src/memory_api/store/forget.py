"""Forget a Workspace scope (K-5, A-3): take an empty Workspace scope off the memory root.

A Session start in a folder (a README example run from a checkout) makes that folder a Workspace
scope for good (K-5); this takes it off the overview again. Only a scope that holds **nothing
of the agent's** is forgotten: its ``.workspace`` marker, the service's side files beside it
(:data:`~memory_core.layout.SIDE_FILES`) and a ``MEMORY.md`` with no entries (blank lines and
headings only, :func:`index_keeps`) are all it may hold. One with a topic file, an index
line, a sub-folder or any other entry is refused (409) and keeps every byte: its files are
deleted first, one by one (A-6), each delete a version the scope's history keeps and a
restore takes back (V-2). So forgetting loses nothing, and the
scope's history repository (beside the memory tree, V-1) is kept: a Session started in that
folder again makes a new scope under the same key (K-1, K-5), whose history still lists the
files deleted before (``…/deleted``) and restores them.

Races. The caller holds the scope's ``index`` lock (the one every API delete, restore, record
and push of the scope takes), so none of those interleaves. A Session start and an agent's own
writes take no lock, so the scope folder is first renamed, in one step, to a hidden name in the
memory root (names starting with ``.`` are no scope, :mod:`~memory_api.store.not_scopes`): from
then on a Session start makes a fresh scope, never a half-removed one. What the folder holds is
looked at again after the rename; a file written into it meanwhile sends the folder back whole
under its key, or into the scope a Session start made there meanwhile (never replacing a name),
and the forget is refused (409). The index is renamed aside and judged again from the bytes
it then holds (an agent holding it open across the rename may have appended a line). The
marker is removed last, right before the folder: a folder that is not empty then gets its
marker back and is returned the same way. Everything is done in the folders held open
(``dir_fd``, ``O_NOFOLLOW``), every read capped. A folder a forget killed half-way left is
dealt with by :func:`recover_leftover`.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import secrets
from pathlib import Path

from memory_core import layout
from memory_core.byte_order import decode_marked
from memory_core.errors import NotRegularFileError
from memory_core.index import entry_targets, index_lines, link_targets
from memory_core.keys import USER_SCOPE
from memory_core.regular_files import read_regular_file
from memory_core.said_once import first_time

from memory_api.errors import Conflict
from memory_api.store.containment import walked_folder
from memory_api.store.held_writes import taken
from memory_api.store.not_scopes import FORGETTING_PREFIX
from memory_api.store.scopes import MARKER_READ_CAP, read_marker

__all__ = [
    "FORGETTING_PREFIX",
    "INDEX_LINE_HELD",
    "INDEX_UNJUDGED",
    "forget_scope",
    "not_forgettable",
    "recover_leftover",
]

logger = logging.getLogger(__name__)


INDEX_LINE_HELD = f"{layout.INDEX_FILE} line "
"""How :func:`not_forgettable` names a line of the index that keeps the scope."""

INDEX_UNJUDGED = f"{layout.INDEX_FILE} (not judged: no regular file, over 1 MiB or not text)"
"""How :func:`not_forgettable` names an index it could not judge (it keeps the scope)."""

INDEX_JUDGED_BYTES = 1024 * 1024
"""An index longer than this (1 MiB) is not read to judge it: it keeps the scope."""

_SERVICE_FILES = frozenset({layout.MARKER_FILE, *layout.SIDE_FILES})
_NAMED = 5
"""How many of a refused scope's entries the 409's detail names."""
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_ASIDE = f"{FORGETTING_PREFIX}{layout.INDEX_FILE}"
"""The name the index has, in the renamed folder, while it is judged a last time."""


def not_forgettable(scope: Path) -> list[str]:
    """What in the scope folder ``scope`` keeps it from being forgotten, sorted: the names of
    its entries but the marker, the side files and an index with no entries, and for an index
    that keeps it ``"MEMORY.md line N: '…'"`` (:func:`index_keeps`). ``[]``: the scope holds
    nothing of the agent's. Blocking; ``OSError`` as ``os.scandir``."""
    held = []
    with os.scandir(scope) as entries:
        for entry in entries:
            if entry.name in _SERVICE_FILES and entry.is_file(follow_symlinks=False):
                continue
            if entry.name == layout.INDEX_FILE:
                kept = _index_file_keeps(scope / entry.name)
                if kept is not None:
                    held.append(kept)
                continue
            held.append(entry.name)
    return sorted(held)


def _index_file_keeps(index: Path) -> str | None:
    """:func:`index_keeps` of the index file ``index`` (no symlink followed); an index that
    is no regular file, larger than :data:`INDEX_JUDGED_BYTES` or not read keeps it too."""
    try:
        raw = read_regular_file(index, INDEX_JUDGED_BYTES, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except (OSError, NotRegularFileError):
        return INDEX_UNJUDGED
    return index_keeps(raw)


def index_keeps(raw: bytes) -> str | None:
    """Whether the index bytes ``raw`` keep their scope (K-5): None for an index with no
    entries, whose every line (:func:`~memory_core.index.index_lines`, after a byte order
    mark) is blank (white space, no-break spaces included) or a Markdown heading (``#`` to
    ``######``) linking nothing (:func:`~memory_core.index.link_targets`,
    :func:`~memory_core.index.entry_targets`): what deleting a scope's last topic file
    leaves. Else ``"MEMORY.md line N: '…'"``, its first other line (an entry, or prose a
    person wrote), shortened to 80 characters; :data:`INDEX_UNJUDGED` for one not text.
    """
    try:
        text = decode_marked(raw)
    except UnicodeDecodeError:
        return INDEX_UNJUDGED
    for number, line in enumerate(index_lines(text), start=1):
        bare = line.strip()
        if not bare:
            continue
        if _HEADING.match(bare) and not link_targets(line) and not entry_targets(line):
            continue
        shown = bare if len(bare) <= 80 else bare[:79] + "…"
        return f"{INDEX_LINE_HELD}{number}: {shown!r}"
    return None


def _in_index(item: str) -> bool:
    return item.startswith(INDEX_LINE_HELD) or item == INDEX_UNJUDGED


def _refusal(agent_id: str, key: str, held: list[str]) -> Conflict:
    index = [item for item in held if _in_index(item)]
    files = [repr(item) for item in held if not _in_index(item)]
    if not files:
        return Conflict(
            f"scope {key!r} of agent {agent_id!r} keeps its index ({index[0]}): only headings "
            f"and blank lines may be left in {layout.INDEX_FILE}; remove the rest there (or "
            "delete the topic file a line links to), then forget it"
        )
    shown = ", ".join([*files[:_NAMED], *index])
    more = f" and {len(files) - _NAMED} more" if len(files) > _NAMED else ""
    return Conflict(
        f"scope {key!r} of agent {agent_id!r} is not empty ({shown}{more}): delete its files "
        "first (each delete is kept in its history and can be restored), then forget it"
    )


def forget_scope(
    root: Path, scope: Path, agent_id: str, key: str, *, dry_run: bool = False
) -> str | None:
    """Forget the empty Workspace scope ``key`` whose real folder is ``scope``, directly under
    the real memory ``root``; the caller holds the scope's ``index`` lock. Returns the
    Workspace path its marker names, as the overview's ``workspacePath``
    (:func:`~memory_api.store.scopes.read_marker`; None: a marker that names no path).
    ``dry_run``: every check is made, nothing is changed.

    Raises :class:`~memory_api.errors.Conflict` (409, nothing changed) for the user scope
    (K-6), for a key that is a symlink to another scope, and for a scope holding anything of
    the agent's (:func:`not_forgettable`) before or during the forget. Blocking."""
    if key == USER_SCOPE:
        raise Conflict(
            f"the user scope of agent {agent_id!r} cannot be forgotten (K-6): delete its files"
        )
    if scope.name != key or scope.parent != root:
        raise Conflict(f"scope {key!r} is a link to scope {scope.name!r}; forget that one")
    held = not_forgettable(scope)
    if held:
        raise _refusal(agent_id, key, held)
    if dry_run:
        return read_marker(root, scope, key).path
    hidden = f"{FORGETTING_PREFIX}{key}-{secrets.token_hex(4)}"
    with walked_folder(root, root) as fd:
        os.rename(key, hidden, src_dir_fd=fd, dst_dir_fd=fd)
        moved = root / hidden
        workspace = read_marker(root, moved, key).path
        held = not_forgettable(moved)
        if not held:
            held = _emptied(root, fd, hidden)
        if held:
            _put_back(root, fd, hidden, key)
            raise _refusal(agent_id, key, held)
        held = _made_again(root, fd, key, workspace)
    if held:
        raise _refusal(agent_id, key, held)
    return workspace


def _made_again(root: Path, fd: int, key: str, workspace: str | None) -> list[str]:
    """What the folder ``key`` holds when an agent's write made it again during the forget
    (``mkdir -p`` and a file: the same Workspace, its key the path's), its marker written
    back first when it has none and the old one named ``workspace``; ``[]`` when there is no
    such folder, or only a Session start's (a marker and nothing of the agent's)."""
    try:
        made = _folder_at(key, fd)
    except OSError:  # none there (or no folder: the overview names it)
        return []
    try:
        if workspace is not None:
            _write_new(made, layout.MARKER_FILE, (workspace + "\n").encode())
    finally:
        os.close(made)
    held = not_forgettable(root / key)
    if held:
        logger.warning("scope %s: a write made it again while it was forgotten; kept", key)
    return held


def _folder_at(name: str, folder: int) -> int:
    """A descriptor of the folder ``name`` in the folder held as ``folder``, no symlink
    followed (``OSError`` ``ELOOP``/``ENOTDIR`` for one); the caller closes it."""
    return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)


def _read_at(folder: int, name: str, cap: int) -> bytes | None:
    """The bytes of the regular file ``name`` in the folder ``folder`` (no symlink followed),
    None when it is not there or is no regular file; ``OSError`` ``EFBIG`` past ``cap``."""
    try:
        return read_regular_file(Path(name), cap, follow_symlinks=False, dir_fd=folder)
    except (FileNotFoundError, NotRegularFileError):
        return None
    except OSError as error:  # a symlink (ELOOP) is no file of the scope's
        if error.errno == errno.ELOOP:
            return None
        raise


def _write_new(folder: int, name: str, raw: bytes) -> None:
    """Write ``raw`` as the new file ``name`` in ``folder``; one there already is kept."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    with contextlib.suppress(FileExistsError):
        fd = os.open(name, flags, 0o644, dir_fd=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)


def _emptied(root: Path, root_fd: int, hidden: str) -> list[str]:
    """Remove the service's files of the renamed scope folder ``hidden`` (in the memory root
    held as ``root_fd``), the marker last, then the folder; ``[]`` when it is gone.

    The index is first renamed aside and judged a last time from the bytes it then holds: a
    line written into it since the look before (by an agent holding it open across the
    rename) keeps the scope, the index renamed back. A file written into the folder
    meanwhile keeps it: the marker and index are written back and what it holds returned."""
    fd = _folder_at(hidden, root_fd)
    try:
        try:
            saved = _read_at(fd, layout.MARKER_FILE, MARKER_READ_CAP)
        except OSError:  # past the cap: names no path, never written back
            saved = None
        index = _index_aside(fd)
        if isinstance(index, str):
            return [index]
        for name in (_ASIDE, *layout.SIDE_FILES, layout.MARKER_FILE):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=fd)
        try:
            os.rmdir(hidden, dir_fd=root_fd)
        except OSError as error:
            if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
            if saved is not None:
                _write_new(fd, layout.MARKER_FILE, saved)
            if index is not None:
                _write_new(fd, layout.INDEX_FILE, index)
            return not_forgettable(root / hidden) or [hidden]
        return []
    finally:
        os.close(fd)


def _index_aside(fd: int) -> bytes | str | None:
    """Rename the index of the folder ``fd`` aside and judge what it holds now: its bytes
    when it has no entries (:func:`index_keeps`; None: no index), else what keeps the scope,
    the index renamed back first."""
    try:
        os.rename(layout.INDEX_FILE, _ASIDE, src_dir_fd=fd, dst_dir_fd=fd)
    except FileNotFoundError:
        return None
    try:
        raw = _read_at(fd, _ASIDE, INDEX_JUDGED_BYTES)
        kept = INDEX_UNJUDGED if raw is None else index_keeps(raw)
    except OSError:
        kept = INDEX_UNJUDGED
    if kept is None:
        return raw
    if not taken(fd, layout.INDEX_FILE):  # else kept under its aside name, and named
        os.rename(_ASIDE, layout.INDEX_FILE, src_dir_fd=fd, dst_dir_fd=fd)
    return kept


def recover_leftover(root: Path, hidden: str, key: str) -> bool:
    """Deal with the folder ``hidden`` a forget of scope ``key`` left in the real memory
    ``root`` (killed half-way, or names taken when it put the folder back); the caller holds
    the scope's ``index`` lock, so no forget of it is under way. One holding nothing of the
    agent's is removed (the forget finished); else it goes back under ``key``, or into the
    scope made there since, entry by entry where the name is free (:func:`_put_back`).
    Returns whether it is gone; one that still holds entries is logged (WARNING). Blocking;
    ``OSError`` when the root cannot be changed."""
    with walked_folder(root, root) as fd:
        if not taken(fd, hidden):
            return True
        moved = _folder_at(hidden, fd)
        try:
            if taken(moved, _ASIDE) and not taken(moved, layout.INDEX_FILE):
                os.rename(_ASIDE, layout.INDEX_FILE, src_dir_fd=moved, dst_dir_fd=moved)
        finally:
            os.close(moved)
        if not not_forgettable(root / hidden) and not _emptied(root, fd, hidden):
            logger.warning("scope %s: the forget stopped half-way; finished", key)
            return True
        if not _stuck(fd, hidden, key):
            _put_back(root, fd, hidden, key)
        if taken(fd, hidden):
            if first_time((__name__, f"{root}/{hidden}")):  # once, not at every overview
                logger.warning(
                    "scope %s: %s holds entries its scope also holds: move them", key, hidden
                )
            return False
        logger.warning("scope %s: the forget stopped half-way; the scope was put back", key)
        return True


def _stuck(fd: int, hidden: str, key: str) -> bool:
    """Whether every entry of the folder ``hidden`` has a name the folder ``key`` holds
    too (in the memory root held as ``fd``): nothing of it can move."""
    try:
        moved = _folder_at(hidden, fd)
    except OSError:
        return False
    try:
        fresh = _folder_at(key, fd)
    except OSError:
        os.close(moved)
        return False
    try:
        names = os.listdir(moved)  # noqa: PTH208 (a held folder: no path)
        return bool(names) and all(taken(fresh, name) for name in names)
    finally:
        os.close(fresh)
        os.close(moved)


def _put_back(root: Path, fd: int, hidden: str, key: str) -> None:
    """Rename the hidden folder back to ``key`` (in the memory root held as ``fd``). Where a
    Session start made ``key`` anew meanwhile, what the hidden folder holds moves into that
    one instead, never replacing a name there (its own marker names the same Workspace: the
    key is the path's); the two folders are held open, no symlink followed."""
    try:
        os.rename(hidden, key, src_dir_fd=fd, dst_dir_fd=fd)
        return
    except OSError as error:
        if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
    folder = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    moved = os.open(hidden, folder, dir_fd=fd)
    try:
        fresh = os.open(key, folder, dir_fd=fd)
        try:
            for name in os.listdir(moved):  # noqa: PTH208 (a held folder: no path)
                if not taken(fresh, name):
                    os.rename(name, name, src_dir_fd=moved, dst_dir_fd=fresh)
                elif name in _SERVICE_FILES:
                    os.unlink(name, dir_fd=moved)
        finally:
            os.close(fresh)
    finally:
        os.close(moved)
    try:
        os.rmdir(hidden, dir_fd=fd)
    except OSError:  # a name taken in both: kept hidden, and said
        logger.error("scope %s: entries kept in %s (their names were taken)", key, hidden)
    logger.warning("scope %s: a Session start raced its forget; the scope was kept", key)
