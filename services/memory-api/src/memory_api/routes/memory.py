"""The memory routes (A-3…A-9) under ``/api/projects/{project}/agents/{agent}/memory``.

=======  ====================================  =============================================
GET      ``…/memory?limit=…&cursor=…&q=…``    overview: switch, template hint, a page of
                                               scopes, totals (A-3)
POST     ``…/memory/template-placeholder``     insert ``{{MEMORY}}`` + key line (A-4, I-7)
GET      ``…/memory/scopes/{key}``             one scope's overview entry (A-3)
DELETE   ``…/memory/scopes/{key}``             forget an empty Workspace scope (K-5)
GET      ``…/memory/scopes/{key}/files``       a page of a scope's topic files (A-5)
GET      ``…/memory/scopes/{key}/index``       raw index, kept/dropped lines, lint (A-5)
GET      ``…/memory/scopes/{key}/files/{file}`` one topic file: fields, body, links (A-5)
DELETE   ``…/memory/scopes/{key}/files/{file}`` delete it and prune its index lines (A-6, V-1)
POST     ``…/memory/session-start``            prepare scopes, build the injection (A-9); what
                                               changed on disk is recorded after (V-1)
GET      ``…/memory/search?q=…&scope=…``       ranked full-text search of the scopes (S-1)
=======  ====================================  =============================================

No route accepts a path (A-7): ``{project}``, ``{agent}``, ``{key}`` and ``{file}`` are ids
that :class:`~memory_api.store.memory.MemoryStore` checks against K-7 before any I/O. ``{file}``
arrives percent-encoded and aiohttp hands it over decoded, so ``Deploy%20notes.md`` is
``Deploy notes.md``; an encoded slash (``%2F``) decodes to ``/``, which K-7 refuses (400) — it
can never address another folder. Errors are raised as domain exceptions and turned into
problem+json by :mod:`memory_api.http.problems`; the auth middleware has already hidden projects
outside the token's reach (A-10).
"""

from __future__ import annotations

import msgspec
from aiohttp import web
from memory_core.keys import USER_SCOPE
from memory_core.wire import SessionStartRequest

from memory_api.appkeys import PRINCIPAL_KEY, get_history_store, get_memory_store
from memory_api.errors import BadRequest
from memory_api.http.auth import refuse_secret_in
from memory_api.http.jsonio import (
    json_response,
    json_text,
    preconditions,
    query_flag,
    read_json,
    refuse_body,
)
from memory_api.http.logs import log_quote, note_access
from memory_api.store.file_pages import FILES_DEFAULT_LIMIT
from memory_api.store.history.recorder import Attribution
from memory_api.store.overview import OVERVIEW_DEFAULT_LIMIT

__all__ = ["BASE", "SEARCH_DEFAULT_LIMIT", "SESSION_ID_LOG_CHARS", "routes"]

BASE = "/api/projects/{project}/agents/{agent}/memory"

TOPIC_FILE = BASE + "/scopes/{key}/files/{file:[^/]+}"
"""One topic file's route. Its name may hold any character K-7 allows but ``/``: aiohttp's own
segment pattern, ``[^{}/]+``, left a listed ``brace{x}.md`` without a route that reads or
deletes it (T-5b); its canonical form, which OpenAPI and the metrics name, stays ``{file}``."""

routes = web.RouteTableDef()
_session_start_decoder = msgspec.json.Decoder(SessionStartRequest)
SEARCH_DEFAULT_LIMIT = 20
"""Hits returned by a search without ``limit``."""
SESSION_ID_LOG_CHARS = 128
"""How much of a client-chosen ``sessionId`` reaches the access line."""


def _ids(request: web.Request) -> tuple[str, str]:
    """The route's project and agent ids as sent; the store checks them (K-7)."""
    return request.match_info["project"], request.match_info["agent"]


