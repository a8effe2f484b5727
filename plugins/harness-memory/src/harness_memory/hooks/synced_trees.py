"""What ``rsync`` and ``pax -rw`` copy, and where, read from their words (P-3).

``rsync -a d/ out/ && echo x > out/lnk/a.md`` copies ``d/lnk``, a symbolic link into another
scope, as a link (``-a`` holds ``-l``), and the write goes through it: the guard judged
``out/lnk/a.md`` as a plain Workspace path, and bash wrote into the other scope. ``pax -rw d o``
keeps links the same way. :func:`synced` reads such a call as the copies it makes: each source
with the place it lands (``rsync``: a source ending in ``/`` fills the destination, any other
lands below it by its last name, or is the destination itself when it is one file and no folder
is there; with ``-R`` its whole path is kept; ``pax -rw``: below the destination by its path as
written), and whether links are kept as links (``rsync -l``, ``--links``, ``-a``, ``--archive``
unless ``-L``/``--copy-links`` or a later ``--no-links``; ``pax`` unless ``-L``). ``rsync
--link-dest=DIR`` gives each file it copies unchanged a second name of DIR's file (DIR read from
the destination folder when relative): ``rsync -rc --link-dest=../notes src/ out/ && echo x >>
out/MEMORY.md`` appended to another scope's index. A source the text does not show
(``--files-from``, ``pax -rw`` fed names on its input, a remote one, ``pax -s`` renaming) makes
the destination a place known only when the command runs. Pure text work, no file is looked at.
"""

from __future__ import annotations

__all__ = ["SYNCERS", "Synced", "pax_options", "rsync_options", "synced"]

SYNCERS = frozenset({"rsync", "pax"})
"""Programs copying trees that keep symbolic links as links (read by :func:`synced`)."""

_RSYNC_VALUED_SHORT = frozenset("BefMT@")
_RSYNC_VALUED_LONG = frozenset(
    {
        "--address",
        "--backup-dir",
        "--block-size",
        "--bwlimit",
        "--checksum-choice",
        "--chmod",
        "--chown",
        "--compare-dest",
        "--compress-choice",
        "--compress-level",
        "--contimeout",
        "--copy-as",
        "--copy-dest",
        "--debug",
        "--early-input",
        "--exclude",
        "--exclude-from",
        "--files-from",
        "--filter",
        "--groupmap",
        "--iconv",
        "--include",
        "--include-from",
        "--info",
        "--link-dest",
        "--log-file",
        "--log-file-format",
        "--max-alloc",
        "--max-delete",
        "--max-size",
        "--min-size",
        "--modify-window",
        "--only-write-batch",
        "--out-format",
        "--outbuf",
        "--partial-dir",
        "--password-file",
        "--port",
        "--protocol",
        "--read-batch",
        "--remote-option",
        "--rsh",
        "--rsync-path",
        "--skip-compress",
        "--sockopts",
        "--stderr",
        "--stop-after",
        "--stop-at",
        "--suffix",
        "--temp-dir",
        "--timeout",
        "--usermap",
        "--write-batch",
    }
)
"""rsync's options taking a value (the next word, or glued: ``-essh``, ``--rsh=ssh``)."""
_PAX_VALUED = frozenset("bfopsxBEGTU")
"""pax's options taking a value (its ``getopt`` string's letters with a ``:``)."""


class Synced:
    """One ``rsync``/``pax -rw`` call read: ``copies`` (each source as written, and whether it
    lands as the destination itself, ``"as"``, or below it: ``"into"`` by its last name,
    ``"fills"`` its contents, ``"path"`` by its whole path as written), ``destination`` (as
    written; None when none is local or it makes no copy), ``keeps_links`` (symbolic links
    copied as links), ``linked_from`` (``rsync --link-dest`` folders, as written: the
    destination's files may be theirs, hard-linked), ``unknown`` (why what lands there is
    known only at run time, or None). A plain class, as the other hook records (H-5)."""

    __slots__ = ("copies", "destination", "keeps_links", "linked_from", "unknown")

    def __init__(self) -> None:
        self.copies: list[tuple[str, str]] = []
        self.linked_from: list[str] = []
        self.destination: str | None = None
        self.keeps_links = False
        self.unknown: str | None = None


