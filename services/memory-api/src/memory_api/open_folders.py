"""Folders of a data dir other accounts may enter (A-10, I-8): the live notes' way.

The service makes the data dir, ``agents/``, each agent's folder, its ``agent_state/``, the
memory root and every scope folder owner-only (:func:`memory_core.atomic.data_folder_mode`),
so a note the agent writes ``0644`` with its own tools is out of other accounts' reach. A data
dir made before that rule (or by hand) keeps ``0755`` folders: they are not changed behind the
operator's back (a folder the service did not make may be open on purpose), but named, with the
``chmod`` to run, in the service's start log and by ``memory-api token create``.
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Iterator
from pathlib import Path

from memory_core.atomic import data_folder_mode
from memory_core.layout import AGENTS_DIR

__all__ = ["open_folders", "open_folders_warning"]

MEMORY_WAY = ("agent_state", "memory")
"""The folders below an agent's folder on the way to its scope folders."""


def open_folders(data_dir: Path) -> list[tuple[Path, int]]:
    """Each folder on the way to a note that every other account may enter or list (any
    "other" permission bit), with its mode bits, data dir first. A group's bits are its own
    choice (``fsGroup``) and not counted. Never raises: a folder that cannot be looked at is
    skipped (its reading says why elsewhere); symlinks are not followed."""
    return [(path, mode) for path, mode in _way(data_dir) if mode & 0o007]


def open_folders_warning(data_dir: Path) -> str | None:
    """What to tell the operator of :func:`open_folders`, or None when there is none:
    each folder with its mode, and the ``chmod`` to run (``o-rwx`` when this process's umask
    lets a group share the data dir on purpose, else ``go-rwx``)."""
    found = open_folders(data_dir)
    if not found:
        return None
    named = ", ".join(f"{shlex.quote(str(path))} (mode {mode:o})" for path, mode in found)
    who = "o-rwx" if data_folder_mode() & 0o070 else "go-rwx"
    paths = " ".join(shlex.quote(str(path)) for path, _ in found)
    return (
        f"folders of the data dir are open to every account on this machine, which can read "
        f"the memories below them whatever token the service asks for: {named}; "
        f"make them owner-only: chmod {who} {paths}"
    )


def _way(data_dir: Path) -> Iterator[tuple[Path, int]]:
    """The data dir, ``agents/``, each agent's folder, its ``agent_state/``, memory root and
    scope folders that are real folders (never through a symlink), with their mode bits."""
    top = [data_dir, data_dir / AGENTS_DIR]
    for path in top:
        mode = _folder_mode(path)
        if mode is None:
            return
        yield path, mode
    for agent in _subfolders(data_dir / AGENTS_DIR):
        way = [agent, agent.joinpath(MEMORY_WAY[0]), agent.joinpath(*MEMORY_WAY)]
        for path in way:
            mode = _folder_mode(path)
            if mode is None:
                break
            yield path, mode
        else:
            for scope in _subfolders(way[-1]):
                mode = _folder_mode(scope)
                if mode is not None:
                    yield scope, mode


def _folder_mode(path: Path) -> int | None:
    """``path``'s permission bits when it is a real folder (lstat), else None."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    return stat.S_IMODE(mode) if stat.S_ISDIR(mode) else None


def _subfolders(folder: Path) -> list[Path]:
    """The entries of ``folder`` (sorted), none when it cannot be listed."""
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []
