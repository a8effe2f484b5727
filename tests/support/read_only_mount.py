"""A folder made read-only for real: bind-mounted onto itself, then remounted read-only, as a
volume mounted read-only is (a Kubernetes ``readOnly`` mount, a disk the kernel remounted
read-only after errors). Writes below it fail with the kernel's own ``EROFS``, for root too.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """Mount ``folder`` read-only onto itself for the ``with`` block (root only: the test is
    skipped where no mount can be made); unmounted after, whatever happened."""
    bound = subprocess.run(
        ["mount", "--bind", str(folder), str(folder)], capture_output=True, check=False
    )
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({bound.stderr.decode().strip()})")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
