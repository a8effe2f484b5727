"""Q-1: ``memory-api serve`` binds its port before it builds the service.

:func:`~memory_api.http.bind_address.bound_sockets` binds what asyncio's ``create_server``
bound (the same addresses, ``SO_REUSEADDR``, an IPv6 socket IPv6 only) and listens at once,
so a held port stops ``serve`` before anything started, as does a port another ``serve`` bound
and is still building on; :func:`~memory_api.port_holder.port_holder` names the
process that holds it (the command's own tests: ``tests/api/test_cli.py``).
"""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_api.http.bind_address import BindAddress, bound_sockets, resolve_bind
from memory_api.port_holder import port_holder

from tests.support.serve import code_under_test

_LISTEN = """
import socket, sys
sock = socket.socket()
sock.bind(("127.0.0.3", int(sys.argv[1])))
sock.listen()
print("listening", flush=True)
sys.stdin.read()
"""


def test_q1_each_address_of_the_bind_gets_a_socket_on_the_port() -> None:
    port = unused_port()
    sockets = bound_sockets(resolve_bind("127.0.0.1"), port)
    try:
        assert [sock.getsockname() for sock in sockets] == [("127.0.0.1", port)]
        assert sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)
    finally:
        for sock in sockets:
            sock.close()


def test_q1_an_ipv6_address_is_bound_ipv6_only() -> None:
    """As asyncio binds it: ``::`` then takes no IPv4 port a service on ``0.0.0.0`` holds."""
    sockets = bound_sockets(resolve_bind("::1"), 0)
    try:
        [sock] = sockets
        assert sock.family == socket.AF_INET6
        assert sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
    finally:
        for sock in sockets:
            sock.close()


def test_q1_a_held_port_raises_eaddrinuse_and_leaves_no_socket_bound() -> None:
    """The second address's port is held: the error is the bind's, and the first address's
    socket is closed at once (the traceback ``raised`` keeps would otherwise keep it open)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.2", 0))
        busy.listen()
        port = busy.getsockname()[1]
        bind = BindAddress(
            "two", (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("127.0.0.2"))
        )
        with pytest.raises(OSError) as raised:
            bound_sockets(bind, port)
        assert raised.value.errno == errno.EADDRINUSE
        with socket.socket() as again:
            again.bind(("127.0.0.1", port))  # the first address's socket is closed: free


def test_q1_the_holder_named_is_the_one_on_the_address_asked_for() -> None:
    """Two processes listen on one port at two addresses (this test's on 127.0.0.2, a child's
    on 127.0.0.3): the one named is the one on the bind's address, with its command line and
    the folder it was started in."""
    with socket.socket() as mine:
        mine.bind(("127.0.0.2", 0))
        mine.listen()
        port = mine.getsockname()[1]
        child = subprocess.Popen(
            [sys.executable, "-c", _LISTEN, str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "listening\n"  # its own signal
            theirs = port_holder(port, ["127.0.0.3"])
            ours = port_holder(port, ["127.0.0.2"])
        finally:
            child.communicate("")
    assert theirs is not None and theirs.pid == child.pid
    assert theirs.said.startswith(f"process {child.pid} ({sys.executable} -c import socket, sys ")
    assert "\n" not in theirs.said
    assert theirs.said.endswith(f", started in {Path.cwd()})")
    assert ours is not None and ours.pid == os.getpid()


def test_q1_a_port_no_one_listens_on_has_no_holder() -> None:
    assert port_holder(unused_port(), ["127.0.0.1"]) is None


def test_q1_a_bound_port_is_held_before_anything_is_served() -> None:
    """Bound with ``SO_REUSEADDR`` and not listening, two sockets shared one port: a second
    ``serve`` started while the first built bound too, built, then failed to listen."""
    port = unused_port()
    first = bound_sockets(resolve_bind("127.0.0.1"), port)
    try:
        with pytest.raises(OSError) as raised:
            bound_sockets(resolve_bind("127.0.0.1"), port)
        assert raised.value.errno == errno.EADDRINUSE
    finally:
        for sock in first:
            sock.close()


_BUILDS_ON_A_SIGNAL = """
import sys
import memory_api.app as app
from memory_api.cli import main
built = app.create_app
def create_app(*args, **kwargs):
    print("bound, building", flush=True)
    sys.stdin.readline()
    return built(*args, **kwargs)
app.create_app = create_app
sys.exit(main(["serve"]))
"""
"""``memory-api serve`` that says when it bound its port and builds the service only once
told to (a line on its standard input): the window a second ``serve`` can start in."""


@pytest.mark.e2e
def test_q1_a_second_serve_started_while_the_first_builds_names_it_and_exits_1(
    tmp_path: Path,
) -> None:
    """Two ``serve`` on one port, the second started after the first bound and before it
    built: the second stops at once naming the first (not "Address already in use" after
    building, nobody named), and the first then serves."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    port = str(unused_port())
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    environ |= {**code_under_test(), "MEMORY_API_DATA_DIR": str(data_dir)}
    environ |= {"MEMORY_API_HOST": "127.0.0.1", "MEMORY_API_PORT": port}
    with (tmp_path / "first.log").open("wb") as log, subprocess.Popen(
        [sys.executable, "-c", _BUILDS_ON_A_SIGNAL],
        env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
    ) as first:  # fmt: skip
        try:
            assert first.stdout is not None and first.stdin is not None
            assert first.stdout.readline() == "bound, building\n"
            second = subprocess.run(
                [sys.executable, "-m", "memory_api", "serve"],
                env=environ, capture_output=True, text=True, timeout=60, check=False,
            )  # fmt: skip
            first.stdin.write("build\n")
            first.stdin.flush()
            url = f"http://127.0.0.1:{port}/readyz"
            with urllib.request.urlopen(url, timeout=60) as answer:
                ready = answer.status  # the connection waited in the backlog until it served
        finally:
            first.terminate()
            first.wait(timeout=30)
    assert ready == 200
    assert second.returncode == 1, second.stderr
    assert "stopped serving" not in second.stderr
    [error] = [line for line in second.stderr.splitlines() if " ERROR " in line]
    assert f"already in use by process {first.pid} (" in error
