"""R-1, A-11: a ``HEAD`` of a ref advertisement answers its head alone (RFC 9110 9.3.2).

The advertisement is streamed from git, and the stream was written for a ``HEAD`` as for a
``GET``: the bytes came after a head that frames no body, so on a connection kept alive the
client read ``001e# service=…`` as the status line of the answer to its next request (two
answers out of step: a proxy in front hands one client's answer to another).
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.api.conftest import AgentHome, Client, memory_url

REFS = f"{memory_url()}/git/user.git/info/refs?service=git-upload-pack"


async def _answers_on_one_connection(client: Client, *requests: str) -> bytes:
    """Everything the service answers to ``requests``, sent at once on one connection (the
    last closes it, so the answers end with it)."""
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        writer.write("".join(requests).encode("ascii"))
        await writer.drain()
        return await reader.read()
    finally:
        writer.close()
        await writer.wait_closed()


@pytest.mark.usefixtures("agent")
async def test_r1_a_head_of_the_refs_answers_no_body_and_the_next_answer_follows(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    head = f"HEAD {REFS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    then = f"GET {memory_url()} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    answers = await _answers_on_one_connection(client, head, then)

    first, _, rest = answers.partition(b"\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 200 ")
    assert b"Content-Type: application/x-git-upload-pack-advertisement" in first
    assert rest.startswith(b"HTTP/1.1 200 "), rest[:80]
    assert b'"enabled":true' in rest
    assert _warned_by_the_service(caplog) == []


def _warned_by_the_service(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The warnings and errors the service's own loggers and aiohttp's wrote (a write after
    the head was an error there); not asyncio's about a child of this test process another
    test left (``Unknown child process``, seen once in CI: a pid reaped by other code)."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.WARNING and record.name.startswith(("memory_api", "aiohttp"))
    ]


async def test_r1_a_get_of_the_refs_still_answers_the_advertisement(
    client: Client, agent: AgentHome
) -> None:
    answer = await client.get(REFS)

    assert answer.status == 200
    assert (await answer.read()).startswith(b"001e# service=git-upload-pack\n0000")
