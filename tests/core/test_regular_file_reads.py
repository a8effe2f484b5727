"""A small file read whole is read capped, never waiting on a FIFO (memory_core.regular_files).

Settings, templates, a sync state and a machine id are files a user or another program may
leave as anything: a FIFO nobody writes (a plain ``open`` waits for good), a folder, a symlink,
or a file far larger than what it should hold (read whole into memory).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from memory_core.errors import NotRegularFileError
from memory_core.regular_files import read_regular_file


def test_a_regular_file_within_the_cap_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b"{}\n")
    assert read_regular_file(path, 3) == b"{}\n"


def test_a_file_over_the_cap_is_refused_with_efbig(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b"x" * 4097)
    with pytest.raises(OSError, match="larger than 4096 bytes") as raised:
        read_regular_file(path, 4096)
    assert raised.value.errno == errno.EFBIG


@pytest.mark.parametrize("what", ["fifo", "folder"])
def test_a_fifo_or_a_folder_is_no_regular_file_and_never_waits(tmp_path: Path, what: str) -> None:
    path = tmp_path / "machine-id"
    if what == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    with pytest.raises(NotRegularFileError):
        read_regular_file(path, 64)


def test_a_symlink_is_followed_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"id\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular_file(tmp_path / "link", 64) == b"id\n"
    with pytest.raises(OSError) as raised:
        read_regular_file(tmp_path / "link", 64, follow_symlinks=False)
    assert raised.value.errno == errno.ELOOP


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "gone", 64)
