"""R-1, V-1: a history whose HEAD (or a file git opens by name) is a FIFO: the git routes refuse
it at once, naming it, and never hang.

git opens ``HEAD`` with a blocking ``open``: a FIFO there (a disk fault, a careless copy, a
prank) would hold ``git http-backend`` under the scope's lock until the sync timeout. The
service looks first; but a FIFO as ``HEAD`` was answered as "a folder but no git repository
(its HEAD is gone)", sending an operator to restore a HEAD that is there. Right: every git
route of the scope (a fetch's and a push's ref list, a fetch's pack) answers 503 at once with
``its HEAD is a FIFO, which git would wait on``, a machine's git says 503, and once the entry
is a file again the sync runs as before.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from aiohttp import ClientResponse
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE, GitMachine, laptop, scope_holds

__all__ = ["laptop"]  # the fixture, used by name

HANG_GUARD_S = 30
"""How long one request may take before the test calls it hung (each answers at once)."""


def _history(agent: AgentHome) -> Path:
    return layout.history_root(agent.data_dir, agent.id) / "user.git"


async def _requests(client: Client) -> list[ClientResponse]:
    """A fetch's ref list, a push's ref list and a fetch's pack request, each under the hang
    guard."""
    url = f"{memory_url()}/git/user.git"
    machine = {"X-Memory-Machine": MACHINE}
    return [
        await asyncio.wait_for(
            client.get(f"{url}/info/refs", params={"service": "git-upload-pack"}), HANG_GUARD_S
        ),
        await asyncio.wait_for(
            client.get(f"{url}/info/refs", params={"service": "git-receive-pack"}, headers=machine),
            HANG_GUARD_S,
        ),
        await asyncio.wait_for(
            client.post(
                f"{url}/git-upload-pack",
                data=b"0000",
                headers={"Content-Type": "application/x-git-upload-pack-request", **machine},
            ),
            HANG_GUARD_S,
        ),
    ]


@pytest.mark.parametrize("entry", ["HEAD", "packed-refs", "refs/heads/main", "config"])
async def test_r1_a_fifo_git_would_open_in_the_history_is_refused_by_name_at_once(
    client: Client, agent: AgentHome, laptop: GitMachine, entry: str
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    await laptop.fetch()
    fifo = _history(agent) / entry
    kept = fifo.read_bytes() if fifo.is_file() else None
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)

    for response in await _requests(client):
        await expect_problem(response, 503, f"its {entry} is a FIFO, which git would wait on")
    fetched = await asyncio.to_thread(laptop.run, "fetch", "-q", "origin", check=False)

    assert fetched.returncode != 0 and "503" in fetched.stderr
    assert "HEAD is gone" not in fetched.stderr
    fifo.unlink()
    if kept is not None:
        fifo.write_bytes(kept)
    (agent.user / "later.md").write_text("written on the service's machine\n", encoding="utf-8")
    await laptop.fetch()
    assert laptop.read("later.md") == "written on the service's machine\n"


async def test_r1_a_history_whose_head_is_a_folder_says_so_not_that_it_is_gone(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    await laptop.fetch()
    head = _history(agent) / "HEAD"
    head.unlink()
    head.mkdir()

    for response in await _requests(client):
        await expect_problem(response, 503, "no git repository (its HEAD is a folder, not a file)")


async def test_r1_a_history_whose_head_is_gone_still_says_it_is_gone(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n"})
    await laptop.fetch()
    (_history(agent) / "HEAD").unlink()

    for response in await _requests(client):
        await expect_problem(response, 503, "no git repository (its HEAD is gone)")
