"""The memory service's Session-start (A-9) and draft (A-12) calls over the standard library.

A harness hook makes one HTTP call per Session start, so it needs no event loop and no HTTP
library (H-5): :class:`ServiceClient` speaks HTTP/1.1 through ``http.client`` with one budget
for the whole request (connect, send, headers and body), and raises the named errors of
:mod:`harness_memory.errors`. The async :class:`harness_memory.client.MemoryClient` shares its
URL rules and decoders.

Ids are checked before anything is sent (``memory_core.errors.InvalidId``): project and agent
against K-7, a draft id against the service's pattern (32 lowercase hex digits, A-12).
"""

from __future__ import annotations

import http.client
import time
from typing import TypeVar
from urllib.parse import quote, urlsplit

import msgspec
from memory_core.keys import check_agent_id, check_draft_id, check_project_id
from memory_core.wire import Draft, SessionStartRequest, SessionStartResponse

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.errors import (
    BadServiceAnswerError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
    problem_detail,
)

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
_CHUNK = 64 * 1024

_T = TypeVar("_T")


def agent_path(project: str, agent: str) -> str:
    """The agent's API path; raises ``InvalidId`` for a bad project or agent id (K-7)."""
    return (
        f"/api/projects/{quote(check_project_id(project), safe='')}"
        f"/agents/{quote(check_agent_id(agent), safe='')}"
    )


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
        self._base_url = base_url.rstrip("/")
        parts = urlsplit(self._base_url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ServiceUnreachableError(
                f"memory service URL must be http(s)://host[:port], got {base_url!r}"
            )
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path
        self._token = token
        self._timeout = timeout

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
        deadline = time.monotonic() + self._timeout
        try:
            status, reason, raw = self._exchange(method, path, body, deadline)
        except TimeoutError as error:
            raise ServiceTimeoutError(
                f"memory service gave no answer within {self._timeout:g} s"
            ) from error
        except (OSError, http.client.HTTPException) as error:
            raise ServiceUnreachableError(
                f"memory service unreachable at {self._base_url}: {error}"
            ) from error
        if status >= 400:
            raise ServiceRejectedError(status, problem_detail(raw, reason))
        try:
            return decoder.decode(raw)
        except msgspec.DecodeError as error:
            raise BadServiceAnswerError(f"memory service answer is not {what}: {error}") from error

    def _exchange(
        self, method: str, path: str, body: bytes | None, deadline: float
    ) -> tuple[int, str, bytes]:
        """One request/answer: ``(status, reason, body)``; ``TimeoutError`` past ``deadline``."""
        connection_type = (
            http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        )
        connection = connection_type(self._host, self._port, timeout=_left(deadline))
        headers = {"Accept": "application/json", "Connection": "close"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, self._prefix + path, body=body, headers=headers)
            sock = connection.sock  # kept: getresponse() hands the socket to the response
            if sock is not None:
                sock.settimeout(_left(deadline))
            response = connection.getresponse()
            chunks: list[bytes] = []
            while True:
                if sock is not None:
                    sock.settimeout(_left(deadline))
                chunk = response.read1(_CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
            return response.status, response.reason, b"".join(chunks)
        finally:
            connection.close()


def _left(deadline: float) -> float:
    """Seconds left before ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's time budget is spent")
    return left
