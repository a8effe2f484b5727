"""What one coding agent's tool call may write, as the harness adapters hand it to the P-3 guard
and the post-write hook (V-1): :class:`ToolWrites`, and the files a Codex ``apply_patch`` patch
names (:func:`patch_files`), and how an MCP file server's relative paths are read
(:func:`served_readings`).

Apart from :mod:`~harness_memory.hooks.tool_targets` (which reads the texts in which any word may
be a path: a shell command, an MCP tool's arguments) so that a file tool's call is judged
without loading the shell reader (H-5: a hook process imports what it uses).
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import PurePosixPath

from memory_core.keys import SCOPE_KEY_RULE, USER_SCOPE

__all__ = ["ToolWrites", "patch_files", "patch_targets", "served_readings"]

_PATCH_TARGET_RE = (
    r"(?m)^[^\S\n]*\*\*\* (?i:add file|update file|delete file|move to): (?P<path>.+?)\s*$"
)
"""A patch's file lines as Codex reads them: it trims every hunk header of Unicode white space
before it looks for the marker (``parse_one_hunk``), so an indented header writes too; lines
split at line feeds only, as Rust's ``str::lines`` does. Any letter case is read as a marker:
seeing more lines as headers than Codex does only checks more paths."""


class ToolWrites:
    """What one tool call may write: ``paths`` a file tool or a patch names (relative ones from the
    hook's ``cwd``), each created or rewritten by that name (held to K-7 in a scope), ``touched``
    the files it removes or renames without writing that name (a patch's ``*** Delete File:``, the
    source of an ``*** Update File:`` moved, an MCP ``move_file``'s ``source``: judged as any path
    is, never held to K-7), ``served`` True when the relative ones are resolved by an MCP server
    against its allowed directories, which may hold the memory root (:func:`served_readings`), and
    ``texts`` in which any word may be a path (a shell command, an MCP tool's string arguments, read
    with :func:`~harness_memory.hooks.tool_targets.shell_paths`). Empty: the call writes no file.
    ``unread`` names a writing tool's call whose target cannot be read (``Write`` without a string
    ``file_path``): refused unjudged (P-3). ``run_by``: the shell the harness runs ``texts``
    with, its name and options (``("bash", "-lc")``), whose startup files run first; ``()``
    for none. A plain class, like
    :class:`~harness_memory.hooks.tool_targets.ShellPaths`."""

    __slots__ = ("paths", "run_by", "served", "texts", "touched", "unread")

    def __init__(
        self,
        paths: list[str] | None = None,
        texts: list[str] | None = None,
        *,
        touched: list[str] | None = None,
        served: bool = False,
        unread: str | None = None,
        run_by: tuple[str, ...] = (),
    ) -> None:
        self.paths: list[str] = paths or []
        self.texts: list[str] = texts or []
        self.touched: list[str] = touched or []
        self.served = served
        self.unread = unread
        self.run_by = run_by

    @classmethod
    def unreadable(cls, tool: str, argument: str) -> ToolWrites:
        """The writes of a call of the writing ``tool`` whose ``argument`` (naming what it
        writes) is missing or no string: unknown, so refused (P-3)."""
        return cls(unread=f"a {tool} call whose {argument} is missing or no string")


def served_readings(
    paths: list[str], memory_root: str | os.PathLike[str], key: str | None
) -> list[str]:
    """Each relative path of ``paths`` an MCP server may resolve inside the memory root, read
    from it (``user/notes.txt`` → ``<root>/user/notes.txt``): the reference filesystem server
    resolves a relative path against its allowed directories, which the guard cannot know, so
    one whose first part names a scope (``user``, the Session's Workspace key ``key``, or a
    scope folder of the memory root: a Workspace key, K-7) is judged there too (P-3). A name
    only shaped like a key that no scope holds (``backup-20240101/``) is a Workspace folder."""
    readings = []
    for path in paths:
        parts = PurePosixPath(posixpath.normpath(path)).parts  # the server folds ``..``
        if path.startswith("/") or not parts:
            continue
        first = parts[0]
        if first in (USER_SCOPE, key) or (
            SCOPE_KEY_RULE.accepts(first) and os.path.isdir(os.path.join(memory_root, first))  # noqa: PTH112, PTH118
        ):
            readings.append(os.path.join(memory_root, *parts))  # noqa: PTH118
    return readings


def patch_targets(patch: str) -> list[str]:
    """Every path a Codex ``apply_patch`` patch writes, in order (relative ones as written),
    read from its file lines as Codex reads them (indented or not: :data:`_PATCH_TARGET_RE`)."""
    return [match.group("path") for match in re.finditer(_PATCH_TARGET_RE, patch)]


def patch_files(patch: str) -> tuple[list[str], list[str]]:
    """:func:`patch_targets` apart: the files a patch writes by their name (``*** Add File:``,
    ``*** Update File:`` kept in place, ``*** Move to:``: held to K-7) and those it only
    removes or renames (``*** Delete File:``, an ``*** Update File:`` followed by ``*** Move
    to:`` on the next line, as Codex reads a move), so a file the service cannot address can
    be deleted or renamed to a good name (K-7 holds for names written)."""
    named: list[str] = []
    touched: list[str] = []
    if "***" not in patch:  # what each match holds: no pattern compiled (H-5)
        return named, touched
    matches = list(re.finditer(_PATCH_TARGET_RE, patch))
    for at, match in enumerate(matches):
        marker = _marker(match)
        after = matches[at + 1] if at + 1 < len(matches) else None
        moved = (
            marker == "update file"
            and after is not None
            and _marker(after) == "move to"
            and patch[match.end() : after.start()] == "\n"
        )
        kept = touched if marker == "delete file" or moved else named
        kept.append(match.group("path"))
    return named, touched


def _marker(match: re.Match[str]) -> str:
    """A patch file line's marker, in lower case (``add file``, ``move to``)."""
    return match.group(0).strip()[4:].split(":", 1)[0].casefold()
