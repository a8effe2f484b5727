"""The caller and the projects it can see: ``GET /api/me`` and ``GET /api/projects`` (A-10)."""

from __future__ import annotations

from aiohttp import web
from memory_core.wire import Me, ProjectList, UnreadableAgentEntry

from memory_api.appkeys import get_agent_store, get_settings
from memory_api.http.auth import get_principal
from memory_api.http.jsonio import json_response

__all__ = ["routes"]

routes = web.RouteTableDef()


@routes.get("/api/me")
async def get_me(request: web.Request) -> web.Response:
    """Return the caller's token name (``local`` without tokens), reach and the chat URL."""
    principal = get_principal(request)
    projects = None if principal.projects is None else sorted(principal.projects)
    me = Me(
        name=principal.name,
        projects=projects,
        chat_url_template=get_settings(request.app).chat_url,
    )
    return json_response(me)


@routes.get("/api/projects")
async def list_projects(request: web.Request) -> web.Response:
    """Return the projects that hold agents and lie within the caller's reach, sorted; for a
    caller reaching every project, also the agents whose settings cannot be read (Q-2b), whose
    project is unknown (a read error never widens a token's reach)."""
    principal = get_principal(request)
    projects, unreadable = await get_agent_store(request.app).projects_with_unreadable()
    reached = [p for p in projects if principal.reaches(p)]
    if principal.projects is not None:
        return json_response(ProjectList(projects=reached))
    named = [UnreadableAgentEntry(id=agent_id, problem=why) for agent_id, why in unreadable]
    return json_response(ProjectList(projects=reached, unreadable=named))
