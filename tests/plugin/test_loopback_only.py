"""The namespace the coding-agent CLIs run in: bridged loopback ports only, nothing else."""

from __future__ import annotations

import asyncio
import os
import select
import sys
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import unused_port

from tests.plugin.loopback_only import run_isolated, unix_bridges, wrap

PROBE = """
import socket, sys, urllib.request
print(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/").read().decode())
for host, port in (("127.0.0.1", int(sys.argv[2])), ("1.1.1.1", 80)):
    try:
        socket.create_connection((host, port), timeout=2)
        print("reached", host)
    except OSError:
        print("unreachable", host)
"""


async def test_only_bridged_loopback_ports_are_reachable_inside() -> None:
    async def hello(request: web.Request) -> web.Response:
        return web.Response(text="bridged")

    app = web.Application()
    app.router.add_get("/", hello)
    runner = web.AppRunner(app)
    await runner.setup()
    port, other = unused_port(), unused_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    other_site = web.TCPSite(runner, "127.0.0.1", other)
    await other_site.start()  # listening outside, but not bridged in
    try:
        async with unix_bridges([port]) as bridges:
            command = wrap([sys.executable, "-c", PROBE, str(port), str(other)], bridges)
            process = await asyncio.create_subprocess_exec(
                *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
            )
            out, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        await runner.cleanup()
    assert process.returncode == 0, err.decode()
    assert out.decode().split() == ["bridged", "unreachable", "127.0.0.1", "unreachable", "1.1.1.1"]


HANG_LIMIT_S = 5
"""The hang guard of the test below, which the test waits out whole: the namespace and ``sh``
print "started" in about 0.1 s (0.09-0.11 s measured at load 3.5), so 5 s leaves them fifty
times that on a busy machine; 20 s made this one test wait 20 s in every run."""


def _ends(pid: int, within_s: float = 60) -> bool:
    """Whether ``pid`` ends within ``within_s`` (a zombie waiting for its parent to read its
    status has ended). A killed process ends when the kernel next runs it, which on a busy
    machine is after the pipes it held were seen closed: waited on through a pidfd, which
    turns readable as it ends; ``within_s`` only bounds a process that was never killed."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([handle], [], [], within_s)[0])
    finally:
        os.close(handle)


async def test_the_hang_guard_ends_what_the_command_started_too(tmp_path: Path) -> None:
    """Past ``limit_s`` the command is killed with what it started, and what it printed before
    is returned: a CLI's own child holding the output pipes (``codex exec`` retrying a model it
    cannot reach) kept the guard waiting, 26 minutes in one run, after the namespace's first
    process was killed; and what was read before the limit was dropped."""
    started = tmp_path / "child.pid"
    script = f"sleep 600 & echo $! > {started}; echo started; wait"
    code, out, _ = await run_isolated(
        ["sh", "-c", script], {}, cwd=tmp_path, env=dict(os.environ), limit_s=HANG_LIMIT_S
    )
    assert code != 0 and out == b"started\n"
    assert _ends(int(started.read_text(encoding="ascii")))
