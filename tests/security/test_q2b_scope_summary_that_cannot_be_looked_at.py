"""Q-2b: one scope's overview entry whose folder's ``stat`` fails is a 503 naming it, never 404.

``GET …/memory/scopes/{key}`` took every error of its ``stat`` for "no scope 'app-…'" (404):
with an I/O error on the folder the scope's files still listed and read, yet its entry said it
was not there. ``stat`` is made to fail with EIO for that folder only, as the other fault tests
inject the kernel's refusal at the one call that meets it.
"""

from __future__ import annotations

import errno
import os

import pytest
from memory_api.errors import READ_ACCESS_FIX

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, write_topic


async def test_q2b_a_scope_whose_folder_stat_fails_is_503_naming_it_never_no_scope(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("app")
    write_topic(agent.root / key, "a.md")
    real_stat = os.stat

    def failing(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).endswith(f"{os.sep}{key}"):
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", failing)

    await expect_problem(
        await client.get(f"{memory_url()}/scopes/{key}"),
        503,
        f"scope {key!r} cannot be looked at: the service cannot read it (Input/output error): "
        f"{READ_ACCESS_FIX}",
    )


async def test_q2b_a_scope_that_is_not_there_is_still_404(client: Client, agent: AgentHome) -> None:
    await expect_problem(
        await client.get(f"{memory_url()}/scopes/gone-0123abcd"), 404, "no scope 'gone-0123abcd'"
    )
