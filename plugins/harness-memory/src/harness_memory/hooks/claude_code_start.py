"""Claude Code's SessionStart adapter: the injection, whole, across N hook entries (P-4, H-1).

Every entry runs ``harness-memory hook claude-code session-start --part K --parts N``; all of
them render the same prompt, :func:`harness_memory.fitting.fit` splits it at line ends into at
most N pieces of at most :data:`~harness_memory.hooks.claude_code.CONTEXT_LIMIT` UTF-16 code
units, and entry K answers ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
"additionalContext": piece K}}``. Claude Code runs the entries in parallel and adds the pieces in
the order they finish, so each piece carries its part number. Where N pieces cannot carry the
prompt, index lines are left out at a line boundary with the I-4 note (the key line and the
rest of the template stay) and entry 1 adds a ``systemMessage`` for the user (H-1).
"""

from __future__ import annotations

from typing import Any

from memory_core.counting import counted

from harness_memory.fitting import Delivery, HarnessLimits, fit
from harness_memory.hooks.claude_code import CONTEXT_LIMIT, HookInput
from harness_memory.hooks.session_start import (
    availability_message,
    context_answer,
    cut_summary,
    ignored_env_message,
    merged_message,
    prompt_message,
    start_for_hook,
    template_message,
    uncreated_message,
    unknown_account_message,
    unreadable_message,
    untrusted_state_message,
)
from harness_memory.records import SessionMeta
from harness_memory.settings import HarnessSettings, MissingSettingsError

__all__ = ["claude_code_limits", "session_start"]


def claude_code_limits(parts: int) -> HarnessLimits:
    """Claude Code's Session-start limits with ``parts`` SessionStart hook entries (H-1)."""
    return HarnessLimits(
        piece_limit=CONTEXT_LIMIT,
        pieces=parts,
        limit_text=(
            f"Claude Code's limit of {CONTEXT_LIMIT:,} characters per SessionStart hook "
            f"({counted(parts, 'hook entry', 'hook entries')} configured)"
        ),
    )


def session_start(
    hook: HookInput, settings: HarnessSettings, *, part: int = 1, parts: int = 1
) -> dict[str, Any] | None:
    """Answer a ``SessionStart`` hook entry: piece ``part`` of ``parts`` of the injection (P-4).

    The Workspace is the hook's ``cwd``. Entry 1 writes the Session's record (its
    ``SessionMeta``) to the state dir under ``session_id`` for the PreToolUse adapter, and
    carries the ``systemMessage`` for the user when memory failed open or had to be cut (H-1), or
    when variables of the environment were ignored (P-2a);
    the other entries answer only their piece, or nothing when the prompt needs fewer pieces,
    and say nothing on stderr (entry 1 says a failure once per Session: P-2).
    Raises ``ValueError`` unless ``1 <= part <= parts``; never raises for anything else.
    """
    if not 1 <= part <= parts:
        raise ValueError(f"part must be 1…{parts}, got {part}")
    try:
        result = start_for_hook(
            settings, cwd=hook.cwd, session_id=hook.session_id, save_record=part == 1, say=part == 1
        )
    except MissingSettingsError as error:
        return {"systemMessage": error.notice()} if part == 1 else None
    delivery = fit(result.sections, result.session_meta.manifests, claude_code_limits(parts))
    output = context_answer(delivery.pieces[part - 1]) if part <= len(delivery.pieces) else {}
    if part == 1:
        said = (
            untrusted_state_message(settings, hook.session_id),
            ignored_env_message(settings, "claude-code"),
            unknown_account_message(settings),
            _user_message(result.session_meta, delivery, parts),
            prompt_message(result),
            template_message(result.session_meta),
        )
        if message := " ".join(notice for notice in said if notice is not None):
            output["systemMessage"] = message
    return output or None


def _user_message(meta: SessionMeta, delivery: Delivery, parts: int) -> str | None:
    """What the user must hear: memory failed open, an index could not be read (Q-2b), a scope
    folder could not be created (A-9), remote mode's sync merged more than it took (R-2), or
    the prompt did not fit (H-1)."""
    notice = availability_message(meta)
    if meta.status == "failed-open":
        return notice
    for problem in (unreadable_message(meta), uncreated_message(meta), merged_message(meta)):
        if problem is not None:
            notice = problem if notice is None else f"{notice} {problem}"
    cut = cut_summary(delivery)
    if not cut:
        return notice
    return (notice + " " if notice else "") + (
        f"Agent Memory: Claude Code shows at most {CONTEXT_LIMIT:,} characters per "
        f"SessionStart hook and {parts} hook {'entry is' if parts == 1 else 'entries are'} "
        f"configured, so memory was cut ({'; '.join(cut)}). Add SessionStart entries "
        "`… session-start --part K --parts N` (see the harness-memory README) to carry it all."
    )
