"""A service URL's host as a browser writes it, so the ``Host`` a client sends passes the
service's Host rule (A-10a).

The service answers only a ``Host`` that is a name or an address in its usual form (four decimal
numbers, or a bracketed IPv6 address): a client that connected to ``http://127.1:8765`` and sent
``Host: 127.1:8765`` as spelt was refused (400), and took the service for absent. A browser and
curl write ``127.1`` as ``127.0.0.1`` before they send it; the project's own clients
(``memory-api --url``, the plugin's hooks and install) do the same with :func:`usual_host`.
"""

from __future__ import annotations

import ipaddress
import re
import socket

__all__ = ["usual_host"]

_IPV4_SPELLING = re.compile(r"[0-9A-Fa-fXx.]+")
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
    if not _IPV4_SPELLING.fullmatch(host) or not any(c.isdigit() for c in host):
        return host
    try:
        return socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        return host
