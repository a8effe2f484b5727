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
  GNU programs take it (``--dir=DIR``); a whole name wins over a longer one it starts
  (``install --strip`` is no ``--strip-program``), so each table knows every long option
  (:mod:`~harness_memory.hooks.option_names`); a start of several names is ambiguous (the
  program stops), read as each of them that takes a value without taking the next word
  from the operands, so no place it may name goes unjudged;
- an optional-argument long option (``mktemp --tmpdir[=DIR]``, ``tar --one-top-level``)
  takes a value only after ``=``: ``mktemp --tmpdir -pDIR`` makes its file in ``DIR``;
- ``--`` ends the options; a lone ``-`` is an operand; GNU programs take options after
  operands too (``tar -f a.tar -x -C dir``);
- ``tar``'s old style: a first word without a dash holds its letters, each one taking a value
  taking the next word in turn (``tar xfC a.tar dir``);
- ``find``'s and ``history``'s options are whole words each (``-fprint FILE``).

Readers of their own remain where this grammar does not fit: ``in_place`` (``sed
-i[SUFFIX]`` and perl's ``-i[EXT]``, ``-0[OCTAL]``… take only the rest of their bundle, perl
has no long options, and an unknown ``sed`` option is judged unsafe, which this reader does
not report), ``tool_targets``' match of ``PROGRAM_OPTIONS`` (any start of an option running a
program counts, ambiguous or not: broader on purpose), a shell's own options
(:mod:`~harness_memory.hooks.shell_operands`: ``+o``, valued letters taking the next words in
turn, a lone ``-`` ending them) and 7-Zip's and unrar's switches (no getopt at all).

Pure text work, linear in the words (H-5).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

from harness_memory.hooks.option_names import FLAGS, OPTIONAL, VALUED

__all__ = [
    "CP_FOLLOWING",
    "CP_KEEPING",
    "CP_LINKING",
    "CP_TREE",
    "INTERPRETERS",
    "PYTHON_RE",
    "TABLES",
    "OptionTable",
    "ReadOptions",
    "cp_flags",
    "interpreter_table",
    "option_values",
    "plain_words",
    "read_options",
    "table_for",
]


class OptionTable:
    """A program's options: ``short`` (the letters taking a value), ``long`` (the full names
    taking one, ``--directory``), ``optional`` (the long ones taking a value only after
    ``=``, ``--tmpdir[=DIR]``), ``flags`` (the long ones taking none, ``--strip``),
    ``old_style`` (a first word without a dash holds short letters: ``tar``, ``jar``),
    ``whole_words`` (every option a whole word, taking the next: ``find -fprint``) and
    ``stops`` (the options end at the first operand, getopt's ``+``: ``xargs -0 cp -t d``
    gives ``-t`` to ``cp``) and ``whole_names`` (a long option is taken only by its whole
    name, never shortened: an interpreter's own parser, ``node --watch`` is no
    ``--watch-path``). A plain class, as the other hook records (H-5)."""

    __slots__ = (
        "flags",
        "long",
        "old_style",
        "optional",
        "short",
        "stops",
        "whole_names",
        "whole_words",
    )

    def __init__(
        self,
        short: str = "",
        long: Iterable[str] = (),
        *,
        optional: Iterable[str] = (),
        flags: Iterable[str] = (),
        old_style: bool = False,
        whole_words: bool = False,
        stops: bool = False,
        whole_names: bool = False,
    ) -> None:
        self.short = frozenset(short)
        self.long = frozenset(long)
        self.optional = frozenset(optional)
        self.flags = frozenset(flags)
        self.old_style = old_style
        self.whole_words = whole_words
        self.stops = stops
        self.whole_names = whole_names


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
    long = table.long | {o for o in wanted if o.startswith("--") and o not in table.optional}
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
            ended = ended or table.stops  # ``xargs cp -t d``: the rest is ``cp``'s
        elif word == "--":
            ended = True
            at += 1
        elif word.startswith("--"):
            tables = (long, table.optional, table.flags)
            at = _read_long(words, at, tables, found, whole=table.whole_names)
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
    tables: tuple[frozenset[str], frozenset[str], frozenset[str]],
    found: ReadOptions,
    *,
    whole: bool = False,
) -> int:
    """Read the long option at ``words[at]`` (``tables``: the names taking a value, taking
    one after ``=`` only, taking none; ``whole``: never shortened); where reading goes on."""
    long, optional, flags = tables
    name, equals, value = words[at].partition("=")
    known = long | optional | flags
    if name in known or len(name) <= 2 or whole:
        options = [name] if name in known else []
    else:
        options = sorted(each for each in known if each.startswith(name))
    valued = [each for each in options if each in long or (equals and each in optional)]
    if not valued:
        found.flags.add(options[0] if len(options) == 1 else name)
        return at + 1
    following = words[at + 1] if at + 1 < len(words) else ""
    for option in valued:
        found.values.append((option, at, value) if equals else (option, at + 1, following))
    return at + 1 if equals or len(options) > 1 else at + 2


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


