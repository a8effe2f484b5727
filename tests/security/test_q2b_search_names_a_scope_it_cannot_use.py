"""Q-2b, S-1, K-6: a search over every scope names a Workspace scope that is there and cannot be
used (a file, a FIFO or a symlink leading out of the root or to nothing in its folder's place),
as the overview names it and as a search of that scope alone refuses it (503): it answered 0
hits and no notice, as if the scope held nothing that matched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, ok_json

WHY = (
    "found something that is not a folder in its folder's place; an operator must move it "
    "away (the scope's folder is then made again)"
)
THINGS = ["a file", "a FIFO", "a symlink leading out of the root", "a dangling symlink"]


def _put_in_its_place(scope: Path, thing: str, elsewhere: Path) -> None:
    """Move the scope's folder to ``elsewhere`` and put ``thing`` in its place."""
    shutil.move(scope, elsewhere)
    if thing == "a file":
        scope.write_text("not a folder\n", encoding="utf-8")
    elif thing == "a FIFO":
        os.mkfifo(scope)
    elif thing == "a symlink leading out of the root":
        scope.symlink_to(elsewhere)
    else:
        scope.symlink_to(elsewhere.parent / "nothing-here")


async def _search(client: Client, **params: str) -> dict[str, Any]:
    return await ok_json(
        await client.get(f"{memory_url()}/search", params={"q": "cursor"} | params)
    )


@pytest.mark.parametrize("thing", THINGS)
async def test_q2b_a_search_names_a_scope_with_no_folder_in_its_place(
    client: Client, agent: AgentHome, thing: str
) -> None:
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    before = await _search(client)
    assert before["total"] and before["unreadable"] == []

    elsewhere = agent.tmp / "elsewhere"
    _put_in_its_place(agent.root / key, thing, elsewhere)
    after = await _search(client)

    assert (after["total"], after["hits"]) == (0, [])  # nothing of the link's target read
    assert after["unreadable"] == [
        {
            "code": "unreadable",
            "severity": "error",
            "file": f"{key}/",
            "line": None,
            "message": f"scope {key!r} cannot be used: the service {WHY}: none of its files "
            "was searched",
        }
    ]
    overview = await ok_json(await client.get(memory_url()))
    assert [entry["name"] for entry in overview["skipped"]] == [key]
    await expect_problem(
        await client.get(f"{memory_url()}/search", params={"q": "cursor", "scope": key}),
        503,
        "cannot be used",
    )
    assert (agent.root / key).is_symlink() or (agent.root / key).exists()  # left as it was


async def test_q2b_a_first_search_names_it_and_a_folder_put_back_is_searched_again(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    elsewhere = agent.tmp / "elsewhere"
    _put_in_its_place(agent.root / key, "a symlink leading out of the root", elsewhere)

    first = await _search(client)  # the index never saw the scope as a folder
    assert [finding["file"] for finding in first["unreadable"]] == [f"{key}/"]
    assert first["total"] == 0

    (agent.root / key).unlink()
    shutil.move(elsewhere, agent.root / key)
    again = await _search(client)
    assert again["unreadable"] == []
    assert again["total"] and {hit["scope"] for hit in again["hits"]} == {key}
