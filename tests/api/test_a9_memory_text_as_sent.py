"""A-9, Q-4: the ``memory`` text reaches the harness exactly as assembled, whatever characters
the indexes hold (quotes, backslashes, tabs, non-ASCII), and an index changed on disk is
answered in its new form at the next Session start. (The service makes the JSON of a memory
text once per text; these tests hold it to the answer a fresh encoding would give.)"""

from __future__ import annotations

import json
from typing import Any

from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url

ODD_LINE = '- [Quoting](quoting.md) — write "it\'s" as is; C:\\temp\\x\tcafé ✓ 😀'


async def start(client: Client, agent: AgentHome) -> tuple[bytes, dict[str, Any]]:
    workspace = agent.tmp / "src" / "app"
    workspace.mkdir(parents=True, exist_ok=True)
    response = await client.post(
        f"{memory_url()}/session-start", json={"workspace": str(workspace)}
    )
    assert response.status == 200, await response.text()
    raw = await response.read()
    answer: dict[str, Any] = json.loads(raw)
    return raw, answer


async def test_a9_odd_characters_of_an_index_arrive_as_written(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    (agent.user / layout.INDEX_FILE).write_text(ODD_LINE + "\n", encoding="utf-8")

    for _ in range(2):  # the second answer places the JSON made for the first
        raw, answer = await start(client, agent)
        assert ODD_LINE in answer["memory"]
        assert raw == json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


async def test_q4_an_index_changed_on_disk_is_sent_in_its_new_form(
    client: Client, agent: AgentHome
) -> None:
    index = agent.user / layout.INDEX_FILE
    agent.user.mkdir(parents=True, exist_ok=True)
    index.write_text("- [Old](old.md) — the first version\n", encoding="utf-8")
    _, before = await start(client, agent)

    index.write_text(ODD_LINE + "\n", encoding="utf-8")
    _, after = await start(client, agent)

    assert "the first version" in before["memory"]
    assert "the first version" not in after["memory"]
    assert ODD_LINE in after["memory"]
