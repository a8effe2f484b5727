"""A ``/proc/self/mountinfo`` stand-in for the change feed's filesystem check (Q-4)."""

from __future__ import annotations

import os
from pathlib import Path


def on_nfs(folder: Path, data_dir: Path) -> str:
    """Write, in ``folder``, a mountinfo text naming ``data_dir`` (whose device it takes) an
    NFS mount, as a shared data dir would be; its path, for ``ChangeFeed(mountinfo=…)``."""
    device = data_dir.stat().st_dev
    mountinfo = folder / "mountinfo"
    mountinfo.write_text(
        f"40 1 {os.major(device)}:{os.minor(device)} / {data_dir} rw - nfs4 srv:/data rw\n",
        encoding="utf-8",
    )
    return str(mountinfo)
