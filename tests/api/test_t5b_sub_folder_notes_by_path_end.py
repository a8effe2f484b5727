"""T-5b: a wiki link naming a note by the end of its path is looked up in the scope's folders.

Obsidian opens ``[[2026/feb]]`` as ``archive/2026/feb.md``; the service finds such files by one
bounded walk of the scope's sub-folders (:func:`sub_folder_files_ending`). The scope's own files
are its topic files, looked up apart: a scope of many notes at its root still has its
sub-folders walked, and the bound counts only what is below it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store import scopes
from memory_api.store.scopes import (
    sub_folder_files,
    sub_folder_files_any_case,
    sub_folder_files_ending,
    walk_sub_folders,
)

from tests.support.folder_chain import folder_chain


def _note(scope: Path, path: str) -> None:
    (scope / path).parent.mkdir(parents=True, exist_ok=True)
    (scope / path).write_text("a note\n", encoding="utf-8")


def test_t5b_a_path_end_names_the_notes_below_in_any_case_or_unicode_form(tmp_path: Path) -> None:
    _note(tmp_path, "archive/2026/Feb.md")
    _note(tmp_path, "old/archive/2026/feb.md")
    _note(tmp_path, "archive/caf\u0065\u0301/x.md")  # an accent decomposed, as macOS writes it
    _note(tmp_path, "archive/2026/feb.md.bak")
    _note(tmp_path, "my2026/feb.md")  # ends with the text, not with the folder
    found = sub_folder_files_ending(tmp_path, ["2026/feb.md", "caf\u00e9/x.md"])
    assert found == {"archive/2026/Feb.md", "old/archive/2026/feb.md", "archive/cafe\u0301/x.md"}


def test_t5b_the_walk_bound_counts_only_the_sub_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scopes, "SUB_FOLDER_WALK_CAP", 4)
    for number in range(10):
        _note(tmp_path, f"topic-{number}.md")
    _note(tmp_path, "archive/2026/feb.md")
    assert sub_folder_files_ending(tmp_path, ["2026/feb.md"]) == {"archive/2026/feb.md"}

    for number in range(10):
        _note(tmp_path, f"archive/more-{number}.md")
    assert sub_folder_files_ending(tmp_path, ["2026/feb.md"]) == set()  # past the bound: none


def test_t5b_a_chain_of_nested_folders_deeper_than_python_recurses_is_walked(
    tmp_path: Path,
) -> None:
    """1,100 nested folders (far under the entry bound) are walked with no recursion: the
    note beside them is found, and the chain is entered only to a bounded depth."""
    _note(tmp_path, "archive/2026/feb.md")
    with folder_chain(tmp_path, 1_100):
        walk = walk_sub_folders(tmp_path)
        found = sub_folder_files_ending(tmp_path, ["2026/feb.md"], walk)
    assert found == {"archive/2026/feb.md"}
    assert not walk.complete  # the chain's end is deeper than any memory nests notes
    deepest = "/".join(["d"] * 65)
    assert walk.stopped == (
        "this scope's sub-folders were not looked up deeper than 64 folders "
        f"(the folder {deepest!r} not entered)",
    )


def test_t5b_the_walk_stops_reading_a_huge_folder_at_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of more entries than the bound is read only up to it (the entries counted as
    they are listed), and the walk says it is not complete."""
    monkeypatch.setattr(scopes, "SUB_FOLDER_WALK_CAP", 5)
    for number in range(50):
        _note(tmp_path, f"archive/note-{number}.md")
    walk = walk_sub_folders(tmp_path)
    assert (len(walk.files), walk.complete) == (5, False)
    assert walk.stopped == ("this scope's sub-folders were not looked up past 5 entries",)
    _note(tmp_path, "small/2026/feb.md")
    assert walk_sub_folders(tmp_path / "small").complete


def test_t5b_a_link_target_no_file_can_be_named_names_none(tmp_path: Path) -> None:
    """A target holding a NUL or a character the file system cannot encode opens nothing:
    it is never handed to the kernel (which raises ``ValueError`` on a NUL)."""
    _note(tmp_path, "a/b.md")
    targets = ["a/\x00b.md", "a/\ud800b.md", "a/b.md"]
    assert sub_folder_files(tmp_path, targets) == {"a/b.md"}
    assert sub_folder_files_any_case(tmp_path, ["A/\x00B.md", "A/B.md"]) == {"a/b.md"}
    assert sub_folder_files_ending(tmp_path, ["a/\x00b.md", "\ud800/b.md"]) == set()
