"""R-1: a machine cannot delete its ref, and is told so (attack56).

``receive.denyDeletes`` holds only for ``refs/heads/*`` in git, so ``git push origin
:refs/machines/<id>`` was run by ``git receive-pack``: the service then put the ref back, but
answered git's ``ok``, so the machine printed ``[deleted]`` and exited 0, and the machines list
noted a push that sent nothing, the outcomes of the machine's last real push wiped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds, service_ref


async def _machine_note(client: Client, machine_id: str) -> dict[str, Any]:
    listed = await ok_json(await client.get(f"{memory_url()}/machines"))
    (scope,) = [item for item in listed["scopes"] if item["scope"] == "user"]
    (note,) = [item for item in scope["machines"] if item["id"] == machine_id]
    return dict(note)


async def test_r1_a_push_deleting_the_machines_ref_is_refused_and_nothing_is_noted(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    laptop = GitMachine(tmp_path / "laptop", git_url(client), MACHINE, "laptop")
    scope_holds(agent.user, {"MEMORY.md": "- [OK](OK.md) the service's\n", "OK.md": "service\n"})
    await laptop.fetch()
    laptop.write("ok.md", "laptop\n")
    await laptop.push()
    pushed_at = service_ref(agent, laptop.ref)
    noted = await _machine_note(client, MACHINE)
    assert noted["outcomes"], "the case twin's push has an outcome to keep"

    deleted = await asyncio.to_thread(laptop.run, "push", "origin", f":{laptop.ref}", check=False)

    assert deleted.returncode != 0, deleted.stderr
    assert f"! [remote rejected] {laptop.ref} (deletion prohibited" in deleted.stderr
    assert service_ref(agent, laptop.ref) == pushed_at
    assert await _machine_note(client, MACHINE) == noted
