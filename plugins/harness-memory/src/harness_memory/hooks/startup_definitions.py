"""What the startup files of a shell define, for the trust in names printed at run time (P-3).

The guard reads ``$(nproc)``, ``$(date +%F)``, ``$(whoami)`` as one fresh name only while
nothing may make those programs other ones (:mod:`~harness_memory.hooks.definitions`). A
shell runs its startup files before the command: ``printf 'nproc() { echo ../x; }' >>
~/.bashrc`` in one call, then ``bash -ic 'cp n.md "$MEM/$(nproc)/a.md"'`` wrote into another
scope (round 57). The harnesses run the agent's command through such a shell themselves:
Codex CLI as ``bash -lc`` (the profiles), Claude Code's Bash tool after a snapshot of the
functions, aliases and ``PATH`` a login shell and the user's ``~/.bashrc`` make, Gemini CLI as
``bash -c`` (``BASH_ENV`` only, which the guard already distrusts).

:func:`startup_redefines` reads the files a shell would run
(:func:`~harness_memory.hooks.shell_startup.startup_files`), and the files they source
(:func:`~harness_memory.hooks.named_scripts.nested_scripts`, within its bounds), with the one
reader of definitions (:func:`~harness_memory.hooks.definitions.read_definitions`): a
function or alias of a printing program's name, an ``enable``, ``hash``, ``trap``, ``fc``,
``ulimit``, ``LD_PRELOAD`` … (anything but sourcing, ``eval`` of a program's output and a
``PATH`` setting, read on their own) counts as a definition in the command. A ``PATH`` folder a
file puts first counts when the agent may write it and it holds such a program already or the
command names it. A file the agent cannot write (a system file) is trusted unread; one it may
write that cannot be read whole, or past the bounds, counts as defining every name; one past
64 KiB has only the files it sources by a literal name followed. Code the
files build at run time (``eval "$(pyenv init -)"``, a file sourced by a name built at run
time) is not read: as for the scripts they run (:mod:`~harness_memory.hooks.named_scripts`),
what it does is fenced by the harness's sandbox, not by this reading.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator, Mapping
from typing import NamedTuple

from harness_memory.hooks.bash_quoting import bash_quoting
from harness_memory.hooks.called_names import called_patterns
from harness_memory.hooks.definitions import definitions_of, plain_text, read_definitions
from harness_memory.hooks.here_data import closing_bracket
from harness_memory.hooks.named_scripts import (
    SCRIPT_DEPTH,
    SCRIPT_FOLLOW_CAP,
    SCRIPTS_CAP,
    nested_scripts,
    read_script,
    script_file,
    system_file,
)
from harness_memory.hooks.run_names import is_data_program, names_run
from harness_memory.hooks.shell_comments import without_comments
from harness_memory.hooks.shell_startup import is_interactive, shell_home, startup_files

__all__ = [
    "StartupTexts",
    "startup_definitions_text",
    "startup_files_run",
    "startup_redefines",
    "startup_texts",
]

_PATH_SET_RE = r"PATH(?<![\w$]PATH)\+?=(?P<value>[^\s;&|)]*)"
"""A ``PATH`` assignment in a file's plain text (its quotes dropped): ``PATH=$HOME/bin:$PATH``
(no word character or ``$`` before ``PATH``, told after it: searched for by ``PATH``, H-5)."""
_HOME_RE = r"^~(?=/|$)|\$\{?HOME\b\}?"
"""The home in a path's spelling: a leading ``~``, ``$HOME``, ``${HOME}``."""
_PATH_EXPANSION_RE = r"\$\{PATH:?[-+=?](?:[^{}]|\$\{[^{}]*\})*\}"
"""``PATH``'s value with a default or an alternative (``${PATH:+:${PATH}}``, ``${PATH:-/bin}``):
read as ``$PATH`` with the folders around it kept apart, whichever form runs."""


class StartupTexts(NamedTuple):
    """The startup files run around one command, read once for the guard's call
    (:func:`startup_texts`): each file's text (comments dropped) in the order a shell runs
    them, None for one that may define any name; the command's plain text; the home; the
    folder the shell starts in; the names the command may run
    (:func:`~harness_memory.hooks.run_names.names_run`, None: every word); the harness's
    environment the shell inherits (None: unknown, every variable may hold any name)."""

    texts: list[str | None]
    command: str
    home: str
    base: str = ""
    run: frozenset[str] | None = None
    environ: Mapping[str, str] | None = None


