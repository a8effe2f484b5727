"""Where a shell's code comes from and which words it is given (P-3), read from the words after
the shell's name as bash reads its options.

``bash -o errexit -c '"$@"' _ cp x y`` runs the code ``"$@"`` with ``$0`` ``_`` and the
positional parameters ``cp x y``: ``-o``/``-O`` (and ``+o``/``+O``, in a bundle too) and
``--rcfile``/``--init-file`` take the next word, so the code is not always the first word after
the options. :func:`shell_run` says which word is the ``-c`` code, or that the code comes from
standard input (``-s``, no operand, ``/dev/stdin``) or a script file, and the words it is given.

Why not :func:`~harness_memory.hooks.option_words.read_options`, the reader of every other
program's options: bash's grammar is not getopt's, and a table of that reader cannot say so
without four switches only this caller would use (measured on bash 5.2 and dash 0.5):

- a ``+`` starts options as ``-`` does (``bash +o posix -c CODE``, ``+e``); that reader takes
  ``+o`` for an operand, so ``posix`` would be the code;
- a letter taking a value takes the next word, never the rest of its bundle, and several in a
  bundle take the following words in turn (``bash -oe pipefail -c CODE``: ``o`` takes
  ``pipefail``, ``e`` is a flag; ``-oO pipefail extglob``); that reader gives ``o`` the value
  ``e`` and would read ``pipefail`` as the code;
- a lone ``-`` ends the options as ``--`` does (``bash - -c x``: ``-c`` is the script's
  name); to that reader it is an operand;
- a long option is a whole name, never shortened nor given ``=value`` (``--rcf``,
  ``--rcfile=x``: bash refuses both and runs nothing); that reader takes both.

Each is a case the guard would lose (code read as a word, a script read as code), so this loop
stays the one reader of a shell's options (``tests/plugin/test_p3_shell_operands.py``).

Linear in the words.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["STDIN_SCRIPTS", "ShellRun", "shell_run"]

STDIN_SCRIPTS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
"""Script names that are the shell's standard input (``bash /dev/stdin``, ``source /dev/stdin``)."""
_SHORT_TAKING = "oO"
"""Short options taking the next word (``-o errexit``, ``-O extglob``, ``+o posix``)."""
_LONG_TAKING = frozenset({"--rcfile", "--init-file"})
"""Long options taking the next word (``--rcfile /dev/null``)."""


class ShellRun(NamedTuple):
    """How a shell run with some words gets its code: ``code``, the index of its ``-c`` code
    among the words (None when there is none); ``script``, the index of the script file it
    runs; ``stdin``, whether it reads its code from standard input; ``given``, the words after
    the code or script (for ``-c``, ``$0`` first), its positional parameters."""

    code: int | None
    script: int | None
    stdin: bool
    given: list[str]


def shell_run(words: list[str]) -> ShellRun:
    """How a shell (``bash``, ``sh``, ``dash``…) run with ``words`` (those after its name, as
    the lexer leaves them) gets its code and its positional parameters."""
    at, command, stdin = _past_options(words)
    rest = words[at:]
    if command:
        return ShellRun(at if rest else None, None, False, rest[1:])
    if stdin or not rest:
        return ShellRun(None, None, True, rest)
    return ShellRun(None, at, rest[0] in STDIN_SCRIPTS, rest[1:])


def _past_options(words: list[str]) -> tuple[int, bool, bool]:
    """The index of the first word after a shell's options among ``words``, with whether they
    hold ``-c`` and ``-s``."""
    at, command, stdin = 0, False, False
    while at < len(words):
        word = words[at]
        if word in ("--", "-"):
            return at + 1, command, stdin  # ``-`` is ``--`` to bash
        if word.startswith("--"):
            at += 2 if word in _LONG_TAKING else 1
        elif word[:1] in ("-", "+") and len(word) > 1:
            letters = word[1:]
            command = command or "c" in letters
            stdin = stdin or "s" in letters
            at += 1 + sum(letters.count(letter) for letter in _SHORT_TAKING)
        else:
            break
    return at, command, stdin
