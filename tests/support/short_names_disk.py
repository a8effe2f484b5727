"""A real file system whose names are limited to fewer bytes than 255, for a test.

eCryptfs with encrypted file names (an encrypted home on Ubuntu) takes names of at most 143
bytes; a few FUSE and network file systems take fewer still. The kernel leaves the limit to the
file system: a lookup, a create or a rename of a longer name fails with ``ENAMETOOLONG``, and
``statfs`` (``pathconf(…, _PC_NAME_MAX)``) says the limit. This one is a FUSE passthrough
(``mfusepy`` over libfuse) of a folder in the test's ``tmp_path`` that does exactly that,
served by a process of its own: every program that touches it — git, the plugin — meets the
limit at the real system call.

The fixture skips, naming what failed, only when no FUSE file system can be mounted here (not
root, no ``/dev/fuse``, no ``fusermount``)."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ECRYPTFS_NAME_MAX = 143
"""The longest name eCryptfs takes with encrypted file names, in bytes."""
FUSE_CACHE_SECONDS = 1.0
"""How long the kernel keeps a FUSE file system's attributes and names by default (libfuse's
``attr_timeout`` and ``entry_timeout``, which a file system on libfuse keeps unless it sets its
own): what the test disk does unless told otherwise, so the code meets an attribute cache as it
does on such a disk."""


@contextlib.contextmanager
def short_names_disk(
    tmp_path: Path,
    name_max: int = ECRYPTFS_NAME_MAX,
    *,
    at: Path | None = None,
    cache_seconds: float = FUSE_CACHE_SECONDS,
) -> Iterator[Path]:
    """Mount a folder whose names take at most ``name_max`` bytes at ``at`` (an existing
    folder, whose entries are moved onto the new disk first: a service's memory root) or at
    ``tmp_path / "short"``, for the ``with`` block; its mount point. The kernel keeps the
    disk's attributes and names ``cache_seconds`` (0: none kept). Skips the test, saying why,
    when no FUSE file system can be mounted here."""
    if shutil.which("fusermount") is None and shutil.which("fusermount3") is None:
        pytest.skip("no short-name disk can be mounted: fusermount is not installed")
    if os.geteuid() != 0 or not Path("/dev/fuse").exists():
        pytest.skip("no short-name disk can be mounted: needs root and /dev/fuse")
    backing, mount_point = tmp_path / "short-backing", at or tmp_path / "short"
    backing.mkdir()
    if at is None:
        mount_point.mkdir()
    else:
        for entry in list(at.iterdir()):
            shutil.move(entry, backing / entry.name)
    served = subprocess.Popen(
        [
            sys.executable,
            "-m",
            __name__,
            str(backing),
            str(mount_point),
            str(name_max),
            str(cache_seconds),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert served.stdout is not None
    said = served.stdout.readline()  # the file system's init callback: mounted
    if said.strip() != "mounted":
        served.kill()
        pytest.fail(f"the short-name disk did not mount: {said}{served.communicate()[1]}")
    try:
        yield mount_point
    finally:
        unmount = shutil.which("fusermount") or "fusermount3"
        subprocess.run([unmount, "-u", str(mount_point)], check=False, capture_output=True)
        served.communicate(timeout=30)  # its pipes closed too


class ShortNames:
    """The file system's operations (``mfusepy``'s: paths as ``/name`` under the mount): each
    the system call on ``backing``, a name part over ``name_max`` bytes refused with
    ``ENAMETOOLONG`` (``mfusepy`` answers an ``OSError`` with its errno), ``statfs`` saying the
    limit."""

    use_ns = True

    def __init__(self, backing: str, name_max: int) -> None:
        self.backing = backing
        self.name_max = name_max

    def check(self, path: str) -> Path:
        """``path`` in the backing folder; ``ENAMETOOLONG`` for a part over the limit."""
        if any(len(os.fsencode(part)) > self.name_max for part in path.split("/")):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), path)
        return Path(self.backing, path.lstrip("/"))

    def init(self, path: str) -> None:
        print("mounted", flush=True)  # what short_names_disk waits for

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        found = os.lstat(self.check(path))
        keys = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_ino")
        answer: dict[str, Any] = {key: getattr(found, key) for key in keys}
        answer.update(
            st_atime=found.st_atime_ns, st_mtime=found.st_mtime_ns, st_ctime=found.st_ctime_ns
        )
        return answer

    def statfs(self, path: str) -> dict[str, int]:
        found = os.statvfs(self.check(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files")
        answer: dict[str, int] = {key: getattr(found, key) for key in keys}
        answer.update(f_frsize=found.f_frsize, f_namemax=self.name_max)
        return answer

    def access(self, path: str, amode: int) -> int:
        if not os.access(self.check(path), amode):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), path)
        return 0

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *(entry.name for entry in self.check(path).iterdir())]

    def readlink(self, path: str) -> str:
        return str(self.check(path).readlink())

    def open(self, path: str, flags: int) -> int:
        return os.open(self.check(path), flags)

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        return os.open(self.check(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        return os.pread(fh, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        return os.pwrite(fh, data, offset)

    def truncate(self, path: str, length: int, fh: int | None = None) -> None:
        os.truncate(self.check(path), length)

    def flush(self, path: str, fh: int) -> None:
        return None

    def fsync(self, path: str, datasync: int, fh: int) -> None:
        os.fsync(fh)

    def release(self, path: str, fh: int) -> None:
        os.close(fh)

    def unlink(self, path: str) -> None:
        self.check(path).unlink()

    def rmdir(self, path: str) -> None:
        self.check(path).rmdir()

    def mkdir(self, path: str, mode: int) -> None:
        self.check(path).mkdir(mode)

    def rename(self, old: str, new: str) -> None:
        self.check(old).rename(self.check(new))

    def link(self, target: str, source: str) -> None:
        os.link(self.check(source), self.check(target))

    def symlink(self, target: str, source: str) -> None:
        self.check(target).symlink_to(source)

    def chmod(self, path: str, mode: int) -> None:
        self.check(path).chmod(mode)

    def chown(self, path: str, uid: int, gid: int) -> None:
        os.lchown(self.check(path), uid, gid)

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> None:
        if times is None:
            os.utime(self.check(path))
        else:
            os.utime(self.check(path), ns=times)


def _serve(backing: str, mount_point: str, name_max: int, cache_seconds: float) -> None:
    """Serve ``backing`` at ``mount_point`` with names of at most ``name_max`` bytes, the
    kernel keeping attributes and names ``cache_seconds``, until unmounted."""
    import mfusepy  # only the serving process loads libfuse

    mfusepy.FUSE(
        ShortNames(backing, name_max),
        mount_point,
        foreground=True,
        nothreads=True,
        attr_timeout=cache_seconds,
        entry_timeout=cache_seconds,
        negative_timeout=0,  # libfuse's default: a name found missing is asked again
    )


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
