"""Where an unpacked archive's members land, read from the archive before it is unpacked (P-3).

What ``tar -x`` and ``unzip`` write is named in the archive, not in the command. Unpacked into
the home (or a folder above the data dir) a member ``share/…/memory/<other>/a.md`` reaches any
scope; unpacked anywhere, a member ``lnk/a.md`` lands through a symlink ``lnk`` an earlier call
left on the disk, or one an earlier member of this archive (or another unpacked in the same
command) makes: ``lnk -> /…/memory/<other>``. :func:`member_places` lists the archive (``tar``'s
own formats, compressed with gzip, bzip2 or xz; ``zip``) and gives each place a member lands,
followed through the symlink members before it (:class:`ArchiveLinks`), for the guard to judge
like any path; the disk's own symlinks are followed there. An archive it cannot list (stdin, a
format or compression it does not read, more than :data:`MEMBERS_CAP` members, larger than
:data:`ARCHIVE_BYTES_CAP` or unpacking to more than :data:`UNPACKED_BYTES_CAP`, members
renamed by ``tar --transform``) is unknown (None): its members may take any name below the
folder it is unpacked into, so the guard refuses it where a place below that folder could
reach memory: the folder holds the data dir (the home), or a symlink below it (or below the
folders such symlinks lead to), or a mount on it, could lead there (:func:`exit_reaching`).
A symlink member made by the archive itself is no way out: GNU tar makes one leading
elsewhere (absolute, or with ``..``) only after the last member, and unzip makes every one
after the last member.

Listing reads the archive once, at most :data:`ARCHIVE_BYTES_CAP` bytes unpacked to at most
:data:`UNPACKED_BYTES_CAP` (H-5).
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections import deque
from collections.abc import Callable
from typing import Any

from memory_core.keys import real_or_none

from harness_memory.hooks.option_words import option_values, read_options, table_for
from harness_memory.hooks.synced_trees import pax_options

__all__ = [
    "ARCHIVE_BYTES_CAP",
    "EXITS_SCAN_CAP",
    "MEMBERS_CAP",
    "UNPACKED_BYTES_CAP",
    "ArchiveLinks",
    "archive_operand",
    "exit_reaching",
    "junks_paths",
    "member_places",
    "own_names_option",
    "unlisted_unpack",
    "writes_members",
]

MEMBERS_CAP = 5_000
"""The most members an archive may hold for the guard to judge each (the guard's own cap on
paths, :data:`~harness_memory.hooks.path_refusal.PATHS_CAP`)."""
ARCHIVE_BYTES_CAP = 16 * 1024 * 1024
"""The largest archive file listed (a compressed one is read whole to list it)."""
UNPACKED_BYTES_CAP = 32 * 1024 * 1024
"""The most bytes a compressed tar archive is unpacked to while it is listed (its members'
headers and the data between them); past it the archive is unknown: a small ``.tar.gz`` of
zeros unpacks to any size."""
EXITS_SCAN_CAP = 4_096
"""The most folder entries :func:`exit_reaching` reads below the folder an archive the guard
cannot list is unpacked into (and below the folders its symlinks lead to); past it the
folder is taken as reaching memory, and the refusal says to unpack into a fresh folder (one
not there yet holds nothing). Measured: about 10 ms for 4,096 entries of a 45,000-entry tree
on this project's CI-sized machine, so a hook stays inside its 100 ms."""
_LINK_DEPTH = 8
"""How many symlink members one member's place is followed through."""


