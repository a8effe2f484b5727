"""Session start for a harness (P-1) that fails open (P-2).

``await start_session(...)`` asks the memory service for this Session's memory (A-9), puts it into
the harness's template and returns the system prompt, the Workspace key and a ``session_meta``
record. When the service is down, slow, refuses or answers nonsense, the Session still starts:
``{{MEMORY}}`` becomes empty, the key line reads ``(none — memory is off)`` and the record says
why. The memory location always comes from the service the harness is configured with (P-2a),
never from anything inside the Workspace.

With ``draft_id`` the Session starts from a draft of the chat bridge (A-12): the draft's prompt
comes back verbatim as ``initial_prompt`` (the Session's first user message) and a Workspace the
draft pins (W-4) replaces the harness's. A draft that cannot be fetched fails open like memory:
the Session starts in the harness's Workspace without a first message and the record says why.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import msgspec
from memory_core.errors import InvalidId
from memory_core.template import OFF_KEY_VALUE, default_template, has_memory_placeholder
from memory_core.wire import (
    Draft,
    ScopeManifest,
    SessionDirectories,
    SessionStartResponse,
    WorkspaceKind,
    utc_timestamp,
)

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.errors import (
    MemoryClientError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
)
from harness_memory.sections import PromptSection, joined, render_sections

__all__ = [
    "AGENT_ID_PLACEHOLDER",
    "APP_DATA_DIR_PLACEHOLDER",
    "DEFAULT_TEMPLATE",
    "MemoryStatus",
    "SessionMeta",
    "SessionStart",
    "WorkspaceSource",
    "start_session",
    "start_session_sync",
]

logger = logging.getLogger(__name__)

DEFAULT_TEMPLATE = default_template()
"""The template when the harness configures none (:func:`memory_core.template.default_template`):
``{{MEMORY}}``, then the Environment section whose ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` are the
values the prompts' ``<app_data_dir>/agents/<agent_id>/…`` Directory lines refer to (I-2, I-6)."""

APP_DATA_DIR_PLACEHOLDER = "{{APP_DATA_DIR}}"
"""Harness placeholder: the service's app data dir, which the prompts' Directory lines name."""
AGENT_ID_PLACEHOLDER = "{{AGENT_ID}}"
"""Harness placeholder: the agent id, the other value the Directory lines need."""
UNKNOWN_DATA_DIR = "(unknown — memory service unavailable)"

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
    """The record of one Session start (P-1), for the harness's session log.

    ``system_prompt`` is the assembled prompt exactly as returned; ``duration_ms`` the wall time
    of the whole start in milliseconds; ``error``/``error_kind`` say why memory failed open
    (``unreachable``, ``timeout``, ``rejected``, ``bad-answer``, ``invalid-id``, ``internal``);
    ``manifests`` what each scope's injection kept and dropped (I-4) and ``truncated`` the scopes
    whose index was cut; ``workspace_memory_key`` is the value the key line rendered (I-2).

    Draft fields (A-12), all at their defaults for a Session without a draft: ``draft_id`` the
    draft asked for; ``initial_prompt`` its prompt, verbatim, when it was fetched;
    ``draft_error``/``draft_error_kind`` why it was not (``not-found`` for an expired or unknown
    draft, else the kinds above); ``workspace_source`` is ``draft`` when ``workspace`` is the
    path the draft pinned, ``harness`` when it is the one the harness passed.
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


class SessionStart(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """What :func:`start_session` returns: prompt, key (None without a scope), the record.

    ``initial_prompt`` is the draft's prompt, verbatim, for the harness to send as the
    Session's first user message; None without a draft or when it could not be fetched.
    ``sections`` is ``system_prompt`` split into template text, memory prompt text, index lines
    and notes (concatenated, they are it exactly), for a harness that must fit the prompt into
    limits of its own (H-1, :mod:`harness_memory.fitting`).
    """

    system_prompt: str
    key: str | None
    session_meta: SessionMeta
    initial_prompt: str | None = None
    sections: list[PromptSection] = msgspec.field(default_factory=list)


class _Fetched(msgspec.Struct):
    """What the calls to the service brought back, and why not when they failed."""

    workspace: str
    answer: SessionStartResponse | None = None
    draft: Draft | None = None
    error: str | None = None
    error_kind: str | None = None
    draft_error: str | None = None
    draft_error_kind: str | None = None
    offline: bool = False


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
    draft_id: str | None = None,
    memory_root: Path | None = None,
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

    ``draft_id`` (A-12) starts the Session from a draft: it is fetched first; its ``workspace``,
    when pinned, is the Session's Workspace instead of ``workspace``; its prompt is returned
    untouched (no placeholder is ever filled in it) as ``initial_prompt``. A draft that cannot
    be fetched (expired, unknown, malformed id, service down) never raises either: the Session
    starts in ``workspace`` without an initial prompt and ``session_meta.draft_error`` says why.
    When the draft fetch finds the service down or slow, memory fails open at once rather than
    waiting a second time.

    ``memory_root`` (from the harness's own settings) enables the offline fallback (H-4): when
    the service is unreachable or slow and that directory is readable here, the injection is
    assembled from its files (:mod:`harness_memory.offline`, read-only) and
    ``session_meta.status == "offline"``.

    The calls run in a worker thread (:func:`start_session_sync`), so the event loop is never
    blocked and no HTTP library is loaded.
    """
    import asyncio  # only embedders pay for the event loop machinery (H-5)

    return await asyncio.to_thread(
        start_session_sync,
        service_url=service_url,
        token=token,
        project=project,
        agent=agent,
        workspace=workspace,
        template=template,
        session_id=session_id,
        timeout_s=timeout_s,
        draft_id=draft_id,
        memory_root=memory_root,
    )


def start_session_sync(
    *,
    service_url: str,
    token: str | None,
    project: str,
    agent: str,
    workspace: str,
    template: str,
    session_id: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    draft_id: str | None = None,
    memory_root: Path | None = None,
) -> SessionStart:
    """:func:`start_session` without an event loop, for a hook process or a shell (P-4, H-5).

    Same arguments, result and fail-open rules; blocks for at most about ``timeout_s`` per
    request to the service.
    """
    started_at = utc_timestamp(datetime.now(UTC))
    clock = time.perf_counter()
    fetched = _fetch(
        service_url,
        token,
        timeout_s,
        (project, agent, _absolute(workspace), session_id, draft_id),
    )
    if memory_root is not None and fetched.error_kind in _OFFLINE_KINDS:
        _read_files(fetched, memory_root, project, agent)
    answer = fetched.answer
    memory_sections = answer.sections if answer is not None and answer.sections else None
    memory = answer.memory if answer is not None and answer.injected else ""
    key_value = answer.workspace_memory_key if answer is not None else OFF_KEY_VALUE
    data_dir = answer.directories.app_data_dir if answer is not None else UNKNOWN_DATA_DIR
    sections = render_sections(
        template,
        memory_sections if memory and memory_sections else memory,
        key_value,
        {APP_DATA_DIR_PLACEHOLDER: data_dir, AGENT_ID_PLACEHOLDER: agent},
    )
    meta = _record(
        fetched,
        (project, agent, session_id, service_url, draft_id),
        started_at=started_at,
        duration_ms=round((time.perf_counter() - clock) * 1000, 1),
        has_placeholder=has_memory_placeholder(template),
        memory=memory,
        system_prompt=joined(sections),
    )
    return SessionStart(
        system_prompt=meta.system_prompt,
        key=meta.key,
        session_meta=meta,
        initial_prompt=meta.initial_prompt,
        sections=sections,
    )


def _fetch(
    service_url: str,
    token: str | None,
    timeout_s: float,
    ids: tuple[str, str, str, str | None, str | None],
) -> _Fetched:
    """Fetch the draft (if any) and the Session start; every failure is recorded, none raised."""
    from harness_memory.transport import ServiceClient  # a record reader never needs it (H-5)

    project, agent, workspace, session_id, draft_id = ids
    fetched = _Fetched(workspace=workspace)
    try:
        client = ServiceClient(service_url, token=token, timeout=timeout_s)
        if draft_id is not None:
            try:
                fetched.draft = client.get_draft(project, agent, draft_id)
            except Exception as failure:  # A-12 fails open like memory (P-2)
                fetched.draft_error, fetched.draft_error_kind = _describe_draft(failure)
                logger.warning("Session starts without draft %s: %s", draft_id, fetched.draft_error)
                if isinstance(failure, ServiceUnreachableError | ServiceTimeoutError):
                    raise  # down or slow: memory fails open too, without a second wait
        if fetched.draft is not None and fetched.draft.workspace is not None:
            fetched.workspace = fetched.draft.workspace
        fetched.answer = client.session_start(
            project, agent, fetched.workspace, session_id=session_id
        )
    except Exception as failure:  # P-2: no fault of the memory side may stop a Session
        fetched.error, fetched.error_kind = _describe(failure)
        logger.warning("memory failed open for %s/%s: %s", project, agent, fetched.error)
    return fetched


_OFFLINE_KINDS = ("unreachable", "timeout")


def _read_files(fetched: _Fetched, memory_root: Path, project: str, agent: str) -> None:
    """H-4: the service is unreachable; stand in with the files under ``memory_root``."""
    from harness_memory.offline import OfflineUnavailableError, session_start_from_files

    try:
        fetched.answer = session_start_from_files(
            memory_root, project=project, agent=agent, workspace=fetched.workspace
        )
    except (OfflineUnavailableError, InvalidId, OSError) as error:
        logger.warning("memory files cannot stand in for the service: %s", error)
        return
    fetched.offline = True


def _record(
    fetched: _Fetched,
    ids: tuple[str, str, str | None, str, str | None],
    *,
    started_at: str,
    duration_ms: float,
    has_placeholder: bool,
    memory: str,
    system_prompt: str,
) -> SessionMeta:
    """The Session's ``session_meta`` record from what the service answered (P-1)."""
    project, agent, session_id, service_url, draft_id = ids
    answer, draft = fetched.answer, fetched.draft
    manifests = list(answer.manifests) if answer is not None else []
    return SessionMeta(
        project=project,
        agent=agent,
        workspace=fetched.workspace,
        session_id=session_id,
        service_url=service_url,
        started_at=started_at,
        duration_ms=duration_ms,
        status=_offline(_status(answer, has_placeholder), fetched.offline),
        error=fetched.error,
        error_kind=fetched.error_kind,
        enabled=answer.enabled if answer is not None else None,
        injected=bool(memory) and has_placeholder,
        template_has_memory=has_placeholder,
        workspace_kind=answer.workspace_kind if answer is not None else None,
        key=answer.key if answer is not None else None,
        workspace_memory_key=answer.workspace_memory_key if answer is not None else OFF_KEY_VALUE,
        directories=answer.directories if answer is not None else None,
        manifests=manifests,
        truncated=[m.scope for m in manifests if m.cap_fired != "none"],
        system_prompt=system_prompt,
        draft_id=draft_id,
        draft_error=fetched.draft_error,
        draft_error_kind=fetched.draft_error_kind,
        workspace_source="draft" if draft is not None and draft.workspace else "harness",
        initial_prompt=draft.prompt if draft is not None else None,
    )


def _describe(failure: Exception) -> tuple[str, str]:
    """Say why a call to the service failed: ``(error sentence, error kind)`` for the record."""
    if isinstance(failure, MemoryClientError):
        return str(failure), failure.reason
    if isinstance(failure, InvalidId):
        return f"harness memory settings: {failure}", "invalid-id"
    logger.error("memory Session start failed unexpectedly", exc_info=failure)
    return f"unexpected error: {failure!r}", "internal"


def _describe_draft(failure: Exception) -> tuple[str, str]:
    """Like :func:`_describe`; an expired or unknown draft (404) is kind ``not-found``."""
    if isinstance(failure, ServiceRejectedError) and failure.status == 404:
        return f"draft not found (expired or unknown): {failure.detail}", "not-found"
    if isinstance(failure, InvalidId):
        return str(failure), "invalid-id"
    return _describe(failure)


def _absolute(workspace: str) -> str:
    """Make ``workspace`` absolute against the working directory: the service takes no other."""
    return str(Path(workspace).absolute())


def _offline(status: MemoryStatus, offline: bool) -> MemoryStatus:
    return "offline" if offline and status in ("injected", "not-injected") else status


def _status(answer: SessionStartResponse | None, has_placeholder: bool) -> MemoryStatus:
    if answer is None:
        return "failed-open"
    if not answer.enabled:
        return "off"
    if not has_placeholder:
        return "no-placeholder"
    return "injected" if answer.injected and answer.memory else "not-injected"
