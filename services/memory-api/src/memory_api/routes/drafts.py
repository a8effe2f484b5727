"""Drafts of the chat bridge (A-12): ``POST …/drafts`` and ``GET …/drafts/{draft}``.

The Memory tab posts the short prompt it composed (optionally pinned to a Workspace path) and
opens the chat with the draft's id; the chat or the plugin fetches the draft to start a Session
with it. Drafts expire after ``MEMORY_API_DRAFT_TTL`` seconds.
"""

from __future__ import annotations

import msgspec
from aiohttp import web
from memory_core.wire import DraftCreate

from memory_api.appkeys import get_agent_store, get_draft_store
from memory_api.http.jsonio import json_response, read_json

__all__ = ["routes"]

routes = web.RouteTableDef()
_create_decoder = msgspec.json.Decoder(DraftCreate)


@routes.post("/api/projects/{project}/agents/{agent}/drafts")
async def create_draft(request: web.Request) -> web.Response:
    """Store a draft for the agent; 201 with the draft (its id and expiry) and a Location."""
    project, agent = request.match_info["project"], request.match_info["agent"]
    body = await read_json(request, _create_decoder)
    await get_agent_store(request.app).get(project, agent)
    draft = await get_draft_store(request.app).create(project, agent, body)
    location = f"/api/projects/{project}/agents/{agent}/drafts/{draft.id}"
    return json_response(draft, status=201, headers={"Location": location})


@routes.get("/api/projects/{project}/agents/{agent}/drafts/{draft}")
async def get_draft(request: web.Request) -> web.Response:
    """Return a live draft; 404 once it expired (it is deleted then) or for another agent's."""
    project, agent = request.match_info["project"], request.match_info["agent"]
    await get_agent_store(request.app).get(project, agent)
    draft = await get_draft_store(request.app).get(project, agent, request.match_info["draft"])
    return json_response(draft, headers={"Cache-Control": "no-store"})
