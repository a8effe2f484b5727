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

import bisect
import functools
import re
from collections.abc import Iterable
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
_WORD_BEFORE = (
    r"(?:[A-Za-z_]\w{0,255}(?:\[[^\]]{0,256}\])?=\S{0,256}|\d{0,16}[<>]{1,3}&?\S{0,256}|!|time|if"
    r"|then|do|while|until|else|elif|builtin|command|exec|nohup)"
)
"""One word that may stand between an operator and a command's name: an assignment, a
redirection, a keyword (``if . ./f``, ``x=1 . ./f``, ``2>/dev/null $e …``: review56j), each
part at most 256 characters (a longer one: :func:`_long_word_before_name`)."""
_WORDS_BEFORE = rf"(?>(?:{_WORD_BEFORE}\s+){{0,16}})"
"""At most 16 :data:`_WORD_BEFORE` in a row, as many as stand there (never fewer)."""
_BEFORE_NAME = rf"\s*{_WORDS_BEFORE}(?:{_WORD_BEFORE}\s|"
"""What stands between an operator and a command's name (:data:`_WORDS_BEFORE`), then the
name, or a 17th such word, read as the name looked for (failing closed). Each start of a
command so reads at most 16 words of 256 characters: words without end, read again from each
``;``, ``(`` or ``)`` inside the words before, made the search quadratic in the text (``a=(x)
a=(x) …``: 60 s at 40,000 characters, P-3)."""
_AFTER_LONG_WORD = rf"\s+{_WORDS_BEFORE}(?:{_WORD_BEFORE}\s|\.\s|[$`])"
"""What after a word of 257 characters or more makes it one before a command's name."""
_RUN_CODE = (
    rf"{_BOUNDARY}(?:eval|source)\b"
    rf"|(?:^|[;&|(){{}}\n`]){_BEFORE_NAME}\.\s)|(?:^|[;&|({{\n`]){_BEFORE_NAME}[$`])"
    r"|(?<![\w${])(?:PATH|BASH_ENV|ENV)\b"
)
"""The part of :data:`_LOOKUP_RE` a startup file's reader reads on its own
(:attr:`Definitions.changes` leaves it out): a sourced or evaluated text, a command named at run
time, ``PATH``, ``BASH_ENV``/``ENV``."""
_CHANGES_RE = (
    rf"{_BOUNDARY}(?:hash|enable|trap|fc|ulimit)\b"
    r"|BASH_FUNC_|BASH_CMDS|BASH_ALIASES"
    r"|(?<![\w${])(?:LD_\w+|GCONV_PATH)\b"
)
"""The part of :data:`_LOOKUP_RE` that changes lookups by its words alone
(:attr:`Definitions.changes`)."""
_DECLARED = r"(?:declare|typeset|export|local|readonly|read|mapfile|readarray)"
"""The builtins setting the variables their words name."""
_OPERANDS = r"(?>(?:\s+[^\s;&|$`]{1,256}(?![^\s;&|$`])){0,64})"
"""At most 64 plain words of at most 256 characters, as many as stand there (never fewer)."""
_BUILT_NAMES = (
    r"\b(?:declare|typeset|local)\s+(?:(?:-\w*\s+){0,64}-\w*n|(?:-\w*\s+){65})"
    rf"|{_BOUNDARY}{_DECLARED}{_OPERANDS}\s+(?:[$`]|[^\s;&|$`]{{1,256}}(?![^\s;&|$`]))"
    r"|\bprintf\s+-v\s*[$`]"
)
"""The part of :data:`_LOOKUP_RE` naming a variable at run time (a name reference, ``export
"$n=…"``): code built at run time, as :data:`_RUN_CODE`'s. A 65th option or plain word is
read as one (failing closed), a word of 257 characters or more by
:func:`_long_word_before_name`: each start reads at most 64 words of 256 characters (``export
a export a …`` read the rest of the text from each ``export``: quadratic, P-3)."""
_AFTER_LONG_OPERAND = rf"{_OPERANDS}\s+(?:[$`]|[^\s;&|$`]{{1,256}}(?![^\s;&|$`]))"
"""What after a word of 257 characters or more makes it one of a :data:`_DECLARED` builtin's
before one named at run time."""
_LOOKUP_RE = f"{_CHANGES_RE}|{_BUILT_NAMES}|{_RUN_CODE}"
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


