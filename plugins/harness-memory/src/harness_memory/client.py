"""A small async client for the memory service's Session-start (A-9) and draft (A-12) routes.

Errors, raised alike by :meth:`MemoryClient.session_start` and :meth:`MemoryClient.get_draft`::

    MemoryClientError          base; ``reason`` is a short code, ``str(error)`` a sentence
    ├── ServiceUnreachableError     connection refused, DNS failure, reset before an answer
    ├── ServiceTimeoutError         no full answer within the timeout (P-2: "down or slow")
    ├── ServiceRejectedError        the service answered 4xx/5xx; ``status`` and problem ``detail``
    └── BadServiceAnswerError       2xx whose body is not the expected DTO

Ids are checked before anything is sent (``memory_core.errors.InvalidId``): project and agent
against K-7, a draft id against the service's own pattern (32 lowercase hex digits, A-12). An
expired or unknown draft is a :class:`ServiceRejectedError` with ``status == 404``.
"""

from __future__ import annotations

from typing import Self, TypeVar

import aiohttp
import msgspec
from memory_core.keys import check_draft_id
from memory_core.wire import Draft, SessionStartResponse

from harness_memory.errors import (
    BadServiceAnswerError,
    MemoryClientError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
    problem_detail,
)
from harness_memory.transport import (
    DEFAULT_TIMEOUT_S,
    DRAFT_DECODER,
    SESSION_START_DECODER,
    agent_path,
    check_draft_answer,
    session_start_body,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "BadServiceAnswerError",
    "MemoryClient",
    "MemoryClientError",
    "ServiceRejectedError",
    "ServiceTimeoutError",
    "ServiceUnreachableError",
]

_T = TypeVar("_T")


class MemoryClient:
    """Talk to one memory service: ``async with MemoryClient(url, token=…) as client: …``.

    ``base_url`` is the service root (``http://127.0.0.1:8080``); ``token`` a bearer token or
    None (a service with no tokens configured accepts loopback callers without one, A-10);
    ``timeout`` the total seconds one request may take, connect and read included.
    """

    def __init__(
        self, base_url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._token = token
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Self:
        headers = {"Accept": "application/json"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        self._session = aiohttp.ClientSession(timeout=self._timeout, headers=headers)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _agent_url(self, project: str, agent: str) -> str:
        """The agent's API base; raises ``InvalidId`` for a bad project or agent id (K-7)."""
        return self._base_url + agent_path(project, agent)

    async def session_start(
        self,
        project: str,
        agent: str,
        workspace: str,
        *,
        session_id: str | None = None,
        sections: bool = True,
    ) -> SessionStartResponse:
        """Call ``POST /api/projects/{project}/agents/{agent}/memory/session-start`` (A-9).

        ``workspace`` is the Workspace path as the harness sees it; the service resolves it.
        ``sections=False`` leaves the answer's ``sections`` empty (half the bytes; ``memory``
        holds the same text). Raises ``InvalidId`` for a bad project or agent id, else one of
        this module's errors.
        """
        url = self._agent_url(project, agent) + "/memory/session-start"
        body = session_start_body(workspace, session_id, sections=sections)
        return await self._call("POST", url, body, SESSION_START_DECODER, "a Session start")

    async def get_draft(self, project: str, agent: str, draft_id: str) -> Draft:
        """Call ``GET /api/projects/{project}/agents/{agent}/drafts/{draft_id}`` (A-12).

        Returns the live draft: its ``prompt`` (user text, returned verbatim) and the
        ``workspace`` path it is pinned to, or None. Raises ``InvalidId`` for a bad project,
        agent or draft id (nothing is sent then); :class:`ServiceRejectedError` with
        ``status == 404`` for an expired or unknown draft (or another agent's);
        :class:`BadServiceAnswerError` when the answer is no draft, or another draft than asked
        for; otherwise one of this module's errors, as for :meth:`session_start`.
        """
        url = f"{self._agent_url(project, agent)}/drafts/{check_draft_id(draft_id)}"
        draft = await self._call("GET", url, None, DRAFT_DECODER, "a draft")
        return check_draft_answer(draft, project, agent, draft_id)

    async def _call(
        self,
        method: str,
        url: str,
        body: bytes | None,
        decoder: msgspec.json.Decoder[_T],
        what: str,
    ) -> _T:
        """Send one request and decode its 2xx answer with ``decoder``; map every failure."""
        if self._session is None:
            raise RuntimeError("use MemoryClient as an async context manager")
        headers = {"Content-Type": "application/json"} if body is not None else {}
        try:
            async with self._session.request(method, url, data=body, headers=headers) as response:
                raw = await response.read()
                if response.status >= 400:
                    raise ServiceRejectedError(
                        response.status, problem_detail(raw, response.reason)
                    )
        except TimeoutError as error:
            raise ServiceTimeoutError(
                f"memory service gave no answer within {self._timeout.total:g} s"
            ) from error
        except aiohttp.ClientResponseError as error:
            raise ServiceRejectedError(error.status, error.message) from error
        except (aiohttp.ClientError, OSError) as error:
            raise ServiceUnreachableError(
                f"memory service unreachable at {self._base_url}: {error}"
            ) from error
        try:
            return decoder.decode(raw)
        except msgspec.DecodeError as error:
            raise BadServiceAnswerError(f"memory service answer is not {what}: {error}") from error
