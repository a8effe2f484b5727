"""A-6: a delete never leaves a topic file deleted while an index it read still lists it.

The delete looks at the scope's ``MEMORY.md`` (what it is, which file its edit goes to), then
edits that file. An agent may move the index away between the two (``mv MEMORY.md INDEX.txt``)
and put a symlink to it back (``ln -s INDEX.txt MEMORY.md``). The edit found no file at the
name it was told, took that for "no index, nothing to prune", and the delete removed the file
with 200 while the moved index still listed it: a dangling line no retry removes (the retry
answers 404). An index swapped for a symlink at the edit was refused as an operating system
error (503, "symlink loop"), and the undo of a refused removal answered "its index line was put
back" over an index moved meanwhile, the line gone. Now each of these is the index changed
meanwhile: 409, nothing deleted, the line kept, "try again", and a retry prunes the index where
it now is; a line that could not be put back is said so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_core import file_edit, layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, ok_json, write_topic
from tests.api.test_a6_delete_refused_by_the_file_keeps_its_line import refuse_unlink

LINE = "- [F](f.md) — the file deleted"
OTHER = "- [G](g.md) — a file kept"
INDEX = f"{LINE}\n{OTHER}\n"
CHANGED = "'f.md' was not deleted"


def _move_away(agent: AgentHome, *, link: bool) -> Callable[[], None]:
    """The agent's ``mv MEMORY.md INDEX.txt`` (and ``ln -s INDEX.txt MEMORY.md`` with ``link``)."""

    def move() -> None:
        index = agent.user / layout.INDEX_FILE
        index.rename(agent.user / "INDEX.txt")
        if link:
            index.symlink_to("INDEX.txt")

    return move


def _after_the_look(monkeypatch: pytest.MonkeyPatch, then: Callable[[], None]) -> None:
    """Run ``then`` once, when the delete has looked at the index (its last step,
    ``index_refusal``), before its edit."""
    from memory_api.store import pruning, scopes

    looked = scopes.index_refusal
    pending = [then]

    def look_then(root: Path, scope: Path) -> str | None:
        answer = looked(root, scope)
        if pending:
            pending.pop()()
        return answer

    monkeypatch.setattr(pruning, "index_refusal", look_then)


def _around_the_edit(monkeypatch: pytest.MonkeyPatch, then: Callable[[], None]) -> None:
    """Run ``then`` once the delete's edit of the index is over, whatever it did."""
    from memory_api.store import pruning

    edit = file_edit.edit_file

    def edit_then(*args: Any, **kwargs: Any) -> Any:
        try:
            return edit(*args, **kwargs)
        finally:
            then()

    monkeypatch.setattr(pruning, "edit_file", edit_then)


async def _refused_then_retried(client: Client, agent: AgentHome) -> None:
    """The delete was refused as changed meanwhile, every line kept; its retry prunes the index
    through the link now standing at ``MEMORY.md``."""
    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)
    assert "try again" in problem["detail"]
    assert (agent.user / "f.md").exists()
    moved = agent.user / "INDEX.txt"
    assert moved.read_text(encoding="utf-8") == INDEX

    retried = await ok_json(await client.delete(file_url("user", "f.md")))
    assert retried["removedIndexLines"] == [LINE]
    assert not (agent.user / "f.md").exists()
    assert moved.read_text(encoding="utf-8") == f"{OTHER}\n"


