"""Create a file only if it does not exist yet, atomically: never a torn file, never an overwrite.

Used where two writers must not clobber each other and the loser should simply learn that the
name is taken (a token name, a demo file copied next to an agent's own notes). The one
implementation is :func:`memory_core.atomic.create_new_bytes` (temp file, fsync, hard link),
which a machine's local copy uses too (R-2).
"""

from __future__ import annotations

from memory_core.atomic import create_new_bytes

__all__ = ["create_new_bytes"]
