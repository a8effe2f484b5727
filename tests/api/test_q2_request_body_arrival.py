"""A-9, Q-2: a JSON body is read the same however its bytes arrive.

``read_json`` takes a body whose every byte arrived with its headers straight from aiohttp's
buffer, and awaits the rest otherwise. Either way the answer is the same: a body sent after its
headers, or in chunks, decodes; a body that grew past the limit when decompressed is a 413; an
empty or blank one is a 400; a body the client never finished is a 400, never a 5xx, and one
it never finishes while it stays, or trickles slower than it may, is a 408 after
``MEMORY_API_BODY_TIMEOUT`` seconds (``Settings.body_timeout``), the connection then closed.
"""

from __future__ import annotations

import asyncio
import json
import re
import zlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp import ClientSession, web
from memory_api.app import create_app
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient
from yarl import URL

from tests.api.conftest import JSON_TYPE, AgentHome, Client, expect_problem, memory_url

JSON_FIELD = ("Content-Type: application/json",)
PAUSE_S = 0.05
"""Between two parts of a request: long enough for the server to handle the first alone."""


async def send_in_parts(client: Client, *parts: bytes) -> tuple[int, dict[str, object]]:
    """Send ``parts`` on one connection, pausing after each; return the status and JSON body."""
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        for part in parts:
            writer.write(part)
            await writer.drain()
            await asyncio.sleep(PAUSE_S)
        answer = await reader.read()
    finally:
        writer.close()
        await writer.wait_closed()
    head, _, payload = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload)


def head(path: str, *fields: str) -> bytes:
    """A POST request's head (``Connection: close``: the answer ends with the connection)."""
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *JSON_FIELD, *fields]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunked(body: bytes, size: int) -> list[bytes]:
    """``body`` as HTTP/1.1 chunks of ``size`` bytes, the last chunk (zero) apart."""
    chunks = [body[at : at + size] for at in range(0, len(body), size)]
    return [f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" for chunk in chunks] + [b"0\r\n\r\n"]


@pytest.fixture
def start_body(agent: AgentHome) -> bytes:
    """A Session start body naming a real Workspace of the agent."""
    workspace, _key = agent.workspace("app")
    return json.dumps({"workspace": str(workspace)}).encode()


SESSION_START = memory_url() + "/session-start"
COUNTED = re.compile(
    r'memory_api_requests_total\{method="POST",route="[^"]*/session-start",status="(\d+)"\}'
)
"""The request counter's lines of Session starts, by status."""


async def test_a9_a_body_sent_after_its_headers_decodes(client: Client, start_body: bytes) -> None:
    request = head(SESSION_START, f"Content-Length: {len(start_body)}")
    status, answer = await send_in_parts(client, request, start_body[:10], start_body[10:])
    assert status == 200, answer
    assert answer["workspaceKind"] == "persistent"


@pytest.mark.parametrize("together", [True, False], ids=["one-write", "chunk-by-chunk"])
async def test_a9_a_chunked_body_decodes(client: Client, start_body: bytes, together: bool) -> None:
    request = head(SESSION_START, "Transfer-Encoding: chunked")
    chunks = chunked(start_body, 16)
    parts = [request + b"".join(chunks)] if together else [request, *chunks]
    status, answer = await send_in_parts(client, *parts)
    assert status == 200, answer
    assert answer["workspaceKind"] == "persistent"


@pytest.mark.parametrize("later", [False, True], ids=["with-headers", "after-headers"])
async def test_q2_a_body_grown_past_the_limit_when_decompressed_is_413(
    aiohttp_client: AiohttpClient, data_dir: Path, later: bool
) -> None:
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir, max_body=2048)))
    body = zlib.compress(b'{"workspace": "/' + b"w" * 4096 + b'"}')
    assert len(body) < 100
    request = head(SESSION_START, f"Content-Length: {len(body)}", "Content-Encoding: deflate")
    parts = [request, body] if later else [request + body]
    status, problem = await send_in_parts(client, *parts)
    assert status == 413
    assert "larger than the limit of 2048 bytes" in str(problem["detail"])


@pytest.mark.parametrize("body", [b"", b" \r\n\t "], ids=["empty", "blank"])
async def test_q2_an_empty_or_blank_body_is_400(
    client: Client, agent: AgentHome, body: bytes
) -> None:
    response = await client.post(SESSION_START, data=body, headers=JSON_TYPE)
    await expect_problem(response, 400, "the request body is empty; expected a JSON object")


