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

import bisect
import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import NamedTuple

__all__ = ["Called", "called_patterns"]

_ANY = ".*"
"""The pattern of a part known only at run time."""
_PLAIN_RE = r"(?:[^\s;&|()\n{$`*?\[+@!]|[+@!](?!\())+"
"""Characters of a word read as written (not an extended glob's ``+(``, ``@(``, ``!(``)."""
_BRACKET_RE = r"\[[!^]?\]?(?:\[:\w+:\]|\[=[^\]]=\]|\[\.[^\]]+\.\]|[^\]])*\]"
"""A glob's bracket expression, its classes (``[[:lower:]]``) inside it: one character."""
_SOURCED_CODE_RE = r"(?:^|[\s;&|(])(?:\.|source)\s+(?:<\(|/dev/|/proc/|[^\s;&|()]*(?:\$\(|`))"
"""Code built at run time and sourced (``. <(printf …)``, ``source /dev/stdin <<< …``, a file
named by a substitution): it may call any name (review58d 3d)."""
_NOCASE_RE = r"nocaseglob|nocasematch"
"""The options making a glob match names of either case (``shopt -s nocaseglob``)."""
_WORD_END_RE = r"[\s;&|()]"
"""A character ending a word."""
_SPACES_RE = r"\s+"
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


def called_patterns(
    plain: str, environ: Mapping[str, str] | None = None, startup: Sequence[str | None] = ()
) -> Called:
    """The patterns of the names the words of ``plain`` (a command's text, quotes dropped and
    ANSI-C quoting decoded) may be once bash expands them: each word holding a brace
    expansion (``{cp,x}`` as ``cp|x``), an expansion (``${c}p`` as ``.*p``; ``$(…)`` and
    backquotes too, their own words read as commands as well) or a glob (``c*``, ``c?``,
    ``[c]p``), with whether a command's name is wholly built at run time (``$x a b``,
    ``$(cat f) a b``: it may be any name), and the programs of the lookups naming a command
    (``$(which python3) -m pytest``: :data:`_LOOKUP_RE`). A variable is its value
    (:func:`_values`: ``CC=gcc; $CC`` as ``gcc``, ``${PYTHON:-python3}`` as ``PYTHON``'s value
    in ``environ``, the harness's environment the shell inherits, else ``python3``) unless
    the ``startup`` files' texts (None: unread) or the command may set it otherwise; without
    ``environ``, any. Code sourced from a substitution or a stream (:data:`_SOURCED_CODE_RE`)
    may call any name. A literal word is no pattern (the caller matches those as they are).
    Reading is linear in the text's length (each substitution's text read twice); each
    pattern holds one ``.*`` per run of globs and expansions and matches a part between two
    of them where it first fits (:func:`_joined`), so matching a name is linear in its
    length for a word without braces or variables of several values (review58d 1: ``ls
    **********%`` backtracked exponentially)."""
    patterns: dict[str, re.Pattern[str]] = {}
    lookups: set[str] = set()
    values = _values(plain, environ, startup)
    texts = [plain, *startup]  # an option set there: names of either case (review58d 3a)
    flags = (
        re.IGNORECASE if any(text is None or re.search(_NOCASE_RE, text) for text in texts) else 0
    )
    any_name = re.search(_SOURCED_CODE_RE, plain) is not None
    for pattern, literal, named in _words(plain, values):
        if literal:
            continue
        if named and (lookup := re.fullmatch(_LOOKUP_RE, pattern)):
            lookups.add(lookup.group(1))
            continue
        if pattern == _ANY:
            any_name = any_name or named
        elif pattern:  # an empty one names nothing: the next word is the name (bash drops it)
            patterns.setdefault(pattern, re.compile(pattern, flags))
    return Called(list(patterns.values()), any_name, frozenset(lookups))


_Values = Mapping[str, tuple[str, ...] | None]
"""Each variable a command expands with the patterns of the values it may hold (None: any)."""
_BARE_RE = r"(?<![\w${{!#]){name}(?!\w)"
"""A variable's name not expanded (``CC=``, ``read CC``, ``export CC``): a way to set it."""
_SETS_ALL_RE = r"(?:^|[\s;&|(])(?:\.|source|eval)\s|\bIFS\b|\b(?:declare|typeset|local)\s+-\w*n"
"""Command text that may set any variable or split values otherwise: a sourced file, an
``eval``, an ``IFS`` change, a name reference (``declare -n r=CC``)."""


