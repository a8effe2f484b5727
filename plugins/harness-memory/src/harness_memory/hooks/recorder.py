"""The post-write hook's recorder: a process of its own that asks the service to record the
scopes a tool call wrote as versions (V-1), so the hook itself exits at once (H-5).

:func:`spawn` starts ``python -P -m harness_memory.hooks.recorder`` with ``posix_spawn`` (no
``fork``: the hook's pages are not shared copy-on-write with a child while it exits), in a
session of its own (``setsid``: a harness that ends the hook's process group spares it), stdout
and stderr on ``/dev/null`` (the harness, which reads the hook's output to its end, is not held
by it) and the :class:`RecordJob` as JSON on its stdin (the token never on a command line).
``-P`` keeps the Workspace (the hook's working directory) off ``sys.path``; a hook started
isolated (``-I``, ``-X utf8``: every installed one) starts its recorder so too. The recorder runs at
``nice`` 10, so the hook's own exit and the harness go first on a busy machine, and gives up
quietly on any failure: the next Session start records what changed anyway.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import msgspec
from memory_core import json_text

from harness_memory.settings import HarnessSettings

__all__ = ["RECORD_TIMEOUT_S", "RecordJob", "spawn"]

RECORD_TIMEOUT_S = 30.0
"""Seconds the recorder waits for the service's answer. Nobody waits for the recorder, so a
record that takes long on a busy service still lands; past this it gives up."""


class RecordJob(msgspec.Struct, frozen=True, kw_only=True):
    """What the recorder records: ``scopes`` (scope keys) written by the tool ``tool`` of the
    Session ``session_id`` in ``harness`` (``claude-code``, ``codex`` or ``gemini``), with the
    hook's settings (the service, project, agent and token or token file)."""

    settings: HarnessSettings
    scopes: list[str]
    session_id: str | None
    harness: str
    tool: str | None


def spawn(job: RecordJob) -> None:
    """Start the recorder on ``job`` and return at once, without waiting for it. When the
    system cannot start it (no ``posix_spawn``, e.g. Windows; out of processes), nothing is
    recorded now: the next Session start records the change. Never raises."""
    payload = msgspec.json.encode(job, enc_hook=os.fspath)
    isolated = ["-I" if sys.flags.isolated else "-P"]  # as isolated as the hook (P-2a)
    isolated += ["-X", "utf8"] if sys.flags.utf8_mode else []
    command = [sys.executable, *isolated, "-m", __name__]
    null = os.devnull
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return
    try:
        os.posix_spawn(
            sys.executable,
            command,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, read_end, 0),
                (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0),
            ],
            setsid=True,
        )
        os.close(read_end)
        read_end = -1
        with os.fdopen(write_end, "wb") as pipe:  # far below a pipe's buffer: no wait
            write_end = -1
            pipe.write(payload)
    except (AttributeError, NotImplementedError, OSError):
        return
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)


def record(job: RecordJob) -> None:
    """The recorder's work: one ``POST …/memory/versions`` per scope; a failure (service down or
    refusing, a bad id or token file) ends it quietly."""
    from memory_core.errors import InvalidId
    from memory_core.wire import RecordRequest

    from harness_memory.client import MemoryClient
    from harness_memory.errors import MemoryClientError
    from harness_memory.settings import MissingSettingsError

    try:
        url, project, agent = job.settings.required()
        token = job.settings.bearer_token()  # --token-file is read here, never in the hook
        source = job.settings.token_source
        client = MemoryClient(
            url,
            token=token,
            timeout=RECORD_TIMEOUT_S,
            token_source=source,
            hooks=job.settings.hooks,
        )
        for scope in job.scopes:
            request = RecordRequest(
                scope=scope, session_id=job.session_id, harness=job.harness, tool=job.tool
            )
            client.record_write(project, agent, request)
    except (MemoryClientError, InvalidId, MissingSettingsError):  # a bad token file included
        return


def _path(kind: type, value: Any) -> Any:
    if kind is Path:
        return Path(value)
    raise NotImplementedError(kind)


def main() -> None:
    """``python -m harness_memory.hooks.recorder`` < a :class:`RecordJob` as JSON."""
    os.nice(10)
    try:
        decoder = msgspec.json.Decoder(RecordJob, dec_hook=_path)
        job = json_text.decode(decoder, sys.stdin.buffer.read())
    except msgspec.DecodeError:  # a ValidationError too
        return
    record(job)


if __name__ == "__main__":
    main()
