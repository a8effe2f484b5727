"""The files ``sed -i`` and ``perl -i`` rewrite, told from the scripts they are given, and
whether a ``sed`` only prints (P-3).

``sed -i 's/[[:space:]]*$//' src/app.py`` rewrites ``src/app.py``; its first operand is the
script, not a file, and its ``$`` (an end of line, in single quotes) builds nothing at run
time. The guard's words carry no quoting, so a script read as a file operand looked like a
place the shell builds at run time and every such everyday edit was refused. Here a script —
``sed``'s first operand when no ``-e``/``-f`` gives one, the argument of ``sed -e``/``-f``
and of ``perl -e``/``-E`` (bundled or glued: ``-ne 'p'``, ``-pi -e``, ``-0pi -e``) — is
set apart from the files. A ``sed`` without ``-i`` whose every script is literal and holds
no command writing a file or running one (:func:`sed_prints_only`: no ``w``, ``W``, ``e``,
no ``s///w`` or ``s///e``; or run with ``--sandbox``) writes nothing but its output, like
``head``: ``sed -n 1,20p .git/config && git status`` reads git's settings and writes none.
A ``sed`` that writes has the files of its ``w``, ``W`` and ``s///w`` read out of its scripts
(:func:`sed_written_files`: ``sed -n 'wnotes/a.md' f`` writes ``notes/a.md``), as GNU sed reads
them: a label ends at white space, ``;``, ``#`` or ``}`` (``/x/b;w FILE`` writes ``FILE``), a
bracket expression holds its delimiter. Read once, linear in the words (H-5).
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = [
    "CODE_SUFFIX",
    "SedScript",
    "SedWords",
    "backup_name",
    "backup_suffix",
    "code_edits_in_place",
    "edited_files",
    "read_sed_script",
    "sed_prints_only",
    "sed_written_files",
]

_TAKING = {
    "sed": frozenset("efl"),  # -e SCRIPT, -f SCRIPT-FILE, -l N
    "perl": frozenset("eE"),  # -e CODE, -E CODE
}
"""Short options whose argument is the rest of the bundle or, at its end, the next word."""
_GLUED = {
    "sed": frozenset("i"),  # -i[SUFFIX]: the rest of the bundle is the backup's suffix
    "perl": frozenset("i0lFMmIdDxC"),  # -i[EXT], -0[OCTAL], -l[OCTAL], -F…, -M…: the rest
}
"""Short options taking the rest of their bundle as their own (never the next word)."""
_LONG_TAKING = {
    "sed": ("--expression", "--file", "--line-length"),
    "perl": (),
}
"""Long options taking an argument (``--expression=…`` or the next word), shortened or not."""
_SCRIPTS = {"sed": frozenset("ef"), "perl": frozenset("eE")}
"""The options (short letters; ``sed``'s long ``--expression``/``--file``) giving the script:
with one, no operand is the script."""


def edited_files(command: str, operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The file operands ``command`` (``sed`` or ``perl``, given ``-i``) rewrites among its
    ``operands`` (each a word and whether it is built at run time, in order): every plain
    operand but the script, the options and their arguments. ``sed``'s first operand and
    ``perl``'s (a script file it reads) are the script unless an option gives one."""
    taking, glued = _TAKING.get(command, frozenset()), _GLUED.get(command, frozenset())
    plain: list[tuple[str, bool]] = []
    scripted = False
    skip = False
    for word, built in operands:
        if skip:
            skip = False
            continue
        if word == "--":
            continue
        if word.startswith("--"):
            name = word.partition("=")[0]
            long = [option for option in _LONG_TAKING.get(command, ()) if option.startswith(name)]
            scripted = scripted or any(option in ("--expression", "--file") for option in long)
            skip = bool(long) and len(name) > 2 and "=" not in word
            continue
        if word.startswith("-") and len(word) > 1:
            letter, rest = _first_taking(word[1:], taking, glued)
            scripted = scripted or letter in _SCRIPTS.get(command, frozenset())
            skip = letter in taking and not rest
            continue
        plain.append((word, built))
    return plain if scripted else plain[1:]


CODE_SUFFIX = "$^I"
"""Perl's in-place suffix variable: code setting it (``BEGIN{$^I=…}``) edits in place, its
backups kept under a name the code builds at run time (with ``*``: anywhere)."""
_NAMES_SUFFIX_RE = (
    r"[$*]\s*(?:\{\s*)?\^I"  # $^I, $ ^I, ${^I}, ${ ^I }, *^I
    r"|[$@%*&]\s*\{\s*(?:[\"'`]|q[qwx]?\s*[^\w\s])"  # ${"\cI"}: a name a string gives
    r"|::\s*\{"  # $::{"\cI"}, $main::{…}: the symbol table by a name
    r"|\\c[Ii]|\\x\{?0*9(?![0-9a-fA-F])|\\0*11(?![0-7])"  # ^I's character, escaped
    r"|\bchr\s*\(?\s*(?:0*9|0x0*9|011)\b"  # or made: chr(9)
)
"""Perl code that may name :data:`CODE_SUFFIX` in any spelling: the variable itself (white space
after the sigil, braces), a variable whose name a string gives (``${"\\cI"}``), the symbol
table looked up by name, or the character ``^I`` a name would be built from."""


def code_edits_in_place(command: str, operands: list[tuple[str, bool]]) -> bool:
    """Whether ``perl``'s ``operands`` (its code among them) may name :data:`CODE_SUFFIX` in
    any spelling (:data:`_NAMES_SUFFIX_RE`): the code may turn in-place editing on, with a
    backup suffix of its own."""
    return command == "perl" and any(re.search(_NAMES_SUFFIX_RE, word) for word, _ in operands)


def backup_suffix(command: str, operands: list[tuple[str, bool]]) -> tuple[str, bool] | None:
    """The backup suffix ``command`` (``sed`` or ``perl``, given ``-i``) keeps each file it
    edits under, with whether it is built at run time: ``-i[SUFFIX]`` (the rest of its
    bundle: ``-i.bak``, ``-pi.orig``), ``sed --in-place=SUFFIX`` (shortened too), ``$^I``
    built at run time when perl's code names it (:func:`code_edits_in_place`); None when it
    keeps none (``-i`` alone, no ``-i``). The last one given counts, as for the programs."""
    if code_edits_in_place(command, operands):
        return CODE_SUFFIX, True
    taking, glued = _TAKING.get(command, frozenset()), _GLUED.get(command, frozenset())
    suffix: tuple[str, bool] | None = None
    skip = False
    for word, built in operands:
        if skip or word == "--" or not word.startswith("-") or len(word) < 2:
            skip = False
            continue
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if command == "sed" and len(name) > 4 and "--in-place".startswith(name):
                suffix = (value, built) if equals else None
            long = [option for option in _LONG_TAKING.get(command, ()) if option.startswith(name)]
            skip = bool(long) and len(name) > 2 and not equals
            continue
        letter, rest = _first_taking(word[1:], taking, glued)
        if letter == "i":
            suffix = (rest, built)
        skip = letter in taking and not rest
    return suffix if suffix is not None and suffix[0] else None


def backup_name(file: str, suffix: str) -> str:
    """The name ``sed -i`` and ``perl -i`` keep ``file`` (as given, from the shell's folder)
    under with ``suffix``: the suffix with each ``*`` the file's name as given (``-i'old/*'``
    keeps ``old/notes/a.md`` for ``notes/a.md``), else the name with the suffix after it."""
    return suffix.replace("*", file) if "*" in suffix else file + suffix


def _first_taking(bundle: str, taking: frozenset[str], glued: frozenset[str]) -> tuple[str, str]:
    """The first letter of a short-option ``bundle`` (``pi``, ``ne``, ``i.bak``) that takes an
    argument, and the rest of the bundle after it ("" when none takes one or it ends there)."""
    for at, letter in enumerate(bundle):
        if letter in taking or letter in glued:
            return letter, bundle[at + 1 :]
    return "", ""


_SED_LONG = (
    "--quiet",
    "--silent",
    "--debug",
    "--expression",
    "--file",
    "--follow-symlinks",
    "--in-place",
    "--line-length",
    "--null-data",
    "--zero-terminated",
    "--posix",
    "--regexp-extended",
    "--separate",
    "--sandbox",
    "--unbuffered",
    "--binary",
    "--help",
    "--version",
)
"""GNU ``sed``'s long options (any unambiguous start of one names it)."""
_SED_UNSAFE_LONG = frozenset({"--file", "--follow-symlinks", "--in-place"})
"""``sed``'s long options that write a file or take a script from one."""
_SED_SAFE_SHORT = frozenset("nErsuzlbe")
"""``sed``'s short options that neither write a file nor take a script from one (``-l N``,
``-e SCRIPT`` take an argument)."""


class SedWords:
    """A ``sed``'s words read: its ``scripts`` (each a text and whether it is built at run
    time; the first operand when no ``-e`` gives one), whether one comes from a file
    (``from_file``: ``-f``), whether it runs with ``--sandbox`` (GNU sed then refuses every
    command writing a file or running one) and whether an option writes a file or is not
    known (``unsafe``: ``-i``, ``--follow-symlinks``, an unknown one)."""

    __slots__ = ("from_file", "sandbox", "scripts", "unsafe")

    def __init__(self, operands: list[tuple[str, bool]]) -> None:
        self.scripts: list[tuple[str, bool]] = []
        self.from_file = self.sandbox = self.unsafe = False
        plain: list[tuple[str, bool]] = []
        taking: str | None = None
        for word, built in operands:
            if taking is not None:
                self._take(taking, word, built)
                taking = None
            elif word.startswith("--") and word != "--":
                taking = self._long(word, built)
            elif word.startswith("-") and len(word) > 1 and word != "--":
                taking = self._short(word, built)
            elif word != "--":
                plain.append((word, built))
        if not self.scripts and not self.from_file:
            self.scripts = plain[:1]

    @property
    def joined(self) -> str:
        """The scripts as one, each on its own lines (as GNU sed joins its ``-e`` scripts:
        ``-e 'a\\' -e 'w f'`` appends the text ``w f``)."""
        return "\n".join(text for text, _ in self.scripts)

    def _take(self, letter: str, value: str, built: bool) -> None:
        """Take ``value``, the argument of ``-e``, ``-f`` or ``-l`` (``letter``)."""
        if letter == "e":
            self.scripts.append((value, built))
        self.from_file = self.from_file or letter == "f"

    def _long(self, word: str, built: bool) -> str | None:
        """Read a long option; the letter of its argument when the next word is it."""
        name, equals, value = word.partition("=")
        known = [option for option in _SED_LONG if option.startswith(name)]
        if len(known) != 1:
            self.unsafe = True
            return None
        self.sandbox = self.sandbox or known[0] == "--sandbox"
        self.unsafe = self.unsafe or known[0] in _SED_UNSAFE_LONG
        letter = {"--expression": "e", "--file": "f", "--line-length": "l"}.get(known[0])
        if letter is not None and equals:
            self._take(letter, value, built)
            return None
        return letter

    def _short(self, word: str, built: bool) -> str | None:
        """Read a bundle of short options; the letter of its argument when the next word
        is it (``-ne``), or None (``-n``, ``-es/a/b/``, ``-i.bak``)."""
        for at, letter in enumerate(word[1:], 2):
            if letter in "efl":
                if word[at:]:
                    self._take(letter, word[at:], built)
                    return None
                return letter
            if letter not in _SED_SAFE_SHORT:
                self.unsafe = True
            if letter == "i":  # ``-i[SUFFIX]``: the rest is the backup's suffix
                return None
        return None


def sed_prints_only(operands: list[tuple[str, bool]]) -> bool:
    """Whether ``sed`` given ``operands`` (each a word and whether it is built at run time)
    writes nothing but its output: no ``-i``, no ``-f``/``--file`` (a script the guard does
    not read), every script literal (not built at run time) and holding no command that writes
    a file or runs a program (:func:`read_sed_script`), or ``--sandbox`` (GNU sed then
    refuses those commands itself). Any option it does not know makes it False."""
    words = SedWords(operands)
    if words.unsafe or words.from_file:
        return False
    if words.sandbox:
        return True
    literal = not any(built for _, built in words.scripts)
    return bool(words.scripts) and literal and read_sed_script(words.joined).prints_only


def sed_written_files(
    operands: list[tuple[str, bool]], assigned: Collection[str] = ()
) -> list[tuple[str, bool]]:
    """The files ``sed`` given ``operands`` (each a word and whether it is built at run
    time) writes by its scripts' ``w FILE``, ``W FILE`` and ``s///w FILE`` (GNU sed opens each
    as it reads the script: ``sed -n 'wnotes/a.md' f`` writes ``notes/a.md``), each with
    whether it is built at run time (a ``$`` or a backquote in a name of a script built so).
    A script the shell builds at run time (``sed -n "$(cat x)"``, ``"s|@|$(cat r)|"``) is given
    too, as built at run time: text put into it may hold a ``w FILE`` anywhere, so the files
    it writes are known only then (never ``-f FILE``'s, a program the guard does not read).
    None under ``--sandbox``. Where a script cannot be read whole (:class:`SedScript`), every
    ``w``/``W`` in its unread rest starts a name too: a name more, never one less."""
    words = SedWords(operands)
    if words.sandbox:
        return []
    built = any(built for _, built in words.scripts)
    files = [
        (name, built and any(char in name for char in "$`"))
        for name in read_sed_script(words.joined).files
    ]
    # text the shell puts into a script at run time may hold any command: a ``w FILE`` (after
    # a new line, a ``;``, or a ``s`` delimiter closing early: ``s|@|x|w FILE``)
    made = [script for script, built in words.scripts if built and _filled(script, assigned)]
    return files + [(script, True) for script in made]


_FILLED_RE = (
    r"\$\((?!\()|`|\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|\$\{|\$(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
)


def _filled(script: str, assigned: Collection[str]) -> bool:
    """Whether the shell puts text into ``script`` at run time: a command substitution
    (``$(…)``, a backquote), a ``${…}`` with an operator (``${X:-$(cat f)}``), or a variable
    the command assigns, ``$S`` or ``${S}`` alike (``S=$(cat x); sed "$S"``). A variable it
    does not assign (``sed -n "${N}p"``: the caller's number) and arithmetic (``$((n+1))``,
    whose ``$(…)`` inside are matched on their own) put in no command. The words carry no
    quoting, so a ``$`` ending a line (``'s/ *$//'``) or addressing the last one
    (``'$a\\x'``) is sed's own, unless it names such a variable."""
    for match in re.finditer(_FILLED_RE, script):
        name = match.group("braced") or match.group("name")
        if name is None or name in assigned:
            return True
    return False


class SedScript:
    """What a ``sed`` script does, read as GNU sed 4.9 reads it: the ``files`` its ``w``,
    ``W`` and ``s///w`` write (a name runs to the line's end), whether it ``runs`` a program
    (``e``, ``s///e``), and whether it was read whole (``complete``; False for a command not
    known here, an unterminated regex or a label holding an unusual character: then every
    ``w``/``W`` of the rest starts a name in ``files``). ``prints_only``: read whole, writing
    and running nothing."""

    __slots__ = ("complete", "files", "runs")

    def __init__(self) -> None:
        self.files: list[str] = []
        self.runs = False
        self.complete = True

    @property
    def prints_only(self) -> bool:
        """Whether the script was read whole and writes no file and runs no program."""
        return self.complete and not self.files and not self.runs


_SED_PLAIN = frozenset("pPdDnNgGhHxzF=lqQ{}")
"""``sed`` commands that take no file (``l``, ``q``, ``Q`` take at most a number)."""
_SED_TEXT = frozenset("aice")
"""``sed`` commands whose text (``a``, ``i``, ``c``; ``e``'s command) runs to a newline no
backslash escapes (GNU sed's one-line ``a text`` and ``a\\`` alike)."""
_SED_TO_NEWLINE = frozenset("rR#")
"""``sed`` commands whose argument (a file it reads, a comment) runs to the next newline."""
_SED_LABELLED = frozenset(":btTv")
"""``sed`` commands taking a label (``v`` a version): GNU sed ends it at white space, ``;``,
``#`` or ``}`` (measured with GNU sed 4.9: ``/x/b;w FILE`` writes ``FILE``)."""
_LABEL_END = frozenset(" \t\n;#}")
_LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
"""The characters of a label read as such; another makes the script not read whole."""
_SED_S_FLAGS = frozenset("gpiImM0123456789 \t")
"""The flags of ``s///`` that write nothing (``w FILE`` writes, ``e`` runs the result)."""


def read_sed_script(script: str) -> SedScript:
    """What the ``sed`` ``script`` does (:class:`SedScript`), read in one pass."""
    read = SedScript()
    at, end = 0, len(script)
    while 0 <= at < end:
        char = script[at]
        if char in " \t\n;!}{" or char.isdigit() or char in ",$~+" or char in _SED_PLAIN:
            at += 1
        elif char in "/\\":  # an address /re/ or \cREc
            at = _past_delimited(script, at + (char == "\\"), 1)
            while 0 <= at < end and script[at] in "IM":
                at += 1
        elif char in ("s", "y"):
            at = _past_substitution(script, at, read)
        elif char in _SED_TEXT:
            read.runs = read.runs or char == "e"
            at = _past_text(script, at + 1)
        elif char in _SED_TO_NEWLINE:
            at = _line_end(script, at)
        elif char in "wW":
            at = _past_file(script, at + 1, read)
        elif char in _SED_LABELLED:
            at = _past_label(script, at + 1)
        else:
            at = -1  # a command not known here
    if at < 0:
        read.complete = False
        read.files = list(dict.fromkeys([*read.files, *_every_file_named(script)]))
    return read


def _past_substitution(script: str, at: int, read: SedScript) -> int:
    """The index past ``s/re/new/flags`` or ``y/a/b/`` at ``at`` (an ``s///w`` name kept in
    ``read``); -1 when unterminated or given a flag not known here."""
    command = script[at]
    at = _past_delimited(script, at + 1, 2, brackets=command == "s")
    while 0 <= at < len(script) and script[at] not in ";\n}#":
        flag = script[at]
        if command == "s" and flag in "we":
            read.runs = read.runs or flag == "e"
            if flag == "w":
                return _past_file(script, at + 1, read)
        elif flag not in (_SED_S_FLAGS if command == "s" else " \t"):
            return -1
        at += 1
    return at


def _past_text(script: str, at: int) -> int:
    """The index of the newline ending a text starting at ``at`` (none a backslash escapes)."""
    while at < len(script) and script[at] != "\n":
        at += 2 if script[at] == "\\" else 1
    return min(at, len(script))


def _line_end(script: str, at: int) -> int:
    """The index of the next newline from ``at``, or the script's end."""
    newline = script.find("\n", at)
    return len(script) if newline < 0 else newline


def _past_file(script: str, at: int, read: SedScript) -> int:
    """Keep in ``read`` the file name starting at ``at`` (blanks before it skipped; it runs
    to the line's end, ``;`` and ``}`` too); -1 when there is none (sed stops there)."""
    ended = _line_end(script, at)
    name = script[at:ended].lstrip(" \t")
    if not name:
        return -1
    read.files.append(name)
    return ended


def _past_label(script: str, at: int) -> int:
    """The index just past the label starting at ``at`` (blanks before it skipped), at the
    character ending it; -1 when it holds a character not in :data:`_LABEL_CHARS`."""
    while at < len(script) and script[at] in " \t":
        at += 1
    while at < len(script) and script[at] not in _LABEL_END:
        if script[at] not in _LABEL_CHARS:
            return -1
        at += 1
    return at


def _every_file_named(script: str) -> list[str]:
    """Every name a ``w`` or ``W`` in ``script`` may start (to its line's end): a script not
    read whole may write any of them."""
    names: list[str] = []
    for at, char in enumerate(script):
        if char in "wW":
            name = script[at + 1 : _line_end(script, at)].lstrip(" \t")
            names += [name] if name else []
    return names


def _past_delimited(script: str, at: int, parts: int, *, brackets: bool = True) -> int:
    """The index just past ``parts`` parts delimited by the character at ``at`` (``/a/``:
    one, ``/a/b/``: two), backslash escapes skipped and, ``brackets``, a bracket expression
    in the first part (a regex: ``s/[/]/x/`` is one part ``[/]`` to GNU sed) read whole; -1
    when the script ends first or a bracket expression cannot be read."""
    if at < 0 or at >= len(script) or script[at] in "\n\\":
        return -1
    delimiter = script[at]
    at += 1
    for part in range(parts):
        while 0 <= at < len(script) and script[at] != delimiter:
            if script[at] == "[" and brackets and part == 0:
                at = _past_bracket(script, at)
            else:
                at += 2 if script[at] == "\\" else 1
        if at < 0 or at >= len(script):
            return -1
        at += 1
    return at


def _past_bracket(script: str, at: int) -> int:
    """The index just past the bracket expression opening at ``at`` (``[^]a/]``, with its
    ``[:alpha:]``, ``[=a=]``, ``[.-.]``); -1 when it is not closed on its line."""
    at += 1
    at += script[at : at + 1] == "^"
    at += script[at : at + 1] == "]"
    while at < len(script) and script[at] not in "]\n":
        if script[at] == "[" and script[at + 1 : at + 2] in (":", "=", "."):
            closing = script.find(script[at + 1] + "]", at + 2)
            newline = script.find("\n", at)
            if closing < 0 or 0 <= newline < closing:
                return -1
            at = closing + 2
        else:
            at += 1
    return at + 1 if at < len(script) and script[at] == "]" else -1
