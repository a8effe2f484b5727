"""The memory service's Session-start (A-9), draft (A-12), config (A-2) and version-record (V-1)
calls, and the reach, project and agent lists (A-10, A-1) that install and status ask to explain
a refusal: the plugin's one client.

``MemoryClient(url, token=…, timeout=…)`` makes each call as one blocking HTTP request with
``http.client`` (``http://`` and ``https://``) within one time budget for the whole request
(connect, send, the answer to its last byte), and decodes the answer with msgspec into the wire
types of :mod:`memory_core.wire`, the service's own, ignoring answer fields it does not know (a
service upgraded before the plugin, A-11). Every failure is one of the named errors of
:mod:`harness_memory.errors`. Ids are checked before anything is sent
(``memory_core.errors.InvalidId``): project and agent against K-7, a draft id against the
service's pattern (32 lowercase hex digits, A-12). An async harness calls
:func:`harness_memory.session.start_session`, which runs it in a worker thread.
"""

from __future__ import annotations

import http.client
import time
from typing import TypeVar
from urllib.parse import SplitResult, quote, urlsplit

import msgspec
from memory_core import json_text
from memory_core.addresses import shown_url, url_secret, usual_host
from memory_core.keys import check_agent_id, check_draft_id, check_project_id
from memory_core.wire import (
    AgentConfig,
    AgentList,
    Answer,
    Draft,
    Me,
    ProjectList,
    RecordRequest,
    RecordResult,
    SessionStartRequest,
    SessionStartResponse,
)

