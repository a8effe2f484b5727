"""K-6a: a Workspace's mount record follows the mount table while the service runs.

A scope's ``.workspace-mount`` names the mount point its Workspace lies on, kept while found
right. A mount or an unmount may move that mount point without touching the Workspace's path or
device (a bind mount within one filesystem): the next Session start after any change of the
mount table finds it again, so a Workspace never reads "not visible" for ever after an unmount
long past, nor orphaned (which invites deleting live memories) while its notes live on a bind
mount made after it was recorded. The overview reads the mount table once per change, however
many missing Workspaces it judges.

Each test runs in a mount namespace of its own, with the service in its process
(:mod:`tests.support.mount_namespace`), where it mounts as a user or container runtime would.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from memory_api.mount_watch import MOUNTS
from memory_api.store import workspace_mount
from memory_core import layout

from tests.support.mount_namespace import Space, in_a_mount_namespace

FINE, NOT_VISIBLE, ORPHANED = (False, False), (False, True), (True, False)
"""``(orphaned, notVisible)`` of a scope, as the overview and the scope's own answer give it."""


def _folders(*paths: Path) -> None:
    for path in paths:
        path.mkdir(parents=True)


@in_a_mount_namespace
async def test_k6a_a_workspace_made_again_where_its_bind_mount_was_is_orphaned_once_removed(
    space: Space,
) -> None:
    """A Workspace recorded on a bind mount (``home/repos`` bound from ``disk/repos``); the
    mount is gone for good and the folder is made again at its path, on the filesystem below,
    where a Session starts. The record follows (the mount table changed since it was found
    right): once that folder is removed, the Workspace is orphaned, not "not visible" for
    ever."""
    source, point = space.tmp / "disk" / "repos", space.tmp / "home" / "repos"
    _folders(source / "app", point)
    workspace = point / "app"
    space.run("mount", "--bind", source, point)
    key = await space.session_start(workspace)
    assert await space.session_start(workspace) == key  # the record found right, kept
    on_the_mount = space.recorded(key)

    space.run("umount", point)
    workspace.mkdir()
    assert await space.session_start(workspace) == key
    below = space.recorded(key)
    seen = await space.judged(key)
    workspace.rmdir()

    assert (seen, await space.judged(key)) == ([FINE] * 2, [ORPHANED] * 2)
    assert (on_the_mount, below) == (str(point), workspace_mount.mount_point(str(point)))


@in_a_mount_namespace
async def test_k6a_a_workspace_bind_mounted_after_it_was_recorded_is_not_visible_once_unmounted(
    space: Space,
) -> None:
    """A Workspace recorded on the service's own filesystem is moved to ``disk/repos``, which
    is then bind-mounted where it was (``mount --bind disk/repos home/repos``) while the
    service runs, and a Session starts there: the record names the bind mount at once. Once it
    is unmounted, the Workspace is not visible, never orphaned (its notes live on the other
    side)."""
    source, point = space.tmp / "disk" / "repos", space.tmp / "home" / "repos"
    _folders(source, point / "app")
    workspace = point / "app"
    key = await space.session_start(workspace)
    assert await space.session_start(workspace) == key  # the record found right, kept
    on_its_filesystem = space.recorded(key)
    workspace.rename(source / "app")

    space.run("mount", "--bind", source, point)
    assert await space.session_start(workspace) == key
    on_the_mount = space.recorded(key)
    space.run("umount", point)

    assert await space.judged(key) == [NOT_VISIBLE] * 2
    assert (on_its_filesystem, on_the_mount) == (
        workspace_mount.mount_point(str(point)),
        str(point),
    )


WORKSPACES = 40
"""Missing Workspaces the overview judges at once."""


@in_a_mount_namespace
async def test_k6a_the_overview_reads_the_mount_table_once_per_change_whatever_it_judges(
    space: Space,
) -> None:
    """Forty Workspaces, each on a bind mount of its own, all unmounted: the overview judges
    each not visible by the mount table, which it reads once, and not again while nothing is
    mounted or unmounted. One mount made again: one more read, that Workspace present and the
    others still not visible."""
    keys, sources, points = [], [], []
    for number in range(WORKSPACES):
        source, point = space.tmp / "disk" / f"repo{number}", space.tmp / "home" / f"repo{number}"
        _folders(source / "app", point)
        space.run("mount", "--bind", source, point)
        keys.append(await space.session_start(point / "app"))
        sources.append(source)
        points.append(point)
    for point in points:
        space.run("umount", point)

    before = space.reads
    unmounted = await space.overview()
    once = space.reads - before
    again = await space.overview()
    twice = space.reads - before
    space.run("mount", "--bind", sources[0], points[0])
    remounted = await space.overview()
    after_the_mount = space.reads - before

    assert [unmounted[key] for key in keys] == [NOT_VISIBLE] * WORKSPACES
    assert again == unmounted
    assert [remounted[key] for key in keys] == [FINE] + [NOT_VISIBLE] * (WORKSPACES - 1)
    assert (once, twice, after_the_mount) == (1, 1, 2)


@in_a_mount_namespace
async def test_k6a_session_starts_that_cannot_write_the_record_read_the_table_once_per_change(
    space: Space,
) -> None:
    """A read-only data dir (the scope folder mounted read-only onto itself): each Session
    start tries to write the record again and starts all the same, yet reads the mount table
    only once after it changed, not at every start."""
    workspace = space.tmp / "src" / "app"
    _folders(workspace)
    key = await space.session_start(workspace)
    scope = space.root / key
    (scope / layout.MOUNT_FILE).unlink()
    space.run("mount", "--bind", scope, scope)
    space.run("mount", "-o", "remount,bind,ro", scope)

    before = space.reads
    keys = [await space.session_start(workspace) for _ in range(3)]

    assert keys == [key] * 3
    assert not (scope / layout.MOUNT_FILE).exists()
    assert space.reads - before == 1


