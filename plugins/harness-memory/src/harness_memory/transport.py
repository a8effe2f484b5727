"""The memory service's Session-start (A-9) and draft (A-12) calls over the standard library.

A shell or an embedding harness makes one HTTP call per Session start, so it needs no event loop
and no HTTP library: :class:`ServiceClient` sends it through
:class:`~harness_memory.service_call.ServiceEndpoint` (one budget for the whole request, the
named errors of :mod:`harness_memory.errors`) and decodes the answer with msgspec. The async
:class:`harness_memory.client.MemoryClient` shares its URL rules and decoders. A hook process
skips this module and decodes with the standard ``json`` (:mod:`harness_memory.answers`, H-5).

Ids are checked before anything is sent (``memory_core.errors.InvalidId``): project and agent
against K-7, a draft id against the service's pattern (32 lowercase hex digits, A-12).
"""

from __future__ import annotations

from typing import TypeVar

import msgspec
from memory_core.keys import check_draft_id
from memory_core.wire import Draft, SessionStartRequest, SessionStartResponse

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.errors import BadServiceAnswerError
from harness_memory.service_call import ServiceEndpoint, agent_path

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "DRAFT_DECODER",
    "SESSION_START_DECODER",
    "ServiceClient",
    "agent_path",
    "check_draft_answer",
    "session_start_body",
]

SESSION_START_DECODER = msgspec.json.Decoder(SessionStartResponse)
DRAFT_DECODER = msgspec.json.Decoder(Draft)
_ENCODER = msgspec.json.Encoder()

_T = TypeVar("_T")


def session_start_body(workspace: str, session_id: str | None) -> bytes:
    """The JSON body of ``POST …/memory/session-start`` (A-9)."""
    return _ENCODER.encode(SessionStartRequest(workspace=workspace, session_id=session_id))


def check_draft_answer(draft: Draft, project: str, agent: str, draft_id: str) -> Draft:
    """Return ``draft`` if it is the one asked for; else raise :class:`BadServiceAnswerError`."""
    if (draft.id, draft.project, draft.agent) != (draft_id, project, agent):
        raise BadServiceAnswerError(
            f"memory service answered with draft {draft.id!r} of {draft.project}/"
            f"{draft.agent} when asked for {draft_id!r} of {project}/{agent}"
        )
    return draft


class ServiceClient:
    """Blocking calls to one memory service: ``ServiceClient(url, token=…).session_start(…)``.

    ``base_url`` is the service root (``http://127.0.0.1:8080``, ``https://…`` too); ``token`` a
    bearer token or None; ``timeout`` the total seconds one request may take, connect and read
    included. Each call opens and closes its own connection. Raises
    :class:`ServiceUnreachableError` for a URL that is not http(s)://host.
    """

    def __init__(
        self, base_url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
    ) -> None:
        self._endpoint = ServiceEndpoint(base_url, token=token, timeout=timeout)

    def session_start(
        self, project: str, agent: str, workspace: str, *, session_id: str | None = None
    ) -> SessionStartResponse:
        """Call ``POST /api/projects/{project}/agents/{agent}/memory/session-start`` (A-9).

        ``workspace`` is the Workspace path as the harness sees it; the service resolves it.
        Raises ``InvalidId`` for a bad project or agent id, else one of the named errors.
        """
        path = agent_path(project, agent) + "/memory/session-start"
        body = session_start_body(workspace, session_id)
        return self._call("POST", path, body, SESSION_START_DECODER, "a Session start")

    def get_draft(self, project: str, agent: str, draft_id: str) -> Draft:
        """Call ``GET /api/projects/{project}/agents/{agent}/drafts/{draft_id}`` (A-12).

        Raises ``InvalidId`` for a bad id (nothing is sent then); ``ServiceRejectedError`` with
        ``status == 404`` for an expired or unknown draft; ``BadServiceAnswerError`` when the
        answer is no draft, or another draft than asked for; else one of the named errors.
        """
        path = f"{agent_path(project, agent)}/drafts/{check_draft_id(draft_id)}"
        draft = self._call("GET", path, None, DRAFT_DECODER, "a draft")
        return check_draft_answer(draft, project, agent, draft_id)

    def _call(
        self,
        method: str,
        path: str,
        body: bytes | None,
        decoder: msgspec.json.Decoder[_T],
        what: str,
    ) -> _T:
        """Send one request and decode its 2xx answer with ``decoder``; map every failure."""
        raw = self._endpoint.request(method, path, body)
        try:
            return decoder.decode(raw)
        except msgspec.DecodeError as error:
            raise BadServiceAnswerError(f"memory service answer is not {what}: {error}") from error
