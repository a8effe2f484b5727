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

import functools
import itertools
import posixpath
import re
from collections.abc import Mapping
from typing import NamedTuple

from harness_memory.hooks.code_sources import stage_unread
from harness_memory.hooks.definitions import plain_text, read_definitions
from harness_memory.hooks.here_data import SHELLS
from harness_memory.hooks.printed_text import echo_text, printf_text
from harness_memory.hooks.shell_operands import STDIN_SCRIPTS, shell_run
from harness_memory.hooks.shell_startup import STARTUP_SHELLS
from harness_memory.hooks.shell_words import PUNCTUATION, split_words
from harness_memory.hooks.wrapped_commands import ASSIGNMENT_RE, past_wrappers, split_strings

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


def piped_code(
    words: list[str], at: int, command: str, environ: Mapping[str, str] | None = None
) -> PipedCode | None:
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
    function or alias that may redefine ``echo``. The reader is found past wrappers, in a
    group, a subshell or a later command of the list after the pipe (:func:`_list_reader`:
    ``| timeout 5 bash``, ``| { bash; }``); one found only so reads a file printed into it
    (``cat s.sh | ( bash )``) as code the guard cannot tell. ``environ``: the environment, for
    a reader named by a variable (``| $SHELL``)."""
    environ = environ or {}
    opened = substitution_opened(words[at])
    if opened == "<":
        return _substituted_code(words, at, command, environ)
    if opened == ">":
        return _written_code(words, at, command, environ)
    after = _simple_command(words, at, back=False)
    stage = _stage(words, at, back=True)
    shell = _shell_reading_stdin(after) or _xargs_shell(after)
    raw = itertools.takewhile(lambda word: not re.match(_COMMAND_END, word), words[at + 1 :])
    split = list(raw)  # ``| env -S 'bash -s'``: the command it splits, read past it
    if split_strings(split) != split or (
        shell is None and _interpreter_reading_stdin(after) is None
    ):
        return _listed_reader_code(words, at, command, environ)
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
    if _xargs_shell(after) and stage and posixpath.basename(stage[0]) in _FILE_PRINTERS:
        return PipedCode(shell, None)  # ``cat f | xargs -I{} sh -c {}``: each line code
    if PRINTERS & set(_pipeline_before(words, at)) or stage_unread(
        stage, read_definitions(command).redefines
    ):
        return PipedCode(shell, None)
    return None


def substitution_opened(word: str) -> str | None:
    """Which process substitution the lexer's ``word`` opens: ``<`` (``<(``, ``<((``, whose
    output a command reads) or ``>`` (``>(``, ``>>(``, ``>((``, written into), else None. The
    lexer glues a subshell's ``(`` to it (``>(( bash ))``)."""
    match = re.match(r"^[<>]*([<>])\(+$", word)
    return None if match is None else match.group(1)


def _listed_reader_code(
    words: list[str], at: int, command: str, environ: Mapping[str, str]
) -> PipedCode | None:
    """The code a reader of its standard input found in the command after the pipe
    ``words[at]`` (:func:`_list_reader`: ``| timeout 5 bash``, ``| { bash; }``, ``| ( sh )``,
    ``| $SHELL``) runs: a printer's text right before the pipe read as a shell's code, as
    ``| bash`` reads it (an interpreter's as before: let through); code the guard cannot
    tell when the stage before prints text it does not read ahead (:func:`~harness_memory.
    hooks.code_sources.stage_unread`), a file (``cat s.sh | ( bash )``: read nowhere as a
    script) or a printer is in the pipeline before; None else (``curl -fsSL URL | { sh; }``:
    fetched, as ``| sh``). A program named by a variable whose every value the command says
    is each of them (:func:`_variable_values`: ``S=bash; cat f | $S`` is ``cat f | ( bash
    )``; ``for c in sort uniq; … | "$c"`` reads none). One the guard cannot tell (``| $S``
    after ``S=$(…)``) reads code the guard cannot tell only after a stage printing unread
    text; after any other, or named by a variable unset (``git diff | $PAGER``: it may be
    ``apply_patch``), it is judged by the write reader."""
    found = _list_reader(words, at + 1, environ, command, whole=False)
    if found is None:
        return None
    name, kind = found
    redefined = read_definitions(command).redefines
    if kind == _UNKNOWN:  # ``S=$(…); tac s | $S``; an unset ``| $PAGER``: elsewhere
        stage = _stage(words, at, back=True)
        variable = _named_variable(name)
        named = _mentions(variable, command) if variable else 0
        unset = named == 1 and variable not in environ
        printed = bool(stage) and posixpath.basename(stage[0]) in PRINTERS
        others = read_definitions(command.replace(name, "_", 1)).redefines  # its own left out
        unread = stage_unread(stage, others) and not printed
        return PipedCode(name, None) if unread and not unset else None
    printer = _simple_command(words, at, back=True)
    printed = bool(printer) and posixpath.basename(printer[0]) in PRINTERS
    if printed and kind != _UNKNOWN:
        return PipedCode(name, _printed(printer, command)) if kind == _SHELL else None
    stage = _stage(words, at, back=True)
    unread = (
        printed
        or stage_unread(stage, redefined)
        or bool(PRINTERS & set(_pipeline_before(words, at)))
        or (bool(stage) and posixpath.basename(stage[0]) in _FILE_PRINTERS)
    )
    return PipedCode(name, None) if unread else None


_SHELL, _INTERPRETER, _UNKNOWN = "shell", "interpreter", "unknown"
"""What a reader of its standard input runs it as: a shell's code, another interpreter's,
or a program named at run time (any of them)."""
_LIST_WORDS = frozenset({"{", "}", "then", "do", "else", "fi", "done", "esac", "!", "\n"})
"""Words that, at a command's start, start or end a list rather than name a program."""
_COMPOUND_OPENERS = frozenset({"if", "while", "until", "for", "select", "case"})
_COMPOUND_CLOSERS = frozenset({"}", "fi", "done", "esac"})
"""Words that, at a command's start, open or close a compound command (a list inside)."""
_REDIRECTION_RE = r"^&?[<>][<>&|]*$"
"""A redirection's operator as the lexer splits it (``>``, ``2>`` without its ``2``, ``<``,
``<<<``, ``&>``, ``>&``): the word after it is its target, no command's word."""


def _list_reader(
    words: list[str], start: int, environ: Mapping[str, str], command: str, *, whole: bool
) -> tuple[str, str] | None:
    """The first program reading its standard input as code (:func:`_reads_code`: its name
    and :data:`_SHELL`, :data:`_INTERPRETER` or :data:`_UNKNOWN`) among the simple commands
    from ``words[start]``: of the whole command list up to the ``)`` closing a process
    substitution (``whole``: ``>({ bash; })``, ``>(cat | bash)``, ``>(exec 2>/dev/null;
    bash -s)``), else of the one command of a pipeline's stage (a group, a subshell, an
    ``if``, up to a ``|``, ``;``, ``&`` or line end outside them). Every command of it may
    read that input, those in a nested ``$(…)`` or ``<(…)`` too (they inherit it); a nested
    ``>(…)`` reads what is written into it, judged at its own ``>(``. Linear in the words."""
    simple: list[str] = []
    depth, at, written, here = 0, start, None, False
    closings = _closings(words)
    while at < len(words):
        word = words[at]
        at += 1
        nested = None if written is not None else _quoted_reader(word, environ)
        if nested is not None:  # ``| echo "$(bash)"``: it inherits the input too
            return nested
        if re.match(_REDIRECTION_RE, word):
            here = here or word in ("<<", "<<-")  # its text may hold a ``)``: read on
            at += not words[at : at + 1] or not words[at].endswith("(")  # ``< <(…)``: kept
            continue
        punctuation = re.match(_PUNCTUATION, word) is not None
        depth += not simple and word in _COMPOUND_OPENERS  # ``while …; do …; done``: one
        if not punctuation and not (word in _LIST_WORDS and not simple):
            if written is None:
                simple.append(word)
            continue
        found = None if written is not None else _reads_code(simple, environ, command)
        if found is not None:
            return found
        simple = []
        if written is None and substitution_opened(word) == ">":
            written = depth  # a nested ``>(…)`` reads what is written into it, not this input
            at = closings.get(at - 1, at)  # judged at its own ``>(``: its words skipped once
        opened = word.count("(") - word.count(")") if punctuation else 0
        depth += opened + (word == "{") - (word in _COMPOUND_CLOSERS)
        written = None if written is not None and depth <= written else written
        ends = not whole and not depth and (word == "\n" or re.search(r"[;&|]", word))
        if (depth < 0 and not here) or ends:
            return None
    return None if written is not None else _reads_code(simple, environ, command)


_CLOSINGS: dict[int, tuple[list[str], dict[int, int]]] = {}
""":func:`_closings` of the last few word lists, by identity (each ``>(`` of a command asks)."""


def _closings(words: list[str]) -> dict[int, int]:
    """Where the list of each ``>(`` among ``words`` ends: the index of the word closing its
    ``(`` (counted as :func:`_list_reader` counts them), for every such word; none when a
    here-document may hold a ``(`` or ``)`` (then each list is read word by word). Linear
    in the words, once for a list (kept for the last 8 lists)."""
    kept = _CLOSINGS.get(id(words))
    if kept is not None and kept[0] is words:
        return kept[1]
    found: dict[int, int] = {}
    if not {"<<", "<<-"} & set(words):
        open_at: list[tuple[int, int]] = []
        depth = 0
        for at, word in enumerate(words):
            if not re.match(_PUNCTUATION, word):
                continue
            depth += word.count("(") - word.count(")")
            while open_at and depth <= open_at[-1][1]:
                found[open_at.pop()[0]] = at
            if substitution_opened(word) == ">":
                open_at.append((at, depth - word.count("(") + word.count(")")))
    if len(_CLOSINGS) >= 8:
        _CLOSINGS.clear()
    _CLOSINGS[id(words)] = (words, found)
    return found


def _quoted_reader(word: str, environ: Mapping[str, str]) -> tuple[str, str] | None:
    """The reader of its standard input (:func:`_list_reader`) in a ``$(…)`` or backquoted
    command the lexer left inside the word ``word`` (quoted: ``"$(bash)"``, ``x="$(bash)"``,
    a backquoted ``bash``), which inherits the input; :data:`_UNKNOWN` past 32 of them (deeper ones
    are not read) or for one the lexer cannot split; None when none reads it."""
    if "$(" not in word and "`" not in word:
        return None
    if word.count("$(") + word.count("`") > 32:
        return word, _UNKNOWN
    for code in _substitution_texts(word):
        try:
            inner = split_words(code, punctuation=PUNCTUATION)
        except ValueError:
            return word, _UNKNOWN
        found = _list_reader(inner, 0, environ, code, whole=True)
        if found is not None:
            return found
    return None


def _substitution_texts(word: str) -> list[str]:
    """The texts of the outermost ``$(…)`` and backquoted commands in ``word`` (an unclosed
    one runs to its end). Linear in the word."""
    texts: list[str] = []
    at = 0
    while at < len(word):
        if word.startswith("$(", at):
            depth, end = 1, at + 2
            while end < len(word) and depth:
                depth += (word[end] == "(") - (word[end] == ")")
                end += 1
            texts.append(word[at + 2 : end - (not depth)])
            at = end
        elif word[at] == "`":
            end = word.find("`", at + 1)
            end = len(word) if end < 0 else end
            texts.append(word[at + 1 : end])
            at = end + 1
        else:
            at += 1
    return texts


def _reads_code(
    simple: list[str], environ: Mapping[str, str], command: str
) -> tuple[str, str] | None:
    """The program the simple command ``simple`` (its redirections left out) runs, past its
    assignments and wrappers (:func:`~harness_memory.hooks.wrapped_commands.past_wrappers`:
    ``timeout 5``, ``nice -n 5``, ``env``, ``exec``; ``env -S`` 's command split), with what
    it runs its standard input as when it does: a shell (:func:`_shell_reading_stdin`,
    ``xargs sh -c``, ``. /dev/stdin``), another interpreter
    (:func:`_interpreter_reading_stdin`), or a program named at run time the guard cannot
    tell (``$(…)``, ``read S; … $S``); a name holding a variable is each of its values
    (:func:`_run_time_values`: a shell first), one holding ``$`` or a backquote itself (a
    variable bash sets as it runs, held as its own ``${NAME}``) a program named at run time,
    never read again (``"${BASH_ARGV0}"`` recursed without end); else None."""
    simple = split_strings(simple)
    at = 0
    while at < len(simple) and re.match(ASSIGNMENT_RE, simple[at]):
        at += 1
    run = simple[past_wrappers(simple, at) :]
    if run and re.search(r"[$`]", run[0]):
        values = _run_time_values(run[0], environ, command)
        if values is None or any(re.search(r"[$`]", " ".join(value)) for value in values):
            return run[0], _UNKNOWN  # a value bash sets as it runs (``${BASH_ARGV0}``)
        found = [_reads_code([*value, *run[1:]], environ, command) for value in values]
        readers = [(run[0], reader[1]) for reader in found if reader is not None]
        return min(readers, key=lambda reader: reader[1] != _SHELL, default=None)
    if not run:
        return None
    if run[0] == "eval" and any(re.search(r"[$`]", word) for word in run[1:]):
        return run[0], _SHELL  # ``while read l; do eval "$l"; done``: a line read, run
    if posixpath.basename(run[0]) in _SOURCING and run[1:2]:
        return (run[0], _SHELL) if run[1] in STDIN_SCRIPTS else None
    code = _code_given(run)
    if code is not None:  # ``eval bash``, ``sh -c 'cat | bash'``: its code a list inheriting it
        try:
            inner = split_words(code, punctuation=PUNCTUATION)
        except ValueError:
            return run[0], _UNKNOWN
        return _list_reader(inner, 0, {**environ, **_positional(run)}, code, whole=True)
    shell = _shell_reading_stdin(run) or _xargs_shell(run)
    if shell is not None:
        return shell, _SHELL
    reader = _interpreter_reading_stdin(run)
    return None if reader is None else (reader, _INTERPRETER)


def _code_given(run: list[str]) -> str | None:
    """The code the command ``run`` (its name first) runs as a shell's list: ``eval``'s words
    joined, a shell's ``-c`` code (:func:`~harness_memory.hooks.shell_operands.shell_run`);
    None for any other command."""
    if run[0] == "eval":
        return " ".join(run[1:])
    if posixpath.basename(run[0]) not in SHELLS | STARTUP_SHELLS:
        return None
    given = shell_run(run[1:]).code
    return None if given is None else "".join(run[1:][given : given + 1])


_RUN_TIME_NAME_RE = (
    r"^(?P<before>[\w./+-]*)\$(?:(?P<plain>[A-Za-z_][A-Za-z0-9_]*|[0-9])"
    r"|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9])(?::?-(?P<default>[\w./+-]*))?\})"
    r"(?P<after>[\w./+-]*)$"
)
"""A program's name made of one variable (or positional parameter) and literal text around
it, the variable plain or with a literal default (``$SHELL``, ``"${PAGER:-less}"``,
``${c}h``, ``$0``)."""
_LITERAL_RE = r"^[\w./+,:@%=-]*$"
"""A value with nothing bash expands in it (no ``$``, backquote, pattern, brace)."""
_BASH_SET = {"BASH": "bash"}
"""Variables bash sets itself when it starts, whatever its environment said."""
_SHELL_NAME = {"0": "bash"}
"""``$0`` where no ``-c`` code was given one: the name of the harness's shell (``bash -c``,
``bash -lc``: ``bash``), never the environment's (``tac run.txt | "$0" -s`` ran the code;
review guardenv65)."""


@functools.lru_cache(maxsize=16)
def _mentions(variable: str, command: str) -> int:
    """How many times ``command`` (its quotes and line continuations dropped: :func:`~harness_
    memory.hooks.definitions.plain_text`) names ``variable`` as a word of its own. Cached: a
    command's every pipe asks it of the same text (linear in the text once)."""
    return len(re.findall(rf"\b{variable}\b", plain_text(command)))


def _named_variable(name: str) -> str:
    """The variable a program's name matching :data:`_RUN_TIME_NAME_RE` is ("" for none)."""
    match = re.match(_RUN_TIME_NAME_RE, name)
    return "" if match is None else match.group("plain") or match.group("name")


def _positional(run: list[str]) -> dict[str, str]:
    """The positional parameters ``$0`` to ``$9`` the shell command ``run`` gives its ``-c``
    code: the words after the code (``sh -c '$0' bash``: ``$0`` is ``bash``), ``$0`` the
    shell's name when none; unset ones left out (unknown)."""
    given = shell_run(run[1:]).code if run[0] != "eval" else None
    if given is None:
        return {}
    operands = run[1:][given + 1 :] or [run[0]]
    return {str(at): word for at, word in enumerate(operands[:10])}


def _run_time_values(name: str, environ: Mapping[str, str], command: str) -> list[list[str]] | None:
    """The words the program's name ``name`` (holding ``$`` or a backquote) may be, one list
    for each value its one variable may take (:func:`_variable_values`: ``S=bash; … | $S``,
    ``for c in sort uniq; do … | "$c"``, ``$BASH``), its literal text around it kept
    (``c=bas; … | ${c}h``); None when the guard cannot tell one of them (``$(…)``, a variable
    read, unset and not set by bash, a command changing lookups: ``source``, ``eval``)."""
    match = re.match(_RUN_TIME_NAME_RE, name)
    if match is None:
        return None
    variable = _named_variable(name)
    others = command.replace(name, "_")  # the lookups it makes itself left out
    if read_definitions(others).lookup:
        return None
    values = _variable_values(variable, command, environ)
    if values is None:
        return None
    around = match.group("before"), match.group("after")
    return [f"{around[0]}{value}{around[1]}".split() for value in values]


def _variable_values(
    variable: str, command: str, environ: Mapping[str, str]
) -> tuple[str, ...] | None:
    """Every value ``variable`` may take in ``command``: each literal one it assigns
    (``S=bash``, ``export S='bash -s'``), each word of a ``for`` over literal words, each
    literal default of a use (``${S:-less}``), and its value when the command starts (bash's
    own for :data:`_BASH_SET`, else ``environ``'s, ``$0`` the shell's name without one:
    :data:`_SHELL_NAME`; "" when unset but assigned). None when
    one is unknown: any other mention (``read S``, ``unset S``, ``S=$(…)``, ``${S:=x}``) or
    unset, never assigned and given no default (``git diff | $PAGER``). Linear in the text."""
    assigned: list[str] = []
    defaults: list[str] = []
    for found in re.finditer(rf"(?<![\w./-]){variable}(?![\w])", command):
        before, after = command[: found.start()], command[found.end() :]
        if before.endswith("$"):
            continue
        if before.endswith("${"):
            use = re.match(r"^(?::?-(?P<default>[\w./+-]*))?\}", after)
            if use is None:
                return None
            defaults += [use.group("default")] if use.group("default") is not None else []
            continue
        value = _assigned_value(before, after)
        if value is not None:
            assigned += value
        elif not re.match(r"^[./-]", after):  # ``-f``, ``f.txt``: a word, not the variable
            return None
    start = _BASH_SET.get(variable, environ.get(variable, _SHELL_NAME.get(variable)))
    if start is None and not assigned:
        return tuple(defaults) if defaults else None
    return (*assigned, *defaults, start or "")


def _assigned_value(before: str, after: str) -> list[str] | None:
    """The values a variable mentioned between ``before`` and ``after`` is given there when
    literal (:data:`_LITERAL_RE`): an assignment's (``S=bash``, ``S='bash -s'``) or a
    ``for`` loop's words (``for c in sort uniq; do``); None for any other mention."""
    if re.search(r"(?:^|[\s;&|(])$", before) and after.startswith("="):
        value = re.match(r"""^=(?:'([^']*)'|"([^"$`\\]*)"|([^\s;&|)'"]*))(?=[\s;&|)]|$)""", after)
        text = None if value is None else next(part for part in value.groups() if part is not None)
        literal = text is not None and all(re.match(_LITERAL_RE, w) for w in text.split())
        return [text] if literal and text is not None else None
    if re.search(r"(?:^|[\s;&|(])for\s+$", before):
        loop = re.match(r"^\s+in\s+([^;\n]*?)\s*[;\n]\s*do\b", after)
        words = [] if loop is None else [w.strip("'\"") for w in loop.group(1).split()]
        return words if loop and all(re.match(_LITERAL_RE, w) for w in words) else None
    return None


def _substituted_code(
    words: list[str], at: int, command: str, environ: Mapping[str, str]
) -> PipedCode | None:
    """The code a shell reads from the process substitution opening at ``words[at]`` (its
    script, ``bash <(…)``, or its standard input, ``bash < <(…)``), found past wrappers
    (:func:`_outer_reader`: ``timeout 5 bash <(…)``; ``python3 <(…)``), when a printer
    prints it; code the guard cannot tell when a program it does not read ahead prints it,
    or ``cat``, ``head``, ``tail`` (:data:`_FILE_PRINTERS`) a file's text. A printer's text
    into another interpreter is let through, as ``echo … | python3`` is."""
    before = at - 1 if at and words[at - 1] == "<" else at
    found = _outer_reader(words, before, environ, command)
    if found is None:
        return None
    shell, kind = found
    inside = _simple_command(words, at, back=False)
    if inside and posixpath.basename(inside[0]) in PRINTERS and kind != _UNKNOWN:
        return PipedCode(shell, _printed(inside, command)) if kind == _SHELL else None
    if stage_unread(_stage(words, at, back=False), read_definitions(command).redefines):
        return PipedCode(shell, None)  # ``bash <(base64 -d <<< …)``: code never read
    if inside and posixpath.basename(inside[0]) in _FILE_PRINTERS | PRINTERS:
        return PipedCode(shell, None)  # ``bash <(cat run.txt)``: its file read nowhere
    depth, end = 1, at + 1
    while end < len(words) and depth:
        depth += words[end].endswith("(") - (words[end] == ")")
        end += 1
    return PipedCode(shell, None) if PRINTERS & set(words[at + 1 : end]) else None


def _outer_reader(
    words: list[str], before: int, environ: Mapping[str, str], command: str
) -> tuple[str, str] | None:
    """The program of the simple command ending at ``words[before]`` that runs a process
    substitution there as code (:func:`_reads_code` of its words so far: the substitution is
    its script or standard input), or a shell given it anywhere (``bash -x <(…)``), past its
    assignments, redirections and wrappers; None else (``diff <(…) <(…)``)."""
    start = before
    while start and not (
        words[start - 1] in _ENDS
        or re.match(_COMMAND_END, words[start - 1])
        or words[start - 1].endswith("(")
    ):
        start -= 1
    simple: list[str] = []
    target = False  # the word after a redirection's operator: its target
    for word in words[start:before]:
        if not target and not re.match(_REDIRECTION_RE, word):
            simple.append(word)
        target = not target and re.match(_REDIRECTION_RE, word) is not None
    found = _reads_code(simple, environ, command)
    at = 0
    while at < len(simple) and re.match(ASSIGNMENT_RE, simple[at]):
        at += 1
    run = simple[past_wrappers(simple, at) :]
    if found is None and run and posixpath.basename(run[0]) in SHELLS | STARTUP_SHELLS:
        return run[0], _SHELL
    return found


def _written_code(
    words: list[str], at: int, command: str, environ: Mapping[str, str]
) -> PipedCode | None:
    """The code a shell or interpreter reads from what is written into the process
    substitution opening at ``words[at]`` (``>(``, ``>>(``): ``exec 3> >(bash)`` then ``cat
    run.txt >&3``, ``… > >(sh -s)``, ``tee >(python3)``, ``> >(tee >(bash))`` (the inner one
    read at its own ``>(``). Whatever the command writes to it later (any descriptor, any
    program) is that shell's script, which the guard cannot show: code it cannot tell
    (``code`` None), judged as ``… | bash`` is. The substitution's commands are a list read
    as the top-level command's: a reader anywhere in it counts (:func:`_list_reader`:
    ``>({ bash; })``, ``>(cat | bash)``, ``>(timeout 5 bash)``, ``>(${SHELL})``). A list
    running no code (``>(tee log)``, ``>(gzip > o.gz)``, ``>(bash -n)``) gives None."""
    inside = _simple_command(words, at, back=False)
    sourcing = inside and posixpath.basename(inside[0]) in _SOURCING and inside[1:2]
    if sourcing and inside[1] in STDIN_SCRIPTS:
        return PipedCode(inside[0], None, True)
    shell = (
        _shell_reading_stdin(inside) or _interpreter_reading_stdin(inside) or _xargs_shell(inside)
    )
    if shell is None:
        found = _list_reader(words, at + 1, environ, command, whole=True)
        shell = None if found is None else found[0]
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
