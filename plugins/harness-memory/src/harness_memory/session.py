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

:func:`start_session_sync` is the same without an event loop (a shell, a hook process);
:func:`start_from_settings` starts it from a harness's settings (P-2a, P-4).
"""

from __future__ import annotations

import contextlib
import errno
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from memory_core.addresses import shown_url
from memory_core.errors import InvalidId, UnresolvablePath, UnseenName
from memory_core.keys import real_workspace_path
from memory_core.rules import template_placeholder_problem, workspace_path_problem
from memory_core.template import (
    AGENT_ID_PLACEHOLDER,
    APP_DATA_DIR_PLACEHOLDER,
    MEMORY_PLACEHOLDER,
    OFF_KEY_VALUE,
    has_memory_placeholder,
)
from memory_core.wire import Draft, SessionStartResponse, utc_timestamp

from harness_memory.advice import ANY_HOOKS, Hooks
from harness_memory.client import MemoryClient
from harness_memory.errors import (
    MemoryClientError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
)
from harness_memory.records import NOT_SYNCED, MemoryStatus, SessionMeta
from harness_memory.sections import PromptSection, joined, render_sections
from harness_memory.settings import (
    DEFAULT_TEMPLATE,
    DEFAULT_TIMEOUT_S,
    HarnessSettings,
    TemplateUnreadableError,
)

if TYPE_CHECKING:
    import logging

    from harness_memory.remote import RemoteCopy, SyncResult

__all__ = [
    "DEFAULT_TEMPLATE",
    "UNKNOWN_DATA_DIR",
    "SessionStart",
    "start_from_settings",
    "start_session",
    "start_session_sync",
    "template_problem",
]


def _logger() -> logging.Logger:
    """This module's logger; ``logging`` is imported only when a start has something to say
    (memory failed open, a draft or template is missing): a hook process's ordinary start
    spares its import (H-5). The ``harness-memory`` command shows the records on stderr."""
    import logging

    return logging.getLogger(__name__)


UNKNOWN_DATA_DIR = "(unknown — memory is off for this Session)"
"""What ``{{APP_DATA_DIR}}`` becomes when memory failed open: the service down, or one that
refused the token or the agent (401, 404) — not "unavailable", which sent a person whose token
was wrong to look at a service that was up."""

_OFFLINE_KINDS = ("unreachable", "timeout")


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
    the Session's Workspace path (made absolute against the process's working directory);
    ``template`` the agent's system prompt template; ``timeout_s`` the seconds each request to
    the service may take before memory fails open. Besides ``{{MEMORY}}`` and
    ``{{WORKSPACE_MEMORY_KEY}}`` (I-1, I-2) the harness placeholders ``{{APP_DATA_DIR}}`` and
    ``{{AGENT_ID}}`` are filled, so an Environment section can give the model the values its
    Directory lines need. Never raises for a service problem (P-2): the result then carries no
    memory and ``session_meta.status == "failed-open"``.

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

    The blocking calls run in a worker thread (:func:`start_session_sync`), so the event loop is
    never blocked.
    """
    import asyncio  # only an async harness runs an event loop; a hook process never does (H-5)

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
    local_copy: RemoteCopy | None = None,
    sync_since: float | None = None,
    token_source: str | None = None,
    say: bool = True,
    hooks: Hooks = ANY_HOOKS,
) -> SessionStart:
    """:func:`start_session` without an event loop, for a shell, a hook or a blocking embedder.

    Same arguments, result and fail-open rules; blocks for at most about ``timeout_s`` per
    request to the service (two with a draft).

    With ``local_copy`` (remote mode, R-1) the Session's scopes (the user scope and the Workspace's,
    keyed from its path on this machine) are synced into that copy first and the injection is read
    from the copy (:mod:`harness_memory.offline`): status ``injected``, or ``offline`` with the
    reason when the service could not be reached (the copy as it is, R-2; the key line still names
    the Workspace scope); ``session_meta.remote_sync`` says what each scope's sync did;
    ``sync_since`` is :meth:`~harness_memory.remote.RemoteCopy.sync`'s ``fresh_since`` (a scope
    synced since then, by another hook entry of this Session, is read as that sync left it).
    ``token_source`` says where ``token`` came from (``--token``, ``--token-file PATH`` …): a
    refusal of it names that place. ``say`` False: a failure is not logged (one of a Session's
    several hook entries says it: P-2, H-1). ``hooks``: whose hooks start it (A-10, H-7).
    """
    started_at, clock = utc_timestamp(time.time()), time.perf_counter()
    fetched = _Fetched(str(Path(workspace).absolute()))
    service = (service_url, token, timeout_s, token_source, hooks)
    ids = (project, agent, session_id, draft_id)
    synced = _gather(fetched, service, ids, memory_root, local_copy, sync_since)
    if say:
        _say_error(fetched, project, agent)
    answer, draft = fetched.answer, fetched.draft
    memory = answer.memory if answer is not None and answer.injected else ""
    sections = _render(template, answer, memory, agent)
    has_placeholder = has_memory_placeholder(template)
    meta = SessionMeta(
        project=project,
        agent=agent,
        workspace=fetched.workspace,
        session_id=session_id,
        service_url=shown_url(service_url),
        started_at=started_at,
        duration_ms=round((time.perf_counter() - clock) * 1000, 1),
        status=_status(answer, has_placeholder, fetched.offline),
        error=fetched.error,
        error_kind=fetched.error_kind,
        enabled=answer.enabled if answer is not None else None,
        injected=bool(memory) and has_placeholder,
        template_has_memory=has_placeholder,
        workspace_kind=answer.workspace_kind if answer is not None else None,
        key=answer.key if answer is not None else None,
        workspace_memory_key=answer.workspace_memory_key if answer is not None else OFF_KEY_VALUE,
        directories=answer.directories if answer is not None else None,
        manifests=answer.manifests if answer is not None else [],
        truncated=[m.scope for m in answer.manifests if m.cap_fired != "none"] if answer else [],
        system_prompt=joined(sections),
        draft_id=draft_id,
        draft_error=fetched.draft_error,
        draft_error_kind=fetched.draft_error_kind,
        workspace_source="draft" if draft is not None and draft.workspace else "harness",
        initial_prompt=draft.prompt if draft is not None else None,
        remote_sync=synced,
    )
    return SessionStart(
        system_prompt=meta.system_prompt,
        key=meta.key,
        session_meta=meta,
        initial_prompt=meta.initial_prompt,
        sections=sections,
    )


