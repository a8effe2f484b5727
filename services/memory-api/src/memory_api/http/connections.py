"""The open-connection cap: past the open-file limit the service refuses, once, in one line (Q-2c).

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
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import time
from typing import Any

__all__ = ["ConnectionCap", "cap_for", "quiet_accept_errors", "refusal_bytes"]

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
    body = json.dumps(
        {
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": f"the service holds its most open connections ({limit}); retry shortly",
        }
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


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
