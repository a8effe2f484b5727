"""The P-3 guard's judgement of the paths one tool call names, harness-neutral: a file tool's
target, a patch's files, an MCP file server's (:func:`refusal`), and the caps on what one call
may name (:data:`PATHS_CAP`, :data:`PARTS_CAP`, :data:`DEPTH_CAP`); and the string leaves of an
MCP tool's arguments, which the shell judge reads (:func:`string_leaves`).

Each path is checked against the Session's memory root and scopes with
:func:`harness_memory.guard.check_write`, the first reason to refuse returned. The memory root
and the Session's Workspace key come from trusted settings and the Session's record, exactly as
for Claude Code's guard. That record is written by the Session-start hook alone: a write into
the records folder (``<state dir>/sessions``) is refused like a write into another Workspace's
scope, since a Session that rewrote its record's key would be let into that scope next (P-3).

Apart from :mod:`~harness_memory.hooks.guarding` (the shell commands' judge, which builds on
this), so that a file tool's call is judged without loading the shell reader (H-5).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import Any

from memory_core.keys import real_or_none

from harness_memory.guard import (
    HARD_LINK_REASON,
    below_under_another_name,
    check_write,
    has_other_names,
    is_usable_path,
    replaceable_ancestor,
    unseen_by_mount,
)
from harness_memory.hooks import claude_code
from harness_memory.hooks.tool_writes import served_readings
from harness_memory.mounts import MountTable, read_mount_table
from harness_memory.settings import HarnessSettings

__all__ = [
    "DEPTH_CAP",
    "PARTS_CAP",
    "PATHS_CAP",
    "REFUSAL_PREFIX",
    "UNKNOWN_FOLDER",
    "could_reach",
    "over_caps",
    "records_folders",
    "records_refusal",
    "refusal",
    "shown_path",
    "string_leaves",
]

REFUSAL_PREFIX = "Agent Memory write guard: "
PATHS_CAP = 5_000
"""The most distinct paths one tool call may name and be judged (P-3). Each costs the guard
under a millisecond, a few ``stat`` calls per folder on its way (``docs/performance.md``), so
the caps keep a decision within a few seconds where the install gives the Codex and Gemini CLI
hooks 30 s; a call naming more is refused, saying why, rather than killed by the timeout.
Counted, never timed: the same command gets the same answer on every machine."""
PARTS_CAP = 50_000
"""The most folders and names (``/``-separated parts) all judged paths of one call may hold."""
DEPTH_CAP = 256
"""The most parts one judged path may hold: each ``stat`` on its way walks every folder above
it, so a path's cost grows with its depth squared (``PATH_MAX``, 4096 bytes, allows 2048)."""
UNKNOWN_FOLDER = (
    f"{REFUSAL_PREFIX}the folder this tool works in cannot be known here (its name is not "
    "UTF-8 and the harness passed it altered, or it holds a character no file name can); a "
    "relative path from it may land in any scope: name files by their absolute path"
)


def refusal(
    targets: Iterable[str],
    hook: claude_code.HookInput,
    settings: HarnessSettings,
    *,
    mounts: MountTable | None = None,
    naming: bool = True,
    served: bool = False,
) -> str | None:
    """The guard's reason to refuse the first target it denies, or None when all are allowed:
    a file tool's targets, each also held, with ``naming``, to the names the memory service
    can address in a scope it may write (K-7: :func:`~harness_memory.guard.name_problem`).
    ``served``: the relative targets are an MCP server's, judged from the memory root too
    where they could name a scope (:func:`~harness_memory.hooks.tool_writes.served_readings`).

    With no memory root known (no record, no ``--memory-root``) nothing is refused. ``mounts``
    is the decision's mount table (read here when None). More than :data:`PATHS_CAP` targets
    are refused unjudged.
    """
    wanted = list(dict.fromkeys(targets))
    if not wanted:
        return None
    located = claude_code._locate(hook, settings, None if mounts is None else mounts.as_read)
    if located is None:
        return None
    memory_root, key, known = located
    if served:
        wanted.extend(served_readings(wanted, memory_root, key))
    if known is None and any(not target.startswith("/") for target in wanted):
        return UNKNOWN_FOLDER
    cwd = known or "/"  # every target is absolute when the folder is unknown
    anchored = [target if target.startswith("/") else f"{cwd}/{target}" for target in wanted]
    if (reason := over_caps(anchored)) is not None:
        return reason
    table = read_mount_table() if mounts is None else mounts
    records = records_folders(settings)
    for target in wanted:
        if (reason := records_refusal(target, cwd, records, table)) is not None:
            return reason
        decision = check_write(
            target, memory_root=memory_root, workspace_key=key, cwd=cwd, mounts=table, naming=naming
        )
        if not decision.allowed:
            return f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(target)})"
    return None