def _table(
    program: str, short: str, long: Iterable[str] = (), *, old_style: bool = False
) -> OptionTable:
    """``program``'s table: ``short`` and ``long`` taking a value, with every long option its
    ``--help`` lists (:mod:`~harness_memory.hooks.option_names`) of each kind; wget's
    ``--no-X`` flags stand for ``--X`` too (its switches take both)."""
    flags = ["--" + name for name in FLAGS.get(program, "").split()]
    if program == "wget":
        flags += ["--" + name.removeprefix("--no-") for name in flags if name.startswith("--no-")]
    valued = {*long, *("--" + name for name in VALUED.get(program, "").split())}
    return OptionTable(
        short,
        valued,
        optional=["--" + name for name in OPTIONAL.get(program, "").split()],
        flags=set(flags) - valued,
        old_style=old_style,
    )


_XARGS_VALUED = "--arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var"
_TAR_VALUED = ("--checkpoint-action", "--use-compress-program", "--info-script", "--warning")
_TAR = _table("tar", "bCfFgHIKLNTVX", _TAR_VALUED, old_style=True)
TABLES: dict[str, OptionTable] = {
    "tar": _TAR,
    "bsdtar": _TAR,
    "unzip": OptionTable("dxP"),
    "patch": _table("patch", "BdDFgioprVYz"),
    "sort": _table("sort", "koStT"),
    "curl": _table("curl", "AbcCdDeEFHKmoPQrtTuUwxXyYz", ("--proxy", "--preproxy")),
    "wget": _table("wget", "aABDeiIloOPQRtTUwX"),
    "cp": _table("cp", "St"),
    "mv": _table("mv", "St"),
    "ln": _table("ln", "St"),
    "install": _table("install", "gmoSt"),
    "cpio": _table("cpio", "CDEFHIMOR"),
    "jar": OptionTable("Cefm", ("--file", "--dir", "--manifest", "--main-class")),
    "mktemp": _table("mktemp", "p"),
    "npm": OptionTable("", ("--userconfig", "--globalconfig")),
    "find": OptionTable(whole_words=True),
    "history": OptionTable(whole_words=True),
    "hash": OptionTable("p"),
    "xargs": OptionTable(
        "adEILnPs",
        _XARGS_VALUED.split(),
        optional=("--eof", "--replace", "--max-lines"),
        flags=("--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit"),
        stops=True,
    ),
    "env": OptionTable(
        "uCS",
        ("--unset", "--chdir", "--split-string"),
        optional=("--default-signal", "--ignore-signal", "--block-signal"),
        flags=("--ignore-environment", "--null", "--debug", "--list-signal-handling"),
        stops=True,
    ),
}
"""Each program's options, as its own parser reads them (GNU tar 1.34, coreutils 9, curl
7.88, wget 1.21, GNU patch 2.7, GNU cpio 2.13, Info-ZIP unzip 6.0, the JDK's ``jar``, npm,
bash's ``hash``, GNU findutils 4.9's ``xargs`` (its ``-e``, ``-i`` and ``-l`` take a value
glued only: read as flags), coreutils 9's ``env``; the long ones of the GNU programs, curl
and wget all listed, valued or not). Options a caller wants take a value whatever the table
says (after ``=`` only, for an optional one); a program not here is read with no option taking
one."""


FIND_RUNNING = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
"""``find``'s actions running the command after them (its next word names the program), up
to :data:`FIND_ENDS` (once per name) or a ``+`` after ``{}`` (names appended): the one set
every reader of ``find``'s actions uses."""
FIND_ENDS = frozenset({";", "\\;"})
"""The words ending a ``find`` action's command run once per name (``;`` as the shell gives
it, or ``\\;`` as written)."""


def table_for(program: str) -> OptionTable:
    """``program``'s :class:`OptionTable` (:data:`TABLES`), or one with no valued option."""
    return TABLES.get(program, _EMPTY)