def startup_texts(
    command: str, base: str, environ: Mapping[str, str], harness_shell: tuple[str, ...]
) -> StartupTexts:
    """The texts of the startup files run around ``command`` (:func:`startup_files_run`,
    ``harness_shell`` the harness's shell) by a shell started in ``base`` with ``environ``,
    and of the files they source, each read whole: a "return unless interactive" line is no
    end of its definitions, as ``PS1`` set earlier or an ``alias return=:`` make a shell that
    is not interactive run on (review57a D1/D2). At most :data:`~harness_memory.hooks.
    named_scripts.SCRIPTS_CAP` files, :data:`~harness_memory.hooks.named_scripts.SCRIPT_DEPTH`
    deep; past them, one None. When the command starts a shell of its own (which runs them
    after the command's earlier parts), one of those files (or one they source, there or
    not) the command's text names is None: the command may write it first (``cp defs
    ~/.bashrc; bash -ic …``); a file named by a command starting no shell runs only in a
    later call, read then."""
    plain = plain_text(bash_quoting(command))  # ``$'\\x63p'`` read as ``cp`` (round 58, F2)
    run = startup_files_run(command, environ, harness_shell, base)
    if run is None:
        return StartupTexts([None], plain, shell_home(environ), base)
    files, starts = run
    reading = _Reading(base, environ, plain, written_first=starts)
    texts = [text for file in files for text in reading.texts(file, 0)]
    home = shell_home(environ)
    return StartupTexts(texts, plain, home, base, names_run(command), environ)


def startup_redefines(read: StartupTexts, names: Collection[str]) -> bool:
    """Whether the startup files ``read`` (:func:`startup_texts`) may make a program of
    ``names`` (``nproc``, ``date``) another one: one may define any, or one defines a
    function or alias of a name, changes lookups other than by sourcing, ``eval`` or
    ``PATH``, or puts on ``PATH`` a folder :func:`_path_redefines` distrusts or a relative
    or empty one (``PATH="bin:$PATH"``, ``PATH=":$PATH"``: found from whichever folder the
    shell is in, which the command may fill: review57g R1/R2)."""
    for text in read.texts:
        if text is None:
            return True
        definitions = definitions_of(text, names)
        aliases = definitions.aliases
        if aliases is None or any(n in definitions.functions or n in aliases for n in names):
            return True
        if definitions.changes:
            return True
        if "PATH" in text and _path_redefines(plain_text(text), names, read):
            return True
        if "PATH" in text and any(
            not folder.startswith("/") for folder, _ in _path_parts(plain_text(text), read.home)
        ):
            return True
    return False


def _path_redefines(plain: str, names: Collection[str], read: StartupTexts) -> bool:
    """Whether a ``PATH`` assignment in ``plain`` names a folder the agent may write that
    holds a program of ``names`` now, that the command names (it may write one there), or
    that a line of the file writing with :data:`_WRITER_LINE_RE` names (``ln -sf ~/x
    ~/bin/nproc``: the file fills it as it runs, review57a E2)."""
    home = read.home
    writing = "\n".join(re.findall(_WRITER_LINE_RE, plain))
    for folder, part in _path_folders(plain, home, read.base):
        spelled = {folder, folder.replace(home, "~", 1), part} if home else {folder}
        named = any(spelling.rstrip("/") in read.command for spelling in spelled)
        filled = any(spelling.rstrip("/") in writing for spelling in spelled)
        held = any(os.path.lexists(os.path.join(folder, n)) for n in names)  # noqa: PTH118
        if named or filled or held:
            return True
    return False


_WRITER_LINE_RE = (
    r"(?m)^.*(?:(?<![\w-])(?:ln|cp|mv|install|tee|curl|wget|rsync|tar|unzip)(?![\w-])"
    r"|>(?!\s*(?:&|/dev/null)))[^\n]*$"
)
"""A line of a startup file running a program that may put a file somewhere (``ln``, ``cp``,
``curl`` …) or redirecting output into one (not ``2> /dev/null``, ``>&2``)."""


