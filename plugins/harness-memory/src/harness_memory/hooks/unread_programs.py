"""Programs whose writes the guard cannot read, and the memory a command's text names (P-3).

The guard reads a shell command's words the way bash will; what a program started by it
writes is decided by the program: ``python3 -c '…open(p + "/a.md", "w")'``, ``perl -e``,
``node -e``, ``awk '{print > f}'``, ``sed '…e'``, ``git apply``, ``xargs cp``, a script. Its
places are known only when it runs. Refusing every such program would refuse everyday work
(``pytest``, ``make``, ``npm test``), so the guard refuses one only where the command's text
names memory it may not write: a command that runs a program outside :data:`READ_PROGRAMS`
(or makes one in it run another: :data:`PROGRAM_OPTIONS`, :data:`RUNNING_VARIABLES`)
and whose text (here-document bodies and quoted code included) names another Workspace's
scope, the memory root other than as the user scope or this Session's own scope, or the
Session records (:func:`memory_named`) is refused, naming both. A program building such a
path from nothing the text shows (``os.listdir``, a file it reads) stays fenced only by the
harness's sandbox (``docs/security.md``).

Everything here reads the text once, in time linear in its length (H-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path, PurePath

from memory_core.keys import SCOPE_KEY_RULE, USER_SCOPE
from memory_core.layout import MARKER_FILE

from harness_memory.hooks.here_data import SHELLS

__all__ = [
    "KEYS_CAP",
    "ONLY_READERS",
    "PROGRAM_OPTIONS",
    "READ_PROGRAMS",
    "RUNNING_VARIABLES",
    "is_read",
    "memory_named",
    "writes_operands",
]

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
    # programs that write nothing but their output, or a file one of their words names
    # (``uniq IN OUT``, ``xxd IN OUT``, ``tree -o FILE``: judged as every word is)
    | {"cat", "ls", "grep", "egrep", "fgrep", "rg", "ag", "head", "tail", "wc", "stat", "file"}
    | {"du", "df", "diff", "cmp", "comm", "less", "more", "realpath", "readlink", "basename"}
    | {"dirname", "tree", "uniq", "cut", "tr", "jq", "nl", "od", "xxd", "hexdump", "md5sum"}
    | {"sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "base64", "column", "fold"}
    | {"rev", "tac", "paste", "join", "strings", "which", "whereis", "date", "id", "whoami"}
    | {"printenv", "seq", "sleep", "expr", "uname", "hostname", "ps", "lsof", "tput", "clear"}
    | {"nproc", "shellcheck", "zcat", "gzcat", "bzcat", "xzcat", "lzcat"}
    # programs whose every written place the guard reads from their words
    | {"tee", "touch", "truncate", "rm", "rmdir", "unlink", "shred", "cp", "mv", "ln"}
    | {"install", "rsync", "dd", "mkdir", "chmod", "chown", "chgrp", "sort", "find", "tar"}
    | {"unzip", "curl", "wget", "wget2", "mktemp"}
)
"""Programs (as a bare name, found on ``PATH``) whose writes the guard reads whole: the shell's
own words and programs whose every written place, if any, one of their words names (judged as
paths; a run-time one refused where the guard knows it is written). Anything
else — an interpreter (``python3``, ``perl``, ``node``, ``ruby``, ``awk``, ``sed``, whose
script may write or run anything), ``git``, ``patch``, ``make``, ``xargs``, ``source``,
``eval``, a program named by its path (``./run.sh``, perhaps the agent's own) or built at run
time (``$PY``) — may write places no word shows."""
ONLY_READERS = frozenset(
    {"cat", "ls", "grep", "egrep", "fgrep", "rg", "ag", "head", "tail", "wc", "stat", "file"}
    | {"du", "df", "diff", "cmp", "comm", "less", "more", "realpath", "readlink", "basename"}
    | {"dirname", "cut", "tr", "jq", "nl", "od", "hexdump", "md5sum", "sha1sum", "sha256sum"}
    | {"sha512sum", "b2sum", "cksum", "base64", "column", "fold", "rev", "tac", "paste"}
    | {"strings", "test", "[", "echo", "printf", "ls", "shellcheck"}
)
"""Programs that only read the files their words name and write nothing but their output:
naming a settings file there (``cat ~/.curlrc; curl URL``) is no writing of it, nor naming a
script a shell of the call runs (``shellcheck s.sh && bash s.sh``: shellcheck(1) has no option
writing a file; ``-f diff`` prints its fixes)."""
PROGRAM_OPTIONS: dict[str, tuple[str, ...]] = {
    "tar": (
        "--to-command",
        "--checkpoint-action",
        "-I",
        "--use-compress-program",
        "-F",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
    ),
    "rsync": ("-e", "--rsh", "--rsync-path"),
    "sort": ("--compress-program",),
    "hash": ("-p",),
    "curl": ("-K", "--config"),
    "wget": ("--config", "--use-askpass"),
    "install": ("--strip-program",),
    "split": ("--filter",),
}
"""Options by which a program in :data:`READ_PROGRAMS` runs another program, which may write
anything (``tar --to-command=./x.sh``, ``rsync -e ./x.sh``, ``sort --compress-program``,
``hash -p ./x.sh ls``: ``ls`` then runs it; ``tar --rsh-command``, ``install -s
--strip-program``, ``split --filter``, ``wget --use-askpass``; a long one by any start of its
name, as GNU programs take it: ``--to-com=``), or takes its write places from a file the text
does not show (``curl -K cfg``, ``wget --config=cfg``: ``output = …``): with one, the command
runs a program the guard does not read."""
RUNNING_VARIABLES = frozenset(
    {"PATH", "BASH_ENV", "ENV", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "TAR_OPTIONS"}
    | {"HOME", "CURL_HOME", "XDG_CONFIG_HOME", "WGETRC", "RSYNC_RSH", "LESSOPEN", "LESSCLOSE"}
)
"""Variables that change what a program in :data:`READ_PROGRAMS` runs or where it writes: the
folders a bare name is found in (``PATH=.:$PATH ls`` runs ``./ls``), a script every ``bash``
runs first (``BASH_ENV``, ``ENV``), a library loaded into every program (``LD_PRELOAD``), a
``tar``'s options (``TAR_OPTIONS='--checkpoint-action=exec=./x.sh'``), the folder ``curl``
and ``wget`` read their settings from (``HOME``, ``CURL_HOME``, ``WGETRC``), ``rsync``'s
remote shell, ``less``'s input filter. A command setting one (``NAME=…`` before a command or
alone, ``export``/``declare``/``local``/``readonly`` of it, ``read NAME``, ``printf -v
NAME``) runs a program the guard does not read."""
_SHELL_INLINE_RE = r"^-[A-Za-z]*c[A-Za-z]*$"
_TO_OUTPUT_CODECS = frozenset(
    {"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma"}
)
"""(De)compressors that, told to write to standard output (``-c``), write no file at all and
remove none: ``gunzip -c x.gz | tar -x`` (``zcat`` and its kin always do: read programs)."""
_TO_OUTPUT_OPTION_RE = (
    r"^(?:-[cdfkqvtlnNrz1-9]+"
    r"|--(?:stdout|to-stdout|(?:de|un)?compress|keep|force|quiet|test|list))$"
)
"""An option word of theirs taking no value (``-dc``, ``--stdout``); any other (``-S .c``,
``-T4``, ``--suffix=x``) leaves the command unread."""
KEYS_CAP = 64
"""The most distinct Workspace-key-shaped words of one command looked up in the memory root;
past it the command is taken as naming another scope (each is one ``lstat``)."""
_KEY_WORD_SPLIT_RE = r"[^A-Za-z0-9._-]+"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def is_read(program: str, options: Iterable[str] = (), operand: str | None = None) -> bool:
    """Whether the guard reads every place ``program`` (the command's name as the shell gives
    it, with the ``options`` before its first ``operand``) writes: a bare name in
    :data:`READ_PROGRAMS`, or a shell given its commands as that operand (``bash -c '…'``,
    ``sh -ec '…'``: the guard reads that text as a command), unless the shell builds that text
    at run time (``sh -c "$(cat script)"``: what it runs is not in the text)."""
    if program in READ_PROGRAMS:
        return True
    if program in _TO_OUTPUT_CODECS:
        return _writes_to_output(program, list(options))
    return (
        program in SHELLS
        and any(re.match(_SHELL_INLINE_RE, word) for word in options)
        and operand is not None
        and "$" not in operand
        and "`" not in operand
    )


def _writes_to_output(program: str, options: list[str]) -> bool:
    """Whether a codec of :data:`_TO_OUTPUT_CODECS` given the option words ``options`` writes
    no file: each a flag word of :data:`_TO_OUTPUT_OPTION_RE`, one of them asking for standard
    output (``-c``, ``-dc``, ``--stdout``: any mode), else the mode it runs in a test or
    listing only. ``xz``, ``lzma`` and ``bzip2`` run the mode their last mode option picks
    (``xz -t -z f`` compresses ``f`` in place and removes it); ``gzip`` tests or lists once
    told to, whatever follows (P-3)."""
    if not all(re.match(_TO_OUTPUT_OPTION_RE, word) for word in options):
        return False
    if {"--stdout", "--to-stdout"} & set(options):
        return True
    modes = {"--test": "t", "--list": "l", "--decompress": "d", "--uncompress": "d"}
    modes |= {"--compress": "z"}
    picked = [
        letter
        for word in options
        for letter in (modes.get(word, "") if word.startswith("--") else word[1:])
        if letter in "cztdl"
    ]
    if "c" in picked:
        return True
    if program in ("gzip", "gunzip"):
        return bool({"t", "l"} & set(picked))
    return bool(picked) and picked[-1] in "tl"


def writes_operands(program: str, options: list[str]) -> bool:
    """Whether ``program``, a (de)compressor of :data:`_TO_OUTPUT_CODECS` given the option
    words ``options``, writes (and removes) the files it is given: ``gzip f``, ``xz -z f``,
    ``xz -t -z f``, ``bzip2 -d f.bz2``; not ``-c`` nor a test or listing
    (:func:`_writes_to_output`). Any other program: False (P-3)."""
    return program in _TO_OUTPUT_CODECS and not _writes_to_output(program, options)


def memory_named(text: str, root: str, key: str | None, records: Iterable[str]) -> str | None:
    """The first memory ``text`` names that a program it runs may not write, as spelled in
    it, or None: a word shaped like a Workspace key (K-7) other than ``key`` that is a folder
    of the memory root ``root``; the memory
    root (by the last two folders of its spelled and real path, so ``~/…``, ``$HOME/…`` and a
    path without its first ``/`` count), other than as the user scope or ``key``'s scope
    (``…/memory/<key>/…``) in a text without ``..``; the ``.workspace``
    marker in a text naming the memory root; the Session records folders ``records`` (by
    their last two folders). Letter case aside (a case-insensitive disk reads both alike);
    linear in the text's length; at most :data:`KEYS_CAP` lookups."""
    folded = text.lower()  # a case-insensitive disk takes ``Agent_State/Memory`` too
    own = {USER_SCOPE} | ({key} if key else set())
    climbs = ".." in text
    root_named = False
    for needle in _needles(root):
        at = folded.find(needle)
        while at != -1:
            root_named = True
            after = at + len(needle)
            if climbs or not _into_own(folded, after, own):
                return folded[at : _word_end(folded, after)]
            at = folded.find(needle, after)
    for folder in records:
        needle = _last_two(folder)
        if needle and needle in folded:
            return needle
    return _other_key(text, root, own, root_named=root_named)


