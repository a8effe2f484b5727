"""Session start in plain JSON values: what a hook process runs and ``session`` wraps (P-1, H-5).

:func:`start_session_record` does all of a Session start: it calls A-9 (and A-12 for a draft),
falls back to the memory files when the service is unreachable (H-4), fills the template into
sections (:mod:`harness_memory.sections`) and builds the Session's record. The record is a dict
of JSON values, exactly the camelCase JSON of :class:`harness_memory.session.SessionMeta`, so a
hook process writes it with the standard ``json`` and never loads msgspec or ``typing`` (about
twice what starting Python costs); :func:`harness_memory.session.start_session_sync` turns it
into the typed ``SessionStart``. Failing open (P-2) and the record's fields are as
:mod:`harness_memory.session` describes.

Only the rare paths load more: a draft (A-12) and the offline fallback (H-4) go through msgspec.
"""

from __future__ import annotations

import time
from pathlib import Path

from memory_core.errors import InvalidId
from memory_core.template import OFF_KEY_VALUE, default_template, has_memory_placeholder

from harness_memory import logs
from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.errors import MemoryClientError, ServiceRejectedError
from harness_memory.frozen import Frozen
from harness_memory.sections import PromptSection, joined, render_sections

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

    from memory_core.wire import CapFired, Draft

    from harness_memory.remote import RemoteCopy

__all__ = [
    "AGENT_ID_PLACEHOLDER",
    "APP_DATA_DIR_PLACEHOLDER",
    "DEFAULT_TEMPLATE",
    "UNKNOWN_DATA_DIR",
    "ManifestView",
    "Started",
    "start_session_record",
]

DEFAULT_TEMPLATE = default_template()
"""The template when the harness configures none (:func:`memory_core.template.default_template`):
``{{MEMORY}}``, then the Environment section whose ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` are the
values the prompts' ``<app_data_dir>/agents/<agent_id>/…`` Directory lines refer to (I-2, I-6)."""

APP_DATA_DIR_PLACEHOLDER = "{{APP_DATA_DIR}}"
"""Harness placeholder: the service's app data dir, which the prompts' Directory lines name."""
AGENT_ID_PLACEHOLDER = "{{AGENT_ID}}"
"""Harness placeholder: the agent id, the other value the Directory lines need."""
UNKNOWN_DATA_DIR = "(unknown — memory service unavailable)"

_OFFLINE_KINDS = ("unreachable", "timeout")


class ManifestView(Frozen):
    """What fitting reads of one scope's manifest in a record (``ScopeManifest``, A-9, I-4)."""

    __slots__ = ("cap_fired", "lines_kept", "lines_total", "scope", "unreadable")
    scope: str
    lines_total: int
    lines_kept: int
    cap_fired: CapFired
    unreadable: str | None
    """Why the scope's index, which is there, could not be read (Q-2b); None when it was."""

    def __init__(self, manifest: dict[str, Any]) -> None:
        self._set(
            scope=manifest["scope"],
            lines_total=manifest["linesTotal"],
            lines_kept=manifest["linesKept"],
            cap_fired=manifest["capFired"],
            unreadable=manifest.get("unreadable"),
        )


class Started(Frozen):
    """A started Session: its prompt as ``sections`` and its ``record`` (``SessionMeta`` JSON).

    ``system_prompt`` is the sections joined; ``record`` holds camelCase JSON values only
    (``status``, ``error``, ``directories``, ``manifests``…, as ``SessionMeta`` names them).
    """

    __slots__ = ("record", "sections")
    sections: list[PromptSection]
    record: dict[str, Any]

    def __init__(self, sections: list[PromptSection], record: dict[str, Any]) -> None:
        self._set(sections=sections, record=record)

    @property
    def system_prompt(self) -> str:
        """The assembled system prompt."""
        return str(self.record["systemPrompt"])

    @property
    def status(self) -> str:
        """How memory came out (``injected``, ``failed-open``, ``offline``…, ``MemoryStatus``)."""
        return str(self.record["status"])

    @property
    def error(self) -> str | None:
        """Why memory failed open or came from the files; None otherwise."""
        error = self.record["error"]
        return None if error is None else str(error)

    @property
    def manifests(self) -> list[ManifestView]:
        """Each injected scope's manifest, user first."""
        return [ManifestView(manifest) for manifest in self.record["manifests"]]


class _Fetched:
    """What the calls to the service brought back, and why not when they failed."""

    __slots__ = (
        "answer", "draft", "draft_error", "draft_error_kind", "error", "error_kind", "offline",
        "workspace",
    )  # fmt: skip

    def __init__(self, workspace: str) -> None:
        self.workspace = workspace
        self.answer: dict[str, Any] | None = None
        self.draft: Draft | None = None
        self.error: str | None = None
        self.error_kind: str | None = None
        self.draft_error: str | None = None
        self.draft_error_kind: str | None = None
        self.offline = False


