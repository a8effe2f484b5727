"""Q-2, RFC 9110 10.1.1: ``Expect: 100-continue`` is answered as the request would be.

A client that announces its body and waits for ``100 Continue`` must not be invited to send a
body the service will refuse: a ``Content-Length`` over the route's limit is answered 413 at
once, without ``100 Continue``, and the connection is closed (the body is never read). Within
the limit the client gets ``100 Continue`` and then the route's answer. Spoken over a raw
socket, since an HTTP client library hides the interim answer. An answer is read by its own
framing (head, then ``Content-Length`` bytes), never by waiting for the connection to close:
aiohttp keeps reading an unread body for 10 s before it closes (lingering close, RFC 9112 9.6).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.settings import DEFAULT_SYNC_MAX_PUSH, Settings

LIMIT = 4096
"""The service's body limit here (``MEMORY_API_MAX_BODY``), in bytes."""
ANSWER_WAIT_S = 30.0
"""How long an answer may take before the test gives up (a bound, not an assertion)."""
AGENTS = "/api/projects/acme/agents"
PUSH = "/api/projects/acme/agents/coder/memory/git/user.git/git-receive-pack"


@pytest.fixture
async def server(data_dir: Path) -> AsyncIterator[TestServer]:
    served = TestServer(create_app(Settings(data_dir=data_dir, max_body=LIMIT)))
    await served.start_server()
    try:
        yield served
    finally:
        await served.close()


def request_head(path: str, length: int, content_type: str = "application/json") -> bytes:
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: localhost",
        f"Content-Type: {content_type}",
        f"Content-Length: {length}",
        "Expect: 100-continue",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def answer_of(reader: asyncio.StreamReader) -> bytes:
    """One whole answer from ``reader``: its head and the body its ``Content-Length`` gives."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WAIT_S)
    _, headers = status_and_headers(head)
    length = int(headers["content-length"])
    return head + await asyncio.wait_for(reader.readexactly(length), ANSWER_WAIT_S)


async def head_only(server: TestServer, head: bytes) -> bytes:
    """Send ``head`` and no body; return the whole answer the service sends to it."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(head)
        await writer.drain()
        return await answer_of(reader)
    finally:
        writer.close()
        await writer.wait_closed()


def status_and_headers(head: bytes) -> tuple[str, dict[str, str]]:
    """The status line and headers (lower-cased names) of an answer's head."""
    status, *lines = head.rstrip(b"\r\n").decode("latin-1").split("\r\n")
    return status, {
        name.lower(): value for name, _, value in (line.partition(": ") for line in lines)
    }


def problem_of(answer: bytes) -> tuple[str, dict[str, str], dict[str, object]]:
    """The status line, headers (lower-cased names) and JSON body of a whole answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    return *status_and_headers(head), json.loads(body)


async def test_q2_a_body_announced_over_the_limit_is_413_at_once_without_100_continue(
    server: TestServer,
) -> None:
    """A client that stops waiting and sends the body anyway (curl does after a second) gets
    no other answer: the connection closes once the body is in."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(request_head(AGENTS, LIMIT + 1))
        await writer.drain()
        answer = await answer_of(reader)
        writer.write(b"x" * (LIMIT + 1))
        await writer.drain()
        after = await asyncio.wait_for(reader.read(), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()

    assert after == b""  # the end of the connection, no answer to the body
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
