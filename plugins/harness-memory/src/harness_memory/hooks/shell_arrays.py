"""The words a shell command's arrays and positional parameters bring where they are expanded
(P-3), read from the lexer's words of one command.

``a=(cp note.md x); "${a[@]}"`` runs ``cp note.md x``: the words stand where the array is
expanded. :func:`arrays_spelt` gives the command once for each value an array may hold where
it is expanded whole, when the command fills it only as ``NAME=( WORDS )`` and ``NAME+=( WORDS
)`` of literal words (``cmd=(ls); [ -t 1 ] || cmd+=(-la); "${cmd[@]}"`` runs ``ls`` or ``ls
-la``), so each command they make is read as any other. An array whose name the command spells
in any other word (``mapfile -t a``, ``read -aa``, ``read -r a[2]``, ``printf -v 'a[0]'``,
``declare -n r=a``, ``a[2]=…``, an element built at run time) holds words known only at run
time; so do the positional parameters after an ``eval``: such an expansion run as a command's
name (:data:`WORDS_RUN_RE`) brings places built at run time with it.

Linear in the words times the values read (at most :data:`_READINGS`, H-5).
"""

from __future__ import annotations

import itertools
import re

__all__ = ["WORDS_RUN_RE", "arrays_spelt"]

WORDS_RUN_RE = r"^\$(?:[@*]|\{[@*][^}]*\}|\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\][^}]*\})$"
"""An expansion that may give several words, as the lexer leaves it (quotes read): the
positional parameters (``"$@"``, ``$*``, ``"${@:2}"``) or an array's elements (``"${a[@]}"``,
``${a[*]}``, ``"${a[@]:1}"``)."""
_ARRAY_RE = r"^\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}$"
"""An array's elements, whole (``"${a[@]}"``, ``${a[*]}``)."""
_LITERAL_RE = r"^[^$`*?\[{]*$"
"""A word standing for itself in an array's assignment: no expansion, glob or brace."""
_NAMING_OPTIONS = "anv"
"""Short options taking a variable's name, the name glued after them too (``read -aa``,
``read -raa``: ``-a a``; ``printf -va``; ``declare -na``)."""
_ENDS_RE = r"^(?:[;&|()<>]+|\n|then|do|else|done|fi)$"
"""A word ending a simple command's words, as the lexer leaves it (``;``, ``&&``, ``);``, a
redirection)."""
_READINGS = 8
"""The most values read for the arrays of one command; past it they are words known only at
run time."""

Values = list[list[str]]


def arrays_spelt(words: list[str]) -> list[list[str]]:
    """``words`` (one command, lexed) once for each choice of the values its literal arrays
    may hold (:func:`_array_values`), each whole expansion of one spelt as that value's
    words; any other expansion stays as written. One reading when no array is expanded."""
    names = {match.group("name") for word in words if (match := re.match(_ARRAY_RE, word))}
    known = {name: values for name in sorted(names) if (values := _array_values(words, name))}
    readings = 1
    for name in list(known):
        if readings * len(known[name]) > _READINGS:
            del known[name]  # too many to read: known only at run time
        else:
            readings *= len(known[name])
    spelt: list[list[str]] = []
    for choice in itertools.product(*known.values()):
        chosen = dict(zip(known, choice, strict=True))
        spelt.append(_positional_spelt([each for word in words for each in _spelt(word, chosen)]))
    return spelt


def _positional_spelt(words: list[str]) -> list[str]:
    """``words`` with each ``$@`` after the one ``set -- WORDS`` of literal words that sets
    the positional parameters spelt as those words (``bash -c '"$@"' _ ls -la`` is read as
    ``set -- ls -la; "$@"``: it runs ``ls -la``), when nothing else may change them (another
    ``set`` giving words, ``shift``, ``eval``, ``source``, a function of its own)."""
    setting = [at for at, word in enumerate(words) if word == "set" and _sets_words(words, at)]
    if len(setting) != 1 or any(_may_change_positional(word) for word in words):
        return words
    start = setting[0] + 1
    if words[start : start + 1] != ["--"]:
        return words
    given: list[str] = []
    for word in words[start + 1 :]:
        if re.match(_ENDS_RE, word):
            break
        if not re.match(_LITERAL_RE, word) or any(char.isspace() for char in word):
            return words
        given.append(word)
    end = start + 1 + len(given)
    return [*words[:end], *(each for word in words[end:] for each in _positional(word, given))]


