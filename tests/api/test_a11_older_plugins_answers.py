"""A-11: what the real service answers a plugin in the usual case carries only the fields a
plugin built before answers ignored unknown fields knows (``OLDER_PLUGIN_FIELDS``), at every
depth: a Session start, first and warm, with a user and a Workspace index; a version record
after a write; the agent list, the agent's config, the caller's reach and the project list.
A plugin of 4189964 got no memory from the service while ``sections: []`` was in every
Session start (``tests/core/test_a11_older_plugins.py`` pins the same fields by type)."""

from __future__ import annotations

from typing import Any

from memory_core import layout, wire
from msgspec import inspect

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, memory_url, ok_json
from tests.core.test_a11_older_plugins import OLDER_PLUGIN_FIELDS


def unknown_to_an_older_plugin(value: Any, kind: inspect.Type, at: str = "") -> list[str]:
    """The places (``a.b[0].c``) in the answer ``value`` of type ``kind`` that hold a field
    an older plugin does not know."""
    if isinstance(kind, inspect.StructType) and isinstance(value, dict):
        known = OLDER_PLUGIN_FIELDS[kind.cls.__name__]
        found = [f"{at}.{name}" for name in value if name not in known]
        for field in kind.fields:
            if field.encode_name in value and field.encode_name in known:
                inner = value[field.encode_name]
                found += unknown_to_an_older_plugin(inner, field.type, f"{at}.{field.encode_name}")
        return found
    if isinstance(kind, inspect.ListType) and isinstance(value, list):
        return [
            place
            for index, item in enumerate(value)
            for place in unknown_to_an_older_plugin(item, kind.item_type, f"{at}[{index}]")
        ]
    if isinstance(kind, inspect.UnionType):
        return [p for k in kind.types for p in unknown_to_an_older_plugin(value, k, at)]
    return []


def unknown(answer: dict[str, Any], kind: type[wire.Answer]) -> list[str]:
    return unknown_to_an_older_plugin(answer, inspect.type_info(kind))


async def test_a11_a_session_start_and_a_record_carry_only_what_an_older_plugin_knows(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    (agent.user / layout.INDEX_FILE).write_text("- [A](a.md) — a note\n", encoding="utf-8")
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [B](b.md) — b\n", encoding="utf-8")
    for _ in range(2):  # a first Session start, then a warm one
        response = await client.post(
            f"{memory_url()}/session-start", json={"workspace": str(workspace)}
        )
        answer = await ok_json(response)
        assert "- [A](a.md) — a note" in answer["memory"]
        assert unknown(answer, wire.SessionStartResponse) == []
    (agent.root / key / "b.md").write_text("---\nname: b\ndescription: b\n---\nb\n", "utf-8")
    body = {"sessionId": "s-1", "harness": "claude-code", "tool": "Write", "scope": key}
    recorded = await ok_json(await client.post(f"{memory_url()}/versions", json=body))
    assert recorded["scopes"] and unknown(recorded, wire.RecordResult) == []


async def test_a11_the_lists_the_config_and_the_reach_carry_only_what_an_older_plugin_knows(
    client: Client, agent: AgentHome
) -> None:
    answers: list[tuple[str, type[wire.Answer]]] = [
        (f"/api/projects/{PROJECT}/agents", wire.AgentList),
        (f"/api/projects/{PROJECT}/agents/{AGENT}/config", wire.AgentConfig),
        ("/api/me", wire.Me),
        ("/api/projects", wire.ProjectList),
    ]
    for url, kind in answers:
        answer = await ok_json(await client.get(url))
        assert unknown(answer, kind) == [], url
