"""The post-write hook of any harness: each memory write by the agent becomes a version (V-1).

After a tool ran (Claude Code's and Codex CLI's ``PostToolUse``, Gemini CLI's ``AfterTool``) the
harness's adapter says what the call may have written (a
:class:`~harness_memory.hooks.tool_targets.ToolWrites`, read exactly as the write guard reads
the same call before it runs). :func:`written_scopes` keeps the Session's scopes among them by
the guard's own path rules (:func:`harness_memory.guard.check_write`): the user scope and the
Session's Workspace scope are the only ones the guard lets a call write, so only they can have
changed. :func:`record_writes` then asks the service to record each as a version by this
Session, harness and tool (``POST …/memory/versions``,
:meth:`~harness_memory.client.MemoryClient.record_write`); no content is sent.

Recording is git work in the service: tens of milliseconds, seconds on a busy machine, beyond
what a hook process may take (H-5: 100 ms wall). So the call is made by a detached child
process (``fork``, a session of its own, stdio on ``/dev/null``): the hook answers nothing and
exits at once, and the harness goes on while the version is recorded. A service that is down,
slow or refusing costs the agent nothing and the hook still exits 0; the child gives up quietly
(after :data:`RECORD_TIMEOUT_S` at most), and the next Session start records what changed
anyway (that version then names the Session start, not the tool).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path, PurePath

from memory_core.keys import USER_SCOPE

from harness_memory.guard import check_write, is_usable_path
from harness_memory.hooks import claude_code
from harness_memory.hooks.guarding import could_reach
from harness_memory.hooks.tool_targets import ToolWrites, shell_paths
from harness_memory.settings import HarnessSettings

__all__ = ["RECORD_TIMEOUT_S", "record_writes", "written_scopes"]

RECORD_TIMEOUT_S = 30.0
"""Seconds the detached child waits for the service's answer. Nobody waits for the child, so a
record that takes long on a busy service still lands; past this the child gives up."""


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
    guard; empty with neither. Never raises for odd input.
    """
    located = claude_code._locate(hook, settings)
    if located is None:
        return []
    memory_root, key, cwd = located
    own = [scope for scope in (USER_SCOPE, key) if scope]
    root = os.path.normpath(Path(memory_root).absolute())
    roots = {root, os.path.realpath(root)}
    folders = {f"{real}/{scope}": scope for real in roots for scope in own}
    found: dict[str, None] = {}

    def add(path: str) -> None:
        decision = check_write(path, memory_root=memory_root, workspace_key=key, cwd=cwd)
        if decision.allowed and decision.scope is not None:
            found[decision.scope] = None
            return
        joined = os.fspath(Path(cwd) / path)
        if is_usable_path(joined) and ".." not in PurePath(joined).parts:
            scope = folders.get(os.path.realpath(joined))
            if scope is not None:
                found[scope] = None

    for path in writes.paths:
        add(path)
    for text in writes.texts:
        named = shell_paths(text, cwd, os.environ)  # the hook runs with the harness's env
        for path in named.paths:
            add(path)
        if any(could_reach(prefix, roots) for prefix in named.undecided):
            found.update(dict.fromkeys(own))
    return list(found)


def record_writes(
    writes: ToolWrites, hook: claude_code.HookInput, settings: HarnessSettings, harness: str
) -> None:
    """Record each scope of :func:`written_scopes` as a version by the hook's Session,
    ``harness`` (``claude-code``, ``codex`` or ``gemini``) and tool, from a detached child
    process; returns at once. Nothing is sent when the call wrote no memory or the service URL,
    project or agent is not configured. In remote mode (R-1) the written scopes of the local
    copy are sent back instead (:func:`harness_memory.hooks.sync.send_back`, in this process:
    the service records the versions when it merges them). Never raises."""
    scopes = written_scopes(writes, hook, settings)
    if scopes and settings.remote:
        from harness_memory.hooks.sync import send_back

        send_back(hook, settings, scopes)
        return
    if scopes and settings.url and settings.project and settings.agent:
        _detached(lambda: _send(scopes, hook, settings, harness))


def _send(
    scopes: list[str], hook: claude_code.HookInput, settings: HarnessSettings, harness: str
) -> None:
    """The child's work: one ``POST …/memory/versions`` per scope; a failure ends it quietly."""
    from memory_core.errors import InvalidId
    from memory_core.wire import RecordRequest

    from harness_memory.client import MemoryClient
    from harness_memory.errors import MemoryClientError
    from harness_memory.settings import MissingSettingsError

    try:
        url, project, agent = settings.required()
        token = settings.bearer_token()  # --token-file is read here, never in the hook's time
        client = MemoryClient(url, token=token, timeout=RECORD_TIMEOUT_S)
        for scope in scopes:
            request = RecordRequest(
                scope=scope, session_id=hook.session_id, harness=harness, tool=hook.tool_name
            )
            client.record_write(project, agent, request)
    except (MemoryClientError, InvalidId, MissingSettingsError):  # a bad token file included
        return


def _detached(work: Callable[[], None]) -> None:
    """Run ``work`` in a child process the harness does not wait for; return at once.

    The child leaves the hook's session and process group (``setsid``), so a harness that ends
    the hook's group spares it, and points its stdio at ``/dev/null``, so the harness, which
    reads the hook's output to its end, is not held by it; it ends with ``os._exit`` whatever
    happens; it runs at a lower priority (``nice`` 10), so the hook's own exit and the harness
    go first on a busy machine. Without ``fork`` (Windows), or when the system refuses one,
    nothing is recorded now: the next Session start records the change."""
    if not hasattr(os, "fork"):
        return
    try:
        child = os.fork()
    except OSError:
        return
    if child != 0:
        return
    try:
        os.setsid()
        os.nice(10)
        null = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):
            os.dup2(null, stream)
        work()
    finally:
        os._exit(0)
