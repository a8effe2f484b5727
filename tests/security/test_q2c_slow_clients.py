"""Q-2c: a client that opens many connections and trickles its requests cannot hold the service.

A slowloris opens connection after connection and sends each request's headers a byte at a
time, so that no request ever ends: every connection stays open, and enough of them take every
place the service has (its open-file limit, Q-2c). The service now gives a request's line and
headers ``MEMORY_API_HEADER_TIMEOUT`` seconds to arrive (then ``408``, problem+json, and the
connection closed) and lets one client hold ``MEMORY_API_MAX_CONNECTIONS_PER_CLIENT``
connections at once (one more: ``503`` and closed). A client is its IP address; loopback peers
are none of their own (every local program and a local proxy share ``127.0.0.1``), so the
per-client tests count the loopback test client as a client the way a remote one is counted.

Real sockets against the real app on aiohttp's test server. Each wait is on the service's own
answer (its bytes, or the connection closed), bounded by :data:`DEADLINE_S`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from memory_api.http import parser_errors
from memory_api.settings import Settings

from tests.api.conftest import Client

HEADER_S = 1.0
PER_CLIENT = 3
DEADLINE_S = 30.0
"""The longest any wait here may take before the test gives up (a bound, not a timing)."""
PACE_S = 0.05
"""How long each trickled byte waits for the service's answer before the next is sent."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A short deadline for a request's head, and a small cap per client."""
    return replace(settings, header_timeout=HEADER_S, max_connections_per_client=PER_CLIENT)


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@pytest.fixture
async def connections(client: Client) -> AsyncIterator[list[Connection]]:
    """Raw connections to the service (``open()``s them), all closed afterwards."""
    opened: list[Connection] = []
    yield opened
    for _, writer in opened:
        writer.close()
        await asyncio.gather(writer.wait_closed(), return_exceptions=True)


async def _open(client: Client, opened: list[Connection]) -> Connection:
    connection = await asyncio.open_connection(client.server.host, client.server.port)
    opened.append(connection)
    return connection


def _request(client: Client, path: str = "/healthz", extra: str = "") -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: {client.server.host}:{client.server.port}\r\n{extra}\r\n"
    ).encode()


async def _answer(reader: asyncio.StreamReader) -> tuple[bytes, dict[str, object]]:
    """One whole answer: its head and its JSON body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), DEADLINE_S)
    length = int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0])
    body = await asyncio.wait_for(reader.readexactly(length), DEADLINE_S)
    return head, json.loads(body)


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Whether the service closed the connection (the rest read to its end, bounded)."""
    await asyncio.wait_for(reader.read(), DEADLINE_S)
    return reader.at_eof()


async def test_q2c_a_head_sent_a_byte_at_a_time_is_answered_408_and_closed(
    client: Client, connections: list[Connection]
) -> None:
    reader, writer = await _open(client, connections)
    trickled = _request(client, extra="X-Padding: " + "x" * 4000 + "\r\n")
    sent = 0
    first_answer = b""
    for byte in trickled:
        writer.write(bytes([byte]))
        sent += 1
        try:  # the pace of the trickle is a wait on the service's answer
            first_answer = await asyncio.wait_for(reader.read(1), PACE_S)
        except TimeoutError:
            continue
        break

    assert sent < len(trickled), "the whole head was sent before the service answered"
    rest, problem = await _answer(reader)
    head = first_answer + rest
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert b"application/problem+json" in head and b"Connection: close" in head
    assert problem["status"] == 408
    assert problem["detail"] == (
        "the request's line and headers did not arrive within 1 s; the connection is closed"
    )
    assert await _closed(reader)


async def test_q2c_a_connection_that_never_sends_a_request_is_closed_at_the_deadline(
    client: Client, connections: list[Connection]
) -> None:
    reader, _ = await _open(client, connections)

    head, problem = await _answer(reader)

    assert head.startswith(b"HTTP/1.1 408 ") and problem["status"] == 408
    assert await _closed(reader)


async def test_q2c_a_head_sent_whole_is_served_and_its_connection_kept_alive(
    client: Client, connections: list[Connection]
) -> None:
    reader, writer = await _open(client, connections)
    for _ in range(2):
        writer.write(_request(client))

        head, body = await _answer(reader)

        assert head.startswith(b"HTTP/1.1 200 "), head
        assert body["status"] == "ok"


async def test_q2c_a_client_past_its_cap_is_answered_503_and_its_others_still_served(
    client: Client, connections: list[Connection], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parser_errors, "client_of", lambda peername: "one client")
    held = [await _open(client, connections) for _ in range(PER_CLIENT)]
    for reader, writer in held:  # each admitted and kept alive: its answer came
        writer.write(_request(client))
        assert (await _answer(reader))[0].startswith(b"HTTP/1.1 200 ")

    reader, _ = await _open(client, connections)
    head, problem = await _answer(reader)

    assert head.startswith(b"HTTP/1.1 503 ") and b"Retry-After: 1" in head
    assert problem["detail"] == (
        f"this client holds the most open connections one client may ({PER_CLIENT}); close "
        "some, or retry shortly"
    )
    assert await _closed(reader)
    reader, writer = held[0]
    writer.write(_request(client))
    assert (await _answer(reader))[0].startswith(b"HTTP/1.1 200 ")

    writer.close()  # one place given back: a new connection is admitted again
    assert await _closed(reader)
    answer = b""
    while not answer.startswith(b"HTTP/1.1 200 "):
        reader, writer = await _open(client, connections)
        writer.write(_request(client))
        answer = (await _answer(reader))[0]  # a 503 while the server has not seen it close
        assert answer.startswith((b"HTTP/1.1 200 ", b"HTTP/1.1 503 "))


async def test_q2c_loopback_peers_are_no_client_of_their_own(
    client: Client, connections: list[Connection]
) -> None:
    """Every local program (and a reverse proxy on this machine) connects from loopback: more
    connections than one client may hold are all served."""
    held = [await _open(client, connections) for _ in range(PER_CLIENT * 2)]

    for reader, writer in held:
        writer.write(_request(client))
        assert (await _answer(reader))[0].startswith(b"HTTP/1.1 200 ")


async def _head_and_body(reader: asyncio.StreamReader) -> bytes:
    """One whole answer's head (its body, of its Content-Length, read past)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), DEADLINE_S)
    length = int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0])
    await asyncio.wait_for(reader.readexactly(length), DEADLINE_S)
    return head


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
async def test_q2c_a_body_sent_after_its_answer_arms_no_deadline_on_the_idle_connection(
    client: Client, connections: list[Connection], method: str
) -> None:
    """A request answered before its body was read (``405`` for a method ``/healthz`` does not
    take) whose body arrives after the answer: those bytes are the body, not the start of a
    next head, so the kept-alive connection, then idle, is never answered ``408``. The wait is
    the service's own deadline twice over: two fresh connections, the second opened after the
    first was answered ``408``, are answered ``408`` in turn, well after the late body."""
    reader, writer = await _open(client, connections)
    writer.write(_request(client, extra="Content-Length: 5\r\n").replace(b"GET", method.encode()))
    assert (await _head_and_body(reader)).startswith(b"HTTP/1.1 405 ")
    writer.write(b"hello")  # the body, after its answer
    await writer.drain()

    for _ in range(2):  # the deadline passes, then passes again
        idle_reader, _ = await _open(client, connections)
        head, problem = await _answer(idle_reader)
        assert head.startswith(b"HTTP/1.1 408 ") and problem["status"] == 408

    writer.write(_request(client))
    head, body = await _answer(reader)
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert body["status"] == "ok"


