"""K-6a: a Workspace on a mount that is not mounted now is "not visible", never orphaned.

The service runs in a mount namespace of its own, where the tests mount and unmount as a user
or a container runtime would (``nsenter`` into the service's namespace): a bind mount within
one filesystem (``mount --bind /data/repos /home/u/repos``, a container's volume), an overlay
and a tmpfs. Unmounted, the Workspace's path names nothing; a bind mount's mount point is then
an empty folder on the same device as before, so only the kernel's mount table tells that the
mount is gone. Orphaned invites deleting live memories: it is said only when the mount is there
and the Workspace's folder is not. Mounted again, the Workspace reads as present at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from memory_api.mount_watch import MountWatch
from memory_api.store import scope_files, scopes, workspace_mount
from memory_core import layout
from memory_core.keys import key_for_real_path
from memory_core.mount_table import MountTree

from tests.api.test_k6a_orphaned_while_in_use import _overview_and_scope
from tests.api.test_k6a_workspace_mount_follows_the_disk import served  # noqa: F401 - a fixture
from tests.support.mount_namespace import mount_origin
from tests.support.serve import ServedProcess, code_under_test, serve
from tests.support.zygote import Zygote

FINE, NOT_VISIBLE, ORPHANED = (False, False), (False, True), (True, False)
"""``(orphaned, notVisible)`` of a scope, as the overview and the scope's own answer give it."""


