"""A program's options read from its words as its own option parser reads them (P-3).

Where ``tar -x`` unpacks, where ``curl`` saves, which archive ``cpio`` reads: the guard takes
each from an option's value, and a value read wrong is a write judged in the wrong place.
``tar -xvCdir`` (``C`` glued after other short flags, its value glued after it) unpacks into
``dir``; read as ``-x`` with the value ``vCdir`` it was let through while ``tar`` wrote into
another scope. One reader, :func:`read_options`, reads every program's options the way
getopt_long does, by the program's own table of the options taking a value
(:class:`OptionTable`, :data:`TABLES`):

- a bundle of short flags, the first one taking a value ending it: its value is the rest of
  the word (``-xvCdir``) or, at the word's end, the next word (``-xvC dir``);
- a long option ``--opt=value`` or ``--opt value``, shortened to any start of its name as
  GNU programs take it (``--dir=DIR``), unless the shortening is a whole option of its own
  (``tar --checkpoint``);
- ``--`` ends the options; a lone ``-`` is an operand; GNU programs take options after
  operands too (``tar -f a.tar -x -C dir``);
- ``tar``'s old style: a first word without a dash holds its letters, each one taking a value
  taking the next word in turn (``tar xfC a.tar dir``);
- ``find``'s and ``history``'s options are whole words each (``-fprint FILE``).

Pure text work, linear in the words (H-5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "TABLES",
    "OptionTable",
    "ReadOptions",
    "option_values",
    "read_options",
    "table_for",
]


class OptionTable:
    """A program's options taking a value: ``short`` (their letters), ``long`` (their full
    names, ``--directory``), ``flags`` (long options that are the start of a valued one but
    options of their own, ``--checkpoint``), ``old_style`` (a first word without a dash holds
    short letters: ``tar``, ``jar``) and ``whole_words`` (every option a whole word, taking
    the next: ``find -fprint``). A plain class, as the other hook records (H-5)."""

    __slots__ = ("flags", "long", "old_style", "short", "whole_words")

    def __init__(
        self,
        short: str = "",
        long: Iterable[str] = (),
        *,
        flags: Iterable[str] = (),
        old_style: bool = False,
        whole_words: bool = False,
    ) -> None:
        self.short = frozenset(short)
        self.long = frozenset(long)
        self.flags = frozenset(flags)
        self.old_style = old_style
        self.whole_words = whole_words


class ReadOptions:
    """What :func:`read_options` read: ``values`` (each option taking a value as its table
    names it, ``-C`` or ``--directory``, the index of the word its value is in, and the
    value), ``flags`` (the letters of short options and the names of long ones without a
    value, shortened ones as written) and ``operands`` (the indexes of the plain operands)."""

    __slots__ = ("flags", "operands", "values")

    def __init__(self) -> None:
        self.values: list[tuple[str, int, str]] = []
        self.flags: set[str] = set()
        self.operands: list[int] = []


_EMPTY = OptionTable()


def read_options(
    words: Sequence[str], table: OptionTable, wanted: Iterable[str] = ()
) -> ReadOptions:
    """``words`` (a program's words after its name) read by ``table``, the ``wanted`` options
    (``-C``, ``--directory``) taking a value whatever the table says (a value never read as
    a flag). Never raises; a valued option at the end takes the value ``""``."""
    wanted = tuple(wanted)
    short = table.short | {option[1] for option in wanted if _is_short(option)}
    long = table.long | {option for option in wanted if option.startswith("--")}
    found = ReadOptions()
    if table.whole_words:
        _read_whole_words(words, long | {o for o in wanted if o.startswith("-")}, found)
        return found
    at = 0
    ended = False
    while at < len(words):
        word = words[at]
        if ended or word == "-" or not word.startswith("-"):
            if at == 0 and table.old_style and word:
                at = _read_old_style(words, short, found)
                continue
            found.operands.append(at)
            at += 1
        elif word == "--":
            ended = True
            at += 1
        elif word.startswith("--"):
            at = _read_long(words, at, (long, table.flags), found)
        else:
            at = _read_short(words, at, short, found)
    return found


def option_values(
    words: Sequence[str], table: OptionTable, wanted: Iterable[str]
) -> list[tuple[int, str]]:
    """The values the ``wanted`` options (``-C``, ``--directory``; a long one also shortened)
    take among ``words`` read by ``table``, in order: each the index of the word holding it
    and the value."""
    wanted = tuple(wanted)
    read = read_options(words, table, wanted)
    return [(at, value) for name, at, value in read.values if name in wanted]


def _is_short(option: str) -> bool:
    return len(option) == 2 and option[0] == "-" and option[1] != "-"


def _read_whole_words(words: Sequence[str], valued: frozenset[str], found: ReadOptions) -> None:
    """Read ``words`` whose options are whole words (``-fprint FILE``)."""
    at = 0
    while at < len(words):
        word = words[at]
        if word in valued:
            found.values.append((word, at + 1, words[at + 1] if at + 1 < len(words) else ""))
            at += 2
            continue
        if word.startswith("-"):
            found.flags.add(word)
        else:
            found.operands.append(at)
        at += 1


def _read_old_style(words: Sequence[str], short: frozenset[str], found: ReadOptions) -> int:
    """Read ``tar``'s old style first word (``xzfC``): each letter a flag, each one taking a
    value taking the next word in turn; where reading goes on."""
    following = 1
    for letter in words[0]:
        if letter in short:
            value = words[following] if following < len(words) else ""
            found.values.append((f"-{letter}", following, value))
            following += 1
        else:
            found.flags.add(letter)
    return following


def _read_long(
    words: Sequence[str],
    at: int,
    tables: tuple[frozenset[str], frozenset[str]],
    found: ReadOptions,
) -> int:
    """Read the long option at ``words[at]``; where reading goes on."""
    long, flags = tables
    word = words[at]
    name, equals, value = word.partition("=")
    option = name if name in long and name not in flags else None
    if option is None and name not in flags and len(name) > 2:
        option = next((each for each in sorted(long) if each.startswith(name)), None)
    if option is None:
        found.flags.add(name)
        return at + 1
    if equals:
        found.values.append((option, at, value))
        return at + 1
    found.values.append((option, at + 1, words[at + 1] if at + 1 < len(words) else ""))
    return at + 2


def _read_short(words: Sequence[str], at: int, short: frozenset[str], found: ReadOptions) -> int:
    """Read the bundle of short options at ``words[at]``; where reading goes on."""
    word = words[at]
    for place, letter in enumerate(word[1:], start=2):
        if letter not in short:
            found.flags.add(letter)
            continue
        if rest := word[place:]:
            found.values.append((f"-{letter}", at, rest))
            return at + 1
        found.values.append((f"-{letter}", at + 1, words[at + 1] if at + 1 < len(words) else ""))
        return at + 2
    return at + 1


_TAR = OptionTable(
    "bCfFgHIKLNTVX",
    (
        "--directory",
        "--file",
        "--listed-incremental",
        "--index-file",
        "--to-command",
        "--checkpoint-action",
        "--use-compress-program",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--transform",
        "--xform",
        "--strip-components",
        "--exclude",
        "--exclude-from",
        "--files-from",
        "--format",
        "--label",
        "--owner",
        "--group",
        "--mode",
        "--mtime",
        "--newer",
        "--newer-mtime",
        "--after-date",
        "--blocking-factor",
        "--record-size",
        "--tape-length",
        "--starting-file",
        "--volno-file",
        "--suffix",
        "--warning",
        "--quoting-style",
        "--sort",
    ),
    flags=("--checkpoint", "--strip", "--exclude-vcs", "--exclude-caches", "--backup"),
    old_style=True,
)
_COPIERS = OptionTable("St", ("--suffix", "--target-directory"))
TABLES: dict[str, OptionTable] = {
    "tar": _TAR,
    "bsdtar": _TAR,
    "unzip": OptionTable("dxP"),
    "patch": OptionTable(
        "BdDFgioprVYz",
        (
            "--directory",
            "--output",
            "--input",
            "--reject-file",
            "--prefix",
            "--suffix",
            "--basename-prefix",
            "--strip",
            "--fuzz",
            "--ifdef",
            "--get",
            "--quoting-style",
            "--version-control",
        ),
    ),
    "sort": OptionTable(
        "koStT",
        (
            "--key",
            "--output",
            "--buffer-size",
            "--field-separator",
            "--temporary-directory",
            "--batch-size",
            "--compress-program",
            "--files0-from",
            "--parallel",
            "--random-source",
            "--sort",
        ),
    ),
    "curl": OptionTable(
        "AbcCdDeEFHKmoPQrtTuUwxXyYz",
        (
            "--output",
            "--output-dir",
            "--dump-header",
            "--cookie-jar",
            "--trace",
            "--trace-ascii",
            "--libcurl",
            "--stderr",
            "--etag-save",
            "--hsts",
            "--alt-svc",
            "--config",
            "--data",
            "--header",
            "--user-agent",
            "--user",
            "--request",
            "--write-out",
            "--proxy",
        ),
    ),
    "wget": OptionTable(
        "aABDeiIloOPQRtTUwX",
        (
            "--output-document",
            "--directory-prefix",
            "--output-file",
            "--append-output",
            "--execute",
            "--save-cookies",
            "--warc-file",
            "--hsts-file",
            "--rejected-log",
            "--config",
            "--use-askpass",
            "--user-agent",
            "--header",
            "--tries",
            "--timeout",
        ),
    ),
    "cp": _COPIERS,
    "mv": _COPIERS,
    "ln": _COPIERS,
    "install": OptionTable("gmoSt", ("--suffix", "--target-directory", "--strip-program")),
    "cpio": OptionTable("CDEFHIMOR", ("--directory", "--file", "--format", "--pattern-file")),
    "jar": OptionTable("Cefm", ("--file", "--dir", "--manifest", "--main-class")),
    "mktemp": OptionTable("p", ("--tmpdir", "--suffix")),
    "npm": OptionTable("", ("--userconfig", "--globalconfig")),
    "find": OptionTable(whole_words=True),
    "history": OptionTable(whole_words=True),
}
"""Each program's options taking a value, as its own parser reads them (GNU tar 1.34,
coreutils 9, curl 8, wget 1.21, GNU patch 2.7, GNU cpio 2.13, Info-ZIP unzip 6.0, the JDK's
``jar``, npm). Options a caller wants take a value whatever the table says; a program not
here is read with no option taking one."""


def table_for(program: str) -> OptionTable:
    """``program``'s :class:`OptionTable` (:data:`TABLES`), or one with no valued option."""
    return TABLES.get(program, _EMPTY)
