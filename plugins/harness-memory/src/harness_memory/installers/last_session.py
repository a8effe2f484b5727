"""``harness-memory status``: the last Session the installed hooks started, and what it got.

An install can only check what it writes and whom it calls (the memory root, the service, the
token); whether the harness then runs the hooks it was given (its version reads that settings
file, a repository does not switch them off) shows only when a Session starts. Every
Session-start hook leaves a record in its state dir (:mod:`harness_memory.records`): ``status``
reads the newest one of each installed harness and says when it started, in which Workspace
and whether its memory came in, or that no Session has started with these hooks yet, with the
step that tells the two apart: start one, and look again.
"""

from __future__ import annotations

import stat
from pathlib import Path

import msgspec
from memory_core import json_text

from harness_memory.installers.spec import flag_values
from harness_memory.records import NOT_SYNCED, SessionMeta

__all__ = ["COMMANDS", "last_session_lines"]

COMMANDS = {"claude-code": "claude", "codex": "codex", "gemini": "gemini"}
"""The command that starts a Session of each harness, as a user types it."""

_DECODER = msgspec.json.Decoder(SessionMeta)

_OUTCOMES = {
    "injected": "memory injected",
    "not-injected": "no memory injected: the agent's prompt template on the service has no "
    "{{MEMORY}}",
    "off": "no memory: Memory is switched off for the agent (its Memory tab)",
    "no-placeholder": "no memory injected: the harness's template has no {{MEMORY}}",
    "failed-open": "WITHOUT memory",
    "offline": "memory read from the files on this machine (the service did not answer)",
}
"""What each :data:`~harness_memory.records.MemoryStatus` of a record means to the user."""

_FROM_THE_COPY = "memory read from this machine's copy as it was last synced"
"""A remote-mode start's ``offline``: the injection read from the local copy (R-2)."""


def last_session_lines(label: str, harness: str, commands: list[str]) -> list[str]:
    """The ``status`` line about the newest Session record in the state dirs that ``commands``
    (the installed hook commands of ``harness``) name with ``--state-dir``; none when they name
    none (a managed install's hooks keep each account's state where that account is).

    A record that cannot be read counts as none; never raises.
    """
    state_dirs = {
        Path(value) for command in commands for value in flag_values(command, "--state-dir")
    }
    if not state_dirs:
        return []
    newest = _newest_record(state_dirs)
    if newest is None:
        start = COMMANDS.get(harness, harness)
        return [
            f"{label}: no Session has started with these hooks yet: start one (`{start}` in a "
            "project folder) and run `harness-memory status` again; if it still says this, "
            "the harness did not run the hooks (its version, or settings that switch them off)"
        ]
    return [
        f"{label}: last Session start {newest.started_at} in {newest.workspace} "
        f"({newest.project}/{newest.agent}): {_outcome(newest)}"
    ]


def _outcome(record: SessionMeta) -> str:
    """What the Session's memory came to, with the error that says why when there is one; a
    remote-mode start read from the local copy (R-2) names the copy, not a silent service: its
    service may have answered (a refused token), and the error says so."""
    if record.status == "offline" and record.remote_sync is not None:
        said, error = _FROM_THE_COPY, record.error
        if error:  # the record's "memory service not synced: …" said once
            said += f" (not synced with the service: {error.removeprefix(NOT_SYNCED)})"
        return said
    outcome = _OUTCOMES.get(record.status, record.status)
    return f"{outcome} ({record.error})" if record.error else outcome


def _newest_record(state_dirs: set[Path]) -> SessionMeta | None:
    """The newest readable Session record (by its file's mtime) under ``state_dirs``."""
    found: list[tuple[float, Path]] = []
    for state_dir in state_dirs:
        try:
            entries = list((state_dir / "sessions").iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.suffix != ".json":
                continue
            try:
                info = entry.stat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):  # a FIFO would hold status until someone writes it
                found.append((info.st_mtime, entry))
    for _, path in sorted(found, reverse=True):
        try:
            return json_text.decode(_DECODER, path.read_bytes())
        except (OSError, msgspec.DecodeError):
            continue
    return None