def template_problem(template: str) -> str | None:
    """What a harness's template file holds that keeps memory from reaching the model as
    meant, as the service refuses it in an agent's template (I-1, I-5, A-2): no ``{{MEMORY}}``
    (no memory is injected), ``{{MEMORY}}`` more than once (the memory goes at the first
    only: :func:`~harness_memory.sections.render_sections`), or text written as a memory
    placeholder that reaches the model as written (``{{ MEMORY }}``, ``{{memory}}``). None for
    a template that holds ``{{MEMORY}}`` once, as written, and nothing like it.

    >>> template_problem("Be kind.\\n{{ MEMORY }}\\n")[:55]
    'it holds no {{MEMORY}}, so no memory is injected (I-5);'
    """
    count = template.count(MEMORY_PLACEHOLDER)
    said = [] if count else ["it holds no {{MEMORY}}, so no memory is injected (I-5)"]
    if count > 1:
        said.append(f"it holds {{{{MEMORY}}}} {count} times: the memory goes at the first only")
    lookalikes = template_placeholder_problem(template.replace(MEMORY_PLACEHOLDER, ""))
    return "; ".join([*said, *([lookalikes] if lookalikes else [])]) or None


def _gather(
    fetched: _Fetched,
    service: _Service,
    ids: tuple[str, str, str | None, str | None],
    memory_root: Path | None,
    local_copy: RemoteCopy | None,
    sync_since: float | None,
) -> list[dict[str, Any]] | None:
    """Fill ``fetched`` for :func:`start_session_sync`: from the synced ``local_copy`` (remote
    mode: what each scope's sync did is returned), else from the service and, when it could
    not be reached, the files under ``memory_root`` (H-4: None returned). Logs a failure once.
    ``ids``: project, agent, Session id, draft id."""
    project, agent, _, draft_id = ids
    synced = None
    if local_copy is not None:
        synced = _sync_copy(fetched, local_copy, service, (project, agent, draft_id), sync_since)
    else:
        _fetch(fetched, service, ids)
        if memory_root is not None and fetched.error_kind in _OFFLINE_KINDS:
            _read_files(fetched, memory_root, project, agent)
    return synced


