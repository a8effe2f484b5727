"""H-7, A-10: ``install`` says why the service knows no such agent, and never more than the
token may see.

The service answers 404 both for an agent that is not in the project given and for a project
outside a token's reach (A-10 words it like a missing one). Telling the user to create the
agent is wrong in both cases: ``agent create`` then fails, the id being taken (ids are unique
across projects), or makes a second agent. So the install says, in this order: the agent is
in another project (one the token reaches, or the one its ``agent.json`` beside the memory root
names), the token does not reach the project, and only else that the agent is to be created.
A project the token cannot reach is never named from the service's answers.
"""

from __future__ import annotations

import asyncio
import functools
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.as_typed import as_typed
from harness_memory.cli import main
from harness_memory.client import MemoryClient
from harness_memory.errors import ServiceRejectedError
from harness_memory.installers.checks import check_service, explain_missing_agent

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import TOKEN, RealService
from tests.plugin.scripted_service import ScriptedService
from tests.support.serve import serve

ACME_ONLY = "alice-acme-only-token-0123456789"
"""A token that reaches project ``acme`` alone."""
NOWHERE = "bob-reaches-acm-only-token-01234"
"""A token that reaches only project ``acm``, which holds no agent."""


@pytest.fixture(scope="module")
def limited_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealService]:
    """The real service with three tokens: every project (``TOKEN``), ``acme`` only, ``acm``
    only; agent ``coder`` in project ``acme``, agent ``reviewer`` in project ``beta``. One for
    the module: its tests only ask it (each install is refused before it writes anything)."""
    tmp_path = tmp_path_factory.mktemp("limited-service")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "service-home"),
        "MEMORY_API_TOKENS": f"admin={TOKEN},alice:acme={ACME_ONLY},bob:acm={NOWHERE}",
    }
    running = RealService(serve(tmp_path / "data", env, log_path=tmp_path / "api.log"), TOKEN)
    try:
        running.create_agent("coder", "acme")
        running.create_agent("reviewer", "beta")
        yield running
    finally:
        running.stop()


def install(
    service: RealService, home: Path, project: str, agent: str, token: str
) -> tuple[int, str]:
    root = service.data_dir / "agents" / agent / "agent_state" / "memory"
    flags = ["--home", str(home), "--memory-root", str(root), "--url", service.url]
    flags += ["--project", project, "--agent", agent, "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    status = main(
        ["install", "claude-code", *flags, "--token", token],
        environ={"HOME": str(home)},
        stdout=out,
    )
    return status, out.getvalue()