def _values(
    plain: str, environ: Mapping[str, str] | None, startup: Sequence[str | None]
) -> dict[str, tuple[str, ...] | None]:
    """The patterns of the values each variable ``plain`` expands may hold: those of each
    literal assignment in it (``CC=gcc``, ``${CC:=gcc}``) and ``environ``'s (unset: empty).
    None (any) without ``environ``, when a ``startup`` text is unread or names the variable
    otherwise than expanding it (``export CC=…``: review58d 2, failing closed), when the
    command sets it otherwise (``read CC``, ``CC=$(…)``, ``CC+=…``, :data:`_SETS_ALL_RE`), or
    when a value holds white space (split into words)."""
    names = set(re.findall(r"\$\{?([A-Za-z_]\w*)", plain))
    if environ is None or None in startup or "IFS" in environ or re.search(_SETS_ALL_RE, plain):
        return dict.fromkeys(names)
    values: dict[str, tuple[str, ...] | None] = {}
    named_in_startup = {word for text in startup if text for word in _bare_words(text, names)}
    bare = _bare_words(plain, names)
    defaults = _defaults(plain)
    for name in names:
        if name in named_in_startup:
            values[name] = None
            continue
        given = [environ.get(name, "")]
        for end in bare.get(name, []):
            assigned = re.compile(_ASSIGNED).match(plain, end)
            given.append("$" if assigned is None else assigned.group(1))
        given += defaults.get(name, [])
        if any(re.search(r"[\s$`]", value) for value in given):
            values[name] = None
        else:
            values[name] = tuple(dict.fromkeys(_value_pattern(value) for value in given))
    return values


_ASSIGNED = r"=([^\s;&|()<>]*)"
"""The literal value a bare name is given (``CC=gcc``)."""


def _bare_words(text: str, names: set[str]) -> dict[str, list[int]]:
    """Where each of ``names`` stands bare in ``text`` (:data:`_BARE_RE`), by name: the index
    after each, in order. One pass over the text's words, however many names (a search of the
    whole text for each of 20,000 names was quadratic). A few names none of which the text
    holds (``git status`` expands no variable) need no walk of a startup file's words (H-5)."""
    if len(names) <= _FEW_NAMES and not any(name in text for name in names):
        return {}
    found: dict[str, list[int]] = {}
    for word in re.finditer(_BARE_WORD_RE, text):
        if word.group() in names:
            found.setdefault(word.group(), []).append(word.end())
    return found


_FEW_NAMES = 16
"""Up to how many names :func:`_bare_words` first looks for each in the text as it is."""
_BARE_WORD_RE = r"(?<![\w${!#])\w+"
"""A whole word of word characters no ``$``, ``{``, ``!`` or ``#`` stands before: a name
stands bare (:data:`_BARE_RE`) exactly where it is one."""


def _defaults(text: str) -> dict[str, list[str]]:
    """The values each name is given by an assigning default in ``text`` (``${CC:=gcc}``, its
    text up to the next ``}``), by name, in order; a value holding white space, ``$`` or a
    backquote as ``$`` (one holding another such default: any anyway). Each found from marks
    read once (the next ``}``, the next such character), never by matching the rest of the
    text from each ``${`` (``${a:=${a:=…``: quadratic)."""
    closes = [mark.start() for mark in re.finditer("}", text)]
    unsplit = [mark.start() for mark in re.finditer(r"[\s$`]", text)]
    found: dict[str, list[str]] = {}
    for opening in re.finditer(r"\$\{([A-Za-z_]\w*):?=", text):
        start = opening.end()
        close = bisect.bisect_left(closes, start)
        if close == len(closes):
            continue  # none closes it: no default
        end = closes[close]
        split = bisect.bisect_left(unsplit, start)
        value = "$" if split < len(unsplit) and unsplit[split] < end else text[start:end]
        found.setdefault(opening.group(1), []).append(value)
    return found


def _value_pattern(value: str) -> str:
    """The pattern of a variable's value as bash reads it expanded: globbed (``*``, ``?``,
    a bracket expression), never expanded again."""
    globbed = re.sub(r"\[[^\]]*\]", "?", value)  # a bracket expression: one character
    return _joined([_GLOBS.get(char, re.escape(char)) for char in globbed])


_GLOBS = {"*": _ANY, "?": "."}
"""The pattern of each glob character."""


def _either(patterns: Sequence[str]) -> str:
    """One pattern matching any of ``patterns`` (one as itself)."""
    return patterns[0] if len(patterns) == 1 else f"(?:{'|'.join(patterns)})"


