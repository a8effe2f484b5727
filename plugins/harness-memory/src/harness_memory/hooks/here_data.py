"""Here-documents and here-strings in a shell command: text a command reads on its standard
input, not command text (P-3).

Bash reads the lines after ``cat > notes.md <<EOF`` up to the ``EOF`` line, and the word after
``<<<``, as data: their words are no redirections, no commands, no ``cd``. Read as command text
by the guard, a body saying ``Run: cd "$(git rev-parse --show-toplevel)" && make > out.txt``
was refused as a write to a place built at run time, and ``tee notes.md <<EOF`` took every word
of its body for a file ``tee`` writes. What of that data still runs, or may still be a path, is
kept: the command substitutions an unquoted body (``<<EOF``) or a here-string runs (``$(…)``,
`` `…` ``, and ``${NAME:=…}``, which assigns), and the data's words themselves, which the
program reading them may take as paths (``patch``, ``python -``, ``sqlite3``): the guard judges
them as paths, literally (no glob, no brace; variables only where bash expands them). A
command that may run its data as a script (:func:`_runs_a_script`: a shell, ``eval`` or
``xargs`` anywhere in it, ``source``, a command name built at run time, spelt so it cannot be
read here, or a program's path) keeps all of it as command text.

:func:`here_data` takes a here-document only where it is sure bash does: anything it does not
read as bash does (a delimiter built from ``$``, a continued line in a ``<<-`` body, a body
line starting with the delimiter inside ``$(…)``, where bash 5.2 ends it at ``EOF)``, an unclosed
body, a newline inside a nested word while a body is due) leaves the command as written, read as
before (refused, never let through). As bash does, it reads a ``case`` pattern's ``)`` as no
closing parenthesis, joins an unquoted body's continued lines (``a\\``) before it looks for the
delimiter, ends a body only at a line that is the delimiter (``EOFs`` goes on) and takes a
here-string's quoted word over several lines.
"""

from __future__ import annotations

import re

__all__ = [
    "OPERATOR_CAP",
    "SCRIPT_RUNNERS",
    "SHELLS",
    "SHELL_ESCAPES",
    "HereData",
    "closing_bracket",
    "here_data",
    "is_arithmetic",
]

SHELLS = frozenset(
    {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "su", "ssh", "sudo"}
    | {"rbash", "csh", "tcsh", "yash", "posh", "lksh", "oksh", "pdksh", "loksh", "osh", "ysh"}
    | {"elvish", "xonsh", "pwsh", "nu", "rc", "es", "scsh", "hush", "msh"}
)
"""Commands whose standard input may be a script a shell runs: a here-document fed to one
(``bash <<'EOF'``, ``rbash``, which Debian installs, ``bash5``: a name with a version after
it, :data:`_SHELL_RE`) stays command text (``sudo`` and ``su`` may start a shell too)."""
_SHELL_RE = "(?:" + "|".join(sorted(map(re.escape, SHELLS), key=len, reverse=True)) + r")[-.0-9]*"
OPERATOR_CAP = 64
"""The most ``<<`` one command may hold for its here-data to be read as data: each is read
with its line, so past it the command is read as written (as before), in time linear in its
length."""
_METACHARACTERS = frozenset(" \t\n;&|()<>")
_CASE_RE = r"(?:case|esac)(?=[\s;&|()<>]|$)"
"""The words opening and closing a ``case`` command, at a word's start."""
_ASSIGNING_RE = r"^\$\{[A-Za-z_][A-Za-z0-9_]*:?="
_WORD_RE = r"[^\s;&|()<>'\"=]+"
_UNREAD_NAME_RE = r"[$`'\"\\*?\[/]"
"""What in a command's name this does not read: an expansion, a quote, an escape, a glob, or a
folder (a program's path)."""
_SEGMENT_RE = r"[;&|(){}\n]+"
_ASSIGNMENT_RE = r"^[A-Za-z_][A-Za-z0-9_]*="
DATA_READERS = frozenset(
    {"cat", "tee", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "grep", "egrep", "fgrep"}
    | {"diff", "patch", "jq", "base64", "md5sum", "sha1sum", "sha256sum", "column", "fold"}
    | {"fmt", "nl", "rev", "tac", "less", "more", "git", "gh", "echo", "printf", "true", ":"}
    | {"apply_patch"}
)
"""Programs that read their standard input as data, never as code: only a here-document or
here-string they read (or that a command they pipe into reads, itself one of them) is data
(``cat > notes/a.md <<EOF``, ``git commit -F - <<'EOF'``; Codex's ``apply_patch``, whose
patch the guard reads). Fed to any other program (an
interpreter running code from it, ``python3 -c '…sys.stdin.read()…'``, ``perl -e
'system(<STDIN>)'``, ``python3 -``, an unknown program), the body stays command text (review59
finding 5)."""
SCRIPT_RUNNERS = frozenset({"source", ".", "eval", "xargs", "parallel"})
"""Commands that run text they read as shell commands, or commands built from it."""
SHELL_ESCAPES = frozenset(
    {"make", "gmake", "sed", "awk", "gawk", "mawk", "nawk", "ed", "ex", "vi", "vim", "nvim"}
    | {"m4", "dc", "at", "batch", "crontab", "expect", "tclsh", "gdb", "script"}
)
"""Programs whose input may hold lines they hand to a shell: a recipe (``make -f - <<EOF``),
``sed``'s ``e`` command, ``awk``'s ``system``, ``ed``'s and ``ex``'s ``!``, ``m4``'s
``syscmd``, ``dc``'s ``!``, a job ``at``, ``batch`` or ``crontab`` runs later, Tcl's
``exec``, ``gdb``'s ``shell``, ``script``'s terminal. Fed a here-document (anywhere in the
command, as :data:`SHELLS`), its body stays command text. General-purpose interpreters
(``python -``, ``perl``) are not among them: what their code writes no shell reading shows."""
_LEADING = frozenset(
    {"env", "nice", "nohup", "timeout", "time", "command", "builtin", "stdbuf", "setsid"}
    | {"coproc", "exec", "sudo", "doas", "do", "then", "else", "elif", "if", "while", "until", "!"}
)
"""Words before a command's name: wrappers that run the command after them (their options
skipped) and the shell's own keywords."""


