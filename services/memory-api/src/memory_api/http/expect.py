"""``Expect: 100-continue`` answered as the request itself would be (RFC 9110 10.1.1, Q-2).

A client that sends ``Expect: 100-continue`` waits for ``100 Continue`` before it sends the
body, so that a request the server will refuse costs no upload. aiohttp's own handler sent
``100 Continue`` to every such request, a ``Content-Length`` over the body limit included: the
client sent the whole body, only to be answered 413. :func:`expect_handler` answers that
request 413 at once (problem+json naming the limit, the connection closed so that a body sent
anyway is never read as the next request) and sends ``100 Continue`` only to a body within
the limit or of unknown length (chunked: the limit is then kept while it is read).

Every route gets it (:func:`memory_api.app.create_app`); a route with a limit of its own (git's
pushes and fetches, R-1) passes that limit. aiohttp runs it before the middlewares, as its own.
Any other ``Expect`` value raises ``417``, as aiohttp's did (answered as problem details by
:class:`memory_api.http.parser_errors.ProblemRequestHandler`); HTTP/1.0 knows no ``Expect``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import HttpVersion11, hdrs, web

from memory_api.http.problems import body_too_large, problem_response

__all__ = ["BodyLimit", "ExpectHandler", "client_max_size", "expect_handler"]

BodyLimit = Callable[[web.Request], int]
"""The largest body in bytes a route takes, from its request."""
ExpectHandler = Callable[[web.Request], Awaitable[web.StreamResponse | None]]

_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def client_max_size(request: web.Request) -> int:
    """The application's body limit (``MEMORY_API_MAX_BODY``), the limit of most routes."""
    return request.client_max_size


def expect_handler(limit: BodyLimit = client_max_size) -> ExpectHandler:
    """An aiohttp ``expect_handler`` for a route whose bodies may hold ``limit(request)`` bytes.

    It returns a 413 problem response (connection closed, body unread) when ``Content-Length``
    is over the limit, else writes ``100 Continue`` and returns None (the route then runs).
    Raises ``web.HTTPExpectationFailed`` (417) for an ``Expect`` other than ``100-continue``.
    """

    async def handle(request: web.Request) -> web.StreamResponse | None:
        if request.version != HttpVersion11:
            return None
        if request.headers.get(hdrs.EXPECT, "").lower() != "100-continue":
            raise web.HTTPExpectationFailed()
        most = limit(request)
        length = request.content_length
        if length is not None and length > most:
            response = problem_response(
                413,
                f"{body_too_large(most)} (Content-Length: {length}); it was not read: send a "
                "smaller one",
                instance=request.path,
            )
            response.force_close()
            return response
        await request.writer.write(_CONTINUE)
        request.writer.output_size = 0  # the answer's own size starts after the interim one
        return None

    return handle
