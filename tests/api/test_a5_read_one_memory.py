"""A-5 at scale (issue 30): reading one memory costs the same in a scope of 5 files and of
5,000 — its findings are the listing's findings about it, found without reading the others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from memory_api.store import topic_cache
from memory_core import layout
from memory_core.topics import parse_topic

from tests.api.conftest import (
    AgentHome,
    Client,
    corpus_topics,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)


@pytest.mark.parametrize("corpus", ["coding-agent-workspace", "user-scope", "large-index"])
async def test_a5_a_file_has_the_findings_its_listing_gives_it(
    client: Client, agent: AgentHome, corpus: str
) -> None:
    _, key = agent.workspace("app", corpus=corpus)
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))

    for name in corpus_topics(corpus):
        topic = await ok_json(await client.get(file_url(key, name)))
        expected = [f for f in listing["findings"] if f["file"] == name]
        assert topic["findings"] == expected, name


async def test_a5_reading_one_memory_parses_no_other_file(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("big")
    scope = agent.root / key
    names = [f"note-{n:03d}.md" for n in range(300)]
    for name in names:
        write_topic(scope, name)
    index = "".join(f"- [{name}]({name}) — a note\n" for name in names[:-1])
    (scope / layout.INDEX_FILE).write_text(index, encoding="utf-8")
    parsed: list[str] = []

    def counting(raw: bytes, file_name: str) -> Any:
        parsed.append(file_name)
        return parse_topic(raw, file_name)

    monkeypatch.setattr(topic_cache, "parse_topic", counting)

    read = await ok_json(await client.get(file_url(key, names[-1])))

    assert parsed == [names[-1]]
    assert [(f["code"], f["file"]) for f in read["findings"]] == [("unindexed", names[-1])]


async def test_a5_a_link_to_a_frontmatter_name_reads_the_others_and_resolves(
    client: Client, agent: AgentHome
) -> None:
    scope: Path = agent.user
    (scope / "deploy-steps.md").write_text(
        "---\nname: deploy-steps\ndescription: d\n---\nSee [[Release calendar]].\n"
    )
    (scope / "calendar.md").write_text("---\nname: Release calendar\ndescription: d\n---\nx\n")

    read = await ok_json(await client.get(file_url("user", "deploy-steps.md")))

    assert not any(f["code"] == "dangling-wiki-link" for f in read["findings"])