def over_caps(paths: list[str]) -> str | None:
    """The refusal of a tool call whose ``paths`` (absolute, or relative to one folder) are
    more than the guard judges within the hook's time limit (:data:`PATHS_CAP`,
    :data:`PARTS_CAP`, :data:`DEPTH_CAP`), or None. One pass, no file looked at."""
    split = "; split it into smaller commands (xargs -n, a loop over a file list)"
    if len(paths) > PATHS_CAP:
        return (
            f"{REFUSAL_PREFIX}the call names {len(paths)} paths, more than the {PATHS_CAP} the "
            f"guard judges in one call within the hook's time limit{split}"
        )
    parts = 0
    for path in paths:
        depth = path.count("/") + 1
        if depth > DEPTH_CAP:
            return (
                f"{REFUSAL_PREFIX}a path of {depth} parts, more than the {DEPTH_CAP} the guard "
                f"judges within the hook's time limit ({shown_path(path[:120])}…)"
            )
        parts += depth
    if parts > PARTS_CAP:
        return (
            f"{REFUSAL_PREFIX}the paths the call names hold {parts} folders and names in all, "
            f"more than the {PARTS_CAP} the guard judges in one call within the hook's time "
            f"limit{split}"
        )
    return None


def records_folders(settings: HarnessSettings) -> set[str]:
    """The folder of the Session records (``<state dir>/sessions``), spelled and resolved;
    none without a state dir."""
    if settings.state_dir is None:
        return set()
    folder = os.path.normpath(Path(settings.state_dir, "sessions").absolute())
    return {folder, real_or_none(folder) or folder}


def records_refusal(target: str, cwd: str, records: set[str], mounts: MountTable) -> str | None:
    """The reason to refuse a write of ``target`` (relative to ``cwd``) into the Session
    records, spelled, resolved (``..``, a symlink on the way) or under another name, or into
    the state dir that holds them (``tar -C``, ``mv … <state dir>`` plant records without
    naming one), or None when it lands elsewhere. An unusable path, or one through a symlink
    that cannot be read, is left to :func:`~harness_memory.guard.check_write` (which refuses
    both). Without a mount table where bind mounts exist, a path on the records folder's
    filesystem is refused too (:func:`~harness_memory.guard.unseen_by_mount`), a file with
    another name (a hard link) on it (:func:`~harness_memory.guard.has_other_names`), and a
    folder above the state dir this account may move or replace
    (:func:`~harness_memory.guard.replaceable_ancestor`)."""
    if not is_usable_path(target) or not is_usable_path(cwd):
        return None
    joined = os.fspath(Path(cwd, target))
    real = real_or_none(joined)
    spellings = {os.path.normpath(joined), real or joined}
    inside = any(
        f"{path}/".startswith(f"{folder}/") or path == os.path.dirname(folder)  # noqa: PTH120
        for path in spellings
        for folder in records
    )  # the state dir itself too: unpacking into it (tar -C) or swapping it plants records
    state_dirs = [os.path.dirname(folder) for folder in records]  # noqa: PTH120
    inside = inside or replaceable_ancestor(tuple(spellings), state_dirs) is not None
    # the folder under another name (a bind mount of it or of a record, a letter case): on the
    # real path only (a symlink on the spelled way leads to the same folders)
    if inside or (
        real is not None
        and any(
            below_under_another_name(real, folder, mounts) is not None
            or unseen_by_mount(real, folder, mounts)
            for folder in records
        )
    ):
        return (
            f"{REFUSAL_PREFIX}the hooks' Session records say which Workspace scope this "
            f"Session may write; only the hooks write them ({shown_path(target)})"
        )
    if real is not None and any(has_other_names(real, folder, mounts) for folder in records):
        return f"{REFUSAL_PREFIX}{HARD_LINK_REASON} ({shown_path(target)})"
    return None


def shown_path(path: str) -> str:
    """``path`` for a message: a lone surrogate (no file name holds one) written as ``\\udXXX``,
    so the answer stays valid UTF-8 JSON."""
    return path.encode("utf-8", "backslashreplace").decode("utf-8")


def could_reach(prefix: str, roots: set[str], mounts: MountTable) -> bool:
    """Whether a path whose literal start is ``prefix`` may land in the memory root: the prefix
    lies in it (spelled, resolved, or through a folder that is the memory root under another
    name in this decision's ``mounts``: :func:`~harness_memory.guard.below_under_another_name`,
    or one it cannot see: :func:`~harness_memory.guard.unseen_by_mount`), or the rest of the
    word could complete it into the root."""
    if not is_usable_path(prefix):
        return True  # no file name holds it: refused like any unusable path
    folded = os.path.normpath(prefix)
    if folded.startswith("//"):  # POSIX normpath keeps two leading slashes; the kernel reads one
        folded = "/" + folded.lstrip("/")
    if prefix.endswith("/") and not folded.endswith("/"):
        folded += "/"
    kernel = "/" + prefix.lstrip("/") if prefix.startswith("//") else prefix
    # resolved as spelled too: the kernel follows ``lnk`` before the ``..`` after it
    parents = [real_or_none(PurePath(spelled).parent) for spelled in (folded, kernel)]
    real = real_or_none(kernel)
    if real is None or None in parents:
        return True  # a symlink on its way cannot be read: it could lead anywhere
    if any(
        below_under_another_name(real, root, mounts) is not None
        or unseen_by_mount(real, root, mounts)
        for root in roots
    ):
        return True  # the memory root under another name (a bind mount, a letter case)
    for root in roots:
        inside = root.rstrip("/") + "/"
        if any(f"{spelled}/".startswith(inside) for spelled in [folded, real, *parents]):
            return True
        if inside.startswith((folded, real.rstrip("/") + "/")):
            return True
    return False


def string_leaves(value: Any) -> list[str]:
    """Every string inside a JSON value (an MCP tool's arguments), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in string_leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in string_leaves(item)]
    return []
