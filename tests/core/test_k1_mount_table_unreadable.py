"""K-1, A-9: whether a Workspace's walk reaches procfs is never guessed.

A path spelt as its real path is not walked at all; one that resolves elsewhere (a symlink, a
``..``) is walked as the kernel walks it, and the mount table tells which file system each
step is on. When that table is there but cannot be read, the walk's verdict is unknown: the
path gives no key (:class:`~memory_core.errors.ReachesProc`, its ``reached`` None and its
reason the read's error), so the harness sends it as typed and the service judges it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from memory_core import proc_paths
from memory_core.errors import ReachesProc
from memory_core.keys import real_workspace_path

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the mount table is Linux's")


@pytest.fixture
def unreadable_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mount table is a folder: reading it fails (``EISDIR``)."""
    table = tmp_path / "mountinfo"
    table.mkdir()
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(table))


def test_k1_a_real_path_needs_no_mount_table(tmp_path: Path, unreadable_table: None) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()

    assert real_workspace_path(plain) == str(plain)


def test_k1_a_path_through_a_link_is_refused_when_the_table_cannot_be_read(
    tmp_path: Path, unreadable_table: None
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)

    with pytest.raises(ReachesProc) as refused:
        real_workspace_path(tmp_path / "link")

    assert refused.value.reached is None
