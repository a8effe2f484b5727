"""Q-2, RFC 9112 6.1: a body in a transfer coding the service does not decode is 501, never
read as plain.

aiohttp undoes ``chunked`` and passed any other transfer coding listed before it over:
``Transfer-Encoding: gzip, chunked`` had its gzip bytes parsed as the JSON itself (a 400 that
blamed the client's JSON, "invalid character (byte 0)"), and ``foo, chunked`` started a Session
as if the body were plain. Now each is 501 naming the header, before any route runs and before
``100 Continue``, and nothing is made; ``chunked`` alone is served as before. Requests are
spoken over a raw socket, so the header is exactly the bytes given.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.settings import Settings

from tests.api.conftest import AGENT, PROJECT

SESSION_START = f"/api/projects/{PROJECT}/agents/{AGENT}/memory/session-start".encode()
BODY = b'{"workspace": "/tmp"}'
ANSWER_WAIT_S = 30.0
"""How long an answer may take before the test gives up (a bound, not an assertion)."""


@pytest.fixture
async def server(data_dir: Path) -> AsyncIterator[TestServer]:
    served = TestServer(create_app(Settings(data_dir=data_dir)))
    await served.start_server()
    try:
        yield served
    finally:
        await served.close()


async def _post(server: TestServer, head: bytes, body: bytes) -> tuple[int, dict[str, object]]:
    """``POST`` a Session start with the header lines ``head`` and the raw ``body``; the status
    and the JSON answer."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(b"POST " + SESSION_START + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        writer.write(b"Content-Type: application/json\r\nConnection: close\r\n" + head + b"\r\n")
        writer.write(body)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()
    head_part, _, rest = answer.partition(b"\r\n\r\n")
    return int(head_part.split(b" ", 2)[1]), json.loads(rest)


def _chunked(data: bytes) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n0\r\n\r\n"


async def _agent(server: TestServer) -> None:
    """Create the agent the Session starts are for (201)."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    body = json.dumps({"id": AGENT, "name": "Coder"}).encode()
    try:
        writer.write(b"POST /api/projects/" + PROJECT.encode() + b"/agents HTTP/1.1\r\n")
        writer.write(b"Host: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n")
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]


@pytest.mark.parametrize(
    ("coding", "body"),
    [
        (b"gzip, chunked", _chunked(gzip.compress(BODY))),
        (b"foo, chunked", _chunked(BODY)),
        (b"identity, chunked", _chunked(BODY)),
    ],
    ids=["gzip", "unknown", "identity"],
)
async def test_q2_a_transfer_coding_besides_chunked_is_501_naming_it(
    server: TestServer, data_dir: Path, coding: bytes, body: bytes
) -> None:
    await _agent(server)

    status, problem = await _post(server, b"Transfer-Encoding: " + coding + b"\r\n", body)

    assert status == 501
    assert coding.decode() in str(problem["detail"])
    assert "(transfer coding rule)" in str(problem["detail"])
    memory = data_dir / "agents" / AGENT / "agent_state" / "memory"
    assert [p.name for p in memory.glob("*") if p.name != "user"] == []


async def test_q2_a_chunked_body_alone_is_served(server: TestServer) -> None:
    await _agent(server)

    status, started = await _post(server, b"Transfer-Encoding: chunked\r\n", _chunked(BODY))

    assert status == 200
    assert started["injected"] is True