def _path_folders(plain: str, home: str, base: str) -> Iterator[tuple[str, str]]:
    """Each folder a ``PATH`` assignment in ``plain`` adds that the agent may write (not the
    system's), with its spelling; a relative or empty one (``bin``, ``""``: the current
    folder) taken from ``base``, the folder the shell starts in; a folder built at run time
    (another variable than ``HOME``/``PATH``) is not read."""
    for folder, part in _path_parts(plain, home):
        folder = os.path.join(base, folder) if base else folder  # noqa: PTH118
        if folder.startswith("/") and not system_file(folder):
            yield folder, part


def _path_parts(plain: str, home: str = "") -> Iterator[tuple[str, str]]:
    """Each folder a ``PATH`` assignment in ``plain`` adds (``~``/``$HOME`` as ``home``), with
    its spelling; one built at run time (another variable than ``HOME``/``PATH``) left out."""
    for match in re.finditer(_PATH_SET_RE, plain):
        value = re.sub(_PATH_EXPANSION_RE, "\0$PATH\0", match.group("value"))
        for chunk in value.split(":"):  # the expansion's sides are no empty (current) folder
            for part in [p for p in chunk.split("\0") if p] if "\0" in chunk else [chunk]:
                if part in ("$PATH", "${PATH}") or (not home and "$HOME" in part):
                    continue
                folder = re.sub(_HOME_RE, home, part)
                if "$" not in folder and "`" not in folder:
                    yield folder, part


class _Reading:
    """One call's reading of startup files: the shell's folder and environment, the
    command's plain text, whether it starts a shell of its own and the files read so far."""

    def __init__(
        self, base: str, environ: Mapping[str, str], command: str, *, written_first: bool
    ) -> None:
        self.base, self.environ, self.command = base, environ, command
        self.written_first = written_first
        self.seen: set[str] = set()

    def texts(self, file: str, depth: int) -> Iterator[str | None]:
        """The texts (comments dropped) of ``file`` and the files it sources, in the order a
        shell runs them, None for one that may define any name: unreadable, past the bounds,
        or named by a command that starts a shell of its own after it (it may write it
        first). A missing file (or a link to nothing) runs nothing, a system one is trusted
        unread."""
        if self.written_first and _names_file(self.command, file) and not system_file(file):
            yield None
            return
        if not os.path.exists(file) or system_file(file):  # noqa: PTH110
            return
        key = os.path.realpath(file)
        if key in self.seen:
            return
        self.seen.add(key)
        if depth > SCRIPT_DEPTH or len(self.seen) > SCRIPTS_CAP:
            yield None
            return
        kind, text = read_script(file, run=False)
        if kind != "shell":
            yield None  # no regular file, unreadable or too long: it may define any
            return
        # past a "return unless interactive" line too; a line continuation joined (``c\\``
        # then ``p() {…}`` defines ``cp``), after the comments (one ends at its line's end)
        text = without_comments(text).replace("\\\n", "")
        yield text
        if len(text) > SCRIPT_FOLLOW_CAP:  # named_scripts' bound: its literal sources only
            for path in re.findall(_LITERAL_SOURCE_RE, text):
                yield from self.texts(self._sourced(path), depth + 1)
            return
        for script_kind, folder, _, path, top in nested_scripts(text, self.base, self.environ):
            if script_kind != "source" or not top or path is None:
                continue  # another process, a subshell's, or named at run time: unread
            sourced = script_file("source", folder, path, self.environ)
            yield from self.texts(sourced, depth + 1)

    def _sourced(self, path: str) -> str:
        """The file a literal ``source`` operand of a long file (:data:`_LITERAL_SOURCE_RE`)
        names: ``~`` and ``$HOME`` as the home, from the shell's folder."""
        home = shell_home(self.environ)
        path = re.sub(_HOME_RE, home, path) if home else path
        return script_file("source", self.base, path, self.environ)


