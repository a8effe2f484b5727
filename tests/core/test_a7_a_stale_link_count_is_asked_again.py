"""A-7, V-1: a link count an attribute cache kept is asked of the file system before a refusal.

The atomic writes link a hidden temp file beside the file for a moment (``create_new_bytes``).
A file system that caches attributes (FUSE with libfuse's defaults; the service's memory root on
such a disk) still gave the count of that moment, 2, after the temp name was gone, and
the file was refused as "named elsewhere": a push's note just written was never read nor
recorded in the history (``tests/plugin/test_r2_a_push_to_a_disk_caching_attributes_is_recorded.py``
meets it on a real FUSE disk). Here the cached ``stat`` is the one taken while the temp name was
there; the rule asks the file system again (``statx``, ``AT_STATX_FORCE_SYNC``) and reads the
file. A file that does have a name outside its folder is refused as before, whatever was asked.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from memory_core.hard_links import fresh_link_count, named_elsewhere

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="statx is Linux's")


def test_a7_a_count_kept_from_a_temp_name_gone_since_does_not_refuse_the_file(
    tmp_path: Path,
) -> None:
    note = tmp_path / "scope" / "note.md"
    note.parent.mkdir()
    temp = note.parent / ".note.md.tmp"
    temp.write_text("ship on Fridays\n", encoding="utf-8")
    os.link(temp, note)
    cached = os.lstat(note)  # what an attribute cache keeps: two names
    temp.unlink()

    assert cached.st_nlink == 2
    assert fresh_link_count(note, cached) == 1
    assert not named_elsewhere(note, cached)
    folder = os.open(note.parent, os.O_RDONLY)
    try:
        assert not named_elsewhere(note, cached, folder=folder)
    finally:
        os.close(folder)


def test_a7_a_name_outside_the_folder_is_refused_whatever_is_asked(tmp_path: Path) -> None:
    note = tmp_path / "scope" / "note.md"
    note.parent.mkdir()
    note.write_text("secret\n", encoding="utf-8")
    os.link(note, tmp_path / "elsewhere.md")

    assert named_elsewhere(note, os.lstat(note))
    assert fresh_link_count(note, os.lstat(note)) == 2


def test_a7_a_count_asked_of_another_file_now_at_the_name_is_not_taken(tmp_path: Path) -> None:
    """The name now leads to another file: its count says nothing of the one described."""
    note = tmp_path / "note.md"
    note.write_text("old\n", encoding="utf-8")
    os.link(note, tmp_path / "elsewhere.md")
    described = os.lstat(note)
    note.unlink()
    note.write_text("new\n", encoding="utf-8")

    assert fresh_link_count(note, described) is None