class HereData:
    """A command with its here-data cut out (:func:`here_data`).

    ``command`` is the command text with each here-document's operator, delimiter and body,
    and each here-string's operator and word, taken out; the command substitutions an unquoted
    body or a here-string runs stand each on a line of its own, as the argument of ``:``,
    where the body stood (after the line that named it). ``texts`` holds each body's and
    here-string's text with those substitutions replaced by a backquote (a word built at run
    time), and whether bash expands its variables (an unquoted delimiter, a here-string) or not
    (``<<'EOF'``). A plain class (H-5)."""

    __slots__ = ("command", "texts")

    def __init__(self, command: str, texts: list[tuple[str, bool]]) -> None:
        self.command = command
        self.texts = texts


class _Unsure(Exception):
    """The scan met something it does not read exactly as bash does."""


def here_data(command: str) -> HereData:
    """``command`` with its here-documents and here-strings read as data (:class:`HereData`);
    the command unchanged, with no texts, when it holds none or when any part of it is not
    read here exactly as bash reads it (then its words are judged as command text, as before).
    Never raises."""
    if "<<" not in command or command.count("<<") > OPERATOR_CAP:
        return HereData(command, [])
    scan = _Scan(command)
    try:
        scan.command(closer=False, depth=0)
        scan.last_line()
    except (_Unsure, RecursionError):  # nested past Python's depth: read as written
        return HereData(command, [])
    result = scan.result()
    if not all(map(_reads_as_data, scan.readers)) or _runs_a_script(result):
        return HereData(command, [])  # the data may be a script a shell runs: command text
    return HereData(result, scan.texts)


