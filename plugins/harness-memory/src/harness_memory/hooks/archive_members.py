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
:data:`ARCHIVE_BYTES_CAP`) is unknown (None): the guard refuses it where its members could
reach the data dir (the home), and lets it through elsewhere, as before.

Listing reads the archive once, at most :data:`ARCHIVE_BYTES_CAP` bytes (H-5).
"""

from __future__ import annotations

import os
import posixpath
import stat

__all__ = ["ARCHIVE_BYTES_CAP", "MEMBERS_CAP", "ArchiveLinks", "archive_operand", "member_places"]

MEMBERS_CAP = 5_000
"""The most members an archive may hold for the guard to judge each (the guard's own cap on
paths, :data:`~harness_memory.hooks.guarding.PATHS_CAP`)."""
ARCHIVE_BYTES_CAP = 16 * 1024 * 1024
"""The largest archive file listed (a compressed one is read whole to list it)."""
_LINK_DEPTH = 8
"""How many symlink members one member's place is followed through."""


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
    if command == "unzip":
        skip = False
        for word in words:
            if skip:
                skip = False
                continue
            if word.startswith("-"):
                skip = word in ("-d", "-P", "-x")
                continue
            return word
        return None
    for at, word in enumerate(words):
        following = words[at + 1] if at + 1 < len(words) else None
        if word.startswith("--file"):
            return word.partition("=")[2] or following
        bundle = word[1:] if word.startswith("-") and not word.startswith("--") else ""
        if at == 0 and not word.startswith("-"):
            bundle = word  # the old style: ``tar xzf a.tgz``
        if "f" in bundle:
            glued = bundle[bundle.index("f") + 1 :]
            return glued or following
    return None


def member_places(command: str, archive: str, folder: str, links: ArchiveLinks) -> list[str] | None:
    """The places (absolute) the members of ``archive`` land when ``command`` (``tar`` or
    ``unzip``) unpacks it into ``folder``, each followed through the symlink members before
    it, which are added to ``links``; a symlink member's place is given too. ``..`` parts and
    a leading ``/`` are dropped as both programs drop them. None when it cannot be listed."""
    if archive == "-":
        return None
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
    folder = os.path.realpath(folder)  # the kernel follows ``lnk`` before its ``..``
    places: list[str] = []
    for name, target, hard in listed:
        parts = [part for part in name.split("/") if part not in ("", ".", "..")]
        if not parts:
            continue
        place = links.landing(posixpath.normpath(posixpath.join(folder, *parts)))
        places.append(place)
        if target is None:
            continue
        if hard:  # a hard link to another member: that name, below the folder
            kept = [part for part in target.split("/") if part not in ("", ".", "..")]
            places.append(links.landing(posixpath.join(folder, *kept)) if kept else folder)
            continue
        pointed = posixpath.join(posixpath.dirname(place), target)
        links.links[place] = posixpath.normpath(pointed)
    return places


def _tar_members(archive: str) -> list[tuple[str, str | None, bool]] | None:
    """A tar archive's members (name, link target or None, whether a hard link); None when
    ``tarfile`` cannot read it (another format, a compression it lacks, a damaged one)."""
    import tarfile  # only where an archive is unpacked (H-5)

    found: list[tuple[str, str | None, bool]] = []
    try:
        with tarfile.open(archive, "r:*") as opened:
            for member in opened:
                if len(found) >= MEMBERS_CAP:
                    return None
                target = member.linkname if member.issym() or member.islnk() else None
                found.append((member.name, target, member.islnk()))
    except (tarfile.TarError, OSError, EOFError, ValueError):
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
