"""The system prompt as sections: template text, memory prompt text, index lines, notes (P-1, H-1).

:func:`render_sections` fills a harness template the way ``memory_core.template.substitute``
does (one pass; text that arrives inside a value is never expanded again) but keeps track of
what each run of text is, so a harness with a context limit below the caps can leave out index
lines at a line boundary and restate the note (:mod:`harness_memory.fitting`) instead of cutting
blindly. Concatenated in order, the sections are the system prompt exactly.

Harness-neutral: nothing here knows a particular coding agent. Nothing here loads msgspec or
``typing`` either: a Session-start hook process renders its prompt with it (H-5).
"""

from __future__ import annotations

from memory_core.template import KEY_PLACEHOLDER, MEMORY_PLACEHOLDER

from harness_memory.frozen import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Literal, Protocol, TypeAlias

    SectionKind: TypeAlias = Literal["template", "prompt", "index", "note"]

    class SectionLike(Protocol):
        """A run of text of a kind, for a scope: this module's sections, the service's (A-9)."""

        @property
        def kind(self) -> str: ...
        @property
        def scope(self) -> str | None: ...
        @property
        def text(self) -> str: ...


__all__ = ["PromptSection", "joined", "render_sections"]

SECTION_KINDS = ("template", "prompt", "index", "note")
"""The kinds of :class:`PromptSection` (``SectionKind``). ``template``: the harness template's
own text and the values filled into it (the key line among them); ``prompt``: the memory
prompts' instruction text (I-6); ``index``: kept index lines of ``scope`` (I-4); ``note``:
``scope``'s truncation or "nothing saved yet" note (I-3, I-4)."""


class PromptSection(Frozen):
    """One run of the system prompt; ``scope`` names the index scope of ``index``/``note``."""

    __slots__ = ("kind", "scope", "text")
    kind: SectionKind
    text: str
    scope: str | None

    def __init__(self, *, kind: SectionKind, text: str, scope: str | None = None) -> None:
        self._set(kind=kind, text=text, scope=scope)


def render_sections(
    template: str,
    memory: str | Sequence[SectionLike],
    key_value: str,
    extra: Mapping[str, str] | None = None,
) -> list[PromptSection]:
    """Fill ``template`` and return it as sections (P-1, I-1, I-2).

    ``memory`` replaces ``{{MEMORY}}``: the service's sections (A-9), or its plain text (a
    service that sends no sections; it then counts as one ``prompt`` run). ``key_value`` replaces
    ``{{WORKSPACE_MEMORY_KEY}}``; ``extra`` maps further whole placeholders to values. Other
    ``{{…}}`` placeholders are left as written. Sections with no text are left out.
    """
    values = {**(extra or {}), KEY_PLACEHOLDER: key_value}
    names = [name for name in (MEMORY_PLACEHOLDER, *values) if name]
    memory_part = _memory_sections(memory)
    sections: list[PromptSection] = []
    at = 0
    while (found := _next_placeholder(template, names, at)) is not None:
        start, name = found
        sections.append(PromptSection(kind="template", text=template[at:start]))
        if name == MEMORY_PLACEHOLDER:
            sections += memory_part
        else:
            sections.append(PromptSection(kind="template", text=values[name]))
        at = start + len(name)
    sections.append(PromptSection(kind="template", text=template[at:]))
    return [section for section in sections if section.text]


def _next_placeholder(template: str, names: list[str], at: int) -> tuple[int, str] | None:
    """The first placeholder at or after ``at``: ``(index, name)``; at one index the first name
    listed wins (as a regex alternation of the names would). ``str.find`` rather than a regex:
    compiling one costs a hook process more than the whole substitution (H-5)."""
    best: tuple[int, str] | None = None
    for name in names:
        start = template.find(name, at)
        if start >= 0 and (best is None or start < best[0]):
            best = (start, name)
    return best


def joined(sections: Sequence[SectionLike]) -> str:
    """The text the sections make up, in order."""
    return "".join(section.text for section in sections)


def _memory_sections(memory: str | Sequence[SectionLike]) -> list[PromptSection]:
    if isinstance(memory, str):
        return [PromptSection(kind="prompt", text=memory)]
    return [
        PromptSection(kind=_kind(section.kind), text=section.text, scope=section.scope)
        for section in memory
    ]


_MEMORY_KINDS: dict[str, SectionKind] = {"prompt": "prompt", "index": "index", "note": "note"}


def _kind(kind: str) -> SectionKind:
    """A memory section's kind (A-9) as a prompt section's; ``ValueError`` for another."""
    try:
        return _MEMORY_KINDS[kind]
    except KeyError:
        raise ValueError(f"not a memory section kind: {kind!r}") from None
