"""A push posted straight to the service's ``git-receive-pack`` (R-1 tests sending the bytes
git would not: crafted commands, packs, framings)."""

from __future__ import annotations

from aiohttp import ClientResponse

from tests.api.conftest import Client, memory_url
from tests.api.test_r1_git_sync import MACHINE


async def post_push(client: Client, body: bytes) -> ClientResponse:
    """The service's answer to the push ``body`` (git's pkt-lines and pack) by :data:`MACHINE`
    to the user scope, as sent (any status)."""
    return await client.post(
        f"{memory_url()}/git/user.git/git-receive-pack",
        data=body,
        headers={
            "Content-Type": "application/x-git-receive-pack-request",
            "X-Memory-Machine": MACHINE,
        },
    )


async def pushed(client: Client, body: bytes) -> bytes:
    """git's report of the push ``body`` (:func:`post_push`), which is answered 200."""
    answer = await post_push(client, body)
    assert answer.status == 200, await answer.text()
    return await answer.read()
