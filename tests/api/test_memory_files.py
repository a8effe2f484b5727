"""A-5 listing and reading topic files; K-7 file names; T-2 messy files list and read, never 5xx."""

from __future__ import annotations

import pytest
from memory_core import layout
from yarl import URL

from tests.api.conftest import (
    AgentHome,
    Client,
    copy_corpus,
    corpus_topics,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
)

SAMPLES = ["user-scope", "coding-agent-workspace", "large-index"]


async def test_a5_user_scope_lists_its_topic_files_with_fields(
    client: Client, corpus_user: AgentHome
) -> None:
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    assert listing["scope"] == "user"
    assert [item["file"] for item in listing["files"]] == corpus_topics("user-scope")
    pnpm = next(item for item in listing["files"] if item["file"] == "prefers-pnpm.md")
    assert pnpm["name"] == "prefers-pnpm"
    assert pnpm["description"] == (
        "Use pnpm for every JavaScript package operation, never npm or yarn"
    )
    assert pnpm["updatedAt"] == "2026-10-02"
    assert pnpm["size"] == (corpus_user.user / "prefers-pnpm.md").stat().st_size
    assert pnpm["mtime"].endswith("Z")
    assert pnpm["problems"] == []


async def test_k6_user_scope_listing_creates_it_on_demand(client: Client, agent: AgentHome) -> None:
    for path in agent.user.iterdir():
        path.unlink()
    agent.user.rmdir()

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    assert listing == {
        "scope": "user",
        "files": [],
        "findings": [],
        "total": 0,
        "nextCursor": None,
    }
    assert agent.user.is_dir()


@pytest.mark.parametrize("sample", SAMPLES)
async def test_t2_every_sample_file_lists_and_reads_without_error(
    client: Client, agent: AgentHome, sample: str
) -> None:
    _, key = agent.workspace(f"ws-{sample}", corpus=sample)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))

    listed = [item["file"] for item in listing["files"]]
    assert listed == corpus_topics(sample)  # every file, no silent first-N page
    for item in listing["files"]:
        topic = await ok_json(await client.get(file_url(key, item["file"])))
        assert topic["file"] == item["file"]
        assert topic["name"] == item["name"]
        assert topic["problems"] == item["problems"]
        assert isinstance(topic["body"], str)
        assert not topic["body"].startswith("---")


async def test_t2_messy_files_report_problems_instead_of_failing(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("messy", corpus="coding-agent-workspace")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))

    problems = {item["file"]: item["problems"] for item in listing["files"]}
    assert any(p.startswith("encoding:") for p in problems["latin1-notes.md"])
    assert any(p.startswith("frontmatter:") for p in problems["flaky-ci.md"])
    assert any(p.startswith("frontmatter:") for p in problems["plain-notes.md"])
    assert any(p.startswith("empty:") for p in problems["empty.md"])
    assert problems["testing-conventions.md"] == []


async def test_a5_read_returns_fields_body_without_frontmatter_and_links(
    client: Client, corpus_user: AgentHome
) -> None:
    topic = await ok_json(await client.get(file_url("user", "prefers-pnpm.md")))

    assert topic["file"] == "prefers-pnpm.md"
    assert topic["name"] == "prefers-pnpm"
    assert topic["updatedAt"] == "2026-10-02"
    assert topic["body"].startswith("Use `pnpm install`")
    assert "description:" not in topic["body"]
    assert topic["links"] == ["review-style"]


@pytest.mark.parametrize(
    "name", ["Deploy notes.md", "数据库迁移.md", "feedback_testing.md", "a%2F.md"]
)
async def test_k7_names_agents_really_write_are_reachable_percent_encoded(
    client: Client, agent: AgentHome, name: str
) -> None:
    (agent.user / name).write_text("---\ndescription: d\n---\nhello\n", encoding="utf-8")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    topic = await ok_json(await client.get(file_url("user", name)))

    assert [item["file"] for item in listing["files"]] == [name]
    assert topic["file"] == name
    assert topic["body"] == "hello"


async def test_a5_dotfiles_index_folders_and_other_files_never_list(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("my-app", corpus="user-scope")
    scope = agent.root / key
    (scope / ".hidden.md").write_text("x")
    (scope / ".MEMORY.md.abc.tmp").write_text("x")
    (scope / "notes.txt").write_text("x")
    (scope / "folder.md").mkdir()
    (scope / "sub").mkdir()
    (scope / "sub" / "nested.md").write_text("x")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))

    assert [item["file"] for item in listing["files"]] == corpus_topics("user-scope")
    assert (scope / layout.MARKER_FILE).exists()
    await expect_problem(await client.get(file_url(key, "folder.md")), 404, "folder.md")


