"""V-2: a restore says an index line added only when ``MEMORY.md`` leads to the file holding it.

The restore of a deleted topic file edits the index, then looks whether ``MEMORY.md`` is still
what it edited. That look compared only "is a symlink" and the link's path, so an agent's change
right after the edit passed it: ``mv MEMORY.md idx.md`` (no index any more), the link's file
moved away (``mv idx.md notes.md``), a new file written at the name. The answer said the line
added (200) while no index held it. Now the look asks for the very file the edit wrote (its
device and inode) at the end of ``MEMORY.md``; otherwise it looks again (three tries), and the
line is said added only where the index now is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_core import file_edit, layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic

LINE = "- [F](f.md) — the file deleted"
OTHER = "- [G](g.md) — a file kept"
NEW = "- [H](h.md) — the agent's new index"


def _after_the_first_edit(monkeypatch: pytest.MonkeyPatch, change: Callable[[], None]) -> None:
    """``change`` (the agent's) right after the restore's first edit of the index wrote it."""
    from memory_api.store.history import restore

    edit = file_edit.edit_file
    left = [1]

    def edited_then_changed(path: Path, *args: Any, **kwargs: Any) -> Any:
        edited = edit(path, *args, **kwargs)
        if path.name != "f.md" and left:
            left.pop()
            change()
        return edited

    monkeypatch.setattr(restore, "edit_file", edited_then_changed)


async def _restored(client: Client, agent: AgentHome, change: Callable[[], None], mp: Any) -> Any:
    """``f.md`` deleted through the API, ``change`` made right after the restore's first edit
    of the index; the restore's answer."""
    deleted = await ok_json(await client.delete(file_url("user", "f.md")))
    assert deleted["removedIndexLines"] == [LINE]
    _after_the_first_edit(mp, change)
    url = f"{file_url('user', 'f.md')}/restore"
    return await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))


def _index_text(agent: AgentHome) -> str:
    """The text of the file ``MEMORY.md`` leads to (FileNotFoundError: none)."""
    return (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8")


async def test_v2_an_index_moved_away_after_the_edit_has_the_line_said_added_only_where_it_is(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mv MEMORY.md idx.md`` right after the edit: no index holds the line; looked at
    again, the restore makes the index with it."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"{LINE}\n{OTHER}\n", encoding="utf-8")

    def moved() -> None:
        index.rename(agent.user / "idx.md")

    restored = await _restored(client, agent, moved, monkeypatch)

    assert restored["indexLinesAdded"] == [LINE]
    assert LINE in _index_text(agent)


async def test_v2_a_link_s_file_moved_away_after_the_edit_has_the_line_said_added_only_where_it_is(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MEMORY.md -> idx.md``; ``mv idx.md notes.md`` right after the edit: the link leads
    to nothing; looked at again, the line goes into the file the link names."""
    write_topic(agent.user, "f.md")
    (agent.user / "idx.md").write_text(f"{LINE}\n{OTHER}\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to("idx.md")

    def moved() -> None:
        (agent.user / "idx.md").rename(agent.user / "notes.md")

    restored = await _restored(client, agent, moved, monkeypatch)

    assert restored["indexLinesAdded"] == [LINE]
    assert LINE in _index_text(agent)


async def test_v2_a_new_index_written_after_the_edit_has_the_line_said_added_only_where_it_is(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mv MEMORY.md old.md`` and a new ``MEMORY.md`` written right after the edit: the new
    index does not hold the line; looked at again, the line goes into it, the agent's line
    kept."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"{LINE}\n{OTHER}\n", encoding="utf-8")

    def replaced() -> None:
        index.rename(agent.user / "old.md")
        index.write_text(f"{NEW}\n", encoding="utf-8")

    restored = await _restored(client, agent, replaced, monkeypatch)

    assert restored["indexLinesAdded"] == [LINE]
    assert LINE in _index_text(agent)
    assert NEW in _index_text(agent)


@pytest.mark.parametrize("below", ["idx.md", "notes/idx.md", "../elsewhere/idx.md"])
async def test_v2_an_index_linked_that_holds_the_line_already_is_no_change(
    client: Client, agent: AgentHome, below: str
) -> None:
    """``MEMORY.md`` a link to a file of the scope (in a subfolder too), or of another folder
    of the memory root, that holds the line already: the restore adds none and says so (200),
    at every restore; nothing changed, so nothing is looked at again (the file's identity was
    once taken after its folder, held for the edit, was let go: a "kept changing" 409 at every
    try)."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"{LINE}\n{OTHER}\n", encoding="utf-8")
    deleted = await ok_json(await client.delete(file_url("user", "f.md")))
    index.unlink()
    linked = agent.user / below
    linked.parent.mkdir(exist_ok=True)
    linked.write_text(f"{LINE}\n{OTHER}\n", encoding="utf-8")
    index.symlink_to(below)
    url = f"{file_url('user', 'f.md')}/restore"

    for _ in range(2):
        restored = await ok_json(
            await client.post(url, json={"version": deleted["restoreVersion"]})
        )
        assert restored["indexLinesAdded"] == []
    assert linked.read_text(encoding="utf-8") == f"{LINE}\n{OTHER}\n"
