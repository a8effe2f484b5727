"""What a command's text defines that may change the program a name runs (P-3).

The one reader of definitions for the write guard: a substitution read as a name
(``$(date +%F)``), a ``cat`` printing its files, an ``echo`` printing code into a shell's pipe
are each the program they seem only while the command defines no function or alias of that
name and changes nothing about how names are found or what runs as a program starts.

:func:`read_definitions` reads a text failing closed: line continuations are removed and quotes
and backslashes dropped first, so ``PA\\<newline>TH=…``, ``declare -n v=PA''TH``,
``export "PATH=…"`` and ``declare -- 'PATH=…'`` all read as naming ``PATH``; a mention is a
definition (``read PATH``, ``export PATH``), anywhere in the text, inside quotes too (``bash -c
'date() {…}; …'``). The text of ANSI-C quoting (``$'P\\x41TH'``) is the caller's to decode
and add. Linear in the text's length.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_NAME = r"[^\s;&|(){}<>`$=]+"
"""A function's or alias's name as bash takes it (quotes already dropped)."""
_BOUNDARY = r"(?:^|(?<=[\s;&|(){}`]))"
"""Where a command word starts."""
_FUNCTION_RE = re.compile(rf"{_BOUNDARY}(?P<name>{_NAME})\s*\(\s*\)|\bfunction\s+(?P<kw>{_NAME})")
"""A function definition: ``date() {…}``, ``function nproc {…}``."""
_ALIAS_RE = re.compile(rf"{_BOUNDARY}alias\s+(?P<operands>[^;&|\n]*)")
"""An ``alias`` command and its operands (``alias ll='ls -l' cat=tac``)."""
_ALIAS_NAME_RE = re.compile(r"(?:^|\s)(?P<name>[^\s=]+)=")
"""One name an ``alias`` operand defines."""
_LOOKUP_RE = re.compile(
    rf"{_BOUNDARY}(?:hash|enable|eval|source|trap)\b|(?:^|[;&|(){{}}\n`])\s*\.\s"
    r"|BASH_FUNC_|BASH_CMDS|BASH_ALIASES"
    r"|(?<![\w${])(?:PATH|BASH_ENV|ENV|LD_\w+|GCONV_PATH)\b"
    r"|\b(?:declare|typeset|local)\s+(?:-\w*\s+)*-\w*n"
    rf"|{_BOUNDARY}(?:declare|typeset|export|local|readonly|read|mapfile|readarray)"
    r"(?:\s+[^\s;&|$`]+)*\s+[$`]|\bprintf\s+-v\s*[$`]"
)
"""What changes how any name is found, or runs code as any program starts: ``hash -p``,
``enable -f``, a sourced or evaluated text, a trap's text, an exported function
(``BASH_FUNC_date%%=…``), bash's tables of commands and aliases, ``PATH``, ``BASH_ENV``/``ENV``
(a shell's startup script), ``LD_PRELOAD``/``LD_LIBRARY_PATH``/``LD_AUDIT`` (a library loaded
into each program the command starts), ``GCONV_PATH``, each named other than as ``$NAME`` or
``${NAME}``; a name reference (``declare -n v=…``) and a variable whose name is built at run
time (``export "$n=…"``, ``printf -v "$n"``): either may be any of these."""
_DEFERRED_RE = re.compile(
    rf"{_BOUNDARY}(?:for|while|until|select|trap|function|coproc)\b|{_FUNCTION_RE.pattern}"
)
"""What runs text again or later than it stands (a loop's body, a function's, a trap's): a
definition after it may reach it."""


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
    from :func:`plain_text` failing closed: a mention is a definition."""
    plain = plain_text(text)
    functions = frozenset(
        match.group("name") or match.group("kw") for match in _FUNCTION_RE.finditer(plain)
    )
    aliases: set[str] | None = set()
    for match in _ALIAS_RE.finditer(plain):
        operands = match.group("operands")
        if aliases is None or "$" in operands:
            aliases = None
            continue
        aliases.update(found.group("name") for found in _ALIAS_NAME_RE.finditer(operands))
    lookup = _LOOKUP_RE.search(plain) is not None
    return Definitions(functions, None if aliases is None else frozenset(aliases), lookup)


def deferred(text: str) -> bool:
    """Whether ``text`` runs part of itself again or later than it stands (a loop, a
    function, a trap, a coprocess): then a definition anywhere in it may reach any part."""
    return _DEFERRED_RE.search(plain_text(text)) is not None
