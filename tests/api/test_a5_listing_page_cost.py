"""A-5: a page of a scope's file listing costs its own rows, not the scope's.

A reviewer saw a scope of 30,018 files take 31 pages of ~22 s each: every page read, parsed
and linted the whole scope, then kept the rows of its slice. A page now reads and lints only
its own topic files; the scope-wide findings (the index's, the folder's, the conventions) come
on the first page, and following every page gives the scope's whole lint, each finding once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from memory_api.store.topic_cache import TopicCache
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic

FILES = f"{memory_url()}/scopes/user/files"


def _names(count: int) -> list[str]:
    return [f"note-{number:04d}.md" for number in range(count)]


def _count_work(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The files the topic cache is asked to read, and those it is asked to lint."""
    read: list[str] = []
    linted: list[str] = []
    load, lint = TopicCache.load, TopicCache.lint

    def loading(self: TopicCache, path: Any, file: str, *args: Any, **kwargs: Any) -> Any:
        read.append(file)
        return load(self, path, file, *args, **kwargs)

    def linting(self: TopicCache, real: Any, topic: Any) -> Any:
        linted.append(topic.file)
        return lint(self, real, topic)

    monkeypatch.setattr(TopicCache, "load", loading)
    monkeypatch.setattr(TopicCache, "lint", linting)
    return read, linted


async def test_a5_a_later_page_reads_and_lints_its_own_files_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in _names(200):
        write_topic(agent.user, name)
    read, linted = _count_work(monkeypatch)

    page = await ok_json(await client.get(FILES, params={"limit": "5", "cursor": "note-0099.md"}))

    assert [row["file"] for row in page["files"]] == _names(200)[100:105]
    assert sorted(read) == _names(200)[100:105]
    assert sorted(linted) == _names(200)[100:105]


async def test_a5_the_first_page_lints_its_own_files_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first page names the scope's conventions, for which every file's frontmatter is
    parsed; it lints (secrets, hidden text, links…) only the files on it."""
    for name in _names(200):
        write_topic(agent.user, name)
    _, linted = _count_work(monkeypatch)

    await ok_json(await client.get(FILES, params={"limit": "5"}))

    assert sorted(linted) == _names(200)[:5]


async def test_a5_every_page_together_carries_the_scopes_whole_lint_once(
    client: Client, agent: AgentHome
) -> None:
    """The same findings as the index view's whole lint of the scope: about the index, the
    names (look-alike, unindexed), the conventions and each file (dangling ``[[links]]``, one
    resolved by a frontmatter name on another page)."""
    for name in ("Deploy_Steps.md", "Release_Notes.md", "Api_Keys.md", "Api_keys.md"):
        (agent.user / name).write_text("plain text, [[nowhere]] and [[Deploy]]\n", "utf-8")
    (agent.user / "zz-target.md").write_text("---\nname: Deploy\n---\nbody\n", "utf-8")
    (agent.user / layout.INDEX_FILE).write_text(
        "- [gone](gone.md)\n- [Api](Api_Keys.md)\n", encoding="utf-8"
    )
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    found: list[dict[str, Any]] = []
    page = await ok_json(await client.get(FILES, params={"limit": "2"}))
    found.extend(page["findings"])
    while page["nextCursor"] is not None:
        page = await ok_json(
            await client.get(FILES, params={"limit": "2", "cursor": page["nextCursor"]})
        )
        found.extend(page["findings"])

    def key(finding: dict[str, Any]) -> tuple[str, str, str]:
        return finding["code"], finding["file"], finding["message"]

    assert Counter(map(key, found)) == Counter(map(key, whole["findings"]))
    assert {"dangling-link", "unindexed", "dangling-wiki-link"} <= {f["code"] for f in found}
