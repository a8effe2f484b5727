"""A folder on a disk of its own, small enough to fill: a tmpfs mounted there (root only), as
a data dir's volume that runs full. Writes below it fail with the kernel's own ``ENOSPC`` once
:func:`fill` has taken its last byte, for root too.
"""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FILLER = "filler"
"""The file :func:`fill` writes."""


@contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    """Mount a tmpfs of ``size`` (``mount``'s spelling) on ``folder`` for the ``with`` block
    (the test is skipped, saying why, where no mount can be made: not root, no mount
    namespace of its own); unmounted after, whatever happened."""
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.decode().strip()})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write ``folder``'s file system full, until the kernel says ``ENOSPC`` for one byte;
    return the file written (remove it to give the space back)."""
    chunk = b"\0" * 65536
    filler = folder / FILLER
    with filler.open("wb", buffering=0) as handle:
        while True:
            try:
                handle.write(chunk)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                if len(chunk) == 1:
                    return filler
                chunk = chunk[: len(chunk) // 2]
