"""I-1: a prompt's index placeholder is refused only where a reader never sees it rendered:
inside a real HTML comment (as CommonMark reads one: an HTML block opened by ``<!--`` at a
line's start, or a complete inline comment) or a code block. A ``<!--`` in a code span,
escaped, or never closed inside a paragraph is text a reader sees, and the prompt is fine."""

from __future__ import annotations

import pytest
from memory_core.placeholder_sight import placeholder_out_of_sight

X = "{{MEMORY_USER_INDEX}}"


@pytest.mark.parametrize(
    "prompt",
    [
        f"# M\nNever write `<!--` in a memory.\n{X}\n",
        f"# M\nNo \\<!-- comments.\n{X}\n",
        f"# M\n<!-->\n{X}\n",  # a complete empty comment
        f"# M\n<!--->\n{X}\n",
        f"# M\na <!-- never closed in its paragraph\n\n{X}\n",
        f"# M\n<!-- note -->\n{X}\n",
        f"# M\n{X} <!-- after it -->\n",
        f"# M\nsee ``a <!-- b`` and {X} -->\n",
        f"```\n<!--\n```\n{X}\n",
    ],
)
def test_i1_a_placeholder_a_reader_sees_is_not_refused(prompt: str) -> None:
    assert placeholder_out_of_sight(prompt, X) is None


@pytest.mark.parametrize(
    ("prompt", "line"),
    [
        (f"# M\n<!-- {X} -->\n", 2),
        (f"<!-- notes\n# M\n{X}\n", 1),  # an HTML block never closed runs to the end
        (f"# M\n  <!--\n{X}\n-->\n", 2),
        (f"# M\ntext <!-- inline\n{X} -->\n", 2),  # an inline comment across lines
        (f"# M\n`a` <!-- {X} --> b\n", 2),
    ],
)
def test_i1_a_placeholder_in_a_real_comment_is_refused(prompt: str, line: int) -> None:
    problem = placeholder_out_of_sight(prompt, X)
    assert problem is not None
    assert problem.startswith(f"it holds {X} inside an HTML comment opened on line {line}:")
