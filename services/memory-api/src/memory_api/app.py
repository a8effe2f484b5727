"""``create_app(settings)``: the one place where the service is wired together.

Fixed order: settings and stores under typed keys, resources through ``cleanup_ctx``, the routes
of every module, the middlewares (outermost first: metrics, problem details, authentication),
then the web page (``GET /`` and ``/static/``) with a few security headers on every response.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path, PurePosixPath

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.web_request import BaseRequest
from multidict import CIMultiDict

from memory_api.appkeys import (
    AGENT_STORE_KEY,
    DRAFT_STORE_KEY,
    HISTORY_STORE_KEY,
    MEMORY_STORE_KEY,
    METRICS_KEY,
    SETTINGS_KEY,
    SYNC_STORE_KEY,
    TOKEN_STORE_KEY,
    UNICODE_AT_START_KEY,
    get_draft_store,
    get_settings,
)
from memory_api.data_dir_moves import prompts_follow_the_data_dir
from memory_api.http.auth import auth_middleware
from memory_api.http.bind_address import BindAddress, resolve_bind
from memory_api.http.connections import (
    ConnectionCap,
    ConnectionLimits,
    PerClient,
    quiet_accept_errors,
)
from memory_api.http.expect import REQUEST_GATES_KEY, expect_handler, install_expect_refusals
from memory_api.http.logs import install_parser_refusal_filter
from memory_api.http.metrics import Metrics, metrics_middleware
from memory_api.http.parser_errors import ProblemRequestHandler, install_parser_problems
from memory_api.http.problems import problem_middleware
from memory_api.http.query_names import query_names_middleware
from memory_api.http.transfer_coding import transfer_coding_middleware
from memory_api.http.url_text import url_text_middleware
from memory_api.page_unicode import MODULE_PATH, RenderAtStart, unicode_classes_module
from memory_api.routes import agents, config, drafts, git_sync, history, memory, ops, projects
from memory_api.settings import Settings
from memory_api.store.containment import without_descriptor_paths
from memory_api.store.history.git import git_available
from memory_api.stores import build_stores, prepare_data_dir

__all__ = ["STATIC_DIR", "create_app"]

logger = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
SWEEP_INTERVAL_MAX = 300.0
"""Seconds between two sweeps of expired drafts at most (less when drafts live shorter)."""


async def _data_dirs(app: web.Application) -> AsyncIterator[None]:
    """Create the data dir's folders at start; a failure is logged and shows in ``/readyz``."""
    data_dir = get_settings(app).data_dir
    try:
        await asyncio.to_thread(prepare_data_dir, data_dir)
    except OSError as error:
        logger.error("cannot prepare the data dir %s: %s", data_dir, error)
    if (linked := await asyncio.to_thread(app[AGENT_STORE_KEY].agents_linked)) is not None:
        logger.error("%s (in %s)", linked, data_dir)  # every agent route answers 503
    await prompts_follow_the_data_dir(app[AGENT_STORE_KEY], data_dir)
    if (without := without_descriptor_paths()) is not None:
        logger.error("%s", without)
    if get_settings(app).history and not git_available():
        logger.error(
            "git is not installed: no history can be kept, and deletes are refused (503) "
            "rather than made final; install git, or set MEMORY_API_HISTORY=off"
        )
    yield
    await app[HISTORY_STORE_KEY].close()  # records of Session starts still pending finish
    await asyncio.to_thread(app[AGENT_STORE_KEY].locks.close)  # a delete under way finishes
    app[MEMORY_STORE_KEY].feed.close()
    logger.info("stopped serving the data dir %s", data_dir)


async def _sweep_drafts(app: web.Application) -> AsyncIterator[None]:
    """Remove expired drafts now and then while the app runs (A-12)."""
    store = get_draft_store(app)
    interval = min(store.ttl, SWEEP_INTERVAL_MAX)

    async def sweep_forever() -> None:
        while True:
            try:
                await store.sweep()
            except OSError as error:
                logger.warning("sweeping expired drafts failed: %s", error)
            await asyncio.sleep(interval)

    task = asyncio.create_task(sweep_forever())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent with every response: no MIME sniffing, no framing, no referrer leaks, a response
that is not the page (an API answer, a file of the page opened on its own) runs and loads
nothing, even if a browser were led to show it as a document, and no answer is handed to a
page of another origin that embeds it without asking (``<script src>``, ``<img>``: a
no-cors load, which no CORS check guards; A-10a)."""

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""The web page's Content-Security-Policy, sent as a header: its ``<meta>`` policy (which a
browser applies only once that tag is parsed, and which cannot hold ``frame-ancestors``) plus
no framing by any page and no form submitted anywhere (the page's forms are dialogs)."""


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


class _WholeFile(web.FileResponse):
    """A file of the web page, always whole (200): a ``Range`` header is ignored, as RFC 9110
    lets a server do (14.2). The page's files are small and nothing of the page asks for a
    part; aiohttp would answer a ``Range`` it cannot parse with an empty octet-stream 416."""

    async def prepare(self, request: BaseRequest) -> AbstractStreamWriter | None:
        if "Range" in request.headers and not self.prepared:
            headers = CIMultiDict(request.headers)
            headers.popall("Range")
            request = request.clone(headers=headers)
        return await super().prepare(request)


async def _index(request: web.Request) -> web.FileResponse:
    """The web page (W-1 … W-5)."""
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return _WholeFile(STATIC_DIR / "index.html", headers=headers)