_LITERAL_SOURCE_RE = (
    r"(?:\\\.(?<![^\s;&|(){}]\\\.)|\\source(?<![^\s;&|(){}]\\source)"
    r"|\.(?<![^\s;&|(){}]\.)|source(?<![^\s;&|(){}]source))"
    r"\s+[\"']?((?:~|\$\{?HOME\b\}?)?[^\s;&|()<>`$\"']+)"
)
"""A ``source`` (or ``.``) of a file named by literal text (``~``/``$HOME`` allowed) in a file
too long for :func:`~harness_memory.hooks.named_scripts.nested_scripts` (review57g P1/P2): read
as the short files' sources are; one named at run time is not read (as there). Its start (the
text's, or after white space or punctuation) told after ``.``/``source``: searched for by its
first letter, not tried at every character of bash-completion's 136 KiB (H-5)."""


def _names_file(plain: str, file: str) -> bool:
    """Whether the command's ``plain`` text names ``file``: its name as a word's last part
    (``~/.bashrc``, ``.bashrc`` after a ``cd ~``; ``"$HOME"/.bash_aliases``)."""
    name = os.path.basename(file)  # noqa: PTH119
    at = plain.find(name) if name else -1
    while at >= 0:  # no pattern per file: a login shell's dozen names compiled a dozen (H-5)
        end = at + len(name)
        if not _word_char(plain[at - 1 : at]) and not _word_char(plain[end : end + 1]):
            return True
        at = plain.find(name, at + 1)
    return False


def _word_char(char: str) -> bool:
    """Whether ``char`` (one character, or none) goes on a file's name in a word: a word
    character (``\\w``: a letter, a digit, ``_``), ``.`` or ``-``."""
    return char.isalnum() or char in ("_", ".", "-")


_SHELL_WORD_RE = r"(?<![\w.-])(?:bash|rbash|sh|dash|ash|zsh|ksh|mksh|lksh)\b"
"""A startup shell named in a command's plain text (not ``x.sh``, ``ssh``, ``.bashrc``)."""
_STARTUP_NAME_RE = r"bashrc|profile|bash_login|zshrc|zshenv|zlogin|kshrc"
"""A startup file named in a command's plain text that also starts a shell: the command may
write it (``cp f ~/.bashrc``, ``printf … > ~/.bash_profile``: one not there yet) before that
shell runs it."""


def startup_files_run(
    command: str, environ: Mapping[str, str], harness_shell: tuple[str, ...], base: str = ""
) -> tuple[list[str], bool] | None:
    """The startup files run around ``command`` (its plain text read, failing closed): those
    of the harness's shell for the agent's command (``harness_shell``: ``("bash", "-lc")``
    for Codex CLI, ``("bash", "-il")`` for Claude Code's snapshot of the profiles and
    ``~/.bashrc``, with zsh's files (:func:`_zsh_files`) when ``SHELL`` is zsh; ``()`` for
    none) and, when the text names a startup shell (by its name, or by a path in ``base``
    whose link leads to one: ``~/b2 -ic …``, review57a B), those of a login and interactive
    ``bash``, of an interactive ``sh`` (``$ENV``), of ``zsh`` and of ``ksh``/``mksh``
    (``$ENV``, ``~/.kshrc``, ``~/.mkshrc``) it may start; with whether it starts one. None
    when it starts one and names a startup file (it may write one first: each counts as
    defining any name). A startup file named by a command starting no shell (``aws
    --profile prod``, ``echo "see ~/.bashrc"``) is run by no shell of this call: the
    harness's ran before the command."""
    plain = plain_text(command)
    starts = re.search(_SHELL_WORD_RE, plain) is not None or _links_to_a_shell(plain, base, environ)
    if starts and re.search(_STARTUP_NAME_RE, plain):
        return None
    files: list[str] = []
    home = shell_home(environ)
    if harness_shell:
        words = list(harness_shell[1:])
        files += startup_files(harness_shell[0], words, environ)
        if is_interactive(words) and home and environ.get("SHELL", "").endswith("/zsh"):
            files += _zsh_files(environ)
    if starts:
        files += startup_files("bash", ["-il"], environ)
        files += startup_files("sh", ["-i"], environ)
        files += _zsh_files(environ)
        files += [f"{home}/{name}" for name in (".kshrc", ".mkshrc") if home]
    return list(dict.fromkeys(files)), starts


