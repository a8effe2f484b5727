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
- :func:`patched`, :func:`also_written` (round 57, review57h): ``patch`` given the file to
  patch writes only it; a decompressor writes its operand without the suffix (``gunzip
  s.sh.gz``), a recursive ``cp`` or ``rsync`` the folder it copies into (``cp -a d/. ./``).
  git's and patch's options are read by their own tables (``git apply -- --check`` applies
  a patch file called ``--check``); ``sed -i``/``perl -pi`` substitutions are code, never a
  place written (:func:`only_read`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from harness_memory.hooks.option_words import (
    PYTHON_RE,
    OptionTable,
    cp_flags,
    plain_words,
    read_options,
    table_for,
)

__all__ = [
    "ANY_FILE",
    "COMPILERS",
    "GIT_VALUED",
    "PATCHERS",
    "also_written",
    "built_programs",
    "git_rewritten",
    "only_read",
    "patched",
    "python_unpacked",
    "substitutions",
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
    read = read_options(given, _GIT_TABLES.get(command, table_for("")))
    options = read.flags | {name for name, _, _ in read.values}
    if command in _GIT_PATCHERS:
        only_reads = bool(options & _GIT_PATCH_READS) and "--apply" not in options
        only_index = command == "apply" and "--cached" in options and "--index" not in options
        return [] if only_reads or only_index else [ANY_FILE]
    if command == "restore" and options & {"S", "--staged"} and not options & {"W", "--worktree"}:
        return []  # ``git restore --staged s.sh``: the index only
    if command == "checkout-index":
        return _git_exported(read.values, [given[at] for at in read.operands], options)
    if command in _GIT_MAKERS:
        return _git_made(command, given)
    if command not in _GIT_PATH_WRITERS:
        return []
    return [word for word in given if word and not word.startswith("-")]


_GIT_TABLES = {
    "apply": OptionTable(
        "pC", ("--directory", "--exclude", "--include", "--whitespace", "--build-fake-ancestor")
    ),
    "am": OptionTable("pC", ("--directory", "--exclude", "--include", "--whitespace")),
    "restore": OptionTable("s", ("--source", "--pathspec-from-file")),
    "checkout-index": OptionTable("", ("--prefix", "--stage")),
}
"""The options taking a value of git's commands read here (git 2.39): a patch file named
``--check`` after ``--`` or as an option's value is no option (``git apply -- --check``)."""


def _git_exported(
    values: Sequence[tuple[str, int, str]], operands: Sequence[str], options: set[str]
) -> list[str]:
    """The files ``git checkout-index`` writes, given its valued options, operands and
    options: each operand (every tracked file for ``-a`` or ``--stdin``, whose names it reads
    at run time: :data:`ANY_FILE`) under its
    ``--prefix`` (the prefix's folder, its files below it, for ``-a``: ``--prefix=/tmp/export/``
    writes nothing in the work tree)."""
    prefix = next((value for name, _, value in values if name == "--prefix"), "")
    every = bool(options & {"a", "--all", "--stdin"})  # ``--stdin``: the files it reads named
    if not prefix:
        return [ANY_FILE] if every else list(operands)
    if every:
        return [prefix.rsplit("/", 1)[0] or "/" if "/" in prefix else "."]
    return [prefix + operand for operand in operands]


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
    (``words``: after the program's name) unpacks into (``.`` for tarfile given none), whose
    every file below may be written; none for any other command."""
    for at in range(len(words) - 3):
        module, action = words[at + 1], words[at + 2]
        if words[at] == "-m" and module in _PYTHON_UNPACKERS and action in ("-e", "--extract"):
            return list(words[at + 4 : at + 5]) or ["."]  # tarfile's folder is optional: here
    return []


_GIT_PATCH_READS = frozenset({"--check", "--stat", "--numstat", "--summary"})
"""``git apply``'s options making it only read the patch (without ``--apply``)."""


def built_programs(command: str, words: Sequence[str]) -> list[str]:
    """The words of ``command``'s ``words`` (after its name) naming a program it builds:
    ``make``'s targets (no option, no ``NAME=value``), a compiler's (:data:`COMPILERS`) ``-o``
    value (``-o app``; glued, the whole word ``-oapp``, as the command's words hold it: only
    that word is no write of a script, ``-os.sh`` never naming ``s.sh`` another writer
    writes) unless told to write text (:data:`_TEXT_OUTPUTS`) or given a response file whose
    options are not read (``gcc @o.txt -o t.sh``)."""
    if command == "make":
        return [word for word in words if not word.startswith("-") and "=" not in word]
    if command not in COMPILERS or any(word.startswith(_TEXT_OUTPUTS) for word in words):
        return []
    if any(word.startswith("@") for word in words):
        return []  # ``gcc @o.txt``: options read from a file, ``-E`` among them maybe
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
    a writer read elsewhere); a ``sed`` or ``perl -i`` program that only substitutes
    (:func:`substitutions`), whose files are written by the writers' table; the module of
    ``python3 -m`` (``pytest``: it names a module to import, never ``~/.local/bin/pytest``).
    A word whose code is not known (``awk -f x.awk``) leaves every word written."""
    words = list(said[::2])
    operands = [at for at, word in enumerate(words) if not word.startswith("-")]
    if command == "zip":
        kept = operands[1:]
    elif command == "scp":
        kept = operands[:-1]
    elif command in ("awk", "gawk", "mawk") and operands[:1] == [0]:
        code = words[operands[0]]
        kept = [] if re.search(r"ARGV|FILENAME", code) else operands[1:]
    elif command == "sed" or (command == "perl" and any(re.match(r"-[^-]*i", w) for w in words)):
        kept = substitutions(command, words)  # ``sed -i 's/a.sh/b.sh/' README.md``: code
    elif re.match(PYTHON_RE, command) and words[:1] == ["-m"] and len(words) > 1:
        kept = [1]  # ``python3 -m pytest``: a module Python imports, no file it writes
    elif command == "perl" and len(words) > 1 and re.fullmatch(r"-[lnpa]*e", words[0]):
        code = words[1]
        free = not re.search(r"ARGV|\bshift\b|\bpop\b", code)
        kept = [at for at in operands if at > 1] if free else []
    else:
        kept = []
    return [said[index] for at in kept for index in (2 * at, 2 * at + 1) if index < len(said)]


_PERL_SUBSTITUTION = r"s(?P<d>[^\\\n\w\s])(?:\\.|(?!(?P=d)).)*(?P=d)(?:\\.|(?!(?P=d)).)*(?P=d)"
_PERL_SUBSTITUTES = rf"(?s)\s*(?:{_PERL_SUBSTITUTION}[gimsxr]*\s*(?:;\s*|$))+"
"""Perl programs only substituting text (``s/run.sh/test.sh/g``, ``s|a|b|;s|c|d|``): perl
ends each part at the first delimiter not escaped, whatever brackets hold it."""
_SED_FLAGS = frozenset("gpiIMm0123456789")
"""The flags of a ``sed`` substitution that only substitutes: no ``w`` (sed writes the file
named after it) nor ``e`` (runs the text as a command)."""


def sed_substitutes_only(code: str) -> bool:
    """Whether the ``sed`` program ``code`` only substitutes text, read as GNU sed reads it:
    one or more ``s`` commands (separated by ``;``, newlines and blanks), each with any
    delimiter but a backslash, newline, letter, digit, blank or bracket, a regular expression
    in which a bracket expression may hold the delimiter (``s/[/]/_/g``: ``[/]`` is one
    bracket, so ``s/[/]/;s/;e cp /p/g`` substitutes ``;s`` and then runs ``e cp /p/g``,
    review59 finding 4), a replacement, and only flags of :data:`_SED_FLAGS`. Anything else,
    or anything this does not read exactly (an unclosed part, a newline in a regular
    expression), is False: the program may run or write."""
    at, found = 0, False
    while True:
        while at < len(code) and code[at] in " \t\n;":
            at += 1
        if at >= len(code):
            return found
        delimiter = code[at + 1 : at + 2]
        if code[at] != "s" or not delimiter or delimiter.isalnum() or delimiter in " \t\n\\[]":
            return False
        regex_end = _sed_part_end(code, at + 2, delimiter, brackets=True)
        end = None if regex_end is None else _sed_part_end(code, regex_end, delimiter)
        if end is None:
            return False
        while end < len(code) and code[end] in _SED_FLAGS:
            end += 1
        at, found = end, True
        while at < len(code) and code[at] in " \t":
            at += 1
        if at < len(code) and code[at] not in ";\n":
            return False


_SED_E_COMMAND_RE = r"(?m)(?:^|[^A-Za-z_\\])e[ \t]+(\S.*)$"
"""A ``sed`` ``e`` command and the command line it runs (to its line's end, as GNU sed reads
it: ``1e sh ~/w2``, ``/x/e cp a b``)."""


def sed_run_texts(code: str) -> list[str]:
    """The shell command lines the ``sed`` program ``code`` runs by its ``e`` command
    (:data:`_SED_E_COMMAND_RE`), each to be judged as ``sh -c`` code is (review59 finding 9:
    ``sed -n '1e sh ~/w2' note.md`` ran ``~/w2`` unjudged); none for a program that only
    substitutes (:func:`sed_substitutes_only`). Read generously (an ``e`` after a blank in
    another command's text counts too): a line judged that sed never runs costs at most an
    over-careful refusal of an unusual script."""
    if sed_substitutes_only(code):
        return []
    return [match.group(1) for match in re.finditer(_SED_E_COMMAND_RE, code)]


def _sed_part_end(code: str, at: int, delimiter: str, *, brackets: bool = False) -> int | None:
    """Where the part of a ``sed`` substitution starting at ``at`` ends, past its closing
    ``delimiter`` (escapes skipped; with ``brackets``, bracket expressions skipped whole:
    :func:`_bracket_end`); None when it is not closed or holds a newline outside an escape."""
    while at < len(code):
        char = code[at]
        if char == "\\":
            at += 2
        elif char == delimiter:
            return at + 1
        elif char == "\n":
            return None
        elif brackets and char == "[":
            bracket_end = _bracket_end(code, at)
            if bracket_end is None:
                return None
            at = bracket_end
        else:
            at += 1
    return None


def _bracket_end(code: str, at: int) -> int | None:
    """Where the bracket expression opened at ``at`` ends, as POSIX reads it: a ``]`` first
    (after ``[`` or ``[^``) is literal, a backslash is literal, ``[:…:]``, ``[.….]`` and
    ``[=…=]`` are skipped whole; None when it is not closed on its line."""
    at += 1
    at += code.startswith("^", at)
    at += code.startswith("]", at)
    while at < len(code):
        if code.startswith(("[:", "[.", "[="), at):
            close = code.find(code[at + 1] + "]", at + 2)
            if close == -1 or "\n" in code[at:close]:
                return None
            at = close + 2
        elif code[at] == "]":
            return at + 1
        elif code[at] == "\n":
            return None
        else:
            at += 1
    return None


_PERL_RUN_IN_STRING = r"[$@][\w:]*\s*(?:->\s*)?[\[{(]"
"""What runs code inside a perl substitution's strings: ``@{[ … ]}``, ``${\\ … }``,
``$h{…}``, ``$a[…]`` (each subscript an expression)."""


def substitutions(command: str, words: Sequence[str]) -> list[int]:
    """The indexes in ``words`` (``sed``'s or ``perl -i``'s words after its name) of its
    programs that only substitute (:func:`sed_substitutes_only`, :data:`_PERL_SUBSTITUTES`):
    each ``-e`` value, else ``sed``'s first operand; none when a program comes from a file
    (``-f``), which may write."""
    given = [at + 1 for at, word in enumerate(words[:-1]) if re.fullmatch(r"-[lnpaiE]*e", word)]
    given += [at for at, word in enumerate(words) if word.startswith("--expression=")]
    if command == "sed" and not given and not any(w.startswith(("-f", "--file")) for w in words):
        valued = {"-e", "-f", "-l", "--expression", "--file", "--line-length"}
        plain = plain_words(words, valued)
        given = [words.index(plain[0])] if plain else []
    code = {at: words[at].removeprefix("--expression=") for at in given}
    if command == "sed":
        return [at for at in given if sed_substitutes_only(code[at])]
    return [
        at
        for at in given
        if re.fullmatch(_PERL_SUBSTITUTES, code[at])
        and not re.search(_PERL_RUN_IN_STRING, code[at])
    ]


def patched(words: Sequence[str]) -> list[str]:
    """What ``patch`` given ``words`` (after its name, read by its own table) writes besides
    its operands: whichever file its patch names (``[ANY_FILE]``), none when told to only
    check (``--dry-run``, BSD's ``--check``/``-C``: options only, never ``-i``'s value or a
    word after ``--``) or given the file to patch (``patch src/x.c < fix.diff`` writes
    ``src/x.c``, a written operand already)."""
    read = read_options(words, table_for("patch"))
    if read.flags & {"--dry-run", "--check", "C"} or read.operands:
        return []
    return [ANY_FILE]


_TARRED = {".tgz": ".tar", ".taz": ".tar", ".tbz2": ".tar", ".tbz": ".tar", ".txz": ".tar"}
_TARRED[".tzst"] = ".tar"
_UNPACKED_SUFFIXES = {
    "gzip": (".gz", ".z", "-gz", "-z", "_z", ".tgz", ".taz"),
    "bzip2": (".bz2", ".bz", ".tbz2", ".tbz"),
    "xz": (".xz", ".lzma", ".txz"),
    "zstd": (".zst", ".tzst"),
}
"""Each decompressor's suffixes it strips to name the file it writes (``.tgz``: ``.tar``,
:data:`_TARRED`)."""
_DECOMPRESSORS = {"gunzip": "gzip", "bunzip2": "bzip2", "unxz": "xz", "unlzma": "xz"}
_DECOMPRESSORS |= {"unzstd": "zstd", **{name: name for name in _UNPACKED_SUFFIXES}}
"""The decompressing programs and the suffix family of each (``gzip`` only with ``-d``)."""


def also_written(command: str, words: Sequence[str]) -> list[str]:
    """Places ``command`` given ``words`` (after its name) writes that its written operands do
    not name, each a file or a folder whose files below may be written: the file a
    decompressor writes (``gunzip -f s.sh.gz``, ``gzip -d``, ``xz -d``, none with ``-c``,
    ``-t``, ``-l``) and the folder a recursive ``cp`` or ``rsync`` copies into
    (:func:`_copied_into`: ``cp -a d/. ./`` writes ``./s.sh``)."""
    family = _DECOMPRESSORS.get(command)
    if family is not None:
        flags = read_options(words, table_for(command)).flags
        flags |= {letter for word in words if re.match(r"-[^-]", word) for letter in word[1:]}
        wanted = command not in _UNPACKED_SUFFIXES or flags & {"d", "--decompress"}
        if not wanted or flags & {"c", "t", "l", "--stdout", "--test", "--list"}:
            return []
        return [_unpacked_name(word, family) for word in plain_words(words, {"-S"})]
    return _copied_into(command, words)


def _unpacked_name(word: str, family: str) -> str:
    """The file a decompressor of ``family`` writes from ``word`` (``s.sh.gz``: ``s.sh``)."""
    for suffix in _UNPACKED_SUFFIXES[family]:
        if word.lower().endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)] + _TARRED.get(suffix, "")
    return word


_RSYNC_VALUED = frozenset({"-e", "-f", "-T", "-B", "-M", "--rsh", "--filter", "--exclude"})
"""rsync's options taking the next word as their value (the rest are written glued)."""


def _copied_into(command: str, words: Sequence[str]) -> list[str]:
    """The folders a recursive ``cp`` (``-r``, ``-R``, ``-a``) or ``rsync`` given ``words``
    copies its sources' files into: below the destination, each source's name (``cp -r d .``
    writes ``./d``), or the destination itself for a source ending in ``/.`` (and, for
    rsync, in ``/``): ``cp -a d/. ./``, ``rsync -a d/ .`` write ``./s.sh``. A remote
    destination (``host:dir``) writes here nothing."""
    if command == "cp" and cp_flags(words) & {"a", "R", "r", "--archive", "--recursive"}:
        read = read_options(words, table_for("cp"), ("-t", "--target-directory"))
        operands = [words[at] for at in read.operands]
        target = [value for name, _, value in read.values if name in ("-t", "--target-directory")]
        sources, into = (operands, target) if target else (operands[:-1], operands[-1:])
        return [_copy_of(source, into[-1], contents=("/.",)) for source in sources if into]
    if command == "rsync":
        operands = plain_words(words, _RSYNC_VALUED)
        if len(operands) < 2 or re.match(r"^[^/]*:", operands[-1]):
            return []
        return [_copy_of(source, operands[-1], contents=("/", "/.")) for source in operands[:-1]]
    return []


def _copy_of(source: str, into: str, *, contents: tuple[str, ...]) -> str:
    """Where a folder copy of ``source`` into ``into`` lands: ``into`` for a source ending in
    one of ``contents`` (its files copied), else ``into/<its name>``."""
    if source.endswith(contents) or source in (".", "/"):
        return into
    return f"{into.rstrip('/')}/{source.rstrip('/').rsplit('/', 1)[-1]}"
