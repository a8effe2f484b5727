"""An agent's config (A-2): ``GET|PATCH /api/projects/{project}/agents/{agent}/config``.

The answer reports *effective* values: a prompt left at its default (stored as ``null``) is
sent as the built-in text with ``promptIsDefault: true``. PATCH changes only the fields sent;
``null`` for a prompt restores the default. Writes are atomic and happen under the agent's
cross-process lock.

Concurrency: every answer carries the config's ``ETag``. A PATCH with ``If-Match`` naming an
older ETag is refused with 412 and changes nothing, so an editor never overwrites a change it
has not seen; so is one whose ``If-None-Match`` fails (RFC 9110 §13.1.2: ``*``, or a list naming
the current ETag). A PATCH *without* them is accepted (a script or ``curl`` that means to
overwrite); the web page always sends ``If-Match``.
"""

from __future__ import annotations

import msgspec
from aiohttp import web
from memory_core.rules import prompt_warnings
from memory_core.wire import AgentConfig, ConfigPatch, MemoryConfig

from memory_api.appkeys import get_agent_store
from memory_api.http.jsonio import json_response, preconditions, read_json
from memory_api.store.agents import AgentRecord

__all__ = ["agent_config", "config_response", "routes"]

routes = web.RouteTableDef()
_patch_decoder = msgspec.json.Decoder(ConfigPatch)


def agent_config(record: AgentRecord) -> AgentConfig:
    """Return the effective config of ``record``, default prompts folded in (A-2, I-6)."""
    memory = record.memory
    return AgentConfig(
        id=record.id,
        project=record.project,
        name=record.name,
        template=record.template,
        memory=MemoryConfig(
            enabled=memory.enabled,
            prompt=memory.effective_prompt,
            workspace_prompt=memory.effective_workspace_prompt,
            prompt_is_default=memory.prompt is None,
            workspace_prompt_is_default=memory.workspace_prompt is None,
            prompt_warnings=prompt_warnings(
                memory.effective_prompt, memory.effective_workspace_prompt
            ),
        ),
    )


def config_response(record: AgentRecord, *, status: int = 200) -> web.Response:
    """Answer with the effective config and its ``ETag`` header (never cached stale)."""
    return json_response(
        agent_config(record),
        status=status,
        headers={"ETag": record.etag, "Cache-Control": "no-cache"},
    )


@routes.get("/api/projects/{project}/agents/{agent}/config")
async def get_config(request: web.Request) -> web.Response:
    """Return the agent's effective config with its ETag."""
    record = await get_agent_store(request.app).get(
        request.match_info["project"], request.match_info["agent"]
    )
    return config_response(record)


@routes.patch("/api/projects/{project}/agents/{agent}/config")
async def patch_config(request: web.Request) -> web.Response:
    """Change name, template or memory settings; 412 when ``If-Match`` is stale or
    ``If-None-Match`` fails (``*``: the config is always there; a list naming its ETag)."""
    patch = await read_json(request, _patch_decoder)
    record = await get_agent_store(request.app).patch(
        request.match_info["project"],
        request.match_info["agent"],
        patch,
        preconditions(request),
    )
    return config_response(record)
