"""Which TCP port a service process listens on, as the kernel shows its sockets (psutil).

A service started on port 0 is bound by the kernel to a free port as it binds (a port picked
before could be taken meanwhile by another service, which then answers in its place); its
starter reaches it at the port its listening socket has. Used by the benchmark's server
(:mod:`bench.perf_server`) and by the tests' (:mod:`tests.support.serve`).
"""

from __future__ import annotations

import psutil

__all__ = ["listening_port"]


def listening_port(pid: int, reached_at: str = "127.0.0.1") -> int | None:
    """The TCP port the process ``pid`` (or one it started: a command prefix may fork)
    listens on for the address ``reached_at``; None while it listens on none. Bound to several
    addresses (a name resolving to ``127.0.0.1`` and ``::1``), each got its own port: the one
    of ``reached_at``'s, else of an any-address bind, else the first. Never raises for a
    process that is gone (None)."""
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return None
    listening: list[tuple[str, int]] = []
    for process in processes:
        try:
            sockets = process.net_connections(kind="inet")
        except psutil.Error:
            continue
        listening += [
            (found.laddr.ip, found.laddr.port)
            for found in sockets
            if found.status == psutil.CONN_LISTEN
        ]
    wanted = reached_at.strip("[]")
    for preferred in (wanted, "0.0.0.0", "::"):  # noqa: S104 - addresses compared, none bound
        for address, port in listening:
            if address == preferred:
                return port
    return listening[0][1] if listening else None
