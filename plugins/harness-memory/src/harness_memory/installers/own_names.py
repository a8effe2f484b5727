"""What sits at the name of one of the plugin's own files (token, install record,
``.gitignore``) when it is a link, and how an install keeps it to give it back (H-7).

The plugin's own files are replaced by name, never written through a link found there
(:func:`~harness_memory.installers.files.change_target`): a symlink or a hard link at
``harness-memory/token`` (left by a copy, or planted by another account) is replaced by a new
``0600`` file, the other file keeping its bytes and mode — unless that file is a hard link
holding the very token written (:func:`held_here`: a snapshot's ``cp -al``, ``rsync
--link-dest``): nothing needs writing then, and the file is kept, its mode narrowed in place
(:func:`narrow_in_place`), which its other names share; only another account's such file is
refused (:func:`shared_token`). :func:`link_at` says what was there
(for ``--dry-run`` and the install's output); :func:`keep_aside` keeps that very entry (the
link itself, not its text) under a hidden name in the same folder until every file is
written, so an install that fails midway puts it back (:func:`put_back`) and "nothing was
changed" holds for that name too.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LinkAtName",
    "drop",
    "drop_leftovers",
    "held_here",
    "keep_aside",
    "link_at",
    "narrow_in_place",
    "put_back",
    "shared_token",
]

KEPT_INFIX = ".harness-memory-kept-"
"""In the hidden name an entry is kept under: ``.<name>.harness-memory-kept-<8 hex digits>``."""


@dataclass(frozen=True, slots=True)
class LinkAtName:
    """A link at an own file's name: ``what`` it is (``"a symlink to /srv/x"``, ``"a hard link
    (one file of 2 names)"``) and what the replacement leaves as it was (``left``)."""

    what: str
    left: str

    def replaced(self, name: Path, mode: int) -> str:
        """The sentence saying the link at ``name`` gave way to a file of ``mode`` (``0o600``):
        ``"<name> was a symlink to /srv/x: replaced it by a file of its own (mode 0600); /srv/x
        stays as it is"``, as an install and ``token set`` say it."""
        own = f"replaced it by a file of its own (mode {mode:04o})"
        return f"{name} was {self.what}: {own}; {self.left}"


def link_at(name: Path, secrets: frozenset[str] = frozenset()) -> LinkAtName | None:
    """What sits at ``name`` (not followed) when it is a symlink, or a file with other hard
    links; None for a plain file, nothing there, or a name that cannot be asked. A symlink
    whose target holds one of ``secrets`` (the bearer token) and may be read by other users
    is said so: the replacement leaves that file as it is (reached through a link, it may be
    anyone's; the install never changes it), and the user is told to make it owner-only or
    remove it (H-7). A hard-linked file's other names keep their bytes and mode: said with a
    warning when other users may read them, since they may hold an earlier token."""
    try:
        info = os.lstat(name)
        if stat.S_ISLNK(info.st_mode):
            pointed = name.readlink()
            left = f"{pointed} stays as it is"
            held, mode = _held(name, secrets)
            if held and mode & 0o077:
                left += (
                    f"; WARNING: it holds the bearer token and other users may read it (mode "
                    f"{mode:04o}): the install never changes a file it reaches through a "
                    f"symlink (it may be anyone's): make it owner-only (`chmod 600 {pointed}`) "
                    "or remove it"
                )
            return LinkAtName(f"a symlink to {pointed}", left)
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        left = "its other names keep their bytes"
        if (mode := stat.S_IMODE(info.st_mode)) & 0o077:
            left += (
                f"; WARNING: other users may read them (mode {mode:04o}), so an earlier token, "
                f"if this file held one, stays readable there: remove them (`find / -xdev "
                f"-inum {info.st_ino}` lists them) or make them owner-only"
            )
        return LinkAtName(f"a hard link (one file of {info.st_nlink} names)", left)
    return None


def _held(name: Path, secrets: frozenset[str]) -> tuple[bool, int]:
    """``(whether the file at name, links followed, holds one of secrets, its mode)``."""
    if not secrets:
        return False, 0
    try:
        info = name.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > _TOKEN_READ_MAX:
            return False, 0
        held = name.read_bytes().decode("utf-8", "replace").strip()
    except OSError:
        return False, 0
    return held in {secret.strip() for secret in secrets if secret.strip()}, stat.S_IMODE(
        info.st_mode
    )


_TOKEN_READ_MAX = 64 * 1024
"""The most of a token file :func:`held_here` reads (a token file holds one)."""


