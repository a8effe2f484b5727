"""The post-write hook of any harness: each memory write by the agent becomes a version (V-1).

After a tool ran (Claude Code's and Codex CLI's ``PostToolUse``, Gemini CLI's ``AfterTool``) the
harness's adapter says what the call may have written (a
:class:`~harness_memory.hooks.tool_writes.ToolWrites`, read exactly as the write guard reads
the same call before it runs). :func:`written_scopes` keeps the Session's scopes among them by
the guard's own path rules (:func:`harness_memory.guard.check_write`): the user scope and the
Session's Workspace scope are the only ones the guard lets a call write, so only they can have
changed. :func:`record_writes` then asks the service to record each as a version by this
Session, harness and tool (``POST …/memory/versions``,
:meth:`~harness_memory.client.MemoryClient.record_write`); no content is sent.

Recording is git work in the service: tens of milliseconds, seconds on a busy machine, beyond
what a hook process may take (H-5: 100 ms wall). So the call is made by a detached process of
its own (:mod:`harness_memory.hooks.recorder`): the hook answers nothing and exits at once, and
the harness goes on while the version is recorded. A service that is down, slow or refusing
costs the agent nothing and the hook still exits 0; the recorder gives up quietly (after
:data:`~harness_memory.hooks.recorder.RECORD_TIMEOUT_S` at most), and the next Session start
records what changed anyway (that version then names the Session start, not the tool).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path, PurePath

from memory_core.keys import USER_SCOPE, real_or_none

from harness_memory.guard import check_write, is_usable_path
from harness_memory.guard_view import UnreadableRecord
from harness_memory.hooks import claude_code
from harness_memory.hooks.path_refusal import could_reach
from harness_memory.hooks.tool_writes import ToolWrites, served_readings
from harness_memory.mounts import read_mount_table
from harness_memory.settings import HarnessSettings
from harness_memory.state_trust import UntrustedStateDir

__all__ = ["record_writes", "written_scopes"]


def written_scopes(
    writes: ToolWrites, hook: claude_code.HookInput, settings: HarnessSettings
) -> list[str]:
    """The scopes of this Session that the call may have written, in the order first named.

    A path counts for its scope when the write guard allows a write there (``user`` or the
    Session's Workspace key) or when it is one of those two scope folders itself (``cp x.md
    <scope>/``, ``rm -r <scope>/old``); a shell word built at run time (``$(…)``, an unset
    variable) that could reach the memory root counts for both. Paths outside the memory root,
    and into scopes the guard refuses (nothing lands there), count for none. The memory root
    and the Session's key come from the Session's record or ``--memory-root``, as for the
    guard; empty with neither. The mount table is read once per call, and only when a memory
    root is known (:func:`harness_memory.mounts.read_mount_table`); empty too when the state
    dir cannot be trusted or the Session's record cannot be read (the guard refused every
    write). Never raises for odd input.
    """
    table = functools.cache(read_mount_table)  # one read for the whole call, the Session
    try:
        located = claude_code._locate(hook, settings, lambda: table().as_read())  # key's walk too
    except (UntrustedStateDir, UnreadableRecord):  # the guard refused every write: none landed
        return []
    if located is None:  # no memory root: nothing to record, and no table read (H-5)
        return []
    mounts = table()
    memory_root, key, known = located
    cwd = known or str(Path.cwd())  # unknown: the guard let no relative path through
    own = [scope for scope in (USER_SCOPE, key) if scope]
    root = os.path.normpath(Path(memory_root).absolute())
    roots = {root, real_or_none(root) or root}
    folders = {f"{real}/{scope}": scope for real in roots for scope in own}
    found: dict[str, None] = {}

    def add(path: str) -> None:
        decision = check_write(
            path, memory_root=memory_root, workspace_key=key, cwd=cwd, mounts=mounts
        )
        if decision.allowed and decision.scope is not None:
            found[decision.scope] = None
            return
        joined = os.fspath(Path(cwd) / path)
        if is_usable_path(joined) and ".." not in PurePath(joined).parts:
            scope = folders.get(real_or_none(joined) or "")
            if scope is not None:
                found[scope] = None

    written = [*writes.paths, *writes.touched]
    for path in [*written, *(served_readings(written, memory_root, key) if writes.served else [])]:
        add(path)
    for text in writes.texts:
        from harness_memory.hooks.tool_targets import shell_paths  # for texts only (H-5)

        named = shell_paths(text, cwd, os.environ)  # the hook runs with the harness's env
        for path in named.paths:
            add(path)
        if any(could_reach(prefix, roots, mounts) for prefix in named.undecided):
            found.update(dict.fromkeys(own))
    return list(found)


def record_writes(
    writes: ToolWrites, hook: claude_code.HookInput, settings: HarnessSettings, harness: str
) -> None:
    """Record each scope of :func:`written_scopes` as a version by the hook's Session,
    ``harness`` (``claude-code``, ``codex`` or ``gemini``) and tool, from a detached process
    (:mod:`harness_memory.hooks.recorder`); returns at once. Nothing is sent when the call
    wrote no memory or the service URL, project or agent is not configured. In remote mode
    (R-1) the written scopes of the local copy are sent back instead
    (:func:`harness_memory.hooks.sync.send_back`, in this process: the service records the
    versions when it merges them). Never raises."""
    scopes = written_scopes(writes, hook, settings)
    if scopes and settings.remote:
        from harness_memory.hooks.sync import send_back

        send_back(hook, settings, scopes)
        return
    if scopes and settings.url and settings.project and settings.agent:
        from harness_memory.hooks.recorder import RecordJob, spawn

        spawn(
            RecordJob(
                settings=settings,
                scopes=scopes,
                session_id=hook.session_id,
                harness=harness,
                tool=hook.tool_name,
            )
        )
