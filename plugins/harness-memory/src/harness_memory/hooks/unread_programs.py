"""Programs whose writes the guard cannot read, and the memory a command's text names (P-3).

The guard reads a shell command's words the way bash will; what a program started by it
writes is decided by the program: ``python3 -c '…open(p + "/a.md", "w")'``, ``perl -e``,
``node -e``, ``awk '{print > f}'``, ``sed '…e'``, ``git apply``, ``xargs cp``, a script. Its
places are known only when it runs. Refusing every such program would refuse everyday work
(``pytest``, ``make``, ``npm test``), so the guard refuses one only where the command's text
names memory it may not write: a command that runs a program outside :data:`READ_PROGRAMS`
and whose text (here-document bodies and quoted code included) names another Workspace's
scope, the memory root other than as the user scope or this Session's own scope, the Session
records or the data dir holding the memory root (:func:`memory_named`) is refused, naming
both. A program building such a path from nothing the text shows (``os.listdir``, a file it
reads) stays fenced only by the harness's sandbox (``docs/security.md``).

Everything here reads the text once, in time linear in its length (H-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePath

from memory_core.keys import SCOPE_KEY_RULE, USER_SCOPE
from memory_core.layout import MARKER_FILE, app_data_dir_of

from harness_memory.hooks.here_data import SHELLS

__all__ = ["KEYS_CAP", "READ_PROGRAMS", "is_read", "memory_named"]

READ_PROGRAMS = frozenset(
    # the shell's own words and builtins: the guard reads what they do
    {
        "for",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "while",
        "until",
        "do",
        "done",
        "case",
        "esac",
        "in",
    }
    | {"select", "function", "[[", "]]", "((", "))", "{", "}", "!", ":", "true", "false"}
    | {"cd", "pushd", "popd", "dirs", "echo", "printf", "test", "[", "export", "local"}
    | {"declare", "typeset", "readonly", "unset", "shift", "set", "read", "mapfile"}
    | {"readarray", "let", "exit", "return", "break", "continue", "wait", "jobs", "type"}
    | {"hash", "umask", "ulimit", "shopt", "getopts", "kill", "history", "pwd", "times"}
    # programs that write nothing but their output
    | {"cat", "ls", "grep", "egrep", "fgrep", "rg", "ag", "head", "tail", "wc", "stat", "file"}
    | {"du", "df", "diff", "cmp", "comm", "less", "more", "realpath", "readlink", "basename"}
    | {"dirname", "tree", "uniq", "cut", "tr", "jq", "nl", "od", "xxd", "hexdump", "md5sum"}
    | {"sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "base64", "column", "fold"}
    | {"rev", "tac", "paste", "join", "strings", "which", "whereis", "date", "id", "whoami"}
    | {"printenv", "seq", "sleep", "expr", "uname", "hostname", "ps", "lsof", "tput", "clear"}
    | {"nproc"}
    # programs whose every written place the guard reads from their words
    | {"tee", "touch", "truncate", "rm", "rmdir", "unlink", "shred", "cp", "mv", "ln"}
    | {"install", "rsync", "dd", "mkdir", "chmod", "chown", "chgrp", "sort", "find", "tar"}
    | {"unzip", "curl", "wget", "mktemp"}
)
"""Programs (as a bare name, found on ``PATH``) whose writes the guard reads whole: the shell's
own words, programs that write only their output, and those whose every written place one of
their words names (judged as paths; a run-time one refused where it is written). Anything
else — an interpreter (``python3``, ``perl``, ``node``, ``ruby``, ``awk``, ``sed``, whose
script may write or run anything), ``git``, ``patch``, ``make``, ``xargs``, ``source``,
``eval``, a program named by its path (``./run.sh``, perhaps the agent's own) or built at run
time (``$PY``) — may write places no word shows."""
_SHELL_INLINE_RE = re.compile(r"^-[A-Za-z]*c[A-Za-z]*$")
KEYS_CAP = 64
"""The most distinct Workspace-key-shaped words of one command looked up in the memory root;
past it the command is taken as naming another scope (each is one ``lstat``)."""
_TOKEN_SPLIT_RE = re.compile(r"[^A-Za-z0-9._-]+")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def is_read(program: str, operands: Iterable[str] = ()) -> bool:
    """Whether the guard reads every place ``program`` (the command's name as the shell gives
    it) writes: a bare name in :data:`READ_PROGRAMS`, or a shell given its commands as an
    operand (``bash -c '…'``, ``sh -ec '…'``: the guard reads that text as a command)."""
    if program in READ_PROGRAMS:
        return True
    return program in SHELLS and any(_SHELL_INLINE_RE.match(word) for word in operands)


def memory_named(text: str, root: str, key: str | None, records: Iterable[str]) -> str | None:
    """The first memory ``text`` names that a program it runs may not write, as spelled in
    it, or None: a word shaped like a Workspace key (K-7) other than ``key`` that is a folder
    of the memory root ``root``, or any such word in a text naming the memory root; the memory
    root (by the last two folders of its spelled and real path, so ``~/…``, ``$HOME/…`` and a
    path without its first ``/`` count) or the data dir holding it, other than as the user
    scope or ``key``'s scope (``…/memory/<key>/…``) in a text without ``..``; the ``.workspace``
    marker in a text naming the memory root; the Session records folders ``records`` (by
    their last two folders). Linear in the text's length; at most :data:`KEYS_CAP` lookups."""
    anchors = _anchors(root)
    own = {USER_SCOPE} | ({key} if key else set())
    climbs = ".." in text
    root_named = False
    for needle, below in anchors:
        at = text.find(needle)
        while at != -1:
            root_named = True
            after = at + len(needle)
            if climbs or not _into_own(text, after, below, own):
                return text[at : _word_end(text, after)]
            at = text.find(needle, after)
    for folder in records:
        needle = _last_two(folder)
        if needle and needle in text:
            return needle
    return _other_key(text, root, own, root_named=root_named)


def _anchors(root: str) -> list[tuple[str, str]]:
    """The needles naming the memory root ``root`` (its last two folders, spelled and
    resolved) and the data dir holding it, each with the folders from it down to the root."""
    spelled = os.path.normpath(Path(root).absolute())
    anchors: dict[str, str] = {}
    for path in {spelled, os.path.realpath(spelled)}:
        if needle := _last_two(path):
            anchors[needle] = ""
        data_dir = app_data_dir_of(Path(path))
        if data_dir is not None and (needle := _last_two(os.fspath(data_dir))):
            anchors[needle] = "/" + PurePath(path).relative_to(data_dir).as_posix()
    return list(anchors.items())


def _last_two(path: str) -> str:
    """``path``'s last two parts joined by ``/`` (its last one when it has only one)."""
    parts = PurePath(path).parts[1:]
    return "/".join(parts[-2:])


def _into_own(text: str, after: int, below: str, own: set[str]) -> bool:
    """Whether ``text`` at ``after`` (just past a needle) goes on ``below`` into one of the
    ``own`` scopes: ``<below>/<scope>`` then a character no folder name ends with."""
    if not text.startswith(below + "/", after):
        return False
    start = after + len(below) + 1
    end = start
    while end < len(text) and text[end] in _NAME_CHARS:
        end += 1
    return text[start:end] in own


def _word_end(text: str, at: int) -> int:
    """Where the path word going on at ``at`` ends (white space, a quote, shell punctuation)."""
    end = at
    while end < len(text) and text[end] not in " \t\n'\"`;&|()<>$,":
        end += 1
    return end


def _other_key(text: str, root: str, own: set[str], *, root_named: bool) -> str | None:
    """The first word of ``text`` shaped like a Workspace key not in ``own`` that is a folder
    of the memory root, or, when ``root_named``, any such word or the marker."""
    looked_up: set[str] = set()
    for token in _TOKEN_SPLIT_RE.split(text):
        if root_named and token.casefold() == MARKER_FILE:
            return token
        if len(token) > 57 or token in own or not SCOPE_KEY_RULE.accepts(token):
            continue
        if root_named or len(looked_up) >= KEYS_CAP:
            return token
        if token not in looked_up:
            looked_up.add(token)
            if os.path.lexists(os.path.join(root, token)):  # noqa: PTH118
                return token
    return None
