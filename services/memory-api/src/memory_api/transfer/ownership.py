"""Whose memory a coding agent's folder holds, before it is imported for a Workspace (P-5).

Claude Code names a project's folder by replacing every character outside ``[a-zA-Z0-9]`` of
the project's path with ``-`` (:func:`memory_api.transfer.claude_code.sanitize_path`), so
``…/my_proj`` and ``…/my-proj`` (or ``…/a/b`` and ``…/a-b``) share one folder: finding the
folder by name alone may find another project's memory. Before an import, the folder is
checked against the Workspace (:func:`check_claude_code_folder`):

1. its transcripts (``<project folder>/*.jsonl``) record the working directory of each
   Session (``cwd``); when one of them is the Workspace's project base (its git project root,
   else the Workspace), a folder inside it, or a folder of another working tree of the same
   repository (a linked worktree, whose Sessions Claude Code keeps in the main working tree's
   folder too), the folder is the Workspace's: it is imported (when they name other
   directories too, the report says the folder is shared);
2. when they name only other directories, the import stops (:class:`WrongProject`) naming
   them;
3. with no transcript naming any directory, the import stops when another existing directory
   maps to the same folder name (:func:`same_name_directories`), naming it; else the folder
   can only be the Workspace's.

The way out is always the same: import the folder by its path (``memory import FOLDER
--workspace PATH``), which states that the user knows whose it is.

Blocking (reads the first lines of each transcript, lists directories along the folder's
name).
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from memory_core.shown_names import shown_name

from memory_api.store.containment import NotRegularFileError, read_regular
from memory_api.transfer.claude_code import (
    MAX_SANITIZED_LENGTH,
    git_project_root,
    sanitize_path,
)
from memory_api.transfer.sources import SourceError, json_value

__all__ = [
    "Ownership",
    "WrongProject",
    "check_claude_code_folder",
    "import_command",
    "place_by_directories",
    "project_base",
    "same_name_directories",
    "same_project",
    "transcript_directories",
    "within",
]

TRANSCRIPT_READ_CAP = 4 * 1024 * 1024
"""At most this many bytes of a transcript are read looking for its first ``cwd``."""
MAX_LISTINGS = 4000
"""The walk for other directories of the same folder name lists at most this many folders;
past that it gives up (and claims nothing)."""


class WrongProject(SourceError):
    """The folder found for the Workspace holds another project's memory (exit 1)."""


def project_base(workspace: Path) -> Path:
    """The folder a coding agent keys the Workspace's memory by: its git project root (the
    main working tree of a linked worktree), else the Workspace itself (a real path)."""
    return git_project_root(workspace) or workspace


def _real(path: str) -> Path:
    """``path`` resolved the way the kernel will (it need not exist any more)."""
    return Path(os.path.realpath(path))


def within(path: Path, base: Path) -> bool:
    """Whether ``path`` is ``base`` or a folder inside it (both real paths)."""
    return path == base or base in path.parents


def same_project(path: Path, base: Path) -> bool:
    """Whether the directory ``path`` (a real path a transcript recorded) belongs to the project
    whose base is ``base``: it is ``base`` or inside it, or it lies in another working tree of
    the same repository (a linked worktree: its git project root is ``base``). A directory that
    is gone can only be judged by its path."""
    if within(path, base):
        return True
    root = git_project_root(path) if path.is_dir() else None
    return root == base


def place_by_directories(directories: list[Path], workspace: Path | None) -> Path | None:
    """Where a memory recorded for ``directories`` (real paths) belongs, for an import into
    ``workspace`` (a real path, or None for the user scope alone): ``workspace`` when one of
    them is the Workspace's project base or inside it; None when it names no directory (it
    holds for every Workspace: the user scope); else the first other directory (it belongs to
    that one, and is not imported here)."""
    if not directories:
        return None
    if workspace is not None:
        base = project_base(workspace)
        if any(within(path, base) for path in directories):
            return workspace
    return sorted(directories)[0]


