"""Which accounts besides root and this process's user may write or read a file or folder
(A-10, A-10a, H-7), as the kernel grants access: the entry's owner, its group's bits unless
the group is this user's own, and every account or group a POSIX access control list
(``setfacl``) names, through the ACL's mask. The "other" bits are each caller's own rule.

The service judges its token sources with it (``memory_api.world_writable``), the plugin the
settings files it writes hooks into (``harness_memory.installers``). The ACL is read from the
``system.posix_acl_access`` extended attribute (Linux). ACLs of other kinds (macOS's
``chmod +a``, NFSv4, SMB, ZFS's NFSv4 ACLs) are not read: such a file or folder, and one on
a file system without POSIX ACLs, is judged by its mode bits alone.
"""

from __future__ import annotations

import errno
import functools
import grp
import os
import pwd
import stat
import struct
import time
from typing import NamedTuple

from memory_core.racy_window import RACY_WINDOW_NS
from memory_core.read_only_mounts import on_read_only_mount

__all__ = [
    "ACL_READ",
    "ACL_WRITE",
    "Granted",
    "acl_grants",
    "other_readers",
    "other_writers",
    "own_group",
]


ACL_WRITE, ACL_READ = 0x02, 0x04
"""The permission bits :func:`acl_grants` asks about (an ACL entry's ``w`` and ``r``)."""


def other_writers(path: str, info: os.stat_result) -> str | None:
    """Why an account other than root and this process's user may write the file or folder at
    ``path`` (whose ``stat`` is ``info``), with the fix, or None (A-10a).

    Judged as the kernel grants a write: the entry's owner (any owner may ``chmod`` and write
    it), its group's write bit unless the group is this user's own (:func:`own_group`), and
    every account or group an access control list names (POSIX ACL, ``setfacl``: write
    through its mask). The "other" write bit is its callers' own rule
    (``memory_api.world_writable.open_to_everyone``). None on a read-only mount, where
    nobody writes. An ACL that cannot be read counts as one that lets another write (never
    trusted on a guess).

    A token folder a shared group could write (``0770``) was emptied by one of its accounts,
    and the loopback service then answered every request without a token (the open mode); a
    token file it could write took that account's hash."""
    why = _writers(path, info)
    return None if why is None or on_read_only_mount(path) else why


def _writers(path: str, info: os.stat_result) -> str | None:
    """:func:`other_writers` whatever the mount (asked about only when someone may write)."""
    return _others(path, info, ACL_WRITE)


def other_readers(path: str, info: os.stat_result) -> str | None:
    """Why an account other than root and this process's user may read the file at ``path``
    (whose ``stat`` is ``info``), with the fix, or None: its owner when another account, its
    group's read bit unless the group is this user's own (a pod's ``fsGroup`` is), every
    account or group its access control list lets read. The "other" read bit is its callers'
    own rule. For a file holding secrets themselves (``MEMORY_API_TOKENS_FILE``, A-10)."""
    return _others(path, info, ACL_READ)


_VERBS = {
    ACL_WRITE: ("written", "w", "write it whatever its mode"),
    ACL_READ: ("read", "r", "read it"),
}
"""Per permission: its participle, its ``chmod`` letter, and what another owner may do."""


def _others(path: str, info: os.stat_result, permission: int) -> str | None:
    """Why an account other than root and this process's user has ``permission``
    (:data:`ACL_WRITE` or :data:`ACL_READ`) on ``path`` (whose ``stat`` is ``info``), with the
    fix, or None: its owner, its group (unless this user's own), an ACL entry."""
    done, letter, owner_may = _VERBS[permission]
    if info.st_uid not in (0, os.geteuid()):
        fix = " (chown it to root or the service's user)" if permission == ACL_WRITE else ""
        return f"belongs to another account (uid {info.st_uid}), which may {owner_may}{fix}"
    granted = acl_grants(path, info, permission)
    if granted.group and not own_group(info.st_gid):
        return (
            f"may be {done} by the accounts of its group (gid {info.st_gid}; mode "
            f"{stat.S_IMODE(info.st_mode):04o}: chmod g-{letter} it)"
        )
    if granted.named:
        who, fix = granted.named[0]
        return f"may be {done} by {who} ({fix})"
    return None