async def test_a6_an_index_gone_at_the_edit_and_linked_back_after_it_refuses_the_delete(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moved away after the look, so gone when the edit reads it; the link put back after."""
    topic = write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    _after_the_look(monkeypatch, _move_away(agent, link=False))
    _around_the_edit(monkeypatch, lambda: (agent.user / layout.INDEX_FILE).symlink_to("INDEX.txt"))

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "moved or removed while the delete pruned it" in problem["detail"]
    assert "try again" in problem["detail"]
    assert topic.exists()
    assert (agent.user / "INDEX.txt").read_text(encoding="utf-8") == INDEX
    monkeypatch.undo()
    retried = await ok_json(await client.delete(file_url("user", "f.md")))
    assert retried["removedIndexLines"] == [LINE]
    assert (agent.user / "INDEX.txt").read_text(encoding="utf-8") == f"{OTHER}\n"


async def test_a6_an_index_swapped_for_a_link_to_it_before_the_edit_refuses_the_delete(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moved away and a link put back, both after the look: the edit, told a regular file,
    meets a symlink (which it never follows): changed meanwhile (409), not a 503."""
    write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    _after_the_look(monkeypatch, _move_away(agent, link=True))

    await _refused_then_retried(client, agent)


@pytest.mark.parametrize("checked_first", [False, True], ids=["before-its-check", "after-it"])
async def test_a6_an_index_gone_between_the_edit_s_read_and_its_replacement_refuses_the_delete(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, checked_first: bool
) -> None:
    """Read and pruned, then moved away before the pruned copy replaced it: before the edit's
    check that it may write the file (which took the file gone for one it may not write: 503,
    "its mode does not let the service's account write it"), or after it (the swap found no
    file, the edit read again, found none and took it for no index: 200, the file deleted)."""
    topic = write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    moves = [_move_away(agent, link=False)]
    check = file_edit._check_writable

    def moved_before_the_swap(path: Path) -> None:
        if checked_first:
            check(path)
        if moves:
            moves.pop()()
        if not checked_first:
            check(path)

    monkeypatch.setattr(file_edit, "_check_writable", moved_before_the_swap)
    _around_the_edit(monkeypatch, lambda: (agent.user / layout.INDEX_FILE).symlink_to("INDEX.txt"))

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "try again" in problem["detail"]
    assert topic.exists()
    assert (agent.user / "INDEX.txt").read_text(encoding="utf-8") == INDEX


async def test_a6_the_file_a_linked_index_names_gone_at_the_edit_refuses_the_delete(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MEMORY.md`` links ``INDEX.txt``; after the look the agent renames ``INDEX.txt`` to
    ``notes.txt`` and points the link there: the file the edit was told is gone."""
    topic = write_topic(agent.user, "f.md")
    (agent.user / "INDEX.txt").write_text(INDEX, encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.symlink_to("INDEX.txt")

    def repointed() -> None:
        (agent.user / "INDEX.txt").rename(agent.user / "notes.txt")
        index.unlink()
        index.symlink_to("notes.txt")

    _after_the_look(monkeypatch, repointed)

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "try again" in problem["detail"]
    assert topic.exists()
    assert (agent.user / "notes.txt").read_text(encoding="utf-8") == INDEX
    retried = await ok_json(await client.delete(file_url("user", "f.md")))
    assert retried["removedIndexLines"] == [LINE]
    assert (agent.user / "notes.txt").read_text(encoding="utf-8") == f"{OTHER}\n"


async def test_a6_an_index_moved_before_its_lines_are_put_back_is_never_said_put_back(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's removal refused (EPERM) after the pruning, the index moved away meanwhile:
    the lines could not be put back where they were pruned, and the answer says so (the
    index to fix by hand), never "its index line was put back"."""
    write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    refuse_unlink(monkeypatch, "f.md", then=_move_away(agent, link=False))

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 503, CHANGED)

    assert "was put back" not in problem["detail"]
    assert "could not be put back" in problem["detail"]
    assert (agent.user / "f.md").exists()


@pytest.mark.parametrize("linked_first", [False, True], ids=["gone-at-it", "a-link-at-it"])
async def test_v2_an_undo_whose_index_moved_at_its_edit_puts_the_line_back_through_the_link(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, linked_first: bool
) -> None:
    """The restore of the deleted file merges its line back into the index; moved away when
    the merge's edit reads it and linked back after, the edit found no file, then a file there
    (the link), and answered ``indexLinesAdded: []`` with the line nowhere; linked back before
    the edit read it, the edit (told a regular file) met the link and the answer said the
    index "cannot be rewritten: Too many levels of symbolic links". It looks again: the line
    goes back into the index through the link."""
    from memory_api.store.history import restore

    write_topic(agent.user, "f.md")
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    deleted = await ok_json(await client.delete(file_url("user", "f.md")))
    moves = [_move_away(agent, link=linked_first)]
    edit = file_edit.edit_file

    def moved_at_the_edit(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name != layout.INDEX_FILE or not moves:
            return edit(path, *args, **kwargs)
        moves.pop()()
        try:
            return edit(path, *args, **kwargs)
        finally:
            if not linked_first:
                (agent.user / layout.INDEX_FILE).symlink_to("INDEX.txt")

    monkeypatch.setattr(restore, "edit_file", moved_at_the_edit)

    url = f"{file_url('user', 'f.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))

    assert restored["indexLinesAdded"] == [LINE]
    assert (agent.user / "INDEX.txt").read_text(encoding="utf-8") == INDEX


async def test_a6_an_index_linked_at_the_edit_and_moved_back_before_the_second_look_refuses(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look saw a regular ``MEMORY.md``; the edit met a symlink (moved away, a link put
    back); the agent moved it back (``mv INDEX.txt MEMORY.md``) before the delete looked
    again: still changed meanwhile (409, try again), never an operating system error (503)."""
    from memory_api.store import pruning

    topic = write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    _after_the_look(monkeypatch, _move_away(agent, link=True))
    looked = pruning._index_to_prune
    looks = [0]

    def moved_back_before_the_second(root: Path, scope: Path) -> Any:
        looks[0] += 1
        if looks[0] == 2:
            (agent.user / "INDEX.txt").rename(index)
        return looked(root, scope)

    monkeypatch.setattr(pruning, "_index_to_prune", moved_back_before_the_second)

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "try again" in problem["detail"]
    assert topic.exists()
    assert index.read_text(encoding="utf-8") == INDEX


async def test_a6_an_index_swapped_for_a_dangling_link_before_the_write_refuses_the_delete(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read and pruned, then before the edit's write the agent moves ``MEMORY.md`` away and
    puts a link to nothing yet in its place: changed meanwhile (409), never "Permission
    denied: its mode…" (503) judged on the link's missing target."""
    topic = write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    check = file_edit._check_writable
    moves = [1]

    def swapped(path: Path) -> None:
        if moves:
            moves.pop()
            index.rename(agent.user / "INDEX.txt")
            index.symlink_to("nowhere.md")
        check(path)

    monkeypatch.setattr(file_edit, "_check_writable", swapped)

    problem = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "its mode" not in problem["detail"]
    assert "try again" in problem["detail"]
    assert topic.exists()
    assert (agent.user / "INDEX.txt").read_text(encoding="utf-8") == INDEX


async def test_a6_refusals_say_plain_sentences_never_a_raw_error_or_a_held_folder_path(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index a link names gone at the edit: "INDEX.txt, the file the scope's MEMORY.md
    links, was moved…"; the lines that could not be put back after a refused removal: why, in
    words, never ``[Errno 2] …: '/proc/self/fd/…'``."""
    write_topic(agent.user, "f.md")
    (agent.user / "INDEX.txt").write_text(INDEX, encoding="utf-8")
    (agent.user / layout.INDEX_FILE).symlink_to("INDEX.txt")
    _after_the_look(monkeypatch, lambda: (agent.user / "INDEX.txt").unlink())

    gone = await expect_problem(await client.delete(file_url("user", "f.md")), 409, CHANGED)

    assert "INDEX.txt, the file the scope's MEMORY.md links, was moved" in gone["detail"]
    monkeypatch.undo()
    (agent.user / layout.INDEX_FILE).unlink()
    (agent.user / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    refuse_unlink(monkeypatch, "f.md", then=_move_away(agent, link=False))

    refused = await expect_problem(await client.delete(file_url("user", "f.md")), 503, CHANGED)

    assert "[Errno" not in refused["detail"]
    assert "/proc/" not in refused["detail"]
    assert "moved or removed since the pruning" in refused["detail"]


@pytest.mark.parametrize("below", ["MEMORY.md", "notes/idx.md"])
async def test_a6_lines_not_put_back_say_why_in_the_edit_s_own_words(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, below: str
) -> None:
    """The file's removal refused after the pruning, and the index held open for writing by
    another program while its lines are put back: the detail says that, naming the index file
    by its name (never the held folder's ``/proc/self/fd`` path), and what to do."""
    monkeypatch.setattr(file_edit, "IDLE_TIMEOUT", 0.05)  # the wait for the writer, shortened
    write_topic(agent.user, "f.md")
    index = agent.user / below
    index.parent.mkdir(exist_ok=True)
    index.write_text(INDEX, encoding="utf-8")
    if below != layout.INDEX_FILE:
        (agent.user / layout.INDEX_FILE).symlink_to(below)
    writers: list[int] = []
    refuse_unlink(
        monkeypatch, "f.md", then=lambda: writers.append(os.open(index, os.O_WRONLY | os.O_APPEND))
    )
    try:
        problem = await expect_problem(await client.delete(file_url("user", "f.md")), 503, CHANGED)
    finally:
        for fd in writers:
            os.close(fd)

    detail = problem["detail"]
    assert f"could not be put back ({index.name} is held open for writing by another" in detail
    assert "add it to MEMORY.md again" in detail
    assert "/proc" not in detail
    assert (agent.user / "f.md").exists()
