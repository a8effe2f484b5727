"""A-10a: an access control list this reader does not know is never read as "no one else";
a mode whose group bits deny a permission denies it to every entry of the ACL (its mask)."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from memory_core import account_access
from memory_core.account_access import ACL_WRITE, acl_grants

_USER_OBJ, _USER, _GROUP_OBJ, _MASK, _OTHER = 0x01, 0x02, 0x04, 0x10, 0x20


def _entries(raw: bytes) -> dict[int, int]:
    """The permission of each tag of the ACL ``raw`` (the last entry of a tag)."""
    return {tag: perm for tag, perm, _ in struct.iter_unpack("<HHI", raw[4:])}


def _acl(*entries: tuple[int, int, int], version: int = 2) -> bytes:
    return struct.pack("<I", version) + b"".join(struct.pack("<HHI", *e) for e in entries)


WELL_FORMED = _acl((_USER_OBJ, 7, 0), (_GROUP_OBJ, 5, 0), (_MASK, 5, 0), (_OTHER, 5, 0))


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        _acl(version=2)[:3],
        _acl(),
        _acl((_USER_OBJ, 7, 0), (_OTHER, 5, 0)),  # no owning-group entry
        _acl((_USER_OBJ, 7, 0), (_GROUP_OBJ, 5, 0), (_OTHER, 5, 0), version=1),
        WELL_FORMED + b"\x01\x02\x03",  # a torn entry
    ],
    ids=["empty", "torn-header", "no-entries", "no-group", "version-1", "torn-entry"],
)
def test_an_acl_this_reader_does_not_know_counts_as_letting_another_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes
) -> None:
    target = tmp_path / "tokens"
    target.mkdir()
    target.chmod(0o775)  # the group bits (an ACL's mask) let write: the ACL must say who
    monkeypatch.setattr(account_access, "_getxattr", lambda *_a, **_k: raw)
    granted = acl_grants(str(target), target.stat(), ACL_WRITE)
    assert granted.group
    assert "not one this reader knows" in granted.named[0][0]


def test_an_acl_entry_lets_no_one_write_once_the_group_bits_deny_it(tmp_path: Path) -> None:
    """The kernel keeps the group bits of the mode equal to the ACL's mask, and every named
    entry (and the owning group's) gets no more than the mask: ``chmod g-w`` takes write from
    all of them, so the ACL need not be read."""
    target = tmp_path / "tokens"
    target.mkdir()
    target.chmod(0o755)
    named = _acl(
        (_USER_OBJ, 7, 0), (_USER, 7, 4242), (_GROUP_OBJ, 5, 0), (_MASK, 7, 0), (_OTHER, 5, 0)
    )
    os.setxattr(target, account_access.ACL_XATTR, named)
    assert acl_grants(str(target), target.stat(), ACL_WRITE).named  # the mask lets uid 4242
    target.chmod(0o755)  # g-w: the kernel lowers the mask to r-x
    mask = _entries(os.getxattr(target, account_access.ACL_XATTR))[_MASK]
    assert mask == 5
    assert acl_grants(str(target), target.stat(), ACL_WRITE) == account_access.Granted(False)


def test_a_well_formed_acl_granting_no_write_is_read_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tokens"
    target.mkdir(mode=0o755)
    monkeypatch.setattr(account_access, "_getxattr", lambda *_a, **_k: WELL_FORMED)
    assert acl_grants(str(target), target.stat(), ACL_WRITE) == account_access.Granted(False)
