"""One request to the memory service, answered with bytes or a named error (P-2, H-5).

:class:`ServiceEndpoint` is what the blocking :class:`harness_memory.transport.ServiceClient`
and a hook process's Session start share: the URL rules, one time budget for the whole request
(connect, send, headers and body) and the mapping of every failure to the errors of
:mod:`harness_memory.errors`. It decodes nothing: the client decodes answers with msgspec, a hook
process with the standard ``json`` (:mod:`harness_memory.answers`), so a hook never loads msgspec.
``http`` URLs go through :func:`harness_memory.http11.exchange`, ``https`` through
``http.client`` (which brings ``ssl``).
"""

from __future__ import annotations

import time
from urllib.parse import quote, urlsplit

from memory_core.keys import check_agent_id, check_project_id

from harness_memory.defaults import DEFAULT_TIMEOUT_S
from harness_memory.errors import (
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
    problem_detail,
)

__all__ = ["ServiceEndpoint", "agent_path"]

_CHUNK = 64 * 1024


def agent_path(project: str, agent: str) -> str:
    """The agent's API path; raises ``InvalidId`` for a bad project or agent id (K-7)."""
    return (
        f"/api/projects/{quote(check_project_id(project), safe='')}"
        f"/agents/{quote(check_agent_id(agent), safe='')}"
    )


class ServiceEndpoint:
    """Blocking requests to one memory service: ``ServiceEndpoint(url, token=…).request(…)``.

    ``base_url`` is the service root (``http://127.0.0.1:8080``, ``https://…`` too); ``token`` a
    bearer token or None; ``timeout`` the total seconds one request may take, connect and read
    included. Each request opens and closes its own connection. Raises
    :class:`ServiceUnreachableError` for a URL that is not http(s)://host.
    """

    def __init__(
        self, base_url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
    ) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ServiceUnreachableError(
                f"memory service URL must be http(s)://host[:port], got {base_url!r}"
            )
        self._scheme = parts.scheme
        self._host = parts.hostname
        try:
            self._port = parts.port
        except ValueError as error:
            raise ServiceUnreachableError(f"memory service URL {base_url!r}: {error}") from None
        self._prefix = parts.path
        self._token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: bytes | None) -> bytes:
        """Send one request (``path`` below the service root) and return its 2xx body.

        ``body`` is JSON or None. Raises :class:`ServiceTimeoutError` past the timeout,
        :class:`ServiceUnreachableError` when the service cannot be reached or answers no HTTP,
        :class:`ServiceRejectedError` for a 4xx/5xx (with the problem ``detail``).
        """
        deadline = time.monotonic() + self.timeout
        headers = {"Accept": "application/json"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            if self._scheme == "https":
                status, reason, raw = self._https(method, path, headers, body, deadline)
            else:
                from harness_memory.http11 import exchange

                port = 80 if self._port is None else self._port
                target = self._prefix + path
                status, reason, raw = exchange(
                    self._host, port, method, target, headers, body, deadline
                )
        except TimeoutError as error:
            raise ServiceTimeoutError(
                f"memory service gave no answer within {self.timeout:g} s"
            ) from error
        except (OSError, ValueError) as error:  # http.client.HTTPException is no OSError
            raise ServiceUnreachableError(
                f"memory service unreachable at {self.base_url}: {error}"
            ) from error
        if status >= 400:
            raise ServiceRejectedError(status, problem_detail(raw, reason))
        return raw

    def _https(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes | None,
        deadline: float,
    ) -> tuple[int, str, bytes]:
        """One request over TLS with ``http.client``: ``(status, reason, body)``."""
        import http.client

        connection = http.client.HTTPSConnection(self._host, self._port, timeout=_left(deadline))
        try:
            try:
                connection.request(
                    method,
                    self._prefix + path,
                    body=body,
                    headers={**headers, "Connection": "close"},
                )
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
            except http.client.HTTPException as error:
                raise OSError(f"{type(error).__name__}: {error}") from error
            return response.status, response.reason, b"".join(chunks)
        finally:
            connection.close()


def _left(deadline: float) -> float:
    """Seconds left before ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's time budget is spent")
    return left