ACL_XATTR = "system.posix_acl_access"
"""The extended attribute holding a file's access ACL (Linux; ``acl_ea_header`` format)."""
_ACL_USER, _ACL_GROUP_OBJ, _ACL_GROUP, _ACL_MASK = 0x02, 0x04, 0x08, 0x10
_ACL_ENTRY = struct.Struct("<HHI")
_NO_ACL = frozenset({errno.ENODATA, errno.ENOTSUP, errno.EOPNOTSUPP})


def _no_xattrs(path: str, attribute: str, *, follow_symlinks: bool = True) -> bytes:
    """``os.getxattr`` where the system has none (macOS): no access ACL to read."""
    raise OSError(errno.ENOTSUP, "no extended attributes here", path)


_getxattr = getattr(os, "getxattr", _no_xattrs)


class Granted(NamedTuple):
    """Who the mode bits and the ACL let write (or read) besides the owner and "other":
    ``group``, the owning group (its bit, or its ACL entry through the mask); ``named``, for
    each ACL entry naming another account or group, who it lets and how to take that away.
    A named tuple, not a dataclass: the write guard's hook judges its state dir with it, and
    ``dataclasses`` (with ``inspect``) would cost every hook process its import (H-5)."""

    group: bool
    named: tuple[tuple[str, str], ...] = ()


_MODE_ONLY = {True: Granted(True), False: Granted(False)}
"""The answer for a file or folder without an access ACL, by its group bit: one of two values
(a token check judges several folders per request: one object fewer each)."""


def acl_grants(path: str, info: os.stat_result, permission: int) -> Granted:
    """Who is :class:`Granted` ``permission`` (:data:`ACL_WRITE` or :data:`ACL_READ`) by
    ``path``'s mode (``info``) and its access ACL.

    With an ACL the group bits of the mode are its mask; the owning group has the permission
    when its own entry and the mask both give it, a named account or group when its entry and
    the mask do. A named entry for root or this process's user, or for this user's own group,
    is no other account. The ACL itself is read, never inferred from the mode: the kernel
    checks the ACL's own mask, which only ``chmod`` and ``setfacl`` keep equal to the group
    bits (:func:`_access_acl`)."""
    group_bit = permission << 3  # S_IWGRP, S_IRGRP
    raw = _access_acl(path, info)
    if isinstance(raw, tuple):
        errno_, strerror = raw
        if errno_ in _NO_ACL:
            return _MODE_ONLY[bool(info.st_mode & group_bit)]
        unread = f"any account, as its access control list cannot be read ({strerror})"
        return Granted(True, ((unread, "make it readable, or setfacl -b it"),))
    entries = _acl_entries(raw)
    if entries is None:  # never trusted on a guess: as an ACL that cannot be read
        unread = "any account, as its access control list is not one this reader knows"
        return Granted(True, ((unread, "setfacl -b it, then set what it should allow"),))
    mask = next((perm for tag, perm, _ in entries if tag == _ACL_MASK), 0o7)
    me = os.geteuid()
    group, named = False, []
    for tag, perm, ident in entries:
        if not perm & mask & permission:
            continue
        if tag == _ACL_GROUP_OBJ:
            group = True
        elif tag == _ACL_USER and ident not in (0, me):
            said = f"the account uid {ident}, named in its access control list"
            named.append((said, f"setfacl -x u:{ident} it"))
        elif tag == _ACL_GROUP and not own_group(ident):
            said = f"the group gid {ident}, named in its access control list"
            named.append((said, f"setfacl -x g:{ident} it"))
    return Granted(group, tuple(named))


ACLS_KEPT = 256
"""Access ACLs :func:`_access_acl` keeps (a token folder's ancestors, a settings file's)."""


def _access_acl(path: str, info: os.stat_result) -> bytes | tuple[int, str]:
    """The raw access ACL of ``path`` (its ``stat`` ``info``), or the ``(errno, strerror)`` of
    reading it. Kept by the inode's identity, mode and ctime (``setxattr``, ``setfacl`` and
    ``chmod`` all move the ctime): the token folder's check reads each folder above it at
    every request, and one ``getxattr`` per folder was a good part of that check's cost."""
    if time.time_ns() - info.st_ctime_ns < RACY_WINDOW_NS:  # may change within its stamp
        return _read_access_acl(path)
    try:
        return _kept_access_acl(path, info.st_dev, info.st_ino, info.st_mode, info.st_ctime_ns)
    except _Unread as unread:  # never kept: a passing fault (EIO) is read again next time
        return unread.args[0], unread.args[1]


