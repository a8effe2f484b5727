"""What the service's bind host really binds, and so whether it listens only on loopback (A-10,
A-10a).

``MEMORY_API_HOST`` may be an address (``127.0.0.1``, ``::1``, ``0:0::1``, ``127.1``) or a name
(``localhost``, ``ip6-localhost``, a name in ``/etc/hosts``). The kernel binds addresses, not
names: ``memory-api serve`` hands the host to asyncio, which resolves it with
``getaddrinfo(host, AI_PASSIVE, SOCK_STREAM)`` and binds every address it gets. So the service
is judged by those same addresses (:func:`resolve_bind`), at start:

- every address loopback (``127.0.0.0/8``, ``::1``, ``::ffff:127.0.0.0/104``): it listens only
  on loopback, and may run without tokens (A-10) while answering only loopback names (A-10a);
- any other address among them (``0.0.0.0``, ``::``, a LAN address, a name resolving to both
  ``127.0.0.1`` and a LAN address): it listens beyond loopback, so tokens are needed;
- no address at all (a name that does not resolve): nothing can be bound; ``serve`` refuses to
  start saying so (:func:`memory_api.http.auth.bind_decision`), and an app built over such a
  host counts as listening beyond loopback (tokens needed), never as loopback.

A bracketed IPv6 literal (``[::1]``, as written in a URL) is read without its brackets
(:func:`memory_core.addresses.bind_host`), since that is what the resolver takes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memory_core.addresses import bind_host, is_loopback

from memory_api.http.host_header import InvalidHost, read_host

__all__ = ["BindAddress", "Resolver", "bound_sockets", "resolve_bind"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], Sequence[str]]
"""Gives the addresses (text, as ``getaddrinfo`` writes them) a bind of a host makes; raises
:class:`OSError` (``socket.gaierror``) when there are none."""


def _getaddrinfo(host: str) -> list[str]:
    """The addresses asyncio's ``create_server`` binds for ``host`` (its own resolution; ``""``
    is every interface there, as ``None`` is here), an IPv6 address with its scope
    (``fe80::1%2``: a link-local address binds only with it)."""
    found = socket.getaddrinfo(host or None, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    return [
        f"{sockaddr[0]}%{sockaddr[3]}" if len(sockaddr) == 4 and sockaddr[3] else str(sockaddr[0])
        for *_, sockaddr in found
    ]


@dataclass(frozen=True, slots=True)
class BindAddress:
    """A bind host and the addresses binding it binds.

    ``host``: as given (:func:`bind_host`); ``addresses``: what it resolved to, in the
    resolver's order, without repeats (empty when it did not resolve), each as ``serve``
    binds it (an IPv6 scope kept); ``unresolved``: why not (the resolver's words), or None.
    """

    host: str
    addresses: tuple[Address, ...]
    unresolved: str | None = None

    @property
    def loopback_only(self) -> bool:
        """Whether the service listens only on loopback: it binds at least one address, and
        every one is loopback."""
        return bool(self.addresses) and all(is_loopback(address) for address in self.addresses)

    @property
    def beyond_loopback(self) -> tuple[Address, ...]:
        """The addresses bound that are not loopback (what makes a name "not loopback")."""
        return tuple(address for address in self.addresses if not is_loopback(address))

    @property
    def name(self) -> str | None:
        """The bind host as a ``Host`` header names it (lower-case, no final dot) when it is a
        host name (``ip6-localhost``, ``memory-box``); None for an address (``127.0.0.1``,
        ``::1``, ``127.1``): a browser addressing it sends that name, or an address literal
        that the Host rule takes by itself.

        >>> BindAddress("Memory-Box.", ()).name, BindAddress("127.0.0.1", ()).name
        ('memory-box', None)
        """
        try:
            read = read_host(self.host)
        except InvalidHost:
            return None
        return read.name if read.address is None and read.name else None

    def said(self) -> str:
        """The host and its addresses in a log line: ``ip6-localhost (::1)``."""
        if self.unresolved is not None:
            return f"{self.host} (does not resolve: {self.unresolved})"
        shown = ", ".join(str(address) for address in self.addresses)
        return self.host if shown == self.host else f"{self.host} ({shown})"


def resolve_bind(host: str, resolve: Resolver = _getaddrinfo) -> BindAddress:
    """Resolve the bind host ``host`` as the bind will (A-10, A-10a); never raises: a host
    that does not resolve gives a :class:`BindAddress` without addresses, ``unresolved``
    saying why. ``resolve`` stands in for ``getaddrinfo`` (tests).

    >>> resolve_bind("[::1]").loopback_only, resolve_bind("127.1").addresses
    (True, (IPv4Address('127.0.0.1'),))
    >>> resolve_bind("0.0.0.0").loopback_only
    False
    """
    host = bind_host(host)
    try:
        found = resolve(host)
    except (OSError, UnicodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return BindAddress(host, (), reason)
    addresses: dict[Address, None] = {}
    for text in found:
        try:
            addresses[ipaddress.ip_address(text)] = None  # a scope kept: the bind needs it
        except ValueError:
            continue
    if not addresses:
        return BindAddress(host, (), "no IP address")
    return BindAddress(host, tuple(addresses))


_BACKLOG = 128
"""The listen backlog, aiohttp's ``backlog`` default (its ``SockSite`` listens again with it)."""


def bound_sockets(bind: BindAddress, port: int) -> list[socket.socket]:
    """A TCP socket bound to ``port`` (``0``: one the system chooses, per socket) on each
    address of ``bind``, as asyncio's ``create_server`` binds them (``SO_REUSEADDR`` on POSIX,
    an IPv6 socket IPv6 only), and listening at once: ``serve`` binds before it builds
    anything, so a port another program holds stops it before the service starts (Q-1). The
    listen is what holds the port: with ``SO_REUSEADDR`` two sockets bound and not listening
    share it, so a second ``serve`` started while the first builds would build, then fail
    to listen with no holder named. Connections made before the service is built wait in the
    backlog (aiohttp's ``SockSite`` serves a listening socket).

    Raises :class:`OSError` as the bind does (``EADDRINUSE``: the port is held; ``EACCES``: a
    port below 1024 without the right), every socket made so far closed.
    """
    sockets: list[socket.socket] = []
    try:
        for address in bind.addresses:
            family, kind, proto, _, sockaddr = socket.getaddrinfo(
                str(address),
                port,
                type=socket.SOCK_STREAM,
                flags=socket.AI_NUMERICHOST | socket.AI_PASSIVE,
            )[0]
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            if os.name == "posix":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(sockaddr)
            sock.listen(_BACKLOG)
    except OSError:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
        raise
    return sockets
