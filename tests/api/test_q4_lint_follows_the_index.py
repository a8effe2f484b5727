"""Q-4, T-5: the lint of an index is always the lint of the file as it is now.

The service keeps each index's lint facts with the version of the file they were found in
(``memory_api.store.scope_files``). These tests change the index between requests the way an
agent's tools do (append, edit a line in the middle) and check each answer; a Workspace's lint
follows the user index beside it (I-4).
"""

from __future__ import annotations

from typing import Any

from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic


async def _lint(client: Client) -> list[dict[str, Any]]:
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    findings: list[dict[str, Any]] = listing["findings"]
    return findings


async def test_q4_listing_lint_follows_an_index_appended_to_and_edited(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    for name in ("alpha.md", "beta.md"):
        write_topic(agent.user, name)
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [Alpha](alpha.md) — first\n", encoding="utf-8")
    assert [f["file"] for f in await _lint(client) if f["code"] == "unindexed"] == ["beta.md"]

    with index.open("a", encoding="utf-8") as handle:  # the agent appends, as `>>` does
        handle.write(
            "- [Beta](beta.md) — second\n- token=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n"
        )
    findings = await _lint(client)
    assert not [f for f in findings if f["code"] == "unindexed"]
    assert [(f["code"], f["line"]) for f in findings if f["code"] == "secret"] == [("secret", 3)]

    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("[Alpha](alpha.md)", "Alpha, unlinked"), encoding="utf-8")
    findings = await _lint(client)
    assert [f["file"] for f in findings if f["code"] == "unindexed"] == ["alpha.md"]
    assert [(f["code"], f["line"]) for f in findings if f["code"] == "secret"] == [("secret", 3)]


async def test_i4_a_workspace_lint_follows_the_user_index_beside_it(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("app")
    line = "- [Note](note.md) " + "w" * 80 + "\n"
    (agent.root / key / layout.INDEX_FILE).write_text(line * 150, encoding="utf-8")
    user_index = agent.user / layout.INDEX_FILE
    agent.user.mkdir(parents=True, exist_ok=True)
    user_index.write_text("- a short user index\n", encoding="utf-8")

    async def not_injected() -> list[int]:
        listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
        return [f["line"] for f in listing["findings"] if f["code"] == "not-injected"]

    assert await not_injected() == []
    with user_index.open("a", encoding="utf-8") as handle:  # the two now share the budget
        handle.write(line * 150)
    assert await not_injected() != []
    user_index.write_text("- a short user index again\n", encoding="utf-8")
    assert await not_injected() == []
