"""Tests pass whatever the length of pytest's base temp dir: no Unix socket is bound at a path
made from it.

A socket's path must fit ``sun_path`` (108 bytes with its NUL). With an 11-digit
``pytest-N`` (``/tmp/pytest-of-root/pytest-12345678901/…``) two tests failed with "AF_UNIX path
too long": a git dir's ``refs/heads/side`` made a socket, and the loopback bridges'
``machine-a/bridge-N.sock``. Every socket a test makes now goes through
:func:`tests.support.socket_file.bound_socket` (bound through a short symlink, made where
asked) or :func:`tests.plugin.loopback_only.unix_bridges` (its own short folder in ``/tmp``).
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from aiohttp.test_utils import unused_port

from tests.plugin.loopback_only import unix_bridges
from tests.support.socket_file import bound_socket

REPO = Path(__file__).resolve().parents[2]
SUN_PATH_BYTES = 108
MAKES_A_SOCKET = re.compile(r"AF_UNIX|start_unix_server|create_unix_server")
HELPERS = {
    "tests/support/socket_file.py",
    "tests/plugin/loopback_only.py",
    "tests/plugin/loopback_inside.py",  # connects to loopback_only's sockets, binds none
}


def test_every_unix_socket_of_the_tests_is_made_by_a_helper_that_fits_it() -> None:
    making = sorted(
        str(path.relative_to(REPO))
        for path in (REPO / "tests").rglob("*.py")
        if path != Path(__file__) and MAKES_A_SOCKET.search(path.read_text(encoding="utf-8"))
    )
    assert set(making) <= HELPERS, making


def test_a_socket_file_is_made_where_asked_however_long_the_path(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 60) / ("e" * 60)
    folder.mkdir(parents=True)
    path = folder / "refs-heads-side"
    assert len(bytes(path)) >= SUN_PATH_BYTES
    with bound_socket(path):
        assert stat.S_ISSOCK(path.lstat().st_mode)
    assert stat.S_ISSOCK(path.lstat().st_mode)  # the file stays when the socket closes


async def test_the_loopback_bridges_sockets_fit_whatever_the_temp_dir() -> None:
    async with unix_bridges([unused_port(), unused_port()]) as bridges:
        for path in bridges.values():
            assert len(bytes(path)) < SUN_PATH_BYTES
            assert stat.S_ISSOCK(path.lstat().st_mode)
    assert not any(path.parent.exists() for path in bridges.values())  # gone afterwards
