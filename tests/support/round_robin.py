"""A small round-robin TCP proxy on loopback: the load balancer of a local replicated stand-in.

Each accepted connection goes to the next backend in turn; a backend that refuses the connection
(a killed replica) is skipped for the next one, as a load balancer's failed connect would be. A
connection is piped both ways untouched until either side closes it, so a replica killed with
requests in flight shows its clients a dropped connection, exactly as it would behind a real
balancer. Clients that want one request per backend choice close each connection after one
request (``aiohttp.TCPConnector(force_close=True)``).

Only ``127.0.0.1`` is ever listened on or connected to.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["RoundRobinProxy"]

CHUNK = 64 * 1024
LOOPBACK = "127.0.0.1"


@dataclass
class RoundRobinProxy:
    """Listens on ``127.0.0.1:<free port>`` and spreads connections over ``backend_ports``.

    ``connections`` counts the connections each backend port took, ``refused`` the connects a
    backend refused (each then tried on the next one), ``unrouted`` the connections no backend
    took (closed at once). Use as ``async with RoundRobinProxy([...]) as proxy: proxy.base_url``.
    """

    backend_ports: list[int]
    connections: Counter[int] = field(default_factory=Counter)
    refused: Counter[int] = field(default_factory=Counter)
    unrouted: int = 0
    _turn: int = 0
    _server: asyncio.Server | None = None
    _pipes: dict[asyncio.Task[None], asyncio.StreamWriter] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:{port}`` of the listening socket; only after ``start``."""
        assert self._server is not None, "the proxy is not started"
        port = self._server.sockets[0].getsockname()[1]
        return f"http://{LOOPBACK}:{port}"

    async def start(self) -> None:
        """Listen on a free loopback port."""
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0)

    async def close(self) -> None:
        """Stop listening and drop every connection still piped (their pipes then end)."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._pipes.values()):
            writer.close()
        await asyncio.gather(*self._pipes, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def __aenter__(self) -> RoundRobinProxy:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        # This connection's turn is taken once, and from it every backend is tried once: the
        # turns other connections take while this one awaits a connect must not make it try the
        # same refusing backend again and never reach a live one.
        start = self._turn
        self._turn += 1
        count = len(self.backend_ports)
        for offset in range(count):
            port = self.backend_ports[(start + offset) % count]
            try:
                upstream = await asyncio.open_connection(LOOPBACK, port)
            except OSError:
                self.refused[port] += 1
                continue
            self.connections[port] += 1
            return upstream
        return None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._pipes[task] = writer
        try:
            upstream = await self._connect()
            if upstream is None:
                self.unrouted += 1
                return
            up_reader, up_writer = upstream
            try:
                await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
            finally:
                up_writer.close()
        finally:
            writer.close()
            self._pipes.pop(task, None)


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy ``source`` to ``sink`` until end of stream or a reset; then close ``sink``."""
    try:
        while chunk := await source.read(CHUNK):
            sink.write(chunk)
            await sink.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        # Either side ending ends the exchange: HTTP/1.1 here has one request per connection.
        with contextlib.suppress(ConnectionError, OSError):
            sink.close()
