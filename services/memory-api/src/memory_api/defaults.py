"""The template a new agent starts with when its creator gives none (A-1).

Its shape (``{{MEMORY}}`` and the Environment section with the key line where the placeholder
insert would put them, I-7) comes from :func:`memory_core.template.default_template`; here it gets
a first paragraph naming the agent and the real values the memory prompts' ``Directory:`` lines
resolve from (I-6): the data dir and the agent id. ``{{CWD}}`` is left for the harness.
"""

from __future__ import annotations

from pathlib import Path

from memory_core.template import CWD_PLACEHOLDER
from memory_core.template import default_template as template_shape

__all__ = ["default_template"]

INTRO = (
    "You are {name}, an AI coding agent working with the user in their Workspace.\n"
    "Work in small, verifiable steps, explain decisions briefly, and ask before doing\n"
    "anything destructive or irreversible."
)


def default_template(*, name: str, agent_id: str, data_dir: Path) -> str:
    """Return the starting system-prompt template of agent ``agent_id`` called ``name``."""
    return template_shape(
        intro=INTRO.format(name=name),
        app_data_dir=str(data_dir),
        agent_id=agent_id,
        cwd=CWD_PLACEHOLDER,
    )