def exit_reaching(
    folder: str, reaches: Callable[[str], bool], mount_points: list[str]
) -> tuple[bool, str | None]:
    """Whether a member of an archive unpacked into ``folder`` (absolute) could land where
    ``reaches`` (a place, absolute, a folder ending in ``/``) says memory may be reached, and
    the first such place: ``folder`` itself, every symlink below it (GNU tar and unzip follow
    one already on the disk), every mount point of ``mount_points`` (this decision's mount
    table, absolute) at or below a folder read (a bind mount of another scope), and the same
    below every folder such a symlink leads to, each folder read once, nearest first.
    ``(True, None)`` past :data:`EXITS_SCAN_CAP` entries or when a folder in the way cannot be
    read but may be passed through (a read error never widens access); ``(False, None)`` when
    no place reaches. A folder not there yet holds nothing but itself, and one this account
    may not pass into (another's private folder in ``/tmp``) holds nothing it can unpack. At
    most :data:`EXITS_SCAN_CAP` entries read, each kind taken from the listing (no ``stat``
    that a file removed meanwhile could fail), each folder compared with the mount points
    once (H-5)."""
    if reaches(folder.rstrip("/") + "/"):
        return True, folder
    pending = deque([folder])
    seen: set[str] = set()
    read = 0
    while pending:
        current = pending.popleft()
        real = os.path.realpath(current)
        if real in seen:
            continue
        seen.add(real)
        for point in mount_points:
            if point.startswith(real.rstrip("/") + "/") and reaches(point + "/"):
                return True, point
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    read += 1
                    if read > EXITS_SCAN_CAP:
                        return True, None
                    # the kinds come with the listing (no ``stat``: an entry gone meanwhile
                    # stops nothing); a mount is judged from the table, not the disk
                    linked = entry.is_symlink()
                    if linked and reaches(entry.path + "/"):
                        return True, entry.path
                    if linked or entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except (FileNotFoundError, NotADirectoryError):
            continue  # not there (yet), or a symlink to a file: nothing lands below it
        except PermissionError:
            if os.access(current, os.X_OK):
                return True, None  # passable but unreadable: what lies below is unknown
            continue  # nor may the unpacking program pass into it (another account's)
        except OSError:
            return True, None
    return False, None


class ArchiveLinks:
    """The symlink members unpacked so far in one command: each place (absolute, as it lands)
    and what it points to (absolute). A plain class."""

    __slots__ = ("links",)

    def __init__(self) -> None:
        self.links: dict[str, str] = {}

    def landing(self, place: str) -> str:
        """``place`` (absolute, normalised) followed through the symlinks made so far."""
        for _ in range(_LINK_DEPTH):
            parts = place.split("/")
            for end in range(len(parts) - 1, 0, -1):
                prefix = "/".join(parts[:end])
                if prefix in self.links:
                    rest = "/".join(parts[end:])
                    place = posixpath.normpath(posixpath.join(self.links[prefix], rest))
                    break
            else:
                return place
        return place


def archive_operand(command: str, words: list[str]) -> str | None:
    """The archive an extracting ``tar`` (``-f X``, ``-xzfX``, ``--file=X``, the old style's
    ``xzf X``) or ``unzip`` (its first operand) given ``words`` reads; None when it reads its
    standard input or none is named."""
    read = read_options(words, table_for(command), () if command == "unzip" else ("-f", "--file"))
    if command == "unzip":
        return words[read.operands[0]] if read.operands else None
    archives = [value for name, _, value in read.values if name in ("-f", "--file")]
    return archives[-1] if archives else None


