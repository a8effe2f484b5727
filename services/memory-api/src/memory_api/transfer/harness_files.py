"""Small readers shared by the coding agents' memory layouts (P-5): dates, text, folders.

Blocking (file reads).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from memory_core.decoding import decode_text

from memory_api.transfer.sources import Skipped, entry_kind, read_bytes

__all__ = ["file_date", "listing", "read_text", "walk_files"]


def file_date(path: Path) -> str | None:
    """The ISO 8601 date (UTC) ``path`` was last modified, or None when it cannot be read."""
    try:
        return datetime.fromtimestamp(os.lstat(path).st_mtime, UTC).date().isoformat()
    except OSError:
        return None


def read_text(path: Path) -> str | Skipped:
    """The text of the regular file ``path`` decoded as reading does (UTF-8, else its BOM's
    UTF-16, else cp1252, byte by byte), or why it is not read."""
    raw = read_bytes(path)
    if isinstance(raw, Skipped):
        return raw
    text, _ = decode_text(raw)
    return text


def listing(folder: Path) -> list[Path] | Skipped:
    """The entries of ``folder`` in name order, or why it cannot be listed."""
    try:
        return sorted(Path(entry.path) for entry in os.scandir(folder))
    except OSError as error:
        return Skipped(str(folder), f"cannot be listed ({error.strerror or error})")


def walk_files(folder: Path, skipped: list[Skipped]) -> Iterator[Path]:
    """Every regular file under ``folder`` (symlinks never followed), in name order, a folder's
    files where its name sorts; what cannot be read is added to ``skipped`` with the reason.

    The walk keeps its own stack of listings, so a tree of any depth (a few thousand nested
    folders fit in ``PATH_MAX``) is walked, never a ``RecursionError``; a folder too deep for
    the system to name is skipped by its listing (``File name too long``).
    """
    top = listing(folder)
    if isinstance(top, Skipped):
        skipped.append(top)
        return
    pending = [iter(top)]  # the listings being walked, the deepest last
    while pending:
        path = next(pending[-1], None)
        if path is None:
            pending.pop()
            continue
        kind = entry_kind(path)
        if isinstance(kind, Skipped):
            skipped.append(kind)
        elif kind == "file":
            yield path
        elif isinstance(inner := listing(path), Skipped):
            skipped.append(inner)
        else:
            pending.append(iter(inner))
