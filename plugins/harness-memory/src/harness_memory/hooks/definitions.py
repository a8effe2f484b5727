"""What a command's text defines that may change the program a name runs (P-3).

The one reader of definitions for the write guard: a substitution read as a name
(``$(date +%F)``), a ``cat`` printing its files, an ``echo`` printing code into a shell's pipe
are each the program they seem only while the command defines no function or alias of that
name and changes nothing about how names are found or what runs as a program starts.

:func:`read_definitions` reads a text failing closed: line continuations are removed and quotes
and backslashes dropped first, so ``PA\\<newline>TH=…``, ``declare -n v=PA''TH``,
``export "PATH=…"`` and ``declare -- 'PATH=…'`` all read as naming ``PATH``; a mention is a
definition (``read PATH``, ``export PATH``), anywhere in the text, inside quotes too (``bash -c
'date() {…}; …'``); the text of ANSI-C quoting (``$'P\\x41TH'``, ``$'alias'``) is decoded and
read too. An ``alias`` command's operands are read as bash splits its words (a quoted ``;`` in
one value ends no command: ``alias ll='ls; x' nproc=./dots`` defines ``nproc``). A definition
anywhere in the text counts for every name in it (bash expands a command's words before its
redirections, a here-document's body before a later redirection, and ``fc -s`` runs an
earlier line again). Linear in the text's length.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from harness_memory.hooks.bash_quoting import bash_quoting
from harness_memory.hooks.shell_words import PUNCTUATION, split_words

_NAME = r"[^\s;&|(){}<>`$=]+"
"""A function's or alias's name as bash takes it (quotes already dropped)."""
_BOUNDARY = r"(?:^|(?<=[\s;&|(){}`]))"
"""Where a command word starts."""
_FUNCTION_RE = (
    rf"(?:^|(?<=[\s;&|(){{}}`=]))(?P<name>{_NAME})\s*\(\s*\)|\bfunction\s+(?P<kw>{_NAME})"
)
"""A function definition: ``date() {…}``, ``function nproc {…}``, also one after ``=``: an
alias's value, its quotes dropped (``alias true='nproc() {…}'`` defines ``nproc`` when
``true`` runs: review56i)."""
_ALIAS_RE = rf"{_BOUNDARY}alias\b"
"""An ``alias`` command (read from :func:`plain_text`: ``'al''ias'`` runs the builtin too)."""
_BEFORE_NAME = (
    r"\s*(?:(?:[A-Za-z_]\w*(?:\[[^\]]*\])?=\S*|\d*[<>]+&?\S*|!|time|if|then|do|while|until"
    r"|else|elif|builtin|command|exec|nohup)\s+)*"
)
"""What may stand between an operator and a command's name: its assignments, redirections and
the keywords before it (``if . ./f``, ``x=1 . ./f``, ``2>/dev/null $e …``: review56j)."""
_LOOKUP_RE = (
    rf"{_BOUNDARY}(?:hash|enable|eval|source|trap|fc|ulimit)\b"
    rf"|(?:^|[;&|(){{}}\n`]){_BEFORE_NAME}\.\s|(?:^|[;&|({{\n`]){_BEFORE_NAME}[$`]"
    r"|BASH_FUNC_|BASH_CMDS|BASH_ALIASES"
    r"|(?<![\w${])(?:PATH|BASH_ENV|ENV|LD_\w+|GCONV_PATH)\b"
    r"|\b(?:declare|typeset|local)\s+(?:-\w*\s+)*-\w*n"
    rf"|{_BOUNDARY}(?:declare|typeset|export|local|readonly|read|mapfile|readarray)"
    r"(?:\s+[^\s;&|$`]+)*\s+[$`]|\bprintf\s+-v\s*[$`]"
)
"""What changes how any name is found, or runs code as any program starts: ``hash -p``,
``enable -f``, a sourced or evaluated text, a command whose name is built at run time
(``e=eval; $e "…"``, ``$s ./defs.sh``: it may be any of these), a trap's text, a line of
the history run again (``fc -s``), a limit that may make every program fail and print
nothing (``ulimit -n 4``), an exported function
(``BASH_FUNC_date%%=…``), bash's tables of commands and aliases, ``PATH``, ``BASH_ENV``/``ENV``
(a shell's startup script), ``LD_PRELOAD``/``LD_LIBRARY_PATH``/``LD_AUDIT`` (a library loaded
into each program the command starts), ``GCONV_PATH``, each named other than as ``$NAME`` or
``${NAME}``; a name reference (``declare -n v=…``) and a variable whose name is built at run
time (``export "$n=…"``, ``printf -v "$n"``): either may be any of these."""


class Definitions(NamedTuple):
    """What one text defines: ``functions`` (names given a function), ``aliases`` (names
    given an alias; None: any, an alias operand the text builds at run time) and ``lookup``
    (whether it changes how every name is found or runs code as programs start:
    :data:`_LOOKUP_RE`)."""

    functions: frozenset[str]
    aliases: frozenset[str] | None
    lookup: bool

    def redefines(self, name: str) -> bool:
        """Whether ``name`` (``date``, ``cat``, ``echo``) may run another program than the
        one of that name the environment finds."""
        aliased = self.aliases is None or name in self.aliases
        return self.lookup or aliased or name in self.functions


def plain_text(text: str) -> str:
    """``text`` as read for definitions: line continuations removed, then every quote and
    backslash dropped (``PA''TH``, ``"PA"TH``, ``PA\\TH`` read as ``PATH``)."""
    return re.sub(r"['\"\\]", "", text.replace("\\\n", ""))


def read_definitions(text: str) -> Definitions:
    """The functions, aliases and name lookups ``text`` defines (:class:`Definitions`), read
    from :func:`plain_text` of ``text`` and of its ANSI-C quoting decoded, failing closed: a
    mention is a definition."""
    if "$'" in text:
        text = f"{text}\n{bash_quoting(text)}"
    plain = plain_text(text)
    functions = frozenset(
        match.group("name") or match.group("kw") for match in re.finditer(_FUNCTION_RE, plain)
    )
    aliases = _alias_names(text) if re.search(_ALIAS_RE, plain) else frozenset()
    lookup = re.search(_LOOKUP_RE, plain) is not None
    return Definitions(functions, aliases, lookup)


_NESTED_RE = r"[\s;&|`(){}]"
"""A word that may hold a command of its own (``bash -c 'alias …'``, ``eval "alias …"``)."""


def _alias_names(text: str) -> frozenset[str] | None:
    """The names ``alias`` commands in ``text`` define, its words read as bash splits them
    (:func:`~harness_memory.hooks.shell_words.split_words`): each operand holding ``=`` after a
    word ``alias`` up to the next operator word, and those of a word holding a command of its
    own (read again); None (any name) for an operand with an expansion (``alias "$n=…"``) or
    a text the splitter cannot read (a quote left open). A line's end ends the operands (read
    as a ``;``: inside quotes it stays in the value), a line continuation joins."""
    try:
        words = split_words(text.replace("\\\n", "").replace("\n", ";\n"), punctuation=PUNCTUATION)
    except ValueError:
        return None
    names: set[str] = set()
    operands = False
    for word in words:
        if operands and word and word.strip(PUNCTUATION) == "":
            operands = False
        elif operands and ("$" in word or "`" in word):
            return None
        elif operands and "=" in word:
            names.add(word.split("=", 1)[0])
        elif word.lstrip("$`({") == "alias":
            operands = True
        elif "alias" in word and re.search(_NESTED_RE, word):
            if word == text:  # no shorter words in it (``{alias,nproc=./dots}``): any alias
                return None
            inner = _alias_names(word)
            if inner is None:
                return None
            names.update(inner)
    return frozenset(names)