async def _static(request: web.Request) -> web.FileResponse:
    """A file of the web page under ``/static/``; anything else is a problem+json 404.

    aiohttp's own static route answers a missing file with an empty ``application/octet-stream``
    404 produced after every middleware has run; here the check comes first, so a missing file,
    a folder, a dotfile, a path out of ``static/`` or a name too long for any file system is an
    ordinary ``HTTPNotFound`` (never the data dir's 503: the page's files are not the data dir).
    Served whole, whatever ``Range`` asks (:class:`_WholeFile`).
    """
    name = request.match_info["name"]
    if "\x00" in name or any(part.startswith(".") for part in PurePosixPath(name).parts):
        raise web.HTTPNotFound()
    root = STATIC_DIR.resolve()
    try:
        path = (root / name).resolve()
        found = path.is_relative_to(root) and path.is_file()
    except OSError:  # a name no file system holds (a part past 255 bytes, a path past 4096)
        found = False
    if not found:
        raise web.HTTPNotFound()
    return _WholeFile(path)


async def _unicode_classes(request: web.Request) -> web.Response:
    """The page's module of the service's Unicode character classes (I-9, W-5:
    :mod:`memory_api.page_unicode`), rendered in a worker thread as the service starts (a
    request meanwhile waits for that rendering); a 304 to a request whose ``If-None-Match``
    names its ETag (a reload of the page, as for its files)."""
    module = await asyncio.to_thread(unicode_classes_module)
    headers = {"Cache-Control": "no-cache", "ETag": module.etag}
    named = {tag.value for tag in request.if_none_match or ()}
    if named & {module.etag.strip('"'), "*"}:
        return web.Response(status=304, headers=headers)
    return web.Response(
        body=module.body, content_type="text/javascript", charset="utf-8", headers=headers
    )


async def _cap_connections(app: web.Application) -> None:
    """Admit at most :func:`~memory_api.http.connections.cap_for` of the open-file limit as
    connections, and log a failing ``accept()`` once per episode (Q-2c); hold each client to
    its cap and each request's head and each idle connection to their deadlines, as the
    settings say (:class:`~memory_api.http.connections.ConnectionLimits`)."""
    settings = app[SETTINGS_KEY]
    cap = ConnectionCap()
    ProblemRequestHandler.cap = cap
    ProblemRequestHandler.limits = ConnectionLimits(
        per_client=settings.max_connections_per_client,
        header_s=settings.header_timeout,
        idle_s=settings.idle_timeout,
    )
    ProblemRequestHandler.per_client = PerClient(settings.max_connections_per_client)
    quiet_accept_errors(asyncio.get_running_loop(), cap)


def create_app(settings: Settings, bind: BindAddress | None = None) -> web.Application:
    """Build the service for ``settings``; nothing touches the disk until the app starts.

    ``bind`` is ``settings.host`` resolved (:func:`~memory_api.http.bind_address.resolve_bind`)
    as ``memory-api serve`` judged and binds it; resolved here when not given (tests). The Host
    rule is decided from it (A-10a), so it must be the resolution the listener binds: a name
    resolved again may answer otherwise.
    """
    app = web.Application(client_max_size=settings.max_body)
    install_parser_refusal_filter()  # a refused request's bytes never reach a log
    install_parser_problems(SECURITY_HEADERS)  # and its answer is problem+json, never them
    install_expect_refusals()  # no 100 Continue for a request that no route takes

    app[SETTINGS_KEY] = settings
    stores = build_stores(settings)
    app[AGENT_STORE_KEY] = stores.agents
    app[MEMORY_STORE_KEY] = stores.memory
    app[TOKEN_STORE_KEY] = stores.tokens
    app[DRAFT_STORE_KEY] = stores.drafts
    app[HISTORY_STORE_KEY] = stores.history
    app[SYNC_STORE_KEY] = stores.sync
    metrics = Metrics()
    app[METRICS_KEY] = metrics

    app.on_startup.append(_cap_connections)
    app[UNICODE_AT_START_KEY] = RenderAtStart()  # W-5: the first page load finds it made
    app.cleanup_ctx.append(app[UNICODE_AT_START_KEY])
    app.cleanup_ctx.append(_data_dirs)
    app.cleanup_ctx.append(_sweep_drafts)

    # memory first: its Session start is the first route aiohttp tries under /api/projects
    for module in (ops, memory, history, git_sync, projects, agents, config, drafts):
        _add_routes(app, module.routes)

    gates = (
        transfer_coding_middleware,
        url_text_middleware,
        auth_middleware(stores.tokens, bind or resolve_bind(settings.host), settings.allowed_hosts),
        query_names_middleware,
    )
    app[REQUEST_GATES_KEY] = gates  # asked before 100 Continue too (http/expect.py)
    app.middlewares.extend([metrics_middleware(metrics), problem_middleware, *gates])

    app.on_response_prepare.append(_security_headers)
    app.router.add_get("/", _index, expect_handler=expect_handler())
    app.router.add_get(MODULE_PATH, _unicode_classes, expect_handler=expect_handler())
    app.router.add_get("/static/{name:.+}", _static, expect_handler=expect_handler())
    return app


def _add_routes(app: web.Application, table: web.RouteTableDef) -> None:
    """Add the routes of ``table``, each answering ``Expect: 100-continue`` as its body limit
    says (:mod:`memory_api.http.expect`) unless it names its own ``expect_handler``."""
    for route in table:
        if not isinstance(route, web.RouteDef):
            raise TypeError(f"only plain routes are served here, not {route!r}")
        kwargs = {"expect_handler": expect_handler(), **route.kwargs}
        web.RouteDef(route.method, route.path, route.handler, kwargs).register(app.router)
