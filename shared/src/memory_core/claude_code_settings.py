"""Claude Code's ``autoMemoryDirectory`` setting, taken as Claude Code takes it (P-5, H-6).

The setting moves Claude Code's auto memory out of ``<config dir>/projects/<folder>/memory/``.
Claude Code 2.1.332 accepts a value only when it is an absolute path or starts with ``~/``
(the rest joined to the home directory, and never leading out of it: ``~/..`` is refused); a
relative path, ``~`` alone, ``~user/…`` or a path holding NUL is ignored, and its memory stays
in the default folder. The service's import (which folder holds a Workspace's memory) and the
plugin's install (which folders hold notes) read the setting with this one rule, so neither
takes a folder Claude Code never writes.
"""

from __future__ import annotations

import posixpath
import unicodedata
from pathlib import Path

__all__ = ["auto_memory_directory"]


def auto_memory_directory(value: object, home: Path) -> Path | None:
    """The folder a settings value ``autoMemoryDirectory`` names, or None when Claude Code
    ignores it (not a string, empty, relative, ``~`` alone, ``~user/…``, leading out of the
    home with ``~/..``, a NUL, or shorter than three characters once normalised).

    ``home`` is the home directory ``~/`` stands for (the user's, or ``--home`` of an install).
    The path is normalised as Claude Code does (``.`` and ``..`` resolved in the text, trailing
    slashes dropped, Unicode NFC), never resolved on disk. Never raises.

    >>> auto_memory_directory("~/notes/memory/", Path("/home/ada"))
    PosixPath('/home/ada/notes/memory')
    >>> auto_memory_directory("notes/memory", Path("/home/ada")) is None
    True
    >>> auto_memory_directory("~/../bob/memory", Path("/home/ada")) is None
    True
    """
    if not isinstance(value, str) or not value or "\x00" in value:
        return None
    path = value
    if value.startswith(("~/", "~\\")):
        rest = value[2:]
        inside = posixpath.normpath(rest or ".")
        if inside in {".", ".."} or inside.startswith(("../", "..\\")):
            return None
        path = posixpath.join(str(home), rest)
    normal = posixpath.normpath(path).rstrip("/\\") if path.startswith("/") else ""
    if not normal.startswith("/") or len(normal) < 3:
        return None
    return Path(unicodedata.normalize("NFC", normal))