@pytest.fixture
async def served(settings: Settings) -> AsyncIterator[str]:
    """The app served as ``memory-api serve`` serves it (aiohttp's own test server cancels a
    handler whose client went away, which ``web.run_app`` does not); its base URL."""
    runner = web.AppRunner(create_app(settings))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def test_q2_a_body_cut_off_by_a_lost_connection_is_a_400_not_a_data_dir_error(
    served: str, start_body: bytes
) -> None:
    """The client announces more than it sends and goes away: the handler's answer (nobody is
    left to read it) is the 400 of a cut-off body, as the request counter shows."""
    url = URL(served)
    _reader, writer = await asyncio.open_connection(url.host, url.port)
    writer.write(head(SESSION_START, f"Content-Length: {len(start_body) + 50}") + start_body)
    await writer.drain()
    await asyncio.sleep(PAUSE_S)
    writer.close()
    await writer.wait_closed()
    statuses: list[str] = []
    async with ClientSession() as session:
        for _ in range(100):
            async with session.get(f"{served}/metrics") as response:
                statuses = COUNTED.findall(await response.text())
            if statuses:
                break
            await asyncio.sleep(PAUSE_S)
    assert statuses == ["400"]


async def test_q2_a_body_that_never_all_arrives_is_408_and_the_connection_closed(
    aiohttp_client: AiohttpClient, settings: Settings, start_body: bytes
) -> None:
    """A client that announces more than it sends, and stays, cannot hold its request open
    beyond the body deadline (``Settings.body_timeout``; RFC 9110 15.5.9: 408, and ``close``)."""
    client = await aiohttp_client(create_app(replace(settings, body_timeout=0.2)))
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        request = head(SESSION_START, f"Content-Length: {len(start_body) + 50}")
        writer.write(request.replace(b"Connection: close\r\n", b"") + start_body)  # keep-alive
        await writer.drain()
        answer_head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=5)
        length = int(re.findall(rb"Content-Length: (\d+)", answer_head)[0])
        problem = json.loads(await reader.readexactly(length))
    finally:
        writer.close()
        await writer.wait_closed()
    assert answer_head.startswith(b"HTTP/1.1 408 ") and b"Connection: close" in answer_head
    assert problem["detail"] == (
        f"the request body did not arrive within 0.2 s ({len(start_body) + 50} bytes were "
        "announced)"
    )
    status, answer = await send_in_parts(
        client, head(SESSION_START, f"Content-Length: {len(start_body)}") + start_body
    )
    assert status == 200, answer


BODY_S = 1
"""``MEMORY_API_BODY_TIMEOUT`` for the trickle below: its smallest value, in whole seconds."""
DEADLINE_S = 30.0
"""The longest any wait on the service may take before the test gives up (a bound, not a
timing)."""


async def test_q2_a_body_trickled_slower_than_the_body_timeout_is_408_and_closed(
    aiohttp_client: AiohttpClient, data_dir: Path, start_body: bytes
) -> None:
    """``MEMORY_API_BODY_TIMEOUT`` (not a fixed 30 s) bounds a body sent a byte at a time: each
    byte keeps the connection busy, but the whole body must arrive within the setting. The pace
    of the trickle is a wait on the service's answer, so the test ends when the service says.
    After the 408 the client sends the rest it announced at once, as curl does: aiohttp's
    lingering close reads an unfinished body for up to 10 s before it closes, and a client
    that stopped mid-body held this test 10 s for nothing."""
    settings = Settings.from_env(
        {"MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_BODY_TIMEOUT": str(BODY_S)}
    )
    client = await aiohttp_client(create_app(settings))
    padded = start_body[:-1] + b"," + b" " * 100_000 + b'"pad": 0}'
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        request = head(SESSION_START, f"Content-Length: {len(padded)}")
        writer.write(request.replace(b"Connection: close\r\n", b""))  # keep-alive asked
        answer = asyncio.ensure_future(reader.readuntil(b"\r\n\r\n"))
        sent = 0
        for byte in padded:
            writer.write(bytes([byte]))
            sent += 1
            done, _ = await asyncio.wait({answer}, timeout=PAUSE_S)
            if done:
                break
        answer_head = await asyncio.wait_for(answer, DEADLINE_S)
        length = int(re.findall(rb"Content-Length: (\d+)", answer_head)[0])
        problem = json.loads(await asyncio.wait_for(reader.readexactly(length), DEADLINE_S))
        writer.write(padded[sent:])
        rest = await asyncio.wait_for(reader.read(), DEADLINE_S)
    finally:
        writer.close()
        await asyncio.gather(writer.wait_closed(), return_exceptions=True)
    assert sent < len(padded), "the whole body was sent before the service answered"
    assert answer_head.startswith(b"HTTP/1.1 408 ") and b"Connection: close" in answer_head
    assert b"application/problem+json" in answer_head
    assert problem["status"] == 408
    assert problem["detail"] == (
        f"the request body did not arrive within {BODY_S} s ({len(padded)} bytes were announced)"
    )
    assert rest == b"" and reader.at_eof(), "the connection stays open after the 408"
