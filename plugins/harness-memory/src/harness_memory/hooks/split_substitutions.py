"""Unquoted expansions the shell splits into words the guard never sees (P-3, round 58).

Bash splits the output of an unquoted command substitution (``$(cat f)``, `` `cat f` ``,
``$(<f)``) and the value of an unquoted variable at white space, each piece a word of its own.
Where such a word is a command's name, the pieces after the first are that program's
arguments: with ``f`` holding ``cp note.md ../other/x.md``, ``$(cat f)`` runs ``cp`` with
two arguments no word of the command shows; ``$(cat f) note.md a.md`` with ``cp -t ../other``
in ``f`` writes ``../other/note.md`` (a substitution at the start of a longer word splits
too: ``$(cat f)/x``). The guard read such a word as one program named at run time and judged
only the words it saw. Where such a word is an argument of a program whose options decide
where it writes or what it runs (``find . $(cat f)`` with ``-exec cp {} ../other ;``, ``tar
$(cat f)``, ``sed $(cat f)``, ``env $(cat f)``), the pieces are options
the guard never read either.

:func:`split_words_run` names each such expansion in a command's text, read as bash quotes
it: a substitution or variable in double quotes is one word (``"$(cat f)"``) and is not
named. A substitution printing a path from a literal name (:data:`_PRINTER_RES`: ``$(which
python3)``, ``$(command -v node)``, ``$(npm bin)``, ``$(go env GOPATH)``, ``$(brew
--prefix)``, ``$(git rev-parse --show-toplevel)``, ``$(dirname "$0")``, ``$(pwd)``, ``$(pyenv
which python)``, ``$(poetry env info -p)``) carries no argument the agent chose, unless the
program printing it is redefined (by the command, the environment or a startup file: the
caller's ``trusted``), and is not named. A variable is named only as a command's name, and
only when the command itself sets it otherwise than to a literal (``read x < f; $x``,
``x=$(cat f); $x``, ``for x in $(cat f)``): one it sets to a literal (``PY=python3; $PY -m
pytest``, ``for x in ls bash``: each word, :mod:`~harness_memory.hooks.loop_words`) is read by
the guard's own rules, one it never sets comes from the environment (``$CC``, ``$EDITOR``),
and one as an argument (``mkdir -p $out``) is judged as before. Quoted as a command's name
(``"$x"``, ``"${x}"``), such a variable is one word, but the program it names is known only at
run time all the same: it is named too, with its quotes (round 59).
Arithmetic (``$((…))``) prints a number and is never named. Linear in the text's length
but for the substitutions read again inside (each once per level, at most 8 levels).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from harness_memory.hooks.shell_words import split_words

__all__ = [
    "LITERAL_WORD_RE",
    "LOOP_VALUES_CAP",
    "PRINTER_PROGRAMS",
    "split_words_run",
    "without_printers",
]

_OPERAND = r"""(?:[A-Za-z0-9_.+@%:,/~=-]+|"[A-Za-z0-9_.+@%:,/~= -]*"|'[^']*'|"?\$0"?"""
_OPERAND += r"""|"?\$\{BASH_SOURCE(?:\[0\])?\}"?|"?\$BASH_SOURCE"?|"?\$PWD"?)"""
"""A printer's operand that is text the command shows (a literal name or path, ``"$0"``,
``"${BASH_SOURCE[0]}"``, ``"$PWD"``): never words read from a file."""
_PRINTER_RES = (
    r"(?:which|command\s+-[vV]|type\s+-[Pp]|(?:py|rb|nod)env\s+which|rustup\s+which|nvm\s+which)"
    rf"\s+{_OPERAND}",
    r"(?:npm|pnpm|yarn)\s+(?:bin|root|prefix)(?:\s+(?:-g|--global))?|yarn\s+global\s+dir",
    r"go\s+env(?:\s+[A-Z][A-Z0-9_]*)+|brew\s+--prefix(?:\s+[A-Za-z0-9_.+@/-]+)?",
    r"git\s+rev-parse(?:\s+--(?:show-toplevel|git-dir|absolute-git-dir|git-common-dir"
    r"|show-cdup|show-prefix))+",
    rf"(?:dirname|realpath|readlink\s+-[efm]|basename)(?:\s+{_OPERAND})+",
    r"pwd(?:\s+-[LP])?",
    r"poetry\s+env\s+info\s+(?:-p|--path)|pipenv\s+--(?:venv|where)",
    r"(?:py|rb|nod)env\s+(?:prefix|root)(?:\s+[A-Za-z0-9_.+-]+)?|conda\s+info\s+--base",
    r"rustc\s+--print\s+sysroot|gem\s+env\s+home|xcode-select\s+-p|xcrun\s+--find\s+[\w.+-]+",
)
"""Substitutions printing a path from a literal name: the program looked up, a tool's own
folder, the repository's top, a literal path's folder. Each alone in its substitution."""
_PRINTER_RE = "|".join(_PRINTER_RES)
_PRINTER_SUBSTITUTION_RE = rf"(?:\$\((?P<opened>)|`)\s*(?:{_PRINTER_RE})\s*(?(opened)\)|`)"
"""A substitution of :data:`_PRINTER_RES`, as written in a command's text (``$(…)`` or
`` `…` ``: the printers written once, closed as opened; twice, they took 2 ms to compile in
every hook process reading one, H-5)."""
PRINTER_PROGRAMS = frozenset(
    {"which", "command", "type", "pyenv", "rbenv", "nodenv", "rustup", "nvm", "npm", "pnpm"}
    | {"yarn", "go", "brew", "git", "dirname", "realpath", "readlink", "basename", "pwd"}
    | {"poetry", "pipenv", "conda", "rustc", "gem", "xcode-select", "xcrun"}
)
"""The programs :data:`_PRINTER_RES` run: one the command, the environment or a startup file
may redefine prints what its definition prints (the caller's ``trusted`` says)."""
_OPTION_READERS = frozenset(
    {"find", "tar", "sed", "perl", "awk", "gawk", "xargs", "env"}
    | {"sudo", "doas", "command", "builtin", "exec", "nohup", "nice", "time", "timeout"}
    | {"stdbuf", "setsid", "ionice", "taskset", "flock", "chrt", "unbuffer", "nocache"}
    | {"eatmydata", "fakeroot", "chronic", "busybox", "toybox", "unzip", "dd", "curl", "wget"}
    | {"bash", "sh", "dash", "zsh", "ksh", "rsync", "install", "cp", "mv", "ln", "tee"}
    | {"touch", "truncate", "rm", "rmdir", "unlink", "shred", "mkdir", "chmod", "chown"}
    | {"chgrp", "sort", "mktemp"}
)
"""Programs whose words the guard reads for where they write or what they run: an argument of
theirs split at run time may be an option it never read (``find . $(cat f)`` giving ``-exec
cp {} ../other ;``, ``env $(cat f)`` naming the program). Other programs' arguments
(``kill $(pgrep x)``, ``echo $(date)``) are judged as before."""
_WRAPPING = frozenset(
    {"sudo", "doas", "env", "command", "builtin", "exec", "nohup", "nice", "time", "setsid"}
    | {"stdbuf", "unbuffer", "nocache", "eatmydata", "fakeroot", "chronic"}
)
"""Wrappers whose next word, past their options, is the program they run (``sudo bash -c``)."""
_VALUED = frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-R", "-T", "-n"})
"""Wrappers' options taking the next word (``sudo -u root``, ``nice -n 5``, ``env -u NAME``)."""
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox"})
"""Shells whose ``-c`` operand is code read as a command's own."""
_RUNNING = _WRAPPING | _SHELLS | {"find", "xargs", "eval", "source", ".", "timeout", "ionice"}
_RUNNING |= {"taskset", "flock", "chrt", "busybox", "toybox"}
"""Programs of :data:`_OPTION_READERS` whose words after ``--`` still name a program or are
its expression (``sudo -- $(cat f)``, ``find -- . $(cat f)``): there ``--`` ends nothing
the guard may rely on."""
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"})
"""Words after which the next is a command's name."""
_ASSIGNMENT_RE = r"^[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\+?="
_VARIABLE_RE = (
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)[^}]*\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
)
_ENDS = ";&|\n()"
_SPACE = " \t"


