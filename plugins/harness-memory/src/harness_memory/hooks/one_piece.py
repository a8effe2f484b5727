"""Session-start context for a harness that takes it in one piece of a limited size (H-1, P-4).

Codex CLI and Gemini CLI each add one hook's ``additionalContext`` to the model's input, in the
JSON shape Claude Code reads (``{"hookSpecificOutput": {"hookEventName": "SessionStart",
"additionalContext": …}, "systemMessage": …}``). :func:`session_start_answer` starts the
Session's memory from the harness's own settings (with the offline fallback of H-4 when a
memory root is configured), writes the Session's record for the guard, and fits the prompt
into the harness's one piece with :func:`harness_memory.fitting.fit`: whole when it fits;
otherwise index lines are left out at a line boundary with the I-4 note, the key line and the
rest of the template stay, and the user is told in ``systemMessage`` (never a silent preview).
"""

from __future__ import annotations

from harness_memory.fitting import Delivery, HarnessLimits, fit
from harness_memory.startup import MissingSettingsError, start_for_hook

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

    from harness_memory.hooks.claude_code import HookInput
    from harness_memory.session_core import Started
    from harness_memory.settings import HarnessSettings

__all__ = ["availability_message", "session_start_answer", "unreadable_message"]


def session_start_answer(
    hook: HookInput, settings: HarnessSettings, harness: str, limits: HarnessLimits
) -> dict[str, Any]:
    """The SessionStart hook's answer for ``harness`` (its name for the user). Never raises."""
    try:
        result = start_for_hook(settings, cwd=hook.cwd, session_id=hook.session_id)
    except MissingSettingsError as error:
        return {"systemMessage": error.notice()}
    delivery = fit(result.sections, result.manifests, limits)
    answer: dict[str, Any] = {}
    if delivery.pieces:
        answer["hookSpecificOutput"] = {
            "hookEventName": "SessionStart",
            "additionalContext": delivery.pieces[0].lstrip("\n"),
        }
    message = _user_message(result, delivery, harness, limits)
    if message is not None:
        answer["systemMessage"] = message
    return answer


def availability_message(status: str, error: str | None) -> str | None:
    """Tell the user when memory failed open (P-2) or was read from the files (H-4).

    ``status`` and ``error`` are the Session record's (``MemoryStatus`` and why).
    """
    if status == "failed-open":
        return f"Agent Memory unavailable for this Session: {error}"
    if status == "offline":
        return (
            f"Agent Memory: the memory service is unreachable ({error}); memory was read "
            "from the files on this machine (read-only) and writes still go to them."
        )
    return None


def unreadable_message(result: Started) -> str | None:
    """Tell the user of each index the service found but could not read (Q-2b): the model was
    told so too, and memories saved there are not in this Session until it is fixed."""
    said = [
        f"the {'user' if m.scope == 'user' else 'Workspace'} memory index could not be read "
        f"(MEMORY.md is there, but Agent Memory {m.unreadable})"
        for m in result.manifests
        if m.unreadable is not None
    ]
    if not said:
        return None
    return (
        f"Agent Memory: {'; '.join(said)}, so what it lists is not in this Session; fix the "
        "permissions of MEMORY.md."
    )


def _user_message(
    result: Started, delivery: Delivery, harness: str, limits: HarnessLimits
) -> str | None:
    """What the user must hear: memory failed open or came from the files, an index could not
    be read (Q-2b), or was cut (H-1)."""
    said = [
        notice
        for notice in (
            availability_message(result.status, result.error),
            unreadable_message(result),
        )
        if notice is not None
    ]
    cut = [f"{c.scope} index: {c.kept} of {c.total} lines" for c in delivery.cuts]
    if delivery.prompt_lines_cut:
        cut.append(f"{delivery.prompt_lines_cut} lines of the memory instructions left out")
    if not delivery.complete:
        cut.append("the rest of the prompt did not fit")
    if cut:
        said.append(
            f"Agent Memory: {harness} takes at most {limits.limit_text}, so memory was cut "
            f"({'; '.join(cut)})."
        )
    return " ".join(said) or None
