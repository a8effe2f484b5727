"""Bearer-token authentication and the loopback rule (A-10).

- Every path under ``/api/`` needs ``Authorization: Bearer <secret>`` once any token exists
  (in ``MEMORY_API_TOKENS`` or ``<app_data_dir>/tokens/``). Operations endpoints (``/healthz``,
  ``/readyz``, ``/metrics``, ``/openapi.json``) and the web page (``/``, ``/static/…``) do not.
- Tokens are looked up on every request (see :mod:`memory_api.store.tokens`), so a token made
  with ``memory-api token create`` works at once in every process sharing the data dir.
- A route naming a ``{project}`` outside the token's reach answers 404, worded exactly like a
  missing agent, never 403: a token cannot probe which projects or agents exist elsewhere.
- With no token at all the service is open, and :func:`bind_decision` lets it bind only to a
  loopback address. Should every token be revoked while it listens on another address, the API
  fails closed (401) instead of opening up.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from memory_api.appkeys import PRINCIPAL_KEY
from memory_api.bearer import TokenEntry, find_token
from memory_api.errors import NotFound, Unauthorized
from memory_api.principal import LOCAL, Principal
from memory_api.store.tokens import TokenStore

__all__ = ["BindRefused", "auth_middleware", "bind_decision", "get_principal", "is_loopback"]

API_PREFIX = "/api/"


class BindRefused(RuntimeError):
    """Binding a non-loopback address was refused because no token is configured (A-10)."""


@functools.lru_cache(maxsize=64)
def is_loopback(host: str) -> bool:
    """Tell whether ``host`` is ``localhost`` or a loopback IP (``127.0.0.0/8``, ``::1``).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.strip().lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def bind_decision(host: str, tokens_configured: bool) -> str:
    """Decide whether the service may bind ``host``; return the line to log at start.

    With tokens any address is fine. Without tokens the API is open, so only a loopback address
    is allowed; anything else raises :class:`BindRefused` with a message saying how to fix it.
    """
    if tokens_configured:
        return f"bearer tokens configured: /api/ needs a token; binding {host}"
    if is_loopback(host):
        return (
            f"no bearer token configured: the API is open to local callers, "
            f"so it binds to loopback only ({host})"
        )
    raise BindRefused(
        f"refusing to bind {host}: no bearer token is configured, so the API would be open to "
        "the network; bind a loopback address (MEMORY_API_HOST=127.0.0.1) or create a token "
        "(memory-api token create --name NAME, or MEMORY_API_TOKENS)"
    )


def get_principal(request: web.Request) -> Principal:
    """Return the caller of an ``/api/`` request (set by :func:`auth_middleware`)."""
    return request[PRINCIPAL_KEY]


def _principal(
    entries: tuple[TokenEntry, ...], request: web.Request, open_without_tokens: bool
) -> Principal:
    """The caller of ``request`` given every token now known; raises :class:`Unauthorized`.

    No token at all: :data:`LOCAL` when the service listens on loopback (``open_without_tokens``),
    else 401 — should every token be revoked while it listens on a public address, it fails
    closed instead of opening up. Otherwise the ``Authorization: Bearer`` secret must match one.
    """
    if not entries:
        if open_without_tokens:
            return LOCAL
        raise Unauthorized(
            "no bearer token is configured and this service listens beyond loopback, so it "
            "answers no API request until a token is created"
        )
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthorized(
            "this service needs a bearer token: send 'Authorization: Bearer <token>'"
        )
    entry = find_token(entries, secret.strip())
    if entry is None:
        raise Unauthorized("the bearer token is not known to this service (revoked or mistyped)")
    return Principal(name=entry.name, projects=entry.projects)


def auth_middleware(tokens: TokenStore, host: str) -> Middleware:
    """Return the middleware that authenticates ``/api/`` requests against ``tokens`` and hides
    projects outside the caller's reach (404, worded like a missing agent or project).

    ``host`` is the address the service listens on (decided once: without any token the API is
    open only on loopback). The tokens are looked at on every request (one ``stat`` of their
    folder, and one per token file), so a token created by another process works at once.
    """
    open_without_tokens = is_loopback(host)

    @web.middleware
    async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        # A handful of unchanged token files: a stat each, answered on the event loop (a thread
        # hop per request cost more than the scan); otherwise in a worker thread.
        entries = tokens.entries() if tokens.cheap else await asyncio.to_thread(tokens.entries)
        principal = _principal(entries, request, open_without_tokens)
        request[PRINCIPAL_KEY] = principal
        project = request.match_info.get("project")
        if project is not None and not principal.reaches(project):
            agent = request.match_info.get("agent")
            if agent is not None:
                raise NotFound(f"no agent {agent!r} in project {project!r}")
            raise NotFound(f"no project {project!r}")
        return await handler(request)

    return authenticate