def unlisted_unpack(program: str, words: list[str]) -> tuple[str | None, list[str]] | None:
    """What an unpacking program whose archives are never listed here, given ``words``,
    unpacks: its archive (None for its standard input) and the folders it names to unpack
    into (none: its own folder); None when it unpacks nothing. ``program`` is ``7z``
    (``7z``, ``7za``, ``7zz``: ``x`` or ``e``, flat; ``-oDIR``; ``-si``), ``cpio`` (``-i``
    or ``--extract``; ``-D DIR``/``--directory=DIR``; ``-F``/``-I``/``--file=`` its archive,
    else standard input; ``-p DIR``, ``--pass-through``: the files named on its input copied
    into ``DIR``, links kept as links), ``unrar`` (``x`` or ``e``; ``-opDIR`` or a later
    operand ending in ``/`` its folder), ``jar`` (``x`` in its first word or
    ``--extract``; ``-C DIR`` too) or ``pax`` (``-r`` without ``-w``; ``-f FILE``, else
    standard input; its own folder)."""
    operands = [word for word in words if not word.startswith("-")]
    if program == "7z":
        if not operands or operands[0] not in ("x", "e"):
            return None
        archive = None if "-si" in words or len(operands) < 2 else operands[1]
        return archive, [word[2:] for word in words if word.startswith("-o") and len(word) > 2]
    if program == "unrar":
        if len(operands) < 2 or operands[0] not in ("x", "e"):
            return None
        named = [word[3:] for word in words if word.lower().startswith("-op") and len(word) > 3]
        named += [word for word in operands[2:] if word.endswith("/")]
        return operands[1], named[-1:]
    if program == "cpio":
        read = read_options(words, table_for("cpio"))
        if read.flags & {"p", "--pass-through"}:  # names on its input copied into a folder
            return None, [words[at] for at in read.operands[:1]] or ["."]
        if not read.flags & {"i", "--extract"}:
            return None
        archive = _valued("cpio", words, ("-F", "-I", "--file"))
        return archive, _all_valued("cpio", words, ("-D", "--directory"))
    if program == "pax":  # ``-r`` alone reads an archive (``-f FILE``, else its input)
        letters, _, values = pax_options(words)
        if "r" not in letters or "w" in letters:
            return None  # a listing, an archive written, or a copy (``synced_trees``)
        return values.get("f"), []
    if program == "jar":
        first = words[0] if words else ""
        if "--extract" not in words and not ("x" in first and not first.startswith("--")):
            return None
        rest = [word for word in words[1:] if not word.startswith("-")]
        archive = _valued("jar", words, ("-f", "--file"))
        archive = archive or (rest[0] if "f" in first and rest else None)
        named = _all_valued("jar", words, ("-C", "--dir"))
        return archive, [".", *named] if named else []  # its own folder, whichever JDK
    return None


def own_names_option(program: str, words: list[str]) -> str | None:
    """The option (or, for ``cpio``, the missing one) with which an unpacking ``program``
    whose archives are never listed here (``cpio``, ``jar``, ``7z``, ``unrar``), given
    ``words``, writes its members by their own absolute or ``..`` names, as ``tar -P`` and
    ``unzip -:`` do; None when it keeps them below its folder. GNU cpio's copy-in keeps
    them unless the last of ``--no-absolute-filenames``/``--absolute-filenames`` (each
    shortened as getopt takes it) is the first; the JDK's ``jar`` with ``-P`` (alone or in
    its first word's bundle: ``-xPf``, ``xPf``); ``pax -r`` always (measured: it writes
    ``/…`` and ``../…`` members where they name); 7-Zip with ``-spf``/``-spf2`` (fully
    qualified paths; its switches in any case); ``unrar`` with ``-ep3`` (full paths,
    restored where they were)."""
    if program == "cpio":
        keeps = True
        for word in words:  # one at a time: the last of the two wins
            flags = read_options([word], table_for("cpio")).flags if word[:2] == "--" else set()
            keeps = "--no-absolute-filenames" not in flags and (
                keeps or "--absolute-filenames" in flags
            )
        flags = read_options(words, table_for("cpio")).flags
        mode = "-p" if flags & {"p", "--pass-through"} else "-i"  # the mode it runs in
        return f"cpio {mode} without --no-absolute-filenames" if keeps else None
    if program == "pax":  # it has no option keeping them below its folder
        return "pax -r, which writes absolute and '..' names as they are"
    if program == "jar":
        first = words[0] if words else ""
        bundled = not first.startswith("--") and "P" in first
        return "jar -P" if bundled or "-P" in words else None
    switch = {"7z": "-spf", "unrar": "-ep3"}.get(program)
    if switch is None:
        return None
    return next((word for word in words if word.lower().startswith(switch)), None)


def _valued(program: str, words: list[str], options: tuple[str, ...]) -> str | None:
    """The last value ``options`` of ``program`` take among ``words`` (``-F FILE``,
    ``--file=FILE``), read by :func:`~harness_memory.hooks.option_words.option_values`."""
    found = _all_valued(program, words, options)
    return found[-1] if found else None


