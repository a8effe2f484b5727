"""Q-4, A-6: a delete cut short by a killed process is finished by the client's retry.

Replicas of one data dir may die mid-request (SIGKILL, a node lost). A delete prunes the index
lines first and removes the file second, so dying between the two leaves the file listed and
its lines gone; the retry, on any replica, removes the file and ends where one uninterrupted
delete would. (The other order would leave a dangling line that the retry's 404 never removes.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store import pruning as store_pruning
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic


class _Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs (not an Exception, so nothing catches it)."""


async def test_q4_a_delete_killed_halfway_is_finished_by_its_retry(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replica killed inside a delete (Q-4): the retry, on any replica, ends where one
    uninterrupted delete would — no dangling line that a 404 would leave for good."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("# Index\n- [F](f.md)\n- [G](g.md)\n", encoding="utf-8")
    prune = store_pruning.prune_index_file

    def prune_then_die(
        root: Path, scope: Path, file_name: str, *, shown: Path | None = None
    ) -> store_pruning.Pruned:
        prune(root, scope, file_name, shown=shown)
        raise _Killed

    monkeypatch.setattr(store_pruning, "prune_index_file", prune_then_die)
    with pytest.raises(_Killed):
        store_pruning.delete_topic(agent.root, agent.user, "f.md")
    monkeypatch.setattr(store_pruning, "prune_index_file", prune)
    assert (agent.user / "f.md").exists()  # still listed: the client's retry can finish it

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == []
    assert not (agent.user / "f.md").exists()
    assert index.read_text(encoding="utf-8") == "# Index\n- [G](g.md)\n"