def _remote(word: str) -> bool:
    """Whether an rsync operand names another host (``host:path``, ``rsync://``)."""
    head = word.split("/", 1)[0]
    return word.startswith("rsync://") or (":" in head and not word.startswith(("./", "/")))


def rsync_options(words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """``rsync``'s options among ``words`` (after its name) as it reads them: each ``-x``
    letter or ``--name`` in order, and the long ones given a value (``--backup-dir``,
    ``--suffix``) with their values."""
    _, options, valued = _rsync_words(words)
    return options, valued


def _rsync_words(words: list[str]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """rsync's plain operands, its options as read (each ``-x`` letter or ``--name``, in
    order, negations included) and the long options given a value, with their values."""
    operands: list[str] = []
    options: list[str] = []
    valued: dict[str, list[str]] = {}
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            operands.extend(words[at:])
            break
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            options.append(name)
            if name in _RSYNC_VALUED_LONG:
                if not equals and at < len(words):
                    value = words[at]
                valued.setdefault(name, []).append(value)
                at += 0 if equals else 1
        elif word.startswith("-") and word != "-":
            for index, letter in enumerate(word[1:], start=1):
                options.append(f"-{letter}")
                if letter in _RSYNC_VALUED_SHORT:
                    at += 0 if index + 1 < len(word) else 1
                    break
        else:
            operands.append(word)
    return operands, options, valued


def _rsync(words: list[str]) -> Synced:
    """Read ``rsync`` ``words`` (after its name)."""
    read = Synced()
    operands, options, valued = _rsync_words(words)
    keeps = following = relative = False
    for option in options:
        if option in ("-l", "--links", "-a", "--archive"):
            keeps = True
        elif option in ("--no-links", "--no-l", "--no-archive"):
            keeps = False
        elif option in ("-L", "--copy-links"):
            following = True
        elif option in ("--no-copy-links", "--no-L"):
            following = False
        elif option in ("-R", "--relative"):
            relative = True
        elif option in ("--no-relative", "--no-R"):
            relative = False
    read.keeps_links = keeps and not following
    if len(operands) < 2 or _remote(operands[-1]):
        return read  # a listing, or a copy to another host
    read.destination = operands[-1]
    read.linked_from = valued.get("--link-dest", [])
    sources = operands[:-1]
    if "--files-from" in valued or any(_remote(source) for source in sources):
        read.unknown = "names read from a list or another host"
    alone = len(sources) == 1
    for source in sources:
        if relative:
            read.copies.append((source, "path"))
        elif source.endswith(("/", "/.")) or source == ".":
            read.copies.append((source, "fills"))
        else:
            read.copies.append((source, "as" if alone else "into"))
    return read


def pax_options(words: list[str]) -> tuple[list[str], list[str], dict[str, str]]:
    """``pax`` ``words`` (after its name) as its ``getopt`` reads them: its option letters in
    order, its plain operands, and the last value of each option taking one (``-f FILE``,
    ``-fFILE``, ``-rf FILE``)."""
    letters: list[str] = []
    operands: list[str] = []
    values: dict[str, str] = {}
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            operands.extend(words[at:])
            break
        if not word.startswith("-") or word == "-":
            operands.append(word)
            continue
        for index, letter in enumerate(word[1:], start=1):
            letters.append(letter)
            if letter in _PAX_VALUED:
                glued = word[index + 1 :]
                values[letter] = glued or (words[at] if at < len(words) else "")
                at += 0 if glued else 1
                break
    return letters, operands, values


def _pax(words: list[str]) -> Synced:
    """Read ``pax`` ``words``: only ``-rw`` (read and write: a copy) copies a tree."""
    read = Synced()
    letters, operands, _ = pax_options(words)
    if not {"r", "w"} <= set(letters) or not operands:
        return read
    following = [letter for letter in letters if letter in "LHP"]
    read.keeps_links = not following or following[-1] != "L"
    read.destination = operands[-1]
    read.copies = [(source, "path") for source in operands[:-1]]
    if len(operands) == 1:
        read.unknown = "names read from its standard input"
    if "s" in letters:
        read.unknown = "names rewritten by -s"
    return read


def synced(command: str, words: list[str]) -> Synced:
    """What ``command`` (:data:`SYNCERS`) given ``words`` (after its name, expanded where
    known) copies and where (:class:`Synced`)."""
    return _pax(words) if command == "pax" else _rsync(words)
