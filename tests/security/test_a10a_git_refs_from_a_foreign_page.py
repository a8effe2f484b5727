"""A-10a, R-1: a ref advertisement for a fetch records what is on disk first (a "found"
version), so a ``GET`` of ``…/git/<key>.git/info/refs`` changes the history. A page of another
site may send such a ``GET`` without asking (``<img src>``, a ``no-cors`` fetch), and a
token-less service on loopback answered it: every visit recorded a version of the agent's
memory. The ``GET`` is judged as every change is: refused when the browser marks it as from
another site, or, without tokens, when it carries an ``Origin`` or a ``Referer`` not the
service's own (a browser without Fetch Metadata sends no ``Origin`` on an ``<img>`` but a
``Referer``); git sends none of these headers and is served as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, ok_json, write_topic

REFS = f"{memory_url()}/git/user.git/info/refs?service=git-upload-pack"
CHANGES = f"{memory_url()}/scopes/user/changes"


async def _sources(client: Client) -> list[Any]:
    changes = await ok_json(await client.get(CHANGES))
    return [version["author"]["source"] for version in changes["versions"]]


@pytest.mark.parametrize(
    ("headers", "rule"),
    [
        (
            {
                "Sec-Fetch-Site": "cross-site",
                "Sec-Fetch-Mode": "no-cors",
                "Sec-Fetch-Dest": "image",
            },
            "(cross-site request rule)",
        ),
        (
            {
                "Sec-Fetch-Site": "same-site",
                "Sec-Fetch-Mode": "no-cors",
                "Sec-Fetch-Dest": "script",
            },
            "(cross-site request rule)",
        ),
        (
            {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
            "(cross-site request rule)",
        ),
        ({"Origin": "http://localhost:1"}, "(Origin rule)"),  # another local port naming its origin
        # a browser without Fetch Metadata (<img src>) sends only the page's address: the detail
        # names the header it was judged by
        ({"Referer": "http://evil.example/page"}, "(Referer rule)"),
        ({"Referer": "http://localhost:1/"}, "(Referer rule)"),  # a page of another local port
        ({"Referer": "not a url"}, "(Referer rule)"),  # names no origin: not the service's own
        ({"Origin": "null"}, "(Origin rule)"),
    ],
)
async def test_a10a_a_ref_advertisement_a_foreign_page_asks_for_records_nothing(
    client: Client, agent: AgentHome, headers: dict[str, str], rule: str
) -> None:
    write_topic(agent.user, "keep-me.md")

    answer = await client.get(REFS, headers=headers)

    body = await expect_problem(answer, 403, "records what is on disk as a version")
    assert body["detail"].endswith(rule), body["detail"]
    assert await _sources(client) == []


async def test_a10a_git_and_the_services_own_origin_are_advertised_and_recorded(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "keep-me.md")
    port = client.server.port

    git = await client.get(REFS, headers={"User-Agent": "git/2.43.0", "Git-Protocol": "version=2"})
    assert git.status == 200, await git.text()
    assert await _sources(client) == ["found"]
    own = {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
    assert (await client.get(REFS, headers=own)).status == 200
    own_page = {"Referer": f"http://127.0.0.1:{port}/?scope=user"}
    assert (await client.get(REFS, headers=own_page)).status == 200
