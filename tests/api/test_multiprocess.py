"""Q-4, Q-2a: two real service processes on one data dir; concurrent writes lose nothing.

Starts ``memory-api serve`` twice (subprocesses on free loopback ports, one shared
``MEMORY_API_DATA_DIR``) and sends deletes into one index, and placeholder inserts into one
agent config, through both at once. Only the cross-process locks and the re-read-before-rewrite
can keep every line right here: the two processes share no memory.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from memory_core import layout
from memory_core.template import MEMORY_PLACEHOLDER

from tests.api.conftest import (
    AGENT,
    PLAIN_TEMPLATE,
    PROJECT,
    AgentHome,
    copy_corpus,
    corpus_topics,
    file_url,
    memory_url,
    write_topic,
)

pytestmark = pytest.mark.e2e


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


async def test_q4_concurrent_deletes_through_two_processes_keep_exactly_the_right_lines(
    data_dir: Path, bases: list[str]
) -> None:
    async with aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[0]}/api/projects/acme/agents", json={"id": "coder", "name": "Coder"}
        )
        assert created.status == 201, await created.text()
        user = layout.scope_dir(data_dir, "coder", "user")
        copy_corpus("large-index", user)
        index = user / layout.INDEX_FILE
        lines = index.read_text(encoding="utf-8").split("\n")
        victims = corpus_topics("large-index")[::3]

        responses = await asyncio.gather(
            *(
                session.delete(bases[number % 2] + file_url("user", name))
                for number, name in enumerate(victims)
            )
        )

        for name, response in zip(victims, responses, strict=True):
            body = await _json(response)
            assert body["file"] == name
            assert body["removedIndexLines"] == [line for line in lines if f"]({name})" in line]
        expected = [line for line in lines if not any(f"]({name})" in line for name in victims)]
        assert index.read_text(encoding="utf-8").split("\n") == expected
        survivors = sorted(set(corpus_topics("large-index")) - set(victims))
        for base in bases:  # both processes see the same files: no stale state anywhere
            listing = await _json(await session.get(f"{base}{memory_url()}/scopes/user/files"))
            assert [item["file"] for item in listing["files"]] == survivors


async def test_q4_a_delete_through_one_process_is_seen_through_the_other(
    data_dir: Path, bases: list[str], tmp_path: Path
) -> None:
    home = AgentHome(data_dir=data_dir, project=PROJECT, id=AGENT, tmp=tmp_path)
    async with aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[0]}/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "Coder"}
        )
        assert created.status == 201, await created.text()
        _, key = home.workspace("app")
        for name in ("one.md", "two.md"):
            write_topic(home.root / key, name)
        listing = f"{memory_url()}/scopes/{key}/files"
        for base in bases:  # each process has read the scope
            assert len((await _json(await session.get(base + listing)))["files"]) == 2

        await _json(await session.delete(bases[1] + file_url(key, "one.md")))

        for base in bases:
            files = (await _json(await session.get(base + listing)))["files"]
            assert [row["file"] for row in files] == ["two.md"]


async def test_q2a_placeholder_inserts_through_two_processes_insert_once(
    bases: list[str],
) -> None:
    async with aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[1]}/api/projects/acme/agents",
            json={"id": "legacy", "name": "Legacy", "template": PLAIN_TEMPLATE},
        )
        assert created.status == 201, await created.text()
        url = memory_url(agent="legacy") + "/template-placeholder"

        responses = await asyncio.gather(*(session.post(bases[n % 2] + url) for n in range(10)))

        answers = [await _json(response) for response in responses]
        assert sum(answer["changed"] for answer in answers) == 1
        assert len({answer["template"] for answer in answers}) == 1
        assert answers[0]["template"].count(MEMORY_PLACEHOLDER) == 1
