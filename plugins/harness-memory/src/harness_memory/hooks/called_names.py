"""The function and alias names a command may call though it spells them otherwise (P-3).

A startup file's definition of a name is judged with the command only when the command uses
that name (:func:`~harness_memory.hooks.startup_definitions.startup_definitions_text`). Bash
runs a function whatever the spelling of its name: ``{cp,x} a b`` (brace expansion: ``cp a b
x a b``), ``c=c; ${c}p a b``, ``$'\\x63p' a b``, ``"c"p``, ``\\cp`` each call a ``cp``
function (round 58, U1-U3). Quotes and ANSI-C quoting are decoded before this reading; what
is left (a brace, an expansion, a glob) is read here as the pattern of the names the word
may be: :func:`called_patterns`.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from typing import NamedTuple

__all__ = ["Called", "called_patterns"]

_ANY = ".*"
"""The pattern of a part known only at run time."""
_PLAIN_RE = re.compile(r"[^\s;&|()\n{$`*?\[]+")
"""Characters of a word read as written."""
_WORD_END_RE = r"[\s;&|()]"
"""A character ending a word."""
_SPACES_RE = re.compile(r"\s+")
"""White space between words."""
_NESTING = 8
"""How many substitutions or braces deep a word is read (``$($($(…)))``); deeper, any name."""
_OPERATORS = ";&|()\n"
"""Characters ending a word and starting a new command after them."""
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "do", "while", "until", "time", "!", "{", "}", "eval"}
)
"""Words after which the next word is a command's name (``then ${c}p …``, ``eval $x …``)."""
_ASSIGNMENT_RE = r"[A-Za-z_]\w*(?:\[[^\]]*\])?\+?="
"""An assignment before a command's name (``c=cp $c x``)."""
_LOOKUP_RE = r"\0(which|command|type)\0"
"""The pattern :func:`_part` gives a substitution that only looks a program up (``$(which
cp)``, ``$(command -v cp)``, ``$(type -P cp)``), the lookup's program between NULs."""
_LOOKUP_TEXT_RE = r"\s*(which|command\s+-v|type\s+-P)\s+[\w.+-]+\s*"
"""A substitution's text that only looks a program up: it prints a path (or nothing)."""
_CODE_OPTION_RE = r"-\w*c"
"""A shell's option whose operand is code (``-c``, ``-ic``, ``-lc``): its first word is a name."""


class Called(NamedTuple):
    """What a command's non-literal words may call (:func:`called_patterns`): the
    ``patterns`` of the names they may be, whether a command's name may be ``any``, and the
    ``lookups`` a command's name is printed by (``which`` of ``$(which cp) …``: a path, never
    a function's name, unless the files define the lookup itself)."""

    patterns: list[re.Pattern[str]]
    any: bool
    lookups: frozenset[str]


def called_patterns(plain: str) -> Called:
    """The patterns of the names the words of ``plain`` (a command's text, quotes dropped and
    ANSI-C quoting decoded) may be once bash expands them: each word holding a brace
    expansion (``{cp,x}`` as ``cp|x``), an expansion (``${c}p`` as ``.*p``; ``$(…)`` and
    backquotes too, their own words read as commands as well) or a glob (``c*``, ``c?``,
    ``[c]p``), with whether a command's name is wholly built at run time (``$x a b``,
    ``$CC a b``: it may be any name), and the programs of the lookups naming a command
    (``$(which python3) -m pytest``: :data:`_LOOKUP_RE`). A literal word is no pattern (the
    caller matches those as they are). Linear in the text's length (each substitution's text
    read twice)."""
    patterns: dict[str, re.Pattern[str]] = {}
    any_name = False
    lookups: set[str] = set()
    for pattern, literal, named in _words(plain):
        if literal:
            continue
        if named and (lookup := re.fullmatch(_LOOKUP_RE, pattern)):
            lookups.add(lookup.group(1))
            continue
        pattern = re.sub(_LOOKUP_RE, _ANY, pattern)  # glued to more text: any part
        if re.fullmatch(pattern, ""):
            any_name = any_name or named
        else:
            patterns.setdefault(pattern, re.compile(pattern))
    return Called(list(patterns.values()), any_name, frozenset(lookups))


def _words(text: str, depth: int = 0) -> Iterator[tuple[str, bool, bool]]:
    """Each word of ``text`` as (its pattern, whether it is literal, whether it stands where a
    command's name does), and those of the commands its substitutions hold, at most
    :data:`_NESTING` deep (past it, one command's name that may be any)."""
    if depth > _NESTING:
        yield _ANY, False, True
        return
    at = 0
    marks = _marks(text)
    naming = True  # the next word is a command's name
    after_code = False
    while at < len(text):
        char = text[at]
        if char in _OPERATORS:
            naming, at = True, at + 1
            continue
        if char.isspace():
            at = _SPACES_RE.match(text, at).end()  # type: ignore[union-attr]
            continue
        run = _PLAIN_RE.match(text, at)
        if run and (run.end() == len(text) or re.match(_WORD_END_RE, text[run.end()])):
            at, word = run.end(), run.group()  # a literal word: no pattern, only its place
        else:
            word, at = yield from _word(text, at, depth, marks, named=naming or after_code)
        after_code = word[0] == "-" and re.fullmatch(_CODE_OPTION_RE, word) is not None
        naming = word in _KEYWORDS or (
            naming and "=" in word and re.match(_ASSIGNMENT_RE, word) is not None
        )


