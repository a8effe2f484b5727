"""What a web page in the user's browser may make the service do (A-10a).

A service without tokens is open to whoever can reach its loopback port, and that includes
every web page the user opens: the browser is on the same machine. Two attacks follow, and the
rules here close them the way careful local developer servers do (Vite's ``allowedHosts``,
Jupyter's Origin check):

- **DNS rebinding.** A page of ``evil.example`` makes its own name resolve to ``127.0.0.1``; to
  the browser the service is then that page's own origin, and it may read every answer. Such a
  request names the attacker's name in ``Host``. Rule: a service that listens only on loopback
  (every address its bind host resolves to is loopback: :mod:`memory_api.http.bind_address`),
  with or without tokens, answers a request on any route (the page, ``/static/``, ``/api/``,
  the operations endpoints) only when it is addressed to a loopback name (:func:`host_refusal`):
  ``localhost``, ``*.localhost``, a loopback address (``127.0.0.0/8``, ``[::1]``), the bind
  host's own name (``ip6-localhost``, a name in ``/etc/hosts``: what a browser sends for the
  address the operator gave), any port, or a name the operator lists in
  ``MEMORY_API_ALLOWED_HOSTS``; 403 otherwise. Only this machine can reach such a service, so
  another name comes from a rebinding page or from a proxy on this machine passing on a public
  name, which the operator allows by listing it. A name is matched whole, in any case and with
  or without one final dot (``LOCALHOST.``), never as a prefix (``localhost.evil.example``);
  headers that a proxy may add (``X-Forwarded-Host``, ``Forwarded``) are never read, and a
  second ``Host`` header is refused (400) by aiohttp's parser before any rule. With tokens
  too: a rebound page would otherwise show the real page under the attacker's origin, and a
  token typed there and remembered would sit in that origin's ``localStorage``, for the
  attacker's own page to read once the name is turned back. A ``Host`` that is no
  ``host[:port]`` at all (``evil.example#.localhost``, ``u@localhost``, ``127.1``,
  ``[::1%25lo]``: :mod:`memory_api.http.host_header`) is never guessed at: 400, saying why.
  A request whose target is in absolute form (``GET http://evil.example/api/… HTTP/1.1``) is
  addressed to that target's host, whatever ``Host`` says (RFC 9112 3.2.2; aiohttp reads it so
  too): :func:`addressed_to`.
- **Cross-site request forgery.** A page of any origin may send a form POST or a ``fetch``
  with a ``text/plain`` body without asking the server first (no CORS preflight); it cannot
  read the answer, but the change is made. Rules (:func:`origin_refusal`), on every method but
  ``GET``, ``HEAD`` and ``OPTIONS``: the browser's ``Sec-Fetch-Site`` must not say
  ``cross-site`` or ``same-site``; without tokens an ``Origin`` must be the service's own
  (``http(s)://`` and the ``Host`` the request names; ``null`` never is). And a JSON body must
  say it is JSON (``Content-Type: application/json``, 415 otherwise: see
  :func:`memory_api.http.jsonio.read_json`), which no form and no preflight-free ``fetch`` can.
  A ``GET`` that changes something (:func:`changes_on_read`: git's ref advertisement for a
  fetch records what is on disk as a version first) is judged by these rules as an unsafe
  method is: a page may send it with ``<img src>`` or a ``no-cors`` fetch, no preflight asked.
  Such a ``GET`` carries no ``Origin``, and a browser without Fetch Metadata no
  ``Sec-Fetch-Site`` either, only the page's address in ``Referer``: without tokens a
  ``Referer`` whose origin is not the service's own is refused on it too.

A client that is not a browser (the CLI, the harness plugin, ``curl``) sends no ``Origin`` and
no ``Sec-Fetch-Site`` and is not affected; the service's own page sends its own origin.

With tokens the API needs ``Authorization: Bearer``, which a page of another origin can neither
know nor send without a preflight the service never grants, so a service bound beyond loopback
does not check ``Host`` (a reverse proxy may name any host), and no service with tokens checks
``Origin`` (a proxy may rewrite ``Host`` or end TLS, so the page's origin need not match it);
``Sec-Fetch-Site`` still refuses cross-site unsafe requests, defence in depth that no proxy
changes.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from yarl import URL

from memory_api.http.host_header import HostHeader, InvalidHost, read_host

__all__ = [
    "SAFE_METHODS",
    "addressed_to",
    "change_made_on_read",
    "changes_on_read",
    "host_refusal",
    "invalid_host_detail",
    "is_loopback_host",
    "origin_refusal",
    "unjudged_headers",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing (RFC 9110 9.2.1); every other one is checked for its origin."""
_FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})
FETCH_SITES = frozenset({"same-origin", "same-site", "cross-site", "none"})
"""The values a browser sends in ``Sec-Fetch-Site`` (Fetch Metadata), one per request."""
_SHOWN = 100
"""Characters of a client's header value quoted in a refusal at most."""


