"""A-10a: an access control list this reader does not know is never read as "no one else"."""

from __future__ import annotations

import errno
import os
import struct
import time
from pathlib import Path

import pytest
from memory_core import account_access
from memory_core.account_access import ACL_WRITE, acl_grants

_USER_OBJ, _GROUP_OBJ, _MASK, _OTHER = 0x01, 0x04, 0x10, 0x20


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
    target.mkdir(mode=0o755)
    monkeypatch.setattr(account_access, "_getxattr", lambda *_a, **_k: raw)
    granted = acl_grants(str(target), target.stat(), ACL_WRITE)
    assert granted.group
    assert "not one this reader knows" in granted.named[0][0]


def test_a_well_formed_acl_granting_no_write_is_read_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tokens"
    target.mkdir(mode=0o755)
    monkeypatch.setattr(account_access, "_getxattr", lambda *_a, **_k: WELL_FORMED)
    assert acl_grants(str(target), target.stat(), ACL_WRITE) == account_access.Granted(False)


def _stat_of(path: Path, *, ctime_ns: int) -> os.stat_result:
    """``path``'s ``stat`` as if its inode last changed at ``ctime_ns``."""
    fields = list(path.stat())
    fields[9] = ctime_ns // 1_000_000_000  # st_ctime (float fields follow the tuple's ten)
    return os.stat_result((*fields, *([0.0] * 3)), {"st_ctime_ns": ctime_ns})


def test_an_acl_is_read_again_whenever_its_inode_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ACL is kept by the inode's mode and ctime (``setfacl`` and ``chmod`` move the ctime),
    and never while that ctime is young enough to change again within its stamp."""
    target = tmp_path / "tokens"
    target.mkdir(mode=0o755)
    reads: list[str] = []

    def getxattr(path: str, *_a: object, **_k: object) -> bytes:
        reads.append(path)
        return WELL_FORMED

    monkeypatch.setattr(account_access, "_getxattr", getxattr)
    account_access._kept_access_acl.cache_clear()
    old = time.time_ns() - 60 * 1_000_000_000
    acl_grants(str(target), _stat_of(target, ctime_ns=old), ACL_WRITE)
    acl_grants(str(target), _stat_of(target, ctime_ns=old), ACL_WRITE)
    assert len(reads) == 1  # the same version: read once
    acl_grants(str(target), _stat_of(target, ctime_ns=old + 1), ACL_WRITE)
    assert len(reads) == 2  # changed since (setfacl, chmod): read again
    young = time.time_ns()
    acl_grants(str(target), _stat_of(target, ctime_ns=young), ACL_WRITE)
    acl_grants(str(target), _stat_of(target, ctime_ns=young), ACL_WRITE)
    assert len(reads) == 4  # may still change within its stamp: read every time


def test_an_acl_that_could_not_be_read_is_read_again_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A passing fault (EIO) reading an ACL is never kept: kept, it refused every request
    until the folder changed."""
    target = tmp_path / "tokens"
    target.mkdir(mode=0o755)
    faults = [OSError(errno.EIO, os.strerror(errno.EIO), str(target))]

    def getxattr(path: str, *_a: object, **_k: object) -> bytes:
        if faults:
            raise faults.pop()
        return WELL_FORMED

    monkeypatch.setattr(account_access, "_getxattr", getxattr)
    account_access._kept_access_acl.cache_clear()
    old = _stat_of(target, ctime_ns=time.time_ns() - 60 * 1_000_000_000)
    assert acl_grants(str(target), old, ACL_WRITE).named  # cannot be read: never trusted
    assert acl_grants(str(target), old, ACL_WRITE) == account_access.Granted(False)
