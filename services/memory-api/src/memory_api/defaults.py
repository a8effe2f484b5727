"""The template a new agent starts with when its creator gives none (A-1).

Its shape (``{{MEMORY}}`` and the Environment section with the key line where the placeholder
insert would put them, I-7) comes from :func:`memory_core.template.default_template`; here it gets
a first paragraph naming the agent and the agent id, one of the values the memory prompts'
``Directory:`` lines resolve from (I-6). The other, the data dir, stays the placeholder
``{{APP_DATA_DIR}}``, filled at each Session start with the data dir the service answers (P-1):
a path written into the stored prompt went stale when the data dir moved (``make run``'s
``.data`` with a moved checkout; :mod:`memory_api.data_dir_moves` mends the prompts made
before). ``{{CWD}}`` is left for the harness.
"""

from __future__ import annotations

from memory_core.template import CWD_PLACEHOLDER
from memory_core.template import default_template as template_shape

__all__ = ["DATA_DIR_LINE", "default_template"]

INTRO = (
    "You are {name}, an AI coding agent working with the user in their Workspace.\n"
    "Work in small, verifiable steps, explain decisions briefly, and ask before doing\n"
    "anything destructive or irreversible."
)


def default_template(*, name: str, agent_id: str) -> str:
    """Return the starting system-prompt template of agent ``agent_id`` called ``name``."""
    return template_shape(intro=INTRO.format(name=name), agent_id=agent_id, cwd=CWD_PLACEHOLDER)


DATA_DIR_LINE = "- App data dir: "
"""How the Environment section of :func:`default_template` starts the line naming the data dir."""
