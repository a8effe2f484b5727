"""A-10a: the browser rules judge one ``Origin`` and one ``Sec-Fetch-Site``, never the first of
several.

The Origin and cross-site request rules read one value each. A change carrying the service's
own origin, then another (``Origin: http://127.0.0.1:<port>`` and ``Origin:
http://evil.example``), or ``Sec-Fetch-Site: same-origin`` then ``cross-site``, was judged by
its first line and served; so was a list on one line (``same-origin, cross-site``, as a proxy
merges two lines, RFC 9110 5.3), which is no value a browser sends. A browser sends each header
once, with one of four ``Sec-Fetch-Site`` values: anything else on an unsafe request is a 400
naming the header, and nothing changes. Reads are left alone, as by the rules themselves.
"""

from __future__ import annotations

import pytest
from multidict import CIMultiDict

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, ok_json, write_topic

AGENTS = "/api/projects/acme/agents"


def _own(client: Client) -> tuple[str, str]:
    """The ``Host`` the test client sends and the service's own origin under it."""
    port = client.server.port
    assert port is not None
    return f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("name", "order"),
    [("Origin", "own-first"), ("Origin", "own-last"), ("Sec-Fetch-Site", "own-first"),
     ("Sec-Fetch-Site", "own-last")],
)  # fmt: skip
async def test_a10a_a_change_carrying_a_browser_header_twice_is_400_and_changes_nothing(
    client: Client, agent: AgentHome, name: str, order: str
) -> None:
    host, own = _own(client)
    values = (own, "http://evil.example") if name == "Origin" else ("same-origin", "cross-site")
    if order == "own-last":
        values = values[::-1]
    headers = CIMultiDict([("Host", host), (name, values[0]), (name, values[1])])
    topic = write_topic(agent.user, "keep-me.md")

    answer = await client.delete(file_url("user", "keep-me.md"), headers=headers)

    problem = await expect_problem(answer, 400, f"a DELETE carries 2 {name} headers")
    assert "a browser sends one" in problem["detail"]
    assert topic.exists()
    answer = await client.post(AGENTS, json={"id": "mole", "name": "Mole"}, headers=headers)
    await expect_problem(answer, 400, f"carries 2 {name} headers")
    assert not (agent.data_dir / "agents" / "mole").exists()


@pytest.mark.parametrize(
    "site", ["same-origin, cross-site", "same-origin cross-site", "sameorigin"]
)
async def test_a10a_a_sec_fetch_site_no_browser_sends_is_400_on_a_change(
    client: Client, agent: AgentHome, site: str
) -> None:
    topic = write_topic(agent.user, "keep-me.md")

    answer = await client.delete(file_url("user", "keep-me.md"), headers={"Sec-Fetch-Site": site})

    problem = await expect_problem(answer, 400, "which no browser sends")
    assert "cross-site, none, same-origin, same-site" in problem["detail"]
    assert topic.exists()


async def test_a10a_reads_carrying_a_browser_header_twice_are_served_as_before(
    client: Client, agent: AgentHome
) -> None:
    host, own = _own(client)
    headers = CIMultiDict(
        [("Host", host), ("Origin", own), ("Origin", "http://evil.example"),
         ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "cross-site")]
    )  # fmt: skip

    listed = await ok_json(await client.get(AGENTS, headers=headers))

    assert [a["id"] for a in listed["agents"]] == [agent.id]


async def test_a10a_one_of_each_from_the_services_own_page_is_served(
    client: Client, agent: AgentHome
) -> None:
    host, own = _own(client)
    write_topic(agent.user, "gone.md")
    headers = {"Host": host, "Origin": own, "Sec-Fetch-Site": "same-origin"}

    await ok_json(await client.delete(file_url("user", "gone.md"), headers=headers))

    assert not (agent.user / "gone.md").exists()
