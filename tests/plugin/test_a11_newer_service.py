"""A-11: a plugin installed before the service's upgrade still gets memory from it.

A team upgrades the central service first and each developer's plugin later, so the plugin
meets answers with fields it does not know (this round: ``unrecordable`` in a recorded scope,
``complete`` in a deleted-files list). It ignores them: the Session-start hook still injects
memory, a draft still opens its Session, and every other answer the client decodes (a version
record, the reach, the project and agent lists, the config) reads as it would without them.
The scripted service and the stub below put an unknown field in every object of every answer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
from aiohttp import web
from harness_memory import MemoryClient
from harness_memory.records import read_record
from memory_core import wire

from tests.plugin.helpers import Completed, harness_env, hook_fixture, run_cli, start
from tests.plugin.scripted_service import (
    USER_INDEX_LINE,
    WORKSPACE_INDEX_LINE,
    ScriptedService,
    ServerFactory,
)
from tests.support.newer_fields import UNKNOWN_FIELD, with_unknown_fields
from tests.support.serve import code_under_test

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/session_start.json
TEMPLATE = "Be careful.\n\n{{MEMORY}}\n\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"


async def _claude_code_session_start(service: ScriptedService, state: Path) -> Completed:
    workspace = state.parent / "src" / "my-app"
    workspace.mkdir(parents=True)
    env = harness_env(
        service.url,
        HARNESS_MEMORY_STATE_DIR=str(state),
        HOME=str(state.parent / "home"),
        **code_under_test(),
    )
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    return await run_cli("hook", "claude-code", "session-start", stdin=stdin, env=env)


async def test_a11_the_session_start_hook_injects_memory_from_a_newer_service(
    service: ScriptedService, tmp_path: Path
) -> None:
    service.newer = True
    done = await _claude_code_session_start(service, tmp_path / "state")
    assert done.returncode == 0, done.stderr
    context = done.json()["hookSpecificOutput"]["additionalContext"]
    assert USER_INDEX_LINE in context and WORKSPACE_INDEX_LINE in context
    assert "- Workspace Memory Key: my-app-1c7ddc51" in context
    record = read_record(tmp_path / "state", SESSION_ID)
    assert record is not None
    assert (record.status, record.error_kind) == ("injected", None)
    assert [manifest.scope for manifest in record.manifests] == ["user"]


async def test_a11_a_session_from_a_draft_of_a_newer_service_starts_with_its_prompt(
    service: ScriptedService,
) -> None:
    service.newer = True
    draft = service.add_draft("Add a memory about the release checklist", "/w")
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft.id)
    assert result.initial_prompt == "Add a memory about the release checklist"
    assert result.session_meta.status == "injected"
    assert USER_INDEX_LINE in result.system_prompt
    assert service.workspaces == ["/w"]  # the draft's pinned Workspace


_CHANGE = wire.FileChange(file="prefers-pnpm.md", change="modified")
ANSWERS: dict[str, wire.Answer] = {
    "/api/projects/acme/agents/coder/memory/versions": wire.RecordResult(
        scopes=[
            wire.RecordedScope(
                scope="user",
                version="3f9a1c7e52b04d8e9a6c1f2b3d4e5f60718293a4",
                files=[_CHANGE],
                unrecordable=[wire.UnrecordableFile(file="huge.md", why="larger than its cap")],
            ),
            wire.RecordedScope(scope="my-app-1c7ddc51", version=None, files=[], skipped="damaged"),
        ]
    ),
    "/api/me": wire.Me(name="ada", projects=["acme"], chat_url_template=None),
    "/api/projects": wire.ProjectList(projects=["acme"]),
    "/api/projects/acme/agents": wire.AgentList(
        agents=[
            wire.AgentSummary(
                id="coder", project="acme", name="Coder", memory_enabled=True, memory_count=3
            )
        ],
        unreadable=[wire.UnreadableAgentEntry(id="lost", problem="cannot read it")],
    ),
    "/api/projects/acme/agents/coder/config": wire.AgentConfig(
        id="coder",
        project="acme",
        name="Coder",
        template="{{MEMORY}}",
        memory=wire.MemoryConfig(
            enabled=True,
            prompt="p",
            workspace_prompt="w",
            prompt_is_default=False,
            workspace_prompt_is_default=True,
        ),
    ),
}


async def _newer_stub(aiohttp_server: ServerFactory) -> str:
    """A service answering each path of :data:`ANSWERS` with it, as a newer service would."""

    async def handle(request: web.Request) -> web.Response:
        answer = ANSWERS[request.path]
        sent: Any = with_unknown_fields(msgspec.to_builtins(answer), type(answer))
        return web.Response(body=msgspec.json.encode(sent), content_type="application/json")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    server = await aiohttp_server(app)
    return str(server.make_url("")).rstrip("/")


async def test_a11_the_client_reads_every_other_answer_of_a_newer_service(
    aiohttp_server: ServerFactory,
) -> None:
    client = MemoryClient(await _newer_stub(aiohttp_server))
    sent = msgspec.json.encode(
        with_unknown_fields(msgspec.to_builtins(ANSWERS["/api/me"]), wire.Me)
    )
    assert UNKNOWN_FIELD.encode() in sent  # the stub does answer fields the plugin does not know

    def calls() -> list[wire.Answer]:
        return [
            client.record_write("acme", "coder", wire.RecordRequest(scope="user")),
            client.me(),
            client.projects(),
            client.agents("acme"),
            client.agent_config("acme", "coder"),
        ]

    assert await asyncio.to_thread(calls) == list(ANSWERS.values())
