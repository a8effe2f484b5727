"""A-6, R-1, R-2: a push deletes nothing beside an index the push writer never rewrites.

A delete is all or nothing. The API delete prunes an index that is a symlink to a file of the
scope's own folder through the link, but a machine's push never writes ``MEMORY.md`` through
any symlink, nor one over 16 MiB: judged by the API delete's rule, such a push deleted the
file and kept its line, and so did one whose index became a symlink between the look and the
write. The push writer now writes the index first and decides by its own rule: where the index
cannot be written (as it is, or as it turned while it was written) and the push deletes a file,
nothing is written, the push is answered 409 saying what to do first, nothing is recorded, and
the machine's ref goes back so it sends the change again at its next sync.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.sync import push
from memory_core import file_edit, layout, scope_write
from memory_core.scope_files import INDEX_CAP

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import (
    MACHINE,
    GitMachine,
    git_url,
    scope_holds,
    service_ref,
    versions,
)

LINE = "- [F](f.md) — the file deleted\n"
OTHER = "- [G](g.md) — a file kept\n"
F_TEXT = "---\ndescription: f\n---\nbody of f\n"
FIX_FIRST = (
    "the push was not taken, and the machine keeps its change: make MEMORY.md on the "
    "service's machine a regular file of the scope's folder, no symlink, at most "
    f"{INDEX_CAP} bytes (or remove it), then sync again. The push deletes 'f.md', but scope "
    "user's MEMORY.md on the service could not be written ("
)
LINK = "it is a symlink there, which is never written through"
NOT_REGULAR = "it is no regular file there (a symlink, a folder or a FIFO)"


@pytest.fixture
def laptop(client: Client, tmp_path: Path, agent: AgentHome) -> GitMachine:
    return GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")


def _linked_to(scope: Path, name: str) -> Path:
    """``scope``'s ``MEMORY.md`` moved to ``name`` (a path in the scope's own folder), and a
    relative symlink left in its place; the file it now names."""
    index = scope / layout.INDEX_FILE
    moved = scope / name
    moved.parent.mkdir(parents=True, exist_ok=True)
    moved.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(Path(name))
    return moved


async def _refused_whole(
    client: Client, agent: AgentHome, laptop: GitMachine, why: str, index: Path
) -> None:
    """The laptop, having fetched ``f.md`` and ``g.md``, deletes ``f.md`` and its line and
    edits ``g.md`` in one push: answered 409 with ``why`` the index (the file ``index``)
    could not be written, and nothing of it taken."""
    index_before = _bytes_of(index)
    ref_before = service_ref(agent, laptop.ref)
    versions_before = await versions(client)
    (laptop.folder / "f.md").unlink()
    laptop.write("MEMORY.md", OTHER)
    laptop.write("g.md", "g, edited on the laptop in the same push\n")
    await _commit(laptop)

    pushed = await _push(laptop)

    assert pushed.returncode != 0 and "409" in pushed.stderr, pushed.stderr
    said = await client.get(
        f"{memory_url()}/git/user.git/git-receive-pack", headers={"X-Memory-Machine": MACHINE}
    )
    problem = await expect_problem(said, 409, FIX_FIRST)
    assert problem["detail"] == (
        f"{FIX_FIRST}{why}), so its index lines could not be removed, and a delete is all or "
        "nothing"
    )
    assert (agent.user / "f.md").read_text(encoding="utf-8") == F_TEXT  # the file stays
    assert (agent.user / "g.md").read_text(encoding="utf-8") == "g\n"  # nothing else taken
    assert _bytes_of(index) == index_before  # and its line with it
    assert not [name for name in _names(agent.user) if name.startswith("MEMORY-")]
    assert service_ref(agent, laptop.ref) == ref_before  # the machine sends it again
    assert await versions(client) == versions_before  # nothing recorded


@pytest.mark.parametrize("name", ["INDEX.txt", "sub/MEMORY.md"])
async def test_a6_r1_a_push_deleting_beside_an_index_linked_in_its_own_folder_takes_nothing(
    client: Client, agent: AgentHome, laptop: GitMachine, name: str
) -> None:
    """The API delete prunes through such a link; the push writer writes through none."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    linked = _linked_to(agent.user, name)

    await _refused_whole(client, agent, laptop, LINK, linked)