def _zsh_files(environ: Mapping[str, str]) -> list[str]:
    """The files a login and interactive zsh runs (in ``$ZDOTDIR``, else the home):
    ``.zshenv`` (every zsh), ``.zprofile``, ``.zshrc``, ``.zlogin`` (and ``/etc/zsh``'s,
    system files trusted unread)."""
    folder = environ.get("ZDOTDIR") or shell_home(environ)
    names = (".zshenv", ".zprofile", ".zshrc", ".zlogin")
    return [f"{folder}/{name}" for name in names] if folder else []


_PATH_WORD_RE = r"(?:^|(?<=[\s;&|(`]))(?:~|\.{1,2})?/[^\s;&|()`<>]*"
"""A word of a command's plain text naming a file by its path (``~/b2``, ``./b2``, ``/x/b``)."""


def _links_to_a_shell(plain: str, base: str, environ: Mapping[str, str]) -> bool:
    """Whether a word of ``plain`` naming a file by its path (from ``base``) is a link that
    leads to a startup shell (``ln -s /bin/bash ~/b2``, then ``~/b2 -ic …``), resolved as the
    kernel does; a word naming a folder or no link is none."""
    home = shell_home(environ)
    for word in re.findall(_PATH_WORD_RE, plain):
        path = home + word[1:] if word.startswith("~/") and home else word
        full = os.path.join(base or "/", path)  # noqa: PTH118
        if not os.path.islink(full):  # noqa: PTH114
            continue
        if re.fullmatch(_SHELL_WORD_RE, os.path.basename(os.path.realpath(full))):  # noqa: PTH119
            return True
    return False


def startup_definitions_text(read: StartupTexts) -> str:
    """The definitions the startup files ``read`` (:func:`startup_texts`) make of the names
    the command's text uses (``cp``, ``cd``, ``echo``, ``[``, ``which`` …), as shell text the
    guard reads before the command, so each is judged as the same definition written in the
    command is (review57a): a function's whole definition (``cp() { … }``), an ``alias`` line
    naming one (or naming one built at run time), and for a program of such a name in a
    ``PATH`` folder a file adds that the agent may write (``~/bin/cp``) a function running it
    by its path (``cp() { ~/bin/cp "$@"; }``: read as ``~/bin/cp …`` is), only for a name
    the command may run (:func:`_names_run`: not a data word, ``echo cp``, ``git commit -m
    "fix cp"``, ``python3 -m pytest``, whose program it never runs: overref58). A file it cannot
    read defines nothing here (the printed names are untrusted by :func:`startup_redefines`).
    A name the command spells otherwise (``{cp,x}``, ``${c}p``: :func:`~harness_memory.hooks.
    called_names.called_patterns`) uses each defined name it may be, one wholly built at run
    time as a command's name (``$x a b``; ``$(which cp) a b`` when the files define
    ``which``) every one; the names those definitions use are used
    too (``cp() { mycp "$@"; }`` pulls ``mycp``'s), a variable as its value in the command
    or the harness's environment unless the files or the command may set it otherwise
    (``$PYTHON -m pytest``: review58d 2), up to :data:`_CALLS_DEPTH` calls deep,
    past it every definition of the files (round 58, F1/F2). Empty when none."""
    texts = [text for text in read.texts if text is not None]
    used = _names_called(read.command, texts, read)
    kept = _kept_definitions(texts, used, read)
    for _ in range(_CALLS_DEPTH):
        calls = used | _names_called(plain_text(bash_quoting("".join(kept))), texts, read)
        if calls == used:
            return "".join(kept)
        used = calls
        kept = _kept_definitions(texts, used, read)
    return "".join(_kept_definitions(texts, used | _defined_names(texts), read))


def _names_called(plain: str, texts: list[str], read: StartupTexts) -> frozenset[str]:
    """The names ``plain`` (a command's or the kept definitions' plain text) may call: its
    words (:data:`_USED_NAME_RE`) and each name the files define that a word spelt otherwise
    may be (:func:`~harness_memory.hooks.called_names.called_patterns`; every one for a name
    wholly built at run time or printed by a lookup the files define or put on ``PATH``).
    Definitions are read as the command is: ``cp() { {my,}cp "$@"; }`` calls ``mycp``
    (review58d 3b)."""
    used = frozenset(re.findall(_USED_NAME_RE, plain))
    called = called_patterns(plain, read.environ, read.texts)
    if not (called.any or called.patterns or called.lookups):
        return used
    defined = _defined_names(texts)
    if called.any or called.lookups & (defined | _held(texts, called.lookups, read)):
        return used | defined  # a lookup redefined (or put first on PATH) may print any name
    return used | {name for name in defined if any(p.fullmatch(name) for p in called.patterns)}


