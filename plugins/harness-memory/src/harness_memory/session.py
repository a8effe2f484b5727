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

The work itself is :func:`harness_memory.session_core.start_session_record`, in plain JSON
values so that a hook process need not load msgspec (H-5); this module gives it its types.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec
from memory_core.wire import ScopeManifest, SessionDirectories, WorkspaceKind

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.sections import PromptSection
from harness_memory.session_core import (
    AGENT_ID_PLACEHOLDER,
    APP_DATA_DIR_PLACEHOLDER,
    DEFAULT_TEMPLATE,
    Started,
    start_session_record,
)

__all__ = [
    "AGENT_ID_PLACEHOLDER",
    "APP_DATA_DIR_PLACEHOLDER",
    "DEFAULT_TEMPLATE",
    "MemoryStatus",
    "SessionMeta",
    "SessionSection",
    "SessionStart",
    "WorkspaceSource",
    "session_start_of",
    "start_session",
    "start_session_sync",
]

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
    remote_sync: list[dict[str, Any]] | None = None
    """Remote mode (R-1): per scope synced, ``scope``, ``ok``, ``sent``, ``waiting``,
    ``missing`` and ``error`` (:class:`harness_memory.remote.SyncResult`); None otherwise."""


class SessionSection(msgspec.Struct, frozen=True, kw_only=True):
    """One run of :attr:`SessionStart.sections`: a :class:`~harness_memory.sections.PromptSection`
    as JSON (``kind`` is ``template``, ``prompt``, ``index`` or ``note``; ``scope`` names the
    index scope of ``index``/``note``)."""

    kind: Literal["template", "prompt", "index", "note"]
    text: str
    scope: str | None = None


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
    sections: list[SessionSection] = msgspec.field(default_factory=list)


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
    """:func:`start_session` without an event loop, for a shell or a blocking embedder (P-4).

    Same arguments, result and fail-open rules; blocks for at most about ``timeout_s`` per
    request to the service. (A hook process runs
    :func:`~harness_memory.session_core.start_session_record` itself, without msgspec: H-5.)
    """
    return session_start_of(
        start_session_record(
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
    )


def session_start_of(started: Started) -> SessionStart:
    """The typed :class:`SessionStart` of a Session started as JSON values
    (:func:`harness_memory.session_core.start_session_record`)."""
    meta = msgspec.convert(started.record, SessionMeta)
    return SessionStart(
        system_prompt=meta.system_prompt,
        key=meta.key,
        session_meta=meta,
        initial_prompt=meta.initial_prompt,
        sections=[_section(section) for section in started.sections],
    )


def _section(section: PromptSection) -> SessionSection:
    return SessionSection(kind=section.kind, text=section.text, scope=section.scope)
