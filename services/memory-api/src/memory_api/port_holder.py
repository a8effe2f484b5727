"""Which program holds the TCP port ``memory-api serve`` could not bind (Q-1).

``make run`` beside one already running found the port busy and said only "another
memory-api?": the user had to find the other terminal, or the other program, themselves.
:func:`port_holder` names the process listening on the port — its id, its command line and the
folder it was started in — as psutil finds it (``/proc`` on Linux, the system's own calls
elsewhere). A process of another user, or a system that shows no other process's sockets,
gives None: the caller then says the port is held by a program it cannot see.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from dataclasses import dataclass

import psutil

__all__ = ["PortHolder", "port_holder"]

_EVERY_ADDRESS = frozenset({"0.0.0.0", "::"})  # noqa: S104 - names compared, nothing bound

COMMAND_SHOWN = 120
"""The most characters of the holder's command line the message shows (a long one ends in …)."""


@dataclass(frozen=True, slots=True)
class PortHolder:
    """A process listening on a port: its id and what a message says of it (``said``:
    ``process 4494 (/x/.venv/bin/python .venv/bin/memory-api serve, started in /x)``)."""

    pid: int
    said: str


def port_holder(port: int, addresses: Collection[str] = ()) -> PortHolder | None:
    """The process that listens on TCP ``port``: one listening on one of ``addresses`` (the
    bind's, as ``str(ipaddress)`` writes them) or on every address first, else one on any
    other; None when no listening process is visible to this user (another user's, or the
    system denied the look). Never raises."""
    try:
        connections = psutil.net_connections(kind="tcp")
    except (psutil.Error, OSError):
        return None
    listening = [
        (connection.laddr.ip, connection.pid)
        for connection in connections
        if connection.status == psutil.CONN_LISTEN
        and connection.laddr
        and connection.laddr.port == port
        and connection.pid is not None
    ]
    wanted = {*addresses, *_EVERY_ADDRESS}
    if not listening:
        return None
    _, pid = min(listening, key=lambda found: found[0] not in wanted)
    return PortHolder(pid, _described(pid))


def _described(pid: int) -> str:
    """``process PID (COMMAND, started in FOLDER)``, each part that can be read."""
    parts: list[str] = []
    with contextlib.suppress(psutil.Error, OSError):
        process = psutil.Process(pid)
        # one line: a command's words may hold line breaks (python -c "…")
        command = " ".join(" ".join(process.cmdline()).split()) or process.name()
        if len(command) > COMMAND_SHOWN:
            command = command[: COMMAND_SHOWN - 1] + "…"
        parts.append(command)
        with contextlib.suppress(psutil.Error, OSError):
            parts.append(f"started in {process.cwd()}")
    return f"process {pid}" + (f" ({', '.join(parts)})" if parts else "")