_QUIET_RE = r"(?:\s*2>\s*/dev/null\s*)?"
"""A listing's error output thrown away (``2>/dev/null``): no word of it reaches the list."""
_LISTER_RE = (
    r"(?:git\s+ls-files|git\s+diff\s+--name-only|ls|find|grep\s+-\w*l\w*)(?:\s[^|;&<>`$()]*)?"
    rf"{_QUIET_RE}(?:\|\s*(?:head|tail|sort|uniq|grep)(?:\s[^|;&<>`$()]*)?{_QUIET_RE})*"
)
"""A substitution listing file names (``$(git ls-files '*.md')``, ``$(ls src/*.c)``, ``$(find
. -name '*.pyc')``, ``$(grep -rl foo src)``, ``| head -1``, ``2>/dev/null`` after each):
trusted as an argument, where its words are names of files already there (a file named like an
option, ``-t``, is the known limit: ``--`` before the list closes it), never as a command's
name."""
_DEEPEST = 8
"""How many substitutions deep the text is read; one nested deeper is taken as split (no
everyday command nests so deep, and the reading stays linear in the text's length)."""


class _Word:
    """One word of a simple command as bash splits it: its raw text, the unquoted
    expansions in it (each as written: ``$(cat f)``, `` `cat f` ``, ``$x``) and the variables
    in its double-quoted parts (``"$x"``, ``"${x}"``: never split, but still a value)."""

    __slots__ = ("expansions", "parts", "quoted")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.expansions: list[str] = []
        self.quoted: list[str] = []

    @property
    def text(self) -> str:
        """The word as written."""
        return "".join(self.parts)


