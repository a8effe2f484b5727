"""K-1, P-3: ``real_path`` resolves a path as the kernel walks it, and where it cannot look a
name up it does not guess.

``os.path.realpath`` takes a name it cannot ``lstat`` for a plain folder and folds a ``..``
after it by its text. Past ``PATH_MAX`` (``ENAMETOOLONG`` for the whole absolute path) the
kernel still walks the path from a folder a ``cd`` reached, follows the name if it is a
symlink and only then takes the ``..``: the answer named a folder the write never reaches.
Such a path is unknown (a named error: the guard refuses it). A name that is surely not there
(missing, or longer than a file name may be) stops the kernel's walk too: it and what follows
stay as spelled, ``..`` included (``mkdir build && cd build && cmake ..``).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from memory_core.errors import UnresolvablePath, UnseenName
from memory_core.keys import names_no_file, real_path

from tests.support.past_path_max import LINK_NAME, PATH_MAX, link_past_path_max


def test_k1_a_symlink_past_path_max_makes_the_path_unknown_with_or_without_dots(
    tmp_path: Path,
) -> None:
    (tmp_path / "elsewhere" / "sub").mkdir(parents=True)
    deep = link_past_path_max(tmp_path / "deep", tmp_path / "elsewhere" / "sub")

    for after in ("../MEMORY.md", "MEMORY.md", ""):
        with pytest.raises(UnseenName, match="File name too long") as raised:
            real_path(f"{deep}/{LINK_NAME}/{after}")
        assert raised.value.name == LINK_NAME
        assert raised.value.errno == errno.ENAMETOOLONG  # every UnresolvablePath has one
        assert isinstance(raised.value, UnresolvablePath)  # every caller's refusal of unknowns
    assert os.path.realpath(f"{deep}/{LINK_NAME}/../MEMORY.md") == f"{deep}/MEMORY.md"
    assert real_path(deep) == deep


def test_k1_dots_after_a_name_not_there_fold_as_spelled(tmp_path: Path) -> None:
    sentence = "a sentence quoted in a commit message " * 120
    assert len(sentence.encode()) > PATH_MAX
    for spelled in (
        f"{tmp_path}/build/..",
        f"{tmp_path}/build/../dist/x",
        f"{tmp_path}/file.txt/../x",
        f"{tmp_path}/{sentence}",
        f"{tmp_path}/{sentence}/../x",
        f"{tmp_path}/missing/{sentence}/more",
    ):
        (tmp_path / "file.txt").write_text("", encoding="utf-8")
        assert real_path(spelled) == os.path.normpath(spelled), spelled[:80]


def test_k1_a_folder_this_account_may_not_search_is_unknown_only_before_dots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``EACCES`` stops this account's walk as a missing name does; another account (``sudo``)
    walks on, following a symlink there before a ``..``. Played by ``lstat`` (the tests may
    run as root, whom no folder mode stops)."""
    shut = f"{tmp_path}/shut"
    lstat = os.lstat

    def searched(path: str) -> os.stat_result:
        if path.startswith(f"{shut}/"):
            raise PermissionError(13, "Permission denied", path)
        return lstat(path)

    monkeypatch.setattr(os, "lstat", searched)
    (tmp_path / "shut").mkdir()
    assert real_path(f"{shut}/lnk/x") == f"{shut}/lnk/x"
    with pytest.raises(UnseenName, match="Permission denied") as raised:
        real_path(f"{shut}/lnk/../x")
    assert raised.value.errno == errno.EACCES

    (tmp_path / "other" / "sub").mkdir(parents=True)
    (tmp_path / "shut" / "in2").symlink_to(tmp_path / "other" / "sub")
    (tmp_path / "via2").symlink_to("shut/in2")  # the shut folder met inside a link's text
    assert real_path(f"{tmp_path}/via2/x") == f"{shut}/in2/x"
    with pytest.raises(UnseenName, match="Permission denied"):
        real_path(f"{tmp_path}/via2/../x.md")  # another account: other/x.md, not shut/x.md


def test_k1_names_no_file_only_where_the_walk_meets_a_name_not_there(tmp_path: Path) -> None:
    sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 80
    assert names_no_file(f"{tmp_path}/{sentence}")
    assert names_no_file(f"{tmp_path}/missing" + "/see the docs" * (PATH_MAX // 13 + 1))
    assert not names_no_file(str(tmp_path))
    assert names_no_file(f"{tmp_path}/not-yet.md")
    (tmp_path / "there.md").write_text("", encoding="utf-8")
    assert not names_no_file(f"{tmp_path}/there.md")
    deep = link_past_path_max(tmp_path / "deep", tmp_path)
    assert not names_no_file(f"{deep}/{LINK_NAME}/x")  # the kernel reaches it from a cd
