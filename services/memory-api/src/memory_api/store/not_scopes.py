"""What in a memory root is no scope, and why the service never reads it (A-3, A-7, Q-2b).

A memory root holds one folder per scope, named by its key (K-7: ``user`` or a Workspace key).
Anything else there — a stray file, a folder named otherwise (``notes``, ``user.bak``), a
symlink leading out of the root, to a file or to nothing, a file in a scope's place — is skipped
by every listing: it holds no memory the service reads, serves or counts. One named like a
scope is a scope that cannot be used: its routes answer 503 (K-6). Skipped silently, a user who
copied notes into ``…/memory/notes`` saw "no memory" and no reason; the overview (A-3) and the
agents list (A-1) name each such entry with :func:`why_no_scope`, by its name alone as a
listing shows it (escaped, T-5b; never a path, never a target it leads to, which may lie
outside the memory root: A-7).

Files whose names start with ``.`` are the service's and the system's own (a lock, a temp
file, ``.DS_Store``) and are never named, nor are tools' folders (``.git``, ``.obsidian``); a
dot-named folder that looks meant as a scope is (:data:`HIDDEN_FOLDER`, :func:`_hidden_folder`:
one copied in by hand, ``.user-backup``, was skipped without a word), but for the service's temp
folders (``.*.tmp``) and a folder a forget left (:data:`FORGETTING_PREFIX`, K-5): the overview
puts that back first, and names one that still holds what it could not put back.
"""

from __future__ import annotations

import bisect
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.errors import InvalidId
from memory_core.file_kind import file_kind
from memory_core.keys import SCOPE_KEY_RULE, check_scope_key
from memory_core.shown_names import shown_name
from memory_core.wire import SkippedEntry

__all__ = [
    "FORGETTING_PREFIX",
    "HIDDEN_FOLDER",
    "SKIPPED_NAMED",
    "Skipped",
    "forgotten_key",
    "skipped_entries",
    "why_no_scope",
]

FORGETTING_PREFIX = ".forgetting-"
"""The hidden name a scope folder has while it is being forgotten (K-5):
``.forgetting-<key>-<8 hex digits>``."""

SKIPPED_NAMED = 20
"""The most skipped entries one answer names (sorted by name); the rest are counted."""


def forgotten_key(name: str) -> str | None:
    """The scope key of the memory-root entry ``name`` that a forget renamed
    (``.forgetting-<key>-<8 hex>``), or None for any other name."""
    if not name.startswith(FORGETTING_PREFIX) or len(name) < len(FORGETTING_PREFIX) + 10:
        return None
    key, dash, tail = name[len(FORGETTING_PREFIX) :].rpartition("-")
    try:
        check_scope_key(key)
    except InvalidId:
        return None
    return key if dash and len(tail) == 8 else None


def why_no_scope(entry: os.DirEntry[str]) -> str:
    """Why the memory-root entry ``entry``, which no listing takes as a scope, is none, for a
    person: what it is and that the service never reads it. Makes at most one ``lstat`` (a
    symlink's target is never looked at: it may lie outside the memory root, A-7); never
    raises ``OSError``.
    E.g. ``"a regular file whose name is no scope key ('user' or a Workspace key): never read"``."""
    try:
        mode: int | None = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        mode = None
    kind = "an entry the service cannot look at" if mode is None else file_kind(mode)
    try:
        check_scope_key(entry.name)
    except InvalidId:
        return f"{kind} whose name is no scope key ('user' or a Workspace key): never read"
    if mode is not None and stat.S_ISLNK(mode):  # where it leads is never looked at here
        return (
            "a symlink that does not lead to another scope folder of this memory root "
            "(outside it, deeper, to a file, or nowhere): never followed"
        )
    return f"{kind} in a scope's place, not a scope folder: never read"