class _Scan:
    """One reading of a command for :func:`split_words_run`: the whole command (for the
    variables it sets), the caller's trust in printers and in name-only substitutions, and
    each variable's verdicts (set, read at run time), each read once."""

    def __init__(
        self, command: str, trusted: Callable[[str], bool], named: Callable[[str], bool]
    ) -> None:
        self.command = command
        self.trusted = trusted
        self.named = named
        self.set_at_run_time: dict[str, bool] = {}
        self.read_at_run_time: dict[str, bool] = {}

    def read(self, text: str, depth: int) -> list[str]:
        """The split expansions of ``text``, ``depth`` substitutions deep."""
        if depth > _DEEPEST:
            return ["$(…)"]
        found: list[str] = []
        inners: list[str] = []
        for words in _simple_commands(text, inners):
            found.extend(self._split_in(words, depth))
        for inner in inners:
            found.extend(self.read(inner, depth + 1))
        return found

    def _split_in(self, words: list[_Word], depth: int) -> list[str]:
        """The split expansions of one simple command's ``words``: in its name, in the
        arguments of a program of :data:`_OPTION_READERS` up to a ``--`` (not one of
        :data:`_RUNNING`), and in the code a shell's ``-c`` or ``eval`` runs."""
        texts = [word.text for word in words]
        at = 0
        while at < len(words) and (texts[at] in _KEYWORDS or re.match(_ASSIGNMENT_RE, texts[at])):
            at += 1
        if at == len(words):
            return []
        name = texts[at].rsplit("/", 1)[-1]
        found = [each for each in words[at].expansions if self._untrusted(each, argument=False)]
        found.extend(f'"{each}"' for each in words[at].quoted if self._read_variable(each))
        for word, text in zip(words[at + 1 :], texts[at + 1 :], strict=True):
            if name not in _OPTION_READERS or (text == "--" and name not in _RUNNING):
                break  # ``cp -- $(ls *.c) build/``: names, never options (judged as before)
            found.extend(each for each in word.expansions if self._untrusted(each, argument=True))
        if (code := _code_run(texts[at:])) is not None:
            found.extend(self.read(code, depth + 1))
        return found

    def _untrusted(self, expansion: str, *, argument: bool) -> bool:
        """Whether the unquoted ``expansion`` may split into words the agent chose: a
        substitution other than a printer (:func:`_printer`), a name-only one or, as an
        argument, a list of files (:data:`_LISTER_RE`); or, as a command's name, a variable
        the command sets otherwise than to a literal (:func:`_set_at_run_time`: as an
        argument, its value is read by the guard's own rules, ``mkdir -p $out``)."""
        if expansion.startswith("$((") and expansion.endswith("))"):
            return False  # arithmetic: a number
        if expansion.startswith(("$(", "`")):
            inner = (expansion[2:-1] if expansion.startswith("$(") else expansion[1:-1]).strip()
            if argument and re.fullmatch(_LISTER_RE, inner):
                return False
            return not self.named(inner) and not _printer(inner, self.trusted)
        if argument:
            return False  # a variable's words as arguments: judged by the guard's own rules
        return self._run_time_variable(expansion)

    def _run_time_variable(self, expansion: str) -> bool:
        """Whether ``expansion`` is a variable (``$x``, ``${x}``, ``${x:-y}``) the command
        sets otherwise than to a literal (:func:`_set_at_run_time`), read once per name;
        ``$1``, ``$@`` (the positional words) are read by the guard's own rules."""
        name = _variable_name(expansion)
        if name is not None and name not in self.set_at_run_time:
            self.set_at_run_time[name] = _set_at_run_time(name, self.command)
        return name is not None and self.set_at_run_time[name]

    def _read_variable(self, expansion: str) -> bool:
        """Whether the quoted ``expansion`` is a variable the command reads a value into or
        loops over words not literal (:func:`_read_at_run_time`: ``read x``, ``for x in
        $(…)``); one assigned a substitution (``d=$(echo cp); "$d" a b``) is a program named
        at run time like ``"$(echo cp)"``, judged by the words it is given as before."""
        name = _variable_name(expansion)
        if name is not None and name not in self.read_at_run_time:
            self.read_at_run_time[name] = _read_at_run_time(name, self.command)
        return name is not None and self.read_at_run_time[name]


