"""P-3: a quoted word holding white space before ``.``, ``source`` or a name built at run time.

A reviewer (rv-guard60b) found an assignment whose value holds quoted white space (``A="a b" .
./g``, ``X='1 2' . ./g``, ``A=a\\ b . ./g``) hid the ``.`` after it: the definitions were read
with the quotes dropped, so ``b`` was read as the command's name. ``g`` defines ``printf`` to print
``t``, writing through ``notes``, the Workspace's link into another scope), and ``printf
"echo ok" | bash`` was let through by every harness while bash wrote into the other scope. The
words before a command's name are now read as bash splits them, quotes kept together: each form
is refused by every harness (one bash run proves the write), and everyday commands with quoted
assignments stay allowed.
"""

from __future__ import annotations

import pytest
from harness_memory.hooks.definitions import read_definitions

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

LONG = "w" * 250
"""A word inside quotes under the 256 characters read of each word before a name: two joined
by a quoted space make one of 501."""

HIDDEN = [
    'A="a b" . ./g; printf "echo ok" | bash',
    "X='1 2' . ./g; printf 'echo ok' | bash",
    'A=a\\ b . ./g; printf "echo ok" | bash',
    f'A="{LONG} {LONG}" . ./g; printf "echo ok" | bash',
    'A="a b" source ./g; printf "echo ok" | bash',
]
"""A quoted (or escaped) space in an assignment before ``.``/``source``, also joining two
words of 250 characters (past the 256 characters read of one)."""

RUN_TIME_NAMES = [
    'A="a b" $e x',
    "X='1 2' `e` x",
    f'A="{LONG} {LONG}" $e x',
    '# don\'t\nA="a b" . ./g',
    "echo $'it\\'s'; A=\"a b\" . ./g",
]
"""The same before a command whose name is built at run time (``e=.``), and after a quote
that opens nothing: one in a comment, one escaped in ANSI-C quoting."""

EVERYDAY = [
    'A="a b" make',
    'FOO="x y" python3 -m pytest -q',
    'GIT_AUTHOR_NAME="A B" git commit -m "m"',
    'git commit -m "fix: run . ./env.sh first"',
    "echo 'a b' > notes.txt",
    'LANG="en_US.UTF-8" . ./env.sh; make',
]
"""Quoted white space in assignments and operands before an ordinary command's name, and a
harmless file sourced after one."""


@pytest.fixture
def defining(where: Layout) -> Layout:
    """``g`` defines ``printf`` to print ``t``, which writes through ``notes``; ``env.sh``
    only sets a variable."""
    files = {"g": "printf(){ cat t; }", "t": "echo hi > notes/x.md", "env.sh": "export FOO=bar"}
    for name, text in files.items():
        (where.workspace / name).write_text(f"{text}\n", encoding="utf-8")
    return where


def test_p3_a_quoted_space_before_a_dot_hides_no_definition(defining: Layout) -> None:
    assert_each_refused_by_every_harness(
        defining, [fill(command, defining) for command in HIDDEN], "Agent Memory write guard: "
    )


def test_p3_bash_sources_the_file_after_a_quoted_assignment(defining: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(defining, HIDDEN[0])


def test_p3_a_quoted_space_before_a_name_built_at_run_time_is_read() -> None:
    assert [text[:20] for text in RUN_TIME_NAMES if not read_definitions(text).lookup] == []


def test_p3_quoted_assignments_before_ordinary_commands_stay_allowed(defining: Layout) -> None:
    allowed = {
        command: refusals_by_every_harness(defining, fill(command, defining))
        for command in EVERYDAY
    }

    refused = {command: seen for command, seen in allowed.items() if set(seen.values()) != {None}}
    assert refused == {}
