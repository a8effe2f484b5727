"""The template a new agent starts with when its creator gives none (A-1).

It already holds ``{{MEMORY}}`` and the Environment section's ``- Workspace Memory Key:`` line
in the places the placeholder insert (I-7) would put them, plus the Environment values the
memory prompts' ``Directory:`` lines are resolved from (I-6): the app data dir and the agent id.
``{{CWD}}`` is left for the harness to fill.
"""

from __future__ import annotations

from pathlib import Path

from memory_core.template import KEY_LINE, MEMORY_PLACEHOLDER

__all__ = ["default_template"]


def default_template(*, name: str, agent_id: str, data_dir: Path) -> str:
    """Return the starting system-prompt template of agent ``agent_id`` called ``name``."""
    return "\n".join(
        [
            f"You are {name}, an AI coding agent working with the user in their Workspace.",
            "Work in small, verifiable steps, explain decisions briefly, and ask before doing",
            "anything destructive or irreversible.",
            "",
            MEMORY_PLACEHOLDER,
            "",
            "# Environment",
            KEY_LINE,
            f"- App data dir: {data_dir}",
            f"- Agent id: {agent_id}",
            "- CWD: {{CWD}}",
            "",
        ]
    )