def split_words_run(
    command: str, trusted: Callable[[str], bool], named: Callable[[str], bool]
) -> list[str]:
    """The unquoted expansions of ``command`` bash splits into words of a command's name or
    of an argument of a program in :data:`_OPTION_READERS` (module docstring), each as
    written, in their order; empty when none. ``trusted(program)``: whether a printer's
    program (:data:`PRINTER_PROGRAMS`) prints what the system's does; ``named(inner)``:
    whether a substitution's text prints one name the command cannot choose (``date +%F``,
    ``nproc``: the guard's name-only reading). Substitutions are read again inside, quoted or
    not (``"$($(cat f))"``), up to :data:`_DEEPEST` deep. Never raises."""
    return _Scan(command, trusted, named).read(command, 0)


def without_printers(command: str) -> str:
    """``command`` with each printer's substitution (:data:`_PRINTER_RES`) put as a plain
    word, for reading what the rest of it defines: a command opening with ``$(which
    python3)`` is named at run time, which the definitions' reader takes as one that may
    change every lookup (``e=eval; $e …``). Nested ones from the inside out (``$(dirname
    "$(realpath "$0")")``)."""
    if "$(" not in command and "`" not in command:
        return command  # no substitution: no pattern compiled (H-5)
    while (plain := re.sub(_PRINTER_SUBSTITUTION_RE, "printed", command)) != command:
        command = plain
    return command


def _code_run(words: list[str]) -> str | None:
    """The shell code a simple command (``words`` from its name on, as written) runs as its
    own: a shell's ``-c`` operand (``bash -c '…'``, ``sudo sh -ec '…'``, past wrappers and
    their options) or ``eval``'s words joined, each as bash unquotes it; None for any other."""
    values = [_unquoted(word) for word in words]
    at = 0
    while at < len(values) and (
        values[at].rsplit("/", 1)[-1] in _WRAPPING
        or values[at].startswith("-")
        or re.match(_ASSIGNMENT_RE, values[at])
    ):
        at += 2 if values[at] in _VALUED else 1
    if at < len(values) and values[at] == "eval":
        return " ".join(values[at + 1 :])
    if at == len(values) or values[at].rsplit("/", 1)[-1] not in _SHELLS:
        return None
    for option in range(at + 1, len(values) - 1):
        if re.match(r"^-[A-Za-z]*c[A-Za-z]*$", values[option]):
            return values[option + 1]
    return None


def _unquoted(text: str) -> str:
    """A word's text as bash hands it to the program: its quotes removed, each ``$`` and
    backquote bash leaves as written (single-quoted, escaped) kept, each it expands first
    put as ``_`` (``eval "$(pyenv init -)"`` runs what ``pyenv`` prints, judged elsewhere,
    not a ``$(…)`` of its own); the text itself when it cannot be split (a quote left open)."""
    try:
        value = "".join(split_words(text))
        dead = "".join(split_words(text, dead="\0"))  # the same, each kept one a NUL
    except ValueError:
        return text
    return "".join(
        "_" if char in "$`" and left != "\0" else char
        for char, left in zip(value, dead, strict=True)
    )


def _printer(inner: str, trusted: Callable[[str], bool]) -> bool:
    """Whether a substitution's text ``inner`` is one of :data:`_PRINTER_RES` (a printer's
    substitution in its operands read as a path: ``dirname "$(realpath "$0")"``), each
    printer's program trusted."""
    for match in re.finditer(_PRINTER_SUBSTITUTION_RE, inner):
        nested = match.group(0)
        if not _printer(nested[2:-1] if nested.startswith("$(") else nested[1:-1], trusted):
            return False
    inner = without_printers(inner).strip()
    if not re.fullmatch(_PRINTER_RE, inner):
        return False
    return trusted(inner.split(None, 1)[0])


