"""A-11, Q-2: a request aiohttp's parser refuses is answered as problem details too.

Before any middleware runs, aiohttp refuses a header past 8190 bytes, a byte outside ASCII in a
header name, a control character in a value, a request line that is not HTTP (a TLS handshake on
the plain port); it answered ``text/plain`` quoting the offending line. Now the answer is
``application/problem+json`` naming the kind of refusal, never the bytes (they may hold a
token), with the security headers, and the connection is closed.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.settings import Settings

SECRET = b"TOPSECRET-0123456789"


@pytest.mark.parametrize(
    ("request_bytes", "detail"),
    [
        (b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + SECRET + b"\x01\r\n\r\n",
         "a header name or value holds a character HTTP does not allow"),
        ("GET /api/me HTTP/1.1\r\nHost: x\r\nTökén: ".encode() + SECRET + b"\r\n\r\n",
         "a header name or value holds a character HTTP does not allow"),
        (b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Big: " + SECRET + b"a" * 9000 + b"\r\n\r\n",
         "longer than the service reads (8190 bytes)"),
        (b"GET /api/me?token=" + SECRET + b"q" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
         "longer than the service reads (8190 bytes)"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + SECRET,
         "does not start with an HTTP method (TLS or another protocol"),
        (b"HELLO " + SECRET + b"\r\n\r\n", "does not start with an HTTP method"),
        # Not a bad character: a header sent twice that may be sent once, or too many headers.
        (b"GET /api/me HTTP/1.1\r\nHost: x\r\nHost: " + SECRET + b"\r\n\r\n",
         "a header that may be sent only once (Host, Content-Length"),
        (b"POST /api/me HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\n",
         "was sent more than once: send it once"),
        (b"GET /api/me HTTP/1.1\r\nHost: x\r\nContent-Type: a\r\nContent-Type: " + SECRET
         + b"\r\n\r\n", "was sent more than once: send it once"),
        (b"GET /api/me HTTP/1.1\r\nHost: x\r\n"
         + b"".join(b"X-%d: %s\r\n" % (n, SECRET) for n in range(200)) + b"\r\n",
         "more header lines than the service reads (128)"),
        # No Host at all: it was told that a header held a character HTTP does not allow.
        (b"GET /api/me?token=" + SECRET + b" HTTP/1.1\r\nAccept: */*\r\n\r\n",
         "an HTTP/1.1 request must name the host it is sent to in a Host header (RFC 9110 7.2)"),
        # The kind of refusal is the parser's reason, not a word of the line it quotes: a
        # Content-Length holding "header" was told a header held a character HTTP does not allow.
        (b"POST /api/me HTTP/1.1\r\nHost: x\r\nContent-Length: 1header" + SECRET + b"\r\n\r\n",
         "the request is not valid HTTP/1.1: it could not be parsed"),
        (b"POST /api/me HTTP/1.1\r\nHost: x\r\nX Token: " + SECRET + b"\r\n\r\n",
         "a header name or value holds a character HTTP does not allow"),
    ],
    ids=["control-char-in-token", "non-ascii-header-name", "huge-header", "huge-request-line",
         "tls-handshake", "not-http", "host-twice", "content-length-twice",
         "content-type-twice", "too-many-headers", "host-missing", "header-in-content-length",
         "space-in-header-name"],
)  # fmt: skip
async def test_a11_a_request_the_parser_refuses_is_a_problem_json_400_without_its_bytes(
    data_dir: Path, request_bytes: bytes, detail: str
) -> None:
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server()
    try:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(request_bytes)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)  # read to the end: the server closes
        writer.close()
        await writer.wait_closed()
    finally:
        await server.close()

    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert " 400 " in lines[0]
    headers = {
        name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])
    }
    assert headers["content-type"] == "application/problem+json"
    assert headers["x-content-type-options"] == "nosniff"
    problem = json.loads(body)
    assert problem["status"] == 400 and problem["title"] == "Bad Request"
    assert detail in problem["detail"]
    assert "the connection is closed" in problem["detail"]
    assert SECRET not in answer


@pytest.mark.parametrize(
    ("path", "answer_to_continue"),
    [("/api/me", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 "),
     ("/healthz", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 "),
     ("/no/such/page", b"HTTP/1.1 404 Not Found\r\n")],
)  # fmt: skip
async def test_a11_an_expect_header_aiohttp_refuses_before_the_middlewares_is_a_problem(
    data_dir: Path, path: str, answer_to_continue: bytes
) -> None:
    """aiohttp answers ``Expect:`` with anything but ``100-continue`` (a 417) before any
    middleware runs: it came as ``text/plain`` quoting the header. Now it is problem details
    saying what to send, and ``100-continue`` still gets its interim answer where a route takes
    the request (Q-2: a path nothing serves is 404 at once)."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server()

    async def exchange(expect: bytes) -> bytes:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: localhost\r\nExpect: "
                     + expect + b"\r\nConnection: close\r\n\r\n")  # fmt: skip
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)
        writer.close()
        await writer.wait_closed()
        return answer

    try:
        refused = await exchange(b"200-ok " + SECRET)
        continued = await exchange(b"100-continue")
    finally:
        await server.close()

    head, _, body = refused.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert " 417 " in lines[0]
    assert "Content-Type: application/problem+json" in lines
    assert "X-Content-Type-Options: nosniff" in lines
    problem = json.loads(body)
    assert problem["status"] == 417
    assert "knows only 'Expect: 100-continue'" in problem["detail"]
    assert SECRET not in refused
    assert continued.startswith(answer_to_continue)


@pytest.mark.parametrize(
    "request_line",
    [b"CONNECT 127.0.0.1:22 HTTP/1.1", b"OPTIONS * HTTP/1.1"],
    ids=["connect", "asterisk"],
)
async def test_a11_a_request_target_that_is_no_path_is_told_so(
    data_dir: Path, request_line: bytes
) -> None:
    """``CONNECT host:port`` was answered "nothing is served at " (the path empty)."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server()
    try:
        reader, writer = await asyncio.open_connection(server.host, server.port)
        writer.write(request_line + b"\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)
        writer.close()
        await writer.wait_closed()
    finally:
        await server.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b" 404 " in head.split(b"\r\n")[0]
    problem = json.loads(body)
    assert "target is not a path" in problem["detail"]
    assert "serves paths only, such as /api/projects" in problem["detail"]
