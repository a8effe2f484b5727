"""Q-4, T-5: the lint of an index the agent keeps appending to costs the appended lines only,
and is always the lint of the file as it is now.

The service keeps each scope's index text with its lint facts
(``memory_api.store.facts_memo``) and compares the text it reads with the kept one, content
against content: equal → reused, extended → only the appended lines analysed, anything else →
analysed whole. These tests change the file between requests the way an agent's tools do
(append, edit a line in the middle, shrink) and check every answer against a fresh lint; the
memo is bounded. ``return_large_blocks_to_os`` (Q-3: RSS flat as indexes grow) is checked here
too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from memory_api import allocator
from memory_api.store import facts_memo
from memory_api.store.facts_memo import VERSIONS_KEPT, IndexFactsMemo
from memory_core import layout
from memory_core.index_facts import extend_facts, index_facts

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the characters the memo analyses whole (``index_facts``) and by extension."""
    seen = [0, 0]
    whole, extend = index_facts, extend_facts

    def counted_whole(text: str) -> Any:
        seen[0] += len(text)
        return whole(text)

    def counted_extend(facts: Any, appended: str) -> Any:
        seen[1] += len(appended)
        return extend(facts, appended)

    monkeypatch.setattr(f"{facts_memo.__name__}.index_facts", counted_whole)
    monkeypatch.setattr(f"{facts_memo.__name__}.extend_facts", counted_extend)
    return seen


def test_t5_an_appended_index_is_analysed_by_its_appended_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _counting(monkeypatch)
    memo = IndexFactsMemo()
    text = "".join(f"- [Note {n}](note-{n}.md) — a note\n" for n in range(1_000))
    memo.facts("scope", text)

    for number in range(50):
        text += f"- agent remark {number}\n"
        assert memo.facts("scope", text) == index_facts(text)

    assert seen[0] == len(text) - seen[1]  # the first text whole, then only what was appended
    assert seen[1] == sum(len(f"- agent remark {number}\n") for number in range(50))


def test_q4_an_index_edited_in_place_or_shrunk_is_analysed_afresh() -> None:
    memo = IndexFactsMemo()
    text = "- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n"
    memo.facts("scope", text)

    edited = "- [A](a.md)\n- B is gone\n- [C](c.md)\n"  # same length, a line changed
    assert memo.facts("scope", edited) == index_facts(edited)
    shrunk = "- [A](a.md)\n"
    assert memo.facts("scope", shrunk) == index_facts(shrunk)
    continued = shrunk[:-1] + " and more\n"  # the last line was continued, not a new line
    assert memo.facts("scope", continued).links == {"a.md": [1]}
    assert memo.facts("scope", continued) == index_facts(continued)


def test_q4_a_request_holding_an_older_text_still_extends_a_kept_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memo = IndexFactsMemo()
    versions = ["- [A](a.md)\n" * 200]
    for number in range(VERSIONS_KEPT - 1):
        versions.append(versions[-1] + f"- remark {number}\n")
    for text in versions:
        memo.facts("scope", text)
    seen = _counting(monkeypatch)

    older = versions[1] + "- another reader's remark\n"  # extends an older kept version
    assert memo.facts("scope", older) == index_facts(older)
    assert seen == [0, len("- another reader's remark\n")]


def test_q3_the_memo_is_bounded_by_scopes_and_by_characters() -> None:
    memo = IndexFactsMemo(max_entries=3, max_chars=1_000)
    for number in range(5):
        memo.facts(f"scope-{number}", "- [A](a.md)\n")
    assert len(memo) == 3

    memo.facts("big", "x" * 2_000 + "\n")  # analysed, not kept
    assert memo.chars <= 1_000
    memo.facts("grows", "")
    text = ""
    for _ in range(100):
        text += "- [A](a.md) remark\n"
        memo.facts("grows", text)
    assert memo.chars <= 1_000


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


def test_q3_service_processes_return_large_blocks_to_the_os(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    is_glibc = os.confstr("CS_GNU_LIBC_VERSION") is not None if hasattr(os, "confstr") else False
    assert allocator.return_large_blocks_to_os() is is_glibc

    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "65536")  # the operator's own setting stands
    assert allocator.return_large_blocks_to_os() is False


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


def test_q3_a_socket_read_buffer_stays_below_the_mmap_threshold() -> None:
    """asyncio allocates ``max_size`` bytes for every ``recv``; below the threshold that block
    comes from the heap instead of an ``mmap`` + ``mremap`` + ``munmap`` per request."""
    import asyncio.selector_events

    read_size = asyncio.selector_events._SelectorTransport.max_size  # type: ignore[attr-defined]
    assert read_size == allocator.SOCKET_READ
    assert read_size + 64 < allocator.MMAP_THRESHOLD <= allocator.TRIM_THRESHOLD
