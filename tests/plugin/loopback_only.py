"""Run a coding-agent CLI inside a network namespace that has only loopback (no internet).

``unshare --net --map-root-user`` gives the CLI a namespace of its own whose only interface is
``lo``; nothing it does can reach another host. Its model stand-in and the memory service keep
listening on the test's own loopback, outside: Unix sockets (files, which cross network
namespaces) bridge them in. Outside, :func:`unix_bridges` forwards each socket to a loopback
port; inside, :mod:`tests.plugin.loopback_inside` run as a script (``python loopback_inside.py
PORT=SOCKET … -- CLI …``) brings ``lo`` up, listens on ``127.0.0.1:PORT`` for each bridge,
forwards every connection to its socket, and runs the CLI with the same stdio, exiting with its
status.

Without ``unshare`` (or user namespaces) the tests skip loudly, except under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import NoReturn

_CHUNK = 65536
INSIDE = Path(__file__).with_name("loopback_inside.py")
"""The script run first inside the namespace: it imports only what it needs (no asyncio), as
it starts once per CLI run."""


def _unavailable(reason: str) -> NoReturn:
    import pytest

    message = f"LOOPBACK-ONLY NAMESPACE NOT AVAILABLE: {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: this must run)")
    pytest.skip(reason=message)


async def run_isolated(
    command: Sequence[str],
    bridges: dict[int, Path],
    *,
    cwd: Path | str,
    env: dict[str, str],
    limit_s: float,
    etc_overlay: Path | None = None,
    hidden: Sequence[Path] = (),
) -> tuple[int, bytes, bytes]:
    """Run ``command`` through :func:`wrap` with no stdin; (exit code, stdout, stderr).

    ``limit_s`` is a hang guard, not an assertion about speed: past it the process is killed,
    with every process it started (its process group: the namespace's first process leads a
    session of its own), and whatever it printed is returned with its (non-zero) exit code.
    Killing the first process alone left the CLI it runs holding the output pipes (``codex
    exec`` retrying a model it cannot reach), and the guard waited on them without end; and the
    output read before the limit was lost with the ``communicate()`` the limit cancelled.
    ``etc_overlay`` and ``hidden`` as in :func:`wrap`.
    """
    process = await asyncio.create_subprocess_exec(
        *wrap(command, bridges, etc_overlay=etc_overlay, hidden=hidden),
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    reading = asyncio.ensure_future(process.communicate())
    try:  # shielded: a cancelled communicate() drops what it had read so far
        out, err = await asyncio.wait_for(asyncio.shield(reading), limit_s)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        out, err = await reading
    assert process.returncode is not None
    return process.returncode, out, err


def wrap(
    command: Sequence[str],
    bridges: dict[int, Path],
    *,
    etc_overlay: Path | None = None,
    hidden: Sequence[Path] = (),
) -> list[str]:
    """``command`` run in a loopback-only namespace with ``bridges`` (port → socket) inside.

    With ``etc_overlay`` (a folder), the namespace gets a mount namespace of its own too, and
    ``/etc`` inside it is an overlay of the real ``/etc`` with that folder's ``upper/`` on top
    (``work/`` beside it): files a machine's administrator would put into ``/etc`` — Claude
    Code's managed settings — exist for that run only, never on the machine. Each folder of
    ``hidden`` is covered by an empty tmpfs in a mount namespace of its own: the command sees
    none of its files (another machine's disk, e.g. the memory service's data dir).
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        _unavailable("unshare (util-linux) is not installed")
    probe = subprocess.run(
        [unshare, "--net", "--map-root-user", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        _unavailable(f"unshare --net --map-root-user fails: {probe.stderr.decode().strip()}")
    pairs = [f"{port}={path}" for port, path in bridges.items()]
    mount = ["--mount"] if etc_overlay is not None or hidden else []
    overlay = [f"--etc-overlay={etc_overlay}"] if etc_overlay is not None else []
    overlay += [f"--hide={folder}" for folder in hidden]
    return [
        unshare,
        "--net",
        *mount,
        "--map-root-user",
        "--",
        sys.executable,
        str(INSIDE),
        *overlay,
        *pairs,
        "--",
        *command,
    ]


SOCKETS_PARENT = Path("/tmp")
"""Where the bridges' sockets go: a socket's path must fit ``sun_path`` (108 bytes with its NUL),
and a path under pytest's base temp dir need not (``/tmp/pytest-of-root/pytest-12345678901/
popen-gw0/test_r1_what_claude_code_wrote0/machine-a/bridge-41234.sock`` is 108 characters)."""


@contextlib.asynccontextmanager
async def unix_bridges(ports: Sequence[int]) -> AsyncIterator[dict[int, Path]]:
    """Serve one Unix socket per loopback port, each forwarding to its port; yields port → socket.

    The sockets live in a folder of their own under :data:`SOCKETS_PARENT` (short whatever the
    test's temp dir is, and gone afterwards).
    """
    with tempfile.TemporaryDirectory(prefix="bridges-", dir=SOCKETS_PARENT) as directory:
        async with _bridges_in(ports, Path(directory)) as bridges:
            yield bridges


@contextlib.asynccontextmanager
async def _bridges_in(ports: Sequence[int], directory: Path) -> AsyncIterator[dict[int, Path]]:
    servers: list[asyncio.AbstractServer] = []
    bridges: dict[int, Path] = {}
    for port in ports:
        path = directory / f"bridge-{port}.sock"

        async def forward(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int = port
        ) -> None:
            try:
                upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                writer.close()
                return
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))

        servers.append(await asyncio.start_unix_server(forward, path=str(path)))
        bridges[port] = path
    try:
        yield bridges
    finally:
        for server in servers:
            server.close()
            await server.wait_closed()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while chunk := await reader.read(_CHUNK):
            writer.write(chunk)
            await writer.drain()
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            writer.close()
