"""Per-Session records in the harness's state dir: ``<state_dir>/sessions/<session id>.json``.

The Session-start hook writes the Session's :class:`~harness_memory.session.SessionMeta` there;
the pre-write hook reads it back to learn the memory root and the Session's key for the guard
(P-3) without asking the service again. The state dir belongs to the harness (P-2a), never to the
Workspace. Writes are atomic (a unique temp file beside the record, then ``os.replace``) so a
reader sees the old record or the new one, never half of one.

They are not fsynced: a record is a cache of one Session's start that the guard can do without
(it then falls back to ``HARNESS_MEMORY_ROOT``, or the next Session start writes a new one), so
a crash that loses it loses nothing that matters, while ``tempfile`` and two fsyncs cost a hook
process about as much as starting Python (H-5). A record the crash left empty or half-written
reads as no record.

The pre-write hook runs before every file write, so what it reads (:func:`read_guard_view`)
needs only the standard library's ``json`` (H-5); the full record type loads only to write one
or to read it whole.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from harness_memory.frozen import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

    from harness_memory.session import SessionMeta

__all__ = [
    "RECORD_MAX_AGE_S",
    "GuardView",
    "read_guard_view",
    "read_record",
    "record_path",
    "write_record",
]

RECORD_MAX_AGE_S = 30 * 24 * 3600
"""Records older than this (seconds since last write) are removed when a new one is written."""

_SAFE_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class GuardView(Frozen):
    """What the write guard needs of a record (P-3): the memory root the service reported, the
    Session's Workspace key (None without a Workspace scope) and its Workspace path."""

    __slots__ = ("key", "memory_root", "workspace")
    memory_root: str
    key: str | None
    workspace: str

    def __init__(self, memory_root: str, key: str | None, workspace: str) -> None:
        self._set(memory_root=memory_root, key=key, workspace=workspace)


def record_path(state_dir: Path, session_id: str) -> Path:
    """Return the record file of ``session_id``; an id unfit for a file name is hashed first."""
    name = session_id if _SAFE_ID_RE.fullmatch(session_id) else _digest(session_id)
    return state_dir / "sessions" / f"{name}.json"


def _digest(text: str) -> str:
    import hashlib  # loads OpenSSL: only for the rare id unfit for a file name (H-5)

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def write_record(state_dir: Path, session_id: str, meta: SessionMeta | dict[str, Any]) -> Path:
    """Write ``meta`` atomically as the record of ``session_id`` (mode 0600); prune stale records.

    ``meta`` is a :class:`~harness_memory.session.SessionMeta` or its JSON values (camelCase, as
    :func:`harness_memory.session_core.start_session_record` builds them). Raises ``OSError``
    when the state dir cannot be written (nothing is left behind then), ``UnicodeEncodeError``
    for a text that is no valid Unicode (a lone surrogate).
    """
    if isinstance(meta, dict):
        data = json.dumps(meta, ensure_ascii=False, separators=(",", ":")).encode()
    else:
        import msgspec

        data = msgspec.json.encode(meta)
    path = record_path(state_dir, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    _replace(path, data)
    _prune(path.parent, keep=path)
    return path


def _replace(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` atomically: a new temp file beside it, renamed over it."""
    temp = path.with_name(f".{path.stem}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        temp.replace(path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def read_record(state_dir: Path, session_id: str) -> SessionMeta | None:
    """Return the record of ``session_id``, or None when there is none or it is unreadable."""
    import msgspec

    from harness_memory.session import SessionMeta

    try:
        raw = record_path(state_dir, session_id).read_bytes()
    except OSError:
        return None
    try:
        return msgspec.json.decode(raw, type=SessionMeta)
    except msgspec.DecodeError:
        return None


def read_guard_view(state_dir: Path, session_id: str) -> GuardView | None:
    """The guard's view of the record of ``session_id``; None when there is none, when it is
    unreadable, or when it names no memory root (memory failed open)."""
    try:
        record = json.loads(record_path(state_dir, session_id).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    directories, key, workspace = (
        record.get("directories"), record.get("key"), record.get("workspace"),
    )  # fmt: skip
    root = directories.get("memoryRoot") if isinstance(directories, dict) else None
    if not isinstance(root, str) or not isinstance(workspace, str):
        return None
    return GuardView(root, key if isinstance(key, str) else None, workspace)


def _prune(directory: Path, *, keep: Path) -> None:
    """Remove records not written for :data:`RECORD_MAX_AGE_S`; best effort, never raises."""
    cutoff = time.time() - RECORD_MAX_AGE_S
    try:
        entries = list(directory.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry == keep or entry.suffix not in {".json", ".tmp"}:
            continue
        try:
            if entry.stat().st_mtime < cutoff:
                entry.unlink()
        except OSError:
            continue
