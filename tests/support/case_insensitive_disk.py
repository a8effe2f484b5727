"""A real case-insensitive file system for a test: an exFAT image (``mkfs.exfat``, Debian's
exfatprogs) on a loop device, mounted with ``mount.exfat-fuse`` (Debian's exfat-fuse), the file
system Windows and macOS use on removable disks: ``OK.md`` and ``ok.md`` (``Été.md`` and
``été.md``) are one file there, and git initialised on it sets ``core.ignorecase``.

The kernel's own case-insensitive ext4 and tmpfs (``-O casefold``) need a kernel built with
``CONFIG_UNICODE``, and its vfat a module: neither is certain on a test machine, FUSE is. The
fixture skips, naming what failed, only when no such disk can be mounted (not root, no
``/dev/fuse`` or loop device, the programs missing): ``.ci/run`` installs the programs."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

SIZE = 64 * 1024 * 1024  # bytes: the smallest exFAT image mkfs.exfat makes comfortably
IMAGE_NAME = "disk.img"
"""The disk's image, in the test's ``tmp_path``: every byte ever written to the disk, removed
files' included (exFAT clears no cluster it frees), read once the ``with`` block is over."""
PROGRAMS = ("mkfs.exfat", "mount.exfat-fuse", "losetup", "umount")


@contextlib.contextmanager
def case_insensitive_disk(tmp_path: Path, *, private: bool = False) -> Iterator[Path]:
    """Mount a new exFAT disk at ``tmp_path / "disk"`` for the ``with`` block; its mount point.
    exFAT keeps no modes: every file and folder shows ``0777`` (which remote mode's copy and
    the write guard take for a folder every account may write, P-3), or with ``private``
    ``0700``/``0600`` (``umask=077``, as a desktop mounts a removable disk for the user who
    plugged it in). Skips the test, saying why, when mounting is impossible here."""
    missing = [program for program in PROGRAMS if shutil.which(program) is None]
    if missing:
        pytest.skip(f"no case-insensitive disk can be mounted: {', '.join(missing)} not installed")
    if os.geteuid() != 0 or not Path("/dev/fuse").exists():
        pytest.skip("no case-insensitive disk can be mounted: needs root and /dev/fuse")
    image, mount_point = tmp_path / IMAGE_NAME, tmp_path / "disk"
    mount_point.mkdir()
    with image.open("wb") as handle:
        handle.truncate(SIZE)
    _run("mkfs.exfat", str(image))
    loop = _run("losetup", "--find", "--show", str(image)).strip()
    try:
        _run("mount.exfat-fuse", *(["-o", "umask=077"] if private else []), loop, str(mount_point))
        try:
            yield mount_point
        finally:
            subprocess.run(["umount", str(mount_point)], check=True, capture_output=True)
    finally:
        subprocess.run(["losetup", "--detach", loop], check=False, capture_output=True)


def _run(*command: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip()
        pytest.skip(f"no case-insensitive disk can be mounted: {' '.join(command[:1])}: {said}")
    return done.stdout