def _say_error(fetched: _Fetched, project: str, agent: str) -> None:
    """Log a failed fetch once, after the files on this machine had their chance (H-4); its
    commands name the program as the user can run it (the hook's ``systemMessage`` does so:
    :func:`~harness_memory.as_typed.as_typed`; the bare name for an embedder)."""
    if fetched.error is not None:
        import os

        from harness_memory.as_typed import as_typed, program_as_typed

        outcome = "read from the files on this machine" if fetched.offline else "failed open"
        said = as_typed(fetched.error, program_as_typed(os.environ))
        _logger().warning("memory %s for %s/%s: %s", outcome, project, agent, said)


def _render(
    template: str, answer: SessionStartResponse | None, memory: str, agent: str
) -> list[PromptSection]:
    """The template's sections with the memory (or the service's per-scope sections), the
    Workspace key line and the placeholders filled in (I-5)."""
    return render_sections(
        template,
        answer.sections if answer is not None and memory and answer.sections else memory,
        answer.workspace_memory_key if answer is not None else OFF_KEY_VALUE,
        {
            APP_DATA_DIR_PLACEHOLDER: (
                answer.directories.app_data_dir if answer is not None else UNKNOWN_DATA_DIR
            ),
            AGENT_ID_PLACEHOLDER: agent,
        },
    )


def start_from_settings(
    settings: HarnessSettings,
    *,
    workspace: str,
    session_id: str | None = None,
    draft_id: str | None = None,
    template_fallback: bool = False,
    say: bool = True,
) -> SessionStart:
    """Start a Session's memory with what the harness's ``settings`` configure (P-1, P-2a).

    Raises :class:`~harness_memory.settings.MissingSettingsError` when URL, project or agent is
    missing, and its :class:`~harness_memory.settings.TokenFileError` when the configured token
    file cannot be read, before any request. A template file that cannot be read raises
    :class:`~harness_memory.settings.TemplateUnreadableError`, or with ``template_fallback`` is
    logged and replaced by the built-in template (a hook must start the Session regardless).
    Service problems never raise (P-2). ``say`` False: nothing is logged (one of a Session's
    several hook entries says it, P-2, H-1: Claude Code's four said the same line four times).
    """
    url, project, agent = settings.required()
    token = settings.bearer_token()
    local_copy = None
    sync_since = _process_started() if settings.remote else None
    if settings.remote:
        from harness_memory.remote import RemoteCopy

        try:
            local_copy = RemoteCopy.configured(settings, token=token)
        except InvalidId:  # the request below fails open and says why (P-2)
            local_copy = None
    try:
        template = settings.read_template()
    except TemplateUnreadableError as error:
        if not template_fallback:
            raise
        if say:
            _logger().warning("%s; using the default template", error)
        template = DEFAULT_TEMPLATE
    else:
        if say and settings.template_file is not None and (said := template_problem(template)):
            _logger().warning("the template file %s: %s", settings.template_file, said)
    return start_session_sync(
        service_url=url,
        token=token,
        project=project,
        agent=agent,
        workspace=workspace,
        template=template,
        session_id=session_id,
        timeout_s=settings.timeout,
        draft_id=draft_id,
        memory_root=settings.memory_root,
        local_copy=local_copy,
        sync_since=sync_since,
        token_source=settings.token_source,
        say=say,
        hooks=settings.hooks,
    )


_Service = tuple[str, str | None, float, str | None, Hooks]
"""The service a Session start calls: URL, token, timeout (seconds), where the token came
from, and whose hooks call it (their refusals name their commands)."""


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


def _client(service: _Service) -> MemoryClient:
    """The client of ``(url, token, timeout, token source, hooks)``; raises like
    :class:`MemoryClient`."""
    url, token, timeout, source, hooks = service
    return MemoryClient(url, token=token, timeout=timeout, token_source=source, hooks=hooks)


