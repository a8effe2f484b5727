"""The OpenAPI 3.1 document of the service, generated from its router and the wire DTOs (A-11).

Paths and methods come from the application's router, so a route can never be missing from the
document; what each operation takes and returns comes from :data:`OPERATIONS`, and the JSON
Schemas of those types from ``msgspec.json.schema_components`` (JSON Schema 2020-12, which is
what OpenAPI 3.1 uses). Errors of every operation share the :class:`~memory_core.wire.Problem`
schema as ``application/problem+json``.

The document is the exact contract: every rule the service enforces on a path parameter or a
body field is printed from the same :class:`~memory_core.rules.TextRule` the service checks with
(path parameters from :data:`PATH_PARAMETERS`, body fields from their ``Annotated`` DTO
fields). A limit in bytes of UTF-8 appears as ``x-maxUtf8Bytes`` beside the strictest honest
``maxLength``. Each operation carries the example of
:data:`memory_api.http.openapi_examples.EXAMPLES`.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import msgspec
from aiohttp import web
from memory_core import wire
from memory_core.keys import (
    DRAFT_ID_RULE,
    ID_RULE,
    SCOPE_FILE_NAME_RULE,
    SCOPE_KEY_RULE,
    TOPIC_FILE_NAME_RULE,
    VERSION_RULE,
)
from memory_core.rules import TIMESTAMP_RULE, TextRule

from memory_api.http.openapi_examples import EXAMPLES, PARAMETER_EXAMPLES, Example
from memory_api.store.file_pages import FILES_DEFAULT_LIMIT, FILES_MAX_LIMIT
from memory_api.store.overview import (
    CURSOR_RULE,
    GROUP_QUERY_MAX,
    OVERVIEW_DEFAULT_LIMIT,
    OVERVIEW_MAX_LIMIT,
)

__all__ = [
    "OPERATIONS",
    "PATH_PARAMETERS",
    "Operation",
    "build_openapi",
    "documented_routes",
    "openapi_json",
]

_BASE = "/api/projects/{project}/agents/{agent}"
PATH_PARAMETERS: dict[str, tuple[str, TextRule]] = {
    "project": ("Project id (K-7):", ID_RULE),
    "agent": ("Agent id (K-7):", ID_RULE),
    "key": ("Scope key (K-7), `user` or a Workspace memory key:", SCOPE_KEY_RULE),
    "file": ("Topic file name (K-7), percent-encoded in the path:", TOPIC_FILE_NAME_RULE),
    "draft": ("Draft id (A-12):", DRAFT_ID_RULE),
    "name": (
        "A file whose versions are kept (V-2), percent-encoded in the path:",
        SCOPE_FILE_NAME_RULE,
    ),
    "version": ("A version id (V-2):", VERSION_RULE),
}
"""Every path parameter of every route: its description and the rule the service checks it
with. A route with a parameter missing here is documented as a bare string, which the drift
test refuses as soon as the service rejects any value of it."""
_PARAM_RE = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")


@dataclass(frozen=True, slots=True)
class Operation:
    """What one route takes and answers: a summary, the body DTO, the success status and DTO.

    ``media`` is the success content type for routes that do not answer JSON; ``query`` lists
    the optional query parameters as ``(name, description, JSON Schema)``. A body's schema
    says ``additionalProperties: false`` (an unknown field is a 422); an answer's does not, as
    answers may gain fields (:class:`~memory_core.wire.Answer`).
    """

    summary: str
    response: type[wire.Answer] | None = None
    status: int = 200
    body: type[wire.RequestBody] | None = None
    media: str = "application/json"
    if_match: bool = False
    query: tuple[tuple[str, bool, str, dict[str, Any], Any], ...] = ()
    """Query parameters: ``(name, required, description, JSON Schema, example or None)``."""


_REVEAL = (
    "reveal",
    False,
    "`true` answers likely credentials as written instead of masked (W-6).",
    {"type": "string", "enum": ["true", "false"], "default": "false"},
    None,
)


def _version_query(name: str, description: str) -> tuple[str, bool, str, dict[str, Any], Any]:
    return (name, False, f"{description} {VERSION_RULE.summary}.", VERSION_RULE.json_schema(), None)


def _limit_query(default: int, most: int) -> tuple[str, bool, str, dict[str, Any], Any]:
    schema = {"type": "integer", "minimum": 1, "maximum": most}
    return ("limit", False, f"How many at most (default {default}).", schema, None)


_FILE = f"{_BASE}/memory/scopes/{{key}}/files/{{name}}"
_HISTORY_OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", f"{_FILE}/history"): Operation(
        "A file's versions, newest first (V-2)",
        wire.FileHistory,
        query=(
            _limit_query(100, 1000),
            _version_query("before", "Only versions older than this one (the paging cursor):"),
        ),
    ),
    ("GET", f"{_FILE}/versions/{{version}}"): Operation(
        "A file as a version held it; credentials masked (V-2, I-8)",
        wire.FileAtVersion,
        query=(_REVEAL,),
    ),
    ("GET", f"{_FILE}/diff"): Operation(
        "The diff of a file between two versions (V-2)",
        wire.FileDiff,
        query=(
            _version_query("from", "From this version (default: the one before `to`):"),
            _version_query("to", "To this version (default: the newest):"),
            _REVEAL,
        ),
    ),
    ("POST", f"{_FILE}/restore"): Operation(
        "Restore a file and its index lines from a version, as a new version (V-2)",
        wire.RestoreResult,
        body=wire.RestoreRequest,
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}/changes"): Operation(
        "A scope's versions since a time or a version, with their files (V-2)",
        wire.ScopeChanges,
        query=(
            (
                "since",
                False,
                f"Only versions recorded at this time or later: {TIMESTAMP_RULE.summary}.",
                TIMESTAMP_RULE.json_schema(),
                None,
            ),
            _version_query("after", "Only versions newer than this one:"),
            _version_query("before", "Only versions older than this one (the paging cursor):"),
            _limit_query(50, 500),
        ),
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}/deleted"): Operation(
        "A scope's files deleted and not there now, with the version to restore (V-2)",
        wire.DeletedFiles,
        query=(_limit_query(50, 500),),
    ),
    ("POST", f"{_BASE}/memory/scopes/{{key}}/checkpoint"): Operation(
        "Record what changed on disk in a scope as a version (V-1)", wire.RecordResult
    ),
    ("POST", f"{_BASE}/memory/checkpoint"): Operation(
        "Record what changed on disk in every scope (V-1)", wire.RecordResult
    ),
    ("POST", f"{_BASE}/memory/versions"): Operation(
        "A post-write hook records its Session's writes (V-1)",
        wire.RecordResult,
        body=wire.RecordRequest,
    ),
    ("GET", f"{_BASE}/memory/machines"): Operation(
        "Per scope, the machines keeping a local copy and when each last synced (R-1)",
        wire.MachineList,
    ),
}
"""The versions routes (V-1, V-2), :mod:`memory_api.routes.history`."""

OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/healthz"): Operation("Liveness", wire.Health),
    ("GET", "/readyz"): Operation("Readiness: the data dir is readable and writable", wire.Health),
    ("GET", "/metrics"): Operation("Prometheus metrics", media="text/plain"),
    ("GET", "/openapi.json"): Operation("This document"),
    ("GET", "/"): Operation("The web page", media="text/html"),
    ("GET", "/api/me"): Operation("The caller's token name, reach and page settings", wire.Me),
    ("GET", "/api/projects"): Operation("Projects visible to the caller", wire.ProjectList),
    ("GET", "/api/projects/{project}/agents"): Operation(
        "List agents with memory counts (A-1)", wire.AgentList
    ),
    ("POST", "/api/projects/{project}/agents"): Operation(
        "Create an agent (A-1)", wire.AgentConfig, 201, wire.AgentCreate
    ),
    ("GET", f"{_BASE}/config"): Operation("Effective agent config (A-2)", wire.AgentConfig),
    ("PATCH", f"{_BASE}/config"): Operation(
        "Change the agent config; If-Match guards against lost updates (A-2)",
        wire.AgentConfig,
        body=wire.ConfigPatch,
        if_match=True,
    ),
    ("POST", f"{_BASE}/drafts"): Operation(
        "Store a chat draft (A-12)", wire.Draft, 201, wire.DraftCreate
    ),
    ("GET", f"{_BASE}/drafts/{{draft}}"): Operation("Fetch a live chat draft (A-12)", wire.Draft),
    ("GET", f"{_BASE}/memory"): Operation(
        "Memory overview: a page of scopes, user scope first, then newest activity (A-3)",
        wire.MemoryOverview,
        query=(
            (
                "limit",
                False,
                f"How many scopes at most (default {OVERVIEW_DEFAULT_LIMIT}).",
                {"type": "integer", "minimum": 1, "maximum": OVERVIEW_MAX_LIMIT},
                None,
            ),
            (
                "cursor",
                False,
                "The `nextCursor` of the page before: this page starts after the scope it names.",
                CURSOR_RULE.json_schema(),
                "user",
            ),
            (
                "q",
                False,
                "A group search: only scopes whose title, key or Workspace path holds this text "
                "(case-insensitive); empty for every scope.",
                {"type": "string", "maxLength": GROUP_QUERY_MAX},
                "my-app",
            ),
        ),
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}"): Operation(
        "One scope's overview entry (A-3)", wire.ScopeSummary
    ),
    ("POST", f"{_BASE}/memory/template-placeholder"): Operation(
        "Insert {{MEMORY}} into the template, idempotently (A-4)", wire.PlaceholderResult
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}/files"): Operation(
        "A page of a scope's topic files, by file name, and their findings (A-5)",
        wire.TopicList,
        query=(
            (
                "limit",
                False,
                f"How many files at most (default {FILES_DEFAULT_LIMIT}).",
                {"type": "integer", "minimum": 1, "maximum": FILES_MAX_LIMIT},
                None,
            ),
            (
                "cursor",
                False,
                "The `nextCursor` of the page before: this page starts after the file it names.",
                TOPIC_FILE_NAME_RULE.json_schema(),
                "deploy-freeze.md",
            ),
        ),
    ),
    ("DELETE", f"{_BASE}/memory/scopes/{{key}}"): Operation(
        "Forget an empty Workspace scope; its history is kept (K-5)", wire.ForgetResult
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}/index"): Operation(
        "A scope's index and what the injection keeps; credentials masked (A-5, I-8)",
        wire.IndexView,
        query=(_REVEAL,),
    ),
    ("GET", f"{_BASE}/memory/scopes/{{key}}/files/{{file}}"): Operation(
        "One topic file: fields, body, links, findings; credentials masked (A-5, I-8)",
        wire.TopicFile,
        query=(_REVEAL,),
    ),
    ("DELETE", f"{_BASE}/memory/scopes/{{key}}/files/{{file}}"): Operation(
        "Delete a topic file and its index lines (A-6)", wire.DeleteResult
    ),
    ("GET", f"{_BASE}/memory/search"): Operation(
        "Search the topic files of every scope, ranked (S-1)",
        wire.SearchResults,
        query=(
            (
                "q",
                True,
                "The words to find; all must match, the last as a prefix. Text without a word "
                "(only spaces, punctuation, combining marks or invisible characters) finds "
                "nothing. At most 32 different words (400 beyond).",
                {"type": "string", "minLength": 1, "maxLength": 500},
                "pnpm",
            ),
            (
                "scope",
                False,
                f"Only this scope (K-7): {SCOPE_KEY_RULE.summary}.",
                SCOPE_KEY_RULE.json_schema(),
                "user",
            ),
            (
                "limit",
                False,
                "How many hits at most (default 20).",
                {"type": "integer", "minimum": 1, "maximum": 100},
                None,
            ),
            (
                "typing",
                False,
                "`true`: `q` is still being typed (the web page's search box sends it as it "
                "changes): a Korean last syllable without a final consonant is found with any "
                "(`한구` finds `한국`), below the hits written as typed. By default `q` is taken "
                "as typed in full and finds only what it says (`공부` never finds `공분`).",
                {"type": "string", "enum": ["true", "false"], "default": "false"},
                None,
            ),
        ),
    ),
    ("POST", f"{_BASE}/memory/session-start"): Operation(
        "Prepare a Session's memory and build the injection (A-9)",
        wire.SessionStartResponse,
        body=wire.SessionStartRequest,
    ),
    **_HISTORY_OPERATIONS,
}


def _schema_types() -> list[type[Any]]:
    types: list[type[Any]] = [wire.Problem]
    for operation in OPERATIONS.values():
        types.extend(t for t in (operation.body, operation.response) if t is not None)
    return list(dict.fromkeys(types))


def _ref(tp: type[Any]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{tp.__name__}"}


def documented_routes(app: web.Application) -> list[tuple[str, str]]:
    """Return ``(METHOD, path template)`` of every route in ``app``'s router, sorted.

    Automatic ``HEAD`` twins, the static files folder and git's smart-HTTP routes (R-1:
    git's binary protocol, documented by git as ``gitprotocol-http``, which no JSON Schema can
    state) are left out.
    """
    found: set[tuple[str, str]] = set()
    for route in app.router.routes():
        resource = route.resource
        if resource is None or route.method in ("HEAD", "*"):
            continue
        if isinstance(resource, web.StaticResource) or resource.canonical.startswith("/static/"):
            continue
        if "/memory/git/" in resource.canonical:
            continue
        found.add((route.method, resource.canonical))
    return sorted(found)


def _path_parameter(name: str) -> dict[str, Any]:
    description, rule = PATH_PARAMETERS.get(name, (name, None))
    parameter: dict[str, Any] = {
        "name": name,
        "in": "path",
        "required": True,
        "description": description if rule is None else f"{description} {rule.summary}.",
        "schema": {"type": "string"} if rule is None else rule.json_schema(),
    }
    if name in PARAMETER_EXAMPLES:
        parameter["example"] = PARAMETER_EXAMPLES[name]
    return parameter


def _examples(example: Example, value: Any) -> dict[str, Any]:
    return {"example": {"summary": example.summary, "value": value}}


def _operation(method: str, path: str, handler_doc: str | None) -> dict[str, Any]:
    operation = OPERATIONS.get((method, path), Operation("(undocumented)"))
    doc: dict[str, Any] = {
        "summary": operation.summary,
        "operationId": f"{method.lower()}{re.sub(r'[^A-Za-z0-9]+', '_', path).rstrip('_')}",
    }
    if handler_doc:
        doc["description"] = handler_doc
    parameters: list[dict[str, Any]] = []
    for name in _PARAM_RE.findall(path):
        parameters.append(_path_parameter(name))
    for name, required, description, schema, example in operation.query:
        parameter = {
            "name": name,
            "in": "query",
            "required": required,
            "description": description,
            "schema": schema,
        }
        if example is not None:  # the text parameters' examples seed the drift probes
            parameter["example"] = example
        parameters.append(parameter)
    if operation.if_match:
        parameters.append(
            {
                "name": "If-Match",
                "in": "header",
                "required": False,
                "description": "The ETag last read; a stale one is refused with 412.",
                "schema": {"type": "string"},
            }
        )
    if parameters:
        doc["parameters"] = parameters
    example = EXAMPLES.get((method, path))
    if operation.body is not None:
        body: dict[str, Any] = {"schema": _ref(operation.body)}
        if example is not None and example.request is not None:
            body["examples"] = _examples(example, example.request_json())
        doc["requestBody"] = {"required": True, "content": {"application/json": body}}
    success: dict[str, Any] = {"description": operation.summary}
    content: dict[str, Any] | None = None
    if operation.response is not None:
        content = {"schema": _ref(operation.response)}
    elif path == "/openapi.json":
        content = {"schema": {"type": "object"}}
    elif operation.media != "application/json":
        content = {"schema": {"type": "string"}}
    if content is not None:
        if example is not None:
            content["examples"] = _examples(example, example.response_json())
        success["content"] = {operation.media: content}
    problem = {"application/problem+json": {"schema": _ref(wire.Problem)}}
    doc["responses"] = {
        str(operation.status): success,
        "4XX": {"description": "Problem details (RFC 9457)", "content": problem},
        "5XX": {"description": "Problem details (RFC 9457)", "content": problem},
    }
    if path.startswith("/api/"):
        doc["responses"]["503"] = {"description": _UNAVAILABLE, "content": problem}
        doc["security"] = [{"bearer": []}, {}]
    return doc


_UNAVAILABLE = (
    "Problem details (RFC 9457): the service cannot answer until an operator acts, and the "
    "same request may succeed then. A memory file, scope folder or `agent.json` the request "
    "needs is there but the service cannot read it (no permission, an I/O error: Q-2b; never "
    "answered as a 404 nor a 500), its bearer tokens cannot be read (A-10a), a lock stayed "
    "held, the disk refused a write. The `detail` names the file (never its path), the reason "
    "and what to do."
)


def _version() -> str:
    try:
        return version("agent-memory-api")
    except PackageNotFoundError:  # pragma: no cover - only when run from an unpacked tree
        return "0.0.0"


def build_openapi(app: web.Application) -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of ``app`` as a JSON-ready dict."""
    handlers = {
        (route.method, route.resource.canonical): route.handler
        for route in app.router.routes()
        if route.resource is not None
    }
    paths: dict[str, dict[str, Any]] = {}
    for method, path in documented_routes(app):
        doc = (handlers[(method, path)].__doc__ or "").strip() or None
        paths.setdefault(path, {})[method.lower()] = _operation(method, path, doc)
    _, components = msgspec.json.schema_components(
        _schema_types(), ref_template="#/components/schemas/{name}"
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Agent Memory API",
            "version": _version(),
            "description": _DESCRIPTION,
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Needed under /api/ once any token is configured (A-10).",
                }
            },
        },
    }


_DESCRIPTION = (
    "Markdown notes an AI agent keeps between Sessions, served over HTTP.\n\n"
    "Compatibility: answers may gain fields, and clients ignore fields they do not know (a "
    "service is upgraded before its clients); a request with an unknown field is refused with "
    "422 naming it (`additionalProperties: false`), and a query parameter an operation does not "
    "list, or one given twice, with 400 naming it. A field is never removed or retyped."
)


_documents: weakref.WeakKeyDictionary[web.Application, bytes] = weakref.WeakKeyDictionary()


def openapi_json(app: web.Application) -> bytes:
    """Return :func:`build_openapi` of the serving ``app`` as JSON bytes, built once per app.

    The document depends only on the code and the router, which aiohttp freezes before the
    first request, so it never goes stale and every process builds the same one (Q-4); the
    cache entry goes away with the application.
    """
    document = _documents.get(app)
    if document is None:
        document = _documents[app] = msgspec.json.encode(build_openapi(app))
    return document