Handler = TypeVar("Handler", bound=Callable[..., Any])
_CHANGES_ON_READ: dict[Callable[..., Any], str] = {}


def changes_on_read(why: str) -> Callable[[Handler], Handler]:
    """Mark a route handler of a safe method (``GET``) that changes something all the same, so
    the browser rules judge its requests as a change (:func:`origin_refusal`); ``why`` says
    what it changes, a clause for the refusal (``"a fetch's ref advertisement records …"``)."""

    def mark(handler: Handler) -> Handler:
        _CHANGES_ON_READ[handler] = why
        return handler

    return mark


def change_made_on_read(handler: object) -> str | None:
    """What ``handler`` changes though its method is safe (:func:`changes_on_read`); None:
    nothing."""
    return _CHANGES_ON_READ.get(handler) if callable(handler) else None


def _referer_origin(referer: str) -> str:
    """The ``scheme://host[:port]`` of a ``Referer``, lower case; ``""`` when it names none
    (not an absolute ``http(s)`` URL), which is never the service's own origin."""
    try:
        url = URL(referer.strip())
    except (ValueError, TypeError):
        return ""
    if url.scheme.lower() not in ("http", "https") or not url.raw_authority:
        return ""
    authority = url.raw_authority.rpartition("@")[2]
    return f"{url.scheme}://{authority}".lower()


def _shown(value: str) -> str:
    return repr(value if len(value) <= _SHOWN else value[:_SHOWN] + "…")


def is_loopback_host(host: HostHeader) -> bool:
    """Whether a ``Host`` read by :func:`~memory_api.http.host_header.read_host` always means
    this machine: ``localhost``, a ``.localhost`` name (RFC 6761) or a loopback address
    (``127.0.0.0/8``, ``::1``, ``::ffff:127.0.0.0/104``).

    >>> [is_loopback_host(read_host(h)) for h in ("localhost", "app.localhost", "[::1]:80")]
    [True, True, True]
    >>> is_loopback_host(read_host("localhost.evil.example"))
    False
    """
    address = host.address
    if address is None:
        return host.name == "localhost" or host.name.endswith(".localhost")
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def addressed_to(target: str, host: str | None) -> str | None:
    """The ``host[:port]`` a request with the request target ``target`` (as sent) and the
    ``Host`` header ``host`` is addressed to (RFC 9112 3.2.2): an absolute-form target's
    authority (``http://evil.example/api/…``: ``evil.example``; user information kept, for
    :func:`host_refusal` to refuse), which takes the place of ``Host``; else ``host`` (None
    when there is none): for a path, for ``*`` (``OPTIONS *``) and for the authority form of
    ``CONNECT`` (``127.0.0.1:22``: where a tunnel would lead, not this service), as aiohttp's
    parser reads the forms.

    >>> addressed_to("http://evil.example:80/api/x", "localhost"), addressed_to("/api/x", "h")
    ('evil.example:80', 'h')
    >>> addressed_to("127.0.0.1:22", "localhost"), addressed_to("*", "localhost")
    ('localhost', 'localhost')
    """
    if target.startswith("/") or not target.partition(":")[2].startswith("//"):
        return host
    return URL(target).raw_authority


_WHY_LOOPBACK = "this service listens only on loopback, so it"
_WHY_LISTED = "this service is held to the names in MEMORY_API_ALLOWED_HOSTS, so it"


def host_refusal(
    host: str | None, allowed: Collection[str], *, loopback_only: bool = True
) -> str | None:
    """Why a request to a service held to the Host rule is refused for its ``Host`` (403);
    None: it passes. Raises :class:`~memory_api.http.host_header.InvalidHost` (400) for a
    ``Host`` that is no ``host[:port]`` at all (``evil.example#.localhost``, ``127.1``,
    ``[::1%25lo]``).

    ``allowed`` holds the extra names (lower-case, no port): ``MEMORY_API_ALLOWED_HOSTS`` and
    the bind host's own name. ``loopback_only``: the service listens only on loopback (else it
    is held to the rule by ``MEMORY_API_ALLOWED_HOSTS``: a container published on the host's
    loopback), which the refusal says. A request without ``Host`` (HTTP/1.0) comes from no
    browser and passes.
    """
    if host is None:
        return None
    read = read_host(host)
    if is_loopback_host(read) or read.name in allowed:
        return None
    return (
        f"{_WHY_LOOPBACK if loopback_only else _WHY_LISTED} answers only requests addressed "
        f"to a loopback name (localhost, 127.0.0.1, [::1]), the name it is bound to, or one in "
        f"MEMORY_API_ALLOWED_HOSTS; "
        f"this one was addressed to {_shown(host)} (Host rule: a page using DNS rebinding, or "
        f"a name the operator has not allowed: a reverse proxy on this machine must pass a "
        f"loopback Host or its name be listed in MEMORY_API_ALLOWED_HOSTS)"
    )


