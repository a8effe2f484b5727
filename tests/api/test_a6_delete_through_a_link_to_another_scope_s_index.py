"""A-6, Q-4: a delete beside a ``MEMORY.md`` linked to another scope's index removes nothing.

A scope's ``MEMORY.md`` may be a symlink to a file inside the memory root. When that file is
the scope's own (in its folder or a sub-folder of it) the delete prunes it through the link.
When it is another scope's file (that scope's ``MEMORY.md``, or any file of its folder), the
delete pruned it outside that scope's lock and history: a line of another scope's index gone,
recorded by no version of it. That is refused like a link out of the root (409): the file and
every byte of both indexes stay, and the detail says the index belongs to another scope.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, ok_json, write_topic

LINE = "- [F](f.md) — the file deleted"
OTHER = "- [G](g.md) — a file kept"
INDEX = f"{LINE}\n{OTHER}\n"


def _other_scope(agent: AgentHome) -> tuple[Path, str]:
    """Another scope of the agent (a Workspace's) whose index holds a line linking ``f.md``."""
    _, key = agent.workspace("project")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    return index, key


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
async def test_a6_a_delete_through_a_link_to_another_scope_s_index_removes_nothing(
    client: Client, agent: AgentHome, relative: bool
) -> None:
    topic = write_topic(agent.user, "f.md")
    content = topic.read_bytes()
    index, key = _other_scope(agent)
    before = index.read_bytes()
    link = Path("..") / key / layout.INDEX_FILE if relative else index
    (agent.user / layout.INDEX_FILE).symlink_to(link)

    response = await client.delete(file_url("user", "f.md"))

    problem = await expect_problem(response, 409, "'f.md' was not deleted")
    assert problem["detail"] == (
        f"'f.md' was not deleted: the scope's MEMORY.md is a symlink to {key}/MEMORY.md, "
        f"the index of another scope ({key}), which only that scope's own changes rewrite, "
        "under its lock and in its history, so an index line linking 'f.md' there could not "
        "be removed; nothing changed (a delete is all or nothing): make MEMORY.md a regular "
        "file in the scope's folder (or remove it), then try again"
    )
    assert topic.read_bytes() == content
    assert index.read_bytes() == before  # the other scope's index: every byte kept
    assert (agent.user / layout.INDEX_FILE).readlink() == link


async def test_a6_a_delete_through_a_link_to_another_scope_s_topic_file_removes_nothing(
    client: Client, agent: AgentHome
) -> None:
    topic = write_topic(agent.user, "f.md")
    content = topic.read_bytes()
    _, key = _other_scope(agent)
    notes = agent.root / key / "notes.md"
    notes.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(notes)

    response = await client.delete(file_url("user", "f.md"))

    problem = await expect_problem(response, 409, "'f.md' was not deleted")
    whose = f"is a symlink to {key}/notes.md, a file of another scope ({key}), which only"
    assert whose in problem["detail"]
    assert topic.read_bytes() == content
    assert notes.read_text(encoding="utf-8") == INDEX


async def test_a6_a_link_to_the_scope_s_own_file_is_still_pruned_through(
    client: Client, agent: AgentHome
) -> None:
    """The rule refuses another scope's file only: the scope's own, linked by its absolute
    path through the memory root, is the index and is pruned."""
    write_topic(agent.user, "f.md")
    own = agent.user / "index-notes.md"
    own.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(agent.root / "user" / "index-notes.md")

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == [LINE]
    assert own.read_text(encoding="utf-8") == f"{OTHER}\n"


async def test_a6_an_index_link_swapped_after_its_check_never_has_the_edit_follow_it(
    client: Client, agent: AgentHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delete resolved the index's link, checked it, then resolved it again for the edit:
    a link swapped in between for one out of the root had a file outside the root rewritten
    and its line answered as removed (review rv-sync69: 69 tries of a swapping loop). The
    edit now goes to the file checked (the scope's own ``INDEX.txt``)."""
    from memory_api.store import pruning, scopes

    write_topic(agent.user, "f.md")
    own = agent.user / "INDEX.txt"
    own.write_text(INDEX, encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text(f"{LINE}\nkeep\n", encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.symlink_to("INDEX.txt")
    checked = scopes.index_refusal

    def swapped_after_the_check(root: Path, scope: Path) -> str | None:
        answer = checked(root, scope)
        swap = agent.user / ".swap"
        swap.symlink_to(outside)
        swap.replace(index)  # the agent's loop, between the check and the edit
        return answer

    monkeypatch.setattr(pruning, "index_refusal", swapped_after_the_check)

    response = await client.delete(file_url("user", "f.md"))

    assert outside.read_text(encoding="utf-8") == f"{LINE}\nkeep\n"  # never followed
    body = await ok_json(response)
    assert body["removedIndexLines"] == [LINE]
    assert own.read_text(encoding="utf-8") == f"{OTHER}\n"


@pytest.mark.parametrize("linked", ["sub/MEMORY.md", "INDEX.txt"])
async def test_a6_a_folder_on_the_index_links_way_replaced_after_its_check_is_never_followed(
    client: Client,
    agent: AgentHome,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    linked: str,
) -> None:
    """The index links a file of the scope's own folder; after the check, the folder the file
    lies in (``sub``, or the scope's folder itself) is renamed and a link out of the root put
    in its place: the edit looked the checked real path up again by its names and rewrote the
    file outside (review rv-fix69s: 193 and 252 tries of a loop). The edit now goes through the
    folders held open: outside is never touched; ``sub`` swapped refuses the delete (409)."""
    from memory_api.store import pruning, scopes

    topic = write_topic(agent.user, "f.md")
    own = agent.user / linked
    own.parent.mkdir(exist_ok=True)
    own.write_text(INDEX, encoding="utf-8")
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    for file in (outside / linked, outside / "user" / linked):
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"{LINE}\nkeep\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(linked)
    checked = scopes.index_refusal
    swapped = agent.user / "sub" if "/" in linked else agent.user

    def swapped_after_the_check(root: Path, scope: Path) -> str | None:
        answer = checked(root, scope)
        swapped.rename(swapped.with_name(swapped.name + "-moved"))
        swapped.symlink_to(outside / "user" if swapped == agent.user else outside / "sub")
        return answer

    monkeypatch.setattr(pruning, "index_refusal", swapped_after_the_check)

    response = await client.delete(file_url("user", "f.md"))

    for file in (outside / linked, outside / "user" / linked):
        assert file.read_text(encoding="utf-8") == f"{LINE}\nkeep\n"  # never followed
    if "/" in linked:
        await expect_problem(response, 409, "'f.md' was not deleted")
        assert topic.read_bytes()
    else:  # the scope's folder held open: pruned where it was checked, under its new name
        assert (await ok_json(response))["removedIndexLines"] == [LINE]
        moved = agent.user.with_name("user-moved")
        assert (moved / "INDEX.txt").read_text(encoding="utf-8") == f"{OTHER}\n"


async def test_a6_a_folder_on_the_index_links_way_gone_after_its_check_is_a_conflict(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sub`` renamed away (nothing in its place) between the check and the edit of
    ``sub/MEMORY.md``: changed meanwhile, 409 and try again, nothing deleted (review
    rv-fix69w: 503, an error for an operator to look into)."""
    from memory_api.store import pruning, scopes

    topic = write_topic(agent.user, "f.md")
    (agent.user / "sub").mkdir()
    (agent.user / "sub" / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to("sub/MEMORY.md")
    checked = scopes.index_refusal

    def gone_after_the_check(root: Path, scope: Path) -> str | None:
        answer = checked(root, scope)
        (agent.user / "sub").rename(agent.user / "sub-moved")
        return answer

    monkeypatch.setattr(pruning, "index_refusal", gone_after_the_check)

    response = await client.delete(file_url("user", "f.md"))

    problem = await expect_problem(response, 409, "'f.md' was not deleted")
    assert "try again" in problem["detail"]
    assert topic.exists()
    assert (agent.user / "sub-moved" / layout.INDEX_FILE).read_text(encoding="utf-8") == INDEX


async def test_a6_an_index_linked_into_a_folder_that_is_not_there_is_no_index(
    client: Client, agent: AgentHome
) -> None:
    """``MEMORY.md`` a link to ``sub/MEMORY.md`` with no ``sub``: a link to nothing, so no
    index and nothing to prune, as a link to a missing file (review rv-lead69: 409 "try again"
    at every try)."""
    topic = write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).symlink_to("sub/MEMORY.md")

    response = await client.delete(file_url("user", "f.md"))

    assert (await ok_json(response))["removedIndexLines"] == []
    assert not topic.exists()
