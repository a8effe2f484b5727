"""Inside the loopback-only namespace (:mod:`tests.plugin.loopback_only`), run as a script.

``python loopback_inside.py [--etc-overlay=DIR] [--hide=DIR …] PORT=SOCKET … -- CLI …`` lays
``DIR/upper`` over ``/etc``, covers each hidden folder with an empty tmpfs, brings ``lo`` up,
listens on ``127.0.0.1:PORT`` for each bridge, forwards every connection to its Unix socket, and
runs the CLI with the same stdio, exiting with its status. It starts once per CLI run, so it
imports threads and sockets only (no asyncio).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

_CHUNK = 65536


def _relay(source: socket.socket, target: socket.socket) -> None:
    try:
        while chunk := source.recv(_CHUNK):
            target.sendall(chunk)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)


def _serve(listener: socket.socket, path: str) -> None:
    """Relay each connection ``listener`` accepts to the Unix socket at ``path``."""
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            continue
        for source, target in ((client, upstream), (upstream, client)):
            threading.Thread(target=_relay, args=(source, target), daemon=True).start()


def _inside(arguments: list[str]) -> int:
    if arguments[0].startswith("--etc-overlay="):
        folder = Path(arguments.pop(0).split("=", 1)[1])
        options = f"lowerdir=/etc,upperdir={folder / 'upper'},workdir={folder / 'work'}"
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options, "/etc"], check=True)
    while arguments[0].startswith("--hide="):
        hidden = arguments.pop(0).split("=", 1)[1]
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "none", hidden], check=True
        )
    split = arguments.index("--")
    ip = shutil.which("ip") or shutil.which("ip", path="/usr/sbin:/sbin") or "ip"
    subprocess.run([ip, "link", "set", "lo", "up"], check=True)
    for pair in arguments[:split]:
        port, path = pair.split("=", 1)
        # listening before the command starts: made in its thread, a client that came first
        # met "Connection refused"
        listener = socket.create_server(("127.0.0.1", int(port)))
        threading.Thread(target=_serve, args=(listener, path), daemon=True).start()
    return subprocess.run(arguments[split + 1 :], check=False).returncode


if __name__ == "__main__":
    sys.exit(_inside(sys.argv[1:]))
