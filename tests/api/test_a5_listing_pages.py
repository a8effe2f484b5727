"""A-5: a scope's file listing comes in pages of at most 1,000 files, none left out.

``GET …/scopes/{key}/files`` answered every file of a scope at once (30,000 rows and the whole
lint beside them in one answer). Now ``?limit=`` (1-1000, default 1000) files come after
``?cursor=`` (the ``nextCursor`` of the page before), by file name; ``nextCursor`` is null on
the last page and ``total`` counts every file, so a client following the cursor is given each
file once. A scope of up to 1,000 files answers in one page, as before.
"""

from __future__ import annotations

from typing import Any

import pytest
from memory_api.store import answers
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, ok_json, write_topic

FILES = f"{memory_url()}/scopes/user/files"


async def _page(client: Client, **params: str) -> dict[str, Any]:
    return await ok_json(await client.get(FILES, params=params))


def _names(count: int) -> list[str]:
    return [f"note-{number:04d}.md" for number in range(count)]


async def test_a5_a_scope_of_1001_files_answers_1000_then_the_last_one(
    client: Client, agent: AgentHome
) -> None:
    for name in _names(1001):
        write_topic(agent.user, name)

    first = await _page(client)
    last = await _page(client, cursor=first["nextCursor"])

    assert [row["file"] for row in first["files"]] == _names(1000)
    assert (first["total"], first["nextCursor"]) == (1001, "note-0999.md")
    assert [row["file"] for row in last["files"]] == ["note-1000.md"]
    assert (last["total"], last["nextCursor"]) == (1001, None)


async def test_a5_following_next_cursor_gives_every_file_once_in_order(
    client: Client, agent: AgentHome
) -> None:
    for name in _names(7):
        write_topic(agent.user, name)

    seen: list[str] = []
    page = await _page(client, limit="3")
    pages = 1
    while True:
        seen.extend(row["file"] for row in page["files"])
        if page["nextCursor"] is None:
            break
        page = await _page(client, limit="3", cursor=page["nextCursor"])
        pages += 1

    assert seen == _names(7)
    assert pages == 3


async def test_a5_a_file_deleted_between_two_pages_moves_no_other_file_off_them(
    client: Client, agent: AgentHome
) -> None:
    for name in _names(6):
        write_topic(agent.user, name)

    first = await _page(client, limit="3")
    (agent.user / "note-0001.md").unlink()  # on the page already read
    second = await _page(client, limit="3", cursor=first["nextCursor"])

    assert [row["file"] for row in second["files"]] == [
        "note-0003.md",
        "note-0004.md",
        "note-0005.md",
    ]
    assert (second["total"], second["nextCursor"]) == (5, None)


async def test_a5_a_small_scope_is_one_page_in_the_shape_it_always_had(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "only.md")

    page = await _page(client)

    assert set(page) == {"scope", "files", "findings", "total", "nextCursor"}
    assert (page["scope"], [row["file"] for row in page["files"]]) == ("user", ["only.md"])
    assert (page["total"], page["nextCursor"]) == (1, None)


async def test_a5_each_page_carries_its_files_findings_and_the_first_the_scopes(
    client: Client, agent: AgentHome
) -> None:
    """``unindexed`` is about one file: on that file's page. ``dangling-link`` is about the
    index: on the first page only, so following every page gives each finding once."""
    for name in _names(4):
        write_topic(agent.user, name)
    (agent.user / layout.INDEX_FILE).write_text("- [gone](gone.md)\n", encoding="utf-8")

    first = await _page(client, limit="2")
    second = await _page(client, limit="2", cursor=first["nextCursor"])

    def about(page: dict[str, Any]) -> set[tuple[str, str]]:
        return {(finding["code"], finding["file"]) for finding in page["findings"]}

    assert about(first) == {
        ("dangling-link", "MEMORY.md"),
        ("unindexed", "note-0000.md"),
        ("unindexed", "note-0001.md"),
    }
    assert about(second) == {("unindexed", "note-0002.md"), ("unindexed", "note-0003.md")}


async def test_a5_a_page_builds_the_rows_of_that_page_only(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last page costs what the second does: its rows are made, no others (only its files
    are read and linted, test_a5_listing_page_cost)."""
    for name in _names(50):
        write_topic(agent.user, name)
    made: list[str] = []
    listed = answers.ScopeAnswers._listed

    def counting(self: answers.ScopeAnswers, item: Any) -> Any:
        made.append(item.entry.file)
        return listed(self, item)

    monkeypatch.setattr(answers.ScopeAnswers, "_listed", counting)

    await _page(client, limit="5", cursor="note-0044.md")

    assert made == _names(50)[45:]


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ({"limit": "0"}, "limit must be between 1 and 1000"),
        ({"limit": "1001"}, "limit must be between 1 and 1000"),
        ({"limit": "ten"}, "limit must be a whole number"),
        ({"cursor": "../secret"}, "cursor must be the nextCursor of a page before"),
        ({"cursor": "note.txt"}, "cursor must be the nextCursor of a page before"),
    ],
)
async def test_a5_a_bad_limit_or_cursor_is_a_400_naming_it(
    client: Client, agent: AgentHome, query: dict[str, str], detail: str
) -> None:
    await expect_problem(await client.get(FILES, params=query), 400, detail)
