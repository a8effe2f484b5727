"""A-5 the index view: the raw index and which lines the injection keeps or drops (I-3, I-4)."""

from __future__ import annotations

import msgspec
from memory_core.lint import lint_scope
from memory_core.topics import decode_text, parse_topic

from tests.api.conftest import CORPUS, AgentHome, Client, memory_url, ok_json


async def test_a5_large_index_shows_kept_prefix_and_dropped_rest(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("big", corpus="large-index")
    raw = (CORPUS / "large-index" / "MEMORY.md").read_text(encoding="utf-8")
    file_lines = raw.split("\n")[:-1] if raw.endswith("\n") else raw.split("\n")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))

    assert view["scope"] == key
    assert view["exists"] is True
    assert view["raw"] == raw
    assert [line["text"] for line in view["lines"]] == file_lines
    assert [line["number"] for line in view["lines"]] == list(range(1, len(file_lines) + 1))
    kept = [line["kept"] for line in view["lines"]]
    first_dropped = kept.index(False)
    assert all(kept[:first_dropped]) and not any(kept[first_dropped:])  # the cut is a prefix
    assert first_dropped <= 200
    manifest = view["manifest"]
    assert manifest["scope"] == key
    assert manifest["linesTotal"] == len(file_lines) == 260
    assert manifest["linesKept"] == first_dropped
    assert manifest["linesDropped"] == len(file_lines) - first_dropped
    assert manifest["capFired"] in ("lines", "chars")
    assert manifest["headroomLines"] == 0
    assert sum(len(text) + 1 for text in file_lines[:first_dropped]) <= 25_000
    # the large sample has unindexed files and over-long lines: lint names them
    assert {finding["code"] for finding in view["findings"]}


async def test_a5_small_index_keeps_every_line(client: Client, corpus_user: AgentHome) -> None:
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    assert view["exists"] is True
    assert all(line["kept"] for line in view["lines"])
    assert view["manifest"]["capFired"] == "none"
    assert view["manifest"]["linesDropped"] == 0
    assert view["manifest"]["headroomLines"] == 200 - len(view["lines"])


async def test_i3_missing_index_is_reported_as_absent(client: Client, agent: AgentHome) -> None:
    _, key = agent.workspace("fresh")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))

    assert view["exists"] is False
    assert view["raw"] == ""
    assert view["lines"] == []
    assert view["manifest"]["linesTotal"] == 0
    assert not (agent.root / key / "MEMORY.md").exists()


async def test_i4_workspace_view_shares_the_budget_with_the_user_index(
    client: Client, agent: AgentHome
) -> None:
    """A Workspace index is viewed as a Session there would get it: beside the user index."""
    (agent.user / "MEMORY.md").write_text(("- " + "u" * 998 + "\n") * 30, encoding="utf-8")
    _, key = agent.workspace("shared")
    (agent.root / key / "MEMORY.md").write_text(("- " + "w" * 998 + "\n") * 30, encoding="utf-8")

    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
    user_view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    assert view["manifest"]["capFired"] == "chars"
    assert view["manifest"]["linesKept"] == 12  # half of 25,000 characters, 1,001 per line
    assert user_view["manifest"]["capFired"] == "chars"  # alone it would get the whole budget
    assert user_view["manifest"]["linesKept"] == 24


async def test_t5_index_view_findings_are_the_scope_lint(client: Client, agent: AgentHome) -> None:
    """The findings equal ``lint_scope`` over the files on disk, asked twice (read, then from
    the file cache)."""
    _, key = agent.workspace("messy", corpus="coding-agent-workspace")
    scope = agent.root / key
    topics = [
        parse_topic(path.read_bytes(), path.name)
        for path in sorted(scope.iterdir())
        if path.suffix == ".md" and path.name != "MEMORY.md"
    ]
    index_text = decode_text((scope / "MEMORY.md").read_bytes())[0]
    expected = msgspec.to_builtins(
        lint_scope(index_text, topics, [topic.file for topic in topics], companion_index=None)
    )

    for _ in range(2):
        view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
        assert view["findings"] == expected
    codes = {finding["code"] for finding in expected}
    assert {"dangling-link", "unindexed", "name-mismatch"} <= codes