def invalid_host_detail(host: str, error: InvalidHost, *, loopback_only: bool = True) -> str:
    """The problem ``detail`` of a ``Host`` that :func:`host_refusal` could not read (400)."""
    return (
        f"the Host header {_shown(host)} is not a host name or address with an optional port "
        f"(RFC 9110 7.2): {error}; {_WHY_LOOPBACK if loopback_only else _WHY_LISTED} answers "
        f"only requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or a name "
        f"it allows, and a port"
    )


def unjudged_headers(
    method: str, origins: Sequence[str], fetch_sites: Sequence[str], *, changes: bool = False
) -> str | None:
    """Why an unsafe request's ``Origin`` or ``Sec-Fetch-Site`` headers cannot be judged by
    :func:`origin_refusal` (a 400); None: they can (or the method is safe and the request
    changes nothing: ``changes`` false, see :func:`changes_on_read`).

    ``origins`` and ``fetch_sites`` are every line of those headers as sent. A browser sends
    each at most once, and ``Sec-Fetch-Site`` as one of :data:`FETCH_SITES`; the rules read one
    value, so two lines (``Origin: <own>`` then ``Origin: http://evil.example``) or a list on
    one line (``Sec-Fetch-Site: same-origin, cross-site``, as a proxy may merge two lines, RFC
    9110 5.3) were judged by their first value alone, which another reader may take otherwise.

    >>> unjudged_headers("POST", ["http://a", "http://b"], [])
    'a POST carries 2 Origin headers; a browser sends one (Origin rule): send at most one'
    >>> unjudged_headers("GET", ["http://a", "http://b"], []) is None
    True
    """
    if method in SAFE_METHODS and not changes:
        return None
    for name, lines in (("Origin", origins), ("Sec-Fetch-Site", fetch_sites)):
        if len(lines) > 1:
            return (
                f"a {method} carries {len(lines)} {name} headers; a browser sends one "
                f"({'Origin' if name == 'Origin' else 'cross-site request'} rule): "
                "send at most one"
            )
    if fetch_sites and fetch_sites[0].strip().lower() not in FETCH_SITES:
        return (
            f"a {method} carries Sec-Fetch-Site: {_shown(fetch_sites[0])}, which no browser "
            f"sends (one of {', '.join(sorted(FETCH_SITES))}; cross-site request rule): "
            "send one of those, or none"
        )
    return None


def origin_refusal(
    method: str,
    host: str | None,
    origin: str | None,
    fetch_site: str | None,
    *,
    check_origin: bool,
    changes: str | None = None,
    referer: str | None = None,
) -> str | None:
    """Why an unsafe request is refused for where it comes from; None: it passes (A-10a).

    ``host``, ``origin``, ``fetch_site`` and ``referer`` are the ``Host``, ``Origin``,
    ``Sec-Fetch-Site`` and ``Referer`` headers. Safe methods pass unless ``changes`` says what
    the request changes all the same (:func:`changes_on_read`). ``check_origin``: the service
    has no token, so an ``Origin`` must be its own (``http://`` or ``https://`` and ``host``);
    and on a safe method that changes something, so must the origin of a ``Referer``: a browser
    without Fetch Metadata sends no ``Origin`` with an ``<img src>`` but the page's address
    there, and git sends neither.

    >>> origin_refusal("GET", "127.0.0.1:8080", None, None, check_origin=True,
    ...                changes="it records", referer="http://127.0.0.1:8080/?scope=user") is None
    True
    >>> origin_refusal("GET", "127.0.0.1:8080", None, None, check_origin=True,
    ...                changes="it records", referer="http://evil.example/")[-14:]
    '(Referer rule)'
    """
    if method in SAFE_METHODS and changes is None:
        return None
    why = "" if changes is None else f"{changes}, and "
    if fetch_site is not None and fetch_site.strip().lower() in _FOREIGN_FETCH_SITES:
        return (
            f"a {method} sent by a web page of another site is refused (Sec-Fetch-Site: "
            f"{_shown(fetch_site)}): {why}this service takes changes from its own page and "
            f"from clients that are not browsers (cross-site request rule)"
        )
    if not check_origin:
        return None
    if origin is not None:
        sent, shown, rule = origin.strip().lower(), _shown(origin), "Origin"
    elif changes is not None and referer is not None:
        sent, shown, rule = _referer_origin(referer), f"Referer: {_shown(referer)}", "Referer"
    else:
        return None
    own = None if host is None else host.strip().lower()
    if own and sent in (f"http://{own}", f"https://{own}"):
        return None
    return (
        f"a {method} from a web page of another origin ({shown}) is refused: {why}this "
        f"service has no bearer token and takes changes only from its own page "
        f"(http://{own or '…'}) and from clients that are not browsers ({rule} rule)"
    )
