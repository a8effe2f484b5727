"""P-3: a reader named by a variable is each program the variable may name; wrappers as run.

guard64 read a program named by a variable after a pipe (``| $S``) as code the guard cannot
tell whenever the stage before printed text it does not read ahead and the command set the
variable anywhere: ``PAGER=less; git log | $PAGER``, ``SORT=sort; git log --format=%an |
$SORT | uniq -c``, ``S=sort; cat a | $S | $S`` and ``for c in sort uniq; do git log
--format=%an | "$c"; done`` were refused by the Codex CLI, Claude Code and Gemini CLI hooks.
And it let through, while bash wrote into another Workspace's scope: a shell so named after a
file printer (``S=bash; cat run.txt | $S``, ``for x in bash; …``, ``c=bas; … | ${c}h``, ``sh
-c '$0' bash``), ``"$BASH"`` (bash sets it itself), wrappers the table did not read right
(``timeout infinity``, ``timeout 1e1``, ``taskset -c 0,1``, ``env -S 'bash -s'``,
``setarch``, ``prlimit``, ``setpriv``, ``strace -o F``), a quoted ``$(…)`` or backquoted
command in the stage (``echo "$(bash)"``, which inherits the pipe), and a ``)`` in a
here-document ending the list read in ``>(…)`` early. Now a variable whose every value in
the command is a literal word is that program (or those programs), each judged as the
reader; only a value the guard cannot tell (``$(…)``, ``read``, unset and not set by bash)
is code it cannot tell. Each ``>(…)``'s list is read once (linear in the words).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from harness_memory.hooks import piped_code

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
    let_through,
    refused_by_some_harness,
)

NAMED_READERS = [
    "S=bash; cat run.txt | $S",
    'for x in bash; do cat run.txt | "$x"; done',
    "c=bas; cat run.txt | ${c}h",
    "S='bash -s'; cat run.txt | $S",
    "cat run.txt | sh -c '$0' bash",
    "cat run.txt | bash -c '\"${0}\"' bash",
    'cat run.txt | "$BASH" -s',
    'tac run.txt | "$BASH" -s',
]
"""A shell named by a variable (or positional parameter) whose values the command says."""
WRAPPED = [
    "cat run.txt | timeout infinity bash",
    "cat run.txt | timeout 1e1 bash",
    "cat run.txt > >(timeout infinity bash); wait $!",
    "cat run.txt > >(taskset -c 0,1 bash); wait $!",
    "cat run.txt | env -S bash",
    "cat run.txt | env -S'bash -s'",
    "cat run.txt | env --split-string=bash",
    "cat run.txt | setarch x86_64 bash",
    "cat run.txt | prlimit --nofile=256 bash",
    "cat run.txt | setpriv bash",
    "cat run.txt | strace -o /dev/null bash",
]
"""A shell past a wrapper, its options, their arguments and its operands."""
SUBSTITUTED = [
    'cat run.txt | echo "$(bash)"',
    'cat run.txt | x="$(bash)"',
    "cat run.txt | : `bash`",
    'cat run.txt > >(echo "$(bash)"); wait $!',
    "cat run.txt > >(: <<E\n)\nE\nbash); wait $!",
]
"""A shell in a quoted command substitution inheriting the input, or after a here-document."""

EVERYDAY = [
    "PAGER=less; git log | $PAGER",
    "SORT=sort; git log --format=%an | $SORT | uniq -c",
    "S=sort; cat a | $S | $S",
    'for c in sort uniq; do git log --format=%an | "$c"; done',
    "for f in a b; do cat $f | sort -f; done",
    'S=sort; cat a | "$S" -r',
    "cat a | env -S 'sort -r'",
    "timeout 5m pytest -q",
    "timeout 1.5 git status",
    "taskset -c 0 make -v",
    'git log | grep "$(git config user.name)"',
    "ls | xargs -I{} sh -c 'echo {}'",
    "git log | ${PAGER:-less}",
]
"""Everyday commands naming a reader by a variable or through a wrapper: let through."""


@pytest.fixture
def script(where: Layout) -> Layout:
    """The layout with ``run.txt`` in the Workspace appending to another scope's note."""
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")
    return where


@pytest.mark.parametrize(
    "forms", [NAMED_READERS, WRAPPED, SUBSTITUTED], ids=["named", "wrapped", "substituted"]
)
def test_p3_a_shell_reading_a_printed_file_is_refused_by_every_harness(
    where_judged: Layout, forms: list[str]
) -> None:
    assert let_through(where_judged, forms) == {}


@pytest.mark.parametrize(
    "command",
    [
        "S=bash; cat run.txt | $S",
        'cat run.txt | "$BASH" -s',
        "cat run.txt | timeout infinity bash",
        "cat run.txt | env -S'bash -s'",
        'cat run.txt | echo "$(bash)"',
    ],
)
def test_p3_a_shell_reading_a_printed_file_writes_into_the_other_scope(
    script: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(script, command)


def test_p3_everyday_readers_named_by_a_variable_pass(where_judged: Layout) -> None:
    assert refused_by_some_harness(where_judged, EVERYDAY) == {}


class _CountingRe:
    """:mod:`re` counting the words :func:`~harness_memory.hooks.piped_code` matches."""

    def __init__(self) -> None:
        self.matches = 0

    def match(self, pattern: str, text: str, *flags: Any) -> re.Match[str] | None:
        self.matches += 1
        return re.match(pattern, text, *flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


@pytest.mark.parametrize("harness", ["codex"])
def test_p3_nested_written_substitutions_are_read_once_each(
    where_judged: Layout, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """400 ``>(cat > >(cat > …))`` cost at most ~4 times 100 of them in words matched (each
    list was read again for every ``>(`` around it: 16 times)."""
    counted = _CountingRe()
    monkeypatch.setattr(piped_code, "re", counted)
    seen = {}
    for depth in (100, 400):
        command = "cat a > " + ">(cat > " * depth + "/dev/null" + ")" * depth
        before = counted.matches
        assert answer(where_judged, harness, SHELL[harness][1], {"command": command}) is None
        seen[depth] = counted.matches - before
    assert seen[400] <= 5 * seen[100], seen
