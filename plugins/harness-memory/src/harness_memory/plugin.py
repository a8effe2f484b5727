"""Session start for a harness (P-1) that fails open (P-2).

``await start_session(...)`` asks the memory service for this Session's memory (A-9), puts it into
the harness's template and returns the system prompt, the Workspace key and a ``session_meta``
record. When the service is down, slow, refuses or answers nonsense, the Session still starts:
``{{MEMORY}}`` becomes empty, the key line reads ``(none — memory is off)`` and the record says
why. The memory location always comes from the service the harness is configured with (P-2a),
never from anything inside the Workspace.
"""

from __future__ import annotations

import logging
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import msgspec
from memory_core.errors import InvalidId
from memory_core.template import (
    OFF_KEY_VALUE,
    has_memory_placeholder,
    substitute,
)
from memory_core.wire import ScopeManifest, SessionDirectories, SessionStartResponse, WorkspaceKind

from harness_memory.client import DEFAULT_TIMEOUT_S, MemoryClient, MemoryClientError

__all__ = [
    "AGENT_ID_PLACEHOLDER",
    "APP_DATA_DIR_PLACEHOLDER",
    "DEFAULT_TEMPLATE",
    "MemoryStatus",
    "SessionMeta",
    "SessionStart",
    "start_session",
]

logger = logging.getLogger(__name__)

APP_DATA_DIR_PLACEHOLDER = "{{APP_DATA_DIR}}"
"""Harness placeholder: the service's app data dir, which the prompts' Directory lines name."""
AGENT_ID_PLACEHOLDER = "{{AGENT_ID}}"
"""Harness placeholder: the agent id, the other value the Directory lines need."""
UNKNOWN_DATA_DIR = "(unknown — memory service unavailable)"

DEFAULT_TEMPLATE = """\
{{MEMORY}}

# Environment
- App data dir: {{APP_DATA_DIR}}
- Agent id: {{AGENT_ID}}
- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
"""
"""The template when the harness configures none: the injection, then the values that the
prompts' ``<app_data_dir>/agents/<agent_id>/…`` Directory lines refer to (I-2, I-6)."""

_HARNESS_RE = re.compile(
    re.escape(APP_DATA_DIR_PLACEHOLDER) + "|" + re.escape(AGENT_ID_PLACEHOLDER)
)

MemoryStatus = Literal["injected", "not-injected", "off", "no-placeholder", "failed-open"]
"""How the Session's memory came out:

- ``injected``: the indexes are in the system prompt;
- ``not-injected``: the service injected nothing (the agent's template on the service lacks
  ``{{MEMORY}}``);
- ``off``: Memory is switched off for the agent (I-5);
- ``no-placeholder``: the harness's template has no ``{{MEMORY}}`` (I-5);
- ``failed-open``: the service could not be used; ``error`` says why (P-2).
"""


class SessionMeta(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The record of one Session start (P-1), for the harness's session log.

    ``system_prompt`` is the assembled prompt exactly as returned; ``duration_ms`` the wall time
    of the whole start in milliseconds; ``error``/``error_kind`` say why memory failed open
    (``unreachable``, ``timeout``, ``rejected``, ``bad-answer``, ``invalid-id``, ``internal``);
    ``manifests`` what each scope's injection kept and dropped (I-4) and ``truncated`` the scopes
    whose index was cut; ``workspace_memory_key`` is the value the key line rendered (I-2).
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


class SessionStart(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """What :func:`start_session` returns: prompt, key (None without a scope), the record."""

    system_prompt: str
    key: str | None
    session_meta: SessionMeta


async def start_session(
    *,
    service_url: str,
    token: str | None,
    project: str,
    agent: str,
    workspace: str,
    template: str,
    session_id: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> SessionStart:
    """Start a Session's memory: call A-9, substitute the template, record what happened (P-1).

    ``service_url`` and ``token`` come from the harness's own settings (P-2a); ``workspace`` is
    the Session's Workspace path (made absolute against the
    process's working directory); ``template`` the agent's system prompt template;
    ``timeout_s`` the seconds the service may take before memory fails open. Besides
    ``{{MEMORY}}`` and ``{{WORKSPACE_MEMORY_KEY}}`` (I-1, I-2) the harness placeholders
    ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` are filled, so an Environment section can give the
    model the values its Directory lines need. Never raises for a service problem (P-2): the
    result then carries no memory and ``session_meta.status == "failed-open"``.
    """
    workspace = _absolute(workspace)
    started_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    clock = time.perf_counter()
    has_placeholder = has_memory_placeholder(template)
    answer: SessionStartResponse | None = None
    error: str | None = None
    error_kind: str | None = None
    try:
        async with MemoryClient(service_url, token=token, timeout=timeout_s) as client:
            answer = await client.session_start(project, agent, workspace, session_id=session_id)
    except MemoryClientError as failure:
        error, error_kind = str(failure), failure.reason
    except InvalidId as failure:
        error, error_kind = f"harness memory settings: {failure}", "invalid-id"
    except Exception as failure:  # P-2: no fault of the memory side may stop a Session
        logger.exception("memory Session start failed unexpectedly")
        error, error_kind = f"unexpected error: {failure!r}", "internal"
    if error is not None:
        logger.warning("memory failed open for %s/%s: %s", project, agent, error)

    memory = answer.memory if answer is not None and answer.injected else ""
    key_value = answer.workspace_memory_key if answer is not None else OFF_KEY_VALUE
    data_dir = answer.directories.app_data_dir if answer is not None else UNKNOWN_DATA_DIR
    harness_values = {APP_DATA_DIR_PLACEHOLDER: data_dir, AGENT_ID_PLACEHOLDER: agent}
    prepared = _HARNESS_RE.sub(lambda match: harness_values[match.group(0)], template)
    system_prompt = substitute(prepared, memory, key_value)
    manifests = list(answer.manifests) if answer is not None else []
    meta = SessionMeta(
        project=project,
        agent=agent,
        workspace=workspace,
        session_id=session_id,
        service_url=service_url,
        started_at=started_at,
        duration_ms=round((time.perf_counter() - clock) * 1000, 1),
        status=_status(answer, has_placeholder),
        error=error,
        error_kind=error_kind,
        enabled=answer.enabled if answer is not None else None,
        injected=bool(memory) and has_placeholder,
        template_has_memory=has_placeholder,
        workspace_kind=answer.workspace_kind if answer is not None else None,
        key=answer.key if answer is not None else None,
        workspace_memory_key=key_value,
        directories=answer.directories if answer is not None else None,
        manifests=manifests,
        truncated=[m.scope for m in manifests if m.cap_fired != "none"],
        system_prompt=system_prompt,
    )
    return SessionStart(system_prompt=system_prompt, key=meta.key, session_meta=meta)


def _absolute(workspace: str) -> str:
    """Make ``workspace`` absolute against the working directory: the service takes no other."""
    return str(Path(workspace).absolute())


def _status(answer: SessionStartResponse | None, has_placeholder: bool) -> MemoryStatus:
    if answer is None:
        return "failed-open"
    if not answer.enabled:
        return "off"
    if not has_placeholder:
        return "no-placeholder"
    return "injected" if answer.injected and answer.memory else "not-injected"
