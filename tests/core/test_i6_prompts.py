"""I-6: the default prompts — static Markdown under headings, exactly one placeholder each."""

from __future__ import annotations

import re

import pytest
from memory_core.injection import INDEX_PLACEHOLDER, USER_INDEX_PLACEHOLDER
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.rules import placeholder_problem
from memory_core.template import KEY_PLACEHOLDER, MEMORY_PLACEHOLDER

PLACEHOLDER_RE = re.compile(r"\{\{[A-Z_]+\}\}")


@pytest.mark.parametrize(
    ("prompt", "placeholder"),
    [
        (DEFAULT_MEMORY_PROMPT, USER_INDEX_PLACEHOLDER),
        (DEFAULT_WORKSPACE_PROMPT, INDEX_PLACEHOLDER),
    ],
)
def test_i6_exactly_one_placeholder_each_and_it_comes_last(prompt: str, placeholder: str) -> None:
    assert PLACEHOLDER_RE.findall(prompt) == [placeholder]
    assert prompt.rstrip().endswith(placeholder)
    assert MEMORY_PLACEHOLDER not in prompt
    assert KEY_PLACEHOLDER not in prompt
    assert placeholder_problem(prompt, placeholder) is None  # I-1: a default is always savable


@pytest.mark.parametrize("prompt", [DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT])
def test_i6_the_character_backstop_lives_only_in_code(prompt: str) -> None:
    assert "25,000" not in prompt
    assert "25000" not in prompt
    assert "25 000" not in prompt


def _headings(prompt: str) -> list[str]:
    inside_fence = False
    headings = []
    for line in prompt.splitlines():
        if line.startswith("```"):
            inside_fence = not inside_fence
        elif not inside_fence and line.startswith("#"):
            headings.append(line)
    return headings


def test_i6_memory_prompt_structure() -> None:
    assert _headings(DEFAULT_MEMORY_PROMPT) == [
        "# Memory",
        "## How to save a memory",
        "## What is worth saving",
        "## What never to save",
        "## The index",
        "## Hygiene",
        "## User memory",
    ]


def test_i6_memory_prompt_content() -> None:
    text = DEFAULT_MEMORY_PROMPT
    assert "not context compaction" in text
    # a fenced frontmatter example with the three fields
    example = text.split("```markdown\n", 1)[1].split("```\n", 1)[0]
    assert example.startswith("---\nname: ")
    assert "\ndescription: " in example
    assert "\nupdated_at: " in example
    assert "Why:" in example
    assert "How to apply:" in example
    assert "[[" in example
    for must in [
        "Credentials",
        "passwords",
        "Sensitive personal data",
        "One line per memory",
        "relative to the scope",
        "~150 characters",
        "200 lines",
        "update it rather than",
        "fix it or delete it",
        "`Why:`",
        "`How to apply:`",
        "`[[name]]`",
        "may be stale",
        "still exists",
    ]:
        assert must in text, must
    user_section = text.split("## User memory", 1)[1]
    assert "Directory: <app_data_dir>/agents/<agent_id>/agent_state/memory/user\n" in user_section
    assert user_section.index("Directory:") < user_section.index(USER_INDEX_PLACEHOLDER)


def test_i6_workspace_prompt_content() -> None:
    text = DEFAULT_WORKSPACE_PROMPT
    assert _headings(text) == ["## Workspace memory"]
    assert (
        "Directory: <app_data_dir>/agents/<agent_id>/agent_state/memory/<workspace_memory_key>\n"
        in text
    )
    assert "Choosing a scope" in text
    assert "user memory" in text
    assert text.index("Directory:") < text.index("Choosing a scope") < text.index(INDEX_PLACEHOLDER)
