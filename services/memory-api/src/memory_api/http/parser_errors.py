"""Problem details for the requests aiohttp refuses before any handler runs (A-11, Q-2).

aiohttp answers a request its HTTP parser refuses (a header line past 8190 bytes, a header name
with a byte outside ASCII, a control character in a value, a request line that is not HTTP, a
TLS handshake sent to the plain port) from its protocol class, past every middleware, as
``text/plain`` quoting the offending line — a bearer token or a query string included. It has
no hook for that answer (aio-libs/aiohttp#3287), only the overridable
``RequestHandler.handle_error``, which the low-level ``web_server.Server`` instantiates by name.
:func:`install_parser_problems` puts :class:`ProblemRequestHandler` there, once per process: every
such answer is then ``application/problem+json`` (RFC 9457) with the same status, a fixed
``detail`` naming the kind of refusal (never the bytes sent), the service's security headers,
and the connection closed, as aiohttp closes it. What aiohttp logs is unchanged (one line,
without the bytes: :class:`memory_api.http.logs.ParserRefusalFilter`).
"""

from __future__ import annotations

import asyncio
import select
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from aiohttp import http_exceptions, web_protocol, web_server
from aiohttp.streams import StreamReader
from aiohttp.web_exceptions import HTTPException
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from memory_api.http.connections import (
    ConnectionCap,
    ConnectionLimits,
    PerClient,
    SlowClients,
    client_of,
    problem_bytes,
    refusal_bytes,
)
from memory_api.http.expect import REFUSED_UNREAD_KEY
from memory_api.http.problems import problem_response

__all__ = ["ProblemRequestHandler", "install_parser_problems", "refusal_detail"]

_DETAILS: tuple[tuple[type[BaseException], str], ...] = (
    (
        http_exceptions.BadHttpMethod,
        "the request does not start with an HTTP method (TLS or another protocol sent to "
        "this plain-HTTP port?)",
    ),
    (http_exceptions.BadStatusLine, "the request line is not HTTP/1.x"),
    (
        http_exceptions.LineTooLong,
        "a request line or header line is longer than the service reads (8190 bytes)",
    ),
    (
        http_exceptions.InvalidHeader,
        "a header name or value holds a character HTTP does not allow there (a control "
        "character, or a byte outside ASCII in a name)",
    ),
    (http_exceptions.InvalidURLError, "the request target is not a valid URL path"),
    (
        http_exceptions.PayloadEncodingError,
        "the request body's framing (Content-Length, Transfer-Encoding or its coding) is not valid",
    ),
    (http_exceptions.BadHttpMessage, "the request is not valid HTTP/1.1: it could not be parsed"),
)


_MESSAGE_DETAILS: tuple[tuple[str, str], ...] = (
    (
        "Duplicate",
        "a header that may be sent only once (Host, Content-Length, Content-Type, "
        "Transfer-Encoding, User-Agent …) was sent more than once: send it once",
    ),
    ("Too many headers", "the request has more header lines than the service reads (128)"),
    (
        "Missing 'Host'",
        "an HTTP/1.1 request must name the host it is sent to in a Host header (RFC 9110 7.2), "
        "such as 'Host: localhost:8765'",
    ),
)
"""Refusals aiohttp raises as a plain ``BadHttpMessage``, told apart by the start of their
message (its first words name the rule, never the bytes sent): both parsers word them so."""


_ESCAPED_DETAILS = {
    417: "the service knows only 'Expect: 100-continue' (or no Expect header); send the "
    "request without this Expect value",
}
"""Details of the errors aiohttp raises past every middleware (see
:meth:`ProblemRequestHandler.finish_response`), by status; others name their status."""


def refusal_detail(status: int, error: BaseException | None) -> str:
    """The problem ``detail`` for an answer aiohttp makes itself: the kind of refusal, never
    the bytes the client sent (they may hold a token)."""
    if isinstance(error, http_exceptions.HttpProcessingError):
        message = error.message.lstrip()
        for start, detail in _MESSAGE_DETAILS:
            if message.startswith(start):
                return detail + "; the connection is closed"
    if error is not None:
        kind_of = type(error)
        if type(error) is http_exceptions.BadHttpMessage and "header" in _reason(error).lower():
            kind_of = http_exceptions.InvalidHeader  # what the C parser reports this way
        for kind, detail in _DETAILS:
            if issubclass(kind_of, kind):
                return detail + "; the connection is closed"
    if status >= 500:
        return "the service failed to handle this request; the connection is closed"
    try:
        return f"{HTTPStatus(status).phrase}; the connection is closed"
    except ValueError:
        return "the request was refused; the connection is closed"