def _joined(parts: list[str]) -> str:
    """The pattern of a word's ``parts`` in order: each run of any text (``.*``) and single
    characters (``.``) holding one any text as one part (``.{n,}``), and each fixed-length
    part between two of them matched where it first fits (an atomic ``(?>.*?part)``: a later
    fit leaves no more names to the rest), so no ``fullmatch`` backtracks through them
    (review58d 1). The part after the last run stays as written (it ends the name)."""
    runs: list[tuple[int | None, list[str]]] = [(None, [])]  # (a run's least length, parts after)
    for part in parts:
        if part == _ANY:
            fixed = runs[-1][1]
            dots = 0
            while fixed and fixed[-1] == ".":
                fixed.pop()
                dots += 1
            if not fixed and runs[-1][0] is not None:  # right after another run: one run
                least = runs[-1][0] + dots
                runs[-1] = (least, fixed)
            else:
                runs.append((dots, []))
        else:
            runs[-1][1].append(part)
    out = ["".join(runs[0][1])]
    for n, (shortest, fixed) in enumerate(runs[1:], start=1):
        star = ".*" if not shortest else f".{{{shortest},}}"
        text = "".join(fixed)
        if n < len(runs) - 1 and text and all(_fixed_length(p) for p in fixed):
            out.append(f"(?>{star}?{text})")
        else:
            out.append(star + text)
    return "".join(out)


def _fixed_length(part: str) -> bool:
    """Whether ``part`` (a literal, ``.``) always matches one length (no choice, no any)."""
    return not part.startswith("(") and part != _ANY


def _words(text: str, values: _Values, depth: int = 0) -> Iterator[tuple[str, bool, bool]]:
    """Each word of ``text`` as (its pattern, whether it is literal, whether it stands where a
    command's name does), and those of the commands its substitutions hold, at most
    :data:`_NESTING` deep (past it, one command's name that may be any); ``values``: the
    variables' (:func:`_values`). A command's name that may expand to nothing leaves the next
    word a command's name (bash drops an empty word: ``$EMPTY cp a b`` runs ``cp``)."""
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
            at = re.compile(_SPACES_RE).match(text, at).end()  # type: ignore[union-attr]
            continue
        run = re.compile(_PLAIN_RE).match(text, at)
        empty = False
        if run and (run.end() == len(text) or re.match(_WORD_END_RE, text[run.end()])):
            at, word = run.end(), run.group()  # a literal word: no pattern, only its place
        else:
            named = naming or after_code
            word, at, pattern = yield from _word(text, at, depth, marks, values, named=named)
            empty = named and re.fullmatch(pattern, "") is not None
        after_code = word[0] == "-" and re.fullmatch(_CODE_OPTION_RE, word) is not None
        naming = (
            empty
            or word in _KEYWORDS
            or (naming and "=" in word and re.match(_ASSIGNMENT_RE, word) is not None)
        )


def _word(
    text: str, at: int, depth: int, marks: _Marks, values: _Values, *, named: bool
) -> Generator[tuple[str, bool, bool], None, tuple[str, int, str]]:
    """Yield the word of ``text`` at ``at`` holding more than literal characters (its
    pattern, not literal, whether it stands where a command's name does: ``named``), after
    the words of the commands its substitutions hold; return it, where it ends and its
    pattern (a lookup's glued to more text: any part)."""
    parts: list[str] = []
    start = at
    while at < len(text) and not text[at].isspace() and text[at] not in _OPERATORS:
        if run := re.compile(_PLAIN_RE).match(text, at):  # literal characters, read at once
            parts.append(re.escape(run.group()))
            at = run.end()
            continue
        part, at, inner = _part(text, at, depth, marks, values)
        parts.append(part)
        if inner is not None:
            yield from _words(inner, values, depth + 1)
    word = text[start:at]
    if len(parts) > 1:
        parts = [_ANY if re.fullmatch(_LOOKUP_RE, part) else part for part in parts]
    pattern = _joined(parts)
    yield pattern, not re.search(r"[{$`*?\[]|[+@!]\(", word), named
    return word, at, pattern