def _held(texts: list[str], names: frozenset[str], read: StartupTexts) -> frozenset[str]:
    """The ``names`` held as programs in a ``PATH`` folder ``texts`` add that the agent may
    write (:func:`_path_folders`): ``~/bin/which`` printing any name (review58d 3c)."""
    return frozenset(
        name
        for text in texts
        if "PATH" in text
        for folder, _ in _path_folders(plain_text(text), read.home, read.base)
        for name in names
        if os.path.lexists(os.path.join(folder, name))  # noqa: PTH118
    )


_CALLS_DEPTH = 8
"""How many calls deep the definitions a used definition calls are followed (``a`` calling
``b`` calling ``c`` …); past it, every definition the files make is read (failing closed)."""


def _kept_definitions(texts: list[str], used: frozenset[str], read: StartupTexts) -> list[str]:
    """The definitions in ``texts`` of the names ``used`` (:func:`startup_definitions_text`),
    each once, in the files' order."""
    walked = [(text, _definitions(text, used | _READER_NAMES, read.command)) for text in texts]
    named = [(each.names, each.readers) for _, found in walked for each in found if each.names]
    while True:  # a wrapper's ``&& ls`` runs ``ls``, whose own wrapper may run ``pwd`` …
        readers = {name for names, runs in named if names & used for name in runs}
        if readers <= used:
            break
        used |= readers
    kept: list[str] = []
    held: list[str] = []
    for text, found in walked:
        kept += [each.text for each in found if each.names is None or each.names & used]
        if "PATH" in text:
            for folder, _ in _path_folders(plain_text(text), read.home, read.base):
                paths = [os.path.join(folder, name) for name in sorted(used)]  # noqa: PTH118
                held += [path for path in paths if os.path.lexists(path)]
    run = _names_run(read, "".join(kept), held)
    kept += [_running(path) for path in held if run is None or os.path.basename(path) in run]  # noqa: PTH119
    return list(dict.fromkeys(kept))


def _defined_names(texts: list[str]) -> frozenset[str]:
    """Every function and alias name ``texts`` define (an alias named at run time: none here,
    its line is kept for any name by :func:`_definitions`)."""
    names: set[str] = set()
    for text in texts:
        names.update(m.group("kw") or m.group("name") for m in re.finditer(_DEFINED_RE, text))
        for line in _alias_lines(text):
            names.update(read_definitions(line).aliases or ())
    return frozenset(names)


def _names_run(read: StartupTexts, defined: str, held: list[str]) -> frozenset[str] | None:
    """The names whose ``PATH`` program (of ``held``) the command may run: those
    :func:`~harness_memory.hooks.run_names.names_run` read (``read.run``), or None (every
    word) when a program whose words it reads as data (``echo``, ``git``, ``python3``) may be
    another one: held in such a folder too, or defined by the startup files' ``defined``
    text or the command (a function, an alias, a ``PATH`` change, a sourced file)."""
    if read.run is None or not held:
        return read.run
    names = {os.path.basename(path) for path in held}  # noqa: PTH119
    definitions = read_definitions(defined + read.command)
    data = [name for name in read.run if is_data_program(name)]  # run: ``sed 's/ls/x/'`` no
    if any(name in names or definitions.redefines(name) for name in data):
        return None
    return read.run


def _running(path: str) -> str:
    """A function named as the program at ``path`` that runs it by its path (``cp() {
    ~/bin/cp "$@"; }``)."""
    import shlex  # only here: its import compiles a pattern every shell guard paid for (H-5)

    return f'{os.path.basename(path)}() {{ {shlex.quote(path)} "$@"; }}\n'  # noqa: PTH119


_USED_NAME_RE = r"[^\s;&|(){}<>`$=/]+"
"""A word of a command's plain text that may be a program's, wrapper's or builtin's name."""
_DEFINED_RE = (
    r"(?:^|(?<=[\s;&|(){}]))(?:function\s+(?P<kw>[^\s;&|(){}<>`$=]+)(?:\s*\(\s*\))?"
    r"|(?P<name>[^\s;&|(){}<>`$=]+)\s*\(\s*\))"
)
"""A function definition's head in a file's text: ``cp() {``, ``function cd {``."""
_ALIAS_WORD_RE = r"(?<![\w-])alias(?![\w-])"
"""The word ``alias`` (no word character or ``-`` on either side)."""