@in_a_mount_namespace
async def test_k6a_a_process_forked_from_the_service_takes_no_mount_table_change_from_it(
    space: Space,
) -> None:
    """A child made by ``fork`` (a worker a process manager forks from the service) that asks
    the mount table opens its own: the service still sees a mount made before the fork as a
    change, so its records are found again."""
    point = space.tmp / "scratch"
    _folders(point)
    before = MOUNTS.changes()
    space.run("mount", "-t", "tmpfs", "tmpfs", point)
    child = os.fork()
    if child == 0:  # the child polls, then reads the table as it is
        MOUNTS.changes()
        tree = MOUNTS.tree()
        os._exit(0 if tree is not None and tree.mount_point_of(str(point)) == str(point) else 1)
    _, status = await asyncio.to_thread(os.waitpid, child, 0)

    assert os.waitstatus_to_exitcode(status) == 0
    assert MOUNTS.changes() == before + 1


def _record(space: Space, key: str) -> str:
    return (space.root / key / layout.MOUNT_FILE).read_text(encoding="utf-8")


@in_a_mount_namespace
async def test_k6a_a_workspace_whose_path_now_leads_into_another_mount_is_not_visible(
    space: Space,
) -> None:
    """Two Workspaces seen on the service's own filesystem; one is removed there. Then a tmpfs
    is mounted over the other's parent, as a service moved into a container, or a replica in
    another mount namespace, sees it: its path now leads into a mount other than the one it
    was recorded on, so nothing says it was removed: not visible, never orphaned. The one
    removed on its own mount stays orphaned, the tmpfs or not."""
    alive, gone = space.tmp / "r" / "alive" / "ws", space.tmp / "r" / "gone" / "ws"
    _folders(alive, gone)
    keys = [await space.session_start(alive), await space.session_start(gone)]
    recorded = [space.recorded(key) for key in keys]
    gone.rmdir()

    space.run("mount", "-t", "tmpfs", "tmpfs", alive.parent)
    seen = [await space.judged(key) for key in keys]

    assert recorded == [workspace_mount.mount_point(str(space.tmp))] * 2
    assert seen == [[NOT_VISIBLE] * 2, [ORPHANED] * 2]


@in_a_mount_namespace
async def test_k6a_a_workspace_removed_on_its_own_bind_mount_is_orphaned_however_recorded(
    space: Space,
) -> None:
    """Two Workspaces on a bind mount, removed there. One scope holds the record this service
    writes; the other the one an older service wrote for a bind mount (``/`` and the device,
    docs/operations.md): neither says the path leads into another mount, so both are
    orphaned, never "not visible" for ever."""
    source, point = space.tmp / "disk" / "repos", space.tmp / "home" / "repos"
    _folders(source / "new", source / "old", point)
    space.run("mount", "--bind", source, point)
    keys = [await space.session_start(point / "new"), await space.session_start(point / "old")]
    older = f"/\n{source.stat().st_dev}\n"
    (space.root / keys[1] / layout.MOUNT_FILE).write_text(older, encoding="utf-8")
    (point / "new").rmdir()
    (point / "old").rmdir()

    seen = [await space.judged(key) for key in keys]

    assert (space.recorded(keys[0]), _record(space, keys[1])) == (str(point), older)
    assert seen == [[ORPHANED] * 2] * 2


@in_a_mount_namespace
async def test_k6a_another_filesystem_at_the_recorded_mount_point_is_not_visible_across_reboots(
    space: Space,
) -> None:
    """Two Workspaces on a tmpfs, recorded with its type and source, never its device numbers
    (they change with a reboot). The tmpfs is unmounted and mounted again (as at a reboot:
    another device number and another source name, as a ``/dev/sdX`` renamed at boot, written
    into the first record; only the type and the folder shown are compared): the mount is the
    same kind at the same point, empty (what the old one held is lost), so both are orphaned.
    Then another filesystem is mounted there (a folder bound there, as a container's root on
    ``/`` where the host's was): the paths lead into another mount than the recorded one, so
    nothing says they were removed: not visible."""
    point, other = space.tmp / "scratch", space.tmp / "elsewhere"
    _folders(point, other)
    space.run("mount", "-t", "tmpfs", "tmpfs", point)
    _folders(point / "a", point / "b")
    keys = [await space.session_start(point / "a"), await space.session_start(point / "b")]
    records = [_record(space, key) for key in keys]
    device = point.stat().st_dev
    space.run("umount", point)
    space.run("mount", "-t", "tmpfs", "tmpfs", point)
    rebooted = records[0].replace(f"\n{device}\n", f"\n{device + 1}\n")
    rebooted = rebooted.replace("tmpfs tmpfs /", "tmpfs sdb1 /")  # a device renamed at boot
    (space.root / keys[0] / layout.MOUNT_FILE).write_text(rebooted, encoding="utf-8")
    emptied = [await space.judged(key) for key in keys]
    space.run("umount", point)
    space.run("mount", "--bind", other, point)

    assert records == [f"{point}\n{device}\ntmpfs tmpfs /\n"] * 2
    assert emptied == [[ORPHANED] * 2] * 2
    assert [await space.judged(key) for key in keys] == [[NOT_VISIBLE] * 2] * 2
