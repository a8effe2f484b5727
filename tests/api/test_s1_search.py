"""S-1: ``GET …/memory/search?q=…`` — ranked hits over every scope, fresh after a change on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memory_api.app import create_app
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    AgentHome,
    Client,
    copy_corpus,
    create_agent,
    expect_problem,
    memory_url,
    ok_json,
)

FILLED = "团队里每个人的生活习惯都不太一样比如我们"
"""Twenty characters opening a line of Chinese prose: with them a line reaches an editor's
fill column (40 columns, :data:`~memory_api.store.search_text._FILLED`), so a line break at its
end may be a hard wrap; a shorter line was ended by its writer."""


def topic(scope: Path, file_name: str, name: str, description: str, body: str) -> Path:
    """Write one topic file (frontmatter and body)."""
    scope.mkdir(parents=True, exist_ok=True)
    path = scope / file_name
    path.write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n{body}\n", encoding="utf-8"
    )
    return path


async def search(client: Client, query: str, **params: str) -> dict[str, Any]:
    """Run a search and return the decoded ``SearchResults``."""
    response = await client.get(memory_url() + "/search", params={"q": query, **params})
    return await ok_json(response)


def files_of(results: dict[str, Any]) -> list[tuple[str, str]]:
    """``(scope, file)`` of each hit, in rank order."""
    return [(hit["scope"], hit["file"]) for hit in results["hits"]]


async def test_s1_ranks_name_over_description_over_body(client: Client, agent: AgentHome) -> None:
    topic(agent.user, "in-body.md", "misc", "unrelated", "we once talked about pnpm here")
    topic(agent.user, "in-description.md", "tools", "prefers pnpm for node", "nothing")
    topic(agent.user, "prefers-pnpm.md", "prefers-pnpm", "package manager", "nothing")
    topic(agent.user, "other.md", "other", "nothing", "nothing")
    results = await search(client, "pnpm")
    assert files_of(results) == [
        ("user", "prefers-pnpm.md"),
        ("user", "in-description.md"),
        ("user", "in-body.md"),
    ]
    assert results["total"] == 3
    scores = [hit["score"] for hit in results["hits"]]
    assert scores == sorted(scores, reverse=True)


async def test_s1_hits_carry_scope_file_and_a_highlighted_snippet(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    copy_corpus("user-scope", agent.user)
    results = await search(client, "weekend")
    [hit] = [h for h in results["hits"] if h["file"] == "deploy-freeze.md"]
    assert hit["scope"] == key
    assert hit["name"] == "deploy-freeze" and hit["description"].startswith("No production")
    highlighted = [part["text"] for part in hit["snippet"] if part["hit"]]
    assert highlighted == ["weekend"]
    snippet = "".join(part["text"] for part in hit["snippet"])
    assert "frozen over the weekend" in snippet
    # found by its name alone: the snippet shows the start of the body, nothing marked
    by_name = (await search(client, "freeze", scope=key))["hits"][0]
    assert by_name["file"] == "deploy-freeze.md"  # the name outranks a mention in a body
    assert not any(part["hit"] for part in by_name["snippet"])
    assert "".join(part["text"] for part in by_name["snippet"]).startswith("Production deploys")
    assert "\ue000" not in snippet and "\ue001" not in snippet


async def test_s1_every_scope_and_the_scope_filter(client: Client, agent: AgentHome) -> None:
    _, key = agent.workspace("shop")
    topic(agent.user, "a.md", "a", "queue backlog", "x")
    topic(agent.root / key, "b.md", "b", "queue retries", "x")
    assert sorted(files_of(await search(client, "queue"))) == [(key, "b.md"), ("user", "a.md")]
    only = await search(client, "queue", scope=key)
    assert files_of(only) == [(key, "b.md")] and only["scope"] == key


async def test_s1_a_change_on_disk_is_seen_by_the_next_search(
    client: Client, agent: AgentHome
) -> None:
    path = topic(agent.user, "cache.md", "cache", "build cache", "uses sccache")
    assert files_of(await search(client, "sccache")) == [("user", "cache.md")]
    # edited in place by an agent's file tools: same inode, new content
    with path.open("r+", encoding="utf-8") as handle:
        handle.seek(0)
        handle.write("---\nname: cache\ndescription: build cache\n---\nuses ccache now\n")
        handle.truncate()
    assert files_of(await search(client, "sccache")) == []
    assert files_of(await search(client, "ccache")) == [("user", "cache.md")]
    topic(agent.user, "new.md", "new", "fresh", "ccache too")
    assert sorted(files_of(await search(client, "ccache"))) == [
        ("user", "cache.md"),
        ("user", "new.md"),
    ]
    path.unlink()
    assert files_of(await search(client, "ccache")) == [("user", "new.md")]


async def test_s1_another_process_sees_the_same(
    aiohttp_client: AiohttpClient, settings: Settings, agent: AgentHome
) -> None:
    """Q-4: two apps (as two processes) on one data dir answer alike, each kept fresh."""
    first = await aiohttp_client(create_app(settings))
    second = await aiohttp_client(create_app(settings))
    path = topic(agent.user, "a.md", "a", "alpha", "kafka topics")
    for client in (first, second):
        assert files_of(await search(client, "kafka")) == [("user", "a.md")]
    topic(agent.user, ".tmp.md", "a", "alpha", "rabbitmq now").replace(path)
    for client in (second, first):
        assert files_of(await search(client, "kafka")) == []
        assert files_of(await search(client, "rabbitmq")) == [("user", "a.md")]


async def test_s1_words_prefixes_and_foreign_names(client: Client, agent: AgentHome) -> None:
    topic(agent.user, "feedback_prefers_uv.md", "feedback_prefers_uv", "use uv", "pip broke")
    topic(agent.user, "Über Deploy.md", "Über Deploy", "Zürich release", "x")
    topic(agent.user, "数据库迁移.md", "数据库迁移", "迁移", "x")
    assert files_of(await search(client, "prefers")) == [("user", "feedback_prefers_uv.md")]
    assert files_of(await search(client, "uber zur")) == [("user", "Über Deploy.md")]
    assert files_of(await search(client, "数据库")) == [("user", "数据库迁移.md")]
    # FTS5 syntax in the query is just text, never an error
    for query in ('"unbalanced', "NEAR(a b)", "a OR", "col:x", "*", "-pip"):
        await search(client, query)  # answered 200, whatever it finds


async def test_s1_secrets_are_neither_found_nor_shown(client: Client, agent: AgentHome) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    topic(agent.user, "ci.md", "ci", "ci token", f"the ci token is {secret} for deploys")
    results = await search(client, "deploys")
    [hit] = results["hits"]
    snippet = "".join(part["text"] for part in hit["snippet"])
    assert secret not in snippet
    assert files_of(await search(client, secret)) == []


async def test_s1_limit_and_total(client: Client, agent: AgentHome) -> None:
    for number in range(30):
        topic(agent.user, f"n{number}.md", f"n{number}", "kanban board", "x")
    results = await search(client, "kanban", limit="5")
    assert len(results["hits"]) == 5 and results["total"] == 30
    assert len((await search(client, "kanban"))["hits"]) == 20


async def test_s1_bad_requests_are_problems(
    client: Client, agent: AgentHome, aiohttp_client: AiohttpClient, settings: Settings
) -> None:
    url = memory_url() + "/search"
    await expect_problem(await client.get(url), 400, "q is required")
    await expect_problem(await client.get(url, params={"q": ""}), 400, "q is required")
    nothing = await ok_json(await client.get(url, params={"q": "  !? "}))  # no word: no match
    assert nothing["total"] == 0 and nothing["hits"] == []
    await expect_problem(await client.get(url, params={"q": "x" * 501}), 400, "at most 500")
    for limit in ("0", "101", "ten", "-1"):
        response = await client.get(url, params={"q": "a", "limit": limit})
        await expect_problem(response, 400, "limit")
    await expect_problem(await client.get(url, params={"q": "a", "scope": "../x"}), 400, "scope")
    missing = "gone-0123abcd"
    await expect_problem(await client.get(url, params={"q": "a", "scope": missing}), 404, missing)
    other = memory_url(agent="other") + "/search"
    await expect_problem(await client.get(other, params={"q": "a"}), 404, "other")
    await create_agent(client, "elsewhere", project="beta")
    foreign = memory_url(agent="elsewhere") + "/search"  # an agent of another project
    await expect_problem(await client.get(foreign, params={"q": "a"}), 404, "elsewhere")


async def test_s1_a_query_of_marks_or_hidden_characters_finds_nothing(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("shop")
    topic(agent.user, "deploy.md", "deploy", "how we deploy", "cafe\u0301 ü and more")
    topic(agent.user, "hindi.md", "hindi", "x", "\u093e\u0902 stray marks, and किताब")
    topic(agent.root / key, "tools.md", "tools", "uv and pnpm", "nothing")
    nothing_to_find = [
        "\u0301",  # a lone combining acute: the tokenizer drops it, leaving an empty prefix
        "\u0308",
        "\u0301\u0308 \ufe0f",
        "?!\u200b\u2060\U000e0041",  # punctuation and invisible characters
        "\u00ad",
        "\u093e",  # a lone Devanagari vowel sign, and a sign with a nasal mark
        "\u093e\u0902",
    ]
    for query in nothing_to_find:
        results = await search(client, query)
        assert (results["total"], results["hits"]) == (0, []), ascii(query)
    # a mark beside a word is no word of its own: the word is still found
    assert files_of(await search(client, "deploy \u0301")) == [("user", "deploy.md")]


async def test_s1_route_is_in_the_openapi_document(client: Client) -> None:
    document = await ok_json(await client.get("/openapi.json"))
    operation = document["paths"]["/api/projects/{project}/agents/{agent}/memory/search"]["get"]
    names = {parameter["name"]: parameter for parameter in operation["parameters"]}
    assert names["q"]["in"] == "query" and names["q"]["required"] is True
    assert {"scope", "limit", "project", "agent"} <= set(names)
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/SearchResults"}
    assert "SearchHit" in document["components"]["schemas"]


async def test_s1_ranks_the_demo_and_shows_nothing_twice(client: Client, agent: AgentHome) -> None:
    """Issue 26: ``deploy`` on the demo data gave 220 hits all scored 0.0, the hand-written
    ``deploy-freeze`` fifth, and each hit's description again as its snippet."""
    agent.workspace("shop-api", corpus="coding-agent-workspace")
    agent.workspace("data-platform", corpus="large-index")
    copy_corpus("user-scope", agent.user)
    results = await search(client, "deploy", limit="100")
    hits = results["hits"]
    assert results["total"] == 220 and len(hits) == 100
    assert hits[0]["file"] == "deploy-freeze.md"
    scores = [hit["score"] for hit in hits]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    assert len({(hit["scope"], hit["file"]) for hit in hits}) == len(hits)

    def in_name_or_description(hit: dict[str, Any]) -> bool:
        return any(part["hit"] for part in hit["nameParts"] + hit["descriptionParts"])

    ranks = [in_name_or_description(hit) for hit in hits]
    assert True in ranks and False in ranks
    assert ranks == sorted(ranks, reverse=True), "a body-only hit outranks a name/description one"
    for hit in hits:
        snippet = "".join(part["text"] for part in hit["snippet"])
        assert "".join(part["text"] for part in hit["nameParts"]) == hit["name"]
        assert "".join(part["text"] for part in hit["descriptionParts"]) == hit["description"]
        assert hit["description"] not in snippet, hit