def _fetch(
    fetched: _Fetched,
    service: _Service,
    ids: tuple[str, str, str | None, str | None],
) -> None:
    """Fetch the draft (if any) and the Session start into ``fetched``; every failure is
    recorded there, none raised (P-2)."""
    project, agent, session_id, draft_id = ids
    try:
        client = _client(service)
        if draft_id is not None:
            _fetch_draft(fetched, client, project, agent, draft_id)
        if fetched.draft is not None and fetched.draft.workspace is not None:
            fetched.workspace = fetched.draft.workspace
        seen = _workspace_to_send(fetched)
        if seen is None:
            return
        fetched.answer = client.session_start(project, agent, seen, session_id=session_id)
    except Exception as failure:  # P-2: no fault of the memory side may stop a Session
        fetched.error, fetched.error_kind = _describe(failure)
        if draft_id is not None and fetched.draft is None and fetched.draft_error is None:
            fetched.draft_error, fetched.draft_error_kind = fetched.error, fetched.error_kind


def _seen_here(workspace: str) -> str:
    """The Workspace's real path as this harness sees it (K-1): a symlink on its way may exist
    only in the harness's mount namespace (its own container), where the service cannot resolve
    it, and the key must not depend on where the path is resolved (the offline stand-in, H-4,
    and a sync key it by this real path). A path with a link that cannot be read here or whose
    walk reaches the proc file system (``/proc/<pid>/root/…``: ``realpath`` would answer
    ``/…``, another container's folder, :class:`~memory_core.errors.ReachesProc`) goes as
    spelled: the service says what is wrong with it (A-9).

    Raises :class:`~memory_core.errors.UnresolvablePath` for a path the kernel will not follow
    here (``ELOOP``: a loop, more than 40 links), and its
    :class:`~memory_core.errors.UnseenName` for one with a name on its way this harness cannot
    look at (``ENAMETOOLONG``: past ``PATH_MAX`` from ``/``; ``EACCES`` before a ``..``): it
    reaches no folder this harness can name, and a service in another mount namespace, where
    it may be an ordinary folder, would key and mark that folder as this Session's
    Workspace."""
    try:
        return real_workspace_path(workspace)
    except UnresolvablePath as error:
        if error.errno == errno.ELOOP or isinstance(error, UnseenName):
            raise
        return workspace


def _workspace_to_send(fetched: _Fetched) -> str | None:
    """The path to send as the Session's Workspace (:func:`_seen_here`), or None when it, or
    the real path it resolves to here, is one the service refuses
    (:func:`~memory_core.rules.workspace_path_problem`): then ``fetched`` says so (kind
    ``invalid-workspace``) and nothing is sent or synced. A path that is not UTF-8 failed open
    as "unexpected error: UnicodeEncodeError(…)" with a traceback in the log, and so did a
    symlink to a folder whose name is not UTF-8; in remote mode either (and one holding a
    control character) made a Workspace scope whose marker no Session start could write."""
    typed = fetched.workspace
    seen, problem = _checked_workspace(typed)
    if problem is None:
        return seen
    fetched.error = (
        f"the Workspace path {typed!r} cannot be given to the memory service: it {problem}"
    )
    fetched.error_kind = "invalid-workspace"
    return None


def _checked_workspace(typed: str) -> tuple[str, str | None]:
    """The path to send for the typed Workspace path (:func:`_seen_here`) and None, or the
    typed path and what makes it one the service refuses, as a phrase after "it": the typed
    path's own problem, a real path's (``resolves to …, which …``), a symlink loop here or a
    name on its way that cannot be looked at here (:class:`~memory_core.errors.UnseenName`)."""
    problem = workspace_path_problem(typed)
    if problem is not None:
        return typed, problem
    try:
        seen = _seen_here(typed)
    except UnseenName as error:
        return typed, (
            f"cannot be followed here: {error}; so it has no real path and no Workspace memory key"
        )
    except UnresolvablePath as error:
        return typed, (
            f"is a symlink loop here (ELOOP: {error.reason}, a loop or more than 40 links on "
            f"the way at {error.link!r}): no folder is reached through it, so it has no real "
            "path and no Workspace memory key"
        )
    real_problem = workspace_path_problem(seen)
    if real_problem is not None:
        return typed, f"resolves to {seen!r}, which {real_problem}"
    return seen, None


