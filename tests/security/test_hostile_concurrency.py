"""Q-2a, A-2, A-6: racing requests never duplicate, lose or tear anything.

Ten identical placeholder inserts and concurrent deletes of distinct files are covered in
``tests/api``; these are the races a hostile or careless client adds on top.
"""

from __future__ import annotations

import asyncio

from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic

CONFIG = "/api/projects/acme/agents/coder/config"


def notes(agent: AgentHome, count: int) -> list[str]:
    """Write ``count`` topic files into the user scope; return their names."""
    made = [f"n{number:03}.md" for number in range(count)]
    for name in made:
        write_topic(agent.user, name)
    return made


async def test_q2a_racing_deletes_keep_crlf_and_a_missing_final_newline_byte_for_byte(
    client: Client, agent: AgentHome
) -> None:
    made = notes(agent, 40)
    lines = [f"- [{name}]({name}) note" for name in made] + ["prose: n001.md stays"]
    index = agent.user / layout.INDEX_FILE
    index.write_bytes("\r\n".join(lines).encode())
    victims = made[::2]

    responses = await asyncio.gather(*(client.delete(file_url("user", n)) for n in victims))

    for response in responses:
        await ok_json(response)
    kept = [line for line in lines if not any(f"]({name})" in line for name in victims)]
    assert index.read_bytes() == "\r\n".join(kept).encode()


async def test_q2a_the_same_file_deleted_ten_times_at_once_is_deleted_once(
    client: Client, agent: AgentHome
) -> None:
    notes(agent, 2)
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [A](n000.md)\n- [B](n001.md)\n", encoding="utf-8")

    responses = await asyncio.gather(
        *(client.delete(file_url("user", "n000.md")) for _ in range(10))
    )

    assert sorted(response.status for response in responses) == [200] + [404] * 9
    assert index.read_text(encoding="utf-8") == "- [B](n001.md)\n"


async def test_a2_racing_patches_with_one_etag_let_exactly_one_through(
    client: Client, agent: AgentHome
) -> None:
    etag = (await client.get(CONFIG)).headers["ETag"]

    responses = await asyncio.gather(
        *(
            client.patch(CONFIG, json={"name": f"Name {n}"}, headers={"If-Match": etag})
            for n in range(10)
        )
    )

    assert sorted(response.status for response in responses) == [200] + [412] * 9
    winner = next(response for response in responses if response.status == 200)
    assert (await ok_json(await client.get(CONFIG)))["name"] == (await winner.json())["name"]
