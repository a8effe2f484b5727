"""A-6, A-7: a delete beside a ``MEMORY.md`` the service cannot rewrite removes nothing.

A scope's ``MEMORY.md`` may be a symlink (a dotfiles manager's link), a folder, a FIFO, or a file
hard-linked outside its folder. A symlink to a file inside the memory root is the index: it is
pruned through the link (the link stays a link, the file it names loses the line). Every other
form is never read, rewritten or followed out of the root; a delete there answered 200 with the
file gone while a line linking it stayed in the file the link names, which every later Session
injects: a half delete. A delete is all or nothing: it is refused (409), the file stays, and the
detail says why and what to do.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_core import layout
from memory_core.hard_links import HARD_LINKED

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, ok_json, write_topic

LINE = "- [F](f.md) — the file deleted"
OTHER = "- [G](g.md) — a file kept"
INDEX = f"{LINE}\n{OTHER}\n"


def _beside(agent: AgentHome) -> Path:
    target = agent.user / "index-notes.md"
    target.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(target)
    return target


def _beside_relative(agent: AgentHome) -> Path:
    target = agent.user / "index-notes.md"
    target.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to("index-notes.md")
    return target


def _in_a_sub_folder(agent: AgentHome) -> Path:
    (agent.user / "kept").mkdir()
    target = agent.user / "kept" / "index.md"
    target.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(Path("kept") / "index.md")
    return target


def _through_two_links(agent: AgentHome) -> Path:
    target = agent.user / "index-notes.md"
    target.write_text(INDEX, encoding="utf-8")
    (agent.user / "hop.md").symlink_to("index-notes.md")
    (agent.user / layout.INDEX_FILE).symlink_to("hop.md")
    return target


@pytest.mark.parametrize(
    "make",
    [_beside, _beside_relative, _in_a_sub_folder, _through_two_links],
    ids=lambda f: f.__name__[1:],
)
async def test_a6_an_index_symlinked_inside_the_root_is_pruned_through_the_link(
    client: Client, agent: AgentHome, make: Callable[[AgentHome], Path]
) -> None:
    write_topic(agent.user, "f.md")
    write_topic(agent.user, "g.md")
    target = make(agent)
    link = (agent.user / layout.INDEX_FILE).readlink()

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == [LINE]
    assert not (agent.user / "f.md").exists()
    assert target.read_text(encoding="utf-8") == f"{OTHER}\n"
    assert (agent.user / layout.INDEX_FILE).readlink() == link  # still the same link


def _link_out(agent: AgentHome) -> str:
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(outside)
    return "a symlink to outside the memory root"


def _link_out_not_linking(agent: AgentHome) -> str:
    """Never read: whether its lines link the file is not known, so it may."""
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text(f"{OTHER}\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(outside)
    return "a symlink to outside the memory root"


def _link_out_relative(agent: AgentHome) -> str:
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(os.path.relpath(outside, agent.user))
    return "a symlink to outside the memory root"


def _link_to_a_folder(agent: AgentHome) -> str:
    (agent.user / "kept").mkdir()
    (agent.user / layout.INDEX_FILE).symlink_to(agent.user / "kept")
    return "a symlink to a folder, not a file"


def _folder(agent: AgentHome) -> str:
    (agent.user / layout.INDEX_FILE).mkdir()
    (agent.user / layout.INDEX_FILE / "notes.md").write_text(INDEX, encoding="utf-8")
    return "a folder, not a file"


def _fifo(agent: AgentHome) -> str:
    os.mkfifo(agent.user / layout.INDEX_FILE)
    return "a FIFO (named pipe), not a regular file"


def _hard_linked_outside(agent: AgentHome) -> str:
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text(INDEX, encoding="utf-8")
    os.link(outside, agent.user / layout.INDEX_FILE)
    return HARD_LINKED


@pytest.mark.parametrize(
    "make",
    [
        _link_out,
        _link_out_not_linking,
        _link_out_relative,
        _link_to_a_folder,
        _folder,
        _fifo,
        _hard_linked_outside,
    ],
    ids=lambda f: f.__name__[1:],
)
async def test_a6_a_delete_beside_an_index_it_cannot_rewrite_removes_nothing(
    client: Client, agent: AgentHome, make: Callable[[AgentHome], str]
) -> None:
    topic = write_topic(agent.user, "f.md")
    content = topic.read_bytes()
    what = make(agent)
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    before = outside.read_bytes() if outside.exists() else None

    response = await client.delete(file_url("user", "f.md"))

    problem = await expect_problem(response, 409, "'f.md' was not deleted")
    assert problem["detail"] == (
        f"'f.md' was not deleted: the scope's MEMORY.md is {what}, which the service never "
        "reads, rewrites or follows, so an index line linking 'f.md' there could not be "
        "removed; nothing changed (a delete is all or nothing): make MEMORY.md a regular file "
        "in the scope's folder (or remove it), then try again"
    )
    assert topic.read_bytes() == content  # the file stays: the retry still finds it
    if before is not None:  # never followed out of the root: the file there is untouched
        assert outside.read_bytes() == before
        assert "the file deleted" not in problem["detail"]  # none of its text is shown


async def test_a6_the_delete_goes_through_once_the_index_is_a_regular_file_again(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "f.md")
    _link_out(agent)
    await expect_problem(await client.delete(file_url("user", "f.md")), 409, "not deleted")
    (agent.user / layout.INDEX_FILE).unlink()
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == [LINE]
    assert not (agent.user / "f.md").exists()


async def test_a6_the_delete_answer_no_longer_has_an_index_problem(client: Client) -> None:
    """A delete is never done beside an index left as it is, so nothing says it was."""
    document = await ok_json(await client.get("/openapi.json"))
    assert "indexProblem" not in document["components"]["schemas"]["DeleteResult"]["properties"]
