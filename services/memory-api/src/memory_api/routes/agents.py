"""Agents of a project (A-1): ``GET|POST /api/projects/{project}/agents``."""

from __future__ import annotations

import msgspec
from aiohttp import web
from memory_core.wire import AgentCreate

from memory_api.appkeys import get_agent_store, get_memory_store, get_settings
from memory_api.http.auth import get_principal
from memory_api.http.jsonio import json_response, read_json
from memory_api.routes.config import config_response
from memory_api.store.counts import agent_list

__all__ = ["routes"]

routes = web.RouteTableDef()
_create_decoder = msgspec.json.Decoder(AgentCreate)


@routes.get("/api/projects/{project}/agents")
async def list_agents(request: web.Request) -> web.Response:
    """List the project's agents, sorted by id, each with its memory count (topic files); a
    caller reaching every project also gets the agents whose settings cannot be read (Q-2b)."""
    store = get_agent_store(request.app)
    kept = get_memory_store(request.app).records
    reaches_all = get_principal(request).projects is None
    answer = await agent_list(store, request.match_info["project"], kept, reaches_all=reaches_all)
    return json_response(answer)


@routes.post("/api/projects/{project}/agents")
async def create_agent(request: web.Request) -> web.Response:
    """Create an agent (id, name, optional template) with its user scope; 201 + its config.

    409 when the id is taken or the project holds ``MEMORY_API_MAX_AGENTS_PER_PROJECT`` agents
    (``…/cap-reached``), 400 for a malformed id or empty name, 422 for a wrong body shape.
    """
    project = request.match_info["project"]
    body = await read_json(request, _create_decoder)
    cap = get_settings(request.app).max_agents_per_project
    record = await get_agent_store(request.app).create(project, body, cap=cap)
    response = config_response(record, status=201)
    response.headers["Location"] = f"/api/projects/{project}/agents/{record.id}/config"
    return response
