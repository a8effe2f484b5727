"""Bearer-token authentication and the loopback rule (A-10).

- Every path under ``/api/`` needs ``Authorization: Bearer <secret>`` once any token exists
  (in ``MEMORY_API_TOKENS`` or ``<app_data_dir>/tokens/``). Operations endpoints (``/healthz``,
  ``/readyz``, ``/metrics``, ``/openapi.json``) and the web page (``/``, ``/static/…``) do not.
- Tokens are looked up on every request (see :mod:`memory_api.store.tokens`), so a token made
  with ``memory-api token create`` works at once in every process sharing the data dir.
- A route naming a ``{project}`` outside the token's reach answers 404, worded exactly like a
  missing agent, never 403: a token cannot probe which projects or agents exist elsewhere.
- Whether the service listens only on loopback is decided from the addresses its bind host
  resolves to, as the bind resolves it (:mod:`memory_api.http.bind_address`): ``127.0.0.2``,
  ``::1``, ``127.1``, ``ip6-localhost`` or a name in ``/etc/hosts`` for ``127.0.0.1`` are
  loopback; a name that also resolves to another address is not.
- With no token at all the service is open, and :func:`bind_decision` lets it bind only to
  loopback. Should every token be revoked while it listens on another address, the API fails
  closed (401) instead of opening up.
- A service that listens only on loopback is closed to web pages (A-10a,
  :mod:`memory_api.http.browser_guard`), with tokens or without: every request, to any route,
  must be addressed to a loopback name, the name it is bound to, or one in
  ``MEMORY_API_ALLOWED_HOSTS`` (DNS rebinding).
  Open (no token), an unsafe ``/api/`` method from a page must also come from the service's own
  origin (cross-site request forgery). Bound beyond loopback (tokens needed), only the
  ``Sec-Fetch-Site`` rule applies: a reverse proxy may name the service as it likes.
- Tokens that cannot be read never open the door (A-10a): "no token" is concluded only from a
  token folder that is absent or lists no token file, and that no other account could have
  made so (no folder on its way every account may write: :class:`~memory_api.store.tokens.
  KnownTokens`). When none can be read, every ``/api/`` request answers 503 (one log line per
  change of state, by the token store); when some can, a request whose token is not among the
  readable ones answers 503 rather than 401, since its token may be one that cannot be read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from memory_api.appkeys import PRINCIPAL_KEY
from memory_api.bearer import find_token, holds_secret
from memory_api.errors import (
    BadRequest,
    Forbidden,
    NotFound,
    NoTokenConfigured,
    TokenMissing,
    TokenUnknown,
    Unavailable,
)
from memory_api.http.bind_address import BindAddress
from memory_api.http.browser_guard import (
    addressed_to,
    change_made_on_read,
    host_refusal,
    invalid_host_detail,
    origin_refusal,
    unjudged_headers,
)
from memory_api.http.host_header import InvalidHost
from memory_api.principal import LOCAL, Principal
from memory_api.store.history.recorder import clean_value
from memory_api.store.tokens import KnownTokens, TokenStore

__all__ = [
    "BindRefused",
    "auth_middleware",
    "bind_decision",
    "get_principal",
    "refuse_secret_in",
]

API_PREFIX = "/api/"


def refuse_secret_in(field: str, value: str | None) -> None:
    """Raise :class:`BadRequest` when ``value`` (the request's ``field``: ``sessionId``,
    ``harness``, ``tool``) holds a bearer secret of the service's shape (``mem_`` and 43
    URL-safe characters, A-10), as sent or as the history keeps it (control characters dropped,
    :func:`~memory_api.store.history.recorder.clean_value`, before its cut: a secret split by
    one, or straddling the cut, is judged whole). These values are kept in the scope's history
    (a version's ``Session-Id``, its ``author.sessionId``, copied to every machine syncing the
    scope), so a token sent there (a harness given its arguments in the wrong order) would be
    kept for every reader of it. Refused rather than masked: the harness learns its mistake at
    once, and nothing of the secret is kept anywhere, the log included."""
    if value is None:
        return
    if holds_secret(value) or holds_secret(clean_value(value, len(value)) or ""):
        raise BadRequest(
            f"{field} looks like a bearer token (mem_ and 43 characters): it would be kept in "
            "the memory's history, readable by everyone who may read it; send the harness's "
            "own value there and the token only in the Authorization header"
        )


class BindRefused(RuntimeError):
    """Binding was refused: a host beyond loopback without any token (A-10), or a host that
    resolves to no address."""


def bind_decision(
    bind: BindAddress,
    tokens_configured: bool,
    create_command: str = "memory-api token create --name NAME",
) -> str:
    """Decide whether the service may bind ``bind`` (its host resolved:
    :func:`~memory_api.http.bind_address.resolve_bind`); return the line to log at start.

    A host that resolves to no address raises :class:`BindRefused` saying so (the bind would
    fail with the resolver's bare words). With tokens any address is fine. Without tokens the
    API is open, so only a host whose every address is loopback is allowed; anything else
    raises :class:`BindRefused`, naming the addresses beyond loopback and how to fix it.
    ``tokens_configured`` is :attr:`~memory_api.store.tokens.KnownTokens.configured`: tokens
    that cannot be read count as tokens (A-10a). ``create_command`` is the command the refusal
    names for making a token, as the user can paste it (serve gives its data dir and program).
    """
    if bind.unresolved is not None:
        raise BindRefused(
            f"cannot bind {bind.host!r}: it resolves to no address ({bind.unresolved}); set "
            "MEMORY_API_HOST (or serve --host) to an address (127.0.0.1, ::1) or a name this "
            "machine resolves (/etc/hosts)"
        )
    if tokens_configured:
        return f"bearer tokens configured: /api/ needs a token; binding {bind.said()}"
    if bind.loopback_only:
        return (
            f"no bearer token configured: the API is open to local callers, "
            f"so it binds to loopback only ({bind.said()})"
        )
    beyond = ", ".join(str(address) for address in bind.beyond_loopback)
    raise BindRefused(
        f"refusing to bind {bind.said()}: {beyond} is not loopback and no bearer token is "
        "configured, so the API would be open to the network; bind a loopback address "
        f"(MEMORY_API_HOST=127.0.0.1) or create a token (`{create_command}`, or MEMORY_API_TOKENS)"
    )


def get_principal(request: web.Request) -> Principal:
    """Return the caller of an ``/api/`` request (set by :func:`auth_middleware`)."""
    return request[PRINCIPAL_KEY]


_UNREADABLE = (
    "the service's bearer tokens cannot be read ({summary}), so it cannot tell whether this "
    "request may pass and refuses it until they can be read; an operator must fix the token "
    "folder of the data dir (the service's log names the cause)"
)


def _principal(known: KnownTokens, request: web.Request, open_without_tokens: bool) -> Principal:
    """The caller of ``request`` given the tokens now known; raises a
    :class:`~memory_api.errors.Unauthorized` (401: ``TokenMissing``, ``TokenUnknown``,
    ``NoTokenConfigured``, each its problem ``type``) or
    :class:`~memory_api.errors.Unavailable` (503, tokens that cannot be read, A-10a).

    No token at all: :data:`LOCAL` when the service listens on loopback (``open_without_tokens``),
    else 401 — should every token be revoked while it listens on a public address, it fails
    closed instead of opening up. Otherwise the ``Authorization: Bearer`` secret must match one;
    several ``Authorization`` headers are a :class:`~memory_api.errors.BadRequest` (400), never
    the first or the last of them.
    """
    if not known.entries:
        if known.unreadable is not None:
            raise Unavailable(_UNREADABLE.format(summary=known.summary))
        if open_without_tokens:
            return LOCAL
        raise NoTokenConfigured(
            "no bearer token is configured and this service listens beyond loopback, so it "
            "answers no API request until a token is created"
        )
    sent = request.headers.getall("Authorization", ())
    if len(sent) > 1:  # which one counts is a guess a proxy in front may guess otherwise
        raise BadRequest(
            f"the request carries {len(sent)} Authorization headers; send exactly one "
            "('Authorization: Bearer <token>')"
        )
    scheme, _, secret = (sent[0] if sent else "").partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise TokenMissing(
            "this service needs a bearer token: send 'Authorization: Bearer <token>'"
        )
    entry = find_token(known.entries, secret.strip())
    if entry is None:
        if known.unreadable is not None:  # it may be one of those that cannot be read
            raise Unavailable(_UNREADABLE.format(summary=known.summary))
        raise TokenUnknown("the bearer token is not known to this service (revoked or mistyped)")
    return Principal(name=entry.name, projects=entry.projects)


def _check_host_rule(
    request: web.Request, allowed_hosts: frozenset[str], loopback_only: bool
) -> None:
    """Apply the ``Host`` rule of :mod:`~memory_api.http.browser_guard` (DNS rebinding, A-10a)
    to a request to a service listening only on loopback (``loopback_only``) or held to
    ``MEMORY_API_ALLOWED_HOSTS``, whatever its route; raises :class:`Forbidden` (403) for a
    name neither loopback nor in ``allowed_hosts``, or :class:`BadRequest` (400) for a
    ``Host`` that is no host at all."""
    host = addressed_to(request.raw_path, request.headers.get("Host"))
    try:
        refusal = host_refusal(host, allowed_hosts, loopback_only=loopback_only)
    except InvalidHost as error:
        detail = invalid_host_detail(host or "", error, loopback_only=loopback_only)
        raise BadRequest(detail) from None
    if refusal is not None:
        raise Forbidden(refusal)


def _check_origin_rules(request: web.Request, open_mode: bool) -> None:
    """Apply the ``Origin`` and ``Sec-Fetch-Site`` rules of
    :mod:`~memory_api.http.browser_guard` to an ``/api/`` request; raises :class:`Forbidden`,
    or :class:`BadRequest` for an unsafe request carrying either header twice or a
    ``Sec-Fetch-Site`` no browser sends (:func:`unjudged_headers`).

    ``open_mode``: no token at all, on loopback: the ``Origin`` rule on every unsafe request.
    Always: the ``Sec-Fetch-Site`` rule on unsafe ones. A ``GET`` whose route changes
    something (:func:`~memory_api.http.browser_guard.changes_on_read`) is judged as unsafe.
    """
    headers = request.headers
    changes = change_made_on_read(request.match_info.handler)
    unjudged = unjudged_headers(
        request.method,
        headers.getall("Origin", ()),
        headers.getall("Sec-Fetch-Site", ()),
        changes=changes is not None,
    )
    if unjudged is not None:
        raise BadRequest(unjudged)
    host = addressed_to(request.raw_path, headers.get("Host"))
    refusal = origin_refusal(
        request.method,
        host,
        headers.get("Origin"),
        headers.get("Sec-Fetch-Site"),
        check_origin=open_mode,
        changes=changes,
        referer=headers.get("Referer"),
    )
    if refusal is not None:
        raise Forbidden(refusal)


def auth_middleware(
    tokens: TokenStore, bind: BindAddress, allowed_hosts: Collection[str] = ()
) -> Middleware:
    """Return the middleware that authenticates ``/api/`` requests against ``tokens``, applies
    the browser rules (A-10a) and hides projects outside the caller's reach (404, worded like
    a missing agent or project).

    ``bind`` is the host the service listens on, resolved once at start
    (:func:`~memory_api.http.bind_address.resolve_bind`). When every address it binds is
    loopback only this machine reaches the service, so every request, to any route (the page,
    ``/static/``, ``/healthz`` included) and with or without tokens, must be addressed to a
    loopback name, to the bind host's own name (``ip6-localhost``, a name in ``/etc/hosts``:
    what a browser sends for it) or to one in ``allowed_hosts`` (``MEMORY_API_ALLOWED_HOSTS``):
    403 otherwise (DNS rebinding, A-10a); and without any token the API is open. Bound beyond
    loopback (``0.0.0.0``, ``::``, a public address, a name resolving to one, a name that does
    not resolve: tokens needed) any ``Host`` is answered, as a reverse proxy or a probe may name
    the service as it likes, unless ``allowed_hosts`` names some: then the same ``Host`` rule
    holds (a container bound to ``0.0.0.0`` and published on the host's loopback, which the
    user's browser reaches as a service on loopback: docker-compose.yml). The tokens are
    looked at on every request (one ``stat`` of their
    folder, one of each folder above it, and one per token file), so a token created by another
    process works at once. The web page and the operations endpoints need no token.
    """
    loopback_only = bind.loopback_only
    host_rule = loopback_only or bool(allowed_hosts)  # a container published on loopback
    allowed = frozenset(allowed_hosts) | ({bind.name} if bind.name else set())

    @web.middleware
    async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
        if host_rule:
            _check_host_rule(request, allowed, loopback_only)
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        # A handful of unchanged token files: a stat each, answered on the event loop (a thread
        # hop per request cost more than the scan); otherwise in a worker thread.
        known = tokens.known() if tokens.cheap else await asyncio.to_thread(tokens.known)
        _check_origin_rules(request, loopback_only and not known.configured)
        principal = _principal(known, request, loopback_only)
        request[PRINCIPAL_KEY] = principal
        project = request.match_info.get("project")
        if project is not None and not principal.reaches(project):
            agent = request.match_info.get("agent")
            if agent is not None:
                raise NotFound(f"no agent {agent!r} in project {project!r}")
            raise NotFound(f"no project {project!r}")
        return await handler(request)

    return authenticate