def _all_valued(program: str, words: list[str], options: tuple[str, ...]) -> list[str]:
    """Every value ``options`` of ``program`` take among ``words``: ``-D DIR``, ``-DDIR``,
    ``-iD DIR``, ``--directory DIR``, ``--dir=DIR``."""
    return [value for _, value in option_values(words, table_for(program), options) if value]


def junks_paths(command: str, words: list[str]) -> bool:
    """Whether ``unzip`` given ``words`` drops each member's folders (``-j``, alone or in a
    bundle): every member lands flat in the folder, named by its last part."""
    return command == "unzip" and "j" in read_options(words, table_for("unzip")).flags


def writes_members(command: str, words: list[str]) -> bool:
    """Whether ``command`` (an extracting ``tar``, ``unzip``, 7-Zip, ``cpio``, ``unrar``,
    ``jar``) given ``words`` writes the members to the disk: not ``unzip -l``, ``-p``, ``-t``,
    ``-v``, ``-z`` or ``-Z`` (it lists, tests or prints them), nor ``tar -O``/``--to-stdout``,
    ``7z e -so`` or ``cpio -t`` (they print or list them). Each read as the program's own
    parser reads its options (:func:`~harness_memory.hooks.option_words.read_options`): a
    letter inside a value (``cpio -idDvault``: ``-D vault``) is no option."""
    if command == "7z":
        return "-so" not in words
    if command not in ("cpio", "tar", "unzip"):
        return True
    flags = read_options(words, table_for(command)).flags
    printing = {"cpio": {"t", "--list"}, "tar": {"O", "--to-stdout"}}.get(command, set("lptvzZ"))
    return not flags & printing


def member_places(
    command: str, archive: str, folder: str, links: ArchiveLinks, words: list[str] | None = None
) -> list[str] | None:
    """The places (absolute) the members of ``archive`` land when ``command`` (``tar`` or
    ``unzip``) given ``words`` (its options and operands) unpacks it into ``folder``, each
    followed through the symlink members before it, which are added to ``links``; a symlink
    member's place is given too. ``..`` parts and a leading ``/`` are dropped as both
    programs drop them; ``tar --strip-components=N`` drops the first N parts of each name
    (and of a hard link's target; a name with no more parts is not unpacked), ``unzip -j``
    all but the last (every member lands flat in ``folder``). None when it
    cannot be listed, or ``tar`` renames its members (``--transform``, ``--xform``, bsdtar's
    ``-s``: where they land is not in the archive)."""
    strip = _stripped_parts(words or []) if command == "tar" else 0
    if archive == "-" or strip is None or command not in ("tar", "unzip"):
        return None  # 7-Zip's archives are never listed here
    flat = junks_paths(command, words or [])
    if command == "unzip" and not os.path.isfile(archive) and os.path.isfile(archive + ".zip"):  # noqa: PTH113
        archive += ".zip"
    try:
        info = os.stat(archive)  # noqa: PTH116
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > ARCHIVE_BYTES_CAP:
        return None
    listed = _zip_members(archive) if command == "unzip" else _tar_members(archive)
    if listed is None or len(listed) > MEMBERS_CAP:
        return None
    real = real_or_none(folder)  # the kernel follows ``lnk`` before its ``..``
    if real is None:  # a name on its way cannot be looked at: where members land is unknown
        return None
    folder = real
    places: list[str] = []
    for name, target, hard in listed:
        parts = [part for part in name.split("/") if part not in ("", ".", "..")][strip:]
        if not parts or (flat and name.endswith("/")):
            continue  # ``unzip -j`` makes no folder
        parts = parts[-1:] if flat else parts
        place = links.landing(posixpath.normpath(posixpath.join(folder, *parts)))
        places.append(place)
        if target is None:
            continue
        if hard:  # a hard link to another member: that name, below the folder
            kept = [part for part in target.split("/") if part not in ("", ".", "..")][strip:]
            places.append(links.landing(posixpath.join(folder, *kept)) if kept else folder)
            continue
        pointed = posixpath.join(posixpath.dirname(place), target)
        links.links[place] = posixpath.normpath(pointed)
    return places


