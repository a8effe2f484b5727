"""A-6: a delete the file system refuses at the file keeps the file's index line too.

A delete prunes the index lines first and removes the file second (Q-4). When the removal is
refused while the index could be pruned (an immutable or append-only file, ``chattr +i`` /
``+a``; a file of the agent's account in a sticky shared folder the service may write but not
unlink from), the delete answered 503 and left the file without its index line: never
injected again, though the client was told nothing was deleted. Now the pruned lines are put
back (an agent's line written meanwhile kept) and the answer says why the file stays.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, write_topic

INDEX = "# Index\n- [F](f.md) — the one to delete\n- [G](g.md) — stays\n"


def refuse_unlink(monkeypatch: pytest.MonkeyPatch, name: str, then: object = None) -> None:
    """Make the kernel refuse to unlink ``name`` (EPERM, as for an immutable file), after
    running ``then`` (an agent's write landing between the pruning and the removal)."""
    unlink = Path.unlink

    def refusing(self: Path, missing_ok: bool = False) -> None:
        if self.name == name:
            if callable(then):
                then()
            raise PermissionError(errno.EPERM, "Operation not permitted", str(self))
        unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refusing)


async def test_a_file_that_cannot_be_removed_keeps_its_index_line(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_topic(agent.user, "f.md")
    write_topic(agent.user, "g.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")
    refuse_unlink(monkeypatch, "f.md")

    problem = await expect_problem(
        await client.delete(file_url("user", "f.md")), 503, "'f.md' was not deleted"
    )

    assert "Operation not permitted" in problem["detail"]
    assert "index line" in problem["detail"]
    assert (agent.user / "f.md").exists()
    assert index.read_text(encoding="utf-8") == INDEX


async def test_an_agents_line_written_meanwhile_stays_beside_the_line_put_back(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(INDEX, encoding="utf-8")

    def agent_appends() -> None:
        with index.open("a", encoding="utf-8") as handle:
            handle.write("- [H](h.md) — written by the agent meanwhile\n")

    refuse_unlink(monkeypatch, "f.md", then=agent_appends)

    await expect_problem(await client.delete(file_url("user", "f.md")), 503, "was not deleted")

    assert index.read_text(encoding="utf-8") == (
        INDEX + "- [H](h.md) — written by the agent meanwhile\n"
    )