@dataclass
class Namespaced:
    """A service running in a mount namespace of its own, and the data dir it serves."""

    service: ServedProcess
    root: Path

    def run(self, *command: str | Path) -> None:
        """Run ``command`` (``mount …``, ``umount …``) in the service's mount namespace."""
        done = subprocess.run(
            ["nsenter", f"--target={self.service.process.pid}", "--mount", *map(str, command)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    def session_start(self, workspace: Path) -> str:
        """A Session start in ``workspace``; the scope's key."""
        request = urllib.request.Request(  # noqa: S310 - loopback
            f"{self.service.base_url}/api/projects/acme/agents/coder/memory/session-start",
            data=json.dumps({"workspace": str(workspace)}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
            return str(json.load(answer)["key"])

    def judged(self, key: str) -> list[tuple[bool, bool]]:
        """``(orphaned, notVisible)`` of scope ``key`` in the overview and in its own answer."""
        seen = _overview_and_scope(self.service, key)
        return [(item["orphaned"], item["notVisible"]) for item in seen]

    def recorded(self, key: str) -> str:
        """The mount point scope ``key``'s ``.workspace-mount`` names."""
        return (self.root / key / layout.MOUNT_FILE).read_text(encoding="utf-8").split("\n")[0]


@pytest.fixture
def data_dir(served: ServedProcess) -> Path:  # noqa: F811 - the fixture imported above
    """A data dir with agent ``acme/coder``, served by no process yet."""
    if shutil.which("nsenter") is None:
        pytest.skip("a mount namespace of its own needs nsenter to mount in it")
    return served.data_dir


@pytest.fixture
def namespaced(data_dir: Path) -> Iterator[Namespaced]:
    """A service over ``data_dir`` in a mount namespace of its own (mounts made there are seen
    by it alone, and go with it), stopped after the test."""
    with namespaced_service(data_dir) as service:
        yield service


@contextlib.contextmanager
def namespaced_service(data_dir: Path) -> Iterator[Namespaced]:
    """A service over ``data_dir`` in a mount namespace of its own for the ``with`` block (made
    as ``unshare --mount`` makes one, forked from this test process's zygote: no interpreter
    start and imports of its own)."""
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    service = serve(data_dir, env, zygote=Zygote.shared(), mount_namespace=True)
    try:
        yield Namespaced(service, layout.memory_root(data_dir, "coder"))
    finally:
        service.stop()


def _folders(*paths: Path) -> None:
    for path in paths:
        path.mkdir(parents=True)


def test_k6a_a_workspace_on_a_bind_mount_within_one_filesystem_is_not_visible_while_unmounted(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """``mount --bind data/repos home/repos``, both on one filesystem, and a Session starts in
    ``home/repos/app``. Unmounted, ``home/repos`` is an empty folder on the very device the
    Workspace lay on: not visible, never orphaned. Mounted again it reads as present at once;
    its folder removed while the mount is there, it is orphaned."""
    source, point = tmp_path / "disk" / "repos", tmp_path / "home" / "repos"
    _folders(source / "app", point)
    workspace = point / "app"
    namespaced.run("mount", "--bind", source, point)
    key = namespaced.session_start(workspace)
    seen = namespaced.judged(key)

    namespaced.run("umount", point)
    unmounted = namespaced.judged(key)
    namespaced.run("mount", "--bind", source, point)
    remounted = namespaced.judged(key)
    namespaced.run("rmdir", workspace)
    removed = namespaced.judged(key)

    assert namespaced.recorded(key) == str(point)
    assert source.stat().st_dev == point.stat().st_dev  # one filesystem: one device
    assert (seen, unmounted, remounted, removed) == (
        [FINE] * 2,
        [NOT_VISIBLE] * 2,
        [FINE] * 2,
        [ORPHANED] * 2,
    )


def test_k6a_a_workspace_on_an_overlay_that_is_gone_is_not_visible_and_present_once_remounted(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """An overlay (a container's root or a dev container's layered folder) holding the
    Workspace is unmounted: not visible. Mounted again from the same layers it reads as
    present at once; its folder removed through the overlay, it is orphaned."""
    lower, upper, work, point = (tmp_path / name for name in ("lower", "upper", "work", "ov"))
    _folders(lower / "app", upper, work, point)
    workspace = point / "app"
    mount = ("mount", "-t", "overlay", "overlay", "-o",
             f"lowerdir={lower},upperdir={upper},workdir={work}", point)  # fmt: skip
    namespaced.run(*mount)
    key = namespaced.session_start(workspace)
    seen = namespaced.judged(key)

    namespaced.run("umount", point)
    unmounted = namespaced.judged(key)
    namespaced.run(*mount)
    remounted = namespaced.judged(key)
    namespaced.run("rmdir", workspace)
    removed = namespaced.judged(key)

    assert namespaced.recorded(key) == str(point)
    assert (seen, unmounted, remounted, removed) == (
        [FINE] * 2,
        [NOT_VISIBLE] * 2,
        [FINE] * 2,
        [ORPHANED] * 2,
    )


def test_k6a_a_workspace_on_a_tmpfs_that_is_gone_is_not_visible_and_orphaned_on_a_new_one(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """A Workspace on a tmpfs: unmounted, not visible. A new tmpfs mounted there is empty (what
    the old one held is lost for good): the mount is there and the folder is not, orphaned."""
    point = tmp_path / "scratch"
    point.mkdir()
    workspace = point / "app"
    namespaced.run("mount", "-t", "tmpfs", "tmpfs", point)
    namespaced.run("mkdir", workspace)
    key = namespaced.session_start(workspace)
    seen = namespaced.judged(key)

    namespaced.run("umount", point)
    unmounted = namespaced.judged(key)
    namespaced.run("mount", "-t", "tmpfs", "tmpfs", point)
    emptied = namespaced.judged(key)

    assert namespaced.recorded(key) == str(point)
    assert (seen, unmounted, emptied) == ([FINE] * 2, [NOT_VISIBLE] * 2, [ORPHANED] * 2)


def test_k6a_a_workspace_that_is_itself_a_bind_mount_point_is_not_visible_while_unmounted(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """``mount --bind data/app home/app`` and a Session starts in ``home/app`` itself.
    Unmounted, ``home/app`` is still a folder (empty, on the filesystem below), yet it is not
    the Workspace: not visible, never present. Mounted again it reads as present at once. A
    Workspace made again in that folder while unmounted (it holds files) is present at once,
    before any Session start there (found: it read not visible until one)."""
    source, point = tmp_path / "disk" / "app", tmp_path / "home" / "app"
    _folders(source, point)
    namespaced.run("mount", "--bind", source, point)
    key = namespaced.session_start(point)
    seen = namespaced.judged(key)

    namespaced.run("umount", point)
    unmounted = namespaced.judged(key)
    namespaced.run("mount", "--bind", source, point)
    remounted = namespaced.judged(key)
    namespaced.run("umount", point)
    (point / "README.md").write_text("made again\n", encoding="utf-8")
    made_again = namespaced.judged(key)

    assert namespaced.recorded(key) == str(point)
    assert (seen, unmounted, remounted) == ([FINE] * 2, [NOT_VISIBLE] * 2, [FINE] * 2)
    assert made_again == [FINE] * 2


def test_k6a_a_marker_read_for_its_path_alone_asks_nothing_of_the_workspace(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found: reading a scope's marker for its path (a group search's first pass after a
    restart, a Session start's check) judged whether its Workspace is there, and read its
    mount record, for every scope; only where presence is shown (an overview row, the scope's
    own answer) is it asked."""
    asked: list[str] = []
    judge = scopes.workspace_presence

    def presence(scope: Path | str, path: str) -> tuple[bool, bool]:
        asked.append(path)
        return judge(scope, path)

    monkeypatch.setattr(scopes, "workspace_presence", presence)
    monkeypatch.setattr(scope_files, "workspace_presence", presence)
    root, workspace = tmp_path / "root", tmp_path / "app"
    key = key_for_real_path(str(workspace))
    _folders(root / key, workspace)
    (root / key / layout.MARKER_FILE).write_text(f"{workspace}\n", encoding="utf-8")
    files = scope_files.ScopeFiles()

    path_alone = files.marker(root, root / key, key, orphan_check=False)
    searched = asked[:]
    shown = files.marker(root, root / key, key)

    assert (path_alone.path, searched) == (str(workspace), [])
    assert (shown.orphaned, shown.not_visible, asked) == (False, False, [str(workspace)])


def test_k6a_a_workspace_below_a_bind_mount_point_whose_folder_is_gone_is_not_visible(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """Unmounted, a bind mount's mount point may go too (a desktop removes ``/media/u/DRIVE``
    on unmount): nothing says the Workspace was removed, not visible."""
    source, point = tmp_path / "disk" / "repos", tmp_path / "media" / "repos"
    _folders(source / "app", point)
    namespaced.run("mount", "--bind", source, point)
    key = namespaced.session_start(point / "app")

    namespaced.run("umount", point)
    namespaced.run("rmdir", point)

    assert namespaced.judged(key) == [NOT_VISIBLE] * 2


def test_k6a_a_workspace_on_the_services_own_filesystem_removed_is_orphaned_beside_bind_mounts(
    namespaced: Namespaced, tmp_path: Path
) -> None:
    """A Workspace on no mount of its own (recorded as ``/``) whose folder is removed is
    orphaned, as before, bind mounts elsewhere or not: one beside its folder whose name
    starts alike changes nothing."""
    source, beside = tmp_path / "disk" / "repos", tmp_path / "home" / "repos-mounted"
    workspace = tmp_path / "home" / "repos"
    _folders(source, beside, workspace)
    namespaced.run("mount", "--bind", source, beside)
    key = namespaced.session_start(workspace)
    workspace.rmdir()

    assert namespaced.recorded(key) == "/"
    assert namespaced.judged(key) == [ORPHANED] * 2


def test_k6a_an_older_record_of_a_bind_mount_as_its_filesystem_is_corrected_by_the_next_service(
    data_dir: Path, tmp_path: Path
) -> None:
    """A service before this one recorded a Workspace on a bind mount within one filesystem as
    that filesystem (``/`` and its device). The first Session start of a service that meets
    that record finds the bind mount and records it, so the Workspace is not visible once
    it is unmounted."""
    source, point = tmp_path / "disk" / "repos", tmp_path / "home" / "repos"
    _folders(source / "app", point)
    workspace = point / "app"
    with namespaced_service(data_dir) as first:
        first.run("mount", "--bind", source, point)
        key = first.session_start(workspace)
    mount_file = first.root / key / layout.MOUNT_FILE
    mount_file.write_text(f"/\n{source.stat().st_dev}\n", encoding="utf-8")

    with namespaced_service(data_dir) as second:
        second.run("mount", "--bind", source, point)
        assert second.session_start(workspace) == key
        second.run("umount", point)
        unmounted = second.judged(key)

    point_line, device, origin, end = mount_file.read_text(encoding="utf-8").split("\n")
    # the bind mount's filesystem: its type and source, the folder it shows its own
    kind, device_name, _ = mount_origin(source).split(" ")
    assert (point_line, device, end) == (str(point), str(source.stat().st_dev), "")
    assert origin.split(" ")[:2] == [kind, device_name]
    assert unmounted == [NOT_VISIBLE] * 2


ROOT = "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
"""A mount table's root filesystem line: mount 22, its parent outside the table."""


STACKED = (
    "40 22 0:41 / /srv rw - tmpfs tmpfs rw\n"
    "41 40 0:42 / /srv rw - tmpfs tmpfs rw\n"
    "42 41 0:43 / /srv/x rw - tmpfs tmpfs rw\n"
    "43 40 0:44 / /srv/y rw - tmpfs tmpfs rw\n"
)
"""Two mounts stacked on ``/srv``, a mount on the top one's ``x`` and one on the lower's ``y``
(hidden: the walk reaches ``/srv`` on the top one)."""


@pytest.mark.parametrize(
    ("table", "path", "point"),
    [
        (ROOT + "40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\n",
         "/home/u/repos/app", "/home/u/repos"),
        (ROOT + "40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\n",
         "/home/u/repository/app", "/"),
        (ROOT + "40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\n",
         "/home/u/repos", "/home/u/repos"),
        (ROOT + "40 22 0:41 / /srv/a rw - tmpfs tmpfs rw\n"
         "41 40 0:42 / /srv/a/b rw - tmpfs tmpfs rw\n"
         "42 22 0:43 / /srv rw - tmpfs tmpfs rw\n",
         "/srv/a/b/app", "/srv"),
        (ROOT + STACKED, "/srv/x/app", "/srv/x"),
        (ROOT + STACKED, "/srv/y/app", "/srv"),
        ("1 1 0:2 / / rw - rootfs rootfs rw\n2 1 8:1 / /mnt/usb\\040drive rw - vfat /dev/sdb1 rw\n",
         "/mnt/usb drive/app", "/mnt/usb drive"),
        (ROOT + "23 22 0:5 / / rw - tmpfs tmpfs rw\n24 22 8:1 / /mnt rw - ext4 /dev/sdb1 rw\n",
         "/mnt/app", "/"),
        ("40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\n",
         "/home/u/repos/app", None),
    ],
    ids=[
        "bind-within-one-filesystem", "a-name-that-starts-alike", "the-mount-point-itself",
        "a-mount-hidden-under-a-later-one-above-it", "stacked-mounts-the-top-ones-child",
        "stacked-mounts-the-lower-ones-child-is-hidden",
        "a-root-that-is-its-own-parent-and-an-escaped-space", "a-mount-stacked-on-the-root",
        "no-root-mount-as-in-a-chroot",
    ],
)  # fmt: skip
def test_k6a_the_mount_a_path_lies_on_is_the_one_the_kernel_walks_to(
    table: str, path: str, point: str | None
) -> None:
    """The mount point a path lies on follows the mount tree from the root down, as the kernel
    walks the path: a bind mount within one filesystem is a mount of its own, a mount hidden
    under a later one above it is not reached, the top of stacked mounts is."""
    assert MountTree.parse(table).mount_point_of(path) == point


def test_k6a_mount_points_named_with_escaped_characters_are_read_as_the_kernel_names_them(
    tmp_path: Path,
) -> None:
    """The kernel writes a space, tab, newline and backslash in a mount point as an octal
    escape (``\\040``, ``\\011``, ``\\012``, ``\\134``): each bind mount so named, in a
    mount namespace of its own, is found as the mount point of a path below it."""
    if shutil.which("unshare") is None:
        pytest.skip("a mount namespace of its own needs unshare")
    source = tmp_path / "disk"
    points = [tmp_path / name for name in ("a\nb", "a b", "a\tb", "a\\012b", "a\rb")]
    _folders(source, *points)
    script = "".join(f'mount --bind "$1" "${index + 2}" && ' for index in range(len(points)))
    done = subprocess.run(
        ["unshare", "--mount", "sh", "-c", f"{script}cat /proc/self/mountinfo", "sh",
         source, *points],
        capture_output=True, check=False, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    tree = MountTree.parse(done.stdout.decode("utf-8", "surrogateescape"))

    found = [tree.mount_point_of(f"{point}/app") for point in points]

    assert found == [str(point) for point in points]


PARSE_UNDER_THE_LOCALE = """
import json, sys
from memory_core.mount_table import MountTree
table, paths = json.loads(sys.stdin.read())
tree = MountTree.parse(table)
print(json.dumps([[sys.getfilesystemencoding(), tree.mount_point_of(path)] for path in paths]))
"""


def test_k6a_a_mount_point_named_beyond_ascii_is_read_under_a_c_locale() -> None:
    """Found: the mount table's escapes were decoded by the locale's file name encoding while
    the table is read as UTF-8, so under ``LC_ALL=C`` (ASCII file names) a disk named
    ``Fotos Mamá`` raised UnicodeEncodeError at each Session start and overview. A field is
    UTF-8 both ways (a byte that is none as a surrogate), whatever the locale."""
    latin1 = "/media/u/Fotos Mam\udce1"  # a name in Latin-1: its byte 0xE1 is no UTF-8
    table = (
        "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
        "40 22 8:17 / /media/u/Fotos\\040Mam\u00e1 rw - vfat /dev/sdb1 rw\n"
        "41 22 8:33 / /media/u/Fotos\\040Mam\udce1 rw - vfat /dev/sdc1 rw\n"
    )
    paths = ["/media/u/Fotos Mam\u00e1/app", f"{latin1}/app", "/media/u/other"]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **code_under_test(),
        "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", PARSE_UNDER_THE_LOCALE],
        input=json.dumps([table, paths]), capture_output=True, text=True, env=env, check=False,
        encoding="utf-8", errors="surrogateescape",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        ["ascii", "/media/u/Fotos Mam\u00e1"], ["ascii", latin1], ["ascii", "/"]
    ]  # fmt: skip


def test_k6a_without_a_readable_mount_table_a_mount_point_is_told_by_devices(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where ``/proc`` is not mounted, the mount point is where the device changes on the way
    up, and a folder whose device is its parent's is not mounted, as before the table."""
    monkeypatch.setattr(workspace_mount, "MOUNTS", MountWatch(str(tmp_path / "no-mountinfo")))
    folder = tmp_path / "app"
    folder.mkdir()
    (tmp_path / layout.MOUNT_FILE).write_text(f"{folder}\n{folder.stat().st_dev}\n")

    point = workspace_mount.mount_point(str(folder))

    assert point != str(folder)
    assert str(folder).startswith(point)
    assert workspace_mount.mount_gone(tmp_path) is True
