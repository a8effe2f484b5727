"""Connection limits: the open-connection cap (Q-2c), a cap per client, slow clients' deadlines.

Every connection takes a file descriptor, and so does every file a request opens. Without a
cap, clients holding connections open take the last descriptors: ``accept()`` then fails with
EMFILE, and asyncio logs a traceback for each attempt and retries in a storm (tens of thousands
of lines in seconds), while requests in flight fail to open their files. So each process admits
at most :func:`cap_for` of its open-file limit as connections, leaving the rest to the files;
a connection past the cap is answered ``503`` (problem+json, ``Retry-After``) and closed at
once, before any request is read. An ``accept()`` that fails all the same (descriptors taken by
something else) is reported without a traceback (:func:`quiet_accept_errors`). Either is an
episode, logged once when it starts and once when it ends (a connection admitted below nine
tenths of the cap, :data:`CALM_S` after the last refusal), never per connection.

**Per client.** One client opening connection after connection (a slowloris: each sends its
request a byte at a time, so none ends) could take the whole cap. So a client holds at most
:attr:`ConnectionLimits.per_client` connections at once (``MEMORY_API_MAX_CONNECTIONS_PER_CLIENT``);
one more is answered ``503`` and closed like one past the cap. A client is its peer's IP
address (:func:`client_of`), an IPv6 one by its ``/64`` (what one host or home network is
given). Loopback peers are no client of their own: every program on this machine, and a
reverse proxy on it passing on everyone's requests, connect from the same ``127.0.0.1``, so a
cap there would throttle them all as one; they are held only by the process-wide cap and the
deadlines. So is a peer with no IP address (the service listens on TCP only; behind a proxy
that takes Unix-socket connections, the proxy is the one peer, on loopback).

**Deadlines.** A request's line and headers must arrive within
:attr:`ConnectionLimits.header_s` of the connection's start, or of the first byte of that
request on a connection kept alive (``MEMORY_API_HEADER_TIMEOUT``): else the connection is
answered ``408`` (problem+json) and closed. A connection idle between requests is closed after
:attr:`ConnectionLimits.idle_s` (``MEMORY_API_IDLE_TIMEOUT``: aiohttp's ``keepalive_timeout``).
A body has its own deadline where it is read: a JSON body's whole within
``MEMORY_API_BODY_TIMEOUT`` (30 s; then 408), a git push's within ``MEMORY_API_SYNC_TIMEOUT``;
one no route reads is drained for aiohttp's ``lingering_time`` (10 s) at most, then the
connection is closed. A late head is logged once per
episode, never per connection (:class:`SlowClients`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import resource
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ConnectionCap",
    "ConnectionLimits",
    "PerClient",
    "SlowClients",
    "cap_for",
    "client_of",
    "problem_bytes",
    "quiet_accept_errors",
    "refusal_bytes",
]

logger = logging.getLogger(__name__)

RESERVED_FILES = 64
"""Descriptors kept for what is not a connection (files a request reads, the search index, locks,
logs, the listening socket), at least; an eighth of the limit when that is more."""
ACCEPT_BURST = 128
"""Connections asyncio may accept at once before the first is seen (the listen backlog aiohttp
asks for): they hold descriptors until the cap closes them."""
CALM_S = 1.0
"""How long without a refusal or failed accept ends an episode."""
ACCEPT_FAILED = "socket.accept() out of system resource"
"""asyncio's message for an ``accept()`` that failed for want of descriptors or memory."""