def _needles(root: str) -> set[str]:
    """The texts naming the memory root ``root``: its last two folders, spelled and resolved
    (``agent_state/memory``), lowercased."""
    spelled = os.path.normpath(Path(root).absolute())
    return {needle for path in (spelled, os.path.realpath(spelled)) if (needle := _last_two(path))}


def _last_two(path: str) -> str:
    """``path``'s last two parts joined by ``/``, lowercased; empty when it has fewer (one
    name alone, ``/data``, would be found in everyday words)."""
    parts = PurePath(path).parts[1:]
    return "/".join(parts[-2:]).lower() if len(parts) >= 2 else ""


def _into_own(text: str, after: int, own: set[str]) -> bool:
    """Whether ``text`` at ``after`` (just past a needle) goes on into one of the ``own``
    scopes: ``/<scope>`` then a character no folder name ends with."""
    if not text.startswith("/", after):
        return False
    start = after + 1
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
    of the memory root (past :data:`KEYS_CAP` lookups, any such word), or, when
    ``root_named``, the marker. A key-shaped word naming no scope (``--tag
    release-20261204`` beside the user scope's path) is an everyday argument and passes: a
    program joining it to the root makes a folder no Workspace's Session uses yet (open, as
    every path such a program builds: ``docs/security.md``)."""
    tokens = re.split(_KEY_WORD_SPLIT_RE, text)
    looked_up: set[str] = set()
    # each word once, where it first stands (a big script repeats its words: bash-completion's
    # 136 KiB holds 3,800 of 20,000, H-5): a word seen again changes nothing below the cap
    for token in dict.fromkeys(tokens):
        if root_named and token.casefold() == MARKER_FILE:
            return token
        if not _key_shaped(token, own):
            continue
        looked_up.add(token)
        if os.path.lexists(os.path.join(root, token)):  # noqa: PTH118
            return token
        if len(looked_up) >= KEYS_CAP:  # past it, every word of the text after this one
            return _past_keys_cap(tokens[tokens.index(token) + 1 :], own, root_named=root_named)
    return None


def _key_shaped(token: str, own: set[str]) -> bool:
    """Whether ``token`` is shaped like a Workspace key (K-7) other than the ``own`` scopes: a
    Workspace key ends in ``-`` and 8 hex digits, told first (most words are none)."""
    hyphened = token == USER_SCOPE or (9 < len(token) <= 57 and token[-9] == "-")
    return hyphened and token not in own and SCOPE_KEY_RULE.accepts(token)


def _past_keys_cap(tokens: list[str], own: set[str], *, root_named: bool) -> str | None:
    """:func:`_other_key`'s answer once it has looked up :data:`KEYS_CAP` words: the first of
    ``tokens`` (the text's words after the last one looked up, seen before or not) that is
    the marker (when ``root_named``) or key-shaped, or None."""
    for token in tokens:
        if (root_named and token.casefold() == MARKER_FILE) or _key_shaped(token, own):
            return token
    return None