def _variable_name(expansion: str) -> str | None:
    """The name of the variable ``expansion`` is (``$x``, ``${x}``, ``${x:-y}``); None for
    any other (``$1``, ``$@``, ``$(…)``)."""
    variable = re.match(_VARIABLE_RE, expansion)
    return None if variable is None else variable.group("braced") or variable.group("plain")


def _read_at_run_time(name: str, command: str) -> bool:
    """Whether ``command`` mentions the variable ``name`` as a word other than an assignment's
    name or a loop's over literal words (``read x``, ``while read -r x``, ``for x in $(…)``,
    ``for x in *.sh``, ``mapfile x``): a value read at run time, or one of words the guard
    cannot list."""
    for mention in re.finditer(rf"(?<![\w$.{{/=-]){re.escape(name)}(?![\w./-])", command):
        after = command[mention.end() :]
        if not after.startswith(("=", "+=")) and not _literal_loop(command, mention.start(), after):
            return True
    return False


def _set_at_run_time(name: str, command: str) -> bool:
    """Whether ``command`` sets the variable ``name`` otherwise than to a literal: any mention
    of the name as a word (``read x``, ``for x in``, ``mapfile x``, ``printf -v x``) or an
    assignment of a value holding an expansion or a quote (``x=$(cat f)``, ``x="$y"``); or
    the command runs code that may set any variable (``source``, ``.``, ``eval``)."""
    if re.search(r"(?:^|[\s;&|(])(?:source|\.|eval)\s", command):
        return True
    for mention in re.finditer(rf"(?<![\w$.{{/=-]){re.escape(name)}(?![\w./-])", command):
        after = command[mention.end() :]
        if _literal_loop(command, mention.start(), after):
            continue  # ``for x in ls pwd; do $x; done``: each value a literal word
        if not after.startswith(("=", "+=")):
            return True
        value = re.match(r"\+?=(\S*)", after)
        if value is None or re.search(r"[$`'\"\\]", value.group(1)):
            return True
    return False


LITERAL_WORD_RE = r"[A-Za-z0-9_.+@%:,/=-]+"
"""A loop's word that is literal: no quote, expansion, glob or brace, nothing bash splits
again or expands into file names."""
LOOP_VALUES_CAP = 8
"""The most literal words a loop naming its program by its variable is followed through
(:func:`~harness_memory.hooks.tool_targets.shell_paths` reads its body once per word); a
loop over more is read as one setting its variable at run time."""
_LITERAL_LOOP_RE = (
    rf"[ \t]+in((?:[ \t]+{LITERAL_WORD_RE}){{1,{LOOP_VALUES_CAP}}})[ \t]*(?:;|\n)\s*do(?=\s)"
)
"""The rest of ``for NAME in WORDS; do`` (or ``select``) whose words are literal, at most
:data:`LOOP_VALUES_CAP` of them."""


def _literal_loop(command: str, at: int, after: str) -> bool:
    """Whether the mention of a name at ``command[at:]`` (``after``: the text after it) is a
    ``for`` or ``select`` loop's name over literal words (:data:`_LITERAL_LOOP_RE`: ``for x
    in ls pwd; do``): the variable takes each word as written, and unquoted it splits into
    that word alone, unless the command sets ``IFS`` (``IFS=:; for x in cp:a:b``), which may
    split one into a program and its arguments. The guard reads the loop's body once per word
    (``for x in bash; do "$x" ~/w; done`` as ``bash ~/w``), so a word that is a shell, a path
    or ``source`` is judged for what it runs."""
    if "IFS" in command or not re.search(r"(?:^|[\s;&|(])(?:for|select)[ \t]+$", command[:at]):
        return False
    return re.match(_LITERAL_LOOP_RE, after) is not None


