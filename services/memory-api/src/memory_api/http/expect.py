"""``Expect: 100-continue`` answered as the request itself would be (RFC 9110 10.1.1, Q-2).

A client that sends ``Expect: 100-continue`` waits for ``100 Continue`` before it sends the
body, so that a request the server will refuse costs no upload. aiohttp's own handler sent
``100 Continue`` to every such request: the client sent the whole body, only to be answered
413 for a ``Content-Length`` over the limit, 404 for a path nothing serves, 405 for a method the
path does not take, 401 for a missing token. :func:`expect_handler` answers such a request at
once, as its route would (problem+json, the connection closed so that a body sent anyway is
never read as the next request), in this order:

- what the request's gates refuse before any handler runs (:data:`REQUEST_GATES_KEY`: a path
  or query that is not UTF-8 or names a parameter the route does not take, 400; the bearer
  token, 401 or 503, a project out of its reach, the browser rules, 400 or 403);
- 404 or 405 (with ``Allow``): no route takes it (:func:`install_expect_refusals` makes
  aiohttp's answer for those, which runs no route, the same);
- 415: the route takes a JSON body (its operation lists one) and the headers say this one is
  not JSON or is in a coding the service does not decode
  (:func:`memory_api.http.jsonio.check_json_headers`);
- 413: ``Content-Length`` over the route's limit;

and sends ``100 Continue`` only to the rest: the route then runs (what it refuses after reading
the body, 415 or 422 say, is answered after the body, as it must be). A body of unknown length
(chunked) is invited too; the limit is then kept while it is read.

Every route gets it (:func:`memory_api.app.create_app`); a route with a limit of its own (git's
pushes and fetches, R-1) passes that limit. aiohttp runs it before the middlewares, as its own.
Any other ``Expect`` value raises ``417``, as aiohttp's did (answered as problem details by
:class:`memory_api.http.parser_errors.ProblemRequestHandler`); HTTP/1.0 knows no ``Expect``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import HttpVersion11, hdrs, web, web_urldispatcher
from aiohttp.typedefs import Handler, Middleware

from memory_api.http.jsonio import check_json_headers
from memory_api.http.openapi import OPERATIONS
from memory_api.http.problems import body_too_large, problem_middleware, problem_response

__all__ = [
    "REFUSED_UNREAD_KEY",
    "REQUEST_GATES_KEY",
    "BodyLimit",
    "ExpectHandler",
    "client_max_size",
    "expect_handler",
    "install_expect_refusals",
]

BodyLimit = Callable[[web.Request], int]
"""The largest body in bytes a route takes, from its request."""
ExpectHandler = Callable[[web.Request], Awaitable[web.StreamResponse | None]]

REQUEST_GATES_KEY: web.AppKey[tuple[Middleware, ...]] = web.AppKey("request_gates")
"""The middlewares that refuse a request before its handler runs, whatever its body, in the
order they run (the path and query rules, the bearer token and the browser rules:
:mod:`memory_api.http.url_text`, :func:`memory_api.http.auth.auth_middleware`,
:mod:`memory_api.http.query_names`); asked before ``100 Continue`` is sent too."""

REFUSED_UNREAD_KEY = web.RequestKey("refused_unread", bool)
"""Set on a request answered here without ``100 Continue``: its body will not come, so the
connection is closed as soon as the answer is written, not after aiohttp's lingering read of
up to 10 s (:class:`memory_api.http.parser_errors.ProblemRequestHandler`)."""

_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
_ADMITTED = web.Response(status=204)
"""What the gate answers for a request it lets through (never sent)."""


async def _routed(request: web.Request) -> web.StreamResponse:
    """What the request's route answers before it reads anything: 404 or 405 when there is
    none, 415 when it takes a JSON body and the headers say this one is not (raised); else
    that it is admitted."""
    refusal = request.match_info.http_exception
    if refusal is not None:
        raise refusal
    resource = request.match_info.route.resource
    if resource is not None:
        operation = OPERATIONS.get((request.method, resource.canonical))
        if operation is not None and operation.body is not None:
            check_json_headers(request)
    return _ADMITTED


def _through(gate: Middleware, handler: Handler) -> Handler:
    """``handler`` behind the middleware ``gate``."""

    async def run(request: web.Request) -> web.StreamResponse:
        return await gate(request, handler)

    return run


async def _refused_unread(request: web.Request) -> web.Response | None:
    """The answer to ``request`` when its gates or its route refuse it whatever its body (401,
    403, 503, 404, 405 …, in the order the middlewares would; problem+json, connection
    closed); None when neither does."""
    gates: tuple[Middleware, ...] = request.app.get(REQUEST_GATES_KEY, ())
    gates_then_route: Handler = _routed
    for gate in reversed(gates):
        gates_then_route = _through(gate, gates_then_route)
    response = await problem_middleware(request, gates_then_route)
    if response is _ADMITTED or not isinstance(response, web.Response):
        return None
    response.force_close()
    return response


def client_max_size(request: web.Request) -> int:
    """The application's body limit (``MEMORY_API_MAX_BODY``), the limit of most routes."""
    return request.client_max_size


def expect_handler(limit: BodyLimit = client_max_size) -> ExpectHandler:
    """An aiohttp ``expect_handler`` for a route whose bodies may hold ``limit(request)`` bytes.

    It returns the problem response (connection closed, body unread) when the route or the
    request's gates refuse it (see the module), or 413 when ``Content-Length`` is over the
    limit; else writes ``100 Continue`` and returns None (the route then runs). Raises
    ``web.HTTPExpectationFailed`` (417) for an ``Expect`` other than ``100-continue``.
    """

    async def handle(request: web.Request) -> web.StreamResponse | None:
        if request.version != HttpVersion11:
            return None
        if request.headers.get(hdrs.EXPECT, "").lower() != "100-continue":
            raise web.HTTPExpectationFailed()
        refused = await _refused_unread(request)
        most = limit(request)
        length = request.content_length
        if refused is None and length is not None and length > most:
            refused = problem_response(
                413,
                f"{body_too_large(most)} (Content-Length: {length}); it was not read: send a "
                "smaller one",
                instance=request.rel_url.raw_path,
            )
            refused.force_close()
        if refused is not None:
            request[REFUSED_UNREAD_KEY] = True
            return refused
        await request.writer.write(_CONTINUE)
        request.writer.output_size = 0  # the answer's own size starts after the interim one
        return None

    return handle


def install_expect_refusals() -> None:
    """Make aiohttp answer ``Expect: 100-continue`` on a path nothing serves (404) or with a
    method its route does not take (405) at once, as :func:`expect_handler` does; idempotent.

    aiohttp answers those through a route of its own, made per request with its default
    ``Expect`` handler, which sends ``100 Continue`` to everything; it offers no hook for it,
    so the module name that route is made with is pointed at :func:`expect_handler`.
    """
    web_urldispatcher._default_expect_handler = _FOR_NO_ROUTE  # type: ignore[assignment]


_FOR_NO_ROUTE = expect_handler()
