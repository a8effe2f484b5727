"""A-5, A-7: a scope's counts and its listing's rows describe exactly the files it serves.

- **Counts.** The overview's totals, a scope's row and an agent card count a scope's topic
  files from one listing of its folder, no file looked at (the quick count). A topic file with
  another hard link outside its folder is never read and the listing names it refused, yet the
  quick count took it as a topic file by its directory entry: the Memory tab said "3 files"
  over a listing of 2. A file of more than one name is now judged on every use, so every count
  leaves it out as the listing does. (A name made elsewhere for a file already counted changes
  nothing in its folder: the quick count sees it when the folder next changes; the listing
  and every read refuse it at once.)
- **Rows.** Each row's ``stat`` (size, mtime) was taken by the file's name after the folder
  was checked and listed: a scope folder swapped meanwhile for a symlink to another agent's
  scope gave the rows of that folder's files. Rows are now looked at through the folder held
  open and checked: the rows are of the folder listed, or none at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_api.store import containment, scopes

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic
from tests.security.test_a7_hard_links_out_of_the_root import outside_file
from tests.security.test_a7_scope_folder_swapped_mid_request import swapped

AGENTS = "/api/projects/acme/agents"


async def _counts(client: Client) -> tuple[int, int, list[str]]:
    """(the overview's total of files, the user scope's fileCount, its listed files)."""
    overview = await ok_json(await client.get(memory_url()))
    row = next(scope for scope in overview["scopes"] if scope["key"] == "user")
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    return overview["totals"]["files"], row["fileCount"], [r["file"] for r in listing["files"]]


async def test_a7_a_hard_linked_file_is_counted_nowhere_as_it_is_listed_nowhere(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "a.md")
    write_topic(agent.user, "b.md")
    os.link(outside_file(agent), agent.user / "linked.md")

    total, row, listed = await _counts(client)

    assert listed == ["a.md", "b.md"]
    assert (total, row) == (2, 2)


async def test_a7_an_agent_card_counts_what_its_memory_tab_lists(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "a.md")
    os.link(outside_file(agent), agent.user / "linked.md")

    agents = await ok_json(await client.get(AGENTS))

    card = next(entry for entry in agents["agents"] if entry["id"] == "coder")
    assert card["memoryCount"] == 1


def _scope_with_rows(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A memory root whose ``user`` scope holds ``a.md`` (3 bytes), and another agent's scope
    folder holding an ``a.md`` of 27 bytes."""
    root = tmp_path / "memory"
    scope = root / "user"
    scope.mkdir(parents=True)
    (scope / "a.md").write_text("own")
    other = tmp_path / "other-agent-scope"
    other.mkdir()
    (other / "a.md").write_text("the other agent's long note")
    return root, scope, other


def test_a7_rows_of_a_scope_swapped_after_its_listing_describe_none_of_the_other_files(
    tmp_path: Path,
) -> None:
    root, scope, other = _scope_with_rows(tmp_path)
    listing = scopes.list_folder(scope, real=True)
    assert listing is not None
    with swapped(scope, other) as swap:
        swap()  # listed and checked: the rows are looked at next

        rows = scopes.scan_scope(root, scope, listing).topics

    assert [row.stat.st_size for row in rows if row.file == "a.md"] in ([], [3])


def test_a7_rows_are_looked_at_in_the_folder_held_open_not_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The swap made after the held folder was checked, before any row is looked at: the rows
    still describe the files of the folder listed."""
    root, scope, other = _scope_with_rows(tmp_path)
    listing = scopes.list_folder(scope, real=True)
    assert listing is not None
    checked = containment.opened_at
    with swapped(scope, other) as swap:

        def check_then_swap(fd: int, path: str | os.PathLike[str], **how: bool) -> bool:
            found = checked(fd, path, **how)
            swap()
            return found

        monkeypatch.setattr(scopes, "opened_at", check_then_swap)

        rows = scopes.scan_scope(root, scope, listing).topics

    assert [(row.file, row.stat.st_size) for row in rows] == [("a.md", 3)]
