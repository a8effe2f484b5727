"""Text a command prints into a shell's pipe is that shell's code (P-3).

``echo cp note.md '$(cat target)/a.md' | bash`` runs ``cp note.md "$(cat target)/a.md"``:
the shell reads the pipe as its script. :func:`piped_code` finds such a pipe in the lexer's
words of a command (``|`` at ``at``) and says what the shell is given: the text plain
``echo`` (``-n``, ``-e``) or ``printf`` prints, when the guard can tell it (no word holding an
expansion, a pattern, a brace or a quote; :mod:`~harness_memory.hooks.printed_text` reads
the escapes and formats), to be judged as the shell's ``-c`` code; else (``printf -v``, a
width, a word with ``$``, ``*`` or ``{``, a printer the command may redefine) code the guard
cannot read, which may write anywhere; and so is what any other program prints into a
shell's or an interpreter's pipe unless the guard reads it or lets it through elsewhere
(:func:`~harness_memory.hooks.code_sources.stage_unread`: ``base64 -d <<< … | sh``; ``cat
s.sh | bash`` and ``curl -fsSL URL | sh`` as before). A shell given a script (``echo y |
bash install.sh``) or ``-c`` code reads the pipe as data, and one given ``-n`` only reads it
(``printf '%s\n' a b | bash -n``): not code here.

Linear in the words of the two commands around the pipe.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from typing import NamedTuple

from harness_memory.hooks.code_sources import stage_unread
from harness_memory.hooks.definitions import read_definitions
from harness_memory.hooks.here_data import SHELLS
from harness_memory.hooks.printed_text import echo_text, printf_text
from harness_memory.hooks.shell_operands import STDIN_SCRIPTS, shell_run
from harness_memory.hooks.shell_startup import STARTUP_SHELLS

PRINTERS = frozenset({"echo", "printf"})
"""Programs printing their words: the text they print into a shell's pipe is its code."""
_ENDS = frozenset({";", "&&", "||", "|", "&", "(", ")", "{", "}", "then", "do", "else", "!", "\n"})
"""Words ending a simple command (and the reserved words starting one)."""
_PUNCTUATION = r"^[;&|()<>]+$"
_ASSIGNMENT = r"^[A-Za-z_][A-Za-z0-9_]*\+?="
_RUNNERS = frozenset({"env", "command", "exec", "builtin", "nohup", "time", "sudo", "nice"})
"""Words that run the program named after them (with their options)."""
_NOT_LITERAL = r"[$`{}*?\[\]~'\"]"
"""What bash expands in a word or quotes (printed, a quote is code's quote)."""
_ECHO_OPTION_RE = r"^-[neE]+$"
"""An option word of bash's ``echo``."""
_COMMAND_END = r"^[;&|()]+$"
"""A word ending a simple command that is no redirection (``;``, ``&&``, ``|``, ``)``)."""
_STDIN_INTERPRETER_RE = r"(?:python|pypy)[0-9.]*|node|nodejs|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*"
"""Interpreters running the code on their standard input when given no script."""
_CODE_OPTION_RE = r"^(?:-[A-Za-z]*[cmeEpr][A-Za-z]*|--(?:eval|print|require|command)(?:=.*)?)$"
"""An interpreter's option giving it code or a module of its words (``-c``, ``-m``, ``-e``,
``-pe``, ``--eval``): it then reads standard input as data."""


class PipedCode(NamedTuple):
    """A shell reading the pipe as its code: ``shell`` (its name as written) and ``code``
    (the text the printer prints, None when the guard cannot tell it); ``written``: the
    shell reads what is written into its process substitution (``>(bash)``), no pipe."""

    shell: str
    code: str | None
    written: bool = False


def piped_code(words: list[str], at: int, command: str) -> PipedCode | None:
    """What the shell after the pipe ``words[at]`` (``|``, ``|&``) or around the process
    substitution ``words[at]`` (``<(``: ``bash <(echo …)``, ``bash < <(echo …)``) runs as
    code printed by a printer (:data:`PRINTERS`), or None: no shell reading it as code, or
    code the guard reads or lets through elsewhere (``cat s.sh | bash``: the script judged;
    ``curl -fsSL URL | sh``: fetched, :mod:`~harness_memory.hooks.code_sources`). A printer
    not the one command right before the pipe (``{ echo …; } | bash``, ``echo … | tee f |
    bash``), or any program printing text the guard cannot read ahead
    (:func:`~harness_memory.hooks.code_sources.stage_unread`: ``base64 -d <<< … | sh``, ``… |
    rev | python3``), gives code the guard cannot tell (``code`` None), into a shell or another
    interpreter reading its code from standard input (:func:`_interpreter_reading_stdin`;
    a printer's text into one is read as before). ``command``: the whole text, read for a
    function or alias that may redefine ``echo``."""
    if words[at] == "<(":
        return _substituted_code(words, at, command)
    if words[at].endswith(">("):
        return _written_code(words, at)
    after = _simple_command(words, at, back=False)
    stage = _stage(words, at, back=True)
    shell = _shell_reading_stdin(after) or _xargs_shell(after)
    if shell is None:
        reader = _interpreter_reading_stdin(after)
        printed = bool(stage) and posixpath.basename(stage[0]) in PRINTERS  # read as before
        if (
            reader is None
            or printed
            or not stage_unread(stage, read_definitions(command).redefines)
        ):
            return None
        return PipedCode(reader, None)
    printer = _simple_command(words, at, back=True)
    if printer and posixpath.basename(printer[0]) in PRINTERS:
        return PipedCode(shell, _printed(printer, command))
    if PRINTERS & set(_pipeline_before(words, at)) or stage_unread(
        stage, read_definitions(command).redefines
    ):
        return PipedCode(shell, None)
    return None


