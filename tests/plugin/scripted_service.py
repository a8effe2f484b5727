"""A scripted memory service for the failure cases of P-2 (slow, 4xx/5xx, garbage).

It answers A-9 with the same DTOs the real service uses (``memory_core.wire``) or fails on
purpose. The end-to-end tests (``test_e2e_*``) use the real service instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec
from aiohttp import web
from aiohttp.test_utils import TestServer
from memory_core.wire import (
    ScopeManifest,
    SessionDirectories,
    SessionStartRequest,
    SessionStartResponse,
)

Behaviour = Literal["ok", "off", "temporary", "slow", "not-found", "boom", "garbage"]
ServerFactory = Callable[[web.Application], Awaitable[TestServer]]

USER_INDEX_LINE = "- [Prefers pnpm](prefers-pnpm.md) — use pnpm"
WORKSPACE_INDEX_LINE = "- [Testing](testing-conventions.md) — pytest -q, never timed asserts"


@dataclass
class ScriptedService:
    """A memory service double: ``behaviour`` picks the answer; ``calls`` records each request."""

    data_dir: Path
    behaviour: Behaviour = "ok"
    key: str = "my-app-1c7ddc51"
    memory: str = (
        f"## User memory\n{USER_INDEX_LINE}\n\n## Workspace memory\n{WORKSPACE_INDEX_LINE}\n"
    )
    calls: list[tuple[str, dict[str, str], SessionStartRequest]] = field(default_factory=list)
    url: str = ""

    def answer(self, request: SessionStartRequest) -> SessionStartResponse:
        memory_root = self.data_dir / "agents" / "coder" / "agent_state" / "memory"
        kind = {"off": "off", "temporary": "temporary"}.get(self.behaviour, "persistent")
        enabled = kind != "off"
        key = self.key if kind == "persistent" else None
        value = {"off": "(none — memory is off)", "temporary": "(none — temporary workspace)"}
        manifests = [
            ScopeManifest(
                scope="user",
                lines_total=260,
                lines_kept=200,
                lines_dropped=60,
                cap_fired="lines",
                headroom_lines=0,
                headroom_chars=1000,
            )
        ]
        return SessionStartResponse(
            enabled=enabled,
            injected=enabled,
            memory=self.memory if enabled else "",
            workspace_memory_key=value.get(kind, self.key),
            key=key,
            workspace_kind=kind,  # type: ignore[arg-type]
            directories=SessionDirectories(
                app_data_dir=str(self.data_dir),
                memory_root=str(memory_root),
                user=str(memory_root / "user"),
                workspace=str(memory_root / key) if key else None,
            ),
            manifests=manifests if enabled else [],
            template_has_memory=True,
        )

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = msgspec.json.decode(await request.read(), type=SessionStartRequest)
        path = f"{request.match_info['project']}/{request.match_info['agent']}"
        self.calls.append((path, dict(request.headers), body))
        if self.behaviour == "slow":
            await asyncio.Event().wait()  # never answers; the client's timeout ends the wait
        if self.behaviour == "not-found":
            return web.json_response(
                {
                    "type": "about:blank",
                    "title": "Not Found",
                    "status": 404,
                    "detail": "no agent 'coder' in project 'acme'",
                },
                status=404,
                content_type="application/problem+json",
            )
        if self.behaviour == "boom":
            return web.Response(status=503, text="upstream gone")
        if self.behaviour == "garbage":
            return web.Response(status=200, text="{not json", content_type="application/json")
        return web.Response(
            body=msgspec.json.encode(self.answer(body)), content_type="application/json"
        )


async def serve_scripted(factory: ServerFactory, data_dir: Path) -> ScriptedService:
    """Start a scripted service with ``factory`` (pytest-aiohttp's ``aiohttp_server``)."""
    scripted = ScriptedService(data_dir=data_dir)
    app = web.Application()
    app.router.add_post(
        "/api/projects/{project}/agents/{agent}/memory/session-start", scripted.handle
    )
    server = await factory(app)
    scripted.url = str(server.make_url("")).rstrip("/")
    return scripted
