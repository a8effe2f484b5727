"""A-6, R-1, R-2: a push that deletes a file beside an index the service cannot rewrite is
refused whole, and nothing of it is taken.

A delete is all or nothing: the file goes with its index lines, or neither goes. The API delete
refuses (409) where the scope's ``MEMORY.md`` on the service is no index it may rewrite (a
symlink out of the memory root or to another scope's file, a folder, a FIFO, a file hard-linked
outside its folder). A machine's push deleting a file there still deleted it and kept its line
in the index nobody can prune: a half delete. The push writer's own rule decides it now (it
writes no index through any symlink, nor a folder, a FIFO, a file hard-linked elsewhere, one
over 16 MiB): the push is answered
409 with a problem saying what to do, which file and why, nothing of it is written (the file,
the index and the machine's ref on the service stay as they were), the machine keeps its change,
and once the index is a regular file again the same push goes through.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_core import layout
from memory_core.hard_links import HARD_LINKED

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds, service_ref

LINE = "- [F](f.md) — the file deleted\n"
OTHER = "- [G](g.md) — a file kept\n"
F_TEXT = "---\ndescription: f\n---\nbody of f\n"
_LINK = "it is a symlink there, which is never written through"


def _link_out(agent: AgentHome, index: Path) -> tuple[str, Path]:
    outside = agent.tmp / "dotfiles" / layout.INDEX_FILE
    outside.parent.mkdir()
    outside.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(outside)
    return _LINK, outside


def _folder(agent: AgentHome, index: Path) -> tuple[str, Path]:
    text = index.read_bytes()
    index.unlink()
    index.mkdir()
    (index / "notes.md").write_bytes(text)
    return "it is a folder there", index / "notes.md"


def _fifo(agent: AgentHome, index: Path) -> tuple[str, Path]:
    index.unlink()
    os.mkfifo(index)
    return "it is a FIFO there", index


def _hard_linked_outside(agent: AgentHome, index: Path) -> tuple[str, Path]:
    outside = agent.tmp / "second-name.md"
    os.link(index, outside)
    return f"it is {HARD_LINKED} there, so it is never read (A-7)", outside


def _link_to_another_scope(agent: AgentHome, index: Path) -> tuple[str, Path]:
    _, key = agent.workspace("project")
    other = agent.root / key / layout.INDEX_FILE
    other.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(Path("..") / key / layout.INDEX_FILE)
    return _LINK, other


@pytest.fixture
def laptop(client: Client, tmp_path: Path, agent: AgentHome) -> GitMachine:
    return GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")


SHAPES = [_link_out, _folder, _fifo, _hard_linked_outside, _link_to_another_scope]


def _unchanged(path: Path) -> bytes | None:
    """What is at ``path`` (None: a FIFO, never opened)."""
    return None if path.is_fifo() else path.read_bytes()


@pytest.mark.parametrize("spoil", SHAPES, ids=lambda f: f.__name__[1:])
async def test_a6_r1_a_push_deleting_beside_an_index_it_cannot_rewrite_takes_nothing(
    client: Client,
    agent: AgentHome,
    laptop: GitMachine,
    spoil: Callable[[AgentHome, Path], tuple[str, Path]],
) -> None:
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    what, kept = spoil(agent, agent.user / layout.INDEX_FILE)
    kept_before = _unchanged(kept)
    ref_before = service_ref(agent, laptop.ref)
    (laptop.folder / "f.md").unlink()
    laptop.write("MEMORY.md", OTHER)
    laptop.write("g.md", "g, edited on the laptop in the same push\n")

    await _commit(laptop)
    pushed = await _push(laptop)

    assert pushed.returncode != 0 and "409" in pushed.stderr, pushed.stderr
    said = await client.get(
        f"{memory_url()}/git/user.git/git-receive-pack", headers={"X-Memory-Machine": MACHINE}
    )
    problem = await expect_problem(said, 409, "the push was not taken")
    assert problem["detail"] == (
        "the push was not taken, and the machine keeps its change: make MEMORY.md on the "
        "service's machine a regular file of the scope's folder, no symlink, at most 16777216 "
        "bytes (or remove it), then sync again. The push deletes 'f.md', but scope user's "
        f"MEMORY.md on the service could not be written ({what}), so its index lines could not "
        "be removed, and a delete is all or nothing"
    )
    assert (agent.user / "f.md").read_text(encoding="utf-8") == F_TEXT  # the file stays
    assert (agent.user / "g.md").read_text(encoding="utf-8") == "g\n"  # nothing else taken
    assert _unchanged(kept) == kept_before  # the index nobody could prune: every byte
    assert service_ref(agent, laptop.ref) == ref_before  # the machine sends it again


async def test_a6_r1_the_refused_push_goes_through_once_the_index_is_a_regular_file(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT, "g.md": "g\n"})
    await laptop.fetch()
    _link_out(agent, agent.user / layout.INDEX_FILE)
    (laptop.folder / "f.md").unlink()
    laptop.write("MEMORY.md", OTHER)
    await _commit(laptop)
    refused = await _push(laptop)
    assert refused.returncode != 0
    (agent.user / layout.INDEX_FILE).unlink()
    (agent.user / layout.INDEX_FILE).write_text(LINE + OTHER, encoding="utf-8")

    assert (await _push(laptop)).returncode == 0

    assert not (agent.user / "f.md").exists()
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == OTHER


async def test_a6_r1_a_push_deleting_nothing_beside_such_an_index_is_taken(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """Only a delete needs the index rewritten: an edit is taken beside any index."""
    scope_holds(agent.user, {"MEMORY.md": LINE + OTHER, "f.md": F_TEXT})
    await laptop.fetch()
    _link_out(agent, agent.user / layout.INDEX_FILE)
    laptop.write("f.md", F_TEXT + "edited\n")

    await laptop.push()

    assert (agent.user / "f.md").read_text(encoding="utf-8") == F_TEXT + "edited\n"


async def _commit(machine: GitMachine) -> None:
    await asyncio.to_thread(machine.run, "add", "-A")
    await asyncio.to_thread(machine.run, "commit", "-q", "-m", "f.md deleted on the laptop")


async def _push(machine: GitMachine) -> subprocess.CompletedProcess[str]:
    """The machine's commit pushed to its ref, as git answered (failed or not)."""
    return await asyncio.to_thread(
        machine.run, "push", "-q", "origin", f"+HEAD:{machine.ref}", check=False
    )
