"""The versions routes (V-1, V-2) under ``/api/projects/{project}/agents/{agent}/memory``.

======  =============================================  =======================================
GET     ``…/scopes/{key}/files/{name}/history``         a file's versions, newest first
GET     ``…/scopes/{key}/files/{name}/versions/{version}``  the file as it was at a version
GET     ``…/scopes/{key}/files/{name}/diff``            the diff between two versions
POST    ``…/scopes/{key}/files/{name}/restore``         bring the file and its index lines back
GET     ``…/scopes/{key}/changes``                      the scope's versions since a time/version
GET     ``…/scopes/{key}/deleted``                      files deleted and not there now
POST    ``…/scopes/{key}/checkpoint``                   record what changed on disk in a scope
POST    ``…/checkpoint``                                the same, every scope of the agent
POST    ``…/versions``                                  a post-write hook records its write
======  =============================================  =======================================

``{name}`` is ``MEMORY.md`` or a topic file name (K-7), ``{version}`` a version id (40 hex
digits); both are checked before any I/O (400). No route accepts content (A-8): a restore only
brings back bytes the history holds. The who of a checkpoint or a restore is the caller's token
name (A-10); a post-write hook names its Session, harness and tool.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
from aiohttp import web
from memory_core.rules import TIMESTAMP_RULE
from memory_core.wire import RecordRequest, RestoreRequest

from memory_api.appkeys import PRINCIPAL_KEY, get_history_store
from memory_api.errors import BadRequest
from memory_api.http.auth import refuse_secret_in
from memory_api.http.jsonio import (
    json_response,
    preconditions,
    query_flag,
    read_json,
    refuse_body,
)
from memory_api.store.history.recorder import Attribution

__all__ = ["CHANGES_LIMIT", "HISTORY_LIMIT", "routes"]

BASE = "/api/projects/{project}/agents/{agent}/memory"
FILE = BASE + "/scopes/{key}/files/{name:[^/]+}"  # any name K-7 allows: memory.TOPIC_FILE

routes = web.RouteTableDef()
_restore_decoder = msgspec.json.Decoder(RestoreRequest)
_record_decoder = msgspec.json.Decoder(RecordRequest)

HISTORY_LIMIT = (100, 1000)
"""Versions of a file answered by default, and at most (``limit``)."""
CHANGES_LIMIT = (50, 500)
"""Versions of a scope, or deleted files, answered by default, and at most (``limit``)."""


def _ids(request: web.Request) -> tuple[str, str, str]:
    info = request.match_info
    return info["project"], info["agent"], info["key"]


def _limit(request: web.Request, bounds: tuple[int, int]) -> int:
    raw = request.query.get("limit", str(bounds[0]))
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= bounds[1]:
        raise BadRequest(f"limit must be a whole number from 1 to {bounds[1]}")
    return int(raw)


def _since(request: web.Request) -> int | None:
    """``since`` in seconds since the epoch (:data:`~memory_core.rules.TIMESTAMP_RULE`)."""
    raw = request.query.get("since")
    if raw is None:
        return None
    reason = TIMESTAMP_RULE.problem(raw)
    if reason is not None:
        raise BadRequest(f"since must be {reason}, not {raw[:40]!r}")
    year, month, day = int(raw[0:4]), int(raw[5:7]), int(raw[8:10])
    elapsed = timedelta(days=day - 1, hours=int(raw[11:13]), minutes=int(raw[14:16]))
    moment = datetime(year, month, 1, tzinfo=UTC) + elapsed + timedelta(seconds=int(raw[17:19]))
    return int(moment.timestamp())


@routes.get(FILE + "/history")
async def get_file_history(request: web.Request) -> web.Response:
    """V-2: ``FileHistory`` — the versions that changed the file, newest first.

    Query: ``limit`` (1-1000, default 100), ``before`` (a version: only older ones; the paging
    cursor). ``unrecorded`` tells that the file on disk differs from its newest version, and
    ``unrecordable`` why the history cannot keep it as it is (unreadable, over its read cap).
    """
    project, agent, key = _ids(request)
    store = get_history_store(request.app)
    history = await store.file_history(
        project,
        agent,
        key,
        request.match_info["name"],
        _limit(request, HISTORY_LIMIT),
        request.query.get("before"),
    )
    return json_response(history)


@routes.get(FILE + "/versions/{version}")
async def get_file_at_version(request: web.Request) -> web.Response:
    """V-2: ``FileAtVersion`` — the file as that version held it; credentials masked (I-8)
    unless ``?reveal=true``."""
    project, agent, key = _ids(request)
    store = get_history_store(request.app)
    found = await store.file_at(
        project,
        agent,
        key,
        request.match_info["name"],
        request.match_info["version"],
        query_flag(request, "reveal"),
    )
    return json_response(found)


@routes.get(FILE + "/diff")
async def get_file_diff(request: web.Request) -> web.Response:
    """V-2: ``FileDiff`` — from version ``from`` (default: the one before ``to``) to version
    ``to`` (default: the newest version that changed the file), as unified text and hunks;
    credentials masked (I-8) unless ``?reveal=true``."""
    project, agent, key = _ids(request)
    store = get_history_store(request.app)
    versions = (request.query.get("from"), request.query.get("to"))
    diff = await store.file_diff(
        project, agent, key, request.match_info["name"], versions, query_flag(request, "reveal")
    )
    return json_response(diff)


@routes.post(FILE + "/restore")
async def post_restore(request: web.Request) -> web.Response:
    """V-2: ``RestoreResult`` — the file holds its bytes of ``version`` again and its index
    lines of then are back, recorded as a new version; a deleted file comes back (undo).
    ``If-Match`` / ``If-None-Match`` judge the file as it is now (RFC 9110 §13.1): it has no
    ETag, so ``If-Match: *`` holds only while it is there, ``If-None-Match: *`` only while it is
    not (an undo that never overwrites), any other ``If-Match`` fails; 412, nothing written."""
    project, agent, key = _ids(request)
    body = await read_json(request, _restore_decoder)
    store = get_history_store(request.app)
    name, principal = request.match_info["name"], request[PRINCIPAL_KEY].name
    result = await store.restore(
        project, agent, key, name, body.version, principal, preconditions(request)
    )
    return json_response(result)


@routes.get(BASE + "/scopes/{key}/changes")
async def get_changes(request: web.Request) -> web.Response:
    """V-2: ``ScopeChanges`` — the scope's versions, newest first, each with its files.

    Query: ``since`` (a UTC time, ``2026-11-29T22:05:19Z``: recorded then or later by the
    recording process's clock, wherever a version dated earlier by a clock running behind
    stands), ``after`` (a version: only those
    recorded since, in the history's own order — the cursor no clock skew can fool),
    ``before`` (a version: only older ones, the paging cursor), ``limit`` (1-500, default 50).
    """
    project, agent, key = _ids(request)
    store = get_history_store(request.app)
    changes = await store.changes(
        project,
        agent,
        key,
        limit=_limit(request, CHANGES_LIMIT),
        since=_since(request),
        after=request.query.get("after"),
        before=request.query.get("before"),
    )
    return json_response(changes)


@routes.get(BASE + "/scopes/{key}/deleted")
async def get_deleted(request: web.Request) -> web.Response:
    """V-2: ``DeletedFiles`` — files deleted from the scope and not there now, newest first,
    each with the version a restore takes it from. Query: ``limit`` (1-500, default 50).
    ``complete`` is false while a long history is still being looked through (the first look
    after an upgrade): each look answers at once with what was found and goes on further."""
    project, agent, key = _ids(request)
    store = get_history_store(request.app)
    deleted = await store.deleted(project, agent, key, _limit(request, CHANGES_LIMIT))
    return json_response(deleted)


def _checkpoint(request: web.Request) -> Attribution:
    return Attribution("checkpoint", principal=request[PRINCIPAL_KEY].name)


@routes.post(BASE + "/scopes/{key}/checkpoint")
async def post_scope_checkpoint(request: web.Request) -> web.Response:
    """V-1: ``RecordResult`` — whatever changed on disk in the scope, recorded as a version
    by the caller (none when nothing changed). Takes no body (an empty JSON object passes;
    anything else is a 400, :func:`~memory_api.http.jsonio.refuse_body`)."""
    project, agent, key = _ids(request)
    await refuse_body(request)
    store = get_history_store(request.app)
    result = await store.record(project, agent, key, _checkpoint(request))
    return json_response(result)


@routes.post(BASE + "/checkpoint")
async def post_checkpoint(request: web.Request) -> web.Response:
    """V-1: ``RecordResult`` — the same for every scope of the agent; no body, as above."""
    project, agent = request.match_info["project"], request.match_info["agent"]
    await refuse_body(request)
    store = get_history_store(request.app)
    result = await store.record(project, agent, None, _checkpoint(request))
    return json_response(result)


@routes.post(BASE + "/versions")
async def post_versions(request: web.Request) -> web.Response:
    """V-1: ``RecordResult`` — a harness's post-write hook records what its Session wrote:
    the changes on disk in ``scope`` (every scope without it), by that Session, harness and
    tool. The body carries no content."""
    project, agent = request.match_info["project"], request.match_info["agent"]
    body = await read_json(request, _record_decoder)
    kept = (("sessionId", body.session_id), ("harness", body.harness), ("tool", body.tool))
    for field, value in kept:  # each kept in the version's trailers
        refuse_secret_in(field, value)
    who = Attribution("write", session_id=body.session_id, harness=body.harness, tool=body.tool)
    result = await get_history_store(request.app).record(project, agent, body.scope, who)
    return json_response(result)
