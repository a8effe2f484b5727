"""Q-2b: an ``agent.json`` the service cannot use, and a memory root it cannot look at, are 503s
that name the file by its place in the data dir and say what an operator must do.

Before, a hand-broken ``agent.json`` answered "the stored settings of agent 'coder' are invalid:
JSON is malformed…" (no file, no fix), one that was a folder "… are not a regular file", and a
memory root whose ``lstat`` failed reached the catch-all "the data dir could not be used
(Permission denied) … the log names incident …" naming neither the folder nor which one to fix.
The ``detail`` never shows the host's path to the data dir (a client need not know it); the
log line names the full path.
"""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path

import pytest
from memory_api.errors import READ_ACCESS_FIX
from memory_api.store import agents, scopes
from memory_api.store.containment import read_regular
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, ok_json
from tests.security.test_hostile_filesystem import refuse
from tests.support.socket_file import bound_socket

CONFIG = "/api/projects/acme/agents/coder/config"
SHOWN = "agents/coder/agent.json in the data dir"


def _agent_file(agent: AgentHome) -> Path:
    return agent.data_dir / "agents" / "coder" / "agent.json"


async def _config_problem(client: Client, agent: AgentHome, part: str) -> str:
    body = await expect_problem(await client.get(CONFIG), 503, part)
    detail: str = body["detail"]
    assert SHOWN in detail
    assert os.fspath(agent.data_dir) not in detail  # no host path to a client
    return detail