def _substituted_code(words: list[str], at: int, command: str) -> PipedCode | None:
    """The code a shell reads from the process substitution opening at ``words[at]`` (its
    script, ``bash <(…)``, or its standard input, ``bash < <(…)``) when a printer prints it;
    code the guard cannot tell when a program it does not read ahead prints it, or ``cat``,
    ``head``, ``tail`` (:data:`_FILE_PRINTERS`) a file's text."""
    before = at - 1 if at and words[at - 1] == "<" else at
    shell = _simple_command(words, before, back=True)
    if not shell or posixpath.basename(shell[0]) not in SHELLS | STARTUP_SHELLS:
        return None
    inside = _simple_command(words, at, back=False)
    if inside and posixpath.basename(inside[0]) in PRINTERS:
        return PipedCode(shell[0], _printed(inside, command))
    if stage_unread(_stage(words, at, back=False), read_definitions(command).redefines):
        return PipedCode(shell[0], None)  # ``bash <(base64 -d <<< …)``: code never read
    if inside and posixpath.basename(inside[0]) in _FILE_PRINTERS:
        return PipedCode(shell[0], None)  # ``bash <(cat run.txt)``: its file read nowhere
    depth, end = 1, at + 1
    while end < len(words) and depth:
        depth += words[end].endswith("(") - (words[end] == ")")
        end += 1
    return PipedCode(shell[0], None) if PRINTERS & set(words[at + 1 : end]) else None


def _written_code(words: list[str], at: int) -> PipedCode | None:
    """The code a shell or interpreter reads from what is written into the process
    substitution opening at ``words[at]`` (``>(``, ``>>(``): ``exec 3> >(bash)`` then ``cat
    run.txt >&3``, ``… > >(sh -s)``, ``tee >(python3)``, ``> >(tee >(bash))`` (the inner one
    read at its own ``>(``). Whatever the command writes to it later (any descriptor, any
    program) is that shell's script, which the guard cannot show: code it cannot tell
    (``code`` None), judged as ``… | bash`` is. A reader of its own input that runs no code
    (``>(tee log)``, ``>(gzip > o.gz)``, ``>(bash -n)``) gives None."""
    inside = _simple_command(words, at, back=False)
    if inside and posixpath.basename(inside[0]) in _SOURCING and inside[1:2]:
        return PipedCode(inside[0], None, True) if inside[1] in STDIN_SCRIPTS else None
    shell = (
        _shell_reading_stdin(inside) or _interpreter_reading_stdin(inside) or _xargs_shell(inside)
    )
    return None if shell is None else PipedCode(shell, None, True)


_FILE_PRINTERS = frozenset({"cat", "head", "tail"})
"""Programs printing files: a shell given their output as its script through ``<(…)``
(``bash <(cat run.txt)``) runs a file the guard does not read as that shell's script (``cat
run.txt | bash`` and ``bash run.txt`` are read so)."""
_SOURCING = frozenset({".", "source"})
"""Builtins running a file's text as the shell's own code (``. /dev/stdin``)."""


def _pipeline_before(words: list[str], at: int) -> list[str]:
    """The words of the pipeline's stages before the pipe at ``at``, groups and subshells
    whole (back to a ``;``, ``&&``, ``||``, ``&`` or line end outside them)."""
    depth, start = 0, at
    while start > 0:
        word = words[start - 1]
        depth += (word in (")", "}")) - (word == "{" or word.endswith("("))
        if depth < 0 or (not depth and word in (";", "&&", "||", "&", "\n")):
            break
        start -= 1
    return words[start:at]


def _simple_command(words: list[str], at: int, *, back: bool) -> list[str]:
    """The words of the simple command before (``back``) or after the pipe at ``at``, past its
    assignments and runners (:data:`_RUNNERS`, with their option words)."""
    found: list[str] = []
    step = -1 if back else 1
    index = at + step
    while (
        0 <= index < len(words)
        and words[index] not in _ENDS
        and not re.match(_PUNCTUATION, words[index])
    ):
        found.append(words[index])
        index += step
    if back:
        found.reverse()
    while found and (
        re.match(_ASSIGNMENT, found[0]) or found[0] in _RUNNERS or found[0].startswith("-")
    ):
        found.pop(0)
    return found