def test_h7_a_typo_in_the_project_names_the_project_the_agent_is_in(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    status, _ = install(limited_service, tmp_path / "home", "acm", "coder", TOKEN)
    assert status == 1
    assert "agent 'coder' is in project 'acme', not 'acm': give --project acme" in caplog.text
    assert "memory-api agent create" not in caplog.text
    assert not (tmp_path / "home" / ".claude").exists()


def test_a10_a_project_outside_the_tokens_reach_is_named_as_the_cause(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    status, _ = install(limited_service, tmp_path / "home", "beta", "reviewer", ACME_ONLY)
    assert status == 1
    assert (
        "the token reaches only the projects 'acme', and the service answers every other as "
        "missing (A-10): if project 'beta' is the one, give a token that reaches it, else fix "
        "--project"
    ) in caplog.text
    assert "memory-api agent create" not in caplog.text


def test_a10_the_project_of_an_agent_outside_the_tokens_reach_is_never_said(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``reviewer`` is in ``beta``, which the ``acme`` token cannot see: the install learns
    nothing of it from the service, and the memory root it was given is not reviewer's."""
    client = MemoryClient(limited_service.url, token=ACME_ONLY)
    said = explain_missing_agent(client, "acme", "reviewer")
    assert "beta" not in said
    assert said.startswith("the service holds no agent 'reviewer' in project 'acme'; create it")
    assert "when `agent create` says the id is taken, the agent is in a project this token" in said


def test_h7_an_agent_of_a_project_beyond_the_token_is_found_by_its_agent_json(
    limited_service: RealService,
) -> None:
    """The memory root is a folder on this machine: its ``agent.json`` names the project even
    when the token reaches no project holding the agent."""
    root = limited_service.data_dir / "agents" / "coder" / "agent_state" / "memory"
    findings = check_service(limited_service.url, "acm", "coder", NOWHERE, memory_root=str(root))
    assert [f.error for f in findings] == [True]
    assert "agent 'coder' is in project 'acme', not 'acm': give --project acme" in findings[0].text


def test_h7_install_reads_the_agent_json_beside_the_memory_root_it_is_given(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The install passes its memory root to the check: with a token that reaches no project
    holding ``coder``, the project comes from the agent's own ``agent.json``."""
    status, _ = install(limited_service, tmp_path / "home", "acm", "coder", NOWHERE)
    assert status == 1
    assert "agent 'coder' is in project 'acme', not 'acm': give --project acme" in caplog.text
    assert "memory-api agent create" not in caplog.text


def test_h7_an_agent_missing_everywhere_is_to_be_created(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The command names the data dir the memory root lies in: without ``--data-dir`` (and no
    ``MEMORY_API_DATA_DIR``, which ``sudo`` drops) ``agent create`` refuses to write."""
    status, _ = install(limited_service, tmp_path / "home", "acme", "ghost", TOKEN)
    assert status == 1
    assert (
        "answered 404 (no agent 'ghost' in project 'acme'): the service holds no agent 'ghost' "
        "in project 'acme'; create it with `memory-api agent create --data-dir "
        f"{limited_service.data_dir} --project acme --id ghost --name NAME`"
    ) in caplog.text


def test_h7_a_managed_install_names_the_data_dir_to_create_the_agent_in(
    limited_service: RealService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A managed install runs as root (``sudo``, which drops ``MEMORY_API_DATA_DIR``), checked
    with the token in the environment: its 404 names the data dir too, and writes nothing."""
    root = limited_service.data_dir / "agents" / "ghost" / "agent_state" / "memory"
    managed = tmp_path / "etc" / "claude-code"
    flags = ["--home", str(tmp_path / "home"), "--memory-root", str(root)]
    flags += ["--url", limited_service.url, "--project", "acme", "--agent", "ghost"]
    environ = {"HOME": str(tmp_path / "home"), "HARNESS_MEMORY_TOKEN": TOKEN}
    status = main(
        ["install", "claude-code", "--managed", str(managed), *flags],
        environ=environ,
        stdout=io.StringIO(),
    )
    assert status == 1
    assert (
        f"create it with `memory-api agent create --data-dir {limited_service.data_dir} "
        "--project acme --id ghost --name NAME`"
    ) in caplog.text
    assert not managed.exists()


async def test_a10_a_service_that_cannot_tell_the_reach_has_the_token_named_as_a_maybe(
    service: ScriptedService,
) -> None:
    """A service that answers neither ``/api/me`` nor the project lists (an older one): with a
    token sent, its 404 may be the token's reach, said as ``memory-api`` says it; without one,
    the agent is to be created."""
    with_token = await asyncio.to_thread(check_service, service.url, "demo", "coder", "t0k")
    assert [f.error for f in with_token] == [True]
    assert (
        "if project 'demo' exists, your token may not reach it: a token limited to some "
        "projects is answered so for every other (give one that reaches it); else create it "
        "with `memory-api agent create --data-dir DIR --project demo --id coder --name NAME` "
        "(DIR: the data dir the service logs as `data dir: …` when it starts)"
    ) in with_token[0].text
    without = await asyncio.to_thread(check_service, service.url, "demo", "coder", None)
    assert "your token may not reach it" not in without[0].text
    assert "the service holds no agent 'coder' in project 'demo'; create it" in without[0].text


async def test_r1_a_remote_install_says_to_create_the_agent_where_the_service_runs(
    service: ScriptedService, tmp_path: Path
) -> None:
    """``--remote``: the service runs on another machine, and this machine's ``memory-api``
    (beside ``harness-memory``: ``.venv/bin/memory-api``) would make the agent in this
    machine's data dir, which that service never reads. The way on says to run it where the
    service runs, without this machine's path; a local install names this machine's."""
    program = tmp_path / ".venv" / "bin" / "harness-memory"
    program.parent.mkdir(parents=True)
    for name in ("harness-memory", "memory-api"):
        (program.parent / name).write_text("#!/bin/sh\n", "utf-8")
    there = "where the service runs: `memory-api agent create --data-dir DIR --project demo"
    ask = functools.partial(check_service, service.url, "demo", "coder", None)

    remote = as_typed((await asyncio.to_thread(ask, remote=True))[0].text, str(program))
    hook = as_typed(str(ServiceRejectedError(404, "no agent 'coder'")), str(program))
    local = as_typed((await asyncio.to_thread(ask))[0].text, str(program))

    here = str(program.parent / "memory-api")
    assert there in remote and here not in remote, remote
    assert "where the service runs: `memory-api agent create" in hook and here not in hook, hook
    assert f"`{program.parent / 'memory-api'} agent create --data-dir DIR" in local, local
