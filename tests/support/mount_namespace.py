"""An API test that runs in a mount namespace of its own, with the service in its process.

A test that must look inside the service (count its mount table reads) while it mounts and
unmounts cannot run in pytest's process: a mount made there is the whole machine's, and a
process with threads cannot take a namespace of its own. :func:`in_a_mount_namespace` makes a
test ``async def test_…(space: Space)`` run in a child process under ``unshare --mount
--propagation private`` (``python -m tests.support.mount_namespace MODULE TEST TMP``): there the
real application serves a data dir with agent ``acme/coder`` in the process (aiohttp's test
client), and :meth:`Space.run` mounts and unmounts in that namespace alone. A failed assert
fails the test with the child's traceback. The test is skipped where no namespace can be made
(not root, no ``unshare``).

As in :mod:`tests.api.test_a9_repeat_start_on_the_loop`, the caches keep brand-new files here
(the 2 s "racily fresh" rule would keep what the tests write a moment ago out of them, so a
record found right would not be kept until 2 s later, as it is in real use).
"""

from __future__ import annotations

import asyncio
import importlib
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.mount_watch import MountWatch
from memory_api.settings import Settings
from memory_api.store import stat_cache
from memory_core import layout
from memory_core.mount_table import MountTree

from tests.api.conftest import AGENT, Client, create_agent, memory_url

REPO = Path(__file__).resolve().parents[2]

Judged = tuple[bool, bool]
"""``(orphaned, notVisible)`` of a scope, as the overview or the scope's own answer gives it."""


@dataclass
class Space:
    """The in-process service of a test in a mount namespace of its own, and its tmp folder."""

    client: Client
    tmp: Path
    root: Path
    table_reads: list[int] = field(default_factory=lambda: [0])

    @property
    def reads(self) -> int:
        """How many times this process has read its mount table since the test began."""
        return self.table_reads[0]

    def run(self, *command: str | Path) -> None:
        """Run ``command`` (``mount …``, ``umount …``) in this mount namespace."""
        done = subprocess.run(list(map(str, command)), capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr

    async def session_start(self, workspace: Path) -> str:
        """A Session start in ``workspace``; the scope's key."""
        answer = await self.client.post(
            f"{memory_url()}/session-start", json={"workspace": str(workspace)}
        )
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["key"])

    async def overview(self) -> dict[str, Judged]:
        """``(orphaned, notVisible)`` of every scope in the overview, by key."""
        answer = await self.client.get(memory_url())
        assert answer.status == 200, await answer.text()
        scopes = (await answer.json())["scopes"]
        return {item["key"]: (item["orphaned"], item["notVisible"]) for item in scopes}

    async def judged(self, key: str) -> list[Judged]:
        """``(orphaned, notVisible)`` of scope ``key`` in the overview and in its own answer."""
        answer = await self.client.get(f"{memory_url()}/scopes/{key}")
        assert answer.status == 200, await answer.text()
        own = await answer.json()
        return [(await self.overview())[key], (own["orphaned"], own["notVisible"])]

    def recorded(self, key: str) -> str:
        """The mount point scope ``key``'s ``.workspace-mount`` names."""
        return (self.root / key / layout.MOUNT_FILE).read_text(encoding="utf-8").split("\n")[0]


Test = Callable[[Space], Awaitable[None]]


def mount_origin(path: Path) -> str:
    """What this process's mount table says of the mount the real ``path`` lies on, as a
    scope's ``.workspace-mount`` records it on its third line: type, source, folder shown."""
    table = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="surrogateescape")
    found = MountTree.parse(table).mount_of(str(path))
    assert found is not None, table
    return found.origin.decode("utf-8", "surrogateescape")


def in_a_mount_namespace(test: Test) -> Callable[[Path], None]:
    """The pytest test (taking ``tmp_path``) that runs ``test`` in a child process in a mount
    namespace of its own (see the module doc); its name and docstring are ``test``'s."""

    def run(tmp_path: Path) -> None:
        if shutil.which("unshare") is None or os.geteuid() != 0:
            pytest.skip("a mount namespace of its own needs unshare as root")
        command = ["unshare", "--mount", "--propagation", "private", sys.executable, "-m",
                   __name__, test.__module__, test.__name__, str(tmp_path)]  # fmt: skip
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr

    run.__name__ = run.__qualname__ = test.__name__
    run.__doc__ = test.__doc__
    run.__module__ = test.__module__
    run.test = test  # type: ignore[attr-defined]
    return run


async def _serve(test: Test, tmp: Path) -> None:
    """Run ``test`` against the real application over a data dir in ``tmp``."""
    stat_cache.RACY_WINDOW_NS = -(10**18)  # see the module doc
    reads = [0]
    parse = MountWatch._read

    def counted(fd: int) -> MountTree | None:
        reads[0] += 1
        return parse(fd)

    MountWatch._read = staticmethod(counted)  # type: ignore[method-assign]
    data_dir = tmp / "data"
    data_dir.mkdir()
    async with TestClient(TestServer(create_app(Settings(data_dir=data_dir)))) as client:
        await create_agent(client)
        reads[0] = 0
        await test(Space(client, tmp, layout.memory_root(data_dir, AGENT), reads))


def main(module: str, name: str, tmp: str) -> int:
    """Run test ``name`` of ``module`` (made by :func:`in_a_mount_namespace`) here; 0 when it
    passed, else 1 with its traceback on stderr."""
    test: Any = getattr(importlib.import_module(module), name).test
    try:
        asyncio.run(_serve(test, Path(tmp)))
    except Exception as error:  # every failure is the test's, told on stderr
        traceback.print_exc()
        print("the test's names:", _test_locals(error, name), file=sys.stderr)
        return 1
    return 0


def _test_locals(error: BaseException, name: str) -> dict[str, object]:
    """The local names of the test's own frame where ``error`` was raised (an assert in the
    child is not rewritten by pytest: its values are told this way)."""
    found: dict[str, object] = {}
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_name == name:
            found = dict(trace.tb_frame.f_locals)
        trace = trace.tb_next
    return {key: value for key, value in found.items() if key != "space"}


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))
