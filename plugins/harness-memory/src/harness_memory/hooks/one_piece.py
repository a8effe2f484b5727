"""Session-start context for a harness that takes it in one piece of a limited size (H-1, P-4).

Codex CLI and Gemini CLI each add one hook's ``additionalContext`` to the model's input, the
same JSON shape Claude Code reads (``{"hookSpecificOutput": {"hookEventName": "SessionStart",
"additionalContext": …}, "systemMessage": …}``). :func:`session_start_answer` starts the
Session's memory from the harness's own settings, writes the Session's record for the guard,
and fits the system prompt into the harness's limit: whole when it fits; otherwise index lines
are left out at a line boundary from the end with a note saying how many and why, and the user
is told in ``systemMessage`` (never a silent preview).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness_memory.hooks.claude_code import HookInput
from harness_memory.records import write_record
from harness_memory.session import DEFAULT_TEMPLATE, SessionStart, start_session
from harness_memory.settings import HarnessSettings

__all__ = ["OnePieceLimit", "fit_one_piece", "session_start_answer"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class OnePieceLimit:
    """A harness's limit on its one Session-start piece: ``limit`` units as ``measure`` counts
    them; ``harness`` names it to the user ("Codex CLI"); ``limit_text`` names the limit in the
    note that follows a cut."""

    harness: str
    limit: int
    limit_text: str
    measure: Callable[[str], int]


def fit_one_piece(text: str, limit: OnePieceLimit) -> tuple[str, int]:
    """``(text that fits, lines left out)``: whole, or cut at a line end with a note (H-1).

    Lines are left out from the end until the rest and the note fit; the note names how many
    lines were left out and the limit, and tells the model where the full indexes are.
    """
    if limit.measure(text) <= limit.limit:
        return text, 0
    lines = text.split("\n")
    for keep in range(len(lines) - 1, -1, -1):
        left_out = len(lines) - keep
        note = (
            f"(Truncated: the last {left_out} lines of the memory context were left out because "
            f"of {limit.limit_text}. Open the full MEMORY.md files in the memory Directories "
            "yourself before relying on this list.)"
        )
        candidate = "\n".join([*lines[:keep], note])
        if limit.measure(candidate) <= limit.limit:
            return candidate, left_out
    return "", len(lines)


def session_start_answer(
    hook: HookInput, settings: HarnessSettings, limit: OnePieceLimit
) -> dict[str, Any]:
    """The SessionStart hook's answer (P-4): the injection, fitted to ``limit``. Never raises."""
    url, project, agent = settings.url, settings.project, settings.agent
    if not (url and project and agent):
        return {"systemMessage": f"Agent Memory is off: set {', '.join(settings.missing())}"}
    try:
        template = settings.read_template()
    except (OSError, UnicodeDecodeError) as error:
        logger.warning("template unreadable, using the default: %s", error)
        template = DEFAULT_TEMPLATE
    result: SessionStart = asyncio.run(
        start_session(
            service_url=url,
            token=settings.token,
            project=project,
            agent=agent,
            workspace=hook.cwd or str(Path.cwd()),
            template=template,
            session_id=hook.session_id,
            timeout_s=settings.timeout,
        )
    )
    meta = result.session_meta
    if hook.session_id:
        try:
            write_record(settings.state_dir, hook.session_id, meta)
        except OSError as error:
            logger.warning("could not write the Session record: %s", error)
    context, left_out = fit_one_piece(result.system_prompt.lstrip("\n"), limit)
    answer: dict[str, Any] = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}
    }
    messages = []
    if meta.status == "failed-open":
        messages.append(f"Agent Memory unavailable for this Session: {meta.error}")
    if left_out:
        messages.append(
            f"Agent Memory: {limit.harness} takes at most {limit.limit_text}, so the last "
            f"{left_out} lines of memory were left out of this Session's context."
        )
    if messages:
        answer["systemMessage"] = " ".join(messages)
    return answer