_LOOKUP_WORDS = (
    *("hash", "enable", "trap", "fc", "ulimit", "BASH_", "LD_", "GCONV_PATH"),  # _CHANGES_RE's
    *("declare", "typeset", "local", "export", "read", "mapfile", "printf"),  # _BUILT_NAMES'
    *("eval", "source", "PATH", "ENV", "$", "`"),  # _RUN_CODE's
)
"""A word each match of :data:`_LOOKUP_RE` holds, but two of :data:`_RUN_CODE`'s: a ``.``
before a white space character (``. ./f``), and a 17th word before a command's name, which
holds 17 white space characters."""


def _looked_up(pattern: str, text: str) -> bool:
    """Whether ``pattern`` (:data:`_LOOKUP_RE` or its part :data:`_RUN_CODE`) is found in
    ``text``; searched only when ``text`` holds what every match holds (:data:`_LOOKUP_WORDS`,
    ``.`` before a white space character, or 17 white space characters): the pattern takes
    about a millisecond to compile, and an everyday command (``git status && make test``)
    holds none of them (H-5)."""
    if not (
        any(word in text for word in _LOOKUP_WORDS)
        or re.search(r"\.\s", text)
        or sum(map(str.isspace, text)) >= 17
    ):
        return False
    return re.search(pattern, text) is not None


class Definitions(NamedTuple):
    """What one text defines: ``functions`` (names given a function), ``aliases`` (names
    given an alias; None: any, an alias operand the text builds at run time), ``lookup``
    (whether it changes how every name is found or runs code as programs start:
    :data:`_LOOKUP_RE`) and ``changes`` (whether it does so by its words alone, not by
    running a file or code built at run time: :data:`_CHANGES_RE`, for a startup file's
    reader, which follows those on its own)."""

    functions: frozenset[str]
    aliases: frozenset[str] | None
    lookup: bool
    changes: bool

    def redefines(self, name: str) -> bool:
        """Whether ``name`` (``date``, ``cat``, ``echo``) may run another program than the
        one of that name the environment finds."""
        aliased = self.aliases is None or name in self.aliases
        return self.lookup or aliased or name in self.functions


def plain_text(text: str) -> str:
    """``text`` as read for definitions: line continuations removed, then every quote and
    backslash dropped (``PA''TH``, ``"PA"TH``, ``PA\\TH`` read as ``PATH``)."""
    return text.replace("\\\n", "").translate(_DROPPED)


_DROPPED = str.maketrans("", "", "'\"\\")
"""The quotes and backslashes :func:`plain_text` drops."""


def _quoted_space_joined(text: str) -> str:
    """``text`` as :func:`plain_text` reads it, but each white space character bash keeps
    inside a word (quoted: ``A="a b"``, ``X='1 2'``; escaped: ``A=a\\ b``) read as ``_``: a
    word stays one word, as bash splits it, so the words before a command's name are read
    as bash reads them (``A="a b" . ./g`` sources ``./g``; read without its quotes, ``b``
    was the name: rv-guard60b, P-3). A comment is left as it is (its quotes open nothing: ``#
    don't``); a quote left open runs to the text's end. Linear."""
    return re.sub(_QUOTED_PART_RE, _joined_part, text.replace("\\\n", "")).translate(_DROPPED)


def _joined_part(part: re.Match[str]) -> str:
    """A comment as it is, a quoted part or an escape with its white space read as ``_``."""
    return part.group() if part.group()[0] == "#" else part.group().translate(_JOINED)


