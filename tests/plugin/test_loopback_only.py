"""The namespace the coding-agent CLIs run in: bridged loopback ports only, nothing else."""

from __future__ import annotations

import asyncio
import sys

from aiohttp import web
from aiohttp.test_utils import unused_port

from tests.plugin.loopback_only import unix_bridges, wrap

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