_NODE_VALUED = (
    "--require --import --loader --experimental-loader --conditions --title --input-type"
    " --env-file --inspect-port --debug-port --cpu-prof-dir --cpu-prof-name --heap-prof-dir"
    " --heap-prof-name --diagnostic-dir --disable-warning --dns-result-order --icu-data-dir"
    " --openssl-config --redirect-warnings --report-dir --report-directory --report-filename"
    " --report-signal --secure-heap --secure-heap-min --stack-trace-limit --tls-cipher-list"
    " --tls-keylog --trace-event-categories --trace-event-file-pattern --unhandled-rejections"
    " --use-largepages --watch-path --experimental-policy --policy-integrity"
    " --disable-proto --heapsnapshot-signal --max-http-header-size --experimental-default-type"
    " --test-reporter --test-reporter-destination --test-name-pattern --test-concurrency"
    " --test-timeout --test-shard --heapsnapshot-near-heap-limit --inspect-publish-uid"
    " --env-file-if-exists --snapshot-blob --allow-fs-read --allow-fs-write"
    " --experimental-sea-config --trace-require-module"
)
PYTHON_RE = r"^(?:python|pypy)[0-9.]*$"
"""A Python interpreter's name (``python``, ``python3.12``, ``pypy3``)."""
INTERPRETERS: tuple[tuple[str, OptionTable], ...] = (
    (
        PYTHON_RE,
        OptionTable("WX", ("--check-hash-based-pycs",), whole_names=True),
    ),
    (
        r"^(?:node|nodejs|bun)$",
        OptionTable("rC", _NODE_VALUED.split(), whole_names=True),
    ),
    (r"^perl[0-9.]*$", OptionTable("I", whole_names=True)),
    (r"^ruby[0-9.]*$", OptionTable("rIEC", whole_names=True)),
    (r"^php[0-9.]*$", OptionTable("cdz", whole_names=True)),
)
"""Each interpreter's options taking a value (CPython 3.12's ``-W``/``-X`` and
``--check-hash-based-pycs``, Node 22's valued options (each one added in round 53 run by
node 20 as ``node OPTION VALUE ok.js``: it ran ``ok.js``), perl's ``-I``, ruby's ``-r``/``-I``/
``-E``/``-C``, php's ``-c``/``-d``/``-z``), by the interpreter's name (``python3.12``,
``nodejs``), in bundles as getopt reads them (``python3 -bW ignore``), long ones only whole.
Their code options (``-c``, ``-e``, ``-m``) are not here: their operand is code, read as such.
Taken for the script's name, a value hid the script after it (``python3 -bW ignore mk.py``,
``node --title x mk.js``), never read for links (P-3)."""


def interpreter_table(name: str) -> OptionTable:
    """The :class:`OptionTable` of the interpreter called ``name`` (a bare name:
    :data:`INTERPRETERS`), or one with no valued option."""
    return next((table for rule, table in INTERPRETERS if re.match(rule, name)), _EMPTY)


CP_LINKING = frozenset({"s", "l", "--symbolic-link", "--link"})
"""``cp`` flags by which it makes links instead of copies (``-s`` symbolic, ``-l`` hard)."""
CP_TREE = frozenset({"a", "R", "r", "--archive", "--recursive"})
"""``cp`` flags by which it copies a folder's whole tree (its symbolic links as links, unless
:data:`CP_FOLLOWING`)."""
CP_KEEPING = CP_TREE | {"d", "P", "--no-dereference", "--preserve=links"}
"""``cp`` flags by which a symbolic link among its sources is copied as a link (``-R``/``-r``
without ``-L`` copy the links of a tree, and the operands, as links); ``--preserve=links``
stands for a ``--preserve`` whose list names ``links`` or ``all``."""
CP_FOLLOWING = frozenset({"L", "--dereference"})
"""``cp`` flags by which a source that is a symbolic link is copied as its file."""


def cp_flags(words: Sequence[str]) -> set[str]:
    """The flags of ``cp`` ``words`` (its words after its name), read by ``cp``'s own table
    (:func:`read_options`): short letters, long names, and ``--preserve=links`` for a
    ``--preserve`` value naming ``links`` or ``all``. The one reading of ``cp``'s link flags
    (:data:`CP_LINKING`, :data:`CP_KEEPING`, :data:`CP_TREE`, :data:`CP_FOLLOWING`)."""
    read = read_options(words, TABLES["cp"], ("-t", "--target-directory"))
    flags = set(read.flags)
    for name, _, value in read.values:
        if name == "--preserve" and {"links", "all"} & set(value.split(",")):
            flags.add("--preserve=links")
    return flags


def plain_words(words: Sequence[str], valued: AbstractSet[str]) -> list[str]:
    """The words of ``words`` that are neither an option (``-x``, ``--x``) nor the value of
    one of ``valued`` given as the next word (``-b main``), in order."""
    plain: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in valued
        else:
            plain.append(word)
    return plain