def _stage(words: list[str], at: int, *, back: bool) -> list[str]:
    """The words of the simple command before (``back``) or after ``words[at]``, its
    redirections kept, past its assignments and runners (:func:`_simple_command`, which stops
    at a redirection)."""
    step = -1 if back else 1
    index = at + step
    while 0 <= index < len(words) and not (
        words[index] in _ENDS or re.match(_COMMAND_END, words[index])
    ):
        index += step
    found = words[index + 1 : at] if back else words[at + 1 : index]
    while found and (
        re.match(_ASSIGNMENT, found[0]) or found[0] in _RUNNERS or found[0].startswith("-")
    ):
        found = found[1:]
    return found


def _interpreter_reading_stdin(words: list[str]) -> str | None:
    """The interpreter other than a shell ``words`` runs when it reads its code from standard
    input (:data:`_STDIN_INTERPRETER_RE`; options only, or ``-``: ``python3``, ``python3 -u
    -``, ``perl -w``), else None (a script, ``-c``/``-e``/``-m`` code: the pipe is data)."""
    if not words or not re.fullmatch(_STDIN_INTERPRETER_RE, posixpath.basename(words[0])):
        return None
    for word in words[1:]:
        if word == "-":
            break
        if not word.startswith("-") or re.match(_CODE_OPTION_RE, word):
            return None
    return words[0]


def _shell_reading_stdin(words: list[str]) -> str | None:
    """The shell ``words`` runs when it reads its code from standard input (no ``-c``, no
    script operand: ``bash``, ``sh -s a b``, ``bash -x``), else None."""
    if not words or posixpath.basename(words[0]) not in SHELLS | STARTUP_SHELLS:
        return None
    run = shell_run(words[1:])
    if _reads_only(words[1:]):
        return None  # ``printf '%s\n' a b | bash -n``: read for its syntax, never run
    stdin = run.script is not None and words[1:][run.script] in STDIN_SCRIPTS
    return words[0] if run.code is None and (run.script is None or stdin) else None


def _xargs_shell(words: list[str]) -> str | None:
    """The shell ``words`` runs when ``xargs`` gives it what it reads as its ``-c`` code: the
    ``-c`` its last word (``xargs -0 sh -c``: the first item read is the code) or followed
    by the replacement string (``xargs -0 -I{} sh -c {}``), else None."""
    if not words or posixpath.basename(words[0]) != "xargs":
        return None
    shells = [at for at, word in enumerate(words) if posixpath.basename(word) in SHELLS]
    if not shells:
        return None
    options = words[1 : shells[0]]
    replaced = {"{}"} | {word[2:] for word in options if word.startswith("-I") and word[2:]}
    replaced |= {after for before, after in itertools.pairwise(options) if before == "-I"}
    given = words[shells[0] + 1 :]
    run = shell_run(given)
    if run.code is None:
        return (
            words[shells[0]] if given and given[-1].startswith("-") and "c" in given[-1] else None
        )
    return words[shells[0]] if given[run.code] in replaced else None


def _reads_only(words: list[str]) -> bool:
    """Whether a shell given the option ``words`` (after its name) reads its code without
    running it: ``-n`` (``-o noexec``), set last among its options and not ignored by an
    interactive shell (``-i``), as bash reads them (``+n`` unsets it)."""
    noexec = interactive = False
    at = 0
    while at < len(words) and words[at][:1] in ("-", "+") and words[at] not in ("-", "--"):
        word = words[at]
        if word.startswith("--"):
            at += 2 if word in ("--rcfile", "--init-file") else 1
            continue
        taking = [letter for letter in word[1:] if letter in "oO"]
        values = words[at + 1 : at + 1 + len(taking)]
        flags = word[1:] + ("n" if "noexec" in values else "")
        noexec = ("n" in flags and word[0] == "-") or (noexec and "n" not in flags)
        interactive = interactive or "i" in word[1:]
        at += 1 + len(taking)
    return noexec and not interactive


def _printed(printer: list[str], command: str) -> str | None:
    """The text ``echo`` or ``printf`` prints from its words (as the lexer leaves them, quotes
    gone): :func:`~harness_memory.hooks.printed_text.echo_text` (plain ``echo``, ``-n``,
    ``-e``), :func:`~harness_memory.hooks.printed_text.printf_text`; or None when it is not
    one the guard can tell: a word holding what bash expands or may have (:data:`_NOT_LITERAL`:
    the lexer's word no longer says whether ``$(…)`` was in single quotes), a backslash in a
    plain ``echo``'s word (``shopt -s xpg_echo`` makes it an escape) or before a line's end (bash
    drops both in double quotes, the lexer keeps them), a form :mod:`~harness_memory.hooks.
    printed_text` does not compute, an ``echo`` or ``printf`` the command may redefine
    (:func:`~harness_memory.hooks.definitions.read_definitions`)."""
    if read_definitions(command).redefines(printer[0]):
        return None
    name, words = printer[0], printer[1:]
    if any(re.search(_NOT_LITERAL, word) or "\\\n" in word for word in words):
        return None
    if name == "printf":
        return printf_text(words)
    options = itertools.takewhile(re.compile(_ECHO_OPTION_RE).match, words)
    escapes = any("e" in word for word in options)
    if not escapes and any("\\" in word for word in words):
        return None
    return echo_text(words)
