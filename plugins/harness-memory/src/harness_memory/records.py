"""Per-Session records in the harness's state dir: ``<state_dir>/sessions/<session id>.json``.

The Session-start hook writes the Session's :class:`~harness_memory.session.SessionMeta` there;
the pre-write hook reads it back to learn the memory root and the Session's key for the guard
(P-3) without asking the service again. The state dir belongs to the harness (P-2a), never to the
Workspace. Writes are atomic (unique temp file, fsync, ``os.replace``) so a reader sees the old
record or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time
from pathlib import Path

import msgspec
from memory_core.atomic import atomic_write_bytes

from harness_memory.session import SessionMeta

__all__ = ["RECORD_MAX_AGE_S", "read_record", "record_path", "write_record"]

RECORD_MAX_AGE_S = 30 * 24 * 3600
"""Records older than this (seconds since last write) are removed when a new one is written."""

_SAFE_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(SessionMeta)


def record_path(state_dir: Path, session_id: str) -> Path:
    """Return the record file of ``session_id``; an id unfit for a file name is hashed first."""
    name = session_id if _SAFE_ID_RE.fullmatch(session_id) else _digest(session_id)
    return state_dir / "sessions" / f"{name}.json"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def write_record(state_dir: Path, session_id: str, meta: SessionMeta) -> Path:
    """Write ``meta`` atomically as the record of ``session_id``; prune stale records.

    Raises ``OSError`` when the state dir cannot be written.
    """
    path = record_path(state_dir, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, _ENCODER.encode(meta), mode=0o600)
    _prune(path.parent, keep=path)
    return path


def read_record(state_dir: Path, session_id: str) -> SessionMeta | None:
    """Return the record of ``session_id``, or None when there is none or it is unreadable."""
    try:
        raw = record_path(state_dir, session_id).read_bytes()
    except OSError:
        return None
    try:
        return _DECODER.decode(raw)
    except msgspec.DecodeError:
        return None


def _prune(directory: Path, *, keep: Path) -> None:
    """Remove records not written for :data:`RECORD_MAX_AGE_S`; best effort, never raises."""
    cutoff = time.time() - RECORD_MAX_AGE_S
    with contextlib.suppress(OSError):
        for entry in directory.iterdir():
            if entry == keep or entry.suffix not in {".json", ".tmp"}:
                continue
            with contextlib.suppress(OSError):
                if entry.stat().st_mtime < cutoff:
                    entry.unlink()