# Registered first (and this module before the others of /api/projects, see app.py): aiohttp
# tries the routes under one prefix in registration order, a regex match each, and a Session
# start is the hot call of a running harness.
@routes.post(BASE + "/session-start")
async def post_session_start(request: web.Request) -> web.Response:
    """A-9: ``SessionStartResponse`` for a ``SessionStartRequest`` body.

    What the Session start did goes on the request's access line (:func:`note_access`), not
    on a log record of its own: one record per request is a good part of a warm start's cost.
    """
    project, agent = _ids(request)
    body = await read_json(request, _session_start_decoder)
    refuse_secret_in("sessionId", body.session_id)
    store = get_memory_store(request.app)
    answer = await store.session_start(project, agent, body)
    # V-1: whatever changed on disk since is recorded after the answer, in a task of its own
    scopes = [key for key in (USER_SCOPE, answer.key) if key is not None and answer.enabled]
    get_history_store(request.app).record_later(
        agent, scopes, Attribution("session-start", session_id=body.session_id)
    )
    # the harness's own id, masked, cut and quoted: a newline in it forges no log line
    session = None if body.session_id is None else log_quote(body.session_id, SESSION_ID_LOG_CHARS)
    note_access(
        request,
        f"session start: session={session} kind={answer.workspace_kind} key={answer.key} "
        f"injected={answer.injected}",
    )
    # the same bytes as the text itself would give: its JSON is made once per text
    return json_response(msgspec.structs.replace(answer, memory=json_text(answer.memory)))


def _whole_number(request: web.Request, name: str, default: int) -> int:
    """A whole-number query parameter (``default`` when absent); 400 for anything else."""
    raw = request.query.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise BadRequest(f"{name} must be a whole number")
    return int(raw)


@routes.get(BASE)
async def get_overview(request: web.Request) -> web.Response:
    """A-3: ``MemoryOverview`` — a page of scopes (the user scope first, then Workspaces by
    newest activity) and the totals of all of them.

    Query parameters: ``limit`` (1-500 scopes, default 100), ``cursor`` (the ``nextCursor`` of
    the page before), ``q`` (a group search: only scopes whose title, key or Workspace path
    holds it).
    """
    project, agent = _ids(request)
    store = get_memory_store(request.app)
    overview = await store.overview(
        project,
        agent,
        limit=_whole_number(request, "limit", OVERVIEW_DEFAULT_LIMIT),
        cursor=request.query.get("cursor"),
        query=request.query.get("q") or None,
    )
    return json_response(overview)


@routes.get(BASE + "/scopes/{key}")
async def get_scope(request: web.Request) -> web.Response:
    """A-3: ``ScopeSummary`` — one scope's overview entry, wherever it stands in the order."""
    project, agent = _ids(request)
    key = request.match_info["key"]
    return json_response(await get_memory_store(request.app).scope(project, agent, key))


@routes.delete(BASE + "/scopes/{key}")
async def delete_scope(request: web.Request) -> web.Response:
    """K-5: ``ForgetResult`` — the empty Workspace scope is no longer listed; its history is
    kept (a Session in that folder again makes a new scope under the same key). Takes no body.
    409 for the user scope and for a scope holding anything of the agent's (delete its files
    first: each delete can be restored); ``If-Match`` / ``If-None-Match`` as on a file
    delete (a scope has no ETag: any ``If-Match`` but ``*`` fails with 412)."""
    project, agent = _ids(request)
    await refuse_body(request)
    key = request.match_info["key"]
    conditions = preconditions(request)
    result = await get_memory_store(request.app).forget(project, agent, key, conditions)
    return json_response(result)


@routes.post(BASE + "/template-placeholder")
async def post_template_placeholder(request: web.Request) -> web.Response:
    """A-4: ``PlaceholderResult`` — the template and whether this call changed it. Takes no
    body (an empty JSON object passes; anything else is a 400, :func:`refuse_body`). It writes
    the config: ``If-Match`` / ``If-None-Match`` are judged against the config's ``ETag`` as on
    its PATCH (412, nothing written)."""
    project, agent = _ids(request)
    await refuse_body(request)
    conditions = preconditions(request)
    result = await get_memory_store(request.app).insert_placeholder(project, agent, conditions)
    return json_response(result)