def _alias_lines(text: str) -> list[str]:
    """The lines of ``text`` holding the word ``alias`` (:data:`_ALIAS_WORD_RE`), in order:
    ``(?m)^.*alias.*$``'s matches, found by the word (a line-anchored ``.*`` was tried at every
    character and walked back along each line: 30 ms on bash-completion's file, H-5)."""
    if "alias" not in text:
        return []
    lines = text.split("\n")
    return [line for line in lines if "alias" in line and re.search(_ALIAS_WORD_RE, line)]


class _Definition(NamedTuple):
    """One definition in a startup file's text (:func:`_definitions`): the names it defines
    (None: any, an ``alias`` line naming one built at run time), the text the guard reads for
    it (a function's whole definition, a pass-through wrapper's alias, an ``alias`` line;
    empty for none) and the other programs it runs as read (:data:`_READER_NAMES`)."""

    names: frozenset[str] | None
    text: str
    readers: frozenset[str]


def _definitions(text: str, wanted: frozenset[str], command: str) -> list[_Definition]:
    """The definitions in ``text`` of a name of ``wanted``, in one walk: each function's (its
    name a shell name, :data:`_FUNCTION_NAME_RE`, else no text; its head to its body's end,
    :func:`_body_end`, or to its line's end when that cannot be told; a pass-through wrapper
    as its alias, :func:`_pass_through`, with the reading programs it runs after its own,
    :data:`_READER_RE`) and each ``alias`` line (a module alias, :data:`_MODULE_ALIAS_RE`, as
    no text, running Python). ``command``: the command's plain text."""
    found: list[_Definition] = []
    heads = "(" in text or "function" in text  # what each match holds: else no compile (H-5)
    for match in re.finditer(_DEFINED_RE, text) if heads else ():
        name = match.group("kw") or match.group("name")
        if name not in wanted:
            continue
        end = _body_end(text, match.end())
        body = None if end is None else text[match.end() : end]
        alias = None if body is None else _pass_through(name, body, command)
        if alias is not None and body is not None:
            readers = frozenset(re.findall(rf"&&\s*({_READERS})\b", body))
            shell_name = re.fullmatch(_FUNCTION_NAME_RE, name) is not None
            found.append(_Definition(frozenset({name}), alias if shell_name else "", readers))
            continue
        if not re.fullmatch(_FUNCTION_NAME_RE, name):
            continue
        if end is None:  # ``f() if …; fi``: its line (not ``(function %s not found)``'s file)
            end = text.find("\n", match.end())
            end = len(text) if end < 0 else end
        whole = text[match.start() : end] + "\n"
        found.append(_Definition(frozenset({name}), whole, frozenset()))
    for line in _alias_lines(text):
        if module := re.fullmatch(_MODULE_ALIAS_RE, line):  # ``pytest`` as ``python -m pytest``
            found.append(_Definition(frozenset({module.group("name")}), "", _MODULE_READERS))
        else:
            found.append(_Definition(read_definitions(line).aliases, line + "\n", frozenset()))
    return found


def _body_end(text: str, at: int) -> int | None:
    """Where the compound command starting at ``at`` (after white space) ends: its braces
    (or a subshell body's parentheses) balanced, quoted text skipped
    (:func:`~harness_memory.hooks.here_data.closing_bracket`); None when it does not close
    (or starts with neither)."""
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text) or text[at] not in "{(":
        return None
    return closing_bracket(text, at)


_MODULE_ALIAS_RE = r"\s*alias\s+(?P<name>[\w-]+)=(['\"]?)python3?\s+-m\s+(?P=name)\2\s*;?\s*"
"""An alias running a Python tool as its module (``alias pytest='python -m pytest'``): it
runs the tool's code as its own command does, judged as that command."""