def held_here(name: Path, token: str) -> os.stat_result | None:
    """The ``lstat`` of the token file ``name`` when it is a regular file (never a symlink)
    with other hard links that holds ``token`` already (its text, white space stripped): an
    install or ``token set`` keeps that very file (its other names are the same file, a
    snapshot's or a backup's hard link: nothing needs writing) and only narrows its mode
    (:func:`narrow_in_place`), which its other names share. None otherwise."""
    try:
        info = os.lstat(name)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink < 2 or info.st_size > _TOKEN_READ_MAX:
            return None
        held = name.read_bytes().decode("utf-8", "replace").strip()
    except OSError:
        return None
    return info if held == token.strip() else None


def shared_token(name: Path, token: str) -> str | None:
    """Why a token file at ``name`` cannot be given ``token``: it is a regular file with other
    hard links that holds that very token already (:func:`held_here`) and is another
    account's, so its mode cannot be narrowed and no new file at ``name`` could take the token
    from the other names (H-7). None otherwise: a file of the user's holding it is kept and
    narrowed, a file of other bytes replaced (its other names keep those, never the token)."""
    info = held_here(name, token)
    if info is None or not hasattr(os, "geteuid") or info.st_uid == os.geteuid():
        return None
    return (
        f"{name} has {info.st_nlink} hard links, holds this very token and is another "
        f"account's (uid {info.st_uid}), so its mode ({stat.S_IMODE(info.st_mode):04o}) is not "
        f"yours to change: remove its other names (`find / -xdev -samefile {name}` lists them) "
        "or ask its owner to, and run this again"
    )


def narrow_in_place(name: Path) -> tuple[int, int] | None:
    """Make the regular file ``name`` owner-only through a descriptor opened without
    following a link at its name (``O_NOFOLLOW``: ``fchmod``), so every hard link of it is
    narrowed too: ``(mode before, mode after)``, or None when it was owner-only already.
    Raises ``OSError`` (``ELOOP`` for a symlink put at its name)."""
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        before = stat.S_IMODE(os.fstat(fd).st_mode)
        if not before & 0o077:
            return None
        os.fchmod(fd, before & ~0o077)
        return before, stat.S_IMODE(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def keep_aside(name: Path) -> Path:
    """Keep the entry at ``name`` (a link: :func:`link_at`) under a hidden name in its folder
    and return that name: a second hard link of the entry itself (a symlink's own, not its
    target's), so ``name`` stays readable meanwhile; where the kernel refuses that (another
    account's file under ``fs.protected_hardlinks``, a system without hard links of symlinks)
    the entry is moved there instead. Raises ``OSError`` when neither can be done."""
    kept = name.with_name(f".{name.name}{KEPT_INFIX}{secrets.token_hex(4)}")
    try:
        os.link(name, kept, follow_symlinks=False)
    except (OSError, NotImplementedError):
        name.rename(kept)
    return kept


def put_back(kept: Path, name: Path) -> None:
    """Give ``name`` back the entry :func:`keep_aside` kept as ``kept`` (atomically, over what
    the install wrote there meanwhile, or where nothing is). Never raises: what cannot be put
    back stays under ``kept``."""
    with contextlib.suppress(OSError):
        kept.replace(name)


def drop(kept: Path) -> None:
    """Remove the entry kept as ``kept`` once the install is done (never raises)."""
    with contextlib.suppress(OSError):
        kept.unlink()


def drop_leftovers(name: Path) -> tuple[Path, ...]:
    """Remove the entries an install kept aside for ``name`` and never dropped (it stopped
    between :func:`keep_aside` and :func:`drop`: killed, the machine down), and return them.
    Only names of :func:`keep_aside`'s own pattern (``.<name>.harness-memory-kept-<8 hex>``)
    in ``name``'s folder, only regular files and symlinks (asked with ``lstat``, never
    followed: a symlink is removed, its target stays); a folder or anything else of that name
    stays, as does whatever cannot be asked or removed (never raises)."""
    pattern = re.compile(rf"\.{re.escape(name.name)}{re.escape(KEPT_INFIX)}[0-9a-f]{{8}}")
    try:
        entries = [entry for entry in os.scandir(name.parent) if pattern.fullmatch(entry.name)]
    except OSError:
        return ()
    dropped: list[Path] = []
    for entry in entries:
        try:
            kind = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISREG(kind) or stat.S_ISLNK(kind):
                leftover = Path(entry.path)
                leftover.unlink()  # a symlink's own entry, never its target
                dropped.append(leftover)
        except OSError:
            continue
    return tuple(dropped)
