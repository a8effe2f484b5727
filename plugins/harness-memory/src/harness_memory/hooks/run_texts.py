"""The commands a program runs from its own words, read for the guard (P-3).

``find . -exec python3 mk.py \\;``, ``xargs python3 mk.py``, ``git -c alias.x='!python3 mk.py'
x``, ``sed 'e python3 mk.py'``, ``make --eval='x: ; @python3 mk.py' x``: each starts a
program the command names only as words of another. Read as that other program's data, the
script it runs was never read, and a link it made let a later write through into another
Workspace's scope. These functions give each such command: :func:`commands_run` as the
words of a simple command (``find``'s actions up to their ``;`` or ``+``, the command
``xargs`` runs), :func:`texts_run` as shell text (a git ``!`` alias, a ``sed`` ``e``
command, a ``make`` recipe given by ``--eval``). The caller reads each as a command the shell
runs. Pure text work, linear in the words (H-5).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from harness_memory.hooks.find_reach import find_actions
from harness_memory.hooks.option_words import (
    TABLES,
    OptionTable,
    option_values,
    read_options,
)

__all__ = ["commands_run", "sed_script_files", "texts_run"]

_ALIAS_RE = r"(?i)^alias\.[^=\s]+=!"
"""A git setting given by ``-c`` defining a shell alias (``alias.x=!python3 mk.py``)."""
_ENV_ALIAS_RE = r"(?i)^alias\.[^=\s]+="
"""A git alias given by ``--config-env`` (``alias.x=VAR``): its text is the variable's value."""


def _sed_address(at: int) -> str:
    """A GNU sed address as a pattern, its custom delimiter captured by the group ``q{at}``: a
    line (``1``), a step (``0~2``), ``$``, ``/regex/`` or ``\\cregexc`` (flags ``I``/``M``)."""
    return (
        rf"(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*"
        rf"|\\(?P<q{at}>[^\n\\])(?:(?!(?P=q{at}))[^\\\n]|\\.)*(?P=q{at})[IM]*)"
    )


_SED_RUN_RE = (
    rf"(?:^|[;{{}}\n])[ \t]*(?:{_sed_address(1)}"
    rf"(?:[ \t]*,[ \t]*(?:{_sed_address(2)}|[+~]\d+))?)?[ \t]*!?[ \t]*e[ \t]+(?P<run>[^\n]+)"
)
"""A GNU ``sed`` ``e COMMAND`` (after an optional address or range, :func:`_sed_address`,
``1,+1``, ``0~1``, ``\\,x,``, and ``!``): it runs the rest of its line as a shell command
(``1e python3 mk.py``, ``/x/e cmd``); a bare ``e`` runs the pattern space, text known only at
run time."""
_SED_OPTIONS = OptionTable(
    "efl", ("--expression", "--file", "--line-length"), optional=("--in-place",)
)
"""GNU sed 4.9's options taking a value (``-i[SUFFIX]`` takes one only glued: a flag here)."""
_MAKE_OPTIONS = OptionTable(
    "CEfIjlOoW",
    (
        *("--directory", "--eval", "--file", "--makefile", "--include-dir", "--old-file"),
        *("--assume-old", "--what-if", "--new-file", "--assume-new"),
    ),
    optional=("--jobs", "--load-average", "--output-sync", "--debug", "--shuffle"),
)
"""GNU make 4.4's options taking a value (``-E STRING`` is ``--eval``)."""
_MAKE_RULE_RE = r"^[^\t=#]*?::?[^=;]*;(.*)$"
"""A make rule line with its recipe after ``;`` (``x: ; @python3 mk.py``)."""
_MAKE_REFERENCE_RE = r"\$(?:\([^()]*\)|\{[^{}]*\}|[^$(){}])"
"""A make variable's reference in a recipe (``$(PY)``, ``${X}``, ``$@``): its value is known
only to make; read as a word the shell is given at run time."""