def _first_cwd(transcript: Path) -> str | None:
    """The first ``cwd`` a Claude Code transcript records in its first
    :data:`TRANSCRIPT_READ_CAP` bytes, or None. A FIFO or device is never read (the import
    blocked on one, or read ``/dev/zero`` as one endless line)."""
    try:
        data, _ = read_regular(transcript, TRANSCRIPT_READ_CAP + 1, follow_symlinks=True)
    except (OSError, NotRegularFileError):
        return None
    if len(data) > TRANSCRIPT_READ_CAP:  # the line the cap cuts is not read
        data = data[: data.rfind(b"\n", 0, TRANSCRIPT_READ_CAP) + 1]
    for raw in data.split(b"\n"):
        if b'"cwd"' not in raw:
            continue
        try:
            record = json_value(raw)
        except ValueError:
            continue
        cwd = record.get("cwd") if isinstance(record, dict) else None
        if isinstance(cwd, str) and cwd.startswith("/"):
            return cwd
    return None


def transcript_directories(project_folder: Path) -> set[Path]:
    """The working directories (real paths) that the transcripts of a Claude Code project
    folder record, one per transcript (its first ``cwd``); empty when there are none."""
    try:
        transcripts = sorted(project_folder.glob("*.jsonl"))
    except OSError:
        return set()
    found = (_first_cwd(path) for path in transcripts if path.is_file())
    return {_real(cwd) for cwd in found if cwd is not None}


def same_name_directories(name: str, base: Path) -> list[Path]:
    """Existing directories other than ``base`` that Claude Code would give the folder
    ``name``: each is its own project base (a git project root, or outside any repository)
    and its path sanitizes to ``name``.

    Found by walking from ``/`` along the name: a folder's entry can only lead there when its
    sanitized name continues the name. Names cut to 200 characters carry a hash of the whole
    path and are not walked (another path would need the same hash). Symlinks are not followed
    (Claude Code names the real path).
    """
    if len(name) > MAX_SANITIZED_LENGTH or not name.startswith("-"):
        return []
    found: list[Path] = []
    pending: list[tuple[Path, int]] = [(Path("/"), 0)]
    listings = 0
    while pending:
        folder, position = pending.pop()
        if position == len(name):
            if folder != base and project_base(folder) == folder:
                found.append(folder)
            continue
        if name[position] != "-" or listings >= MAX_LISTINGS:
            continue
        listings += 1
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            part = sanitize_path(entry.name)
            if name.startswith(part, position + 1) and _is_real_dir(entry):
                pending.append((Path(entry.path), position + 1 + len(part)))
    return sorted(found)


def _is_real_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Ownership:
    """The folder is the Workspace's; ``shared_with`` are other directories its transcripts
    name too (the report says so)."""

    shared_with: tuple[Path, ...] = ()


def _listed(paths: list[Path] | set[Path]) -> str:
    """The paths as a person can read them (a name that is not UTF-8 escaped, T-5b)."""
    return ", ".join(shown_name(str(path)) for path in sorted(paths))


def check_claude_code_folder(memory_folder: Path, workspace: Path, anyway: str) -> Ownership:
    """Check that Claude Code's ``memory_folder`` (``<config>/projects/<name>/memory``) holds
    the memory of ``workspace`` (a real path); see the module docstring.

    ``anyway`` is the command that imports the folder by its path. Raises
    :class:`WrongProject` (naming the other directories and ``anyway``) when it does not.
    """
    project_folder = memory_folder.parent
    base = project_base(workspace)
    named = transcript_directories(project_folder)
    mine = {path for path in named if same_project(path, base)}
    if mine:
        return Ownership(tuple(sorted(named - mine)))
    how = f"To import it anyway, name the folder: {anyway}"
    if named:
        raise WrongProject(
            f"Claude Code's folder {project_folder} is not the memory of "
            f"{_listed([workspace])}: its transcripts name only {_listed(named)}. Claude Code "
            "gives one folder to every path that differs only in characters outside "
            "[a-zA-Z0-9]. " + how
        )
    others = same_name_directories(project_folder.name, base)
    if others:
        raise WrongProject(
            f"Claude Code's folder {project_folder} may be the memory of {_listed(others)}, "
            f"not of {_listed([workspace])}: that directory maps to the same folder name, and no "
            "transcript there names the Workspace. " + how
        )
    return Ownership()


def import_command(folder: Path, workspace: Path, project: str, agent: str) -> str:
    """The command that imports ``folder`` into the Workspace scope of ``workspace``."""
    words = ["memory-api", "memory", "import", str(folder), "--workspace", str(workspace)]
    return shlex.join([*words, "--project", project, "--agent", agent])