def start_session_record(
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
) -> Started:
    """Start a Session's memory (P-1): arguments as :func:`harness_memory.session.start_session`.

    With ``local_copy`` (remote mode, R-1) the Session's scopes are synced into that copy first
    and the injection is read from it (status ``injected``, or ``offline`` with the reason when
    the service could not be reached: the copy as it is then, R-2); the record's ``remoteSync``
    says what each scope's sync did.

    Never raises for a service problem (P-2): the record then says ``failed-open`` and why.
    """
    started_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    clock = time.perf_counter()
    ids = (project, agent, str(Path(workspace).absolute()), session_id, draft_id)
    synced: list[dict[str, object]] | None = None
    if local_copy is not None:
        fetched, synced = _fetch_remote(local_copy, service_url, token, timeout_s, ids)
    else:
        fetched = _fetch(service_url, token, timeout_s, ids)
    if memory_root is not None and fetched.error_kind in _OFFLINE_KINDS and fetched.answer is None:
        _read_files(fetched, memory_root, project, agent)
    if fetched.error is not None:  # said once, after the files had their chance (H-4)
        outcome = "read from the files on this machine" if fetched.offline else "failed open"
        logs.logger(__name__).warning(
            "memory %s for %s/%s: %s", outcome, project, agent, fetched.error
        )
    answer = fetched.answer
    memory = answer["memory"] if answer is not None and answer["injected"] else ""
    memory_sections = answer["sections"] if answer is not None else []
    key_value = answer["workspaceMemoryKey"] if answer is not None else OFF_KEY_VALUE
    data_dir = answer["directories"]["appDataDir"] if answer is not None else UNKNOWN_DATA_DIR
    sections = render_sections(
        template,
        [_section(item) for item in memory_sections] if memory and memory_sections else memory,
        key_value,
        {APP_DATA_DIR_PLACEHOLDER: data_dir, AGENT_ID_PLACEHOLDER: agent},
    )
    has_placeholder = has_memory_placeholder(template)
    record = {
        "project": project,
        "agent": agent,
        "workspace": fetched.workspace,
        "sessionId": session_id,
        "serviceUrl": service_url,
        "startedAt": started_at,
        "durationMs": round((time.perf_counter() - clock) * 1000, 1),
        **_outcome(fetched, has_placeholder, bool(memory)),
        "systemPrompt": joined(sections),
        **_draft_fields(fetched, draft_id),
        "remoteSync": synced,
    }
    return Started(sections, record)


def _section(item: dict[str, Any]) -> PromptSection:
    kind = item["kind"]
    if kind not in ("prompt", "index", "note"):
        raise ValueError(f"not a memory section kind: {kind!r}")
    return PromptSection(kind=kind, text=item["text"], scope=item["scope"])


def _outcome(fetched: _Fetched, has_placeholder: bool, memory: bool) -> dict[str, Any]:
    """The record's fields on what the service answered (or why it did not)."""
    answer = fetched.answer
    manifests = list(answer["manifests"]) if answer is not None else []
    return {
        "status": _status(answer, has_placeholder, fetched.offline),
        "error": fetched.error,
        "errorKind": fetched.error_kind,
        "enabled": answer["enabled"] if answer is not None else None,
        "injected": memory and has_placeholder,
        "templateHasMemory": has_placeholder,
        "workspaceKind": answer["workspaceKind"] if answer is not None else None,
        "key": answer["key"] if answer is not None else None,
        "workspaceMemoryKey": answer["workspaceMemoryKey"] if answer is not None else OFF_KEY_VALUE,
        "directories": answer["directories"] if answer is not None else None,
        "manifests": manifests,
        "truncated": [m["scope"] for m in manifests if m["capFired"] != "none"],
    }


def _draft_fields(fetched: _Fetched, draft_id: str | None) -> dict[str, Any]:
    draft = fetched.draft
    return {
        "draftId": draft_id,
        "draftError": fetched.draft_error,
        "draftErrorKind": fetched.draft_error_kind,
        "workspaceSource": "draft" if draft is not None and draft.workspace else "harness",
        "initialPrompt": draft.prompt if draft is not None else None,
    }


def _fetch(
    service_url: str,
    token: str | None,
    timeout_s: float,
    ids: tuple[str, str, str, str | None, str | None],
) -> _Fetched:
    """Fetch the draft (if any) and the Session start; every failure is recorded, none raised."""
    from harness_memory.answers import decode_session_start, session_start_request
    from harness_memory.service_call import ServiceEndpoint, agent_path

    project, agent, workspace, session_id, draft_id = ids
    fetched = _Fetched(workspace)
    try:
        endpoint = ServiceEndpoint(service_url, token=token, timeout=timeout_s)
        if draft_id is not None:
            _fetch_draft(fetched, service_url, token, timeout_s, (project, agent, draft_id))
        if fetched.draft is not None and fetched.draft.workspace is not None:
            fetched.workspace = fetched.draft.workspace
        path = agent_path(project, agent) + "/memory/session-start"
        body = session_start_request(fetched.workspace, session_id)
        fetched.answer = decode_session_start(endpoint.request("POST", path, body))
    except Exception as failure:  # P-2: no fault of the memory side may stop a Session
        fetched.error, fetched.error_kind = _describe(failure)
    return fetched


