"""V-2, T-5b: the history of a file whose name another kind of entry now holds says so.

A topic file recorded, then replaced on disk by a FIFO, a folder, a socket or a symlink out of
the memory root: its history answered ``exists: false`` with no reason (the page's "deleted"),
while the listing names the entry (``refused-entry``) and a restore refuses it (409 "… is a
FIFO, not a regular file; nothing was written"). Now the history says it is there and why the
service never reads it, in the listing's words.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic
from tests.support.socket_file import bound_socket


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("fifo", "a FIFO (named pipe), not a regular file"),
        ("folder", "a folder, not a file"),
        ("socket", "a socket, not a regular file"),
        ("symlink", "a symlink to outside the memory root"),
    ],
)
async def test_v2_a_file_replaced_by_no_file_is_there_and_named_never_gone(
    client: Client, agent: AgentHome, tmp_path: Path, kind: str, why: str
) -> None:
    path = write_topic(agent.user, "a.md")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":
        bound_socket(path).close()
    else:
        outside = tmp_path / "outside.md"
        outside.write_text("not memory\n", encoding="utf-8")
        path.symlink_to(outside)

    history = await ok_json(await client.get(f"{memory_url()}/scopes/user/files/a.md/history"))

    assert (history["exists"], history["unrecorded"]) == (True, True)
    assert history["unrecordable"] == f"it is {why}, which the service never reads"
    assert [version["change"] for version in history["versions"]] == ["added"]


async def test_v2_a_file_deleted_is_still_gone_in_its_history(
    client: Client, agent: AgentHome
) -> None:
    path = write_topic(agent.user, "a.md")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    path.unlink()

    history = await ok_json(await client.get(f"{memory_url()}/scopes/user/files/a.md/history"))

    assert (history["exists"], history["unrecordable"]) == (False, None)