def _simple_commands(text: str, inners: list[str]) -> list[list[_Word]]:
    """``text``'s simple commands, each as its words (:class:`_Word`), read as bash quotes;
    each command substitution's inner text (quoted or not) added to ``inners``. Redirection
    targets are no words (bash does not split them)."""
    commands: list[list[_Word]] = [[]]
    word: _Word | None = None
    redirect = False
    at, end = 0, len(text)

    def close() -> None:
        nonlocal word, redirect
        if word is not None and not redirect:
            commands[-1].append(word)
        if word is not None:
            redirect = False
        word = None

    while at < end:
        char = text[at]
        if char in _SPACE:
            close()
            at += 1
            continue
        if text.startswith("((", at) and word is None:  # ``(( $(nproc) > 2 ))``: a number
            close_at = _closing(text, at)
            _substitutions_in(text[at + 1 : close_at], inners)
            at = close_at + 1
            continue
        if char in _ENDS:
            close()
            redirect = False
            commands.append([])
            at += 1
            continue
        if char in "<>":
            close()
            redirect = True
            at += 1
            while at < end and text[at] in "<>&|":
                at += 1
            continue
        if word is None:
            word = _Word()
        if char == "\\":
            word.parts.append(text[at : at + 2])
            at += 2
        elif char == "'":
            close_at = text.find("'", at + 1)
            close_at = end if close_at < 0 else close_at
            word.parts.append(text[at : close_at + 1])
            at = close_at + 1
        elif char == '"':
            at = _double_quoted(text, at, word, inners)
        elif char in "$`":
            expansion, at = _expansion(text, at, inners)
            word.parts.append(expansion)
            if expansion not in ("$", "$$", "$?", "$#", "$!", "$-"):
                word.expansions.append(expansion)
        else:
            word.parts.append(char)
            at += 1
    close()
    return [words for words in commands if words]


def _double_quoted(text: str, at: int, word: _Word, inners: list[str]) -> int:
    """Read the double-quoted part opening at ``text[at]`` into ``word`` (its substitutions'
    inner texts into ``inners``, none of them split); the index after it."""
    word.parts.append('"')
    at += 1
    while at < len(text) and text[at] != '"':
        if text[at] == "\\":
            word.parts.append(text[at : at + 2])
            at += 2
        elif text[at] in "$`":
            expansion, at = _expansion(text, at, inners)
            word.parts.append(expansion)
            word.quoted.append(expansion)
        else:
            word.parts.append(text[at])
            at += 1
    word.parts.append('"')
    return at + 1


def _expansion(text: str, at: int, inners: list[str]) -> tuple[str, int]:
    """The expansion opening at ``text[at]`` (``$(…)``, ``$((…))``, `` `…` ``, ``${…}``,
    ``$name``, a lone ``$``) as written and the index after it; a substitution's inner text
    added to ``inners``."""
    if text[at] == "`":
        close_at = at + 1
        while close_at < len(text) and text[close_at] != "`":
            close_at += 2 if text[close_at] == "\\" else 1
        inners.append(text[at + 1 : close_at].replace("\\`", "`"))
        return text[at : close_at + 1], close_at + 1
    opening = text[at + 1 : at + 2]
    if opening in ("(", "{"):
        close_at = _closing(text, at + 1)
        if opening == "(" and not text.startswith("$((", at):
            inners.append(text[at + 2 : close_at])
        return text[at : close_at + 1], close_at + 1
    name = re.match(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]", text[at + 1 :])
    if name is None:
        return "$", at + 1
    return text[at : at + 1 + name.end()], at + 1 + name.end()


def _substitutions_in(text: str, inners: list[str]) -> None:
    """Add to ``inners`` the inner text of each substitution in ``text`` read as data (an
    arithmetic command's: its output is a number, but the commands in it run)."""
    at = 0
    while at < len(text):
        if text[at] == "`" or text.startswith("$(", at):
            at = _expansion(text, at, inners)[1]
        else:
            at += 2 if text[at] == "\\" else 1


def _closing(text: str, at: int) -> int:
    """The index of the bracket closing the one at ``text[at]`` (``(`` or ``{``), skipping
    quoted text and the brackets nested in it (a ``$(…)`` in double quotes has quotes of its
    own: ``"$(realpath "$0")"``); the text's end when none closes it. One pass, no recursion."""
    opened = [text[at]]  # ``(``, ``{`` or ``"``: what the scan is inside
    at += 1
    while at < len(text) and opened:
        char, inside = text[at], opened[-1]
        if char == "\\":
            at += 2
            continue
        if inside == '"':
            if char == '"':
                opened.pop()
            elif text.startswith("$(", at):
                opened.append("(")
                at += 1
        elif char == "'" and inside == "(":
            found = text.find("'", at + 1)
            at = len(text) if found < 0 else found
        elif char == '"':
            opened.append('"')
        elif char == inside:
            opened.append(char)
        elif char == {"(": ")", "{": "}"}[inside]:
            opened.pop()
            if not opened:
                return at
        at += 1
    return len(text) - 1