async def test_a5_unknown_workspace_key_is_404(client: Client, agent: AgentHome) -> None:
    for route in ("files", "index", "files/x.md"):
        await expect_problem(
            await client.get(f"{memory_url()}/scopes/gone-0123abcd/{route}"), 404, "gone-0123abcd"
        )
    assert not (agent.root / "gone-0123abcd").exists()


async def test_a5_missing_topic_file_is_404(client: Client, corpus_user: AgentHome) -> None:
    await expect_problem(await client.get(file_url("user", "nope.md")), 404, "'nope.md'")


@pytest.mark.parametrize(
    "key",
    ["User", "..", ".workspace", "my-app", "my-app-0123ABCD", "-x-0123abcd", "a%2Fb-0123abcd"],
)
async def test_k7_invalid_scope_key_is_400(client: Client, agent: AgentHome, key: str) -> None:
    for method, route in [
        ("GET", "files"),
        ("GET", "index"),
        ("GET", "files/x.md"),
        ("DELETE", "files/x.md"),
    ]:
        url = URL(f"{memory_url()}/scopes/{key}/{route}", encoded=True)
        response = await client.request(method, url)
        if key == "..":
            # the URL is normalised before routing: /scopes/../files is another (unknown) path
            await expect_problem(response, 404, "nothing is served")
            continue
        await expect_problem(response, 400, "invalid scope")
    assert names(agent.root) == ["user"]


async def test_a5_other_methods_are_405_problems(client: Client, corpus_user: AgentHome) -> None:
    response = await client.put(file_url("user", "prefers-pnpm.md"), data=b"x")
    await expect_problem(response, 405, "PUT is not allowed")
    assert "DELETE" in response.headers["Allow"]
    response = await client.post(f"{memory_url()}/scopes/user/files")
    await expect_problem(response, 405, "POST is not allowed")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("MEMORY.md", "index"),
        (".hidden.md", "must not start with '.'"),
        ("notes.txt", "must end in '.md'"),
        ("a%2Fb.md", "'/'"),
        ("..%2F..%2Fagent.json.md", "must not start with '.'"),
        ("a%5Cb.md", "'\\'"),
        ("a%01b.md", "control"),
        ("%0A.md", "control"),
        ("x" * 300 + ".md", "255 bytes"),
    ],
)
async def test_k7_invalid_file_name_is_400_before_any_io(
    client: Client, corpus_user: AgentHome, raw: str, reason: str
) -> None:
    base = f"{memory_url()}/scopes/user/files/{raw}"
    for method in ("GET", "DELETE"):
        response = await client.request(method, URL(base, encoded=True))
        await expect_problem(response, 400, reason)
    assert sorted(path.name for path in corpus_user.user.iterdir()) == sorted(
        [layout.INDEX_FILE, *corpus_topics("user-scope")]
    )


async def test_k7_encoded_slash_never_reaches_another_folder(
    client: Client, agent: AgentHome
) -> None:
    copy_corpus("user-scope", agent.root / "other-0123abcd")
    url = URL(
        f"{memory_url()}/scopes/user/files/..%2Fother-0123abcd%2Fprefers-pnpm.md", encoded=True
    )

    await expect_problem(await client.get(url), 400, "invalid file")
    await expect_problem(await client.delete(url), 400, "invalid file")
    assert (agent.root / "other-0123abcd" / "prefers-pnpm.md").exists()


async def test_t2_huge_file_is_read_up_to_the_cap_and_says_so(
    client: Client, agent: AgentHome
) -> None:
    body = ("A line of a very long note that someone pasted whole.\n" * 40_000).encode()
    (agent.user / "huge.md").write_bytes(b"---\ndescription: huge\n---\n" + body)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    topic = await ok_json(await client.get(file_url("user", "huge.md")))

    assert listing["files"][0]["size"] == topic["size"] > 2 * 1024 * 1024
    assert any(problem.startswith("size:") for problem in topic["problems"])
    assert topic["description"] == "huge"
    assert len(topic["body"].encode()) <= 1024 * 1024
