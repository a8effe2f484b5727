"""V-2, A-6, A-7: a restore merges its lines into the index as it is at the edit, or says not.

The restore of a deleted topic file looks at the scope's ``MEMORY.md`` (a file, or a symlink
to a file of the memory root) and then edits it. An agent may change it between the two: undo
the link (``rm MEMORY.md; mv idx.md MEMORY.md``), swap a folder on the way for a link out of
the root (``mv sub sub2; ln -s /outside sub``), or keep moving it. The restore answered "line
added" while no index held it and made a stray ``idx.md`` at the link's old target, or wrote
the line outside the memory root. Now each try edits through folders held open from the scope
(no symlink followed), a change meanwhile is looked at again (three tries, then 409 "restore
again"), and a line is said added only when the index ``MEMORY.md`` leads to holds it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_core import file_edit, layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, ok_json, write_topic

LINE = "- [F](f.md) — the file deleted"
OTHER = "- [G](g.md) — a file kept"
INDEX = f"{LINE}\n{OTHER}\n"


async def _deleted(client: Client, agent: AgentHome) -> str:
    """``f.md`` deleted through the API (its line pruned); the version that restores it."""
    deleted = await ok_json(await client.delete(file_url("user", "f.md")))
    assert deleted["removedIndexLines"] == [LINE]
    return str(deleted["restoreVersion"])


def _at_each_edit(monkeypatch: pytest.MonkeyPatch, change: Callable[[], None], times: int) -> None:
    """``change`` (the agent's) just before each of the restore's first ``times`` edits of
    the index (any file but ``f.md``)."""
    from memory_api.store.history import restore

    edit = file_edit.edit_file
    left = [times]

    def changed_first(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name != "f.md" and left[0]:
            left[0] -= 1
            change()
        return edit(path, *args, **kwargs)

    monkeypatch.setattr(restore, "edit_file", changed_first)


async def _restore(client: Client, version: str) -> Any:
    url = f"{file_url('user', 'f.md')}/restore"
    return await client.post(url, json={"version": version})


async def test_v2_a_link_undone_at_the_edit_has_the_line_go_into_the_index_now_there(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MEMORY.md -> idx.md`` at the look; at the edit the agent puts the file back in the
    link's place: the line goes into ``MEMORY.md``, no ``idx.md`` is made at the old target."""
    write_topic(agent.user, "f.md")
    (agent.user / "idx.md").write_text(INDEX, encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.symlink_to("idx.md")
    version = await _deleted(client, agent)

    def undo_the_link() -> None:
        index.unlink()
        (agent.user / "idx.md").rename(index)

    _at_each_edit(monkeypatch, undo_the_link, times=1)
    restored = await ok_json(await _restore(client, version))

    assert restored["indexLinesAdded"] == [LINE]
    assert not index.is_symlink()
    assert LINE in index.read_text(encoding="utf-8")
    assert not (agent.user / "idx.md").exists()


async def test_a7_a_folder_on_a_linked_index_s_way_swapped_for_a_link_out_is_never_written(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``MEMORY.md -> sub/idx.md``; at the edit the agent renames ``sub`` and puts a link to a
    folder outside the memory root in its place: nothing is written outside the root, and the
    line is not said added (``MEMORY.md`` now leads out: the line to add by hand)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "idx.md").write_text("NOT MEMORY\n", encoding="utf-8")
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    version = await _deleted(client, agent)
    (agent.user / "sub").mkdir()
    index.rename(agent.user / "sub" / "idx.md")
    index.symlink_to("sub/idx.md")

    def swap_the_folder() -> None:
        (agent.user / "sub").rename(agent.user / "sub2")
        (agent.user / "sub").symlink_to(outside)

    _at_each_edit(monkeypatch, swap_the_folder, times=1)
    restored = await ok_json(await _restore(client, version))

    assert (outside / "idx.md").read_text(encoding="utf-8") == "NOT MEMORY\n"
    assert sorted(p.name for p in outside.iterdir()) == ["idx.md"]
    assert restored["indexLinesAdded"] == []
    assert restored["indexLinesNotAdded"] == [LINE]
    assert "outside the memory root" in restored["indexProblem"]


async def test_v2_an_index_linked_into_a_missing_folder_takes_no_line_and_says_so(
    client: Client, agent: AgentHome
) -> None:
    """``MEMORY.md -> gone/MEMORY.md``, no ``gone`` folder: the file is restored, and the
    answer says the index leads to nothing, with the line to add by hand (was a 503)."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    version = await _deleted(client, agent)
    index.unlink()
    index.symlink_to("gone/MEMORY.md")

    restored = await ok_json(await _restore(client, version))

    assert (agent.user / "f.md").exists()
    assert restored["indexLinesAdded"] == []
    assert restored["indexLinesNotAdded"] == [LINE]
    assert "gone/MEMORY.md, which is not there" in restored["indexProblem"]
    assert not (agent.user / "gone").exists()


async def test_v2_an_index_that_keeps_moving_is_looked_at_three_times_then_restore_again(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index file moved away and ``MEMORY.md`` linked to it anew at every edit (``mv``
    then ``ln -sf``): three looks, then 409 "restore again", the file restored."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    version = await _deleted(client, agent)
    moves = [0]

    def moved_and_linked_back() -> None:
        moves[0] += 1
        target = agent.user / f"INDEX-{moves[0]}.txt"
        index.resolve().rename(target)
        index.unlink(missing_ok=True)
        index.symlink_to(target.name)

    _at_each_edit(monkeypatch, moved_and_linked_back, times=10)
    problem = await expect_problem(await _restore(client, version), 409, "restore again")

    assert "kept changing" in problem["detail"]
    assert moves[0] == 3
    assert (agent.user / "f.md").exists()


async def test_v2_a_restore_answered_restore_again_is_recorded_and_the_next_one_adds_the_line(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the 409 "restore again" (the index kept moving), the file restored is in its
    history as a restore, and restoring again adds the line, as a version of its own (review
    rv-fix70d: it was left unrecorded, and the next restore answered no version)."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    version = await _deleted(client, agent)
    moves = [0]

    def moved_and_linked_back() -> None:
        moves[0] += 1
        target = agent.user / f"INDEX-{moves[0]}.txt"
        index.resolve().rename(target)
        index.unlink(missing_ok=True)
        index.symlink_to(target.name)

    _at_each_edit(monkeypatch, moved_and_linked_back, times=3)
    await expect_problem(await _restore(client, version), 409, "restore again")
    history = await ok_json(await client.get(f"{file_url('user', 'f.md')}/history"))
    again = await ok_json(await _restore(client, version))

    assert history["unrecorded"] is False
    assert history["versions"][0]["author"]["source"] == "restore"
    assert again["indexLinesAdded"] == [LINE]
    assert LINE in index.read_text(encoding="utf-8")