@routes.get(BASE + "/scopes/{key}/files")
async def get_files(request: web.Request) -> web.Response:
    """A-5: ``TopicList`` — a page of the scope's topic files, sorted by file name.

    Query parameters: ``limit`` (1-1000 files, default 1000), ``cursor`` (the ``nextCursor``
    of the page before; the last page has none).
    """
    project, agent = _ids(request)
    key = request.match_info["key"]
    store = get_memory_store(request.app)
    listing = await store.list_files(
        project,
        agent,
        key,
        limit=_whole_number(request, "limit", FILES_DEFAULT_LIMIT),
        cursor=request.query.get("cursor"),
    )
    return json_response(listing)


@routes.get(BASE + "/scopes/{key}/index")
async def get_index(request: web.Request) -> web.Response:
    """A-5: ``IndexView`` — the raw index, which lines the injection keeps, and lint.

    Likely credentials are masked (I-8); ``?reveal=true`` answers them as written (W-6).
    """
    project, agent = _ids(request)
    key = request.match_info["key"]
    reveal = query_flag(request, "reveal")
    store = get_memory_store(request.app)
    return json_response(await store.read_index(project, agent, key, reveal=reveal))


@routes.get(TOPIC_FILE)
async def get_file(request: web.Request) -> web.Response:
    """A-5: ``TopicFile`` — fields, body without frontmatter, ``[[links]]``, findings.

    Likely credentials are masked (I-8); ``?reveal=true`` answers them as written (W-6).
    """
    project, agent = _ids(request)
    key, file_name = request.match_info["key"], request.match_info["file"]
    reveal = query_flag(request, "reveal")
    store = get_memory_store(request.app)
    topic = await store.read_file(project, agent, key, file_name, reveal=reveal)
    return json_response(topic)


@routes.delete(TOPIC_FILE)
async def delete_file(request: web.Request) -> web.Response:
    """A-6: ``DeleteResult`` — the file is gone, and so are the index lines linking to it; or
    nothing changed (409 when ``MEMORY.md`` is no index the service may rewrite: a symlink out
    of the memory root, a folder, a FIFO, a file hard-linked outside its folder; 503 when it
    cannot be read or written now). Takes no body (:func:`refuse_body`). ``If-Match`` /
    ``If-None-Match`` are honoured (RFC 9110 §13.1): a topic file has no ETag, so any
    ``If-Match`` but ``*`` and ``If-None-Match: *`` fail with 412 and nothing is deleted."""
    project, agent = _ids(request)
    await refuse_body(request)
    key, file_name = request.match_info["key"], request.match_info["file"]
    principal = request[PRINCIPAL_KEY].name
    store = get_memory_store(request.app)
    conditions = preconditions(request)
    result = await store.delete_file(project, agent, key, file_name, principal, conditions)
    return json_response(result)


@routes.get(BASE + "/search")
async def get_search(request: web.Request) -> web.Response:
    """S-1: ``SearchResults`` — topic files of every scope ranked against ``q``.

    Query parameters: ``q`` (required, the words to find), ``scope`` (only this scope key),
    ``limit`` (1-100 hits, default 20), ``typing`` (``true``: ``q`` is still being typed, as
    the page's search box sends it; a Korean last syllable is then open, S-2).
    """
    project, agent = _ids(request)
    query = request.query.get("q", "")
    scope = request.query.get("scope")  # given empty: checked, and refused (K-7)
    limit = _whole_number(request, "limit", SEARCH_DEFAULT_LIMIT)
    store = get_memory_store(request.app)
    typing = query_flag(request, "typing")
    results = await store.search(project, agent, query, scope, limit, typing=typing)
    return json_response(results)
