"""R-1, Q-2: a git request body's ``Content-Encoding`` follows the rules of every body.

git gzips a fetch's wants and haves (``Content-Encoding: gzip``), and aiohttp decodes the body
as it is read. A body declared gzip that is no gzip made aiohttp's read raise its payload
error, which no git route turned into a problem: a 500 with a traceback, remembered for the
machine as its "failed" exchange. Such a body is a 400 saying it cannot be read (the connection
closed, nothing logged as an error); a coding the service does not decode (``xz``, ``gzip,
gzip``) is a 415 naming those it does, as on the JSON routes, never bytes read as if plain.
"""

from __future__ import annotations

import gzip
import logging

import pytest

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE

SERVICES = ["git-upload-pack", "git-receive-pack"]


def _sent(service: str, coding: str) -> dict[str, str]:
    return {
        "Content-Type": f"application/x-{service}-request",
        "Content-Encoding": coding,
        "X-Memory-Machine": MACHINE,
    }


@pytest.mark.parametrize("service", SERVICES)
async def test_r1_a_body_that_is_not_the_gzip_it_says_is_400_and_no_failed_exchange(
    client: Client, agent: AgentHome, service: str, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"{memory_url()}/git/user.git/{service}"

    response = await client.post(url, data=b"0000 is not gzip" * 8, headers=_sent(service, "gzip"))

    await expect_problem(response, 400, "the request body cannot be read")
    assert response.headers["Connection"] == "close"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    told = await client.get(url, headers={"X-Memory-Machine": MACHINE})
    await expect_problem(told, 404, "did not fail")


@pytest.mark.parametrize("coding", ["xz", "gzip, gzip"])
@pytest.mark.parametrize("service", SERVICES)
async def test_r1_a_content_coding_the_service_does_not_decode_is_415(
    client: Client, agent: AgentHome, service: str, coding: str
) -> None:
    url = f"{memory_url()}/git/user.git/{service}"

    response = await client.post(url, data=gzip.compress(b"0000"), headers=_sent(service, coding))

    await expect_problem(response, 415, "is not one the service decodes")
    assert response.headers["Accept-Encoding"] == "gzip, deflate, br, zstd"
