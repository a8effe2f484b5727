"""What sits at the name of one of the plugin's own files (token, install record,
``.gitignore``) when it is a link, and how an install keeps it to give it back (H-7).

The plugin's own files are replaced by name, never written through a link found there
(:func:`~harness_memory.installers.files.change_target`): a symlink or a hard link at
``harness-memory/token`` (left by a copy, or planted by another account) is replaced by a new
``0600`` file, the other file keeping its bytes and mode — unless that file holds the very
token written (:func:`shared_token`): then the write is refused, since no new file at the name
could take the token from the other names. :func:`link_at` says what was there
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
    "keep_aside",
    "link_at",
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


def link_at(name: Path) -> LinkAtName | None:
    """What sits at ``name`` (not followed) when it is a symlink, or a file with other hard
    links; None for a plain file, nothing there, or a name that cannot be asked."""
    try:
        info = os.lstat(name)
        if stat.S_ISLNK(info.st_mode):
            pointed = name.readlink()
            return LinkAtName(f"a symlink to {pointed}", f"{pointed} stays as it is")
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        return LinkAtName(
            f"a hard link (one file of {info.st_nlink} names)", "its other names keep their bytes"
        )
    return None


_TOKEN_READ_MAX = 64 * 1024
"""The most of a hard-linked token file :func:`shared_token` reads (a token file holds one)."""


def shared_token(name: Path, token: str) -> str | None:
    """Why a token file at ``name`` cannot be given ``token``: it is a regular file with other
    hard links that holds that very token already (its text, white space stripped). A new file
    at ``name`` (what an install and ``token set`` write, :func:`keep_aside`) would leave the
    other names holding the token, with their mode, wherever they lie (a dotfiles checkout, a
    folder others read); no write at ``name`` can take it from them (H-7). None otherwise: a
    file of other bytes is replaced, its other names keep those and never get the token."""
    try:
        info = os.lstat(name)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink < 2 or info.st_size > _TOKEN_READ_MAX:
            return None
        held = name.read_bytes().decode("utf-8", "replace").strip()
    except OSError:
        return None
    if held != token.strip():
        return None
    return (
        f"{name} has {info.st_nlink} hard links and holds this very token: a new file at this "
        "name would leave the other names holding it, with their mode "
        f"({stat.S_IMODE(info.st_mode):04o}); remove them (`find / -xdev -samefile {name}` "
        "lists them), or this name, and run this again"
    )


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