async def test_a6_r1_a_push_deleting_beside_an_index_over_its_cap_takes_nothing(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    index = agent.user / layout.INDEX_FILE
    with index.open("ab") as grown:
        grown.write(b"- a line of its own\n" * (INDEX_CAP // 20 + 1))

    await _refused_whole(client, agent, laptop, f"it is larger than {INDEX_CAP} bytes there", index)


async def test_a6_r1_an_index_made_a_link_just_before_the_push_writes_keeps_every_file(
    client: Client, agent: AgentHome, laptop: GitMachine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent on the service's machine makes ``MEMORY.md`` a symlink to another scope's
    index after the push was merged, just before it is written: the writer finds the link,
    and no file is deleted."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    other = _other_scope_index(agent)
    apply_scope = scope_write.apply_scope

    def swapped_first(*args: Any, **kwargs: Any) -> Any:
        _swap_for_a_link(agent, other)
        return apply_scope(*args, **kwargs)

    monkeypatch.setattr(push, "apply_scope", swapped_first)

    await _refused_whole(client, agent, laptop, LINK, other)


async def test_a6_r1_an_index_made_a_link_while_the_push_writes_it_keeps_every_file(
    client: Client, agent: AgentHome, laptop: GitMachine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same swap between the writer's look at ``MEMORY.md`` (a regular file of its own)
    and its write: the write refuses the link (``O_NOFOLLOW``), and no file is deleted."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    other = _other_scope_index(agent)
    edit_file = file_edit.edit_file

    def swapped_first(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == layout.INDEX_FILE:
            _swap_for_a_link(agent, other)
        return edit_file(path, *args, **kwargs)

    monkeypatch.setattr(scope_write, "edit_file", swapped_first)

    await _refused_whole(client, agent, laptop, NOT_REGULAR, other)


def _other_scope_index(agent: AgentHome) -> Path:
    """The ``MEMORY.md`` of another scope of the agent, holding the user scope's lines."""
    _, key = agent.workspace("project")
    other = agent.root / key / layout.INDEX_FILE
    other.write_text(LINE + OTHER, encoding="utf-8")
    return other


def _swap_for_a_link(agent: AgentHome, other: Path) -> None:
    """The user scope's ``MEMORY.md`` made a relative symlink to ``other`` (once)."""
    index = agent.user / layout.INDEX_FILE
    if not index.is_symlink():
        index.unlink()
        index.symlink_to(Path("..") / other.parent.name / layout.INDEX_FILE)


async def test_a6_r1_a_push_deleting_beside_an_index_the_history_never_held_takes_nothing(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """``MEMORY.md`` a link from the first: no version holds it, the laptop never had it, so
    the push leaves it as it was, and a line of it may still link the file deleted."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    linked = _linked_to(agent.user, "INDEX.txt")
    await laptop.fetch()
    assert not (laptop.folder / layout.INDEX_FILE).exists()
    ref_before = service_ref(agent, laptop.ref)
    (laptop.folder / "f.md").unlink()
    await _commit(laptop)

    pushed = await _push(laptop)

    assert pushed.returncode != 0 and "409" in pushed.stderr, pushed.stderr
    said = await client.get(
        f"{memory_url()}/git/user.git/git-receive-pack", headers={"X-Memory-Machine": MACHINE}
    )
    await expect_problem(said, 409, f"{FIX_FIRST}{LINK})")
    assert (agent.user / "f.md").read_text(encoding="utf-8") == F_TEXT
    assert linked.read_text(encoding="utf-8") == LINE + OTHER
    assert service_ref(agent, laptop.ref) == ref_before


async def test_a6_r1_a_push_deleting_nothing_beside_an_index_linked_in_its_folder_is_taken(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """An edit and a new line: taken, the line kept in ``MEMORY-laptop.md`` (as before)."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT})
    await laptop.fetch()
    linked = _linked_to(agent.user, "INDEX.txt")
    laptop.write("f.md", F_TEXT + "edited\n")
    laptop.write("MEMORY.md", LINE + OTHER + "- [H](h.md) new\n")
    laptop.write("h.md", "h\n")

    await laptop.push()

    assert (agent.user / "f.md").read_text(encoding="utf-8") == F_TEXT + "edited\n"
    assert (agent.user / "h.md").read_text(encoding="utf-8") == "h\n"
    assert linked.read_text(encoding="utf-8") == LINE + OTHER
    assert (agent.user / "MEMORY-laptop.md").read_text(encoding="utf-8") == "- [H](h.md) new\n"


async def test_a6_r2_twins_beside_an_index_linked_in_its_own_folder_are_left_as_they_are(
    agent: AgentHome, laptop: GitMachine, caplog: pytest.LogCaptureFixture
) -> None:
    """Keeping twins apart renames one away, its index lines following it: beside an index the
    writer cannot rewrite the rename would leave them linking a name that is gone, so neither
    is made (logged) and the fetch goes on."""
    index = "- [OK](OK.md) upper\n- [ok](ok.md) lower\n"
    scope_holds(agent.user, {"MEMORY.md": index, "OK.md": "upper\n", "ok.md": "lower\n"})
    linked = _linked_to(agent.user, "INDEX.txt")

    await laptop.fetch()

    assert _names(agent.user) == ["INDEX.txt", "MEMORY.md", "OK.md", "ok.md"]
    assert linked.read_text(encoding="utf-8") == index
    assert laptop.read("OK.md") == "upper\n" and laptop.read("ok.md") == "lower\n"
    assert "could not be kept apart: MEMORY.md could not be written (" + LINK in caplog.text


def _bytes_of(path: Path) -> bytes:
    return path.read_bytes()


def _names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


async def _commit(machine: GitMachine) -> None:
    await asyncio.to_thread(machine.run, "add", "-A")
    await asyncio.to_thread(machine.run, "commit", "-q", "-m", "f.md deleted on the laptop")


async def _push(machine: GitMachine) -> subprocess.CompletedProcess[str]:
    """The machine's commit pushed to its ref, as git answered (failed or not)."""
    return await asyncio.to_thread(
        machine.run, "push", "-q", "origin", f"+HEAD:{machine.ref}", check=False
    )
