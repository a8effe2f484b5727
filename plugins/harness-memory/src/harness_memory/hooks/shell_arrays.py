"""The words a shell command's arrays and positional parameters bring where they are expanded
(P-3), read from the lexer's words of one command.

``a=(cp note.md x); "${a[@]}"`` runs ``cp note.md x``: the words stand where the array is
expanded. :func:`arrays_spelt` spells each expansion of an array the command assigns once, from
literal words, as those words, so the command they make is read as any other. An array filled
otherwise (``mapfile``, ``read -a``, ``a+=(…)``, ``a[2]=…``, a word built at run time inside
it, never assigned here) holds words known only at run time; so do the positional parameters
of a shell's ``-c`` code (``bash -c '"$@"' _ cp …``) or after an ``eval``: such an expansion
run as a command's name (:data:`WORDS_RUN_RE`) brings places built at run time with it.

Linear in the words (H-5).
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["WORDS_RUN_RE", "arrays_spelt"]

WORDS_RUN_RE = re.compile(r"^\$(?:[@*]|\{[@*][^}]*\}|\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\][^}]*\})$")
"""An expansion that may give several words, as the lexer leaves it (quotes read): the
positional parameters (``"$@"``, ``$*``, ``"${@:2}"``) or an array's elements (``"${a[@]}"``,
``${a[*]}``, ``"${a[@]:1}"``)."""
_ARRAY_RE = re.compile(r"^\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}$")
"""An array's elements, whole (``"${a[@]}"``, ``${a[*]}``)."""
_ASSIGNING_RE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=")
"""Any assignment of a name: ``a=``, ``a+=``, ``a[2]=``."""
_LITERAL_RE = re.compile(r"^[^$`*?\[{]*$")
"""A word standing for itself in an array's assignment: no expansion, glob or brace."""


def arrays_spelt(words: list[str]) -> list[str]:
    """``words`` (one command, lexed) with each whole expansion of an array the command
    assigns exactly once, as ``NAME=( WORDS )`` of literal words (:data:`_LITERAL_RE`), and
    names nowhere else (``mapfile -t NAME``, ``read -a NAME``, ``unset NAME`` may fill it),
    spelt as those words. Any other expansion stays as written."""
    if not any(_ARRAY_RE.match(word) for word in words):
        return words
    known = _literal_arrays(words)
    out: list[str] = []
    for word in words:
        match = _ARRAY_RE.match(word)
        elements = None if match is None else known.get(match.group("name"))
        out.extend([word] if elements is None else elements)
    return out


def _literal_arrays(words: list[str]) -> dict[str, list[str]]:
    """The arrays ``words`` assign once, from literal words, and name nowhere else: each
    name with its words."""
    assigned: Counter[str] = Counter()
    named: Counter[str] = Counter(words)
    arrays: dict[str, list[str] | None] = {}
    for at, word in enumerate(words):
        if (match := _ASSIGNING_RE.match(word)) is None:
            continue
        name = match.group("name")
        assigned[name] += 1
        if word == f"{name}=" and words[at + 1 : at + 2] == ["("]:
            arrays[name] = _elements(words, at + 2)
    return {
        name: elements
        for name, elements in arrays.items()
        if elements is not None and assigned[name] == 1 and not named[name]
    }


def _elements(words: list[str], start: int) -> list[str] | None:
    """The words of an array's assignment from ``words[start]`` to its ``)`` (the lexer may
    glue a separator to it: ``);``), or None when one is not literal or no ``)`` ends it."""
    elements: list[str] = []
    for word in words[start:]:
        if word.startswith(")"):
            return elements
        if not _LITERAL_RE.match(word) or word in ("(", ";", "&", "|", "<", ">"):
            return None
        elements.append(word)
    return None
