"""Forget a Workspace scope (K-5, A-3): take an empty Workspace scope off the memory root.

A Session start in a folder (a README example run from a checkout) makes that folder a Workspace
scope for good (K-5); this takes it off the overview again. Only a scope that holds **nothing
of the agent's** is forgotten: its ``.workspace`` marker, the service's side files beside it
(:data:`~memory_core.layout.SIDE_FILES`) and a blank ``MEMORY.md`` are all it may hold. One
with a topic file, an index with a line, a sub-folder or any other entry is refused (409) and
keeps every byte: its files are deleted first, one by one (A-6), each delete a version the
scope's history keeps and a restore takes back (V-2). So forgetting loses nothing, and the
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
and the forget is refused (409). The marker is removed last, right before the folder:
a folder that is not empty then gets its marker back and is returned the same way.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
from pathlib import Path

from memory_core import layout
from memory_core.keys import USER_SCOPE

from memory_api.errors import Conflict
from memory_api.store.containment import walked_folder

__all__ = ["FORGETTING_PREFIX", "forget_scope", "not_forgettable"]

logger = logging.getLogger(__name__)

FORGETTING_PREFIX = ".forgetting-"
"""The hidden name a scope folder has while it is being forgotten (never listed)."""

_SERVICE_FILES = frozenset({layout.MARKER_FILE, *layout.SIDE_FILES})
_NAMED = 5
"""How many of a refused scope's entries the 409's detail names."""


def not_forgettable(scope: Path) -> list[str]:
    """The entries of the scope folder ``scope`` that keep it from being forgotten, sorted:
    everything but the marker, the side files and a ``MEMORY.md`` holding only white space.
    ``[]``: the scope holds nothing of the agent's. Blocking; ``OSError`` as ``os.scandir``."""
    held = []
    with os.scandir(scope) as entries:
        for entry in entries:
            if entry.name in _SERVICE_FILES and entry.is_file(follow_symlinks=False):
                continue
            if entry.name == layout.INDEX_FILE and _blank_file(entry):
                continue
            held.append(entry.name)
    return sorted(held)


def _blank_file(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a regular file of at most 4 KiB holding only white space."""
    if not entry.is_file(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_size > 4096:
        return False
    try:
        return not Path(entry.path).read_bytes().strip()  # a regular file (lstat above)
    except OSError:
        return False


def _refusal(agent_id: str, key: str, held: list[str]) -> Conflict:
    shown = ", ".join(repr(name) for name in held[:_NAMED])
    more = f" and {len(held) - _NAMED} more" if len(held) > _NAMED else ""
    return Conflict(
        f"scope {key!r} of agent {agent_id!r} is not empty ({shown}{more}): delete its files "
        "first (each delete is kept in its history and can be restored), then forget it"
    )


def forget_scope(
    root: Path, scope: Path, agent_id: str, key: str, *, dry_run: bool = False
) -> str | None:
    """Forget the empty Workspace scope ``key`` whose real folder is ``scope``, directly under
    the real memory ``root``; the caller holds the scope's ``index`` lock. Returns the
    Workspace path its marker named (None: no readable marker). ``dry_run``: every check is
    made, nothing is changed.

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
        return _marker_path(scope)
    hidden = f"{FORGETTING_PREFIX}{key}-{secrets.token_hex(4)}"
    with walked_folder(root, root) as fd:
        os.rename(key, hidden, src_dir_fd=fd, dst_dir_fd=fd)
        moved = root / hidden
        workspace = _marker_path(moved)
        held = not_forgettable(moved)
        if not held:
            held = _emptied(moved)
        if held:
            _put_back(root, fd, hidden, key)
            raise _refusal(agent_id, key, held)
    return workspace


def _marker_path(scope: Path) -> str | None:
    try:
        text = (scope / layout.MARKER_FILE).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text.rstrip("\n") or None


def _emptied(moved: Path) -> list[str]:
    """Remove the service's files of the renamed scope folder ``moved``, the marker last, then
    the folder; ``[]`` when it is gone. A file written into it meanwhile keeps it: the marker
    is written back and what it holds is returned."""
    marker = moved / layout.MARKER_FILE
    saved = marker.read_bytes() if marker.is_file() else None
    for name in (layout.INDEX_FILE, *layout.SIDE_FILES, layout.MARKER_FILE):
        with contextlib.suppress(FileNotFoundError):
            (moved / name).unlink()
    try:
        moved.rmdir()
    except OSError as error:
        if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
        if saved is not None:
            marker.write_bytes(saved)
        return not_forgettable(moved)
    return []


def _put_back(root: Path, fd: int, hidden: str, key: str) -> None:
    """Rename the hidden folder back to ``key``. Where a Session start made ``key`` anew
    meanwhile, what the hidden folder holds moves into that one instead, never replacing a
    name there (its own marker names the same Workspace: the key is the path's)."""
    try:
        os.rename(hidden, key, src_dir_fd=fd, dst_dir_fd=fd)
        return
    except OSError as error:
        if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
    moved, fresh = root / hidden, root / key
    for entry in moved.iterdir():
        if not os.path.lexists(fresh / entry.name):
            entry.rename(fresh / entry.name)
        elif entry.name in _SERVICE_FILES:
            entry.unlink()
    try:
        moved.rmdir()
    except OSError:  # a name taken in both: kept hidden, and said
        logger.error("scope %s: entries kept in %s (their names were taken)", key, hidden)
    logger.warning("scope %s: a Session start raced its forget; the scope was kept", key)