def cap_for(file_limit: int) -> int:
    """The most connections a process whose open-file limit is ``file_limit`` admits: that
    limit less an :data:`ACCEPT_BURST` and :data:`RESERVED_FILES` (or an eighth of the limit),
    and at least 8.

    >>> cap_for(1024), cap_for(512), cap_for(64)
    (768, 320, 8)
    """
    return max(8, file_limit - ACCEPT_BURST - max(RESERVED_FILES, file_limit // 8))


def refusal_bytes(limit: int) -> bytes:
    """The whole HTTP answer to a connection past the cap: 503 problem+json, then closed."""
    return problem_bytes(
        503, f"the service holds its most open connections ({limit}); retry shortly"
    )


def problem_bytes(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 answer written straight to a connection no request handler holds:
    problem+json (RFC 9457) with ``status`` and ``detail``, ``Connection: close`` (and
    ``Retry-After: 1`` for a 503)."""
    phrase = {408: "Request Timeout", 503: "Service Unavailable"}[status]
    body = json.dumps(
        {"type": "about:blank", "title": phrase, "status": status, "detail": detail}
    ).encode()
    retry = "Retry-After: 1\r\n" if status == 503 else ""
    head = (
        f"HTTP/1.1 {status} {phrase}\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n{retry}Connection: close\r\n\r\n"
    )
    return head.encode() + body


DEFAULT_PER_CLIENT = 32
"""Connections one client (:func:`client_of`) may hold open at once by default."""
DEFAULT_HEADER_S = 20.0
"""Seconds a request's line and headers may take to arrive by default."""
DEFAULT_IDLE_S = 75.0
"""Seconds an idle keep-alive connection is kept by default."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one connection may hold (see the module doc): ``per_client`` connections of one
    client at once (0: no cap per client), ``header_s`` seconds for a request's line and
    headers, ``idle_s`` seconds idle between requests."""

    per_client: int = DEFAULT_PER_CLIENT
    header_s: float = DEFAULT_HEADER_S
    idle_s: float = DEFAULT_IDLE_S


def client_of(peername: object) -> str | None:
    """The client a connection from ``peername`` (a transport's ``peername``) belongs to, for
    the cap per client: its IPv4 address, or its IPv6 address's ``/64``; None for a loopback
    peer and for one without an IP address (no client of its own: see the module doc).

    >>> client_of(("192.0.2.7", 50123)), client_of(("2001:db8:1:2:a::1", 443, 0, 0))
    ('192.0.2.7', '2001:db8:1:2::/64')
    >>> client_of(("127.0.0.1", 1)), client_of(("::ffff:127.0.0.1", 1, 0, 0)), client_of("")
    (None, None, None)
    """
    if not isinstance(peername, tuple) or not peername or not isinstance(peername[0], str):
        return None
    try:
        address = ipaddress.ip_address(peername[0].partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class PerClient:
    """Counts the open connections of each client against ``limit`` (0: none); used from the
    event loop's thread only. A refusal is an episode logged once (:class:`SlowClients`)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()
        self._said = _Episode(
            "a client holds the most connections one client may ({limit}): its further "
            "connections are answered 503 and closed"
        )

    def admit(self, client: str | None) -> bool:
        """Take a place for a new connection of ``client``; False when it holds ``limit``."""
        if client is None or self.limit <= 0:
            return True
        if self.open[client] >= self.limit:
            self._said.note(limit=self.limit)
            return False
        self.open[client] += 1
        return True

    def release(self, client: str | None) -> None:
        """Give back the place of a connection of ``client`` that ended."""
        if client is None or client not in self.open:
            return
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]

    def refusal(self) -> bytes:
        """The whole answer to a connection past the cap per client: 503, then closed."""
        return problem_bytes(
            503,
            f"this client holds the most open connections one client may ({self.limit}); "
            "close some, or retry shortly",
        )


class SlowClients:
    """The episodes of requests whose line and headers did not arrive within
    :attr:`ConnectionLimits.header_s`: logged once when one starts, never per connection;
    ``timed_out`` counts them all."""

    def __init__(self) -> None:
        self.timed_out = 0
        self._said = _Episode(
            "a request's line and headers did not arrive within {seconds:g} s: answered 408 "
            "and closed (a slow or stalled client)"
        )

    def head(self, seconds: float) -> None:
        """Note a head that did not arrive within ``seconds``."""
        self.timed_out += 1
        self._said.note(seconds=seconds)


class _Episode:
    """A warning ``message`` (a ``str.format`` template) logged once, then again only after
    :data:`EPISODE_S` without it."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.last = -EPISODE_S

    def note(self, **values: object) -> None:
        now = time.monotonic()
        if now - self.last >= EPISODE_S:
            logger.warning("%s (logged once a minute at most)", self.message.format(**values))
        self.last = now


EPISODE_S = 60.0
"""Seconds without a repeat that end an episode of slow clients or clients refused."""


class ConnectionCap:
    """Counts this process's open connections against ``limit`` (None: :func:`cap_for` of the
    soft ``RLIMIT_NOFILE``); used from the event loop's thread only."""

    def __init__(self, limit: int | None = None) -> None:
        if limit is None:
            limit = cap_for(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        self.limit = limit
        self.open = 0
        self.refused = 0
        self.failed_accepts = 0
        self.strained = False
        self.last_trouble = 0.0

    def _trouble(self, what: str) -> None:
        """Note a refusal or a failed accept; log ``what`` when it starts an episode."""
        self.last_trouble = time.monotonic()
        if not self.strained:
            self.strained = True
            logger.warning("%s (logged once until it passes)", what)

    def admit(self) -> bool:
        """Take a place for a new connection; False past the cap (an episode, logged once)."""
        if self.open >= self.limit:
            self.refused += 1
            self._trouble(
                f"{self.open} connections are open, the most this process admits (its "
                "open-file limit less what files need): new connections are answered 503 and "
                "closed"
            )
            return False
        self.open += 1
        calm = time.monotonic() - self.last_trouble > CALM_S
        if self.strained and calm and self.open < self.limit * 9 // 10:
            self.strained = False
            logger.info(
                "accepting connections again (%d open; %d refused and %d failed accepts meanwhile)",
                self.open,
                self.refused,
                self.failed_accepts,
            )
            self.refused = self.failed_accepts = 0
        return True

    def release(self) -> None:
        """Give back the place of a connection that ended."""
        self.open -= 1

    def accept_failed(self, error: BaseException | None) -> None:
        """Note an ``accept()`` that failed for want of descriptors (an episode, logged once)."""
        self.failed_accepts += 1
        self._trouble(
            f"cannot accept connections: {error}; the open-file limit is taken by more than "
            "connections"
        )


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, cap: ConnectionCap) -> None:
    """Route asyncio's failed-``accept()`` reports of ``loop`` to ``cap`` (one line per episode,
    no traceback); every other report goes where it went."""
    previous = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_FAILED:
            cap.accept_failed(context.get("exception"))
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