def _word(
    text: str, at: int, depth: int, marks: _Marks, *, named: bool
) -> Generator[tuple[str, bool, bool], None, tuple[str, int]]:
    """Yield the word of ``text`` at ``at`` holding more than literal characters (its
    pattern, not literal, whether it stands where a command's name does: ``named``), after
    the words of the commands its substitutions hold; return it and where it ends."""
    parts: list[str] = []
    start = at
    while at < len(text) and not text[at].isspace() and text[at] not in _OPERATORS:
        if run := _PLAIN_RE.match(text, at):  # literal characters, read at once
            parts.append(re.escape(run.group()))
            at = run.end()
            continue
        part, at, inner = _part(text, at, depth, marks)
        parts.append(part)
        if inner is not None:
            yield from _words(inner, depth + 1)
    word = text[start:at]
    yield "".join(parts), not re.search(r"[{$`*?\[]", word), named
    return word, at


def _part(text: str, at: int, depth: int, marks: _Marks) -> tuple[str, int, str | None]:
    """The pattern of the part of a word at ``at`` (``depth`` substitutions or braces deep;
    ``marks``: the text's :func:`_marks`), where it ends, and the text of the commands it
    holds (a substitution's), if any."""
    char = text[at]
    if char == "$" and text[at + 1 : at + 2] in ("(", "{"):
        end = marks.closing.get(at + 1, len(text))
        inner = text[at + 2 : end - 1] if text[at + 1] == "(" else None
        if inner is not None and (lookup := re.fullmatch(_LOOKUP_TEXT_RE, inner)):
            return f"\0{lookup.group(1).split()[0]}\0", end, inner
        return _ANY, end, inner
    if char == "$" and re.match(r"[\w@*#?$!-]", text[at + 1 : at + 2]):
        name = re.match(r"[A-Za-z_]\w*|.", text[at + 1 :])
        return _ANY, at + 1 + (len(name.group(0)) if name else 1), None
    if char == "`":
        end = text.find("`", at + 1)
        end = len(text) if end < 0 else end + 1
        return _ANY, end, text[at + 1 : end - 1]
    if char == "{":
        end = marks.closing.get(at, len(text))
        inner = text[at + 1 : end - 1]
        closed = at in marks.closing and not re.search(r"\s", inner)
        if closed and (choices := _choices(text, at, end, marks)) is not None:
            alternatives = "|".join(_pattern(choice, depth + 1) for choice in choices)
            return f"(?:{alternatives})", end, None
        if ".." in inner:
            return _ANY, end, None  # a sequence (``{b..d}p``)
        return re.escape(char), at + 1, None
    if char in "*?":
        return (_ANY if char == "*" else "."), at + 1, None
    if char == "[" and (end := text.find("]", at + 1)) > 0:
        return ".", end + 1, None
    return re.escape(char), at + 1, None


def _pattern(text: str, depth: int) -> str:
    """The pattern of a brace expansion's choice (itself holding braces or expansions), any
    text past :data:`_NESTING` braces deep."""
    if depth > _NESTING:
        return _ANY
    out: list[str] = []
    at = 0
    marks = _marks(text)
    while at < len(text):
        part, at, _ = _part(text, at, depth, marks)
        out.append(part)
    return "".join(out)


class _Marks(NamedTuple):
    """Where each bracket of a text closes (``(`` and ``{``: the index after its closer; the
    same kind only, nested ones counted) and each brace's commas at its own level, read in one
    pass (a bracket read again from each opening was quadratic in the text's length)."""

    closing: dict[int, int]
    commas: dict[int, list[int]]


def _marks(text: str) -> _Marks:
    """:class:`_Marks` of ``text``."""
    closing: dict[int, int] = {}
    commas: dict[int, list[int]] = {}
    open_: dict[str, list[int]] = {"(": [], "{": []}
    for mark in re.finditer(r"[(){},]", text):
        at, char = mark.start(), mark.group()
        if char in "({":
            open_[char].append(at)
            if char == "{":
                commas[at] = []
        elif char in ")}" and open_[pair := "(" if char == ")" else "{"]:
            closing[open_[pair].pop()] = at + 1
        elif char == "," and open_["{"]:
            commas[open_["{"][-1]].append(at)
    return _Marks(closing, commas)


def _choices(text: str, at: int, end: int, marks: _Marks) -> list[str] | None:
    """The choices of the brace expansion at ``at`` closing before ``end`` (``{cp,x}``:
    ``cp``, ``x``; nested braces kept whole); None for no comma at its level (``{x}`` stays as
    written, a sequence is read apart)."""
    cuts = marks.commas.get(at, [])
    if not cuts:
        return None
    edges = [at, *cuts, end - 1]
    return [text[edges[n] + 1 : edges[n + 1]] for n in range(len(edges) - 1)]
