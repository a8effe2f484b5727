"""The post-write and Session-end hooks of remote mode (R-1): send the agent's writes back.

Every harness runs one after its file-writing tools (Claude Code ``PostToolUse``, Codex CLI
``PostToolUse``, Gemini CLI ``AfterTool``) and at the Session's end (``SessionEnd``/``Stop``).
The adapter syncs the scopes of the Session (the user scope and the Workspace scope of the
Session's Workspace, from the Session's record, else the hook's ``cwd``) with
:class:`harness_memory.remote.RemoteCopy`, send-only: a scope the agent did not change costs a
few local git commands and no request. Outside remote mode it does nothing. It answers
nothing and never fails the harness: an unreachable service leaves the writes waiting for the
next sync (R-2), which the log says.
"""

from __future__ import annotations

from harness_memory import logs
from harness_memory.records import read_guard_view

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

    from harness_memory.hooks.claude_code import HookInput
    from harness_memory.settings import HarnessSettings

__all__ = ["sync_scopes"]


def sync_scopes(hook: HookInput, settings: HarnessSettings) -> dict[str, Any] | None:
    """Sync the Session's scopes in remote mode; always None (no answer to the harness)."""
    if not (settings.remote and settings.url and settings.project and settings.agent):
        return None
    from memory_core.errors import InvalidId

    from harness_memory.remote import RemoteCopy, RemoteError

    view = read_guard_view(settings.state_dir, hook.session_id) if hook.session_id else None
    workspace = hook.cwd if view is None else (view.workspace if view.key else None)
    try:
        copy = RemoteCopy(
            url=settings.url,
            token=settings.token,
            project=settings.project,
            agent=settings.agent,
            state_dir=settings.state_dir,
            timeout=settings.timeout,
        )
        results = copy.sync(workspace, send_only=True)
    except (RemoteError, InvalidId) as error:
        logs.logger(__name__).warning("memory not synced: %s", error)
        return None
    for result in results:
        if not result.ok:
            logs.logger(__name__).warning(
                "memory of scope %s waits for the next sync: %s", result.scope, result.error
            )
    return None