def _part(
    text: str, at: int, depth: int, marks: _Marks, values: _Values
) -> tuple[str, int, str | None]:
    """The pattern of the part of a word at ``at`` (``depth`` substitutions or braces deep;
    ``marks``: the text's :func:`_marks`; ``values``: the variables', :func:`_values`), where
    it ends, and the text of the commands it holds (a substitution's), if any."""
    char = text[at]
    if char == "$" and text[at + 1 : at + 2] in ("(", "{"):
        end = marks.closing.get(at + 1, len(text))
        inner = text[at + 2 : end - 1] if text[at + 1] == "(" else None
        if inner is not None and (lookup := re.fullmatch(_LOOKUP_TEXT_RE, inner)):
            return f"\0{lookup.group(1).split()[0]}\0", end, inner
        if inner is None:
            return _expansion(text[at + 2 : end - 1], depth, values), end, None
        return _ANY, end, inner
    if char == "$" and re.match(r"[\w@*#?$!-]", text[at + 1 : at + 2]):
        name = re.match(r"[A-Za-z_]\w*|.", text[at + 1 :])
        spelt = name.group(0) if name else "1"
        return _expansion(spelt, depth, values), at + 1 + len(spelt), None
    if char == "`":
        end = text.find("`", at + 1)
        end = len(text) if end < 0 else end + 1
        return _ANY, end, text[at + 1 : end - 1]
    if char == "{":
        end = marks.closing.get(at, len(text))
        closed = at in marks.closing and not marks.holds(marks.spaces, at + 1, end - 1)
        if closed and (choices := _choices(text, at, end, marks)) is not None:
            alternatives = "|".join(_pattern(choice, depth + 1, values) for choice in choices)
            return f"(?:{alternatives})", end, None
        if marks.holds(marks.dots, at + 1, end - 2):  # a ``..`` inside: a sequence (``{b..d}p``)
            return _ANY, end, None
        return re.escape(char), at + 1, None
    if char in "*?+@!" and text[at + 1 : at + 2] == "(":  # an extended glob's group
        return _ANY, marks.closing.get(at + 1, len(text)), None
    if char in "*?":
        return (_ANY if char == "*" else "."), at + 1, None
    if (
        char == "["
        and marks.last_bracket > at
        and (bracket := re.compile(_BRACKET_RE).match(text, at))
    ):
        return ".", bracket.end(), None
    return re.escape(char), at + 1, None


def _pattern(text: str, depth: int, values: _Values) -> str:
    """The pattern of a brace expansion's choice or a default's text (itself holding braces or
    expansions), any text past :data:`_NESTING` braces deep."""
    if depth > _NESTING:
        return _ANY
    out: list[str] = []
    at = 0
    marks = _marks(text)
    while at < len(text):
        part, at, _ = _part(text, at, depth, marks, values)
        out.append(part)
    return _joined(out)


def _expansion(inner: str, depth: int, values: _Values) -> str:
    """The pattern of a parameter expansion's text (``CC``, ``PYTHON:-python3`` of
    ``${PYTHON:-python3}``): a variable's values (:func:`_values`), with a default's
    (``:-``, ``-``, ``:=``, ``=``) when it may be empty, an alternative's (``:+``, ``+``)
    when not; any for another form (``${C/x/c}``, ``${!r}``, ``$1``), a variable of any
    value or text holding white space (review58d 2)."""
    form = re.fullmatch(r"([A-Za-z_]\w*)(?:(:?[-=+])(.*))?", inner, re.DOTALL)
    held = values.get(form.group(1)) if form else None
    if form is None or held is None or re.search(r"\s", inner):
        return _ANY
    if form.group(2) is None:
        return _either(held)
    other = _pattern(form.group(3), depth + 1, values)
    if form.group(2).endswith("+"):
        chosen = [other] if any(held) else []
        return _either(chosen + ([""] if "" in held else []))
    return _either([value for value in held if value] + ([other] if "" in held else []))


class _Marks(NamedTuple):
    """Where each bracket of a text closes (``(`` and ``{``: the index after its closer; the
    same kind only, nested ones counted), each brace's commas at its own level, and where its
    white space and each ``..`` start (ascending indices) and its last ``]`` (-1: none), read
    in one pass: what a brace holds, and whether a ``[`` may open a bracket expression, is
    decided from these, never by copying or searching the rest of the text from each one (a
    bracket read again from each opening, the text after each of 100,000 unclosed braces
    copied and searched for ``..``, or matched for a ``]`` from each unclosed ``[``, was
    quadratic in the text's length: 6.6 s)."""

    closing: dict[int, int]
    commas: dict[int, list[int]]
    spaces: list[int]
    dots: list[int]
    last_bracket: int

    @staticmethod
    def holds(starts: list[int], first: int, end: int) -> bool:
        """Whether any of ``starts`` (ascending) lies in ``first`` … ``end`` (exclusive)."""
        at = bisect.bisect_left(starts, first)
        return at < len(starts) and starts[at] < end


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
    spaces = [mark.start() for mark in re.finditer(r"\s", text)]
    dots = [mark.start() for mark in re.finditer(r"(?=\.\.)", text)]
    return _Marks(closing, commas, spaces, dots, text.rfind("]"))


def _choices(text: str, at: int, end: int, marks: _Marks) -> list[str] | None:
    """The choices of the brace expansion at ``at`` closing before ``end`` (``{cp,x}``:
    ``cp``, ``x``; nested braces kept whole); None for no comma at its level (``{x}`` stays as
    written, a sequence is read apart)."""
    cuts = marks.commas.get(at, [])
    if not cuts:
        return None
    edges = [at, *cuts, end - 1]
    return [text[edges[n] + 1 : edges[n + 1]] for n in range(len(edges) - 1)]
