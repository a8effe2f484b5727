"""Q-2, RFC 9110 10.1.1: ``Expect: 100-continue`` is answered as the request would be.

A client that announces its body and waits for ``100 Continue`` must not be invited to send a
body the service will refuse whatever it holds: a ``Content-Length`` over the route's limit
(413), a path nothing serves (404), a method the path does not take (405), a missing token
(401), a browser rule (403) are answered at once, without ``100 Continue``, and the connection
is closed at once (the body is never read). Within the limit the client gets ``100 Continue``
and then the route's answer. Spoken over a raw socket, since an HTTP client library hides the
interim answer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import DEFAULT_SYNC_MAX_PUSH, Settings

LIMIT = 4096
"""The service's body limit here (``MEMORY_API_MAX_BODY``), in bytes."""
ANSWER_WAIT_S = 30.0
"""How long an answer may take before the test gives up (a bound, not an assertion)."""
LINGERING_S = 3600.0
"""aiohttp's wait for a refused request's body before it closes (10 s by default), made longer
than any test: a connection that closes within ``ANSWER_WAIT_S`` was closed at once."""
SECRET = "admin-secret-0123456789abcdef"
AGENTS = "/api/projects/acme/agents"
PUSH = "/api/projects/acme/agents/coder/memory/git/user.git/git-receive-pack"


@pytest.fixture
async def server(data_dir: Path) -> AsyncIterator[TestServer]:
    app = create_app(Settings(data_dir=data_dir, max_body=LIMIT))
    served = TestServer(app, lingering_time=LINGERING_S)
    await served.start_server()
    try:
        yield served
    finally:
        await served.close()


def request_head(
    path: str,
    length: int,
    content_type: str = "application/json",
    *,
    method: str = "POST",
    more: tuple[str, ...] = (),
) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: localhost",
        f"Content-Type: {content_type}",
        f"Content-Length: {length}",
        "Expect: 100-continue",
        *more,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def head_only(server: TestServer, head: bytes) -> bytes:
    """Send ``head`` and no body; return everything the service sends until it closes (within
    ``ANSWER_WAIT_S``: closed at once, see ``LINGERING_S``)."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(head)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()


def problem_of(answer: bytes) -> tuple[str, dict[str, str], dict[str, object]]:
    """The status line, headers (lower-cased names) and JSON body of a whole answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    return status, headers, json.loads(body)


async def test_q2_a_body_announced_over_the_limit_is_413_at_once_without_100_continue(
    server: TestServer,
) -> None:
    answer = await head_only(server, request_head(AGENTS, LIMIT + 1))

    assert b"100 Continue" not in answer
    status, headers, problem = problem_of(answer)
    assert status == "HTTP/1.1 413 Request Entity Too Large"
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert headers["x-content-type-options"] == "nosniff"
    assert problem["status"] == 413
    assert problem["detail"] == (
        f"the request body is larger than the limit of {LIMIT} bytes (Content-Length: "
        f"{LIMIT + 1}); it was not read: send a smaller one"
    )
    assert problem["instance"] == AGENTS


async def test_q2_a_body_within_the_limit_gets_100_continue_then_its_answer(
    server: TestServer,
) -> None:
    body = json.dumps({"id": "coder", "name": "Coder"}).encode()
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(request_head(AGENTS, len(body)))
        await writer.drain()
        interim = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WAIT_S)
        writer.write(body)
        await writer.drain()
        final = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()

    assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
    assert final.startswith(b"HTTP/1.1 201 Created\r\n")


async def test_q2_a_route_with_its_own_body_limit_answers_100_continue_by_that_limit(
    server: TestServer,
) -> None:
    """R-1: a git push may hold more than a JSON body (``MEMORY_API_SYNC_MAX_PUSH``): a push over
    the service's JSON limit is invited, one over the push limit is refused at once."""
    push = "application/x-git-receive-pack-request"
    most = DEFAULT_SYNC_MAX_PUSH
    assert most > LIMIT

    refused = await head_only(server, request_head(PUSH, most + 1, push))
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(request_head(PUSH, LIMIT + 1, push))
        await writer.drain()
        invited = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()

    status, _, problem = problem_of(refused)
    assert status == "HTTP/1.1 413 Request Entity Too Large"
    assert f"larger than the limit of {most} bytes" in str(problem["detail"])
    assert invited == b"HTTP/1.1 100 Continue\r\n\r\n"


