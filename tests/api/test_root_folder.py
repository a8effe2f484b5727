"""The memory root held open for a request's ``stat`` calls (issue 30): the same answers as
absolute paths, whatever the root is."""

from __future__ import annotations

import os
from pathlib import Path

from memory_api.store.root_folder import RootFolder


def test_a_scope_path_is_taken_from_the_open_root_and_gives_the_same_stat(tmp_path: Path) -> None:
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    index = os.fspath(tmp_path / "user" / "MEMORY.md")
    with RootFolder(tmp_path) as at:
        assert at.fd is not None
        assert at.relative(index) == f"user{os.sep}MEMORY.md"
        assert os.lstat(at.relative(index), dir_fd=at.fd) == os.lstat(index)
    assert at.fd is None  # closed on exit


def test_a_path_outside_the_root_is_used_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "rootless").mkdir()  # shares the root's path as a prefix, is not under it
    outside = os.fspath(tmp_path / "rootless")
    with RootFolder(tmp_path / "root") as at:
        assert at.relative(outside) == outside
        assert at.relative(os.fspath(tmp_path / "root")) == os.fspath(tmp_path / "root")
        assert os.stat(at.relative(outside), dir_fd=at.fd) == Path(outside).stat()


def test_a_root_that_cannot_be_opened_leaves_every_path_absolute(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for root in (tmp_path / "missing", tmp_path / "file"):
        with RootFolder(root) as at:
            assert at.fd is None
            assert at.relative(os.fspath(root / "user")) == os.fspath(root / "user")