class _Unread(Exception):
    """An ACL that could not be read for a reason other than having none: ``(errno,
    strerror)``, raised so that ``lru_cache`` keeps no such answer."""


@functools.lru_cache(maxsize=ACLS_KEPT)
def _kept_access_acl(
    path: str, _device: int, _inode: int, _mode: int, _ctime_ns: int
) -> bytes | tuple[int, str]:
    """:func:`_read_access_acl` of ``path`` at the version its other arguments name; raises
    :class:`_Unread` for a read that failed other than for want of an ACL."""
    raw = _read_access_acl(path)
    if isinstance(raw, tuple) and raw[0] not in _NO_ACL:
        raise _Unread(*raw)
    return raw


def _read_access_acl(path: str) -> bytes | tuple[int, str]:
    """The raw ``system.posix_acl_access`` of ``path``, or the ``(errno, strerror)`` of the
    ``OSError`` reading it raised."""
    try:
        return _getxattr(path, ACL_XATTR, follow_symlinks=True)
    except OSError as error:
        return error.errno or 0, error.strerror or type(error).__name__


_ACL_VERSION = 0x0002
"""``POSIX_ACL_XATTR_VERSION``: the only ``acl_ea_header`` version Linux writes."""


def _acl_entries(raw: bytes) -> list[tuple[int, int, int]] | None:
    """The ``(tag, perm, id)`` entries of the access ACL ``raw`` (``acl_ea_header``, then
    8-byte ``acl_ea_entry`` records, little-endian), or None when it is not a well-formed one:
    another version, a torn record, or not exactly one owning-group entry (then the mode's
    group bits would be read as no one's)."""
    if len(raw) < 4 or (len(raw) - 4) % _ACL_ENTRY.size:
        return None
    if int.from_bytes(raw[:4], "little") != _ACL_VERSION:
        return None
    entries = [
        _ACL_ENTRY.unpack_from(raw, offset) for offset in range(4, len(raw), _ACL_ENTRY.size)
    ]
    if sum(tag == _ACL_GROUP_OBJ for tag, _, _ in entries) != 1:
        return None
    return entries


ACCOUNT_FILES = ("/etc/group", "/etc/passwd")
"""The local account database, whose change times key :func:`own_group`'s answers."""


def own_group(gid: int) -> bool:
    """Whether the group ``gid`` is this process's own and holds no other account: its
    effective group, or one of its supplementary groups the group database knows (``newgrp
    docker`` makes the user's private group a supplementary one), naming no other member in
    the group database and the primary group of no other account there (a user private group;
    a pod's ``fsGroup``, which the container's group database does not know, as the effective
    group only). The group ``users`` that every account
    shares is not.

    Read again whenever :data:`ACCOUNT_FILES` change (an account added to the group is seen
    at the next request); reading the whole account database (``getpwall``) cost ~0.2 ms on
    every request that checks the token folder. A change kept only in a network directory
    (LDAP, through NSS) is seen after a restart."""
    return _own_group_as_of(gid, _account_files_changed())


def _account_files_changed() -> tuple[int, ...]:
    """The change times (ns) of :data:`ACCOUNT_FILES`, -1 for one that cannot be looked at."""
    stamps = []
    for name in ACCOUNT_FILES:
        try:
            stamps.append(os.stat(name).st_ctime_ns)  # noqa: PTH116
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


@functools.lru_cache(maxsize=8)
def _own_group_as_of(gid: int, _changed: tuple[int, ...]) -> bool:
    """:func:`own_group` as the account database stood when it changed at ``_changed``."""
    effective = gid == os.getegid()
    if not effective and gid not in os.getgroups():
        return False
    me = os.geteuid()
    try:
        members = set(grp.getgrgid(gid).gr_mem)
    except KeyError:  # unknown here: its members too, so only the effective group (fsGroup)
        if not effective:
            return False
        members = set()
    try:
        accounts = pwd.getpwall()  # the whole database, read once
        names = {entry.pw_name for entry in accounts if entry.pw_uid == me}
        sharing = any(entry.pw_gid == gid and entry.pw_uid != me for entry in accounts)
    except OSError:
        return False
    return not sharing and members <= names