@pytest.mark.parametrize(
    ("method", "path", "status", "detail"),
    [
        ("POST", "/nothing-here", "404 Not Found", "nothing is served at /nothing-here"),
        ("POST", "/api/projects/acme/nothing", "404 Not Found", "nothing is served at /api/"),
        ("PUT", AGENTS, "405 Method Not Allowed", "PUT is not allowed on /api/projects/acme/"
         "agents; allowed: GET,HEAD,POST"),
        ("DELETE", "/", "405 Method Not Allowed", "DELETE is not allowed on /; allowed: GET,HEAD"),
    ],
)  # fmt: skip
async def test_q2_a_request_no_route_takes_is_answered_at_once_without_100_continue(
    server: TestServer, method: str, path: str, status: str, detail: str
) -> None:
    answer = await head_only(server, request_head(path, 20, method=method))

    assert b"100 Continue" not in answer
    status_line, headers, problem = problem_of(answer)
    assert status_line == f"HTTP/1.1 {status}"
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert str(problem["detail"]).startswith(detail)
    if status.startswith("405"):
        assert headers["allow"] == detail.rpartition("allowed: ")[2]


@pytest.mark.parametrize(
    ("more", "status", "rule"),
    [
        (("Origin: http://evil.example",), "403 Forbidden", "(Origin rule)"),
        (("Sec-Fetch-Site: cross-site",), "403 Forbidden", "(cross-site request rule)"),
        (("Content-Encoding: compress",), "415 Unsupported Media Type",
         "Content-Encoding 'compress' is not one the service decodes"),
    ],
)  # fmt: skip
async def test_q2_a_request_a_browser_rule_refuses_is_answered_at_once(
    server: TestServer, more: tuple[str, ...], status: str, rule: str
) -> None:
    answer = await head_only(server, request_head(AGENTS, 20, more=more))

    assert b"100 Continue" not in answer
    status_line, headers, problem = problem_of(answer)
    assert status_line == f"HTTP/1.1 {status}"
    assert headers["connection"] == "close"
    assert rule in str(problem["detail"])


async def test_q2_a_request_without_its_token_is_401_at_once_and_with_it_is_invited(
    data_dir: Path,
) -> None:
    """A-10: the token is asked for before the body, on a path nothing serves too (every
    ``/api/`` path answers 401 first, as without ``Expect``)."""
    tokens = (TokenEntry(name="admin", sha256=hash_secret(SECRET)),)
    app = create_app(Settings(data_dir=data_dir, max_body=LIMIT, env_tokens=tokens))
    served = TestServer(app, lingering_time=LINGERING_S)
    await served.start_server()
    try:
        refused = await head_only(served, request_head(AGENTS, 20))
        unknown = await head_only(served, request_head("/api/nothing", 20))
        reader, writer = await asyncio.open_connection(served.host, served.port)
        try:
            bearer = (f"Authorization: Bearer {SECRET}",)
            writer.write(request_head(AGENTS, 20, more=bearer))
            await writer.drain()
            invited = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WAIT_S)
        finally:
            writer.close()
            await writer.wait_closed()
    finally:
        await served.close()

    for answer in (refused, unknown):
        assert b"100 Continue" not in answer
        status_line, headers, problem = problem_of(answer)
        assert status_line == "HTTP/1.1 401 Unauthorized"
        assert headers["www-authenticate"] == 'Bearer realm="memory-api"'
        assert headers["connection"] == "close"
        assert "bearer token" in str(problem["detail"])
    assert invited == b"HTTP/1.1 100 Continue\r\n\r\n"


async def test_q2_a_body_not_declared_json_to_a_json_route_is_415_at_once(
    server: TestServer,
) -> None:
    """A-10a: the route takes only JSON, which the headers alone say this body is not."""
    answer = await head_only(server, request_head(AGENTS, 20, "text/plain;charset=UTF-8"))

    assert b"100 Continue" not in answer
    status_line, headers, problem = problem_of(answer)
    assert status_line == "HTTP/1.1 415 Unsupported Media Type"
    assert headers["connection"] == "close"
    assert "(JSON media type rule" in str(problem["detail"])


@pytest.mark.parametrize(
    ("path", "detail"),
    [
        (AGENTS + "?x=%FF", "the request's query holds %FF, percent-encoded bytes that are not"),
        (AGENTS + "?limit=5", "this route takes no query parameter 'limit': it takes none"),
    ],
)
async def test_q2_a_request_whose_path_or_query_is_refused_is_400_at_once(
    server: TestServer, path: str, detail: str
) -> None:
    answer = await head_only(server, request_head(path, 20))

    assert b"100 Continue" not in answer
    status_line, headers, problem = problem_of(answer)
    assert status_line == "HTTP/1.1 400 Bad Request"
    assert headers["connection"] == "close"
    assert str(problem["detail"]).startswith(detail)