def _positional(word: str, given: list[str]) -> list[str]:
    """``word`` as the words it stands for: ``given`` when it is ``$@`` whole, else itself."""
    return given if word in ("$@", "${@}") else [word]


def _sets_words(words: list[str], at: int) -> bool:
    """Whether the ``set`` at ``words[at]`` gives the positional parameters words: ``--`` or a
    word that is no option among its words (``set -e``, ``set -o pipefail`` give none)."""
    taking = False
    for word in words[at + 1 :]:
        if re.match(_ENDS_RE, word):
            return False
        if taking:
            taking = False
        elif word == "--" or not word.startswith(("-", "+")):
            return True
        else:
            taking = "o" in word
    return False


def _may_change_positional(word: str) -> bool:
    """Whether ``word`` may change the positional parameters, or name ones of its own (a
    function's, whose definition it may open)."""
    return word in ("shift", "eval", "source", ".", "function", "getopts") or word.startswith("()")


def _spelt(word: str, chosen: dict[str, list[str]]) -> list[str]:
    """``word`` as the words it stands for: an array's value when it expands one of
    ``chosen`` whole, else itself."""
    match = re.match(_ARRAY_RE, word)
    if match is None or match.group("name") not in chosen:
        return [word]
    return chosen[match.group("name")]


def _array_values(words: list[str], name: str) -> Values | None:
    """The values the array ``name`` may hold where ``words`` expand it: each literal
    assignment's, each append added to any value before (either may be skipped: ``[ … ] &&
    a+=(x)``); None when a word other than these assignments and its whole expansions names
    it (:func:`_names`), one is not literal, or it is expanded before it is assigned."""
    values: Values = []
    skip = 0
    for at, word in enumerate(words):
        if skip:
            skip -= 1
            continue
        if word in (f"{name}=", f"{name}+=") and words[at + 1 : at + 2]:
            elements, skip = _elements(words, at + 1)
            if elements is None or (word.endswith("+=") and not values):
                return None
            added = [[*value, *elements] for value in values] if word.endswith("+=") else []
            values.extend(added or [elements])
        elif _names(word, name) and not (values and re.match(_ARRAY_RE, word)):
            return None
        if len(values) > _READINGS:
            return None
    unique = {tuple(value): value for value in values}
    return list(unique.values()) or None


def _names(word: str, name: str) -> bool:
    """Whether ``word`` spells ``name`` as an identifier, alone or glued to a short option
    bundle ending in one taking a name (``a[2]``, ``r=a``, ``-aa``, ``-raa``)."""
    identifier = rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"
    glued = rf"-[A-Za-z]*[{_NAMING_OPTIONS}]{re.escape(name)}(?:\[.*)?"
    return re.search(identifier, word) is not None or re.fullmatch(glued, word) is not None


def _elements(words: list[str], start: int) -> tuple[list[str] | None, int]:
    """The words of an array's assignment opening at ``words[start]`` (``(``, or ``()`` the
    lexer glued to a separator: ``();``) to its ``)`` (which may be glued too: ``);``), with
    how many words they take; None when one is not literal or no ``)`` ends it."""
    if words[start].startswith("()"):
        return [], 1
    if words[start] != "(":
        return None, 0
    elements: list[str] = []
    for word in words[start + 1 :]:
        if word.startswith(")"):
            return elements, len(elements) + 2
        if not re.match(_LITERAL_RE, word) or word in ("(", ";", "&", "|", "<", ">"):
            return None, 0
        elements.append(word)
    return None, 0
