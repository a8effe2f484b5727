"""A-7: a ``statx`` answer without the link count never lets a file with a name elsewhere through.

A file whose cached link count is above the names found in its folder is asked of the file
system again (``statx``) before it is refused (``test_a7_a_stale_link_count_is_asked_again``).
``stx_nlink`` and ``stx_ino`` are fields a file system fills only when it can: it says which
in ``stx_mask``, the rest left zero. A count of 0 read as the answer passed a file that does
have another name, outside the memory root: a read error that widened access. Such an answer
is no answer now (:func:`memory_core.hard_links.statx_links`), and the cached count stands.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from pathlib import Path

import pytest
from memory_core.hard_links import fresh_link_count, named_elsewhere, statx_links

STATX_NLINK, STATX_INO, STATX_BASIC_STATS = 0x004, 0x100, 0x7FF


def _answer(mask: int, nlink: int, inode: int, device: int) -> bytes:
    """Linux's ``struct statx`` of 256 bytes: the mask at 0, the count at 16, the inode at 32,
    the device's major and minor at 136 and 140."""
    buffer = bytearray(256)
    struct.pack_into("=I", buffer, 0, mask)
    struct.pack_into("=I", buffer, 16, nlink)
    struct.pack_into("=Q", buffer, 32, inode)
    struct.pack_into("=II", buffer, 136, os.major(device), os.minor(device))
    return bytes(buffer)


def test_a7_an_answer_with_the_count_and_the_inode_gives_them() -> None:
    device = os.makedev(259, 3)
    assert statx_links(_answer(STATX_BASIC_STATS, 2, 4711, device)) == (2, 4711, device)
    assert statx_links(_answer(STATX_NLINK | STATX_INO, 1, 4711, device)) == (1, 4711, device)


@pytest.mark.parametrize(
    ("mask", "nlink"),
    [
        (STATX_BASIC_STATS & ~STATX_NLINK, 0),  # the count left out
        (STATX_BASIC_STATS & ~STATX_NLINK, 2),  # left out, whatever the field holds
        (STATX_BASIC_STATS & ~STATX_INO, 1),  # the inode left out: whose count is it?
        (STATX_BASIC_STATS, 0),  # said, but no file has no name
    ],
)
def test_a7_an_answer_without_the_count_or_the_inode_is_none(mask: int, nlink: int) -> None:
    assert statx_links(_answer(mask, nlink, 4711, os.makedev(259, 3))) is None


class _Libc:
    """A C library whose ``statx`` gives ``answer`` (as a file system that fills only what its
    mask says)."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer

    def statx(self, dirfd: int, name: bytes, flags: int, mask: int, buffer: ctypes.Array) -> int:  # type: ignore[type-arg]
        ctypes.memmove(buffer, self.answer, len(self.answer))
        return 0


@pytest.mark.skipif(sys.platform != "linux", reason="statx is Linux's")
def test_a7_a_file_named_elsewhere_stays_refused_when_the_count_is_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = tmp_path / "scope" / "note.md"
    note.parent.mkdir()
    note.write_text("secret\n", encoding="utf-8")
    os.link(note, tmp_path / "elsewhere.md")  # a name outside its folder
    info = os.lstat(note)
    no_count = _answer(STATX_BASIC_STATS & ~STATX_NLINK, 0, info.st_ino, info.st_dev)
    monkeypatch.setattr(ctypes, "CDLL", lambda *args, **kwargs: _Libc(no_count))

    assert fresh_link_count(note, info) is None
    assert named_elsewhere(note, info)


@pytest.mark.skipif(sys.platform != "linux", reason="statx is Linux's")
def test_a7_a_count_the_file_system_gives_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same answer with the count said: the file system's count is what is read."""
    note = tmp_path / "note.md"
    note.write_text("mine\n", encoding="utf-8")
    info = os.lstat(note)
    said = _answer(STATX_BASIC_STATS, 3, info.st_ino, info.st_dev)
    monkeypatch.setattr(ctypes, "CDLL", lambda *args, **kwargs: _Libc(said))

    assert fresh_link_count(note, info) == 3
