"""Remote mode's post-write and Session-end hooks (R-1): send the agent's writes back.

Every harness runs a hook after its file-writing tools (Claude Code's and Codex CLI's
``PostToolUse``, Gemini CLI's ``AfterTool``) and one when the Session ends or a turn stops
(Claude Code's and Gemini CLI's ``SessionEnd``, Codex CLI's ``Stop``). In remote mode
(``HARNESS_MEMORY_REMOTE=on``) both sync the Session's scopes of the local copy with the service
(:class:`harness_memory.remote.RemoteCopy`), **send-only**: a scope with nothing to send costs a
local check and no request. The post-write hook syncs only the scopes the call may have written
(:func:`harness_memory.hooks.post_write.written_scopes`); the Session-end hook syncs the user
scope and the Session's Workspace scope (from the Session's record, else the hook's ``cwd``).

They answer nothing and never fail the harness: a service that cannot be reached leaves the
writes waiting for the next sync (R-2), which the log (stderr) says; so does a line per scope
whose send the service's merge did more with than take it (R-2: both edits kept, an index it
could not write and where its lines are kept) or that keeps a file on this machine unsent (no
memory file the service takes), with what to do.
"""

from __future__ import annotations

import logging
from pathlib import Path

from memory_core.keys import USER_SCOPE

from harness_memory.guard_view import UnreadableRecord, read_guard_view
from harness_memory.hooks.claude_code import HookInput
from harness_memory.settings import HarnessSettings
from harness_memory.state_trust import untrusted_state

__all__ = ["send_back", "session_end", "session_scopes"]

logger = logging.getLogger(__name__)


def session_scopes(hook: HookInput, settings: HarnessSettings) -> tuple[list[str], str | None]:
    """``(scopes, Workspace path)`` of the hook's Session: the user scope and, when the Session
    has one, its Workspace scope (the record's key, else the key of the hook's ``cwd`` on this
    machine, K-1). The path is the Workspace's real path (None without a Workspace scope, and
    when a symlink on its way cannot be read or it is no path a marker can hold, not UTF-8 or
    with a control character, K-5: then only the user scope, said in the log). A record in a
    state dir another account could change (:func:`~harness_memory.state_trust.untrusted_state`)
    is not read, nor one that cannot be read (said in the log): the hook's ``cwd`` names the
    Workspace then."""
    from memory_core.errors import UnresolvablePath
    from memory_core.keys import key_for_real_path, real_path, real_workspace_path
    from memory_core.rules import workspace_path_problem

    state, session = settings.state_dir, hook.session_id
    view = None
    if state is not None and session and untrusted_state(state, session) is None:
        try:
            view = read_guard_view(state, session)
        except UnreadableRecord as error:
            logger.warning("the Workspace is taken from the hook's cwd: %s", error)
    if view is not None and view.key is None:
        return [USER_SCOPE], None
    try:
        if view is not None and view.key is not None:
            return [USER_SCOPE, view.key], real_path(view.workspace)
        real = real_workspace_path(hook.cwd or Path.cwd())
    except UnresolvablePath as error:
        logger.warning(
            "only the user scope is synced: the Workspace's real path cannot be known: %s", error
        )
        return [USER_SCOPE], None
    if (problem := workspace_path_problem(real)) is not None:
        logger.warning("only the user scope is synced: the Workspace path %r %s", real, problem)
        return [USER_SCOPE], None
    return [USER_SCOPE, key_for_real_path(real)], real


def send_back(hook: HookInput, settings: HarnessSettings, scopes: list[str] | None = None) -> None:
    """Send the Session's changed ``scopes`` (None: all of the Session's) back to the service,
    send-only, in remote mode; outside it, or without URL, project and agent, nothing. Never
    raises: every failure is logged, and the changes wait for the next sync (a local copy in a
    state dir another account could change sends nothing:
    :meth:`~harness_memory.remote.RemoteCopy.sync_scope` says why)."""
    if not (settings.remote and settings.url and settings.project and settings.agent):
        return
    from memory_core.errors import InvalidId

    from harness_memory.remote import RemoteCopy, RemoteError
    from harness_memory.settings import TokenFileError

    own, workspace = session_scopes(hook, settings)
    wanted = own if scopes is None else [scope for scope in own if scope in scopes]
    try:
        copy = RemoteCopy.configured(settings, token=settings.bearer_token())
        results = [
            copy.sync_scope(
                scope, marker=None if scope == USER_SCOPE else workspace, send_only=True
            )
            for scope in wanted
        ]
    except (RemoteError, InvalidId, TokenFileError) as error:
        logger.warning("memory not sent back: %s", error)
        return
    for result in results:
        if not result.ok:
            logger.warning(
                "memory of scope %s waits for the next sync: %s", result.scope, result.error
            )
        elif result.outcomes:  # the merge did more than take it, or some stays here
            logger.warning(
                "memory of scope %s %s: %s",
                result.scope,
                "sent" if result.sent else "not sent",
                "; ".join(result.outcomes),
            )


def session_end(hook: HookInput, settings: HarnessSettings) -> None:
    """Answer a Session-end hook (Claude Code's and Gemini CLI's ``SessionEnd``, Codex CLI's
    ``Stop``): in remote mode send every changed scope of the Session back; no answer."""
    send_back(hook, settings)
