"""K-1, K-3, K-5: the Workspace's real path is ``realpath``'s, however it is found.

The key is a hash of the real path ``check_real_workspace`` gives, so it must equal
``os.path.realpath`` to the byte for every kind of path, and a path that is not a folder is
refused.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.errors import BadRequest
from memory_api.store.sessions import check_real_workspace

Layout = Callable[[Path], str]


def _plain(tmp: Path) -> str:
    (tmp / "repo").mkdir()
    return str(tmp / "repo")


def _symlinked(tmp: Path) -> str:
    (tmp / "real").mkdir()
    (tmp / "link").symlink_to(tmp / "real")
    return str(tmp / "link")


def _chain_and_dotdot(tmp: Path) -> str:
    (tmp / "a" / "b").mkdir(parents=True)
    (tmp / "c").mkdir()
    (tmp / "one").symlink_to(tmp / "a" / "b")
    (tmp / "two").symlink_to("one")  # relative link to a link
    return str(tmp / "two" / ".." / ".." / "c") + "/"  # .. after the links, a trailing slash


def _missing_below_a_link(tmp: Path) -> str:
    (tmp / "real").mkdir()
    (tmp / "link").symlink_to(tmp / "real")
    return str(tmp / "link" / "not-here" / "deeper")


def _named_like_a_removed_file(tmp: Path) -> str:
    (tmp / "repo (deleted)").mkdir()
    return str(tmp / "repo (deleted)")


def _odd_bytes(tmp: Path) -> str:
    name = os.fsdecode(b"caf\xc3\xa9-\xff-repo")  # UTF-8 and a byte that is not
    (tmp / name).mkdir()
    return str(tmp / name)


@pytest.mark.parametrize(
    "layout",
    [
        _plain,
        _symlinked,
        _chain_and_dotdot,
        _missing_below_a_link,
        _named_like_a_removed_file,
        _odd_bytes,
    ],
)
def test_k1_the_real_path_is_realpaths_to_the_byte(tmp_path: Path, layout: Layout) -> None:
    workspace = layout(tmp_path)
    assert check_real_workspace(workspace) == os.path.realpath(workspace)


@pytest.mark.parametrize("kind", ["file", "link to a file", "fifo", "symlink loop"])
def test_k1_a_workspace_that_is_no_folder_is_refused(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "thing"
    if kind == "symlink loop":  # resolves to no folder: refused, as it always was
        (tmp_path / "other").symlink_to(target)
        target.symlink_to(tmp_path / "other")
    elif kind == "fifo":
        os.mkfifo(target)  # stat only: never opened, never blocks
    else:
        target.write_text("x", encoding="utf-8")
    workspace = target
    if kind == "link to a file":
        workspace = tmp_path / "link"
        workspace.symlink_to(target)

    with pytest.raises(BadRequest, match="must be a directory"):
        check_real_workspace(str(workspace))
