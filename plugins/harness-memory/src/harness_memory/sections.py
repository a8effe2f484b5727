"""The system prompt as sections: template text, memory prompt text, index lines, notes (P-1, H-1).

:func:`render_sections` fills a harness template the way ``memory_core.template.substitute``
does (one pass; text that arrives inside a value is never expanded again) but keeps track of
what each run of text is, so a harness with a context limit below the caps can leave out index
lines at a line boundary and restate the note (:mod:`harness_memory.fitting`) instead of cutting
blindly. Concatenated in order, the sections are the system prompt exactly. Harness-neutral:
nothing here knows a particular coding agent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal, TypeAlias

import msgspec
from memory_core.hidden_text import show_prompt
from memory_core.template import KEY_PLACEHOLDER, MEMORY_PLACEHOLDER
from memory_core.wire import MemorySection

__all__ = ["PromptSection", "SectionKind", "joined", "render_sections"]

SectionKind: TypeAlias = Literal["template", "prompt", "index", "note"]
"""``template``: the harness template's own text and the values filled into it (the key line
among them); ``prompt``: the memory prompts' instruction text (I-6); ``index``: kept index lines
of ``scope`` (I-4); ``note``: ``scope``'s truncation or "nothing saved yet" note (I-3, I-4)."""


class PromptSection(msgspec.Struct, frozen=True, kw_only=True):
    """One run of the system prompt; ``scope`` names the index scope of ``index``/``note``."""

    kind: SectionKind
    text: str
    scope: str | None = None


def render_sections(
    template: str,
    memory: str | Sequence[MemorySection],
    key_value: str,
    extra: Mapping[str, str] | None = None,
) -> list[PromptSection]:
    """Fill ``template`` and return it as sections (P-1, I-1, I-2).

    ``memory`` replaces ``{{MEMORY}}``: the service's sections (A-9), or its plain text (a
    service that sends no sections; it then counts as one ``prompt`` run). ``key_value`` replaces
    ``{{WORKSPACE_MEMORY_KEY}}``; ``extra`` maps further whole placeholders to values. Other
    ``{{…}}`` placeholders are left as written. A template holding ``{{MEMORY}}`` more than
    once gets the memory at the first only (the service refuses to store such a template):
    the indexes reach the model once, as the manifests count them. Sections with no text are
    left out. Hidden characters of the template's own text (a bidirectional override, tag
    characters, I-9) are shown escaped, as in the memory prompts, and a byte order mark at its
    start is left out: the model reads the template as a person sees it.
    """
    template = show_prompt(template)
    values = {**(extra or {}), KEY_PLACEHOLDER: key_value}
    names = [MEMORY_PLACEHOLDER, *(name for name in values if name)]
    if isinstance(memory, str):
        memory_part = [PromptSection(kind="prompt", text=memory)]
    else:
        memory_part = [PromptSection(kind=s.kind, text=s.text, scope=s.scope) for s in memory]
    sections: list[PromptSection] = []
    at = 0
    for match in re.finditer("|".join(re.escape(name) for name in names), template):
        sections.append(PromptSection(kind="template", text=template[at : match.start()]))
        if match.group() == MEMORY_PLACEHOLDER:
            sections += memory_part
            memory_part = []  # the memory once (I-1): a second {{MEMORY}} is left out
        else:
            sections.append(PromptSection(kind="template", text=values[match.group()]))
        at = match.end()
    sections.append(PromptSection(kind="template", text=template[at:]))
    return [section for section in sections if section.text]


def joined(sections: Sequence[PromptSection | MemorySection]) -> str:
    """The text the sections make up, in order."""
    return "".join(section.text for section in sections)