@dataclass(slots=True)
class Skipped:
    """The entries of one memory root that are no scope: ``named`` holds ``(name, why)`` of the
    first ``most`` by name (the overview, the agents list and an export's report alike),
    ``count`` how many there are in all."""

    named: list[tuple[str, str]] = field(default_factory=list)
    count: int = 0
    most: int = SKIPPED_NAMED
    forgetting: list[str] = field(default_factory=list)
    """The names of the folders a forget left (K-5), named in :attr:`named` too."""

    def add(self, entry: os.DirEntry[str]) -> None:
        """Count ``entry`` (no scope) and name it, as a listing shows a name (:func:`~memory_core.
        shown_names.shown_name`: a byte that is not UTF-8 made the overview and the agents
        list a 500), when it is among the first by name; a file named with a leading ``.`` is never
        counted nor named (see the module)."""
        key = forgotten_key(entry.name)
        if key is not None and entry.is_dir(follow_symlinks=False):
            self.forgetting.append(entry.name)
            why = (
                f"a folder a forget of scope {key!r} left, holding what it could not put back "
                "(names that scope holds too): move them into it by hand; never read"
            )
        elif entry.name.startswith("."):
            if not _hidden_folder(entry):
                return  # the system's or the service's own file (a lock, ``.DS_Store``)
            why = HIDDEN_FOLDER
        else:
            why = None
        self.count += 1
        name = shown_name(entry.name)
        if len(self.named) >= self.most and name >= self.named[-1][0]:
            return
        bisect.insort(self.named, (name, why or why_no_scope(entry)))
        del self.named[self.most :]


HIDDEN_FOLDER = (
    "a hidden folder (its name starts with '.'), no scope folder (those are named by their "
    "key: 'user' or a Workspace key): never read; to use what it holds, rename it to its "
    "scope's key, or move its notes into that scope's folder"
)
"""Why a dot-named folder of the memory root is no scope (A-3): one copied in by hand
(``.user-backup``, ``.memory``) was skipped by every listing without a word."""


TOOL_FOLDERS = frozenset(
    (
        ".git", ".hg", ".svn", ".obsidian", ".trash", ".trashes", ".stfolder", ".stversions",
        ".sync", ".dropbox.cache", ".idea", ".vscode", ".fseventsd", ".spotlight-v100",
        ".temporaryitems", ".documentrevisions-v100",
    )
)  # fmt: skip
"""The dot folders tools keep in a folder they manage (version control, Obsidian and its
trash, Syncthing, Resilio Sync, Dropbox, editors, macOS), in lower case: never named as a
folder meant as a scope (A-3), even one holding a ``MEMORY.md`` (Obsidian's trash keeps a
scope's index the user deleted)."""


def _hidden_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the dot-named memory-root ``entry`` is a folder someone meant as a scope: a real
    folder (a symlink is never followed), not a temp folder of the service's own (``.*.tmp``,
    a history write's, gone once it is done), whose name without its leading dots is a scope
    key, alone or followed by more after a ``-``, ``.``, ``_`` or space (``.user``,
    ``.user-backup``, ``.my-app-a81f32c4.old``), or which holds a ``MEMORY.md`` (a scope's
    index). A tool's folder (``.git``, ``.obsidian``, ``.stfolder``, ``.trash``: a memory root
    kept in git, opened in Obsidian, synced: :data:`TOOL_FOLDERS`) is none of these, and is
    never named, whatever it holds."""
    if entry.name.endswith(".tmp") or entry.name.lower() in TOOL_FOLDERS:
        return False
    try:
        if not entry.is_dir(follow_symlinks=False):
            return False
    except OSError:
        return False
    bare = entry.name.lstrip(".")
    heads = [bare] + [bare[:at] for at, char in enumerate(bare) if char in "-._ "]
    if any(SCOPE_KEY_RULE.accepts(head) for head in heads):
        return True
    try:
        return stat.S_ISREG(Path(entry.path, "MEMORY.md").lstat().st_mode)
    except OSError:
        return False


def skipped_entries(skipped: Skipped) -> list[SkippedEntry]:
    """The entries ``skipped`` names, as an answer names them (A-3, A-1): each name escaped
    when it was added (:meth:`Skipped.add`; a name that is not UTF-8 holds surrogates no JSON
    encoder takes, a control character or a hidden one must not reach a screen)."""
    return [SkippedEntry(name=name, problem=why) for name, why in skipped.named]