async def test_q2b_an_unparsable_agent_json_names_its_place_and_the_fix(
    client: Client, agent: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    _agent_file(agent).write_text('{"project": "acme", "name": ', encoding="utf-8")

    with caplog.at_level(logging.WARNING, logger="memory_api.store.agents"):
        detail = await _config_problem(client, agent, "are invalid")

    assert detail.startswith(f"the stored settings of agent 'coder' ({SHOWN}) are invalid: ")
    assert detail.endswith(agents.INVALID_FIX)
    assert any(str(_agent_file(agent)) in record.getMessage() for record in caplog.records)


async def test_q2b_an_agent_json_of_the_wrong_types_names_the_field_its_place_and_the_fix(
    client: Client, agent: AgentHome
) -> None:
    path = _agent_file(agent)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["project"] = 5
    path.write_text(json.dumps(data), encoding="utf-8")

    detail = await _config_problem(client, agent, "Expected `str`, got `int` - at `$.project`")

    assert detail.endswith(agents.INVALID_FIX)


async def test_q2b_an_agent_json_the_service_may_not_read_names_its_place_and_the_fix(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse(monkeypatch, agents, "read_regular", f"{os.sep}coder{os.sep}agent.json")

    detail = await _config_problem(client, agent, "cannot be read (Permission denied)")

    assert detail.endswith(READ_ACCESS_FIX)


async def test_q2b_a_folder_in_place_of_agent_json_names_its_place_and_the_fix(
    client: Client, agent: AgentHome
) -> None:
    _agent_file(agent).unlink()
    _agent_file(agent).mkdir()

    detail = await _config_problem(client, agent, "are not a regular file")

    assert detail.endswith(agents.NOT_A_FILE_FIX)


async def test_q2b_a_memory_root_the_service_cannot_look_at_names_its_place_on_every_read(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lstat`` of ``…/agent_state/memory`` refused (EACCES, as a folder above without search
    permission refuses it): each read route answers the same 503 naming it, the agents list
    says its memories are not counted; never a 500, never "no memory"."""
    agent.user.mkdir(parents=True, exist_ok=True)
    refuse(monkeypatch, os, "lstat", f"{os.sep}agent_state{os.sep}memory")
    named = (
        "the memory root of agent 'coder' cannot be looked at: the service cannot look at "
        f"agents/coder/agent_state/{layout.memory_root_parts('coder')[-1]} in the data dir "
        "(Permission denied; it needs search access to agents/coder/agent_state)"
    )

    for url in (
        memory_url(),
        f"{memory_url()}/scopes/user/files",
        f"{memory_url()}/scopes/user/index",
        f"{memory_url()}/search?q=x",
    ):
        body = await expect_problem(await client.get(url), 503, named)
        assert os.fspath(agent.data_dir) not in body["detail"], url
    listing = await ok_json(await client.get("/api/projects/acme/agents"))
    assert listing["agents"][0]["unreadable"] == f"{named}: its memories are not counted"


@pytest.mark.parametrize(("kind", "what"), [("file", "no folder"), ("symlink", "a symlink")])
async def test_a7_a_memory_root_never_read_names_its_place_and_the_fix(
    client: Client, agent: AgentHome, kind: str, what: str
) -> None:
    """Still 404 on every route (A-7: never followed nor read), but no longer only "the memory
    root of agent 'coder' is not a plain directory": which entry, where, and what to do."""
    agent.user.rmdir()
    agent.root.rmdir()
    if kind == "file":
        agent.root.write_text("not a folder", encoding="utf-8")
    else:
        agent.root.symlink_to(agent.tmp, target_is_directory=True)

    body = await expect_problem(await client.get(memory_url()), 404, "memory root")

    assert body["detail"] == (
        "the memory root of agent 'coder' is not a plain directory: "
        f"agents/coder/agent_state/memory in the data dir is {what}, which the service never "
        "follows or reads (A-7): an operator must move it away and put a plain folder there "
        "(the agent's memory, from a backup), then try again"
    )
    assert body["type"] == "tag:agent-memory,2026:problem/outside-memory-root"  # no "no scope"
    assert os.fspath(agent.data_dir) not in body["detail"]


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        (
            "folder",
            "marker: .workspace is a folder, not a file; not read: move it away, and the next "
            "Session start in its Workspace writes the marker again (K-5)",
        ),
        (
            "socket",
            "marker: .workspace is a socket, not a regular file; not read: move it away, and the "
            "next Session start in its Workspace writes the marker again (K-5)",
        ),
        ("eio", f"marker: cannot be read (Input/output error): {READ_ACCESS_FIX}"),
    ],
)
async def test_k5_a_marker_the_service_cannot_read_is_named_with_the_fix(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, kind: str, problem: str
) -> None:
    """A ``.workspace`` marker that is a folder, a socket, or fails with EIO was reported as
    "marker: cannot be read ('.workspace' is not a regular file)", "… (No such device or
    address)" or "… (Input/output error)": nothing to act on."""
    _, key = agent.workspace("app")
    marker = agent.root / key / layout.MARKER_FILE
    if kind == "folder":
        marker.unlink()
        marker.mkdir()
    elif kind == "socket":
        marker.unlink()
        bound_socket(marker).close()
    else:

        def failing(path: Path, *args: object, **kwargs: object) -> tuple[bytes, os.stat_result]:
            if path.name == layout.MARKER_FILE:
                raise OSError(errno.EIO, "Input/output error", str(path))
            return read_regular(path, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(scopes, "read_regular", failing)

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["markerProblems"] == [problem]


async def test_q2b_an_agents_folder_the_service_cannot_list_names_it_and_the_fix(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing ``agents/`` refused (EACCES): the agents and projects lists answered the
    catch-all "the data dir could not be used (Permission denied) … the log names incident …";
    now a 503 naming the folder by its place in the data dir and what an operator must do."""
    refuse(monkeypatch, os, "scandir", f"{os.sep}data{os.sep}agents")
    named = (
        "the folder of every agent (agents/ in the data dir) cannot be listed: the service "
        f"cannot read it (Permission denied): {READ_ACCESS_FIX}"
    )

    for url in ("/api/projects", "/api/projects/acme/agents"):
        body = await expect_problem(await client.get(url), 503, named)
        assert os.fspath(agent.data_dir) not in body["detail"], url
