"""The script files a command runs, found and read for the guard (P-3).

Since round 56 the call's own command is read the same way: ``bash evil.sh``, ``. ./evil.sh``,
``bash < evil.sh``, ``cat evil.sh | bash``, ``bash -c "$(cat evil.sh)"`` run a script judged
by the memory its text names, refused when the same command writes it (``docs/security.md``).

The guard judges what a program's settings make it run as commands of the call: a shell's
startup files (``~/.bashrc`` under ``-i``, ``$BASH_ENV``), git's ``core.fsmonitor`` and
``!`` aliases, npm's ``script-shell``. Such a command may run another file: ``source ./x.sh``,
``. ~/.bash_aliases``, ``bash ./x.sh``, ``./x.sh`` (``ShellPaths.scripts``). An agent wrote
``x.sh`` in one call and the settings naming it ran it in the next. :func:`script_file` finds
the file as the shell will, :func:`read_script` reads it, and the guard judges it as a script
the agent's own command runs (``bash ./x.sh``) is: by the memory its text names (a shell
script's own scripts followed, up to :data:`SCRIPT_FOLLOW_CAP` bytes, found by the one linear
scan of :func:`nested_scripts`, not by reading it as a command), not as commands of the
call — real ones (nvm's ``nvm.sh``, 158 KiB; bash-completion's) write places they build at run
time, which the harness's sandbox fences. :func:`unchangeable` tells a file this account can
neither write nor replace (a system file, read by no agent's hand): such a file is not read;
:func:`system_file` tells the system's files, root's included (trusted by the definitions'
reader), and :func:`system_startup_file` the system's ``/etc/profile`` and
``/etc/bash.bashrc``, read as a script, not as the call's commands (P-3, H-5).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Mapping
from pathlib import PurePath

from harness_memory.hooks.git_toplevel import toplevel
from harness_memory.hooks.shell_comments import without_comments
from harness_memory.hooks.shell_startup import STARTUP_SHELLS, script_operand, shell_home

__all__ = [
    "FOLDERS_CAP",
    "FOLDER_CHANGER_RE",
    "SCRIPTS_CAP",
    "SCRIPT_CAP",
    "SCRIPT_DEPTH",
    "SCRIPT_FOLLOW_CAP",
    "SCRIPT_SHELLS",
    "SYSTEM_FOLDERS",
    "SYSTEM_STARTUP_FILES",
    "NestedScript",
    "git_answer_kept_by",
    "git_tops",
    "linked_words",
    "lost_writes",
    "nested_scripts",
    "non_interactive_part",
    "own_folder_spelled",
    "read_script",
    "script_file",
    "script_folders",
    "system_file",
    "system_startup_file",
    "unchangeable",
]

SCRIPT_CAP = 1_048_576
"""The most bytes of one script read (for the memory its text names, in one linear scan); a
longer text is unknown (the command refused). Real startup scripts are far below it (nvm's
``nvm.sh`` 158 KiB, bash-completion's ``bash_completion`` 136 KiB)."""
SCRIPT_FOLLOW_CAP = 65_536
"""The most bytes of a shell script whose own scripts (its ``source``, ``bash x.sh``) the guard
reads the command text of to follow; a longer one is judged by its text alone (the scripts it
runs then fenced as those of a script the agent's own command runs)."""
SCRIPTS_CAP = 32
"""The most script files read for one tool call; past it the command is refused unjudged."""
SCRIPT_DEPTH = 4
"""How many files deep one script may run another (a startup file sourcing ``a.sh``, which
sources ``b.sh`` …); a deeper one is refused unjudged (a file sourcing itself ends here)."""
_SHELL_INTERPRETERS = frozenset(
    {"sh", "bash", "rbash", "dash", "ash", "ksh", "mksh", "zsh", "busybox", "posh", "yash"}
    | {"lksh", "oksh", "pdksh", "loksh"}
)
"""Interpreters on a ``#!`` line whose script is shell commands the guard reads."""
SCRIPT_SHELLS = _SHELL_INTERPRETERS - {"busybox"}
"""Shells run by their own name whose script operand or standard input is a script of shell
commands (``zsh mk.sh``, ``cat mk.sh | ksh``): read as ``bash mk.sh``'s is (``busybox``
names its applet first)."""


def script_file(kind: str, base: str, path: str, environ: Mapping[str, str]) -> str:
    """The file a script word ``path`` (relative to ``base``, the folder the shell is in)
    names, as the shell finds it: ``source``'s (``kind`` ``"source"``) name without a ``/``
    is looked up on ``PATH`` first, then in ``base``; a shell's script operand (``"shell"``)
    in ``base`` first, then on ``PATH``; a program named by its path (``"run"``) and a file
    fed on standard input (``"fed"``: ``bash < x.sh``) are there."""
    here = os.path.normpath(os.path.join(base, path))  # noqa: PTH118
    if "/" in path or kind in ("run", "fed") or (kind == "shell" and os.path.lexists(here)):
        return here
    for folder in environ.get("PATH", "").split(":"):
        found = os.path.normpath(os.path.join(base, folder or ".", path))  # noqa: PTH118
        if os.path.isfile(found):  # noqa: PTH113
            return found
    return here


def read_script(file: str, *, run: bool) -> tuple[str, str]:
    """What the script ``file`` is and holds: ``("shell", text)`` for shell commands (always
    when not ``run``: ``source`` and ``bash x.sh`` read any file as such; when ``run``, a
    file with no ``#!`` line or one naming a shell), ``("other", text)`` for another
    interpreter's script (``#!/usr/bin/env python3``), ``("program", "")`` for a compiled
    program (an ELF file, or bytes holding a NUL), ``("unknown", "")`` when it is no regular
    file, cannot be read or is text longer than :data:`SCRIPT_CAP` bytes. Opened without
    waiting (a FIFO would hold the guard past the hook's time limit)."""
    try:
        with os.fdopen(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb") as script:
            if not stat.S_ISREG(os.fstat(script.fileno()).st_mode):
                return "unknown", ""
            data = script.read(SCRIPT_CAP + 1)
    except OSError:
        return "unknown", ""
    if run and (data.startswith(b"\x7fELF") or b"\0" in data):
        return "program", ""
    if len(data) > SCRIPT_CAP:
        return "unknown", ""
    text = data.decode("utf-8", "surrogateescape")
    if not run or not text.startswith("#!"):
        return "shell", text
    words = text[2:].partition("\n")[0].split()
    names = [PurePath(word).name for word in words if not word.startswith("-")]
    if names[:1] == ["env"]:
        names = [name for name in names[1:] if "=" not in name]
    return ("shell" if names[:1] and names[0] in _SHELL_INTERPRETERS else "other"), text


_PATH_WORD_ENDS = ";&|()<>'\"`="
"""What ends a path word in a script's text besides white space (shell punctuation, quotes,
the ``=`` of ``of=notes/x``, ``--output=notes/x``), for :func:`linked_words`: each replaced
by a space, then the text split at white space (``str.split``: the white space of ``\\s``);
a pattern's split made a string of every piece of bash-completion's 136 KiB (8 ms, H-5)."""
_RUN_TIME_CHARS = frozenset("$~*?[\0")
"""A word holding one of these is read at run time (an expansion, the home, a pattern)."""


def linked_words(text: str, bases: list[str]) -> list[tuple[str, str]]:
    """The words of a script's ``text`` (split at white space and :data:`_PATH_WORD_ENDS`,
    each once, in order; none holding a ``$``, ``~`` or pattern, read at run time) that, from one of
    ``bases`` (the absolute folders the script may run in, the one it starts in first), lead
    through a symlink: the path the kernel resolves differs from the one spelled
    (``notes/x.md`` where ``notes`` is a link), each with that folder. Absolute words are
    resolved once; relative ones from each folder whose listing holds their first part (one
    listing a folder, no lookup for the rest): linear in the text's length and the words each
    folder holds, one ``realpath`` per folder such words name and one ``lstat`` per word (one
    ``realpath`` for a word holding ``..``). An unreadable folder resolves none (P-3)."""
    absolute: list[str] = []
    relative: dict[str, list[str]] = {}  # by their first part
    for end in _PATH_WORD_ENDS:
        text = text.replace(end, " ")
    for word in dict.fromkeys(text.split()):
        if not _RUN_TIME_CHARS.isdisjoint(word):
            continue
        if word.startswith("/"):
            absolute.append(word)
        else:
            relative.setdefault(word.split("/", 1)[0], []).append(word)
    found = [(word, bases[0]) for word in _linked("/", absolute)]
    for base in bases:
        try:
            listed = os.listdir(base) if PurePath(base).is_absolute() else None  # noqa: PTH208
        except (OSError, ValueError):  # unreadable, or the unknown folder's ``/\\0``
            listed = None
        if listed is None:
            continue
        named = [word for part in (*listed, ".", "..") for word in relative.get(part, ())]
        found.extend((word, base) for word in _linked(os.path.realpath(base), named))
    return found


def _linked(real_base: str, words: list[str]) -> list[str]:
    """Those of ``words`` (absolute, or relative to ``real_base``, a real folder) the kernel
    resolves through a symlink (:func:`linked_words`)."""
    found: list[str] = []
    folders: dict[str, bool] = {}  # each folder's path: whether a link is on its way
    for word in words:
        joined = os.path.join(real_base, word)  # noqa: PTH118
        if ".." in PurePath(word).parts:  # the kernel follows ``lnk`` before the ``..`` after it
            if os.path.realpath(joined) != os.path.normpath(joined):
                found.append(word)
            continue
        spelled = os.path.normpath(joined)
        folder = os.path.dirname(spelled)  # noqa: PTH120
        if folder not in folders:
            folders[folder] = os.path.realpath(folder) != folder
        if folders[folder] or os.path.islink(spelled):  # noqa: PTH114
            found.append(word)
    return found


def unchangeable(file: str) -> bool:
    """Whether this account can neither write ``file`` nor replace it: neither it nor a folder
    above it (spelled or resolved) is writable here (``os.access``, asked at decision time)
    or owned by this account (its owner may ``chmod`` it writable again: a ``~/.bashrc`` made
    ``0444`` in a home made ``0555`` is the agent's still). Such a file
    (``/usr/share/bash-completion/bash_completion`` for an account other than root) was
    written by none of its agents. Never for root, who may write any."""
    uid = os.geteuid()
    spelled = os.path.abspath(file)  # noqa: PTH100
    for path in dict.fromkeys((spelled, os.path.realpath(spelled))):
        for each in (PurePath(path), *PurePath(path).parents):
            if os.access(each, os.W_OK) or _owned_by(each, uid):
                return False
    return True


def _owned_by(path: PurePath, uid: int) -> bool:
    """Whether ``path`` (followed if a link) is there and owned by ``uid``."""
    try:
        return os.stat(path).st_uid == uid  # noqa: PTH116
    except OSError:
        return False


SYSTEM_FOLDERS = ("/etc/", "/usr/", "/bin/", "/sbin/", "/lib/")
"""Where a root agent's system startup files, the definitions they make and ``PATH`` folders
are the system's (as the guard trusts a program a root agent runs only in the system's
folders), but for :data:`_LOCAL_FOLDER`."""
_LOCAL_FOLDER = "/usr/local/"
"""The folder root agents install into as they work (``pip``, ``npm -g``, ``make install``):
never the system's."""
SYSTEM_STARTUP_FILES = frozenset({"/etc/profile", "/etc/bash.bashrc"})
"""The system-wide startup files a shell runs at their fixed places (bash's and a POSIX
shell's), whose own commands are not judged as the call's when they are the system's
(:func:`system_startup_file`): only what they name and source."""


def system_file(path: str) -> bool:
    """Whether ``path`` (a file or a folder) is the system's (P-3, H-5): one this account can
    neither write nor replace (:func:`unchangeable`) or, for root (who may write any), one in
    :data:`SYSTEM_FOLDERS` but not below :data:`_LOCAL_FOLDER` (resolved: a link into the home
    is the home's), owned by root and writable by no one else. Such a file no agent of this
    account wrote, unless it ran as root and rewrote the system's own files, as it may
    ``/usr/bin/git``: the guard does not fence that (``docs/security.md``). A path not there
    (for root, in those folders) adds nothing: True; the caller tells a missing file or a link
    to nothing first where that matters. The definitions' reader trusts such files unread;
    the commands of a started shell's only :func:`system_startup_file`."""
    if os.geteuid() != 0:
        return unchangeable(path)
    real = os.path.realpath(path)
    if not real.startswith(SYSTEM_FOLDERS) or real.startswith(_LOCAL_FOLDER):
        return False
    try:
        status = os.stat(real)  # noqa: PTH116
    except OSError:
        return True  # not there: it adds nothing
    return status.st_uid == 0 and not status.st_mode & 0o022


def system_startup_file(path: str) -> bool:
    """Whether ``path`` is one of :data:`SYSTEM_STARTUP_FILES` (with its links resolved: a
    ``~/.profile`` linked to ``/etc/profile``; the very file this process sees there, not one
    of another mount namespace a ``/proc/<pid>/root/etc/profile`` resolves to by name) and the
    system's (:func:`system_file`): the guard judges none of its commands as the call's, only
    what it names and sources (H-5: ``/etc/profile``'s commands were 167–181 M instructions of
    every ``bash -lc`` hook). Any other file a shell runs, a system's ``/etc/profile.d/x.sh``
    named by ``BASH_ENV`` or ``--rcfile`` included, is judged as commands."""
    real = os.path.realpath(path)
    if real not in SYSTEM_STARTUP_FILES:
        return False
    try:
        if not os.path.samefile(path, real):  # noqa: PTH121
            return False
    except OSError:
        return False
    return system_file(path)


_PREAMBLE = r"(?:[ \t]*(?:\#[^\n]*)?\n)*[ \t]*"
"""Blank and comment lines, before a file's first command."""
_FLAGS = r"\[\[\s+\"?\$-\"?\s+"
_PROMPT = r"\[\s+-{}\s+\"\$\{{?PS1-?\}}?\"\s+\]\s*{}\s*return"
_ENDED = r"(?:\s+[0-9]+)?[ \t]*(?:[;\#][^\n]*)?(?:\n|$)"
_NOT_INTERACTIVE_RE = (
    _PREAMBLE
    + r"(?:case\s+\"?\$-\"?\s+in\s+\*i\*\)\s*;;\s*\*\)\s*return\s*;;\s*esac"
    + rf"|{_FLAGS}!=\s+\*i\*\s+\]\]\s*&&\s*return"
    + rf"|{_FLAGS}==?\s+\*i\*\s+\]\]\s*\|\|\s*return"
    + rf"|if\s+{_FLAGS}!=\s+\*i\*\s+\]\]\s*;?\s*then\s+return\s*;?\s*fi"
    + rf"|(?P<prompt>{_PROMPT.format('z', '&&')}|{_PROMPT.format('n', '[|][|]')}))"
    + _ENDED
)
"""A file whose first command returns at once in a shell that is not interactive: Debian's
``.bashrc`` (``case $- in *i*) ;; *) return;; esac``), ``[[ $- != *i* ]] && return``, ``[ -z
"$PS1" ] && return`` and their like."""


def non_interactive_part(text: str, environ: Mapping[str, str]) -> str:
    """The part of a startup or sourced file's ``text`` a shell that is not interactive runs,
    with ``environ`` (its environment): none when its first command returns unless the shell
    is interactive (:data:`_NOT_INTERACTIVE_RE`; the ``PS1`` forms only where ``environ`` sets
    no ``PS1``, which a shell that is not interactive then leaves unset), else all of it."""
    found = re.match(_NOT_INTERACTIVE_RE, text)
    if found is None or (found.group("prompt") and "PS1" in environ):
        return text
    return ""


NestedScript = tuple[str, str, str, str | None, bool]
"""A script a followed script runs, as ``ShellPaths.scripts`` holds one: its kind
(``source``, ``shell``, ``run``), the folder it runs in, its word as spelled, its path once
expanded (None when named at run time) and whether it runs at the top (not in ``$(…)``)."""
_SEGMENT_RE = r"(\$\(|`|\n|;|&&|\|\||\||(?<![<>])&(?!>)|[()])"
"""What ends a simple command (or starts one inside ``$(…)`` or backquotes), for the scan (a
``&`` of a redirection, ``>&/dev/null``, ends none)."""
_REDIRECTION_RE = r"^[0-9]*[<>]"
"""A redirection word before a command's name (``>/dev/null cmd``)."""
_LEADING = frozenset(
    {"then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", "time", "exec"}
    | {"command", "builtin", "nohup", "env", "-", "--"}
)
"""Words before a command's name the scan passes over (keywords, wrappers)."""
_GLOBS_CAP = 64
"""How many patterns one scan matches against the disk (``for f in ~/.bashrc.d/*.sh``); a
name holding one past it is taken as named at run time (as ``source "$(…)"`` is)."""
_OPENING = frozenset({"if", "while", "until", "case", "select", "{"})
"""Words opening a branch, a loop or a group: an assignment inside may not run."""
_CLOSING = frozenset({"fi", "done", "esac", "}"})
"""Words closing one."""
_VALUES_CAP = 16
"""The most values one variable is followed with; past it, unknown."""
FOLDER_CHANGER_RE = r"(?:cd(?<!\wcd)|pushd(?<!\wpushd)|popd(?<!\wpopd))\b"
"""The word ``cd``, ``pushd`` or ``popd`` in a script's text (``\\b(?:cd|pushd|popd)\\b``,
its start told after the name: searched for by its first letters, not tried at every
character of bash-completion's 136 KiB, 5 ms each time a file sourcing it is read, H-5)."""
_DECLARING = frozenset({"export", "declare", "typeset", "local", "readonly"})
"""Builtins whose operands are assignments (``export BASH_ENV=./x.sh``)."""
_ASSIGNED_RE = r"(?s)^(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)$"
_PLAIN_VARIABLE_RE = (
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
)


def nested_scripts(
    text: str,
    base: str,
    environ: Mapping[str, str],
    script: tuple[str, str] | None = None,
    *,
    asks_git: bool = False,
) -> list[NestedScript]:
    """The scripts a followed shell script's ``text`` run in ``base`` with ``environ`` runs
    in turn: ``source x.sh``, ``. x.sh``, ``bash x.sh`` (a shell's script operand, read by
    :func:`~harness_memory.hooks.shell_startup.script_operand`), ``./x.sh``, an assignment of
    ``BASH_ENV`` or ``ENV`` (sourced by every shell after it), each in the folder a literal
    ``cd`` before it entered, with literal variables (the environment's, the script's own
    assignments, a ``for`` loop's values) read. A relative one is also taken from every other
    folder the script may be in where that file exists (:func:`script_folders`: a subshell's,
    a pipe's or a ``popd``'s folder is left behind at run time). ``script``: the file and
    how it runs (``shell``, ``run``, ``source``, ``fed``), for ``cd "$(dirname "$0")"``. One
    linear scan of simple commands split at ``;``, ``&&``, ``|``, newlines, ``$(`` and
    backquotes, no path judged (H-5: a 64 KiB startup file in a few milliseconds); a name it
    cannot read is one named at run time. ``asks_git``: git may be asked for the top folder a
    ``cd "$(git rev-parse --show-toplevel)"`` enters (:meth:`_NestedScan._top`)."""
    scan = _scanned(text, base, environ, script, asks_git=asks_git)
    found = list(scan.found)
    for kind, folder, word, path, top in (*scan.found, *scan.unanchored):
        if path is None or PurePath(path).is_absolute():
            continue
        for other in scan.folders[:FOLDERS_CAP]:
            if other != folder and os.path.lexists(os.path.join(other, path)):  # noqa: PTH118
                found.append((kind, other, word, path, top))
    return found


FOLDERS_CAP = 64
"""The most folders a script's ``cd``s, ``pushd``s and ``popd``s are followed into (as
``tool_targets`` follows a command's); past it :func:`script_folders` cannot tell them."""


def script_folders(
    text: str,
    base: str,
    environ: Mapping[str, str],
    script: tuple[str, str] | None = None,
    *,
    sourced: bool = False,
    asks_git: bool = False,
) -> list[str] | None:
    """Every folder a shell script's ``text`` run in ``base`` may be in (P-3): ``base`` and
    each folder a ``cd``/``pushd``/``popd`` of it enters, followed as the command's own are
    (a literal folder, ``..``, ``~``, a variable it or the environment sets, ``cd -``, the
    stack ``pushd`` keeps) and ``cd "$(dirname "$0")"`` with its like (``${BASH_SOURCE%/*}``,
    ``$(cd "$(dirname …)" && pwd)``, ``$(dirname "$(readlink -f "$0")")``) read as the
    script's own folder (``script``: its file and how it runs). A word of the script is
    resolved from each, whichever the shell is in there. A ``cd`` into a folder named at run
    time adds none (a place built at run time, fenced as the script's other ones are); None
    past :data:`FOLDERS_CAP` folders or :data:`_FOLDER_COMMANDS_CAP` commands of a script
    longer than :data:`SCRIPT_FOLLOW_CAP` (whose ``cd``s alone are read, its variables the
    environment's: :data:`_FOLDER_COMMAND_RE`). Linear in the text. ``sourced``: ``text`` is a
    file the script sources, whose own sourced files are not followed (one level deep);
    ``asks_git``: as :func:`nested_scripts`'."""
    if not re.search(r"\b(?:cd|pushd|popd|source)\b|(?:^|[\s;&|(){}])\.\s", text):
        return [base]  # no folder change, nor a sourced file that may hold one
    if len(text) <= SCRIPT_FOLLOW_CAP:
        folders = _scanned(text, base, environ, script, sourced=sourced, asks_git=asks_git).folders
        return None if len(folders) > FOLDERS_CAP else folders
    scan = _NestedScan(base, environ)  # a longer one: its ``cd``s alone, in one regex pass
    text = _own_read(scan, without_comments(text), script)
    entered: dict[tuple[str | None, str], str | None] = {}  # a ``cd``'s folder from a folder
    for found in re.finditer(_FOLDER_COMMAND_RE, text):
        name, spelt = found.group("name"), found.group("operands")
        key = (scan.base, spelt)
        if name == "cd" and key in entered and spelt.strip() != "-":
            scan.previous, scan.base = scan.base, entered[key]  # as :meth:`_NestedScan.enter`
            scan.known["PWD"] = None if scan.base is None else [scan.base]
            continue
        scan.enter(name, spelt.replace('"', "").replace("'", "").split())
        entered[key] = scan.base
        if len(scan.folders) > FOLDERS_CAP or len(entered) > _FOLDER_COMMANDS_CAP:
            return None
    return scan.folders


def lost_writes(
    text: str, base: str, environ: Mapping[str, str], script: tuple[str, str], asks_git: bool
) -> list[str]:
    """The places a shell script's ``text`` run in ``base`` writes, as spelled, where they
    land cannot be known (P-3): a redirection's target or an operand of a file writer
    (:data:`_LOST_WRITERS`) not starting with ``/``, ``~`` or an expansion after a ``cd``
    into a folder named at run time (``cd "$(echo sub)"``, ``cd "$1"``, a variable set in a
    branch or a function: review guard61 finding 1), as a command's own after such a ``cd``
    (``ShellPaths.written_at_run_time``); or one built from the words given to the script
    (:data:`_GIVEN_RE`: ``"$1"``, ``"${@:3}"``) after any ``cd`` (finding 2): the guard judges
    those words from the folder the command runs in alone. Empty for a script longer than
    :data:`SCRIPT_FOLLOW_CAP` (its commands not scanned). ``asks_git``: as
    :func:`nested_scripts`' (a write after a ``cd`` to a top git did not name is lost)."""
    if len(text) > SCRIPT_FOLLOW_CAP or not re.search(r"\b(?:cd|pushd|popd|source)\b|\.\s", text):
        return []
    return _scanned(text, base, environ, script, asks_git=asks_git).lost_writes


def git_tops(
    text: str, base: str, environ: Mapping[str, str], script: tuple[str, str], asks_git: bool
) -> list[str]:
    """The folders of :func:`script_folders` a shell script's ``text`` run in ``base`` enters
    at or below a top folder git named for its ``cd "$(git rev-parse --show-toplevel)"`` (P-3):
    a relative write there lands where git points (``core.worktree`` may point into another
    Workspace's scope), so each is judged as a place written. Empty for a script longer than
    :data:`SCRIPT_FOLLOW_CAP` (whose tops are not asked) or without ``asks_git``."""
    if len(text) > SCRIPT_FOLLOW_CAP or "--show-toplevel" not in text or not asks_git:
        return []
    scan = _scanned(text, base, environ, script, asks_git=True)
    tops = [top for top in scan.tops.values() if top is not None]
    return [f for f in scan.folders if any(f == t or f.startswith(t + "/") for t in tops)]


_LOST_WRITERS = frozenset(
    {"tee", "touch", "cp", "mv", "ln", "install", "dd", "mkdir", "truncate", "rm", "rmdir"}
)
_TARGETED = {"-o": ("sort",), "-t": ("cp", "mv", "ln", "install")}
"""Options whose next word a program writes (``sort -o x``, ``cp -t dir``)."""
"""Programs whose operands :func:`lost_writes` takes as written (``cp``, ``mv``, ``ln`` and
``install`` their last, ``dd`` its ``of=``, the others every one)."""


_GIVEN_HINT = frozenset("0123456789@*!AO")
"""Characters one of :data:`_GIVEN_RE`'s words holds (a cheap test before the regex)."""
_NAMES_READ_RE = r"\$\{?([A-Za-z_]\w*)"
"""The names of the variables a word reads (``$f``, ``${out}``)."""
_GIVEN_RE = r"\$(?:[0-9@*]|\{(?:[0-9@*]|!#|BASH_ARGV\b)|\{?OPTARG\b)"
"""A word built from the words given to the script: ``$1``, ``"$@"``, ``"${@:3}"``,
``${*:3}``, ``"${!#}"`` (review guard61 finding 2)."""


def _written_words(words: list[str]) -> list[str]:
    """The places a simple command's ``words`` (quotes removed) write: redirection targets
    (``>> x``, ``>x``, ``2>x``) and :data:`_LOST_WRITERS` operands (for :func:`lost_writes`)."""
    written: list[str] = []
    for at, word in enumerate(words):
        arrow = re.match(r"^[0-9]*(?:>>?|&>>?|>\|)(?P<rest>.*)$", word)
        if arrow is not None:
            rest = arrow.group("rest")
            written.append(rest or (words[at + 1] if at + 1 < len(words) else ""))
    name = words[0].rsplit("/", 1)[-1] if words else ""
    operands = [word for word in words[1:] if word[:1] not in ("-", ">", "<", "&")]
    operands = [w for w in operands if not re.match(r"^[0-9]*[<>]", w)]
    for at, word in enumerate(words[1:], 1):  # ``sort -o x``, ``cp -t dir``, their long forms
        if name in _TARGETED.get(word, ()) and at + 1 < len(words):
            written.append(words[at + 1])
        long = re.match(r"^--(?:output|target-directory)=(?P<rest>.+)$", word)
        written += [long.group("rest")] if long and name in _TARGETED["-t"] + ("sort",) else []
    if name == "dd":
        written += [word[3:] for word in operands if word.startswith("of=")]
    elif name in ("cp", "mv", "ln", "install") and len(operands) > 1:
        written.append(operands[-1])
    elif name in _LOST_WRITERS - {"dd", "cp", "mv", "ln", "install"}:
        written += [word for word in operands if not word[:1].isdigit() or name != "truncate"]
    return [word for word in written if word]


_FOLDER_COMMANDS_CAP = 4096
"""The most distinct ``cd``, ``pushd`` and ``popd`` commands of a long script followed (each a
few microseconds: H-5); past it :func:`script_folders` cannot tell its folders."""
_FOLDER_COMMAND_RE = (
    r"(?P<name>cd(?<![^\s;&|(){}]cd)|pushd(?<![^\s;&|(){}]pushd)|popd(?<![^\s;&|(){}]popd))"
    r"(?=[\s;&|)]|$)(?P<operands>[^\n;&|)`]*)"
)
"""A ``cd``, ``pushd`` or ``popd`` and its words, in a script too long for the whole scan of
:func:`nested_scripts` (:data:`SCRIPT_FOLLOW_CAP`): its variables are the environment's alone
(one the script assigns is unknown there: a place built at run time). At the text's start or
after white space or shell punctuation, told after the name (``(?<![^…]cd)``), not before it:
a pattern starting with its name is searched for by its first letters, one starting with a
look-behind is tried at every character (nvm's 158 KiB ``nvm.sh``: 12 ms, now 1; H-5)."""


def _own_read(scan: _NestedScan, text: str, script: tuple[str, str] | None) -> str:
    """``text`` with the script's own folder read (:func:`_own_folder_read`) and ``scan``
    told that folder, when ``script`` (its file and how it runs) is given."""
    if script is None or _OWN in text:
        return text
    scan.own = os.path.dirname(script[0]), os.path.dirname(os.path.realpath(script[0]))  # noqa: PTH120
    return _own_folder_read(text, *script)


def _scanned(
    text: str,
    base: str,
    environ: Mapping[str, str],
    script: tuple[str, str] | None,
    *,
    sourced: bool = False,
    asks_git: bool = False,
) -> _NestedScan:
    """The scan of :func:`nested_scripts` and :func:`script_folders` over ``text``; the last
    one kept, as the guard asks both of one script in turn (one scan of it, H-5)."""
    if _LAST and _LAST[0][0] is text and _LAST[0][1:5] == (base, environ, script, asks_git):
        return _LAST[0][5]
    scan = _scan(text, base, environ, script, sourced=sourced, asks_git=asks_git)
    if not sourced:
        _LAST[:] = [(text, base, environ, script, asks_git, scan)]
    return scan


_LAST: list[tuple[str, str, Mapping[str, str], tuple[str, str] | None, bool, _NestedScan]] = []
"""The last script :func:`_scanned` scanned: its text, folder, environment, file, whether git
may be asked, and scan."""


def _scan(
    text: str,
    base: str,
    environ: Mapping[str, str],
    script: tuple[str, str] | None,
    *,
    sourced: bool = False,
    asks_git: bool = False,
) -> _NestedScan:
    """:func:`_scanned`'s scan, one linear pass over ``text``'s simple commands."""
    scan = _NestedScan(base, environ, sourced=sourced)
    scan.git_sure = asks_git and not sourced
    scan.cdable = "cdable_vars" in text  # ``cd name`` may enter the folder ``$name`` holds
    scan.gives = re.search(_GIVEN_RE, text) is not None
    text = _own_read(scan, without_comments(text), script)
    if "--show-toplevel" in text:
        text = re.sub(_TOPLEVEL_RE, _TOP, text)
    pieces = re.split(_SEGMENT_RE, text)
    top = True
    for at in range(0, len(pieces), 2):  # a command's text, then what ends it
        words = pieces[at].split()
        if at and pieces[at - 1] in (")", "`") and pieces[at][:1] not in ("", " ", "\t"):
            words = words[1:]  # ``$(…)/etc/x``: the substitution's tail, no command
        ending = pieces[at + 1] if at + 1 < len(pieces) else "\n"
        if words and ending in ("$(", "`") and not pieces[at][-1:].isspace():
            words[-1] += "$"  # ``source "$(…)"``: a word built at run time
        elif ending in ("$(", "`") and [w for w in words if w[:1] != "-"][-1:] in _ENTERING:
            words.append("$")  # ``cd $(echo sub)``: its folder, not a bare ``cd`` (home)
        maybe = at > 0 and pieces[at - 1] in ("&&", "||")  # ``a && d=x``: may not run
        following = pieces[at + 2].split()[:1] if at + 2 < len(pieces) else []
        scan.mktemp = ending == "$(" and following == ["mktemp"] and _new_temp(pieces[at + 2], scan)
        scan.command(words, top=top, maybe=maybe)
        if scan.git_sure:  # ``f() {`` defines a function: runs nothing yet
            defining = ending == "(" and pieces[at + 2 : at + 4] in (["", ")"], [" ", ")"])
            said = pieces[at].split()
            kept = _defines_kept(said) if defining else _git_answer_kept(said, scan.base)
            scan.git_sure = kept
        if ending in _PARENTHESES:
            scan.subshell(ending, pieces[at])
        top = (top and ending not in ("$(", "`")) or ending == "\n"
    return scan


def _new_temp(said: str, scan: _NestedScan) -> bool:
    """Whether ``mktemp`` run with the text ``said`` makes a new folder under the system's
    temporary one: no ``-p``/``--tmpdir`` naming another, no ``TMPDIR`` the script set
    (``export TMPDIR="$(cat target)"``: review guard62 B3)."""
    return "TMPDIR" not in scan.known and not re.search(r"\s(?:-p|--tmpdir)", said)


_PARENTHESES = frozenset({"(", "$(", ")"})
"""What :meth:`_NestedScan.subshell` reads (other endings open or close no subshell)."""
_NO_LOOP = 1 << 30
"""``loop_opened`` outside any loop (no subshell count reaches it)."""
_ENTERING = (["cd"], ["pushd"])
"""A ``cd`` or ``pushd`` whose folder a substitution after white space names."""
_TOP = "\0t"
"""What stands for the folder ``$(git rev-parse --show-toplevel)`` prints, in a script's text
once read: asked of git where the script is then (:meth:`_NestedScan._top`)."""
_QUIET = r"(?:\s+2>\s*/dev/null)?\s*"
_TOPLEVEL_RE = (
    rf"\$\(\s*git\s+rev-parse\s+--show-toplevel{_QUIET}\)"
    rf"|`\s*git\s+rev-parse\s+--show-toplevel{_QUIET}`"
)
"""``$(git rev-parse --show-toplevel)`` and its backquoted spelling, its errors maybe sent to
``/dev/null``."""
_TOPS_CAP = 4
"""The most folders one scan asks git for its top (each a git run of ~3 ms: H-5)."""
_KEEPING = frozenset({"echo", "printf", "true", "false", ":", "test", "[", "command", "set"})
_KEEPING_ALSO = frozenset({"cd", "pushd", "popd", "exit"})
"""The commands that may stand before a script's ``cd`` to its git top (P-3): builtins that
run no code, define no function, alias, trap or ``hash`` entry and write no file
(:func:`_git_answer_kept`), and the folder changes the scan follows, and ``exit``."""
_KEYWORDS_KEPT = frozenset({"if", "then", "elif", "else", "fi", "{", "}"})
"""Keywords passed over before such a command (what follows each is judged as a command)."""
_UNSAFE_NAME_RE = (
    r"^(?:GIT_\w*|XDG_\w*|BASH\w*|LD_\w*|PATH|HOME|ENV|CDPATH|TMPDIR|PS4|SHELLOPTS|IFS"
    r"|GLOBIGNORE|PROMPT_COMMAND|EXECIGNORE|GCONV_PATH|LOCPATH|HOSTALIASES|PWD|OLDPWD"
    r"|POSIXLY_CORRECT)$"
)
"""Variables git, the dynamic loader or the shell (finding and starting git, ``cd``,
``mktemp``, tracing) reads: no assignment of one may stand before the ``cd``."""
_SAFE_EXPANSION_RE = (
    r"\$(?:[0-9#?@*$!-]|[A-Za-z_]\w*"
    r"|\{(?:[0-9]+|[#?@*]|[A-Za-z_]\w*(?::?[-+][^$`{}\[\]\\]*)?)\})"
)
"""The expansions a word before the ``cd`` may hold: a variable, a given word, ``${x:-y}``
with a literal ``y``; never ``${x@P}``, a subscript (arithmetic: code), nor ``$'…'``."""
_SET_WORD_RE = (
    r"^(?:[-+][euxvETCfo]+|pipefail|errexit|nounset|xtrace|noclobber|noglob|errtrace"
    r"|functrace|verbose)$"
)
"""``set``'s words allowed there: options, none exporting every variable (``-a``, ``-k``)."""
_REDIRECTED_KEPT = frozenset(
    {">/dev/null", ">>/dev/null", "1>/dev/null", "2>/dev/null", "&>/dev/null", "2>>/dev/null"}
    | {">&2", "1>&2", "2>&1"}
)
"""Redirections that write nothing a git may read (before the ``cd``, in the script)."""
_ARROWS = frozenset({">", ">>", "1>", "2>", "&>", "1>>", "2>>", "&>>"})
"""A redirection whose target is the next word."""
_NOT_FUNCTIONS = frozenset(
    {"git", "dirname", "readlink", "realpath", "pwd", "command_not_found_handle", "cd"}
    | {"pushd", "popd", "exit", "source"}
)
"""Names no function defined before the ``cd`` may have (they would run for git's answer)."""


def _plain(word: str) -> bool:
    """Whether ``word`` (quotes removed) holds no backslash and no expansion but those of
    :data:`_SAFE_EXPANSION_RE`: nothing in it runs code or reads a name bash evaluates."""
    return "\\" not in word and "$" not in re.sub(_SAFE_EXPANSION_RE, "", word)


def _unredirected(words: list[str], folder: str | None, *, files: bool) -> list[str] | None:
    """``words`` without their redirections, None when one may write git's files: only those
    of :data:`_REDIRECTED_KEPT` (``files``: in the call's own command, a literal file too
    whose real path is none of git's, :func:`_git_file_kept`); any other ``<`` or ``>``
    (``>&.git/config``, ``1<>x``, ``a>b``) is None."""
    kept: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        following = words[at + 1] if at + 1 < len(words) else ""
        if word in _REDIRECTED_KEPT:
            at += 1
            continue
        if word in _ARROWS and (following == "/dev/null" or (files and _file(following, folder))):
            at += 2
            continue
        arrow = re.match(r"^(?:[12]?>>?|&>>?)(?P<rest>[^<>&].*)$", word)
        if arrow is not None and files and _file(arrow.group("rest"), folder):
            at += 1
            continue
        if "<" in word or ">" in word:
            return None
        kept.append(word)
        at += 1
    return kept


def _file(target: str, folder: str | None) -> bool:
    """Whether ``target`` is a literal file name whose writing changes none of git's files."""
    plain = re.match(r"^[\w./+,:@%=-]+$", target) is not None
    return plain and target != "/dev/null" and _git_file_kept(target, folder)


def _git_answer_kept(said: list[str], folder: str | None, *, files: bool = False) -> bool:
    """Whether the simple command ``said`` (split at white space) run in ``folder`` (None:
    unknown) surely leaves git's answer to ``--show-toplevel`` as it was (P-3), by a strict
    allowlist: no word holds a backslash or an expansion but a variable's
    (:func:`_plain`); after keywords of a branch or a group (:data:`_KEYWORDS_KEPT`) come
    assignments of no variable git or the shell reads (:data:`_UNSAFE_NAME_RE`), then
    nothing or one of :data:`_KEEPING` (``set`` with options only, no ``printf -v``,
    ``command -v`` only, no ``test -v``) or :data:`_KEEPING_ALSO`, redirected nowhere but as
    :func:`_unredirected` allows (``files``: the call's own command). Empty: kept."""
    unquoted = [word.replace('"', "").replace("'", "") for word in said]
    words = _unredirected(unquoted, folder, files=files)
    if words is None or any("\\" in word for word in said) or not all(map(_plain, words)):
        return False
    while words and words[0] in _KEYWORDS_KEPT:
        words = words[1:]
    while words and (assigned := re.match(_ASSIGNED_RE, words[0])) is not None:
        if re.match(_UNSAFE_NAME_RE, assigned.group("name")):
            return False
        words = words[1:]
    if not words:
        return True
    name, rest = words[0], words[1:]
    if name == "set":
        return all(re.match(_SET_WORD_RE, word) for word in rest)
    if name == "command":
        return rest[:1] in (["-v"], ["-V"])
    if name in ("printf", "test", "["):
        return not any(word.startswith("-v") for word in rest)
    return name in _KEEPING or name in _KEEPING_ALSO


def _git_file_kept(target: str, folder: str | None) -> bool:
    """Whether writing ``target`` from ``folder`` surely changes none of the files git reads
    to find the top (``.git``, its ``config``, ``~/.gitconfig``, ``~/.config/git/``): it
    is ``/dev/null``, or a literal path whose real place (links followed, as the kernel
    will) has no part starting with ``.git`` or named ``git``."""
    if target == "/dev/null":
        return True
    if not target or folder is None or any(char in target for char in "$`~*?[\\&"):
        return False
    try:
        real = os.path.realpath(os.path.join(folder, target))  # noqa: PTH118
    except (OSError, ValueError):  # a folder this account cannot search, a NUL
        return False
    return not any(part.startswith(".git") or part == "git" for part in PurePath(real).parts)


def _defines_kept(words: list[str]) -> bool:
    """Whether ``words`` (before ``() {``) define a function of a name that runs nothing
    for git's answer: a plain name, none of :data:`_NOT_FUNCTIONS`, :data:`_KEEPING` or
    :data:`_KEYWORDS_KEPT` (its body is judged as the commands before the ``cd`` are)."""
    if len(words) != 1 or not re.match(r"^[A-Za-z_][\w-]*$", words[0]):
        return False
    return words[0] not in _NOT_FUNCTIONS | _KEEPING | _KEEPING_ALSO | _KEYWORDS_KEPT


_BASH_OPTION_RE = r"^(?:-[euxvETCfn]+|--)$"
"""Options of ``bash``/``sh`` before the script's name that read no startup file, set no
``allexport`` or ``-k``, run no ``-c`` text, no standard input, no ``shopt``."""
_DURATION_RE = r"^[0-9]+(?:\.[0-9]+)?[smhd]?$"


def _runner_words(words: list[str]) -> list[str] | None:
    """The words after the one script a runner command runs, with that script's word first:
    its leading assignments none of :data:`_UNSAFE_NAME_RE`, then the wrappers ``time``,
    ``timeout DURATION``, ``nice [-n N]``, ``env NAME=value…``, then ``bash``/``sh`` with the
    options of :data:`_BASH_OPTION_RE` (only the words before the script's name are
    bash's), ``source``, ``.`` or a path; None for any other command."""
    at = 0
    while at < len(words):
        word = words[at]
        if (assigned := re.match(_ASSIGNED_RE, word)) is not None:
            if re.match(_UNSAFE_NAME_RE, assigned.group("name")):
                return None
        elif word in ("time", "nice", "env"):
            if word == "nice" and words[at + 1 : at + 2] == ["-n"]:
                at += 2
        elif word == "timeout" and re.match(_DURATION_RE, "".join(words[at + 1 : at + 2])):
            at += 1
        else:
            break
        at += 1
    name, rest = "".join(words[at : at + 1]), words[at + 1 :]
    if name in ("bash", "sh"):
        while rest and re.match(_BASH_OPTION_RE, rest[0]):
            rest = rest[1:]
        return rest if rest and rest[0][:1] not in ("-", "+") else None
    if name in ("source", "."):
        return rest or None
    return [name, *rest] if "/" in name else None


def _tee_kept(said: list[str], folder: str | None) -> bool:
    """Whether ``said`` is ``tee`` writing literal files none of git's (``| tee log.txt``)."""
    words = [word.replace('"', "").replace("'", "") for word in said]
    files = [word for word in words[1:] if word[:1] != "-"]
    return words[:1] == ["tee"] and all(_file(word, folder) for word in files)


def git_answer_kept_by(text: str, folder: str | None, environ: Mapping[str, str]) -> bool:
    """Whether the call's own command ``text`` surely leaves git's ``--show-toplevel``
    answer as the guard finds it until the one script it runs asks (P-3): each simple
    command keeps it (:func:`_git_answer_kept`, a redirection into a literal file of none of
    git's allowed) but one running a script (:func:`_runner_words`, its words plain,
    redirected as the others), no loop that could run the script again, no ``BASH_ENV``/
    ``ENV`` the shell sources first, no ``PS4`` holding an expansion (run by ``-x``). Only
    then may a script's ``cd "$(git rev-parse --show-toplevel)"`` be asked of git
    (``asks_git`` of :func:`script_folders` and the others). ``folder``: where it runs
    (None: unknown; what it writes is then taken as maybe git's files)."""
    if environ.get("BASH_ENV") or environ.get("ENV") or re.search(r"[$`]", environ.get("PS4", "")):
        return False
    runners = 0
    for piece in re.split(_SEGMENT_RE, without_comments(text))[::2]:
        said = piece.split()
        if {"for", "while", "until", "select"} & set(said):
            return False
        if _git_answer_kept(said, folder, files=True) or _tee_kept(said, folder):
            continue
        words = _unredirected(
            [w.replace('"', "").replace("'", "") for w in said], folder, files=True
        )
        given = None if words is None or "\\" in piece else _runner_words(words)
        if given is None or not all(map(_plain, given)):
            return False
        runners += 1
    return runners <= 1


_OWN = "\0h"
"""What stands for the script's own folder in its text once read (no script holds a NUL)."""
_OWN_REAL = "\0r"
"""What stands for its real folder (``readlink -f``, ``realpath``, ``pwd -P``)."""
_SELF = r"[\"']?\$(?:\{?0\}?|\{?BASH_SOURCE(?:\[0\])?\}?)[\"']?"
"""``"$0"``, ``${BASH_SOURCE[0]}``, ``$BASH_SOURCE``: the script's path as run."""
_DIRNAME_RE = (
    r"\$\(\s*dirname\s+(?:--\s+)?"
    + _SELF
    + r"\s*\)"
    + r"|`\s*dirname\s+(?:--\s+)?"
    + _SELF
    + r"\s*`"
    + r"|\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}"
)
"""The script's folder as scripts spell it: ``$(dirname "$0")``, ``${BASH_SOURCE%/*}``."""
_REAL_DIRNAME_RE = (
    r"\$\(\s*dirname\s+(?:--\s+)?[\"']?\$\(\s*(?:readlink\s+-[fem]|realpath)\s+(?:--\s+)?"
    + _SELF
    + r"\s*\)[\"']?\s*\)"
)
"""Its real folder: ``$(dirname "$(readlink -f "$0")")``, ``$(dirname "$(realpath "$0")")``."""
_CD_FOLDER_PRINTED_RE = (
    r"\$\(\s*cd\s+(?:-[LP]\s+)?(?:--\s+)?[\"']?(?P<folder>\0[hr](?:/[^\s\"'$`;&|()]*)?)[\"']?"
    r"\s*(?:(?:[0-9]?>>?|&>)\s*/dev/null\s*(?:2>&1\s*)?)?&&\s*pwd(?:\s+-[LP])?\s*\)"
)
"""``$(cd "$(dirname "$0")" && pwd)``, once its inner part is read: that folder."""


def _own_folder_read(text: str, file: str, kind: str) -> str:
    """``text`` with the script's own folder spelled by :data:`_OWN` (:data:`_OWN_REAL` for
    its real one) where it names it as :data:`_DIRNAME_RE` and its like read. ``$0`` is the
    script only when a shell runs it by its path (``kind`` ``shell`` or ``run``); sourced or
    fed on standard input, it is the shell's own name, whose folder is ``.``, as is that
    of an empty ``BASH_SOURCE`` (``fed``)."""

    def own(real: str) -> Callable[[re.Match[str]], str]:
        def spelled(found: re.Match[str]) -> str:
            zero = "BASH_SOURCE" not in found.group(0)
            if kind == "fed" or (zero and kind not in ("shell", "run")):
                return "."
            return real

        return spelled

    # each pattern holds "dirname" or "%/*}" (``${BASH_SOURCE%/*}``): else no pass over a
    # long script (H-5); a gate on "dirname" alone let those forms through (review rv-hooks67)
    if "dirname" in text:
        text = re.sub(_REAL_DIRNAME_RE, own(_OWN_REAL), text)
    if "dirname" in text or "%/*}" in text:
        text = re.sub(_DIRNAME_RE, own(_OWN), text)
    if "\0" not in text:  # no own folder read, none printed by a ``cd``
        return text
    return re.sub(_CD_FOLDER_PRINTED_RE, lambda found: found.group("folder"), text)


_QUOTED_OWN_RE = '"(\0[hr][^"\\s$`*?\\[\\\\]*)"'
"""A double-quoted part starting with the script's own folder read (:data:`_OWN`,
:data:`_OWN_REAL`) and holding nothing bash expands or splits there (``"\\0h/.."``)."""


def own_folder_spelled(text: str, file: str, kind: str) -> str:
    """``text``, a shell script's, with each spelling of its own folder (``"$(dirname "$0")"``,
    ``${BASH_SOURCE%/*}``, ``$(cd "$(dirname "$0")" && pwd)``, their real forms: see
    :func:`_own_folder_read`) replaced by that folder's absolute path (``file``: the script,
    absolute; ``kind``: how it runs), so a path built from it (``"$(dirname "$0")/../notes/x"``)
    is a literal word :func:`linked_words` and the memory names judge (P-3). ``text`` as given
    when it names no such folder; a folder bash would split or match (white space, a pattern
    or expansion character), or that :func:`linked_words` would split (``=``, ``;``, ``&``,
    ``|``, ``(``, ``)``, ``<``, ``>``), leaves the spelling unread, a word built at run time."""
    read = _own_folder_read(text, file, kind)
    if "\0" not in read:
        return read
    # ``"$(dirname "$0")"/../notes/x``: the folder quoted alone, the path glued after the
    # quote; quotes around text bash expands nothing in are no part of the word (review
    # rv-own67b: linked_words split the word at the quote, and the path went unjudged)
    read = re.sub(_QUOTED_OWN_RE, r"\1", read)
    folders = {_OWN: os.path.dirname(file), _OWN_REAL: os.path.dirname(os.path.realpath(file))}  # noqa: PTH120
    for mark, folder in folders.items():
        if not re.search(r"[\s*?\[$`\\'\"\0=;&|()<>]", folder):
            read = read.replace(mark, folder)
    return read


def _tilde(word: str) -> bool:
    """Whether ``word`` starts with the home's ``~``: ``~`` alone (``cd ~``) or ``~/…``."""
    return word == "~" or word[:2] == "~/"


class _NestedScan:
    """The state of :func:`nested_scripts`: the folder the shell is in (None once unknown),
    the variables known (each the values it may hold: one, a ``for`` loop's, or each one an
    assignment that may not run left: review59b finding 4), how many branches, loops and
    groups the scan is in, the scripts found and every folder the script may be in (with
    the stack ``pushd`` keeps, the folder before the last ``cd`` and the script's own)."""

    def __init__(self, base: str, environ: Mapping[str, str], *, sourced: bool = False) -> None:
        self.base: str | None = base
        self.environ = environ
        self.sourced = sourced  # a sourced file's scan: the files it sources are not followed
        self.git_sure = False  # git may be asked: nothing before may have changed its answer
        self.tops: dict[str, str | None] = {}  # each folder's top, as git says it
        self.known: dict[str, list[str] | None] = {"PWD": [base]}
        self.folders = [base]
        self.stack: list[str | None] = []
        self.previous: str | None = None  # ``cd -``'s: the caller's before the first ``cd``
        self.own: tuple[str, str] | None = None  # the script's folder, and its real one
        self.found: list[NestedScript] = []
        self.unanchored: list[NestedScript] = []  # relative, run in a folder unknown here
        self.lost_writes: list[str] = []  # relative places written in a folder unknown here
        self.mktemp = False  # the command's last word is ``$(mktemp …)``'s output
        self.temps: set[str] = set()  # variables holding a new temporary folder's name
        self.in_temp = False  # the unknown folder is a new temporary one (``cd "$(mktemp -d)"``)
        self.given: set[str] = set()  # variables holding a word given to the script
        self.gives = False  # the script reads a given word (:data:`_GIVEN_RE`) or loops on them
        self.cdable = False  # ``shopt -s cdable_vars``: a ``cd`` may enter a variable's folder
        self.opened: list[tuple[str | None, str | None, bool, bool]] = []  # at each subshell
        self.each = False  # the folder is one of a loop's known ones, each in ``folders``
        self.loop_opened = _NO_LOOP  # how many subshells were open at the last ``for``
        self.cases: list[tuple[int, int]] = []  # each open ``case``: the depth, subshells open
        self.globs = 0
        self.depth = 0  # the ``if``, loops, ``case`` and ``{`` groups open

    def command(self, said: list[str], *, top: bool, maybe: bool = False) -> None:
        """Read one simple command's words ``said`` (as split at white space); ``maybe``:
        it stands after ``&&`` or ``||`` (it may not run)."""
        words = [word.replace('"', "").replace("'", "") for word in said]
        if self.base != self.folders[0]:  # after a ``cd``: given words land elsewhere
            written = _written_words(words)
            lost = self.base is None and not self.in_temp and not self.each
            self.lost_writes.extend(w for w in written if lost and not self._placed(w))
            self.lost_writes.extend(w for w in written if self._given_in(w))
            if lost:  # ``python3 -c "open('../x', 'w')"``, ``sed -n 'w ../x'``: up from there
                self.lost_writes.extend(w for w in words if re.search(r"(?:^|\W)\.\.(?:/|$)", w))
            if self.in_temp and words[:1] == ["ln"]:
                self.in_temp = False  # a link made in the new folder may lead anywhere
        if words and words[0] in _CLOSING:
            self.depth = max(0, self.depth - 1)
        while words and (  # each pattern only where its literal is (H-5: per command)
            words[0] in _LEADING
            or ("=" in words[0] and re.match(_ASSIGNED_RE, words[0]))
            or (("<" in words[0] or ">" in words[0]) and re.match(_REDIRECTION_RE, words[0]))
        ):
            word = words.pop(0)
            self.depth += word in _OPENING
            self._assign(word, top=top, maybe=maybe or self.depth > 0)
        if not words:
            return
        name = words[0].rsplit("/", 1)[-1]
        if name in _DECLARING:
            for word in words[1:]:
                self._assign(word, top=top, maybe=maybe or self.depth > 0)
        elif name in _OPENING or name == "for":
            self.depth += 1  # ``case x in``, a loop: what it assigns may not run
            if name in ("for", "case"):
                self._loop(words)
        elif name in ("cd", "pushd", "popd"):
            self.enter(name, words[1:])
        elif name in (".", "source"):
            operands = [word for word in words[1:] if word != "--"]
            self._note("source", operands[0] if operands else None, top=top)
        elif name in STARTUP_SHELLS:
            self._note("shell", script_operand(words[1:]), top=top)
        elif "/" in words[0]:
            self._note("run", words[0], top=top)

    def _loop(self, words: list[str]) -> None:
        """Read a ``for`` loop's ``words``: its variable holds each of its values (known when
        literal), or each given word (``for a; do``); the subshells open are counted (a
        ``cd`` in one opened inside it is judged in each folder: :meth:`_each`)."""
        if words[0] == "case":  # its patterns' ``)`` close no subshell
            self.cases.append((self.depth, len(self.opened)))
            return
        self.loop_opened = len(self.opened)
        if len(words) > 2 and words[2] == "in":
            values = [self._values(word) for word in words[3:]]
            flat = [value for each in values if each is not None for value in each]
            self.known[words[1]] = None if None in values else flat
        elif len(words) > 1:
            self.given.add(words[1].rstrip(";"))  # ``for a; do``: over the given words
            self.gives = True

    def _given_in(self, word: str) -> bool:
        """Whether ``word`` holds a word given to the script (:data:`_GIVEN_RE`), or a variable
        holding one (``f="$1"``, a ``for a; do`` loop's, ``out=$OPTARG``: review guard62 B3)."""
        if not _GIVEN_HINT.isdisjoint(word) and re.search(_GIVEN_RE, word):
            return True
        return bool(self.given) and not self.given.isdisjoint(re.findall(_NAMES_READ_RE, word))

    def _placed(self, word: str) -> bool:
        """Whether a place written ``word`` lands where it does whatever the folder is: an
        absolute path, ``~``, a descriptor (``&2``), or one starting with a variable whose
        every known value is absolute (``$HOME/x``); ``$d/x`` with ``d=..``, ``$PWD/../x``
        after a lost ``cd`` are not (review guard62 B3)."""
        if word[0] in "/~&":
            return True
        if word[0] != "$":
            return False
        head = re.match(_PLAIN_VARIABLE_RE, word)
        values = self._values(head.group(0), matched=False) if head else None
        return values is not None and all(value.startswith("/") for value in values)

    def subshell(self, ending: str, piece: str) -> None:
        """Keep the folder at a subshell's ``(`` or ``$(`` (``ending``: what ended the last
        command, ``piece``: its text) and go back to it at its ``)``: a ``cd`` inside one
        leaves the script's folder as it was (``(cd "$d" && make); echo ok > out.txt``); a
        ``)`` with none open changes nothing, nor does a ``(`` or ``)`` inside quotes (an odd
        number of them before it: ``echo "done :)"``) or a ``case`` pattern's ``)`` (none
        opened since the ``case``): review guard62 B3."""
        if ending != "$(" and (piece.count('"') % 2 or piece.count("'") % 2):
            return
        if ending in ("(", "$("):
            self.opened.append((self.base, self.previous, self.in_temp, self.each))
            return
        while self.cases and self.cases[-1][0] > self.depth:
            self.cases.pop()  # its ``esac`` passed
        if self.cases and len(self.opened) <= self.cases[-1][1]:
            return
        if self.opened:
            self.base, self.previous, self.in_temp, self.each = self.opened.pop()
            self.known["PWD"] = None if self.base is None else [self.base]

    def _assign(self, word: str, *, top: bool, maybe: bool = False) -> None:
        """Keep an assignment's literal value; one of ``BASH_ENV``/``ENV`` is a script. One
        that may not run (``maybe``: in a branch, a loop or a group, after ``&&``/``||``)
        adds its value to those the variable held (unset: empty), so a script named with it
        is each it may be (``d=sub; if x; then d=.; fi; . $d/s.sh``); past
        :data:`_VALUES_CAP` values, or beside an unknown one, it is unknown."""
        assigned = re.match(_ASSIGNED_RE, word) if "=" in word else None
        if assigned is None:
            return
        name, value = assigned.group("name"), assigned.group("value")
        (self.temps.add if self.mktemp and value == "$" else self.temps.discard)(name)
        if self.gives:  # ``f="$1"``, ``out=$OPTARG``: a given word kept
            (self.given.add if self._given_in(value) else self.given.discard)(name)
        values = self._values(value, matched=False)  # bash matches no pattern there
        if maybe and values is not None:
            before = self.known[name] if name in self.known else [self.environ.get(name, "")]
            values = None if before is None else list(dict.fromkeys([*before, *values]))
            values = None if values is None or len(values) > _VALUES_CAP else values
        self.known[name] = values
        if name in ("BASH_ENV", "ENV") and value:
            self._note("source", value, top=top)

    def enter(self, name: str, operands: list[str]) -> None:
        """Follow a ``cd``, ``pushd`` or ``popd`` (``name``) given ``operands``: into a
        literal folder (the home for a bare ``cd``, the one before for ``cd -``, the stack's
        top for ``popd`` and a bare ``pushd``, which swaps it); else into one unknown (a
        folder named at run time, ``pushd +N``). One bash refuses (``popd`` on an empty
        stack) or that moves no folder (``pushd -n``, ``popd -n``) leaves it."""
        named = [word for word in operands if word == "-" or word[:1] not in ("-", "+")]
        options = [word for word in operands if word not in named]
        here = self.base
        target: str | None
        each = False  # a loop's known folders, each judged (:meth:`_each`)
        if name != "cd" and any(word[:1] == "+" or word[1:].isdigit() for word in options):
            target = None  # a rotation of the stack: which folder is the guard's guess
        elif name == "popd" or (name == "pushd" and not named):
            if not self.stack or "-n" in options:
                return
            target = self.stack.pop()
            if name == "pushd":
                self.stack.append(here)
        elif "-n" in options:
            return  # ``pushd -n``: kept on the stack, not entered
        elif named[:1] == ["-"]:
            target = self.previous
        else:
            values = self._values(named[0]) if named else [self.environ.get("HOME", "")]
            joined = None
            if here is not None and values is not None and len(values) == 1 and values[0]:
                joined = self._cd_path(here, values[0])
            if self.cdable and values and not values[0].startswith(("/", "./", "../")):
                joined = None  # ``shopt -s cdable_vars``: maybe a variable's folder
            target = joined
            each = here is not None and values is not None and self._each(name, here, values)
            if name == "pushd":
                self.stack.append(here)
        self.each = target is None and each
        spelt = re.sub(r"^\$\{?(\w+)\}?$", r"\1", named[0]) if named else ""
        self.in_temp = target is None and (self.mktemp or spelt in self.temps)
        self.previous, self.base = here, target
        self.known["PWD"] = None if target is None else [target]
        if target is not None and target not in self.folders:
            self.folders.append(target)

    def _each(self, name: str, here: str, values: list[str]) -> bool:
        """Whether a ``cd`` (``name``) from ``here`` into a loop variable's known ``values``
        (``for p in packages/*; do (cd "$p" && make); done``) may be judged in each folder:
        in a subshell opened inside the loop (each pass starts from the same folder), at most
        :data:`_VALUES_CAP` of them, no ``cdable_vars``; each is then added to ``folders``
        (review guard62 O1). A ``cd`` in the loop itself (its passes add up) is unknown."""
        inside = len(self.opened) > self.loop_opened and 1 < len(values) <= _VALUES_CAP
        if name != "cd" or not inside or self.cdable:
            return False
        folders = [self._cd_path(here, value) for value in values]
        if None in folders:
            return False
        self.folders.extend(f for f in folders if f is not None and f not in self.folders)
        return True

    def _cd_path(self, here: str, name: str) -> str | None:
        """The folder ``cd name`` enters from ``here``: the first of ``CDPATH``'s folders
        holding ``name`` (a name not starting with ``/``, ``.`` or ``..``), as bash searches
        them, else ``here/name``; None when ``CDPATH`` is unknown (P-3)."""
        searched = self.known.get("CDPATH", [self.environ.get("CDPATH", "")])
        if name.startswith(("/", "./", "../")) or name in (".", "..") or searched == [""]:
            return os.path.normpath(os.path.join(here, name))  # noqa: PTH118
        if searched is None or len(searched) != 1:
            return None
        for entry in searched[0].split(":"):
            folder = os.path.normpath(os.path.join(here, entry or ".", name))  # noqa: PTH118
            if os.path.isdir(folder):  # noqa: PTH112
                return folder
        return os.path.normpath(os.path.join(here, name))  # noqa: PTH118

    def _note(self, kind: str, word: str | None, *, top: bool) -> None:
        """Keep the script ``word`` names (each path a loop variable in it gives)."""
        if word is None:
            return
        values = self._values(word)
        base = self.base or ""
        for path in values if values is not None else [None]:
            relative = path is not None and not PurePath(path).is_absolute()
            unknown = path is None or (relative and self.base is None)
            self.found.append((kind, base, word, None if unknown else path, top))
            if path is not None and relative and self.base is None:  # ``pushd +1; bash k.sh``
                self.unanchored.append((kind, base, word, path, top))
            if kind == "source" and path is not None and self.base is not None:
                self._sourced_folders(script_file(kind, self.base, path, self.environ))

    def _sourced_folders(self, file: str) -> None:
        """Add the folders a sourced ``file``'s ``cd``s may leave this shell in
        (:func:`script_folders`, one sourcing deep): ``. ./b.sh`` where ``b.sh`` is ``cd
        sub`` leaves the script in ``sub``; one it cannot follow makes the folder unknown."""
        if self.sourced or self.base is None:
            return
        language, text = read_script(file, run=False)
        if language != "shell" or not re.search(FOLDER_CHANGER_RE, text):
            return
        folders = script_folders(text, self.base, self.environ, (file, "source"), sourced=True)
        if folders is None:
            self.previous, self.base = self.base, None
            return
        self.folders.extend(folder for folder in folders if folder not in self.folders)

    def _values(self, word: str, *, matched: bool = True) -> list[str] | None:
        """The values ``word`` takes: its variables read (each known, a loop's values one by
        one, or the environment's), ``~`` read, a pattern matched from the folder; None when
        it holds another expansion (``$(…)``, ``${x:-y}``, ``$1``) or an unknown variable
        (``~`` alone read too: ``cd ~ && . .defs``, review57a F)."""
        if self.own is not None:
            word = word.replace(_OWN, self.own[0]).replace(_OWN_REAL, self.own[1])
        if _TOP in word:
            top = self._top()
            if top is None:
                return None
            word = word.replace(_TOP, top)
        words = [word]
        for found in re.finditer(_PLAIN_VARIABLE_RE, word) if "$" in word else ():
            variable = found.group("braced") or found.group("plain")
            values = self.known.get(variable)
            if values is None and variable not in self.known and variable in self.environ:
                values = [self.environ[variable]]
            if values is None:
                return None
            words = [each.replace(found.group(0), value) for each in words for value in values]
        if any("$" in each or "`" in each for each in words):
            return None
        home = shell_home(self.environ)  # ``~``: the password database's home without HOME
        words = [home + each[1:] if _tilde(each) else each for each in words]
        if not matched:
            return words
        paths = [value for each in words for value in self._matched(each)]
        return None if None in paths else [value for value in paths if value is not None]

    def _top(self) -> str | None:
        """The folder ``git rev-parse --show-toplevel`` prints where the script is now (asked
        of git, :func:`~harness_memory.hooks.git_toplevel.toplevel`, with the script's
        environment), when nothing the script ran before may have changed it
        (:func:`_git_answer_kept`) and it is in no branch, loop or group (run again after a
        change); None when it may have, when the folder is unknown, past
        :data:`_TOPS_CAP` folders, or when bash could split or match it (white space, a
        pattern character) or it holds an expansion."""
        if not self.git_sure or self.base is None or self.depth:
            return None
        if self.base not in self.tops:
            asked = len(self.tops) < _TOPS_CAP
            self.tops[self.base] = toplevel(self.base, self.environ) if asked else None
        top = self.tops[self.base]
        return None if top is None or re.search(r"[\s*?\[$`\0]", top) else top

    def _matched(self, word: str) -> list[str | None]:
        """``word``, or the files its pattern matches from the folder (sorted, as bash);
        None past :data:`_GLOBS_CAP` patterns."""
        if not any(char in word for char in "*?[") or self.base is None:
            return [word]
        self.globs += 1
        if self.globs > _GLOBS_CAP:
            return [None]
        import glob  # only for a pattern: with fnmatch, patterns compiled at import (H-5)

        anchored = os.path.join(self.base, word)  # noqa: PTH118
        matched: list[str | None] = [os.path.normpath(f) for f in sorted(glob.glob(anchored))]  # noqa: PTH207
        return matched or [word]
