"""AgentStore under concurrency (Q-2a, Q-4) and its records."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest
from memory_api.errors import NotFound, PreconditionFailed
from memory_api.store import agents
from memory_api.store.agents import AgentStore, etag_matches
from memory_api.store.locks import Locks
from memory_core import file_edit
from memory_core.swap import IdleRead, read_when_idle
from memory_core.template import insert_placeholder
from memory_core.wire import AgentCreate, ConfigPatch, MemoryPatch

from tests.api.conftest import PLAIN_TEMPLATE


@pytest.fixture
def store(data_dir: Path) -> AgentStore:
    """An agent store on the test data dir."""
    return AgentStore(data_dir, Locks(data_dir / "locks"))


async def test_q2a_ten_concurrent_placeholder_inserts_change_once(store: AgentStore) -> None:
    await store.create("acme", AgentCreate(id="coder", name="C", template=PLAIN_TEMPLATE))
    results = await asyncio.gather(
        *(store.update_template("acme", "coder", insert_placeholder) for _ in range(10))
    )
    assert sum(changed for _, changed in results) == 1
    record = await store.get("acme", "coder")
    assert record.template.count("{{MEMORY}}") == 1
    assert all(template == record.template for template, _ in results)


async def test_q4_two_stores_share_one_data_dir(store: AgentStore, data_dir: Path) -> None:
    """A second store (as in a second process) sees and respects the first one's writes."""
    other = AgentStore(data_dir, Locks(data_dir / "locks"))
    created = await store.create("acme", AgentCreate(id="coder", name="C"))
    seen = await other.get("acme", "coder")
    assert seen.etag == created.etag
    await other.patch("acme", "coder", ConfigPatch(name="Renamed"), created.etag)
    with pytest.raises(PreconditionFailed):
        await store.patch("acme", "coder", ConfigPatch(name="Lost"), created.etag)
    assert (await store.get("acme", "coder")).name == "Renamed"


PROMPT = "P {{MEMORY_USER_INDEX}}"


async def test_q2a_concurrent_patches_lose_no_field(store: AgentStore) -> None:
    await store.create("acme", AgentCreate(id="coder", name="C"))
    await asyncio.gather(
        store.patch("acme", "coder", ConfigPatch(name="N"), None),
        store.patch("acme", "coder", ConfigPatch(template="T"), None),
        store.patch("acme", "coder", ConfigPatch(memory=MemoryPatch(prompt=PROMPT)), None),
        store.patch("acme", "coder", ConfigPatch(memory=MemoryPatch(enabled=False)), None),
    )
    record = await store.get("acme", "coder")
    assert (record.name, record.template) == ("N", "T")
    assert (record.memory.prompt, record.memory.enabled) == (PROMPT, False)


async def test_a10_agent_of_another_project_is_not_found(store: AgentStore) -> None:
    await store.create("acme", AgentCreate(id="coder", name="C"))
    with pytest.raises(NotFound, match="no agent 'coder' in project 'globex'"):
        await store.get("globex", "coder")
    with pytest.raises(NotFound):
        await store.update_template("globex", "coder", insert_placeholder)
    assert await store.list("globex") == []
    assert await store.projects() == ["acme"]


async def test_list_skips_stray_folders_and_corrupt_files(
    store: AgentStore, data_dir: Path
) -> None:
    await store.create("acme", AgentCreate(id="coder", name="C"))
    (data_dir / "agents" / "Not An Id").mkdir()
    (data_dir / "agents" / "empty").mkdir()
    (data_dir / "agents" / "broken").mkdir()
    (data_dir / "agents" / "broken" / "agent.json").write_text("{", encoding="utf-8")
    assert [r.id for r in await store.list("acme")] == ["coder"]


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('"abc"', True),
        ("abc", True),
        ("*", True),
        ('"x", "abc"', True),
        ('W/"abc"', False),
        ('"abd"', False),
        ("", False),
        # RFC 9110: list members are whole entity-tags, a comma inside quotes included
        ('"x,abc,y"', False),
        ('"a,*,b"', False),
        ('"x,", "abc"', True),
        ('W/"abc", "abc"', True),
        ('W/"abc", W/"x"', False),
        ("*, *", True),  # "*" on two lines
        ('*, "x"', False),  # "*" among tags is no valid field: the precondition fails
        ('"abc', False),  # an unclosed quote names no tag
        (' , ,"abc" ,', True),  # empty members and blanks are dropped
    ],
)
def test_a2_if_match_comparison(header: str, matches: bool) -> None:
    assert etag_matches(header, '"abc"') is matches


@pytest.mark.parametrize("style", ["in place", "rename over"])
async def test_q2a_a_hand_edit_of_agent_json_during_the_insert_is_kept(
    store: AgentStore, data_dir: Path, monkeypatch: pytest.MonkeyPatch, style: str
) -> None:
    """A-4, Q-2a: an operator's edit lands between the insert's read and its replacement."""
    await store.create("acme", AgentCreate(id="coder", name="C", template=PLAIN_TEMPLATE))
    config = data_dir / "agents" / "coder" / "agent.json"
    calls = 0

    def edit_by_hand(path: Path, limit: int, timeout: float, **kwargs: bool) -> IdleRead:
        nonlocal calls
        found = read_when_idle(path, limit, timeout, **kwargs)
        calls += 1
        if calls == 1:  # the operator renames the agent right after the insert read the file
            edited = json.loads(found.data)
            edited["name"] = "Renamed by hand"
            if style == "in place":
                path.write_text(json.dumps(edited) + "\n")
            else:
                (path.parent / "agent.json.new").write_text(json.dumps(edited) + "\n")
                (path.parent / "agent.json.new").replace(path)
        return found

    monkeypatch.setattr(file_edit, "read_when_idle", edit_by_hand)
    template, changed = await store.update_template("acme", "coder", insert_placeholder)

    record = await store.get("acme", "coder")
    assert changed
    assert record.name == "Renamed by hand"
    assert record.template == template
    assert template.count("{{MEMORY}}") == 1
    assert sorted(path.name for path in config.parent.iterdir() if path.is_file()) == ["agent.json"]


@pytest.mark.parametrize("way", ["create", "patch"])
async def test_i1_a_template_is_judged_in_a_worker_thread(
    store: AgentStore, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    """I-1: a template's placeholders are judged off the event loop, for a create as for a
    PATCH: a large template (up to the body cap) never holds every other request up."""
    judged_in: list[int] = []

    def judge(template: str) -> str | None:
        judged_in.append(threading.get_ident())
        return None

    monkeypatch.setattr(agents, "template_placeholder_problem", judge)
    template = PLAIN_TEMPLATE + "{{MEMORY}}\n"
    if way == "create":
        await store.create("acme", AgentCreate(id="coder", name="C", template=template))
    else:
        await store.create("acme", AgentCreate(id="coder", name="C"))
        judged_in.clear()
        await store.patch("acme", "coder", ConfigPatch(template=template), None)

    assert judged_in and threading.get_ident() not in judged_in