_TRANSFORMS = ("--transform", "--xform")
_STRIP = "--strip-components"


def _stripped_parts(words: list[str]) -> int | None:
    """How many leading parts of each member's name ``tar`` given ``words`` drops
    (``--strip-components=N``, ``--strip-components N``, ``--strip=N``: GNU tar takes a long
    option shortened, read by :func:`~harness_memory.hooks.option_words.read_options`); None
    when it renames members (``--transform``/``--xform``, shortened too, or ``-s`` alone, in
    a bundle or in the old style's first word: bsdtar's substitution) or N is not a
    number."""
    read = read_options(words, table_for("tar"))
    if "s" in read.flags:
        return None
    strip = 0
    for name, _, value in read.values:
        if name in _TRANSFORMS or (name == _STRIP and not value.isdigit()):
            return None
        strip = int(value) if name == _STRIP else strip
    return strip


class _OverCap(Exception):
    """An archive unpacks to more than :data:`UNPACKED_BYTES_CAP` bytes while it is listed."""


class _CappedReader:
    """A file-like reader over ``stream`` (an archive file, or a decompressor reading one)
    giving at most ``cap`` bytes in all; one more raises :class:`_OverCap`."""

    __slots__ = ("_left", "_stream")

    def __init__(self, stream: Any, cap: int) -> None:
        self._stream = stream
        self._left = cap

    def read(self, size: int = -1) -> bytes:
        """At most ``size`` bytes (all left when negative) of the stream."""
        if size < 0 or size > self._left + 1:
            size = self._left + 1
        data: bytes = self._stream.read(size)
        self._left -= len(data)
        if self._left < 0:
            raise _OverCap
        return data


def _decompressed(raw: Any) -> Any:
    """A reader of the tar data in the archive file ``raw`` (opened at its start): a
    decompressor for gzip, bzip2 or xz (told by their first bytes), else ``raw`` itself."""
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        import gzip  # only for such an archive (H-5)

        return gzip.GzipFile(fileobj=raw, mode="rb")
    if head.startswith(b"BZh"):
        import bz2

        return bz2.BZ2File(raw)
    if head.startswith(b"\xfd7zXZ\x00"):
        import lzma

        return lzma.LZMAFile(raw)
    return raw


def _tar_members(archive: str) -> list[tuple[str, str | None, bool]] | None:
    """A tar archive's members (name, link target or None, whether a hard link); None when
    ``tarfile`` cannot read it (another format, a compression it lacks, a damaged one) or it
    unpacks to more than :data:`UNPACKED_BYTES_CAP` bytes before its last member (read as a
    stream, each member's data skipped by reading it, every byte counted)."""
    import tarfile  # only where an archive is unpacked (H-5)

    found: list[tuple[str, str | None, bool]] = []
    try:
        with open(archive, "rb") as raw:  # noqa: PTH123
            reader = _CappedReader(_decompressed(raw), UNPACKED_BYTES_CAP)
            with tarfile.open(fileobj=reader, mode="r|") as opened:  # type: ignore[call-overload]
                for member in opened:
                    if len(found) >= MEMBERS_CAP:
                        return None
                    target = member.linkname if member.issym() or member.islnk() else None
                    found.append((member.name, target, member.islnk()))
    except (_OverCap, tarfile.TarError, OSError, EOFError, ValueError):
        return None
    return found


def _zip_members(archive: str) -> list[tuple[str, str | None, bool]] | None:
    """A zip archive's members (name, symlink target or None, False); None when it cannot be
    read as one."""
    import zipfile  # only where an archive is unpacked (H-5)

    found: list[tuple[str, str | None, bool]] = []
    try:
        with zipfile.ZipFile(archive) as opened:
            for member in opened.infolist():
                if len(found) >= MEMBERS_CAP:
                    return None
                target = None
                if stat.S_ISLNK(member.external_attr >> 16):
                    if member.file_size > 4096:
                        return None  # no symlink target is that long
                    target = opened.read(member).decode("utf-8", "surrogateescape")
                found.append((member.filename, target, False))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return None
    return found
