"""Writers of a script file the command runs that the writers' table leaves out, and built
programs it counts in vain (P-3, round 57).

A script a shell of the call runs (``bash s.sh``, ``./s.sh``) is judged by its text on disk,
refused when the same command may write it (``docs/security.md``): then the guard read the
old file, or none. The places a command may write are ``ShellPaths.written`` (a
redirection's target, a writer's written operands, every word of a program the guard does not
read). Two kinds of program are read here besides, from the command's words:

- :func:`git_rewritten`: git's words are judged as paths, never as written places, yet a git
  command rewriting work-tree files by path (``git checkout -- s.sh``, ``git checkout evil --
  s.sh``, ``git restore``, ``git mv``, ``git stash push s.sh``) writes each it names, and one
  applying a patch (``git apply``, ``git am``; ``patch`` among the other programs:
  :data:`PATCHERS`) writes whichever files its input names: :data:`ANY_FILE`. A git command
  naming no path (``git pull``, ``git checkout main``, ``git merge``, ``git reset --hard``)
  counts as writing no script, as ``make`` does not: each may rewrite a tracked script, but
  refusing ``git pull && ./test.sh`` refuses everyday work (``docs/security.md``).
- :func:`built_programs`: what a compiler writes by ``-o`` (``gcc -o app app.c``, ``go build
  -o app``) is a compiled program, and ``make``'s targets (``make app``) are built by rules on
  disk: run after by its path (``./app``) where it is missing or compiled on disk, each is run
  as any program the guard does not read, which it would not read on disk either
  (``named_scripts.read_script``: ``"program"``); a target or output a shell runs, or that is
  text on disk (``make -B s.sh && bash s.sh``), counts as written. A compiler told to write
  text (``-E``, ``-S``, ``-M…``, ``--emit``, ``-save-temps``) builds none.
- :func:`only_read`, :func:`python_unpacked`: the words some programs the guard does not read
  only read (``zip``'s files, ``scp``'s sources), and the folder Python's archive modules
  unpack into (round 57, review57e).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from harness_memory.hooks.option_words import plain_words

__all__ = [
    "ANY_FILE",
    "COMPILERS",
    "GIT_VALUED",
    "PATCHERS",
    "built_programs",
    "git_rewritten",
    "only_read",
    "python_unpacked",
]

ANY_FILE = "*"
"""What :func:`git_rewritten` gives for a command writing whichever files its input names."""
PATCHERS = frozenset({"patch"})
"""Programs writing the files the patch they read names (``patch -p1 < fix.diff``)."""
COMPILERS = frozenset(
    {"gcc", "cc", "c++", "g++", "clang", "clang++", "tcc", "gfortran", "rustc", "go"}
)
"""Compilers whose ``-o`` output is a compiled program (``go`` under ``build``)."""
_TEXT_OUTPUTS = ("-E", "-S", "-M", "--emit", "-save-temps")
"""Options making a compiler write text (preprocessed source, assembly, dependencies)."""
GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
"""git's own options before its command that take the next word as their value."""
_GIT_PATH_WRITERS = frozenset({"checkout", "restore", "mv", "stash", "checkout-index"})
"""git's commands rewriting the work-tree files their operands name."""
_GIT_PATCHERS = frozenset({"apply", "am"})
"""git's commands writing the files the patch they read names."""


def git_rewritten(words: Sequence[str]) -> list[str]:
    """The work-tree files a ``git`` call given ``words`` (its words after its name) rewrites
    by path: the operands after its command when that is one of :data:`_GIT_PATH_WRITERS`
    (branch names among them: read as a file's name too, ``git checkout main`` as writing a
    ``main``; a folder, ``git checkout HEAD -- .``, writes what lies below it),
    ``[ANY_FILE]`` for ``apply``/``am`` (none with ``--check``, ``--stat``, ``--numstat``,
    ``--summary``: it only reads the patch) and ``checkout-index -a``, else none."""
    at = 0
    while at < len(words) and words[at].startswith("-"):
        at += 2 if words[at] in GIT_VALUED else 1
    command = words[at] if at < len(words) else ""
    given = words[at + 1 :]
    if command in _GIT_PATCHERS:
        return [] if any(word in _GIT_PATCH_READS for word in given) else [ANY_FILE]
    if command == "checkout-index" and any(word in ("-a", "--all") for word in given):
        return [ANY_FILE]
    if command in _GIT_MAKERS:
        return _git_made(command, given)
    if command not in _GIT_PATH_WRITERS:
        return []
    return [word for word in given if word and not word.startswith("-")]