def _reason(error: http_exceptions.HttpProcessingError) -> str:
    """The parser's reason for refusing a request (llhttp's ``Invalid header token``), without
    the excerpt of the offending line the C parser quotes after it (``:\\n\\n  b'…'``): the
    bytes sent, whose words (``Content-Length: 1header``) are no reason."""
    return str(error.message).partition(":\n\n")[0]


def _bytes_waiting(transport: asyncio.BaseTransport) -> bool:
    """Whether bytes (or the peer's end) wait unread in the kernel for the connection of
    ``transport``: ``poll`` with no timeout; False when that cannot be asked (no socket, a
    system without ``poll``)."""
    sock = transport.get_extra_info("socket")
    if sock is None or not hasattr(select, "poll"):
        return False
    poller = select.poll()
    try:
        poller.register(sock.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError):
        return False


class ProblemRequestHandler(web_protocol.RequestHandler):
    """aiohttp's connection handler, its own error answers made problem+json (see module), and
    every connection held to :mod:`memory_api.http.connections`' limits: counted against the
    process's :class:`ConnectionCap` (Q-2c) and its client's :class:`PerClient` cap, its
    requests' heads given :attr:`ConnectionLimits.header_s` to arrive, and kept idle
    :attr:`ConnectionLimits.idle_s` at most (aiohttp's ``keepalive_timeout``)."""

    headers: Mapping[str, str] = {}
    """Sent with each such answer: the service's security headers."""
    cap: ConnectionCap | None = None
    """The cap new connections are admitted by (set when the app starts); None: no cap."""
    limits: ConnectionLimits = ConnectionLimits()
    """The limits of each connection (set from the settings when the app starts)."""
    per_client: PerClient | None = None
    """The cap per client new connections are admitted by (set when the app starts)."""
    slow: SlowClients = SlowClients()
    """Where heads that came too late are noted."""
    _admitted_by: ConnectionCap | None = None
    _client: tuple[PerClient, str | None] | None = None
    _head_timer: asyncio.TimerHandle | None = None
    _last_payload: StreamReader | None = None
    """The body of the last request whose head arrived (None before the first one)."""
    _head_rechecked = False
    """Whether the running head deadline was put off once for bytes the service had not read."""

    def __init__(self, manager: web_server.Server, **kwargs: Any) -> None:
        """aiohttp's own, its ``keepalive_timeout`` :attr:`ConnectionLimits.idle_s`."""
        kwargs["keepalive_timeout"] = type(self).limits.idle_s
        super().__init__(manager, **kwargs)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Admit the connection under the cap and its client's, else answer it 503 and close it
        unread; then give its first request's head :attr:`ConnectionLimits.header_s`."""
        cap, per_client = type(self).cap, type(self).per_client
        client = client_of(transport.get_extra_info("peername"))
        refusal = None
        if cap is not None and not cap.admit():
            refusal = refusal_bytes(cap.limit)
        elif per_client is not None and not per_client.admit(client):
            if cap is not None:
                cap.release()  # admitted there, refused here: never served
            refusal = per_client.refusal()
        if refusal is not None:
            self._manager = None  # never served: connection_lost has nothing to undo
            if isinstance(transport, asyncio.WriteTransport):
                transport.write(refusal)
            transport.close()
            return
        self._admitted_by = cap
        self._client = None if per_client is None else (per_client, client)
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: BaseException | None) -> None:
        """aiohttp's own, and the connection's places under the caps given back."""
        self._stop_head_timer()
        if self._admitted_by is not None:
            self._admitted_by.release()
            self._admitted_by = None
        if self._client is not None:
            self._client[0].release(self._client[1])
            self._client = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """aiohttp's own; a request's head that arrived whole stops its deadline, and the first
        byte of another request's head (after a whole request) starts one. Bytes that arrive
        while the last request's body is still owed are that body, however late (a request
        answered before its body was read: 405, 401, 404 …): they start no deadline.

        Reads aiohttp's private ``_request_count``, ``_messages`` and
        ``_request_in_progress`` (tests/security/test_q2c_slow_clients.py checks they exist)."""
        before = self._request_count
        body_owed = self._body_owed()
        super().data_received(data)
        if self._messages:
            self._last_payload = self._messages[-1][1]
        if self._request_count != before:
            self._stop_head_timer()  # a head arrived whole (perhaps its body follows)
        elif self._head_timer is None and data and not body_owed and self._parser_holds_a_head():
            self._await_head()  # (bytes of a next head sent with a whole request: idle_s)

    def _body_owed(self) -> bool:
        """Whether the last request whose head arrived still waits for bytes of its body."""
        payload = self._messages[-1][1] if self._messages else self._last_payload
        return payload is not None and not payload.is_eof()

    def _parser_holds_a_head(self) -> bool:
        """Whether the parser holds the start of a request's head: bytes arrived since the last
        whole message, that message's body (if any) is complete, and no request is in hand."""
        if self._messages:
            return self._messages[-1][1].is_eof()
        return not self._request_in_progress and not self._body_owed()

    def _await_head(self) -> None:
        if self._head_timer is None and not self._force_close:
            loop = asyncio.get_running_loop()
            self._head_timer = loop.call_later(type(self).limits.header_s, self._head_late)

    def _stop_head_timer(self) -> None:
        self._head_rechecked = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        """The head did not arrive in time: answered 408 (problem+json) and closed; only
        closed after the answer being made when a request is still in hand."""
        self._head_timer = None
        transport = self.transport
        if transport is None or self._force_close:
            return
        if not self._head_rechecked and _bytes_waiting(transport):
            # sent in time and not read yet: the service was late (a starved event loop), not
            # the client; the loop reads them first, then this deadline is judged again
            self._head_rechecked = True
            self._head_timer = asyncio.get_running_loop().call_later(0, self._head_late)
            return
        seconds = type(self).limits.header_s
        type(self).slow.head(seconds)
        if self._request_in_progress or self._messages:
            self.close()  # the answer in hand is finished first; no more requests are read
            return
        transport.write(
            problem_bytes(
                408,
                f"the request's line and headers did not arrive within {seconds:g} s; the "
                "connection is closed",
            )
        )
        self.force_close()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> StreamResponse:
        """aiohttp's own ``handle_error`` (it logs, and refuses once a response has started),
        answered as problem details instead of its text."""
        super().handle_error(request, status, exc, message)
        response = problem_response(status, refusal_detail(status, exc), headers=self.headers)
        response.force_close()
        return response

    async def finish_response(
        self, request: BaseRequest, resp: StreamResponse, start_time: float | None
    ) -> tuple[StreamResponse, bool]:
        """aiohttp's own, an error raised past every middleware answered as problem details.

        aiohttp runs a route's ``Expect`` handler before the middlewares: ``Expect:`` anything
        but ``100-continue`` raised a ``417`` that reached the client as ``text/plain`` quoting
        the header. Whatever ``HTTPException`` escapes so is answered here (the middlewares
        answer every other one, :mod:`memory_api.http.problems`). A request refused before its
        body was invited (:data:`~memory_api.http.expect.REFUSED_UNREAD_KEY`) has its connection
        closed once the answer is written."""
        if isinstance(resp, HTTPException) and resp.status >= 400:
            detail = _ESCAPED_DETAILS.get(resp.status, resp.reason)
            resp = problem_response(
                resp.status,
                detail + "; the connection is closed",  # the body sent, if any, is never read
                instance=request.rel_url.raw_path,
                headers=self.headers,
            )
            resp.force_close()
        finished = await super().finish_response(request, resp, start_time)
        if request.get(REFUSED_UNREAD_KEY):  # its body was never invited: nothing to wait for
            self.force_close()
        return finished


def install_parser_problems(headers: Mapping[str, str]) -> None:
    """Make every aiohttp server of this process use :class:`ProblemRequestHandler`, sending
    ``headers`` with its answers; idempotent."""
    ProblemRequestHandler.headers = dict(headers)
    # the name Server.__call__ instantiates (no public hook: aio-libs/aiohttp#3287)
    web_server.RequestHandler = ProblemRequestHandler  # type: ignore[attr-defined]
