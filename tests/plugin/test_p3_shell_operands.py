"""P-3: where a shell's code comes from, read from its words as bash reads its own options.

Each reading below is bash 5.2's, measured (``bash -oe pipefail -c 'echo $-'`` runs the code
with ``pipefail`` set, ``bash - -c x`` runs a script named ``-c``); read the getopt way
(:func:`~harness_memory.hooks.option_words.read_options`) the code would be another word, so
:func:`~harness_memory.hooks.shell_operands.shell_run` reads them itself (its docstring says
why one reader cannot serve both).
"""

from __future__ import annotations

import pytest
from harness_memory.hooks.shell_operands import ShellRun, shell_run

READINGS = [
    (["-c", "CODE", "zero", "one"], ShellRun(1, None, False, ["zero", "one"])),
    (["-oe", "pipefail", "-c", "CODE"], ShellRun(3, None, False, [])),
    (["-eo", "pipefail", "-c", "CODE"], ShellRun(3, None, False, [])),
    (["-oO", "pipefail", "extglob", "-c", "CODE"], ShellRun(4, None, False, [])),
    (["+o", "posix", "-c", "CODE", "zero"], ShellRun(3, None, False, ["zero"])),
    (["+eO", "extglob", "-c", "CODE"], ShellRun(3, None, False, [])),
    (["-c", "-e", "CODE"], ShellRun(2, None, False, [])),
    (["-", "-c", "x"], ShellRun(None, 1, False, ["x"])),
    (["--", "script.sh", "a"], ShellRun(None, 1, False, ["a"])),
    (["--rcfile", "/dev/null", "-c", "CODE"], ShellRun(3, None, False, [])),
    (["-s", "a", "b"], ShellRun(None, None, True, ["a", "b"])),
    ([], ShellRun(None, None, True, [])),
    (["/dev/stdin", "a"], ShellRun(None, 0, True, ["a"])),
]
"""A shell's words after its name, and how it runs: the index of its ``-c`` code, of its
script, whether it reads its code from standard input, and its positional parameters."""


@pytest.mark.parametrize(("words", "run"), READINGS)
def test_p3_a_shell_s_code_and_parameters_are_read_as_bash_reads_its_options(
    words: list[str], run: ShellRun
) -> None:
    assert shell_run(words) == run
