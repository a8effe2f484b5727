"""A-6, A-7: a delete beside a ``MEMORY.md`` the service never reads says its index was left as
it is.

A scope's ``MEMORY.md`` may be a folder, a FIFO, or a symlink leading out of the memory root (a
dotfiles manager's link): no index to the service, never read, rewritten or followed out of
the root. A delete there answered a plain 200 with ``removedIndexLines: []``, as if no line
linked the file; whoever uses that file as an index keeps a line to a file that is gone, and
nobody was told. The file is deleted all the same (nothing of the index is the service's to
keep), and the answer's ``indexProblem`` says why no index line was looked at or removed; the
web page shows it (``tests/browser/test_delete.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic

LINE = "- [F](f.md) — the file deleted"


def _folder(agent: AgentHome) -> str:
    (agent.user / layout.INDEX_FILE).mkdir()
    (agent.user / layout.INDEX_FILE / "notes.md").write_text(LINE + "\n", encoding="utf-8")
    return "a folder, not a file"


def _fifo(agent: AgentHome) -> str:
    os.mkfifo(agent.user / layout.INDEX_FILE)
    return "a FIFO (named pipe), not a regular file"


def _link_out(agent: AgentHome) -> str:
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text(LINE + "\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to(outside)
    return "a symlink to outside the memory root"


def _link_to_a_folder(agent: AgentHome) -> str:
    (agent.user / "kept").mkdir()
    (agent.user / layout.INDEX_FILE).symlink_to(agent.user / "kept")
    return "a symlink to a folder, not a file"


@pytest.mark.parametrize(
    "make", [_folder, _fifo, _link_out, _link_to_a_folder], ids=lambda f: f.__name__[1:]
)
async def test_a6_a_delete_beside_an_index_that_is_no_file_says_it_was_left_as_it_is(
    client: Client, agent: AgentHome, make: Callable[[AgentHome], str]
) -> None:
    write_topic(agent.user, "f.md")
    what = make(agent)
    outside = agent.tmp / "dotfiles" / "MEMORY.md"
    before = outside.read_bytes() if outside.exists() else None

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert not (agent.user / "f.md").exists()
    assert result["removedIndexLines"] == []
    assert result["indexProblem"] == (
        f"the scope's MEMORY.md is {what}, which the service never reads, rewrites or follows: "
        "no index line was looked at or removed, so a line there linking 'f.md' stays; make "
        "MEMORY.md a regular file in the scope's folder for the service to keep it"
    )
    if before is not None:  # never followed out of the root: the file there is untouched
        assert outside.read_bytes() == before
    assert result["version"] is not None  # the delete itself is recorded, and can be undone


async def test_a6_a_delete_beside_a_regular_index_has_no_index_problem(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(LINE + "\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == [LINE]
    assert result["indexProblem"] is None


async def test_a6_the_delete_answer_documents_its_index_problem(client: Client) -> None:
    document = await ok_json(await client.get("/openapi.json"))
    schema = document["components"]["schemas"]["DeleteResult"]
    assert "indexProblem" in schema["properties"]
    assert "indexProblem" not in schema.get("required", [])
    assert "index_problem" in schema["description"]