class _Scan:
    """One pass over a command's text, in its command contexts (the top level, ``$(…)``,
    ``(…)``), skipping quotes, comments, ``${…}``, arithmetic and backquotes, where ``<<`` is
    no operator. ``cuts`` are the spans replaced (start, end, text)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.cuts: list[tuple[int, int, str]] = []
        self.texts: list[tuple[str, bool]] = []
        self.pending: list[tuple[str, bool, bool] | list[str]] = []
        self.pending_depth = -1
        self.readers: list[str] = []  # the start of each command reading here-data

    def result(self) -> str:
        out: list[str] = []
        done = 0
        for start, end, text in sorted(self.cuts):
            out.append(self.text[done:start])
            out.append(text)
            done = end
        out.append(self.text[done:])
        return "".join(out)

    def command(self, *, closer: bool, depth: int) -> None:
        """Scan command text from ``at`` to its end, or past the ``)`` closing it."""
        text = self.text
        parens = 0
        cases = 0  # ``case`` words not yet closed by ``esac``: a ``)`` ends a pattern there
        word_start = True
        simple = self.at  # where the simple command at ``at`` starts
        fed = False  # whether a command of this pipeline reads here-data (its output piped on)
        while self.at < len(text):
            char = text[self.at]
            starts = word_start
            word_start = char in _METACHARACTERS
            if char in ";&|(){}\n" and not _redirecting(text, self.at):
                piped = char == "|" or text.startswith("|&", self.at - 1)
                if piped and fed:  # the next command reads the fed one's output
                    start = self.at + 1  # its name within its first line's first bytes
                    self.readers.append(text[start : start + _NAME_SPAN].split("\n", 1)[0])
                fed = fed and piped
                simple = self.at + 1
            elif text.startswith("<<", self.at):
                self.readers.append(text[simple : self.at])
                fed = True
            if starts and (keyword := re.compile(_CASE_RE).match(text, self.at)) is not None:
                cases = max(0, cases + (1 if keyword.group() == "case" else -1))
                self.at = keyword.end()
            elif char == "\\":
                if text.startswith("\\\n", self.at):
                    word_start = starts
                self.at += 2
            elif char == "'":
                self._quoted_to("'")
            elif char == '"':
                self._double()
            elif char == "`":
                self._backquoted()
            elif char == "$":
                self._dollar(depth)
            elif char == "#" and starts:
                end = text.find("\n", self.at)
                self.at = len(text) if end == -1 else end
            elif char == "\n":
                self._newline(depth)
            elif char == "(" and text.startswith("((", self.at):
                self._arithmetic(self.at + 2)
            elif char == "(":
                parens += 1
                self.at += 1
            elif char == ")":
                self.at += 1
                if parens == 0 and cases:
                    continue  # the end of a ``case`` pattern
                if parens == 0:
                    if not closer:
                        raise _Unsure  # a ``)`` bash would refuse or read otherwise
                    return
                parens -= 1
            elif text.startswith("<<<", self.at):
                self._here_string(depth)
            elif text.startswith("<<", self.at):
                self._here_document(depth)
            else:
                self.at += 1
        if closer:
            raise _Unsure  # an unclosed ``$(``

    def _newline(self, depth: int) -> None:
        """A newline of command text at ``at``: the bodies due start on the next line."""
        self.at += 1
        if not self.pending:
            return
        if depth != self.pending_depth:
            raise _Unsure
        start = self.at
        kept: list[str] = []
        for item in self.pending:
            if isinstance(item, list):
                kept.extend(item)
                continue
            delimiter, strip_tabs, expands = item
            body_start = self.at
            joined = ""  # the start of a line continued from the lines before (``a\``)
            while True:
                if self.at >= len(self.text):
                    raise _Unsure  # no delimiter line: left as written
                end = self.text.find("\n", self.at)
                end = len(self.text) if end == -1 else end
                line = self.text[self.at : end]
                bare = joined + (line.lstrip("\t") if strip_tabs else line)
                if bare == delimiter:
                    body = self.text[body_start : self.at]
                    self.at = min(end + 1, len(self.text))
                    break
                if depth != 0 and bare.startswith(delimiter):
                    raise _Unsure  # ``EOF)`` ends a body inside ``$(…)`` for bash 5.2
                continued = expands and _continued(line)
                if continued and strip_tabs:
                    raise _Unsure  # a continued line's tabs: not followed here
                joined = _joined(bare, delimiter) if continued else ""
                self.at = end + 1
            if expands:
                runs, data = _runs(body, 0, len(body))
                kept.extend(runs)
                self.texts.append((data, True))
            else:
                self.texts.append((body, False))
        self.pending = []
        self.cuts.append((start, self.at, "".join(f"{line}\n" for line in kept)))

    def last_line(self) -> None:
        """The command's text ended: what its last line's here-strings run is kept after it
        (``git commit -F - <<< "$(cat msg)"``); a here-document's body still due is
        :class:`_Unsure` (an operator with no line after it)."""
        if any(not isinstance(item, list) for item in self.pending):
            raise _Unsure
        kept = "".join(f"\n{line}" for item in self.pending for line in item)
        self.cuts.append((len(self.text), len(self.text), kept))
        self.pending = []

    def _queue(self, item: tuple[str, bool, bool] | list[str], depth: int) -> None:
        if self.pending and depth != self.pending_depth:
            raise _Unsure
        self.pending.append(item)
        self.pending_depth = depth

    def _here_document(self, depth: int) -> None:
        """``<<WORD`` or ``<<-WORD`` at ``at``: cut out, its body due after the line."""
        start = self.at
        self.at += 2
        strip_tabs = self.text.startswith("-", self.at)
        self.at += strip_tabs
        while self.text.startswith((" ", "\t"), self.at):
            self.at += 1
        delimiter: list[str] = []
        quoted = False
        while self.at < len(self.text) and self.text[self.at] not in _METACHARACTERS:
            char = self.text[self.at]
            if char in "$`#" or (char == "\\" and self.at + 1 >= len(self.text)):
                raise _Unsure  # bash's reading of these delimiters is not followed here
            if char == "\\":
                delimiter.append(self.text[self.at + 1])
                quoted = True
                self.at += 2
            elif char in "'\"":
                end = self.text.find(char, self.at + 1)
                inner = self.text[self.at + 1 : end]
                if end == -1 or (char == '"' and any(c in inner for c in "$`\\")):
                    raise _Unsure
                delimiter.append(inner)
                quoted = True
                self.at = end + 1
            else:
                delimiter.append(char)
                self.at += 1
        word = "".join(delimiter)
        if not word or "\n" in word:
            raise _Unsure
        self.cuts.append((start, self.at, " "))
        self._queue((word, strip_tabs, not quoted), depth)

    def _here_string(self, depth: int) -> None:
        """``<<< WORD`` at ``at``: cut out, the substitutions it runs due after the line."""
        start = self.at
        self.at += 3
        while self.text.startswith((" ", "\t"), self.at):
            self.at += 1
        word_start = self.at
        while self.at < len(self.text) and self.text[self.at] not in _METACHARACTERS:
            char = self.text[self.at]
            if char == "\\":
                self.at += 2
            elif char == "'":
                self._quoted_to("'")
            elif char == '"':
                self._double()
            elif char == "`":
                self._backquoted()
            elif char == "$":
                self._dollar(depth + 1)  # no operator inside: a newline there is unsure
            else:
                self.at += 1
        if self.at == word_start or (self.pending and "\n" in self.text[word_start : self.at]):
            raise _Unsure  # a word spanning lines while a body is due
        runs, data = _runs(self.text, word_start, self.at)
        self.cuts.append((start, self.at, " "))
        self.texts.append((data, True))
        self._queue(runs, depth)

    def _no_newline_due(self, start: int) -> None:
        if self.pending and "\n" in self.text[start : self.at]:
            raise _Unsure  # a body due while a nested word spans lines

    def _quoted_to(self, quote: str) -> None:
        start = self.at
        end = self.text.find(quote, self.at + 1)
        if end == -1:
            raise _Unsure
        self.at = end + 1
        self._no_newline_due(start)

    def _double(self) -> None:
        start = self.at
        self.at += 1
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == '"':
                self.at += 1
                self._no_newline_due(start)
                return
            if char == "\\":
                self.at += 2
            elif char == "`":
                self._backquoted()
            elif char == "$":
                self._dollar(depth=-2)
            else:
                self.at += 1
        raise _Unsure

    def _backquoted(self) -> None:
        start = self.at
        self.at += 1
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "`":
                self.at += 1
                self._no_newline_due(start)
                return
            self.at += 2 if char == "\\" else 1
        raise _Unsure

    def _dollar(self, depth: int) -> None:
        """A ``$`` at ``at``: ``$(…)`` is command text (scanned), ``$((…))``, ``$[…]``,
        ``${…}`` and ``$'…'`` are skipped whole."""
        text = self.text
        if text.startswith("$((", self.at):
            self._arithmetic(self.at + 3)
        elif text.startswith("$(", self.at):
            self.at += 2
            self.command(closer=True, depth=depth + 1)
        elif text.startswith(("${", "$["), self.at):
            start = self.at
            self.at = _closing(text, self.at + 1)
            self._no_newline_due(start)
        elif text.startswith("$'", self.at):
            start = self.at
            self.at += 2
            while self.at < len(text) and text[self.at] != "'":
                self.at += 2 if text[self.at] == "\\" else 1
            if self.at >= len(text):
                raise _Unsure
            self.at += 1
            self._no_newline_due(start)
        else:
            self.at += 1

    def _arithmetic(self, inner: int) -> None:
        """Skip ``((…))`` or ``$((…))`` whose text starts at ``inner``; a ``<<`` there is a
        shift."""
        start = self.at
        self.at = _arithmetic_end(self.text, inner)
        self._no_newline_due(start)


def closing_bracket(text: str, opening: int) -> int | None:
    """The index after the bracket closing the one at ``opening`` (``{``, ``[`` or ``(``),
    nested ones and quoted text skipped; None when it is not closed (nor a quote inside it)."""
    pair = {"{": "}", "[": "]", "(": ")"}[text[opening]]
    level = 0
    at = opening
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char in "'\"":
            end = text.find(char, at + 1)
            if end == -1:
                return None
            at = end + 1
            continue
        if char == text[opening]:
            level += 1
        elif char == pair:
            level -= 1
            if level == 0:
                return at + 1
        at += 1
    return None


def _closing(text: str, opening: int) -> int:
    """:func:`closing_bracket`; :class:`_Unsure` when it is not closed."""
    end = closing_bracket(text, opening)
    if end is None:
        raise _Unsure
    return end


def _arithmetic_end(text: str, inner: int) -> int:
    """The index after the ``))`` closing an arithmetic expression whose text starts at
    ``inner``; :class:`_Unsure` when it is not closed by two adjacent parentheses (bash then
    reads ``$((…) )`` as a command substitution) or holds a quote."""
    level = 2
    at = inner
    while at < len(text):
        char = text[at]
        if char in "'\"`\\":
            raise _Unsure
        if char == "(":
            level += 1
        elif char == ")":
            level -= 1
            if level == 1:
                if not text.startswith("))", at):
                    raise _Unsure
                return at + 2
        at += 1
    raise _Unsure


def is_arithmetic(text: str, at: int) -> bool:
    """Whether the ``$((`` at ``at`` opens an arithmetic expansion, closed by two adjacent
    ``))``; False when bash reads it as a command substitution of a subshell (``$((cd x) )``)
    or this cannot tell (a quote inside)."""
    try:
        _arithmetic_end(text, at + 3)
    except _Unsure:
        return False
    return True


def _joined(line: str, delimiter: str) -> str:
    """What a continued ``line`` (its last backslash dropped) gives the next line of an
    unquoted here-document body, for the delimiter check: bash joins them first (``E\\`` then
    ``OF`` ends a body delimited by ``EOF``). Kept no longer than the delimiter and one more
    character, so a long run of continued lines is read in linear time."""
    return line[:-1][: len(delimiter) + 1]


def _continued(line: str) -> bool:
    """Whether ``line`` ends in a line continuation (an odd run of backslashes)."""
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


_NAME_SPAN = 256
"""How far after a pipe the name of the command reading it is looked for (one cut there is
read as no name: the data stays code), so a long pipeline is read in linear time."""


def _redirecting(text: str, at: int) -> bool:
    """Whether the ``&`` at ``at`` belongs to a redirection (``2>&1``, ``<&3``, ``&> f``),
    which ends no command."""
    return text[at] == "&" and (text[at - 1 : at] in ("<", ">") or text.startswith("&>", at))


def _reads_as_data(simple: str) -> bool:
    """Whether the simple command starting ``simple`` (its text up to a here-data operator,
    or up to its end) is run by a program of :data:`DATA_READERS`, past assignments and
    wrappers (``env``, ``timeout 5``); False for any other name, one spelt so that this
    cannot read it, or none (``} <<EOF``)."""
    names = [word for word in simple.split() if not re.match(_ASSIGNMENT_RE, word)]
    while names and (names[0] in _LEADING or names[0].startswith("-") or names[0].isdigit()):
        names.pop(0)
    return bool(names) and (names[0] in DATA_READERS or _program_from_stdin(names))


_STDIN_PROGRAM_RE = r"(?:python|pypy)[0-9.]*|node|nodejs"
"""Interpreters whose program a here-document may be (``python3 - <<'PY'``, ``node - <<EOF``):
the guard reads that program as the code it is (:mod:`~harness_memory.hooks.interpreters`)."""


def _program_from_stdin(words: list[str]) -> bool:
    """Whether ``words`` (a simple command from its name) run an interpreter of
    :data:`_STDIN_PROGRAM_RE` reading its program from its standard input: only options
    giving it no code or module (no ``-c``, ``-m``, ``-e``, ``-p``, ``--eval``) before ``-``
    or the end, as ``python3 - a b`` or ``python3 -u``. A program given by ``-c`` may run
    what it reads as commands (``os.system(sys.stdin.read())``): not this."""
    if not re.fullmatch(_STDIN_PROGRAM_RE, words[0]):
        return False
    for word in words[1:]:
        if word == "-" or not word.startswith("-"):
            return word == "-" or word.startswith((">", "<", "2>"))
        if word.startswith("--") or re.search(r"[cmep]", word):
            return False
    return True


def _runs_a_script(command: str) -> bool:
    """Whether the here-data of ``command`` (its text with the bodies cut out) may be run as
    shell text: any word of it is a shell (:data:`SHELLS`: ``bash <<EOF``, ``cat <<EOF | sh``,
    a ``{ …; bash; } <<EOF`` over several lines) or a program handing lines to one
    (:data:`SHELL_ESCAPES`: ``sed e <<EOF``, ``make -f - <<EOF``), or a command's name is one
    that runs text it reads (:data:`SCRIPT_RUNNERS`: ``. /dev/stdin <<EOF``, ``eval``,
    ``xargs``), is built at run time (``$SHELL <<EOF``, ``while read l; do $l; done <<EOF``),
    is spelt so that this cannot read it (quoted, escaped, a glob: ``b"as"h``, ``/bin/[b]ash``)
    or is a program's path (``./run.sh``, perhaps the very file the here-document wrote)."""
    words = {word.rsplit("/", 1)[-1] for word in re.findall(_WORD_RE, command)}
    if any(re.fullmatch(_SHELL_RE, word) for word in words):
        return True
    if words & SHELL_ESCAPES or words & {"eval", "xargs", "parallel"}:
        return True
    for segment in re.split(_SEGMENT_RE, command):
        names = [
            word
            for word in segment.split()
            if not re.match(_ASSIGNMENT_RE, word) and word.strip("\"'")
        ]  # a quote alone closes a word opened before (``-m "$(cat <<'EOF' … )"``): no name
        while names and (names[0] in _LEADING or names[0].startswith("-") or names[0].isdigit()):
            names.pop(0)
        if names and (names[0] in SCRIPT_RUNNERS or re.search(_UNREAD_NAME_RE, names[0])):
            return True
    return False


