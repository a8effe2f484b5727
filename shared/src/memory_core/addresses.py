"""A service URL's host as a browser writes it, so the ``Host`` a client sends passes the
service's Host rule (A-10a).

The service answers only a ``Host`` that is a name or an address in its usual form (four decimal
numbers, or a bracketed IPv6 address): a client that connected to ``http://127.1:8765`` and sent
``Host: 127.1:8765`` as spelt was refused (400), and took the service for absent. A browser and
curl write ``127.1`` as ``127.0.0.1`` before they send it; the project's own clients
(``memory-api --url``, the plugin's hooks and install) do the same with :func:`usual_host`.

Both clients judge a service URL by one rule, :func:`url_secret` (A-10): a URL holding a user
name or password, a query or fragment, or a path segment that looks like a key standing alone
is refused, and shown only as :func:`shown_url` writes it, those parts as ``***``. Whether an
address is loopback (:func:`is_loopback`) and how a host is written for the resolver
(:func:`bind_host`) are the service's and the plugin's one rule too.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import unquote

__all__ = ["bind_host", "is_loopback", "shown_url", "url_secret", "usual_host"]

_IPV4_SPELLING = r"[0-9A-Fa-fXx.]+"
"""What an IPv4 address in a short or numeric spelling holds (``127.1``, ``0x7f.1``,
``2130706433``): ``inet_aton`` also takes text after a space, which no host holds."""


def usual_host(host: str) -> str:
    """``host`` (bare, no brackets, as ``urlsplit(...).hostname`` gives it) in an address's
    usual form when it is an address in any spelling the resolver reads; a name as given.

    >>> usual_host("127.1"), usual_host("0x7f.0.0.1"), usual_host("2130706433")
    ('127.0.0.1', '127.0.0.1', '127.0.0.1')
    >>> usual_host("0:0::1"), usual_host("localhost"), usual_host("memory.example.com")
    ('::1', 'localhost', 'memory.example.com')
    """
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if not re.fullmatch(_IPV4_SPELLING, host) or not any(c.isdigit() for c in host):
        return host
    try:
        return socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        return host


def bind_host(text: str) -> str:
    """``text`` (``MEMORY_API_HOST``, ``serve --host``) as the resolver takes it: surrounding
    white space dropped, and the brackets of an IPv6 literal (``[::1]`` → ``::1``).

    >>> bind_host(" [::1] "), bind_host("localhost")
    ('::1', 'localhost')
    """
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        return stripped[1:-1]
    return stripped


def is_loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is loopback: ``127.0.0.0/8``, ``::1`` and ``::ffff:127.0.0.0/104``
    (an IPv4-mapped loopback address, which ``ipaddress`` alone calls no loopback)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


_USERINFO = r"(?s)^(?P<scheme>[^:/?#]*://)?.*@"
"""Up to the last ``@`` (greedy): a user name and password, whatever they hold."""
_AUTHORITY = r"(?:[^:/?#]*://)?[^/?#]*"
"""The scheme and host (and port) a path follows."""


def _split(url: str) -> tuple[str, str, str]:
    """``url`` as (scheme and authority, path, ``?`` or ``#`` and all after it), read the way
    a string that is no URL is read too."""
    authority = re.match(_AUTHORITY, url)
    start = authority.end() if authority else 0
    end = next((at for at in range(start, len(url)) if url[at] in "?#"), len(url))
    return url[:start], url[start:end], url[end:]


def url_secret(url: str, *, written: bool = False) -> str | None:
    """What in the service URL ``url`` may hold a secret and has no place there, as a refusal
    names it, or None (A-10): ``"a user name or password (name:secret@host)"`` for any ``@``
    (also one ``urlsplit`` reads as part of a path, query or fragment: a password holding
    ``/``, ``?`` or ``#``); ``"a secret in its path …"`` for a segment that, percent-decoded,
    looks like a key standing alone (:func:`memory_core.credentials.looks_like_key`); ``"a
    query or fragment"``, which the request paths would be glued to.

    A UUID or plain hex segment (:func:`memory_core.credentials.looks_like_id`: a tenant's id,
    or a capability secret such as a webhook's ``…/hook/<uuid>``, which no rule can tell apart)
    is masked when shown, and refused only for a URL to be ``written`` into files (an install's
    settings and hook command lines, which other accounts and a team's repository read): the
    service takes a bearer token, kept in a ``0600`` file, for what such an id would grant.

    >>> url_secret("http://127.0.0.1:9/?token=S3cretValue")
    'a query or fragment'
    >>> url_secret("https://gw.example/agentMemoryV2Service") is None
    True
    >>> url_secret("https://gw.example/hook/3f2a9c0d8e7b6a5f4e3d2c1b0a9f8e7d") is None
    True
    >>> url_secret("https://gw.example/hook/3f2a9c0d8e7b6a5f4e3d2c1b0a9f8e7d", written=True)
    'an id in its path (a UUID or hex segment, shown as ***: it may be a capability secret)'
    """
    if "@" in url:
        return "a user name or password (name:secret@host)"
    _, path, rest = _split(url)
    if any(_hidden(part, ids=False) for part in path.split("/")):
        return "a secret in its path (a segment that looks like a key, shown as ***)"
    if rest:
        return "a query or fragment"
    if written and any(_hidden(part, ids=True) for part in path.split("/")):
        return (
            "an id in its path (a UUID or hex segment, shown as ***: it may be a capability secret)"
        )
    return None


def shown_url(url: str, *, ids: bool = True) -> str:
    """``url`` as a message or record may show it: what may hold a secret as ``***``, never
    printed. That is everything from the scheme's ``//`` up to the URL's last ``@``, each
    segment of its path that looks like a key or an id (a UUID, plain hex) and everything from
    the first ``?`` or ``#`` after it; a string that is no URL is judged the same way.

    >>> shown_url("http://coder:s3cret@127.0.0.1:8765/?t=1")
    'http://***@127.0.0.1:8765/?***'
    >>> shown_url("http://coder:pa/ss?w#rd@127.0.0.1:8765")
    'http://***@127.0.0.1:8765'
    >>> shown_url("https://gw.example/memory/FE0zGBRdX8c3HyM9iP63K_g79OtNNhPA/")
    'https://gw.example/memory/***/'
    >>> shown_url("https://gw.example/tenants/123e4567-e89b-12d3-a456-426614174000/memory")
    'https://gw.example/tenants/***/memory'

    ``ids`` False shows the ids in the path (the user said they are no secret, A-10:
    ``--url-id-not-secret``); a key, a password and a query stay hidden.
    """
    hidden = re.compile(_USERINFO).sub(
        lambda found: f"{found.group('scheme') or ''}***@", url, count=1
    )
    authority, path, rest = _split(hidden)
    shown = "/".join("***" if _hidden(part, ids=ids) else part for part in path.split("/"))
    return authority + shown + (rest[0] + "***" if rest else "")


def _hidden(part: str, *, ids: bool) -> bool:
    """Whether the path segment ``part``, percent-decoded, looks like a key (or, with ``ids``,
    an id). The detectors are imported only for a segment to judge: a hook process whose
    service URL has no path (the usual one) never loads them (H-5)."""
    if not part:
        return False
    from memory_core.credentials import looks_like_id, looks_like_key

    text = unquote(part)
    return looks_like_key(text) or (ids and looks_like_id(text))
