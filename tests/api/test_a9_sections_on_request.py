"""A-9: the answer's ``sections`` are sent only when the request asks for them.

``sections`` repeats the ``memory`` text as runs (prompt text, a scope's index lines, its
note) for a harness that must cut it at a line boundary (H-1). Sent on every answer it doubled
a Session start's bytes, so a request gets them with ``"sections": true``; otherwise the answer
holds no ``sections`` (a plugin built before answers ignored unknown fields refuses one it does
not know, A-11), on a first Session start and on a warm one alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from memory_api.appkeys import get_memory_store
from memory_api.store import stat_cache
from memory_core import layout
from memory_core.wire import SessionStartRequest

from tests.api.conftest import PROJECT, AgentHome, Client, expect_problem, memory_url, ok_json

INDEX = "- [A](a.md) — a note\n- [B](b.md) — another note\n"


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the file caches keep the index files these tests write a moment earlier."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


async def _start(client: Client, workspace: Path, **extra: Any) -> tuple[dict[str, Any], int]:
    url = f"{memory_url()}/session-start"
    response = await client.post(url, json={"workspace": str(workspace), **extra})
    size = len(await response.read())
    return await ok_json(response), size


def _workspace(agent: AgentHome) -> Path:
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    return workspace


async def test_a9_without_the_flag_no_sections_are_sent_and_memory_is_whole(
    client: Client, agent: AgentHome
) -> None:
    workspace = _workspace(agent)
    for _ in range(2):  # a first Session start, then a warm one
        answer, _size = await _start(client, workspace)
        assert "sections" not in answer
        assert "- [A](a.md) — a note" in answer["memory"]


async def test_a9_asked_for_sections_join_to_the_memory_text(
    client: Client, agent: AgentHome
) -> None:
    workspace = _workspace(agent)
    for _ in range(2):
        answer, _size = await _start(client, workspace, sections=True)
        kinds = [section["kind"] for section in answer["sections"]]
        assert "index" in kinds and "prompt" in kinds
        assert "".join(section["text"] for section in answer["sections"]) == answer["memory"]


async def test_a9_the_flag_changes_only_the_sections(client: Client, agent: AgentHome) -> None:
    workspace = _workspace(agent)
    # asked first, then not, then asked again
    asked, asked_size = await _start(client, workspace, sections=True)
    plain, plain_size = await _start(client, workspace, sections=False)
    again, _size = await _start(client, workspace, sections=True)
    assert {name: value for name, value in asked.items() if name != "sections"} == plain
    assert again == asked
    assert plain_size < asked_size - len(asked["memory"].encode()) // 2


async def test_a9_a_sections_flag_that_is_not_a_boolean_is_422(
    client: Client, agent: AgentHome
) -> None:
    response = await client.post(
        f"{memory_url()}/session-start",
        json={"workspace": str(_workspace(agent)), "sections": "yes"},
    )
    await expect_problem(response, 422, "sections")


async def test_a9_the_store_call_leaves_sections_out_unless_asked(
    client: Client, agent: AgentHome
) -> None:
    workspace = str(_workspace(agent))
    store = get_memory_store(client.app)
    for _ in range(2):
        plain = await store.session_start(PROJECT, agent.id, SessionStartRequest(workspace))
        asked = await store.session_start(
            PROJECT, agent.id, SessionStartRequest(workspace, sections=True)
        )
        assert plain.sections == [] and plain.memory == asked.memory
        assert "".join(section.text for section in asked.sections) == asked.memory
