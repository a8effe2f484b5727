"""A-12: an agent keeps at most ``DRAFTS_PER_AGENT`` live drafts; one more is a 429.

Drafts had no cap: a client posting drafts in a loop (each up to a request body, 1 MiB) kept
every one for the TTL (an hour) and filled the data dir's disk. One more than the cap is now
refused with a problem+json 429 naming the cap and when the oldest expires, and
``Retry-After`` giving those seconds; another agent's drafts are not counted, and an expired
draft makes room again. Here the cap is lowered to 3 (the rule is the same for 100).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from memory_api.appkeys import get_draft_store
from memory_api.store import drafts

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, expect_problem, ok_json

DRAFTS = f"/api/projects/{PROJECT}/agents/{AGENT}/drafts"
OTHER = f"/api/projects/{PROJECT}/agents/other/drafts"


async def test_a12_one_draft_over_the_cap_is_429_with_when_to_retry(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drafts, "DRAFTS_PER_AGENT", 3, raising=False)
    await client.post(f"/api/projects/{PROJECT}/agents", json={"id": "other", "name": "O"})
    kept = [await ok_json(await client.post(DRAFTS, json={"prompt": f"p{n}"}), 201) for n in "123"]

    response = await client.post(DRAFTS, json={"prompt": "one too many"})

    body = await expect_problem(response, 429, "the agent has 3 live drafts, the most it keeps (3)")
    assert body["type"] == "tag:agent-memory,2026:problem/cap-reached"
    assert "the oldest in 3600 s" in body["detail"] or "the oldest in 3599 s" in body["detail"]
    assert 3590 <= int(response.headers["Retry-After"]) <= 3600
    await ok_json(await client.post(OTHER, json={"prompt": "another agent's"}), 201)
    for draft in kept:  # those kept still answer
        assert (await ok_json(await client.get(f"{DRAFTS}/{draft['id']}")))["id"] == draft["id"]

    get_draft_store(client.app).clock = lambda: datetime.now(UTC) + timedelta(minutes=61)
    made = await ok_json(await client.post(DRAFTS, json={"prompt": "room again"}), 201)
    assert (await ok_json(await client.get(f"{DRAFTS}/{made['id']}")))["prompt"] == "room again"
