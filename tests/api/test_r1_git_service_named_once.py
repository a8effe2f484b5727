"""R-1, A-11: a ref advertisement names its git service once; twice is a 400 naming it.

``…/info/refs?service=git-upload-pack&service=git-receive-pack`` was answered with the first
(a fetch's advertisement), while a proxy's rule or a log reader taking the last saw a push: the
rule of every documented route (:mod:`memory_api.http.query_names`) holds here too.
"""

from __future__ import annotations

import pytest

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE

REFS = f"{memory_url()}/git/user.git/info/refs"


@pytest.mark.parametrize(
    "query",
    [
        "service=git-upload-pack&service=git-receive-pack",
        "service=git-receive-pack&service=git-receive-pack",
    ],
)
async def test_r1_a_service_named_twice_is_400(
    client: Client, agent: AgentHome, query: str
) -> None:
    answer = await client.get(f"{REFS}?{query}", headers={"X-Memory-Machine": MACHINE})

    await expect_problem(
        answer, 400, "the query parameter 'service' is given 2 times: give it once"
    )


async def test_r1_a_service_named_once_is_advertised(client: Client, agent: AgentHome) -> None:
    answer = await client.get(f"{REFS}?service=git-upload-pack")

    assert answer.status == 200
    assert answer.content_type == "application/x-git-upload-pack-advertisement"
