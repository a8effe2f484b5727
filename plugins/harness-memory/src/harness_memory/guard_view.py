"""Where a Session's record lives, and what the write guard reads of it (P-3).

A Session-start hook writes the Session's :class:`~harness_memory.records.SessionMeta` to
:func:`record_path`; the write guard, which runs before every file write, reads back only
:class:`GuardView`: the memory root the service reported, the Session's key and its Workspace.
msgspec decodes those fields of the record and skips the rest, so the guard's process loads
neither the wire DTOs nor the record's other types (H-5).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import msgspec
from memory_core import json_text

__all__ = ["GuardView", "UnreadableRecord", "holds_a_record", "read_guard_view", "record_path"]

_SAFE_ID_RE = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"


class UnreadableRecord(Exception):
    """A Session's record is there but cannot be read, or is no record (P-3: a read error never
    widens access, so the guard refuses what it would judge by it); ``str()`` is the user's
    reason, naming the file and the fix."""


class _Directories(msgspec.Struct, frozen=True, rename="camel"):
    """The part of :class:`memory_core.wire.SessionDirectories` the guard reads."""

    memory_root: str


class _GuardFields(msgspec.Struct, frozen=True, rename="camel"):
    """The fields of a :class:`~harness_memory.records.SessionMeta` record the guard reads."""

    workspace: str
    key: str | None
    directories: _Directories | None


class GuardView(msgspec.Struct, frozen=True):
    """What the write guard needs of a record (P-3): the memory root the service reported, the
    Session's Workspace key (None without a Workspace scope) and its Workspace path."""

    memory_root: str
    key: str | None
    workspace: str


_DECODER = msgspec.json.Decoder(_GuardFields)


def record_path(state_dir: Path, session_id: str) -> Path:
    """Return the record file of ``session_id``; an id unfit for a file name is hashed first."""
    name = session_id if re.fullmatch(_SAFE_ID_RE, session_id) else _digest(session_id)
    return state_dir / "sessions" / f"{name}.json"


def _digest(text: str) -> str:
    import hashlib  # here: a harness's Session ids are fit for a file name (H-5)

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def read_guard_view(state_dir: Path, session_id: str) -> GuardView | None:
    """The guard's view of the record of ``session_id``; None when there is none, or when it
    names no memory root (memory failed open). Raises :class:`UnreadableRecord` when the
    record is there but cannot be opened or read (a folder in its place, no permission, an I/O
    error) or is not a record (torn, malformed JSON, a field missing): the memory root and the
    Workspace key it holds are then unknown, and knowing none must not open every path."""
    path = record_path(state_dir, session_id)
    try:
        fields = json_text.decode(_DECODER, path.read_bytes())
    except FileNotFoundError:
        return None
    except OSError as error:
        raise UnreadableRecord(_unreadable(path, error.strerror or type(error).__name__)) from None
    except msgspec.DecodeError:
        raise UnreadableRecord(_unreadable(path, "not a Session record")) from None
    if fields.directories is None:
        return None
    return GuardView(fields.directories.memory_root, fields.key, fields.workspace)


def _unreadable(path: Path, why: str) -> str:
    """:class:`UnreadableRecord`'s reason for the record at ``path``."""
    return (
        f"the Session's record {path} cannot be read ({why}): start the Session again (its "
        "Session start writes the record anew; move away first what is no file in its place)"
    )


def holds_a_record(state_dir: Path) -> bool:
    """Whether ``state_dir`` holds any Session's record, or cannot be read to tell: a memory
    root may then be known to the guard, so a tool call it cannot read is refused (P-3: a read
    error never widens access). False only for a records folder that is absent or lists no
    record."""
    try:
        with os.scandir(state_dir / "sessions") as entries:
            return any(entry.name.endswith(".json") for entry in entries)
    except FileNotFoundError:
        return False
    except OSError:
        return True