def _fetch_remote(
    copy: RemoteCopy,
    service_url: str,
    token: str | None,
    timeout_s: float,
    ids: tuple[str, str, str, str | None, str | None],
) -> tuple[_Fetched, list[dict[str, object]]]:
    """Remote mode (R-1): the draft (if any), then sync the Session's scopes into ``copy`` and
    read the injection from it; every failure is recorded, none raised."""
    import contextlib

    from harness_memory.remote import RemoteError

    project, agent, workspace, _, draft_id = ids
    fetched = _Fetched(workspace)
    if draft_id is not None:
        # a service that is down is said in the draft fields; memory comes from the copy
        with contextlib.suppress(Exception):
            _fetch_draft(fetched, service_url, token, timeout_s, (project, agent, draft_id))
        if fetched.draft is not None and fetched.draft.workspace is not None:
            fetched.workspace = fetched.draft.workspace
    results: list[dict[str, object]] = []
    try:
        outcome = copy.sync(fetched.workspace)
        results = [result.as_json() for result in outcome]
        failed = [result for result in outcome if not result.ok]
        if failed:
            fetched.error = f"memory service not synced: {failed[0].error}"
            fetched.error_kind = "unreachable"
    except RemoteError as error:
        fetched.error, fetched.error_kind = str(error), "internal"
    _read_files(fetched, copy.memory_root, project, agent)
    if fetched.answer is None and fetched.error is None:
        fetched.error = f"the local copy {copy.memory_root} cannot be read"
        fetched.error_kind = "internal"
    if fetched.error is None:
        fetched.offline = False  # synced: the copy is the service's memory
    return fetched, results


def _fetch_draft(
    fetched: _Fetched,
    service_url: str,
    token: str | None,
    timeout_s: float,
    ids: tuple[str, str, str],
) -> None:
    """A-12: fetch the draft into ``fetched``; a failure fails open like memory (P-2).

    Re-raises when the service is down or slow: memory fails open too, without a second wait.
    """
    from harness_memory.errors import ServiceTimeoutError, ServiceUnreachableError
    from harness_memory.transport import ServiceClient  # msgspec: only a draft needs it

    project, agent, draft_id = ids
    try:
        client = ServiceClient(service_url, token=token, timeout=timeout_s)
        fetched.draft = client.get_draft(project, agent, draft_id)
    except Exception as failure:
        fetched.draft_error, fetched.draft_error_kind = _describe_draft(failure)
        logs.logger(__name__).warning(
            "Session starts without draft %s: %s", draft_id, fetched.draft_error
        )
        if isinstance(failure, ServiceUnreachableError | ServiceTimeoutError):
            raise


def _read_files(fetched: _Fetched, memory_root: Path, project: str, agent: str) -> None:
    """H-4: the service is unreachable; stand in with the files under ``memory_root``."""
    import msgspec

    from harness_memory.offline import OfflineUnavailableError, session_start_from_files

    try:
        answer = session_start_from_files(
            memory_root, project=project, agent=agent, workspace=fetched.workspace
        )
    except (OfflineUnavailableError, InvalidId, OSError) as error:
        logs.logger(__name__).warning("memory files cannot stand in for the service: %s", error)
        return
    fetched.answer = msgspec.to_builtins(answer)
    fetched.offline = True


def _describe(failure: Exception) -> tuple[str, str]:
    """Say why a call to the service failed: ``(error sentence, error kind)`` for the record."""
    if isinstance(failure, MemoryClientError):
        return str(failure), failure.reason
    if isinstance(failure, InvalidId):
        return f"harness memory settings: {failure}", "invalid-id"
    logs.logger(__name__).error("memory Session start failed unexpectedly", exc_info=failure)
    return f"unexpected error: {failure!r}", "internal"


def _describe_draft(failure: Exception) -> tuple[str, str]:
    """Like :func:`_describe`; an expired or unknown draft (404) is kind ``not-found``."""
    if isinstance(failure, ServiceRejectedError) and failure.status == 404:
        return f"draft not found (expired or unknown): {failure.detail}", "not-found"
    if isinstance(failure, InvalidId):
        return str(failure), "invalid-id"
    return _describe(failure)


def _status(answer: dict[str, Any] | None, has_placeholder: bool, offline: bool) -> str:
    """The record's ``status`` (``MemoryStatus``) for what the service answered."""
    if answer is None:
        return "failed-open"
    if not answer["enabled"]:
        return "off"
    if not has_placeholder:
        return "no-placeholder"
    status = "injected" if answer["injected"] and answer["memory"] else "not-injected"
    return "offline" if offline else status
