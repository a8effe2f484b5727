"""Q-2b, S-1: a search over a scope whose folder's ``stat`` fails says so, never "no hit".

The search took a scope folder whose ``stat`` failed (an I/O error, a stale network mount) for
one that is gone: it dropped the scope's files from its index and answered ``total: 0`` with
nothing ``unreadable`` (``?scope=`` that scope), a calm "nothing found". Now, as for a folder
it may not list, every search names the scope and why none of its files was searched, and the
files are found again once the folder can be looked at.
"""

from __future__ import annotations

import errno
import os

import pytest

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic


async def test_q2b_a_scope_folder_whose_stat_fails_is_named_by_the_search_never_empty(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("app")
    write_topic(agent.root / key, "deploy.md")
    search = f"{memory_url()}/search"
    found = await ok_json(await client.get(search, params={"q": "body", "scope": key}))
    assert [hit["file"] for hit in found["hits"]] == ["deploy.md"]
    real_stat = os.stat

    def failing(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).endswith(f"{os.sep}{key}"):
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", failing)
    during = await ok_json(await client.get(search, params={"q": "body", "scope": key}))
    monkeypatch.setattr(os, "stat", real_stat)
    after = await ok_json(await client.get(search, params={"q": "body", "scope": key}))

    assert during["hits"] == []
    assert [(f["code"], f["file"], f["message"]) for f in during["unreadable"]] == [
        (
            "unreadable",
            f"{key}/",
            f"scope {key!r} cannot be listed: the service cannot read it (Input/output error): "
            "none of its files was searched",
        )
    ]
    assert [hit["file"] for hit in after["hits"]] == ["deploy.md"]
    assert after["unreadable"] == []
