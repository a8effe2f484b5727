"""What a ``find``'s writing actions may act on below its start folders, for the guard (P-3).

``find . -type l -exec cp /etc/hostname {} \\;`` names no file: ``{}`` is each entry find
meets, a symlink into another Workspace's memory scope among them, and ``cp`` writes through
it. :func:`bounds` reads what a ``find``'s expression leaves its actions: only entries whose
names match its ``-name``/``-path`` tests (joined by AND, before the first writing action;
``-iname``, ``-ipath`` in any letter case), or every entry (any other test: ``-type l``,
``-regex``, ``-lname``, ``-samefile``, ``-newer``; an ``-o``, ``!``, parenthesis,
``-L``/``-follow``), and whether a symlink itself may be one of them (a ``-type f`` or
``-type d`` before the actions keeps links out unless ``-L``). :func:`links_below` walks a
start folder as find does, counted against a cap, and gives the symlinks in it (and,
following links, the folders they lead to); :func:`matches` tells whether a link found
passes the name tests. The guard judges each link so reached as a place written
(:mod:`~harness_memory.hooks.guarding`). Pure reading, linear in the words and the folder
entries read (H-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import NamedTuple

from harness_memory.hooks.glob_match import fnmatch_case
from harness_memory.hooks.option_words import FIND_ENDS, FIND_RUNNING

__all__ = [
    "PURE_READERS",
    "REACH_CAP",
    "Bounds",
    "Reach",
    "Walked",
    "bounds",
    "find_actions",
    "follows",
    "leading_options",
    "links_below",
    "matches",
    "only_reads",
]

REACH_CAP = 5_000
"""The most folder entries :func:`links_below` reads below a start folder of a ``find``
whose actions write through what they find, bounded by name tests or not: well inside a
hook's 100 ms (H-5; 36,000 took 0.14–0.56 s at load 14, 59,000 over a second). Past it the
walk stops and what it met is judged (the start folder's own entries come first): refusing
there refused every writing ``find`` in a repository with a ``node_modules`` (review fix66f),
so a link deeper in a bigger tree is an open limit (docs/security.md)."""
NAME_TESTS = {
    "-name": (False, True),
    "-iname": (False, False),
    "-path": (True, True),
    "-wholename": (True, True),
    "-ipath": (True, False),
    "-iwholename": (True, False),
}
"""``find``'s tests matching a pattern against an entry's name: whether against its whole
path as find prints it (``-path``), whether letter case counts."""
_WIDENING = frozenset({"-o", "-or", "!", "-not", "(", ")", "\\(", "\\)", "\\!", ",", "-follow"})
"""``find`` words after which its tests no longer bound what its actions reach (an
alternative, a negation, a group, a list) or after which it follows links."""


PURE_READERS = frozenset(
    {
        *("grep", "egrep", "fgrep", "rg", "cat", "head", "tail", "wc", "ls", "stat", "file"),
        *("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum"),
        *("cksum", "diff", "cmp", "test", "[", "echo", "printf", "true", "false", "readlink"),
        *("realpath", "basename", "dirname", "du"),
    }
)
"""Programs that only read the names a ``find`` action gives them (:func:`only_reads`)."""


def only_reads(command: Sequence[str]) -> bool:
    """Whether a ``find`` action's ``command`` (its words) only reads what it is given:
    a program of :data:`PURE_READERS` (by its name, not one built at run time), or a
    checker of :data:`_CHECKERS`. Any other program given ``{}`` is taken to write through it (P-3:
    ``mkdir {}/d``, ``zip -q {}/z.zip``, ``python3 w.py {}``, ``xargs cp x {}/a.md``)."""
    if not command or "$" in command[0] or "`" in command[0]:
        return False
    program = os.path.basename(command[0])  # noqa: PTH119
    checks = _CHECKERS.get(program.rstrip("0123456789.").removesuffix("3"))
    return program in PURE_READERS or (checks is not None and checks in command[1:3])


_CHECKERS = {"node": "--check", "bash": "-n", "sh": "-n", "php": "-l", "python": "py_compile"}
"""Programs that only check the file they are given when given this word first
(``node --check f``, ``bash -n f``, ``php -l f``, ``python3 -m py_compile f``: its
``__pycache__`` lands beside ``f``, never below it)."""


class Bounds(NamedTuple):
    """What a ``find``'s writing actions may act on (:func:`bounds`): ``names`` the name tests
    an entry must pass (each its test and pattern; None: any entry), ``links`` whether a
    symlink itself may be one, ``follow`` whether find follows links (``-L``, ``-follow``),
    ``why`` the reason an entry may be acted on, as a refusal says it."""

    names: tuple[tuple[str, str], ...] | None
    links: bool
    follow: bool
    why: str
    files: bool = False
    """Whether an action writes through a regular file it finds (``-exec cp x {}``: a file
    with other names, a hard link, writes them all; not ``-delete``, which removes a name)."""


class Reach(NamedTuple):
    """One start folder of a ``find`` whose actions write through what they find: ``start``
    absolute, ``shown`` as find prints it (the word expanded), and its :class:`Bounds`;
    ``start`` empty for the folders ``-files0-from FILE`` reads at run time (``shown``:
    ``FILE``)."""

    start: str
    shown: str
    bounds: Bounds


def find_actions(words: Sequence[str]) -> list[tuple[int, str, list[str]]]:
    """Each action of a ``find`` among its ``words`` (as the shell gives them) that runs a
    command (:data:`~harness_memory.hooks.option_words.FIND_RUNNING`): its index, its name
    (``-exec``, ``-execdir``, ``-ok``, ``-okdir``) and its command's words up to its ``;`` or
    a ``+`` after ``{}`` (to the end when none ends it)."""
    actions: list[tuple[int, str, list[str]]] = []
    running: tuple[int, str, list[str]] | None = None
    for at, word in enumerate(words):
        if running is None:
            running = (at, word, []) if word in FIND_RUNNING else None
        elif word in FIND_ENDS or (word == "+" and running[2][-1:] == ["{}"]):
            actions.append(running)
            running = None
        else:
            running[2].append(word)
    if running is not None and running[2]:
        actions.append(running)
    return actions


_NO_VALUE = frozenset(
    [
        "-delete",
        "-print",
        "-print0",
        "-ls",
        "-prune",
        "-quit",
        "-true",
        "-false",
        "-empty",
        "-executable",
        "-readable",
        "-writable",
        "-nouser",
        "-nogroup",
        "-depth",
        "-d",
        "-mount",
        "-xdev",
        "-noleaf",
        "-ignore_readdir_race",
        "-noignore_readdir_race",
        "-daystart",
        "-follow",
        "-warn",
        "-nowarn",
        "-nowarn",
        "-help",
        "--help",
        "-version",
        "--version",
        "-and",
        "-a",
        "-or",
        "-o",
        "-not",
        "!",
        ",",
        "(",
        ")",
        "\\(",
        "\\)",
        "\\!",
        "-posix",
    ]
)
"""GNU find's primaries, options and operators taking no word after them."""
_ONE_VALUE = frozenset(
    [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-lname",
        "-ilname",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-newer",
        "-anewer",
        "-cnewer",
        "-samefile",
        "-inum",
        "-links",
        "-size",
        "-perm",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-mtime",
        "-atime",
        "-ctime",
        "-mmin",
        "-amin",
        "-cmin",
        "-used",
        "-maxdepth",
        "-mindepth",
        "-fstype",
        "-context",
        "-printf",
        "-fprint",
        "-fprint0",
        "-fls",
        "-regextype",
        "-files0-from",
    ]
)
"""GNU find's primaries and options taking one word after them (``-printf FORMAT``)."""
_OPERATORS = frozenset({"-o", "-or", "!", "-not", "\\!", ",", "(", ")", "\\(", "\\)"})


def parsed(words: Sequence[str]) -> list[tuple[int, str]] | None:
    """Each primary and operator of a ``find``'s expression among its ``words`` (as the shell
    gives them, leading options and start folders first), with its index, each read with its
    arity as GNU find reads it (``-printf -name``: ``-name`` is the format; ``-fprintf F
    FMT``; ``-exec …`` up to its ``;`` or a ``+`` after ``{}``), so no value is read as a
    test; None when a word is a primary the guard does not know (anything may follow)."""
    at = len(leading_options(words))
    at += words[at : at + 1] == ["--"]
    while at < len(words) and not words[at].startswith("-") and words[at] not in _OPERATORS:
        at += 1  # the start folders
    read: list[tuple[int, str]] = []
    while at < len(words):
        word = words[at]
        read.append((at, word))
        if word in FIND_RUNNING:
            at += 1
            while at < len(words) and words[at] not in FIND_ENDS:
                if words[at] == "+" and words[at - 1] == "{}":
                    break
                at += 1
            at += 1
        elif word in _NO_VALUE:
            at += 1
        elif word in _ONE_VALUE or re.fullmatch(r"-newer[amBct][amBct]", word):
            at += 2
        elif word == "-fprintf":
            at += 3
        else:
            return None
    return read


def bounds(
    words: Sequence[str], writing: Sequence[int], *, suffixed: bool, files: bool = False
) -> Bounds:
    """What a ``find`` whose ``words`` (as the shell gives them, its leading options among
    them) writes through what it finds at the indexes ``writing`` (an action running a
    writer; ``-delete`` under ``-L``) may act on: the name tests AND-ed before each such
    action on its branch (after the last ``-o`` or ``,`` before it, none negated, none in a
    group; :func:`parsed` reads each primary with its arity), when every writing action
    has the same ones, none is built at run time (``$``, a backquote), and no action
    appends to ``{}`` (``suffixed``: ``{}/a.md`` reaches below every folder it finds); else
    any entry. A ``-type`` so AND-ed naming no ``l`` keeps symlinks out (not under
    ``-L``/``-follow``, where ``-type`` is the type of what a link leads to)."""
    follow = follows(words)
    read = parsed(words)
    branches = [_branch(words, read, at) for at in writing] if read is not None else [None]
    names_all = {branch[0] for branch in branches if branch is not None}
    grouped = any(branch is None for branch in branches) or len(names_all) != 1
    names = next(iter(names_all)) if not grouped else ()
    built = any("$" in pattern or "`" in pattern for _, pattern in names)
    unlinked = all(branch is not None and branch[1] for branch in branches)
    why = _unbounded_why(follow=follow, widened=grouped, built=built, suffixed=suffixed)
    if why is None and not names:
        why = "its tests are no -name or -path the guard can match"
    links = follow or suffixed or not unlinked  # ``-type d -exec cp x {}/notes/a.md``
    if why is not None:
        return Bounds(None, links, follow, why, files)
    return Bounds(names, links, follow, "its -name and -path tests match it", files)


def _branch(
    words: Sequence[str], read: list[tuple[int, str]], action: int
) -> tuple[tuple[tuple[str, str], ...], bool] | None:
    """The name tests (each its test and pattern) every entry an action at index ``action``
    acts on passes, and whether a ``-type`` naming no ``l`` keeps links out: those AND-ed
    before it after the last ``-o`` or ``,`` (none negated, none in a group); None when the
    action is inside a group (``\\( … \\)``)."""
    names: list[tuple[str, str]] = []
    unlinked, depth, negated = False, 0, False
    for at, word in read:
        if at >= action:
            return (tuple(names), unlinked) if depth == 0 else None
        if word in ("(", "\\("):
            depth += 1
        elif word in (")", "\\)"):
            depth -= 1
        elif depth == 0 and word in ("-o", "-or", ","):
            names, unlinked = [], False
        elif depth == 0 and not negated and word in NAME_TESTS:
            names.append((word, words[at + 1] if at + 1 < len(words) else ""))
        elif depth == 0 and not negated and word == "-type":
            kinds = words[at + 1] if at + 1 < len(words) else "l"
            unlinked = unlinked or "l" not in kinds.split(",")
        negated = word in ("!", "-not", "\\!")
    return None


def follows(words: Sequence[str]) -> bool:
    """Whether a ``find`` of ``words`` (as the shell gives them) follows symlinks (``-L``,
    ``-follow``): only then does its ``-delete`` remove what a link leads to (without, it
    removes the link itself)."""
    return "-L" in leading_options(words) or "-follow" in words


def _unbounded_why(*, follow: bool, widened: bool, built: bool, suffixed: bool) -> str | None:
    """Why a ``find``'s name tests do not bound what its actions act on (:func:`bounds`), or
    None when they do."""
    if follow:
        return "it follows symlinks: -L, -follow"
    if widened:
        return "its expression holds -o, !, -not, a parenthesis or a comma"
    if built:
        return "a -name or -path pattern is built at run time"
    if suffixed:
        return (
            "an action writes below what it finds: {}/…, or a program the guard does not "
            "read is given it"
        )
    return None


def leading_options(words: Sequence[str]) -> Sequence[str]:
    """``find``'s options before its start folders (``-H``, ``-L``, ``-P``, ``-D …``,
    ``-O…``)."""
    at = 0
    while at < len(words) and words[at].startswith(("-H", "-L", "-P", "-D", "-O")):
        at += 2 if words[at] == "-D" else 1
    return words[:at]


def matches(path: str, start: str, shown: str, names: tuple[tuple[str, str], ...]) -> bool:
    """Whether the entry ``path`` (absolute, below the absolute ``start``, which find prints
    as ``shown``) passes every name test of ``names`` (:data:`NAME_TESTS`): its name, or its
    path as find prints it, matched as GNU find matches (``*`` matching a leading dot and a
    ``/``; a bracket expression the guard does not read matches: fail closed)."""
    relative = os.path.relpath(path, start)
    printed = shown if relative == "." else f"{shown.rstrip('/')}/{relative}"
    name = os.path.basename(path)  # noqa: PTH119
    for test, pattern in names:
        whole, exact = NAME_TESTS[test]
        text = printed if whole else name
        if not (_find_match(text, pattern) if exact else _nocase(text, pattern)):
            return False
    return True


def _nocase(text: str, pattern: str) -> bool:
    """``-iname``'s match: ``pattern`` against ``text`` in any letter case, each character
    lowered alone as find's fnmatch lowers it (``towlower``: ``İ`` is ``i``, where
    :meth:`str.lower` makes it two and :meth:`str.casefold` ``i̇``)."""
    return _find_match(_lowered(text), _lowered(pattern))


def _lowered(text: str) -> str:
    """``text`` with each character lowered alone (its simple lowercase: one character)."""
    if text.isascii():
        return text.lower()
    return "".join(char.lower()[0] if char.lower() else char for char in text)


def _find_match(text: str, pattern: str) -> bool:
    """Whether ``text`` matches ``pattern`` as GNU find's fnmatch (no ``FNM_NOESCAPE``)
    matches it: a backslash makes the next character itself (``'no\\tes'`` matches
    ``notes``, ``\\*`` a ``*``), which :func:`~harness_memory.hooks.glob_match.fnmatch_case`
    reads as a backslash; one with a bracket expression is read by bash's rules there (a
    backslash both ways)."""
    if "\\" not in pattern or "[" in pattern:
        return fnmatch_case(text, pattern)
    spelled: list[str] = []
    escaped = False
    for char in pattern:
        if escaped:
            spelled.append(f"[{char}]" if char in "*?" else char)
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            spelled.append(char)
    if escaped:  # a last lone backslash: itself
        spelled.append("\\")
    return fnmatch_case(text, "".join(spelled))


class Walked(NamedTuple):
    """What :func:`links_below` met below a start folder: ``links`` the symlinks,
    ``targets`` the real folders followed links lead to, ``named`` the regular files with
    more than one name (hard links; looked for only when asked)."""

    links: list[str]
    targets: list[str]
    named: list[str]


def links_below(start: str, *, follow: bool, cap: int, files: bool = False) -> Walked:
    """The symlinks below the absolute folder ``start`` as find walks it (into no link; into
    each link to a folder under ``follow``, each folder once), under ``follow`` the real
    folders those links lead to, and with ``files`` the regular files with more than one
    name (one ``lstat`` each), among the first ``cap`` folder entries read
    (:data:`REACH_CAP`; ``start``'s own entries first, so a link in the start folder is met
    however big the tree below). A folder that cannot be read is skipped, as find skips it."""
    seen = 0
    capped = False
    walked = Walked([], [], [])
    try:
        visited = {os.path.realpath(start)}
        pending = [start] if os.path.isdir(start) else []  # noqa: PTH112
    except ValueError:  # a NUL: no folder find could walk
        return walked
    while pending and not capped:
        folder = pending.pop()
        listed: list[os.DirEntry[str]] = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:  # counted as read: a huge folder stops at the cap
                    seen += 1
                    if capped := seen > cap:
                        break
                    listed.append(entry)
        except (OSError, ValueError):
            continue
        for entry in listed:
            if entry.is_symlink():
                walked.links.append(entry.path)
                if follow and (target := _followed(entry.path, visited)) is not None:
                    walked.targets.append(target)
                    pending.append(entry.path)
            elif _is_folder(entry):
                pending.append(entry.path)
            elif files and _has_other_names(entry):
                walked.named.append(entry.path)
    return walked


def _has_other_names(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` (no symlink) is a regular file with more than one name."""
    try:
        return (
            entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_nlink > 1
        )
    except OSError:
        return False


def _followed(link: str, visited: set[str]) -> str | None:
    """The real folder ``link`` leads to when find following links goes into it (a folder
    not walked yet: find leaves a loop), else None."""
    real = os.path.realpath(link)
    if real in visited or not os.path.isdir(real):  # noqa: PTH112
        return None
    visited.add(real)
    return real


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` (no symlink) is a folder find walks into."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