_LITERAL_WORD_RE = r"[\w.,:=+/@%-]+"
"""A word a wrapper passes as written: no quote, expansion, glob or operator."""
_FUNCTION_NAME_RE = r"[A-Za-z_][\w.:@+-]*"
"""A function name as startup files write them (``nvm``, ``git-foo``, ``_init``): not the
``%s`` or ``#`` a message's ``function %s not found`` holds (everyday57: bash_completion's
rest read as the command's own, 20,630 paths, every ``%s`` command refused)."""
_PLAIN_OPTION_RE = (
    r"-(?![A-Za-z]*[tTSb])[A-Za-z]+|--(?![\w-]*(?:target|suffix|backup))[A-Za-z][\w-]*(?:=\w+)?"
)
"""An option word a wrapper may pass and still be read as its alias (``-i``, ``--color=auto``):
no place in it or after it (not ``-t``/``-T``/``-S``/``-b`` in a bundle, nor
``--target-directory``, ``--suffix``, ``--backup``), no path in its value."""
_READERS = r"ls|pwd"
"""The programs a wrapper may run after its own (:data:`_READER_RE`)."""
_READER_RE = rf"(?:{_READERS})(?:\s+-[\w=-]+)*"
"""A program run after a wrapper's own that only reads (``&& ls -F``): it writes no place."""
_MODULE_READERS = frozenset({"python", "python3"})
"""The programs a module alias runs (``alias pytest='python -m pytest'``)."""
_READER_NAMES = frozenset(_READERS.split("|")) | _MODULE_READERS
"""Every program a wrapper or module alias may run besides its own (:func:`_definitions`):
their definitions are read as the command's names' are once one runs."""


def _runs(name: str) -> str:
    """The pattern of the program ``name`` run past any function of its name (``command cp``,
    ``builtin cd``, ``/bin/cp``, ``/usr/bin/cp``)."""
    return rf"(?:command\s+|builtin\s+|/(?:usr/)?bin/){re.escape(name)}"


def _pass_through(name: str, body: str, command: str) -> str | None:
    """The alias a wrapper function ``name`` with ``body`` (its braces) is, when it runs the
    program of its own name past itself with literal words then all its arguments, ``cp() {
    command cp -i "$@"; }`` (``|| return``, or ``&& ls -F``, :data:`_READER_RE`, after it):
    ``alias cp='cp -i'``, judged as written (a ``-t DIR`` stays refused), empty for none;
    also ``git() { if [ "$1" = clone ]; then command git clone --recursive "${@:2}"; else
    command git "$@"; fi; }`` while ``command`` (plain text) names no ``clone`` and builds no
    word at run time (its ``$1`` is then never ``clone``). None for any other body (judged
    as written: review57g)."""
    inner = body.strip()[1:-1].strip() if body.strip().startswith("{") else ""
    if "\n" in inner:  # two commands (``command cp`` then ``sh "$@"``), not one: review57i
        return None
    words = rf"(?P<words>(?:\s+{_LITERAL_WORD_RE})*)"
    simple = (
        rf"{_runs(name)}{words}\s+\"\$@\"\s*"
        rf"(?:\|\|\s*return(?:\s+(?:\$\?|\d+))?|&&\s*{_READER_RE})?\s*;?"
    )
    if (match := re.fullmatch(simple, inner)) is not None:
        given = match.group("words").strip()
        if not all(re.fullmatch(_PLAIN_OPTION_RE, word) for word in given.split()):
            return None  # a place (``-t ../other``) the alias would not be judged after a ``cd``
        return f"alias {name}='{name} {given}'\n" if given else ""
    branch = (
        rf"if\s+\[\s+\"\$1\"\s+==?\s+(?P<first>\w[\w-]*)\s+\];\s*then\s+{_runs(name)}\s+"
        rf"(?P=first)(?:\s+{_LITERAL_WORD_RE})*\s+\"\$\{{@:2\}}\"\s*;\s*else\s+{_runs(name)}"
        rf"\s+\"\$@\"\s*;\s*fi\s*;?"
    )
    if (match := re.fullmatch(branch, inner)) is not None:
        first = match.group("first")
        if re.search(r"[$`{}*?\[\]]", command) or re.search(
            rf"(?<![\w-]){first}(?![\w-])", command
        ):  # built at run time, or by brace expansion or a glob (``git c{l,}one``: review57i)
            return None
        return ""
    return None
