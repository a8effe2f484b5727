"""R-1: a machine pushing a blob or a tree to its ref is answered as the push's own mistake,
never logged as the service's error (attack56: ``git push -f origin <blob>:refs/machines/<id>``
logged ``ERROR … git cat-file commit … failed … bad file`` with the history's path, a data dir
error for an operator to chase, once per such push)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.api.conftest import AgentHome, Client
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds, service_ref


@pytest.mark.parametrize("kind", ["blob", "tree"])
async def test_r1_a_push_naming_a_blob_or_a_tree_is_said_to_the_machine_not_logged_as_an_error(
    client: Client,
    agent: AgentHome,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Uv](uv.md) use uv\n", "uv.md": "use uv\n"})
    laptop = GitMachine(tmp_path / "laptop", git_url(client), MACHINE, "laptop")
    await laptop.fetch()
    before = service_ref(agent, "main")
    named = laptop.run("rev-parse", "HEAD:uv.md" if kind == "blob" else "HEAD^{tree}").stdout
    caplog.set_level(logging.WARNING)

    pushed = await asyncio.to_thread(
        laptop.run, "push", "-f", "origin", f"{named.strip()}:{laptop.ref}", check=False
    )

    assert f"remote: Merged: {laptop.ref} does not name a commit" in pushed.stderr
    assert [
        record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
    ] == []
    assert service_ref(agent, "main") == before