async def test_q2c_a_head_sent_in_time_is_served_though_the_service_read_it_late(
    client: Client, connections: list[Connection], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A starved service (its event loop held past the deadline right after it accepted the
    connection, as on a busy machine) finds the head's bytes waiting unread when the deadline
    fires: the client sent in time, so they are read and served, not answered ``408``."""
    accepted = parser_errors.ProblemRequestHandler.connection_made

    def accepted_then_held(
        handler: parser_errors.ProblemRequestHandler, transport: asyncio.BaseTransport
    ) -> None:
        accepted(handler, transport)
        time.sleep(HEADER_S * 1.5)  # the loop held: the deadline passes before any read

    monkeypatch.setattr(parser_errors.ProblemRequestHandler, "connection_made", accepted_then_held)
    reader, writer = await _open(client, connections)
    writer.write(_request(client))
    head, body = await _answer(reader)
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert body["status"] == "ok"


def test_q2c_the_aiohttp_internals_the_head_deadline_reads_are_still_there() -> None:
    """The head deadline (``parser_errors.ProblemRequestHandler``) reads aiohttp's request
    handler's private ``_request_count``, ``_messages`` and ``_request_in_progress``: an aiohttp
    without them fails here, loudly, rather than leaving slow heads undetected."""
    from aiohttp import web_protocol

    slots = {
        name
        for kind in web_protocol.RequestHandler.__mro__
        for name in getattr(kind, "__slots__", ())
    }
    assert {"_request_count", "_messages", "_request_in_progress"} <= slots
