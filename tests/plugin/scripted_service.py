"""A scripted memory service for the failure cases of P-2 (slow, 4xx/5xx, garbage).

It answers A-9 and ``GET …/drafts/{id}`` (A-12) with the same DTOs the real service uses
(``memory_core.wire``) or fails on purpose; with ``newer`` set it answers as a service upgraded
before the plugin, an unknown field in every object of every answer. Drafts are stored with
:meth:`ScriptedService.add_draft`; like the real service it answers 404 for an unknown, expired
or other agent's draft. The end-to-end tests (``test_e2e_*``) use the real service instead.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import msgspec
from aiohttp import web
from aiohttp.test_utils import TestServer
from memory_core import layout
from memory_core.wire import (
    Answer,
    Draft,
    ScopeManifest,
    SessionDirectories,
    SessionStartRequest,
    SessionStartResponse,
    utc_timestamp,
)

from tests.support.newer_fields import with_unknown_fields

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
    drafts: dict[str, Draft] = field(default_factory=dict)
    draft_calls: list[str] = field(default_factory=list)
    url: str = ""
    newer: bool = False
    """Answer as a newer service would: an unknown field in every object (A-11)."""

    @property
    def memory_root(self) -> Path:
        """The memory root of agent ``coder`` in ``data_dir``, as the answers report it."""
        return layout.memory_root(self.data_dir, "coder")

    @property
    def workspaces(self) -> list[str]:
        """The Workspace of each Session-start request so far, in order."""
        return [body.workspace for _, _, body in self.calls]

    def add_draft(
        self,
        prompt: str,
        workspace: str | None = None,
        *,
        agent: str = "coder",
        expires_in: timedelta = timedelta(hours=1),
    ) -> Draft:
        """Store a draft of ``acme/<agent>``; a negative ``expires_in`` makes it expired."""
        now = datetime.now(UTC)
        draft = Draft(
            id=uuid.uuid4().hex,
            project="acme",
            agent=agent,
            prompt=prompt,
            workspace=workspace,
            created_at=utc_timestamp(now),
            expires_at=utc_timestamp(now + expires_in),
        )
        self.drafts[draft.id] = draft
        return draft

    def answer(self, request: SessionStartRequest) -> SessionStartResponse:
        root = self.memory_root
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
                memory_root=str(root),
                user=str(root / "user"),
                workspace=str(root / key) if key else None,
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
            return _not_found("no agent 'coder' in project 'acme'")
        if self.behaviour == "boom":
            return web.Response(status=503, text="upstream gone")
        if self.behaviour == "garbage":
            return web.Response(status=200, text="{not json", content_type="application/json")
        return self._json(self.answer(body))

    def _json(self, answer: Answer) -> web.Response:
        """``answer`` as the 200 JSON answer, with a newer service's fields when ``newer``."""
        sent: Any = msgspec.to_builtins(answer)
        if self.newer:
            sent = with_unknown_fields(sent, type(answer))
        return web.Response(body=msgspec.json.encode(sent), content_type="application/json")

    async def handle_draft(self, request: web.Request) -> web.StreamResponse:
        """``GET …/drafts/{draft}``: the stored draft, or a 404 problem like the real service's."""
        project, agent = request.match_info["project"], request.match_info["agent"]
        draft_id = request.match_info["draft"]
        self.draft_calls.append(f"{project}/{agent}/{draft_id}")
        if self.behaviour == "slow":
            await asyncio.Event().wait()
        draft = self.drafts.get(draft_id)
        if draft is not None and datetime.fromisoformat(draft.expires_at) <= datetime.now(UTC):
            del self.drafts[draft_id]
            draft = None
        if draft is None or (draft.project, draft.agent) != (project, agent):
            return _not_found(f"no draft {draft_id!r} for agent {agent!r} (it may have expired)")
        return self._json(draft)


def _not_found(detail: str) -> web.Response:
    """A 404 problem+json answer, shaped like the real service's."""
    return web.json_response(
        {"type": "about:blank", "title": "Not Found", "status": 404, "detail": detail},
        status=404,
        content_type="application/problem+json",
    )


async def serve_scripted(factory: ServerFactory, data_dir: Path) -> ScriptedService:
    """Start a scripted service with ``factory`` (pytest-aiohttp's ``aiohttp_server``)."""
    scripted = ScriptedService(data_dir=data_dir)
    app = web.Application()
    app.router.add_post(
        "/api/projects/{project}/agents/{agent}/memory/session-start", scripted.handle
    )
    app.router.add_get(
        "/api/projects/{project}/agents/{agent}/drafts/{draft}", scripted.handle_draft
    )
    server = await factory(app)
    scripted.url = str(server.make_url("")).rstrip("/")
    return scripted