def commands_run(command: str, words: Sequence[str]) -> list[list[str]]:
    """The simple commands (each its words, as the lexer gives them) that ``command`` with
    ``words`` (its words after its name) runs from its words: each of ``find``'s actions
    running one (:data:`~harness_memory.hooks.option_words.FIND_RUNNING`), the command
    ``xargs`` runs (after its own options; none: ``echo``, which writes nothing), given
    ``{}`` for the names it appends (a name either gives at run time stays ``{}``, alone or
    in a word, ``./{}``: the caller tells what it stands for;
    xargs' replace string, ``-I X``, ``--replace=X``, read as ``{}``)."""
    if command == "find":
        return [command for _, _, command in find_actions(words)]
    if command == "xargs":
        read = read_options(words, TABLES["xargs"])
        if not read.operands:
            return []
        run = list(words[read.operands[0] :])
        replace = next(
            (value for name, _, value in read.values if name in ("-I", "--replace") and value),
            "{}",
        )
        return [[word.replace(replace, "{}") for word in run] + ["{}"]]
    return []


def texts_run(command: str, words: Sequence[str]) -> list[str]:
    """The shell texts ``command`` with ``words`` (its words after its name, as the lexer
    gives them) runs: git's ``!`` aliases it defines (``-c alias.x='!cmd'``, ``config
    alias.x '!cmd'``), ``sed``'s ``e`` commands in its scripts, the recipes of the rules
    ``make --eval`` / ``-E`` defines (make's own references read as words known at run
    time)."""
    if command == "git":
        return _git_aliases(words)
    if command == "sed":
        return [
            found.group("run")
            for text in _sed_scripts(words)
            for found in re.finditer(_SED_RUN_RE, text)
        ]
    if command == "make":
        evals = option_values(words, _MAKE_OPTIONS, ("--eval", "-E"))
        return [recipe for _, text in evals for recipe in _recipes(text)]
    return []


def _git_aliases(words: Sequence[str]) -> list[str]:
    """The shell text of each ``!`` alias git ``words`` define for this run (``-c
    alias.x='!cmd'``; ``--config-env=alias.x=VAR``: a program named at run time) or in its
    settings (``config [--global] alias.x '!cmd'``)."""
    texts = [re.sub(_ALIAS_RE, "", word) for word in words if re.match(_ALIAS_RE, word)]
    # ``--config-env=alias.x=VAR``: the alias is VAR's value, read at run time
    given = [word[13:] for word in words if word.startswith("--config-env=")]
    given += [value for key, value in itertools.pairwise(words) if key == "--config-env"]
    texts += ['"$(:)"' for word in given if re.match(_ENV_ALIAS_RE, word)]
    if "config" in words:
        after = list(words[words.index("config") + 1 :])
        texts += [
            value[1:]
            for key, value in itertools.pairwise(after)
            if key.lower().startswith("alias.") and value.startswith("!")
        ]
    return texts


def sed_script_files(words: Sequence[str]) -> list[str]:
    """The files ``sed`` ``words`` (its words after its name) read their script from: each
    ``-f FILE``/``--file=FILE`` value (``-`` is standard input, no file)."""
    read = read_options(words, _SED_OPTIONS)
    return [value for name, _, value in read.values if name in ("-f", "--file") and value != "-"]


def _sed_scripts(words: Sequence[str]) -> list[str]:
    """``sed``'s scripts among ``words``: each ``-e``/``--expression`` value, else its first
    operand."""
    read = read_options(words, _SED_OPTIONS)
    scripts = [value for name, _, value in read.values if name in ("-e", "--expression")]
    if not scripts and read.operands:
        scripts.append(words[read.operands[0]])
    return scripts


def _recipes(text: str) -> list[str]:
    """The recipe lines of the rules a ``make --eval`` ``text`` defines (after a rule's
    ``;``, or a line starting with a tab), without make's ``@``, ``-``, ``+`` prefixes, each
    reference to a make variable read as a word known only at run time."""
    recipes: list[str] = []
    for line in text.split("\n"):
        rule = re.match(_MAKE_RULE_RE, line)
        recipe = rule.group(1) if rule else line[1:] if line.startswith("\t") else ""
        recipe = recipe.strip().lstrip("@-+").strip()
        if recipe:
            recipe = re.sub(_MAKE_REFERENCE_RE, '"$(:)"', recipe.replace("$$", "\0"))
            recipes.append(recipe.replace("\0", "$"))
    return recipes
