"""P-3: a word longer than a file name may be is no file with other names; a path too long is.

A quoted sentence in a command (``git commit -m "…"`` of 325 characters, a JSON body) is read
as a possible path; the kernel refuses to look it up (``ENAMETOOLONG``), and the guard took
that read error for a file with other names (hard links) and refused the everyday command.
A name longer than its filesystem allows names no file under any spelling, however long the
path around it: it passes; so does a path past ``PATH_MAX`` below a missing folder. A path
longer than the kernel looks up through folders that are there (each name short) may still be
reached by a ``cd`` and a shorter spelling: it stays refused (a read error never widens access).
"""

from __future__ import annotations

from pathlib import Path

from harness_memory.guard import has_other_names

from tests.support.past_path_max import LINK_NAME, PATH_MAX, link_past_path_max


def test_p3_a_name_longer_than_a_filesystem_allows_has_no_other_names(tmp_path: Path) -> None:
    sentence = " ".join(["a sentence quoted in a commit message"] * 8)
    assert len(sentence.encode()) > 255
    assert not has_other_names(str(tmp_path / sentence), str(tmp_path))


def test_p3_a_path_past_path_max_below_a_missing_folder_has_no_other_names(
    tmp_path: Path,
) -> None:
    """A sentence of 4.5 KB, one name or a ``/`` every few words, names no file."""
    lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 80
    assert not has_other_names(str(tmp_path / lorem), str(tmp_path))
    too_long = str(tmp_path) + "/see the docs" * (PATH_MAX // 13 + 1)
    assert not has_other_names(too_long, str(tmp_path))


def test_p3_a_path_longer_than_the_kernel_looks_up_still_counts(tmp_path: Path) -> None:
    """Through folders that are there the kernel's walk from a ``cd`` goes on: a link there,
    or a name no file has yet, cannot be told from a file with another name."""
    deep = link_past_path_max(tmp_path / "deep", tmp_path)
    assert has_other_names(f"{deep}/{LINK_NAME}", str(tmp_path))
    assert has_other_names(f"{deep}/{'n' * 250}", str(tmp_path))