def _sync_copy(
    fetched: _Fetched,
    copy: RemoteCopy,
    service: _Service,
    ids: tuple[str, str, str | None],
    fresh_since: float | None,
) -> list[dict[str, Any]]:
    """Remote mode (R-1): the draft (if any), then the Session's scopes synced into ``copy`` and
    the injection read from it into ``fetched``; what each scope's sync did. Every failure is
    recorded in ``fetched``, none raised (P-2). A copy in a state dir another account could
    change (:meth:`RemoteCopy.untrusted`) is neither synced, read nor written: memory fails
    open, the error naming the folder and the fix (P-3)."""
    from harness_memory.remote import RemoteError

    project, agent, draft_id = ids
    try:
        client: MemoryClient | None = _client(service)
    except MemoryClientError as error:  # a URL that is no URL; the sync says so too
        client = None
        if draft_id is not None:
            fetched.draft_error, fetched.draft_error_kind = _describe(error)
    if client is not None and draft_id is not None:
        # a service that is down is said in the draft fields; memory comes from the copy
        with contextlib.suppress(Exception):
            _fetch_draft(fetched, client, project, agent, draft_id)
        if fetched.draft is not None and fetched.draft.workspace is not None:
            fetched.workspace = fetched.draft.workspace
    if (untrusted := copy.untrusted()) is not None:  # nothing read from it, nothing written
        fetched.error = f"{untrusted}; so no memory is read from it in this Session"
        fetched.error_kind = "internal"
        return []
    if _workspace_to_send(fetched) is None:
        return []
    if client is not None and fetched.draft_error_kind not in _OFFLINE_KINDS:
        _copy_agent_settings(client, copy, project, agent)
    results: list[dict[str, Any]] = []
    try:
        outcome = copy.sync(fetched.workspace, fresh_since=fresh_since)
        results = [result.as_json() for result in outcome]
        failed = sorted((result for result in outcome if not result.ok), key=_not_refused)
        if failed and failed[0].refused:  # a token or agent to fix, as a request's 401 / 404
            fetched.error, fetched.error_kind = f"{failed[0].error}", "rejected"
        elif failed:
            fetched.error = f"{NOT_SYNCED}{failed[0].error}"
            fetched.error_kind = "unreachable"
    except RemoteError as error:
        fetched.error, fetched.error_kind = str(error), "internal"
    _read_files(fetched, copy.memory_root, project, agent)
    if fetched.answer is None and fetched.error is None:
        fetched.error = f"the local copy {copy.memory_root} cannot be read"
        fetched.error_kind = "internal"
    if fetched.error is None:
        fetched.offline = False  # synced: the copy is the service's memory
    return results


def _not_refused(result: SyncResult) -> bool:
    """Sort key: the syncs the service refused (:attr:`SyncResult.refused`) first."""
    return not result.refused


def _copy_agent_settings(client: MemoryClient, copy: RemoteCopy, project: str, agent: str) -> None:
    """Remote mode: the agent's memory switch and prompts (A-2) into the copy's ``agent.json``,
    where the injection reads them (:mod:`harness_memory.offline`, I-5); when the service
    cannot be asked, the copy keeps the settings it last had (at first: memory on, built-in
    prompts)."""
    from memory_core import layout
    from memory_core.atomic import atomic_write_bytes

    from harness_memory.offline import AGENT_FILE

    try:
        memory = client.agent_config(project, agent).memory
        document = {
            "project": project,
            "memory": {
                "enabled": memory.enabled,
                "prompt": memory.prompt,
                "workspacePrompt": memory.workspace_prompt,
            },
        }
        path = layout.agent_dir(copy.app_data_dir, agent) / AGENT_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, msgspec.json.encode(document), mode=0o600)
    except (MemoryClientError, OSError) as error:
        _logger().debug("the agent's memory settings were not copied: %s", error)


