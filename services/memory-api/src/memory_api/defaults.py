"""The template a new agent starts with when its creator gives none (A-1).

Its shape (``{{MEMORY}}`` and the Environment section with the key line where the placeholder
insert would put them, I-7) comes from :func:`memory_core.template.default_template`; here it gets
a first paragraph naming the agent and the real values the memory prompts' ``Directory:`` lines
resolve from (I-6): the data dir and the agent id. ``{{CWD}}`` is left for the harness.

That data dir is a path written into the agent's stored prompt: a data dir moved (``make
run``'s ``.data`` with a moved checkout) left every agent's prompt naming the old one, so an
agent given it wrote its memory where no service looks. :func:`moved_data_dir` puts the data
dir the service runs with in its place; the service does so for every agent as it starts.
"""

from __future__ import annotations

from pathlib import Path

from memory_core.template import CWD_PLACEHOLDER
from memory_core.template import default_template as template_shape

__all__ = ["DATA_DIR_LINE", "default_template", "moved_data_dir"]

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


DATA_DIR_LINE = "- App data dir: "
"""How the Environment section of :func:`default_template` starts the line naming the data dir."""


def moved_data_dir(template: str, data_dir: Path) -> tuple[str, bool]:
    """``(template, changed)``: each line ``- App data dir: OLD`` of ``template`` naming a
    folder that is not there (the data dir moved since the agent was made) names ``data_dir``
    instead. A line naming a folder that is there (another service's data dir, as the
    prompt's author wrote it) or the placeholder ``{{APP_DATA_DIR}}`` is left as it is."""
    lines = template.split("\n")
    changed = False
    for number, line in enumerate(lines):
        named = line.removeprefix(DATA_DIR_LINE)
        if named == line or not Path(named).is_absolute() or named == str(data_dir):
            continue
        if not Path(named).is_dir():
            lines[number] = f"{DATA_DIR_LINE}{data_dir}"
            changed = True
    return "\n".join(lines), changed