_GIT_MAKERS = {
    "clone": frozenset({"-b", "--branch", "-o", "--origin", "--depth", "-c", "--config"})
    | frozenset({"--reference", "--template", "--separate-git-dir", "-u", "--upload-pack"})
    | frozenset({"-j", "--jobs", "--filter", "--shallow-since", "--shallow-exclude"}),
    "worktree": frozenset({"-b", "-B", "--reason"}),
}
"""git's commands making a work tree of files in a new folder, with their valued options."""


def _git_made(command: str, given: Sequence[str]) -> list[str]:
    """The folder ``git clone`` (its second operand, else its source's last part without
    ``.git``) or ``git worktree add`` (its first operand after ``add``) fills with files,
    given its words after the command: each file below it is written (``git clone -q . x &&
    x/s.sh``)."""
    valued = _GIT_MAKERS[command]
    operands = plain_words(given, valued)
    if command == "worktree":
        return operands[1:2] if operands[:1] == ["add"] else []
    if len(operands) > 1:
        return operands[1:2]
    made = operands[0].rstrip("/").rsplit("/", 1)[-1].removesuffix(".git") if operands else ""
    return [made] if made not in ("", ".", "..") else []


_PYTHON_UNPACKERS = frozenset({"zipfile", "tarfile"})
"""Python's modules unpacking an archive into a folder from the command line (``-e``)."""


def python_unpacked(words: Sequence[str]) -> list[str]:
    """The folder ``python3 -m zipfile -e a.zip DIR`` or ``-m tarfile --extract a.tar DIR``
    (``words``: after the program's name) unpacks into, whose every file below may be
    written; none for any other command."""
    for at in range(len(words) - 4):
        module, action = words[at + 1], words[at + 2]
        if words[at] == "-m" and module in _PYTHON_UNPACKERS and action in ("-e", "--extract"):
            return [words[at + 4]]
    return []


_GIT_PATCH_READS = frozenset({"--check", "--stat", "--numstat", "--summary"})
"""``git apply``'s options making it only read the patch (without ``--apply``)."""


def built_programs(command: str, words: Sequence[str]) -> list[str]:
    """The words of ``command``'s ``words`` (after its name) naming a program it builds:
    ``make``'s targets (no option, no ``NAME=value``), a compiler's (:data:`COMPILERS`) ``-o``
    value (``-o app``; glued, the whole word ``-oapp``, as the command's words hold it: only
    that word is no write of a script, ``-os.sh`` never naming ``s.sh`` another writer
    writes) unless told to write text (:data:`_TEXT_OUTPUTS`)."""
    if command == "make":
        return [word for word in words if not word.startswith("-") and "=" not in word]
    if command not in COMPILERS or any(word.startswith(_TEXT_OUTPUTS) for word in words):
        return []
    if command == "go" and words[:1] != ["build"]:
        return []
    built = [word for word in words if word.startswith("-o") and len(word) > 2]
    built.extend(after for word, after in pairwise(words) if word == "-o")
    return built


def only_read(command: str, said: Sequence[str]) -> list[str]:
    """The words of ``said`` (a program's words after its name, each followed by its expanded
    form) that ``command``, a program the guard does not read, only reads, as ``said`` holds
    them: ``zip``'s files after its archive; ``scp``'s sources (all but its last operand,
    ``scp run.sh host:/tmp/``); the file operands after an ``awk`` program given
    first (no option) or perl's ``-e``/``-ne`` code that names neither ``ARGV``,
    ``FILENAME`` nor ``shift``/``pop`` (the code may write only what it names; ``perl -i`` is
    a writer read elsewhere). A word whose code is not known (``awk -f x.awk``) leaves every
    word written."""
    words = list(said[::2])
    operands = [at for at, word in enumerate(words) if not word.startswith("-")]
    if command == "zip":
        kept = operands[1:]
    elif command == "scp":
        kept = operands[:-1]
    elif command in ("awk", "gawk", "mawk") and operands[:1] == [0]:
        code = words[operands[0]]
        kept = [] if re.search(r"ARGV|FILENAME", code) else operands[1:]
    elif command == "perl" and len(words) > 1 and re.fullmatch(r"-[lnpa]*e", words[0]):
        code = words[1]
        free = not re.search(r"ARGV|\bshift\b|\bpop\b", code)
        kept = [at for at in operands if at > 1] if free else []
    else:
        kept = []
    return [said[index] for at in kept for index in (2 * at, 2 * at + 1) if index < len(said)]