def _fetch_draft(
    fetched: _Fetched, client: MemoryClient, project: str, agent: str, draft_id: str
) -> None:
    """A-12: fetch the draft into ``fetched``; a failure fails open like memory (P-2).

    Re-raises when the service is down or slow: memory fails open too, without a second wait.
    """
    try:
        fetched.draft = client.get_draft(project, agent, draft_id)
    except Exception as failure:
        fetched.draft_error, fetched.draft_error_kind = _describe_draft(failure)
        _logger().warning("Session starts without draft %s: %s", draft_id, fetched.draft_error)
        if isinstance(failure, ServiceUnreachableError | ServiceTimeoutError):
            raise


def _read_files(fetched: _Fetched, memory_root: Path, project: str, agent: str) -> None:
    """H-4: the service is unreachable; stand in with the files under ``memory_root``."""
    # Imported here: the fallback brings the service's own injection code (masking, caps), which
    # a Session start that reached the service does not need (H-5).
    from harness_memory.offline import (
        LinkedOutError,
        OfflineUnavailableError,
        session_start_from_files,
    )

    try:
        fetched.answer = session_start_from_files(
            memory_root, project=project, agent=agent, workspace=fetched.workspace
        )
    except (OfflineUnavailableError, InvalidId, OSError) as error:
        _logger().warning("memory files cannot stand in for the service: %s", error)
        if isinstance(error, LinkedOutError) and fetched.error is not None:  # said
            fetched.error = f"{fetched.error}; the memory files here were not read: {error}"
        return
    fetched.offline = True


def _process_started() -> float:
    """When this process started at the latest (``time.time()`` seconds, from Linux's
    ``/proc``: :func:`started_no_earlier`); now where that cannot be read. A sync that ended
    after it was made by a hook entry running beside this one (remote mode: Claude Code runs a
    Session's SessionStart entries at once)."""
    import os

    try:
        stat = Path("/proc/self/stat").read_text(encoding="ascii")
        uptime = Path("/proc/uptime").read_text(encoding="ascii")
        return started_no_earlier(stat, uptime, time.time(), os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.time()


def started_no_earlier(stat: str, uptime: str, now: float, ticks_per_s: int) -> float:
    """A time (``time.time()`` seconds) no earlier than the start of the process whose
    ``/proc/PID/stat`` text is ``stat``, with ``/proc/uptime``'s text read just before ``now``.

    The kernel gives the start in whole clock ticks since boot (field 22, rounded down) and the
    uptime in hundredths (rounded down): the start is counted one tick later, so a sync that
    ended before this process started (the Session before, a few milliseconds earlier) is never
    taken for a parallel entry's (it was, 1 in 4 runs: that Session's success reported for a
    start made offline). Raises ``ValueError``/``IndexError`` on text not of that shape.

    >>> started_no_earlier("1 (x) S " + "0 " * 18 + "1000 0", "20.00 0.00", 100.0, 100)
    90.01
    """
    ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22: starttime
    age = float(uptime.split()[0]) - (ticks + 1) / ticks_per_s
    return now - max(age, 0.0)


def _describe(failure: Exception) -> tuple[str, str]:
    """Say why a call to the service failed: ``(error sentence, error kind)`` for the record."""
    if isinstance(failure, MemoryClientError):
        return str(failure), failure.reason
    if isinstance(failure, InvalidId):
        return f"harness memory settings: {failure}", "invalid-id"
    _logger().error("memory Session start failed unexpectedly", exc_info=failure)
    return f"unexpected error: {failure!r}", "internal"


def _describe_draft(failure: Exception) -> tuple[str, str]:
    """Like :func:`_describe`; an expired or unknown draft (404) is kind ``not-found``."""
    if isinstance(failure, ServiceRejectedError) and failure.status == 404:
        return f"draft not found (expired or unknown): {failure.detail}", "not-found"
    if isinstance(failure, InvalidId):
        return str(failure), "invalid-id"
    return _describe(failure)


def _status(
    answer: SessionStartResponse | None, has_placeholder: bool, offline: bool
) -> MemoryStatus:
    """The record's ``status`` for what the service answered."""
    if answer is None:
        return "failed-open"
    if not answer.enabled:
        return "off"
    if not has_placeholder:
        return "no-placeholder"
    if offline:
        return "offline"
    return "injected" if answer.injected and answer.memory else "not-injected"
