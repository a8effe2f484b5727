"""The Session record (:class:`SessionMeta`) and its file in the harness's state dir.

A Session start (P-1) describes what happened in a :class:`SessionMeta`; a Session-start hook
writes it to ``<state_dir>/sessions/<session id>.json`` and the write guard's hook reads it back
(:mod:`harness_memory.guard_view`) to learn the memory root and the Session's key (P-3) without
asking the service again. The state dir belongs to the harness (P-2a), never to the Workspace.
A record is written with :func:`memory_core.atomic.atomic_write_bytes` (mode 0600, not fsynced),
so a reader sees the old record or the new one, never half of one. A crash of the machine may
leave it empty: the guard (:func:`harness_memory.guard_view.read_guard_view`) then reads a
record that cannot be read or decoded as a missing one when its settings name a memory root
(``--memory-root``: the key comes from the hook's ``cwd``, said in the log), and refuses every
call that may write when they name none (the record alone told where memory is; P-3).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal

import msgspec
from memory_core import json_text
from memory_core.wire import ScopeManifest, SessionDirectories, WorkspaceKind

from harness_memory.guard_view import record_path

__all__ = [
    "NOT_SYNCED",
    "RECORD_MAX_AGE_S",
    "MemoryStatus",
    "SessionMeta",
    "WorkspaceSource",
    "read_record",
    "record_path",
    "write_record",
]

NOT_SYNCED = "memory service not synced: "
"""What a remote-mode Session's ``error`` starts with when its sync failed short of an answer
(git's reason follows, R-2); ``harness-memory status`` says it once, in its own words."""

RECORD_MAX_AGE_S = 30 * 24 * 3600
"""Records older than this (seconds since last write) are removed when a new one is written."""

MemoryStatus = Literal[
    "injected", "not-injected", "off", "no-placeholder", "failed-open", "offline"
]
"""How the Session's memory came out:

- ``injected``: the indexes are in the system prompt;
- ``not-injected``: the service injected nothing (the agent's template on the service lacks
  ``{{MEMORY}}``);
- ``off``: Memory is switched off for the agent (I-5);
- ``no-placeholder``: the harness's template has no ``{{MEMORY}}`` (I-5);
- ``failed-open``: the service could not be used; ``error`` says why (P-2);
- ``offline``: the service was unreachable (``error`` says why) but the memory root is readable
  here, so the injection was assembled from the files, read-only (H-4).
"""

WorkspaceSource = Literal["harness", "draft"]
"""Where the Session's Workspace came from: the harness's argument, or the draft's pin (W-4)."""


class SessionMeta(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The record of one Session start (P-1), for the harness's session log and the guard.

    ``system_prompt`` is the assembled prompt exactly as returned; ``duration_ms`` the wall time
    of the whole start in milliseconds; ``error``/``error_kind`` say why memory failed open
    (``unreachable``, ``timeout``, ``rejected``, ``bad-answer``, ``invalid-id``,
    ``invalid-workspace``, ``internal``);
    ``manifests`` what each scope's injection kept and dropped (I-4) and ``truncated`` the scopes
    whose index was cut; ``workspace_memory_key`` is the value the key line rendered (I-2).

    Draft fields (A-12), all at their defaults for a Session without a draft: ``draft_id`` the
    draft asked for; ``initial_prompt`` its prompt, verbatim, when it was fetched;
    ``draft_error``/``draft_error_kind`` why it was not (``not-found`` for an expired or unknown
    draft, else the kinds above); ``workspace_source`` is ``draft`` when ``workspace`` is the
    path the draft pinned, ``harness`` when it is the one the harness passed.

    ``remote_sync`` (remote mode, R-1): what the Session start's sync did, one object per scope
    (``scope``, ``ok``, ``sent``, ``waiting``, ``missing``, ``error``, ``outcomes``, ``skipped``:
    :meth:`harness_memory.remote.SyncResult.as_json`); None outside remote mode.
    """

    project: str
    agent: str
    workspace: str
    session_id: str | None
    service_url: str
    started_at: str
    duration_ms: float
    status: MemoryStatus
    error: str | None
    error_kind: str | None
    enabled: bool | None
    injected: bool
    template_has_memory: bool
    workspace_kind: WorkspaceKind | None
    key: str | None
    workspace_memory_key: str
    directories: SessionDirectories | None
    manifests: list[ScopeManifest]
    truncated: list[str]
    system_prompt: str
    draft_id: str | None = None
    draft_error: str | None = None
    draft_error_kind: str | None = None
    workspace_source: WorkspaceSource = "harness"
    initial_prompt: str | None = None
    remote_sync: list[dict[str, Any]] | None = None


_DECODER = msgspec.json.Decoder(SessionMeta)


def write_record(state_dir: Path, session_id: str, meta: SessionMeta) -> Path:
    """Write ``meta`` atomically as the record of ``session_id`` (mode 0600); prune stale records.

    Not fsynced: the record lives as long as its Session and a crash of the machine ends the
    Session too; a record a crash left empty reads as a missing one to a guard given
    ``--memory-root`` and refuses the writes of one given none (see the module's text). Raises
    ``OSError`` when the state dir cannot be written (nothing is left behind then),
    ``UnicodeEncodeError`` for a text that is no valid Unicode (a lone surrogate).
    """
    from memory_core.atomic import atomic_write_bytes, make_dirs  # only a Session start writes

    path = record_path(state_dir, session_id)
    make_dirs(path.parent)  # the guard trusts these records: no other account may add one
    atomic_write_bytes(path, msgspec.json.encode(meta), mode=0o600, durable=False)
    _prune(path.parent, keep=path)
    return path


def read_record(state_dir: Path, session_id: str) -> SessionMeta | None:
    """Return the record of ``session_id``, or None when there is none or it is unreadable."""
    try:
        return json_text.decode(_DECODER, record_path(state_dir, session_id).read_bytes())
    except (OSError, msgspec.DecodeError):
        return None


def _prune(directory: Path, *, keep: Path) -> None:
    """Remove records (and leftover temp files) not written for :data:`RECORD_MAX_AGE_S`;
    best effort, never raises."""
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