from harness_memory.advice import ANY_HOOKS, Hooks
from harness_memory.errors import (
    TOKEN_SENT,
    BadServiceAnswerError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
    problem_detail,
)
from harness_memory.settings import DEFAULT_TIMEOUT_S

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "MAX_ANSWER_BYTES",
    "URL_ID_NOT_SECRET",
    "MemoryClient",
    "service_url_parts",
]
MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The largest answer read; an A-9 answer at the caps is well below 1 MB."""

_ENCODER = msgspec.json.Encoder()
_CHUNK = 64 * 1024

_A = TypeVar("_A", bound=Answer)


URL_ID_NOT_SECRET = "--url-id-not-secret"  # noqa: S105 (a flag, not a password)
"""The install flag by which the user says the UUID or hex id in the service URL's path is no
secret (a tenant's id a gateway routes by, ``…/tenants/<uuid>/memory``): the install writes
the URL as given and ``status`` does not warn of it (A-10)."""


def _id_refusal(shown: str) -> str:
    """The refusal of a URL to be written whose only fault is a UUID or hex id in its path
    (A-10), in one line: why it is refused (the id may be a capability secret, and the install
    writes the URL where others read), then the flag that installs it as given, then the other
    way."""
    return (
        f"the service URL {shown!r} holds an id in its path (a UUID or hex segment), which may "
        "be a capability secret, so install does not write it into settings files and hook "
        "command lines other accounts (ps) and a repository read: if it is no secret (a "
        f"tenant's id a gateway routes by), add {URL_ID_NOT_SECRET}; else give the address "
        "without it, and the bearer token with --token-file or HARNESS_MEMORY_TOKEN"
    )


def service_url_parts(url: str, *, written: bool = False) -> SplitResult:
    """``url`` split (``urllib.parse.urlsplit``) when it is an ``http(s)://host[:port]`` address;
    else :class:`ServiceUnreachableError` saying so, the URL shown by :func:`shown_url`. A URL
    ``urlsplit`` itself refuses (an unclosed IPv6 bracket, ``http://[::1``, or a bracketed host
    that is no address) raised ``ValueError``: the Session start failed open as "unexpected
    error" with a traceback, and ``harness-memory sync`` ended in one; so did a port that is no
    number (``http://coder:pa/ss@host``: a password holding ``/``, read as the port ``pa``),
    whose message echoed the URL whole. A URL holding a user name or password is refused too,
    never echoed with it (A-10: the service takes a bearer token, and an install would write
    the secret into settings files every local account can read): any ``@`` counts, also one
    ``urlsplit`` reads as part of a path, query or fragment (a password holding ``/``, ``?`` or
    ``#``); so is a query or fragment, which the request paths would be glued to, and a path
    holding a segment that looks like a key (``http://host/<key>/``, a secret a proxy takes in
    its path, which every settings file and message would show): the rule of
    :func:`memory_core.addresses.url_secret`, which ``memory-api --url`` follows too. A URL to
    be ``written`` into files (an install's settings and hook commands) must hold no UUID or
    hex segment in its path either: it may be a capability secret (A-10); the refusal names
    :data:`URL_ID_NOT_SECRET`, the install flag by which the user says it is none."""
    shown = shown_url(url)
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port_problem = None
        try:
            parts.port  # noqa: B018 - its ValueError is the check
        except ValueError:
            port_problem = " (its port is no number from 0 to 65535)"
    except ValueError as error:
        raise ServiceUnreachableError(
            f"memory service URL must be http(s)://host[:port], got {shown!r} ({error})"
        ) from None
    if written and url_secret(url) is None and url_secret(url, written=True) is not None:
        raise ServiceUnreachableError(_id_refusal(shown))
    if (secret := url_secret(url, written=written)) is not None:
        kept = (
            ", and the install would write it into settings files and hook command lines "
            "other accounts (ps) and a team's repository read"
            if written
            else ""
        )
        raise ServiceUnreachableError(
            f"memory service URL must not hold {secret}{kept}: the service takes a bearer "
            "token, given with --token-file, --token or HARNESS_MEMORY_TOKEN (kept in a 0600 "
            f"file); give its address without it; got {shown!r}"
        )
    if host is None or port_problem or parts.scheme not in {"http", "https"}:
        raise ServiceUnreachableError(
            f"memory service URL must be http(s)://host[:port], got {shown!r}{port_problem or ''}"
        )
    return parts


class MemoryClient:
    """Blocking calls to one memory service: ``MemoryClient(url, token=…).session_start(…)``.

    ``base_url`` is the service root (``http://127.0.0.1:8765``, ``https://…`` too); ``token`` a
    bearer token or None (a service with no tokens accepts loopback callers without one, A-10);
    ``timeout`` the total seconds one request may take, connect and read included;
    ``token_source`` where the token came from (``--token``, ``--token-file PATH`` …), which a
    refusal (401) names; ``hooks`` whose hooks call (:class:`~harness_memory.advice.Hooks`), as
    a refusal's next step names their command. Each call opens and closes its own connection. Raises
    :class:`ServiceUnreachableError` for a URL that is not http(s)://host[:port].
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        token_source: str | None = None,
        hooks: Hooks = ANY_HOOKS,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._hooks = hooks
        parts = service_url_parts(self.base_url)
        self._port = parts.port
        self._https = parts.scheme == "https"
        # never empty (service_url_parts checked it); 127.1 sent as 127.0.0.1, as a browser
        # would: the service's Host rule refuses the short spelling (A-10a)
        self._host = usual_host(parts.hostname or "")
        self._prefix = parts.path
        self._token = token
        self._token_source = (token_source or TOKEN_SENT) if token else None
        self.timeout = timeout

    @property
    def sends_token(self) -> bool:
        """Whether the calls carry a bearer token."""
        return bool(self._token)

    def session_start(
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
        the named errors.
        """
        request = SessionStartRequest(workspace=workspace, session_id=session_id, sections=sections)
        path = _agent_path(project, agent) + "/memory/session-start"
        return self._call(
            "POST", path, _ENCODER.encode(request), SessionStartResponse, "a Session start"
        )

    def get_draft(self, project: str, agent: str, draft_id: str) -> Draft:
        """Call ``GET /api/projects/{project}/agents/{agent}/drafts/{draft_id}`` (A-12).

        Returns the live draft: its ``prompt`` (user text, verbatim) and the ``workspace`` it is
        pinned to, or None. Raises ``InvalidId`` for a bad id (nothing is sent then);
        ``ServiceRejectedError`` with ``status == 404`` for an expired or unknown draft (or
        another agent's); ``BadServiceAnswerError`` when the answer is no draft, or another
        draft than asked for; else one of the named errors.
        """
        path = f"{_agent_path(project, agent)}/drafts/{check_draft_id(draft_id)}"
        draft = self._call("GET", path, None, Draft, "a draft")
        if (draft.id, draft.project, draft.agent) != (draft_id, project, agent):
            raise BadServiceAnswerError(
                f"memory service answered with draft {draft.id!r} of {draft.project}/"
                f"{draft.agent} when asked for {draft_id!r} of {project}/{agent}"
            )
        return draft

    def record_write(self, project: str, agent: str, request: RecordRequest) -> RecordResult:
        """Call ``POST /api/projects/{project}/agents/{agent}/memory/versions`` (V-1).

        Asks the service to record what changed on disk in ``request.scope`` as a version by
        the request's Session, harness and tool (a post-write hook's call; no content is sent).
        The answer names the version per scope, ``None`` when nothing had changed. Raises
        ``InvalidId`` for a bad project or agent id, else one of the named errors.
        """
        path = _agent_path(project, agent) + "/memory/versions"
        return self._call("POST", path, _ENCODER.encode(request), RecordResult, "a version record")

    def agent_config(self, project: str, agent: str) -> AgentConfig:
        """Call ``GET /api/projects/{project}/agents/{agent}/config`` (A-2): what ``install``
        asks to check that the service knows the agent and takes the token (H-7).

        Raises ``InvalidId`` for a bad id (nothing is sent then); ``ServiceRejectedError`` with
        ``status == 404`` for an unknown project or agent, 401/403 for a refused token;
        ``BadServiceAnswerError`` when the answer is no agent config; else one of the named
        errors.
        """
        return self._call(
            "GET", _agent_path(project, agent) + "/config", None, AgentConfig, "a config"
        )

    def me(self) -> Me:
        """Call ``GET /api/me`` (A-10): the token's name and reach (``projects`` None: every
        project). Raises ``ServiceRejectedError`` (401) for a refused token, else one of the
        named errors."""
        return self._call("GET", "/api/me", None, Me, "the caller's reach")

    def projects(self) -> ProjectList:
        """Call ``GET /api/projects`` (A-10): the projects holding agents that the token
        reaches (the service never names another). Raises like :meth:`me`."""
        return self._call("GET", "/api/projects", None, ProjectList, "a project list")

    def agents(self, project: str) -> AgentList:
        """Call ``GET /api/projects/{project}/agents`` (A-1): the project's agents. Raises
        ``InvalidId`` for a bad project id; ``ServiceRejectedError`` 404 for a project outside
        the token's reach (an empty list for one without agents), else one of the named errors.
        """
        path = f"/api/projects/{quote(check_project_id(project), safe='')}/agents"
        return self._call("GET", path, None, AgentList, "an agent list")

    def _call(
        self,
        method: str,
        path: str,
        body: bytes | None,
        answer: type[_A],
        what: str,
    ) -> _A:
        """Send one request (``path`` below the service root) and decode its 2xx answer as
        ``answer`` (msgspec keeps a type's decoding plan once built: one process, one build).

        ``answer`` is an :class:`~memory_core.wire.Answer`, which ignores fields it does not
        know: a service upgraded before this plugin may answer more (A-11)."""
        deadline = time.monotonic() + self.timeout
        headers = {"Accept": "application/json", "Connection": "close"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            status, reason, raw = self._exchange(
                method, self._prefix + path, headers, body, deadline
            )
        except TimeoutError as error:
            raise ServiceTimeoutError(
                f"memory service gave no answer within {self.timeout:g} s"
            ) from error
        except (OSError, ValueError, http.client.HTTPException) as error:
            raise ServiceUnreachableError(
                f"memory service unreachable at {shown_url(self.base_url)}: {error}"
            ) from error
        if status >= 400:
            detail = problem_detail(raw, reason)
            raise ServiceRejectedError(
                status, detail, token_source=self._token_source, hooks=self._hooks
            )
        try:
            return json_text.decode(msgspec.json.Decoder(answer), raw)
        except msgspec.DecodeError as error:
            raise BadServiceAnswerError(f"memory service answer is not {what}: {error}") from error

    def _exchange(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | None,
        deadline: float,
    ) -> tuple[int, str, bytes]:
        """One request and its whole answer, ``(status, reason, body)``, before ``deadline``.

        The socket's timeout is set to what is left of the budget before every step, so an
        answer that trickles in cannot outlast it. Raises ``TimeoutError`` past the deadline,
        ``BadServiceAnswerError`` for an answer over :data:`MAX_ANSWER_BYTES`.
        """
        kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        connection = kind(self._host, self._port, timeout=_left(deadline))
        try:
            connection.request(method, target, body=body, headers=headers)
            sock = connection.sock  # kept: getresponse() hands the socket over to the response
            if sock is not None:
                sock.settimeout(_left(deadline))
            response = connection.getresponse()
            chunks: list[bytes] = []
            size = 0
            while True:
                if sock is not None:
                    sock.settimeout(_left(deadline))
                chunk = response.read1(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise BadServiceAnswerError(
                        f"memory service answer is over {MAX_ANSWER_BYTES:,} bytes"
                    )
                chunks.append(chunk)
        finally:
            connection.close()
        if response.length:  # the connection closed before the Content-Length was read
            raise http.client.IncompleteRead(b"".join(chunks), response.length)
        return response.status, response.reason, b"".join(chunks)


def _agent_path(project: str, agent: str) -> str:
    """The agent's API path; raises ``InvalidId`` for a bad project or agent id (K-7)."""
    return (
        f"/api/projects/{quote(check_project_id(project), safe='')}"
        f"/agents/{quote(check_agent_id(agent), safe='')}"
    )


def _left(deadline: float) -> float:
    """Seconds left before ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's time budget is spent")
    return left
