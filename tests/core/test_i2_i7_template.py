"""I-2, I-5, I-7, P-1: the template's placeholders — insert, key line value, substitution."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from memory_core.template import (
    KEY_LINE,
    KEY_PLACEHOLDER,
    MEMORY_PLACEHOLDER,
    OFF_KEY_VALUE,
    TEMPORARY_KEY_VALUE,
    environment_section,
    has_memory_placeholder,
    insert_placeholder,
    key_line_value,
    substitute,
)

K = KEY_LINE
M = MEMORY_PLACEHOLDER

# (template before, template after) — I-7
INSERT_CASES = [
    pytest.param(
        "You are a coding agent.\n\n# Environment\n- CWD: {{CWD}}\n",
        f"You are a coding agent.\n\n{M}\n\n# Environment\n{K}\n- CWD: {{{{CWD}}}}\n",
        id="heading-with-list",
    ),
    pytest.param(
        "Intro\n# Environment\n- CWD: {{CWD}}\n",
        f"Intro\n\n{M}\n\n# Environment\n{K}\n- CWD: {{{{CWD}}}}\n",
        id="heading-right-after-text",
    ),
    pytest.param(
        "# Environment\n\n- CWD: {{CWD}}\n",
        f"{M}\n\n# Environment\n\n{K}\n- CWD: {{{{CWD}}}}\n",
        id="blank-line-then-list-joins-the-list",
    ),
    pytest.param(
        "# Environment\nYou run on Linux.\n",
        f"{M}\n\n# Environment\n{K}\nYou run on Linux.\n",
        id="heading-then-prose",
    ),
    pytest.param(
        "# Environment",
        f"{M}\n\n# Environment\n{K}\n",
        id="heading-last-without-newline",
    ),
    pytest.param(
        "You are helpful.\n",
        f"You are helpful.\n\n{M}\n\n# Environment\n{K}\n",
        id="no-heading-appends-section",
    ),
    pytest.param(
        "You are helpful.",
        f"You are helpful.\n\n{M}\n\n# Environment\n{K}\n",
        id="no-heading-no-final-newline",
    ),
    pytest.param("", f"{M}\n\n# Environment\n{K}\n", id="empty-template"),
    pytest.param(
        f"Intro\n\n{M}\n\n# Environment\n- CWD: x\n",
        f"Intro\n\n{M}\n\n# Environment\n{K}\n- CWD: x\n",
        id="memory-present-key-missing",
    ),
    pytest.param(
        f"Intro\n\n# Environment\n{K}\n- CWD: x\n",
        f"Intro\n\n{M}\n\n# Environment\n{K}\n- CWD: x\n",
        id="key-present-memory-missing",
    ),
    pytest.param(
        f"{M}\nIntro\n",
        f"{M}\nIntro\n\n# Environment\n{K}\n",
        id="memory-present-no-heading",
    ),
    pytest.param(
        f"Intro\n- Workspace Memory Key: {KEY_PLACEHOLDER}\n",
        f"Intro\n- Workspace Memory Key: {KEY_PLACEHOLDER}\n\n{M}\n",
        id="key-present-no-heading",
    ),
    pytest.param(
        "Intro\r\n\r\n# Environment\r\n- CWD: x\r\n",
        f"Intro\r\n\r\n{M}\r\n\r\n# Environment\r\n{K}\r\n- CWD: x\r\n",
        id="crlf-template-keeps-crlf",
    ),
    pytest.param(
        "Setup:\n```sh\n# Environment\nexport X=1\n```\n\n## Environment\n- CWD: x\n",
        f"Setup:\n```sh\n# Environment\nexport X=1\n```\n\n{M}\n\n## Environment\n{K}\n- CWD: x\n",
        id="heading-inside-code-fence-is-not-the-heading",
    ),
    pytest.param(
        "# Environment\n- a\n\n# Environment\n- b\n",
        f"{M}\n\n# Environment\n{K}\n- a\n\n# Environment\n- b\n",
        id="first-heading-only",
    ),
]


@pytest.mark.parametrize(("before", "after"), INSERT_CASES)
def test_i7_insert_placeholder(before: str, after: str) -> None:
    result, changed = insert_placeholder(before)
    assert result == after
    assert changed
    again, changed_again = insert_placeholder(result)
    assert again == result
    assert not changed_again


def test_i7_template_with_both_is_unchanged() -> None:
    template = f"Intro\n{M}\n# Environment\n{K}\n"
    assert insert_placeholder(template) == (template, False)


def test_i7_key_placeholder_elsewhere_is_not_duplicated() -> None:
    template = f"Key is {KEY_PLACEHOLDER}.\n\n# Environment\n- CWD: x\n"
    result, changed = insert_placeholder(template)
    assert changed
    assert result.count(KEY_PLACEHOLDER) == 1
    assert result.count(M) == 1


@given(st.text(max_size=300))
def test_i7_insert_is_idempotent_never_duplicates_and_only_adds_lines(template: str) -> None:
    result, _ = insert_placeholder(template)
    assert result.count(M) == max(1, template.count(M))
    assert result.count(KEY_PLACEHOLDER) == max(1, template.count(KEY_PLACEHOLDER))
    assert insert_placeholder(result) == (result, False)
    # nothing is changed or removed: the old lines are a subsequence of the new ones
    remaining = iter(line.removesuffix("\r") for line in result.split("\n"))
    assert all(line.removesuffix("\r") in remaining for line in template.split("\n"))


def test_i5_has_memory_placeholder() -> None:
    assert has_memory_placeholder(f"a {M} b")
    assert not has_memory_placeholder("a {{MEMORY_INDEX}} {{MEMORY_USER_INDEX}} b")
    assert not has_memory_placeholder("")


@pytest.mark.parametrize(
    ("kind", "key", "expected"),
    [
        ("persistent", "my-app-a81f32c4", "my-app-a81f32c4"),
        ("temporary", None, "(none — temporary workspace)"),
        ("off", None, "(none — memory is off)"),
        ("off", "my-app-a81f32c4", "(none — memory is off)"),
    ],
)
def test_i2_key_line_value(kind: str, key: str | None, expected: str) -> None:
    assert key_line_value(kind, key) == expected  # type: ignore[arg-type]


def test_i2_values_are_exact_with_em_dash() -> None:
    assert TEMPORARY_KEY_VALUE == "(none \u2014 temporary workspace)"
    assert OFF_KEY_VALUE == "(none \u2014 memory is off)"


def test_i2_persistent_needs_a_key() -> None:
    with pytest.raises(ValueError, match="key"):
        key_line_value("persistent", None)


def test_p1_substitute_replaces_both_and_leaves_others() -> None:
    template = f"Intro\n{M}\n# Environment\n{K}\n- CWD: {{{{CWD}}}}\n"
    result = substitute(template, "MEMORY TEXT", "my-app-a81f32c4")
    assert (
        result
        == "Intro\nMEMORY TEXT\n# Environment\n- Workspace Memory Key: my-app-a81f32c4\n"
        + ("- CWD: {{CWD}}\n")
    )


def test_p1_substitute_is_one_pass() -> None:
    memory = f"an index that mentions {KEY_PLACEHOLDER} and {M}"
    result = substitute(f"{M}|{KEY_PLACEHOLDER}", memory, "k-00000000")
    assert result == f"{memory}|k-00000000"


def test_i5_memory_off_expands_to_nothing() -> None:
    assert substitute(f"a\n{M}\nb {KEY_PLACEHOLDER}", "", OFF_KEY_VALUE) == (
        "a\n\nb (none — memory is off)"
    )


@pytest.mark.parametrize("underline", ["=====", "-----", "  ===  "])
def test_a1_the_environment_section_ends_at_a_setext_heading_too(underline: str) -> None:
    """``Notes`` over an ``=``/``-`` underline is a heading as ``## Notes`` is: its text, its
    underline and what follows are the user's notes, never the Environment section's lines."""
    lines = ["# Environment", "- CWD: x", "", "Notes", "on two lines", underline, "- CWD: y"]
    assert environment_section(lines) == [1, 2]


def test_a1_a_list_item_or_a_rule_over_dashes_is_no_setext_heading() -> None:
    """``- CWD: x`` then ``-----`` is a list then a thematic break, as CommonMark reads it."""
    lines = ["# Environment", "- CWD: x", "-----", "- CWD: y", "", "---", "- CWD: z"]
    assert environment_section(lines) == [1, 2, 3, 4, 5, 6]
