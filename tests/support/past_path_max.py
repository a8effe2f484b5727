"""A symlink whose absolute path is past ``PATH_MAX`` in a folder whose own path is not: the
kernel walks to it from that folder (a ``cd`` there, then a short relative spelling), where an
``lstat`` of its absolute path answers ``ENAMETOOLONG`` (P-3, K-1)."""

from __future__ import annotations

import os
from pathlib import Path

PATH_MAX = os.pathconf("/", "PC_PATH_MAX")
"""The longest path the kernel looks up, in bytes with its NUL (Linux: 4096)."""
LINK_NAME = "L" * 250
"""The link's name: short enough for a file system (NAME_MAX 255), long enough to pass
``PATH_MAX`` from a folder ``PATH_MAX - 200`` bytes deep."""


def link_past_path_max(top: Path, target: Path) -> str:
    """Folders of names of up to 200 characters below ``top`` (made through descriptors, as a
    ``cd`` reaches them) until the deepest is 200 bytes short of ``PATH_MAX``, and in it a symlink
    :data:`LINK_NAME` to ``target``; the deepest folder's absolute path, itself shorter than
    ``PATH_MAX`` (a ``cd`` to it works), its link's past it."""
    top.mkdir(parents=True, exist_ok=True)
    deepest, wanted = str(top), PATH_MAX - 200
    folder = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        while len(os.fsencode(deepest)) < wanted:
            name = "d" * min(200, max(1, wanted - len(os.fsencode(deepest)) - 1))
            os.mkdir(name, dir_fd=folder)
            below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder, deepest = below, f"{deepest}/{name}"
        os.symlink(target, LINK_NAME, dir_fd=folder)
    finally:
        os.close(folder)
    assert len(os.fsencode(f"{deepest}/{LINK_NAME}")) >= PATH_MAX > len(os.fsencode(deepest))
    return deepest
