"""I-1, A-9: the memory text as sections that join to exactly what ``{{MEMORY}}`` expands to."""

from __future__ import annotations

import pytest
from memory_core.injection import (
    INDEX_PLACEHOLDER,
    USER_INDEX_PLACEHOLDER,
    build_memory_text,
    cap_indexes,
    memory_sections,
    truncation_note,
)
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT

KEY = "shop-api-a81f32c4"
LINES = "".join(f"- [Note {n}](note-{n}.md) — a note {n}\n" for n in range(230))


def _placed(prompt: str, placeholder: str, index: str) -> str:
    """A prompt with its index exactly once: at the first placeholder (the others dropped), or
    after the prompt and a blank line when it holds none (I-1)."""
    if placeholder not in prompt:
        return prompt.rstrip("\n") + "\n\n" + index
    head, _, tail = prompt.partition(placeholder)
    return head + index + tail.replace(placeholder, "")


def reference_memory_text(
    prompt: str, workspace_prompt: str, user: str, workspace: str | None
) -> str:
    """I-1 as stated: each prompt with its index placed, stripped; joined by a blank line."""
    parts = [_placed(prompt, USER_INDEX_PLACEHOLDER, user).strip("\n")]
    if workspace is not None:
        parts.append(_placed(workspace_prompt, INDEX_PLACEHOLDER, workspace).strip("\n"))
    return "\n\n".join(part for part in parts if part)


@pytest.mark.parametrize(
    ("prompt", "workspace_prompt", "user", "workspace"),
    [
        (DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, LINES, "- [Deploy](deploy.md)\n"),
        (DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, None, ""),
        ("{{MEMORY_USER_INDEX}}", "\n\n{{MEMORY_INDEX}}\n\n", "\n\n- a\n\n", "\n- b\n"),
        ("A {{MEMORY_USER_INDEX}} B {{MEMORY_USER_INDEX}}", "", "- a\n- b\n", None),
        ("no placeholder", "{{MEMORY_USER_INDEX}} stays", LINES, LINES),
    ],
)
def test_i1_sections_join_to_the_memory_text(
    prompt: str, workspace_prompt: str, user: str | None, workspace: str | None
) -> None:
    key = KEY if workspace is not None else None
    capped = cap_indexes(user, workspace, workspace_key=key)
    ws = capped[1] if len(capped) > 1 else None
    sections = memory_sections(prompt, workspace_prompt, capped[0], ws)
    text = build_memory_text(prompt, workspace_prompt, capped[0], ws)
    assert "".join(section.text for section in sections) == text
    assert text == reference_memory_text(
        prompt, workspace_prompt, capped[0].text, None if ws is None else ws.text
    )
    assert all(section.text for section in sections)


def test_i4_index_and_note_sections_name_their_scope() -> None:
    capped = cap_indexes(LINES, None, workspace_key=KEY)
    sections = memory_sections(DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, *capped)
    index = [s for s in sections if s.kind == "index"]
    notes = [s for s in sections if s.kind == "note"]
    assert [(s.scope, s.text.count("\n") + 1) for s in index] == [("user", 200)]
    assert [s.scope for s in notes] == ["user", KEY]  # the cut note, the "nothing saved" note
    assert notes[0].text == "\n\n" + truncation_note("user", 30, 230, "lines")


def test_h1_a_harness_limit_joins_the_note() -> None:
    note = truncation_note(
        "user", 40, 230, "lines", harness_limit="a harness limit", harness_left_out=10
    )
    assert "40 lines were left out because of the 200-line cap and a harness limit." in note
    only = truncation_note(
        "user", 10, 230, "none", harness_limit="a harness limit", harness_left_out=10
    )
    assert "10 lines were left out because of a harness limit." in only
