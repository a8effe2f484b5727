"""R-1, A-7, Q-2b: git's smart HTTP says what is wrong with a memory root it cannot reach.

A memory root with a symlink in its place is never followed (404, A-7); one the service
cannot look at is a 503 (Q-2b). The memory routes say which and what an operator must do; a
machine's sync must hear the same words (its git shows only "not found" or "error: 503", and
the plugin asks the service for the ``detail``), never an answer that reads as "no agent" or
"no scope yet", nor the machines list's calm "no machine" while every scope is out of reach.
Each git endpoint (both ref advertisements, a fetch, a push) and the machines list answer
the status and ``detail`` the memory overview answers for that state.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from aiohttp import ClientResponse

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE, pkt
from tests.security.test_hostile_filesystem import refuse

ZERO = "0" * 40


def symlink_in_its_place(agent: AgentHome, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent's memory root moved away and a symlink to it put in its place."""
    kept = agent.tmp / "kept-memory"
    agent.root.rename(kept)
    agent.root.symlink_to(kept, target_is_directory=True)


def not_looked_at(agent: AgentHome, monkeypatch: pytest.MonkeyPatch) -> None:
    """``lstat`` of the memory root refused (EACCES), as a folder above it without search
    permission refuses it: injected at :func:`os.lstat`, since the tests run as root."""
    refuse(monkeypatch, os, "lstat", f"{os.sep}agent_state{os.sep}memory")


async def git_answers(client: Client, key: str) -> dict[str, ClientResponse]:
    """What each git endpoint of scope ``key`` answers a machine, by what it is asked."""
    git = f"{memory_url()}/git/{key}.git"
    machine = {"X-Memory-Machine": MACHINE}
    push = pkt(f"{ZERO} {'1' * 40} refs/machines/{MACHINE}\0report-status\n") + b"0000"
    fetch = pkt(f"want {'1' * 40}\n") + b"0000" + pkt("done\n")
    return {
        "fetch's refs": await client.get(
            f"{git}/info/refs", params={"service": "git-upload-pack"}, headers=machine
        ),
        "push's refs": await client.get(
            f"{git}/info/refs", params={"service": "git-receive-pack"}, headers=machine
        ),
        "fetch": await client.post(
            f"{git}/git-upload-pack",
            data=fetch,
            headers={"Content-Type": "application/x-git-upload-pack-request", **machine},
        ),
        "push": await client.post(
            f"{git}/git-receive-pack",
            data=push,
            headers={"Content-Type": "application/x-git-receive-pack-request", **machine},
        ),
        "machines list": await client.get(f"{memory_url()}/machines"),
    }


@pytest.mark.parametrize(
    ("make", "status", "words"),
    [
        (symlink_in_its_place, 404, "is a symlink, which the service never follows"),
        (not_looked_at, 503, "cannot be looked at"),
    ],
)
@pytest.mark.parametrize("key", ["user", "app-0123abcd"])
async def test_r1_every_git_endpoint_says_what_the_memory_routes_say_of_the_root(
    client: Client,
    agent: AgentHome,
    monkeypatch: pytest.MonkeyPatch,
    make: Any,
    status: int,
    words: str,
    key: str,
) -> None:
    make(agent, monkeypatch)
    overview = await expect_problem(await client.get(memory_url()), status, words)
    assert "the memory root of agent 'coder'" in overview["detail"]

    for asked, response in (await git_answers(client, key)).items():
        said = await expect_problem(response, status, words)
        assert said["detail"] == overview["detail"], asked
