"""K-6a: the mount point kept for a Workspace follows the disk its folder is on now.

A Session start that sees the Workspace keeps, beside the marker, the mount point of the
filesystem its folder lies on and that filesystem's device. A path first seen on a disk of its
own (a tmpfs, a volume) and later on the root filesystem, or the reverse, must have the file
corrected by the later Session start: else a Workspace deleted later is called "not visible"
instead of orphaned, or one on an unplugged drive is called orphaned. A repeat Session start
stays on the event loop (the file is read once per version), and a data dir the service may not
write (read-only) neither refuses the Session nor logs at every start: those two are tested in
``test_a9_repeat_start_on_the_loop.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import workspace_mount
from memory_core import layout

from tests.api.test_k6a_orphaned_while_in_use import _overview_and_scope
from tests.support.serve import ServedProcess, serve, served_in
from tests.support.zygote import Zygote

_MOUNT = 'mount -t tmpfs tmpfs "$0" && mkdir "$0/project" && exec "$@"'
"""A service in a mount namespace of its own with a disk (a tmpfs) at ``$0`` holding the
Workspace's folder ``project``: only that service sees the disk."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """A service with agent ``acme/coder``, stopped at once: each test serves its data dir
    as it needs (with or without the disk), each service a ``memory-api serve`` of its own.
    This first start and the agent's creation only make the data dir: both are forked from
    this test process's :class:`~tests.support.zygote.Zygote` (no interpreter start and
    imports of their own)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("a mount namespace of its own needs unshare as root")
    zygote = Zygote.shared()
    with served_in(tmp_path, zygote=zygote) as process:
        argv = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]
        log = tmp_path / "agent-create.log"
        code = zygote.fork(argv, process.env, log).wait(timeout=120)
        assert code == 0, log.read_text(encoding="utf-8")
        process.stop()
        yield process


def _env(served: ServedProcess) -> dict[str, str]:
    return {name: value for name, value in served.env.items() if name != "MEMORY_API_PORT"}


def _session_start(served: ServedProcess, workspace: Path) -> str:
    """A Session start in ``workspace`` on ``served``; the scope's key."""
    request = urllib.request.Request(  # noqa: S310 - loopback
        f"{served.base_url}/api/projects/acme/agents/coder/memory/session-start",
        data=json.dumps({"workspace": str(workspace)}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
        return str(json.load(answer)["key"])


def _start_with(served: ServedProcess, drive: Path, *, disk: bool) -> str:
    """A Session start in ``drive/project`` by a service that has the disk mounted at
    ``drive`` (``disk``) or sees ``drive`` on the filesystem it lies on; the key."""
    prefix = ("unshare", "--mount", "sh", "-c", _MOUNT, str(drive)) if disk else ()
    process = serve(served.data_dir, _env(served), command_prefix=prefix)
    try:
        return _session_start(process, drive / "project")
    finally:
        process.stop()


def _seen_by_a_service_without_the_disk(served: ServedProcess, key: str) -> list[Any]:
    process = serve(served.data_dir, _env(served))
    try:
        seen = _overview_and_scope(process, key)
        return [(item["orphaned"], item["notVisible"]) for item in seen]
    finally:
        process.stop()


def test_k6a_a_workspace_seen_on_a_disk_then_on_the_root_filesystem_is_orphaned_once_gone(
    served: ServedProcess, tmp_path: Path
) -> None:
    """First seen on a disk of its own, then the disk gone for good and the same path made on
    the filesystem below it, where the Session starts again; then that folder is removed. No
    disk is missing: the Workspace is orphaned, not "not visible"."""
    drive = tmp_path / "drive"
    drive.mkdir()
    key = _start_with(served, drive, disk=True)
    (drive / "project").mkdir()  # on the filesystem below: the disk is never mounted again
    assert _start_with(served, drive, disk=False) == key
    (drive / "project").rmdir()

    assert _seen_by_a_service_without_the_disk(served, key) == [(True, False)] * 2


def test_k6a_a_workspace_seen_on_the_root_filesystem_then_on_a_disk_is_not_visible_unplugged(
    served: ServedProcess, tmp_path: Path
) -> None:
    """First seen on the filesystem below, then moved onto a disk mounted at its parent, where
    the Session starts again; then the service runs while the disk is unplugged. Nothing says
    the folder was removed: not visible, never orphaned."""
    drive = tmp_path / "drive"
    (drive / "project").mkdir(parents=True)
    key = _start_with(served, drive, disk=False)
    (drive / "project").rmdir()  # moved onto the disk
    assert _start_with(served, drive, disk=True) == key

    assert _seen_by_a_service_without_the_disk(served, key) == [(False, True)] * 2


def test_k6a_a_mount_file_from_before_the_device_was_kept_still_names_its_mount_point(
    tmp_path: Path,
) -> None:
    """A one-line file (written before the device was kept) still tells a disk not mounted."""
    scope = tmp_path / "scope"
    scope.mkdir()
    (scope / layout.MOUNT_FILE).write_bytes(os.fsencode(str(tmp_path / "unplugged")))
    (tmp_path / "unplugged").mkdir()

    assert workspace_mount.mount_gone(scope) is True


@pytest.mark.parametrize(
    "held",
    [b"\xff\xfe garbage\n12\n", b"relative/path\n12\n", b"/\n12\n", b"", b"/mn\x00t\n12\n"],
    ids=["garbage", "relative", "root", "empty", "nul"],
)
def test_k6a_a_mount_file_naming_no_absolute_mount_point_says_nothing(
    tmp_path: Path, held: bytes
) -> None:
    """A mount file that names no absolute mount point other than ``/`` (garbage, a relative
    path, an empty file, a NUL) is no record: a missing Workspace is then orphaned, never
    called not visible on its word."""
    (tmp_path / layout.MOUNT_FILE).write_bytes(held)
    assert workspace_mount.mount_gone(tmp_path) is False