_QUOTED_PART_RE = (
    r"""(?ms)(?:^|(?<=[\s;&|()<>]))#[^\n]*|\$'(?>(?:[^'\\]++|\\.)*)'?|'[^']*'?"""
    r"""|"(?>(?:[^"\\]++|\\.)*)"?|\\."""
)
"""A part of a text holding white space bash may keep inside a word, or a comment (a ``#``
starting a word, to the line's end: its quotes open nothing): an ANSI-C quoted part (its
``\\'`` inside), a single-quoted or double-quoted part (to the text's end when left open), an
escaped character."""
_JOINED = str.maketrans(" \t\n\r\f\v", "______")
"""White space read as ``_`` (:func:`_quoted_space_joined`)."""


@functools.lru_cache(maxsize=8)
def read_definitions(text: str) -> Definitions:
    """The functions, aliases and name lookups ``text`` defines (:class:`Definitions`), read
    from :func:`plain_text` of ``text`` and of its ANSI-C quoting decoded, failing closed: a
    mention is a definition; a sourced text or a name built at run time is also looked for in
    :func:`_quoted_space_joined` (``A="a b" . ./g``). Memoised by text (a pure function): a
    command's readers ask it once for each pipe and printer, which read whole was quadratic
    in a command of many pipes."""
    text = _decoded(text)
    plain = plain_text(text)
    functions: frozenset[str] = frozenset()
    if "(" in plain or "function" in plain:  # what :data:`_FUNCTION_RE` needs (H-5)
        found = re.finditer(_FUNCTION_RE, plain)
        functions = frozenset(match.group("name") or match.group("kw") for match in found)
    aliases: frozenset[str] | None = frozenset()
    if "alias" in plain and re.search(_ALIAS_RE, plain):
        aliases = _alias_names(_alias_lines(text, plain))
    lookup = _looked_up(_LOOKUP_RE, plain) or _long_word_before_name(plain)
    if not lookup and any(mark in text for mark in "'\"\\"):  # only then a word holds white space
        joined = _quoted_space_joined(text)
        lookup = _looked_up(_RUN_CODE, joined) or _long_word_before_name(joined)
    changes = lookup and re.search(_CHANGES_RE, plain) is not None
    return Definitions(functions, aliases, lookup, changes)


def _long_word_before_name(plain: str) -> bool:
    """Whether a word of ``plain`` longer than :data:`_WORD_BEFORE` and :data:`_OPERANDS` read
    (257 characters or more) stands where :data:`_LOOKUP_RE` would have read on: holding
    ``=``, ``<`` or ``>`` (an assignment's or a redirection's, perhaps) before a command's name
    :data:`_RUN_CODE` looks for (``X=<300 characters> . ./f``), or, in a text naming a
    :data:`_DECLARED` builtin, before a word named at run time (``export <300 characters>
    "$n=…"``): failing closed where the search reads no further. Linear: each such word is
    followed once, at most 64 words on."""
    declared: bool | None = None  # whether ``plain`` names one: asked at its first long word
    for word in re.finditer(r"\S{257,}", plain):  # the patterns compiled only then (H-5)
        after = re.compile(_AFTER_LONG_WORD)  # ``re``'s cache: compiled once a process
        if re.search(r"[=<>]", word.group()) and after.match(plain, word.end()) is not None:
            return True
        if declared is None:
            declared = re.search(_DECLARED, plain) is not None
        if declared and re.compile(_AFTER_LONG_OPERAND).match(plain, word.end()) is not None:
            return True
    return False


def with_ansi_c_decoded(text: str) -> str:
    """``text`` with each run of its lines holding ANSI-C quoting decoded after it, in time
    linear in those lines (:func:`_decoded`): ``shopt -s $'\\x64otglob'`` mentions
    ``dotglob`` once read so."""
    return _decoded(text)


