"""Which entries of a scope folder are memory, and how many bytes of each count (V-1, R-1).

A scope's memory is exactly its index ``MEMORY.md``, its Workspace marker ``.workspace`` (the
scope's identity, K-5) and its topic files (names passing K-7); never temp files, ``.kept-*``
copies, locks, folders or anything else. The history records these files, and a machine's
local copy sends exactly these (R-1), each up to its cap: :data:`TOPIC_CAP` (1 MiB, the read cap of
T-2) for a topic file and the marker, :data:`INDEX_CAP` (16 MiB, the most the service rewrites)
for the index. Importing this module costs no YAML parser (a hook process uses it, H-5).

>>> [is_scope_file(name) for name in ("MEMORY.md", ".workspace", "uv.md", ".x.md.tmp", "a.txt")]
[True, True, True, False, False]
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from memory_core import layout
from memory_core.errors import InvalidId
from memory_core.keys import check_topic_file_name

__all__ = [
    "INDEX_CAP",
    "TOPIC_CAP",
    "SyncRefusal",
    "fold_name",
    "is_scope_file",
    "is_topic_file",
    "scope_file_cap",
    "sync_refusal",
]

TOPIC_CAP = 1024 * 1024
"""Bytes of a topic file read at most (T-2); also ``memory_core.topics.READ_CAP_BYTES``."""
INDEX_CAP = 16 * 1024 * 1024
"""Bytes of an index the service rewrites, records and takes from a machine at most."""


@functools.lru_cache(maxsize=65_536)
def is_scope_file(name: str) -> bool:
    """Whether a scope entry named ``name`` is memory (see the module docstring)."""
    if name in (layout.INDEX_FILE, layout.MARKER_FILE):
        return True
    try:
        check_topic_file_name(name)
    except InvalidId:
        return False
    return True


def is_topic_file(name: str) -> bool:
    """Whether a scope entry named ``name`` is a topic file: memory other than the index and
    the Workspace marker (K-7)."""
    return name not in (layout.INDEX_FILE, layout.MARKER_FILE) and is_scope_file(name)


def scope_file_cap(name: str) -> int:
    """The most bytes of the memory file ``name`` that are recorded or sent."""
    return INDEX_CAP if name == layout.INDEX_FILE else TOPIC_CAP


@dataclass(frozen=True, slots=True)
class SyncRefusal:
    """Why a scope entry is never synced (R-1): ``why`` as the service's push outcome says it
    (``it is larger than 1048576 bytes``), ``remedy`` the step that makes it one that syncs."""

    why: str
    remedy: str


def sync_refusal(name: str, *, regular: bool, size: int | None) -> SyncRefusal | None:
    """Why the scope entry ``name`` is no memory file a push may bring (R-1), or None when it
    is one: a name that is no memory file's (K-7), an entry that is no regular file
    (``regular`` False: a symlink, a FIFO, a submodule; ``size`` None: its size is unknown),
    a file over its cap (``size`` in bytes, :func:`scope_file_cap`). One rule for the service,
    which leaves such an entry of a push out, and a machine's copy, which keeps it unsent.

    >>> sync_refusal("notes.txt", regular=True, size=3).why
    'it is no memory file (MEMORY.md, .workspace or a topic file name, K-7)'
    >>> sync_refusal("uv.md", regular=True, size=3) is None
    True
    """
    if not is_scope_file(name):
        return SyncRefusal(
            "it is no memory file (MEMORY.md, .workspace or a topic file name, K-7)",
            "give it a topic file's name (like notes.md, no folder) to sync it",
        )
    if not regular or size is None:
        return SyncRefusal("it is no regular file", "put the file itself in its place to sync it")
    cap = scope_file_cap(name)
    if size > cap:
        return SyncRefusal(
            f"it is larger than {cap} bytes",
            f"split it into topic files of {cap} bytes at most to sync it",
        )
    return None


def fold_name(name: str) -> str:
    """The form under which a case-insensitive, normalising file system (APFS, NTFS) finds
    ``name``: two names with the same form are *twins*, one file there.

    >>> fold_name("Café.md") == fold_name("cafe\u0301.MD")
    True
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())