def _runs(text: str, start: int, end: int) -> tuple[list[str], str]:
    """What bash runs while it expands ``text[start:end]`` (an unquoted body or a here-string
    word): its command substitutions and assigning ``${NAME:=…}``, each as a command; and the
    text with those replaced by a backquote (a word built at run time)."""
    runs: list[str] = []
    data: list[str] = []
    done = at = start
    while at < end:
        char = text[at]
        if char == "\\":
            at += 2
            continue
        span_end = None
        if text.startswith("$((", at):
            _arithmetic_end(text[:end], at + 3)  # ``$((…) )`` is a command: unsure
            at += 3  # a ``$(…)`` inside is read on
            continue
        if text.startswith("$(", at):
            scan = _Scan(text[:end])
            scan.at = at + 2
            scan.command(closer=True, depth=1)
            if scan.cuts or scan.pending:
                raise _Unsure  # a here-document inside: not followed here
            span_end = scan.at
        elif char == "`":
            close = text.find("`", at + 1, end)
            while close != -1 and text[close - 1] == "\\":
                close = text.find("`", close + 1, end)
            if close == -1:
                raise _Unsure
            span_end = close + 1
        elif text.startswith("${", at):
            close = _closing(text[:end], at + 1)
            if re.compile(_ASSIGNING_RE).match(text, at):
                runs.append(": " + text[at:close])
            at += 2  # what is inside is read on
            continue
        if span_end is None:
            at += 1
            continue
        runs.append(": " + text[at:span_end])  # run as ``:``'s argument: no command name
        data.append(text[done:at] + "`")
        done = at = span_end
    data.append(text[done:end])
    return runs, "".join(data)