def _decoded(text: str) -> str:
    """``text`` with the lines holding ANSI-C quoting (:data:`_ANSI_C_RE`: ``$'P\\x41TH'``,
    from the line it opens on to the one it closes on) decoded after it
    (:func:`~harness_memory.hooks.bash_quoting.bash_quoting`), read as ``PATH``: a mention
    there is one too. Only those lines: a 100 KiB startup library decoded whole took a quarter
    of a second, and a decoded line read out of its context is only more text read. Each line
    once, however many such words it holds (one line of 100,000 ``$'`` was copied and decoded
    once for each: minutes), found without searching it again for each word."""
    if "$'" not in text:
        return text
    ends = [newline.start() for newline in re.finditer("\n", text)]  # where each line ends
    spans: list[list[int]] = []  # [first, end] of each run of lines, in order
    for match in re.finditer(_ANSI_C_RE, text):
        line = bisect.bisect_left(ends, match.start())  # its first line: ends[line - 1] + 1 on
        last = bisect.bisect_left(ends, match.end())
        end = ends[last] if last < len(ends) else len(text)
        if spans and match.start() <= spans[-1][1]:  # opens on the lines read already
            spans[-1][1] = end
        else:
            spans.append([ends[line - 1] + 1 if line else 0, end])
    return f"{text}\n{bash_quoting(chr(10).join(text[first:end] for first, end in spans))}"


_ANSI_C_RE = r"(?s)\$'(?:[^'\\]|\\.)*'?"
"""An ANSI-C quoted word (``$'…'``, its escapes ``\\'`` kept inside; to the text's end when
left open)."""


_ALIAS_WORD_RE = r"(?<![\w-])alias(?![\w-])"
"""``alias`` as a word of its own inside a longer one (not ``aliases``, ``nvm_alias``)."""
_NESTED_RE = r"[\s;&|`(){}]"
"""A word that may hold a command of its own (``bash -c 'alias …'``, ``eval "alias …"``)."""


def definitions_of(text: str, names: Iterable[str]) -> Definitions:
    """:func:`read_definitions` of the lines of ``text`` (its ANSI-C quoting decoded, its line
    continuations joined) that may define one of ``names`` or change lookups by their words:
    those whose plain text holds a name of ``names`` as a word, ``alias``, ``function`` or a
    word of :data:`_CHANGES_RE`. A function's name and its ``()``, an ``alias`` and its
    operands, stand on one line, so what it says of ``names`` (and ``changes``) is what the
    whole text's reading says; its ``lookup`` tells only of those lines. For a startup file's
    reader (P-3): a 100 KiB library read whole took tens of milliseconds."""
    decoded = _decoded(text).replace("\\\n", "")
    wanted = re.compile(
        rf"\b(?:{'|'.join(map(re.escape, names))})\b|alias|function|hash|enable|trap|\bfc\b"
        r"|ulimit|BASH_|LD_|GCONV_PATH"
    )
    lines = decoded.split("\n")
    plain = plain_text(decoded)  # the same lines, their quotes dropped
    kept: dict[int, None] = {}
    line = at = 0
    for match in wanted.finditer(plain):  # one scan: each match's line counted on the way
        line += plain.count("\n", at, match.start())
        at = match.start()
        kept[line] = None
    return read_definitions("\n".join(lines[line] for line in kept))


def _alias_lines(text: str, plain: str) -> str:
    """The lines of ``text`` (its line continuations joined) whose plain text holds a word
    ``alias`` (:data:`_ALIAS_RE`), for :func:`_alias_names`: a line's end ends an ``alias``
    command, so the others define no alias; a quote a line leaves open makes it unreadable (any
    name: failing closed). Keeps a 100 KiB script's reading linear in its ``alias`` lines (a
    startup file's library: bash-completion's 83 KiB took half a second split whole)."""
    lines = text.replace("\\\n", "").split("\n")
    plain_lines = plain.split("\n")
    return "\n".join(
        line for line, seen in zip(lines, plain_lines, strict=False) if re.search(_ALIAS_RE, seen)
    )


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
        elif re.search(_ALIAS_WORD_RE, word) and re.search(_NESTED_RE, word):
            if word == text:  # no shorter words in it (``{alias,nproc=./dots}``): any alias
                return None
            inner = _alias_names(word)
            if inner is None:
                return None
            names.update(inner)
    return frozenset(names)
