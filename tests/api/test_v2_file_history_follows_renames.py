"""V-2: a file's own history follows it across renames, as ``git log --follow`` does.

``a.md`` written, edited, renamed ``b.md`` (its text kept, or rewritten in the same change with
its index line pointed at the new name), then edited again: the history of ``b.md`` lists its
own versions, the rename as one entry ``renamed`` from ``a.md``, then the versions ``a.md`` had,
each naming the file as it was called then; the history of ``a.md`` ends with the same rename,
``renamed`` to ``b.md``. Paging crosses the rename. The rename entry's undo is the scope's: the
old name restored from ``restoreVersion`` gives back its text and index line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, ok_json
from tests.api.test_v1_versions import changes, checkpoint
from tests.api.test_v2_history_and_restore import history_url, restore

INDEX = "- [Deploys](a.md) how we ship\n"
FIRST = "---\ndescription: deploys\n---\nship on Fridays\n"
SECOND = "---\ndescription: deploys\n---\nship on Fridays, never on holidays\n"
THIRD = "---\ndescription: deploys\n---\nship any day\n"


async def history(client: Client, name: str, **query: str) -> dict[str, Any]:
    answer: dict[str, Any] = await ok_json(
        await client.get(history_url("user", name, "history"), params=query)
    )
    return answer


def shown(versions: list[dict[str, Any]]) -> list[tuple[str, str, str | None, str | None]]:
    return [
        (item["change"], item["file"], item.get("renamedFrom"), item.get("renamedTo"))
        for item in versions
    ]


async def rename_story(client: Client, scope: Path, *, rewrite: bool) -> list[str]:
    """``a.md`` added, edited, renamed ``b.md`` (rewritten too when ``rewrite``), edited; the
    four versions, oldest first."""
    (scope / "a.md").write_text(FIRST, encoding="utf-8")
    (scope / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    made = [(await checkpoint(client))["version"]]
    (scope / "a.md").write_text(SECOND, encoding="utf-8")
    made.append((await checkpoint(client))["version"])
    (scope / "a.md").rename(scope / "b.md")
    if rewrite:
        (scope / "b.md").write_text(THIRD, encoding="utf-8")
        (scope / layout.INDEX_FILE).write_text(INDEX.replace("(a.md)", "(b.md)"), "utf-8")
    made.append((await checkpoint(client))["version"])
    (scope / "b.md").write_text(THIRD + "and say so\n", encoding="utf-8")
    made.append((await checkpoint(client))["version"])
    return made


@pytest.mark.parametrize("rewrite", [False, True], ids=["text-kept", "rewritten"])
async def test_v2_a_files_history_follows_it_across_a_rename(
    client: Client, agent: AgentHome, rewrite: bool
) -> None:
    made = await rename_story(client, agent.user, rewrite=rewrite)
    new = await history(client, "b.md")
    assert [item["version"] for item in new["versions"]] == made[::-1]
    assert shown(new["versions"]) == [
        ("modified", "b.md", None, None),
        ("renamed", "b.md", "a.md", None),
        ("modified", "a.md", None, None),
        ("added", "a.md", None, None),
    ]
    assert new["versions"][1]["restoreVersion"] == made[1]
    assert new["versions"][1]["size"] == len(THIRD if rewrite else SECOND)
    old = await history(client, "a.md")
    assert shown(old["versions"]) == [
        ("renamed", "a.md", None, "b.md"),
        ("modified", "a.md", None, None),
        ("added", "a.md", None, None),
    ]
    # the scope's changes tell the same rename as two changes, tied
    files = {item["file"]: item for item in (await changes(client))[1]["files"]}
    assert files["b.md"].get("renamedFrom") == "a.md" and files["a.md"].get("renamedTo") == "b.md"


async def test_v2_a_files_history_pages_across_a_rename(client: Client, agent: AgentHome) -> None:
    made = await rename_story(client, agent.user, rewrite=False)
    seen: list[str] = []
    query: dict[str, str] = {"limit": "1"}
    for _ in range(len(made) + 1):
        page = await history(client, "b.md", **query)
        seen += [item["version"] for item in page["versions"]]
        if not page["more"]:
            break
        query["before"] = seen[-1]
    assert seen == made[::-1]


async def test_v2_the_undo_of_a_rename_entry_gives_back_the_old_name_and_its_line(
    client: Client, agent: AgentHome
) -> None:
    await rename_story(client, agent.user, rewrite=True)
    entry = (await history(client, "b.md"))["versions"][1]
    assert entry["change"] == "renamed"

    answer = await restore(client, entry["renamedFrom"], entry["restoreVersion"])

    assert answer["indexLinesAdded"] == ["- [Deploys](a.md) how we ship"]
    assert (agent.user / "a.md").read_text(encoding="utf-8") == SECOND
    after = await history(client, "a.md")
    assert shown(after["versions"])[:2] == [
        ("added", "a.md", None, None),
        ("renamed", "a.md", None, "b.md"),
    ]


async def test_v2_a_file_deleted_beside_a_new_one_of_its_own_is_not_followed(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "a.md").write_text(FIRST, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    await checkpoint(client)
    (agent.user / "a.md").unlink()
    (agent.user / "c.md").write_text(THIRD, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).write_text("- [Other](c.md) something else\n", "utf-8")
    await checkpoint(client)
    assert shown((await history(client, "c.md"))["versions"]) == [("added", "c.md", None, None)]
    assert shown((await history(client, "a.md"))["versions"]) == [
        ("deleted", "a.md", None, None),
        ("added", "a.md", None, None),
    ]


async def test_v2_a_files_history_follows_two_renames_and_one_back(
    client: Client, agent: AgentHome
) -> None:
    """``a.md`` → ``b.md`` → ``c.md`` → ``a.md`` again: the history of ``a.md`` is all of it,
    each version under the name it had, and ends where ``a.md`` was first written."""
    scope = agent.user
    (scope / "a.md").write_text(FIRST, encoding="utf-8")
    made = [(await checkpoint(client))["version"]]
    for old, new in (("a.md", "b.md"), ("b.md", "c.md"), ("c.md", "a.md")):
        (scope / old).rename(scope / new)
        made.append((await checkpoint(client))["version"])
    versions = (await history(client, "a.md"))["versions"]
    assert [item["version"] for item in versions] == made[::-1]
    assert shown(versions) == [
        ("renamed", "a.md", "c.md", None),
        ("renamed", "c.md", "b.md", None),
        ("renamed", "b.md", "a.md", None),
        ("added", "a.md", None, None),
    ]
