"""I-1: a template's ``{{NAME}}`` written for ``{{MEMORY}}`` or ``{{WORKSPACE_MEMORY_KEY}}`` but
not as it is (a typo, a look-alike letter) is a misspelt memory placeholder, named with the
placeholder it was meant for; the names of other things, however close, are the harness's.

Before, a name was a typo when difflib found it 0.8 alike, which hangs on its length: the real
names ``{{MEMO}}``, ``{{memo}}``, ``{{MEMOIR}}`` and ``{{WORKSPACE_SECRET_KEY}}`` were refused,
full-width or Cyrillic ``МЕМORY`` passed, and a 1 MiB template took difflib once per ``{{…}}``.
"""

from __future__ import annotations

import pytest
from memory_core import placeholder_typos
from memory_core.rules import template_placeholder_problem

ALLOWED = [
    "MEMO",
    "memo",
    "MEMOIR",
    "MEMBER",
    "MEMORIES",
    "WORKSPACE_KEY",
    "WORKSPACE_SECRET_KEY",
    "WORKSPACE_PRIMARY_KEY",
    "WORKSPACE_HISTORY_KEY",
    "WORKSPACE_MEMORY_URL",
    "WORKSPACE_MEMORY_TOKEN",
    "WORKSPACE_MEMORY_NAME",
    "CWD",
    "AGENT_ID",
    "APP_DATA_DIR",
]
MEMORY = "{{MEMORY}}"
KEY = "{{WORKSPACE_MEMORY_KEY}}"
MISSPELT = {
    "MEMROY": MEMORY,  # two neighbours swapped
    "MEM0RY": MEMORY,  # a zero for the O
    "MEMOY": MEMORY,  # a letter dropped
    "MEMORYY": MEMORY,  # a letter doubled
    "M\u0415MORY": MEMORY,  # a Cyrillic Е
    "\u041c\u0415\u041cORY": MEMORY,  # Cyrillic М, Е, М
    "M\u0415M\u041eRY": MEMORY,  # Cyrillic Е and О
    "\uff2d\uff25\uff2d\uff2f\uff32\uff39": MEMORY,  # full-width
    "\U0001d40c\U0001d404\U0001d40c\U0001d40e\U0001d411\U0001d418": MEMORY,  # mathematical bold
    "WORKSPACE_MEMROY_KEY": KEY,
    "WORKSPACE_MEMORY_KYE": KEY,
    "WORKSPACEMEMORY_KEY": KEY,  # a separator dropped
    "W\u041eRKSPACE_MEMORY_KEY": KEY,  # a Cyrillic О
}


@pytest.mark.parametrize("name", ALLOWED)
def test_a_name_other_than_a_memory_placeholder_is_the_harnesss(name: str) -> None:
    assert template_placeholder_problem(f"{{{{MEMORY}}}}\n- {name}: {{{{{name}}}}}\n") is None


@pytest.mark.parametrize("name", list(MISSPELT))
def test_a_misspelt_memory_placeholder_is_named_with_the_one_it_was_meant_for(name: str) -> None:
    written = f"{{{{{name}}}}}"

    problem = template_placeholder_problem(f"{{{{MEMORY}}}}\n{written}\n")

    assert problem == (
        f"it holds {written!r} (a typo of {MISSPELT[name]}?), which nothing fills in: it would "
        "reach the model as written"
    )


def test_a_memory_placeholder_written_with_spaces_is_named_with_the_one_it_was_meant_for() -> None:
    assert template_placeholder_problem("{{ MEMORY }}\n") == (
        "it holds '{{ MEMORY }}' (a typo of {{MEMORY}}?), which nothing fills in: it would "
        "reach the model as written"
    )


def test_a_full_size_template_folds_each_distinct_name_once_and_compares_none_far_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1 MiB template of ``{{…}}`` (one misspelt name 40,000 times, and some 45,000 distinct
    names far longer than either placeholder's) folds the misspelt name once and compares it
    with the two placeholders at most: the work is the template's distinct names of a near
    length, never one comparison per ``{{…}}`` (counted, not timed)."""
    folded: list[str] = []
    compared: list[tuple[str, str]] = []
    fold, within = placeholder_typos.fold_name, placeholder_typos.within_one_edit

    def counted_fold(name: str) -> str:
        folded.append(name)
        return fold(name)

    def counted_within(a: str, b: str) -> bool:
        compared.append((a, b))
        return within(a, b)

    monkeypatch.setattr(placeholder_typos, "fold_name", counted_fold)
    monkeypatch.setattr(placeholder_typos, "within_one_edit", counted_within)
    template = "{{MEMORY}}\n" + "{{MEMROY}} " * 40_000
    template += "".join(f"{{{{NAME_{i:07d}}}}}" for i in range(45_000))
    assert len(template) > 1024 * 1024

    problem = template_placeholder_problem(template)

    assert problem is not None and "'{{MEMROY}}' (a typo of {{MEMORY}}?)" in problem
    assert folded == ["MEMROY"]
    assert len(compared) <= 2


@pytest.mark.parametrize(
    "written", ["{{MEMORY_USER_INDEX}}", "{{MEMORY_INDEX2}}", "{{ user-index }}", "{{INDEX}}"]
)
def test_a_name_of_memorys_placeholder_words_only_is_written_for_memory(written: str) -> None:
    """Memory's words compared as folded (an ``I`` is drawn as ``l``), so ``INDEX2`` is one edit
    from ``INDEX``: these are index placeholders nothing fills in within a template."""
    assert template_placeholder_problem(f"{{{{MEMORY}}}}\n{written}\n") == (
        f"it holds {written!r}, which nothing fills in: it would reach the model as written"
    )


@pytest.mark.parametrize(
    ("template", "found"),
    [
        ("Be kind.\n{{MEMORY\n\n# Environment\n", "'{{MEMORY' on line 2 (meant for {{MEMORY}}?)"),
        ("{{MEMORY}}\n- Key: {{WORKSPACE_MEMORY_KEY\n", "'{{WORKSPACE_MEMORY_KEY' on line 2"),
        ("{{MEMORY}}\n- {{MEMROY and more\n", "'{{MEMROY' on line 2 (meant for {{MEMORY}}?)"),
        ("{{MEMORY}}\n\n{{ memory_user_index", "'{{ memory_user_index' on line 3"),
        ("\uff5b\uff5bMEMORY\n", "'\uff5b\uff5bMEMORY' on line 1"),  # full-width braces
        ("{{MEMORY}}\n{{MEMORY {{CWD}}\n", "'{{MEMORY' on line 2"),
    ],
)
def test_a_memory_placeholder_never_closed_is_named_with_its_line(
    template: str, found: str
) -> None:
    """``{{MEMORY`` without its ``}}`` is a placeholder nothing fills in: it reached the model as
    written (and injected no memory) and was saved silently. It is named, with its line, the
    placeholder it was meant for, and what to do."""
    problem = template_placeholder_problem(template)

    assert problem is not None and found in problem, problem
    assert "is never closed" in problem and "it would reach the model as written" in problem


@pytest.mark.parametrize(
    "template",
    ["{{MEMORY}}\n- CWD: {{CWD\n", "{{MEMORY}}\n{{memo\n", "{{MEMORY}}\nuse {{ for sets\n"],
)
def test_a_harness_name_never_closed_stays_the_harnesss(template: str) -> None:
    assert template_placeholder_problem(template) is None
