r"""The kernel's mount table (``/proc/PID/mountinfo``) read into one record per mount.

Each line names a mount (proc(5)): its id, its parent's id, its filesystem (``major:minor``),
the folder of that filesystem it shows (its *root*), where it shows it (its *mount point*),
its options, optional fields, a ``-``, then the filesystem's type, source and super options.
The kernel writes each path field with four bytes escaped as three octal digits, so that
fields stay split by spaces and lines by newlines: space ``\040``, tab ``\011``, newline
``\012`` and backslash ``\134`` (``seq_path`` in the kernel). Every other byte stands as it
is, a carriage return and bytes that are no UTF-8 too: the table is parsed as bytes and each
field decoded as its reader compares paths. The guard (:mod:`harness_memory.mounts`, P-3)
decodes as file names are (``os.fsdecode``), so a mount point equals the path
``os.path.realpath`` gives it in the hook's process, whatever the locale; the service's
readers (:mod:`memory_core.mount_table`, Q-4, K-6a) and the /proc rule's own read
(:mod:`memory_core.proc_paths`, A-9, K-1) as UTF-8 (:func:`as_utf8`: their paths come as
UTF-8 text, and ``Fotos Mamá`` under ``LC_ALL=C`` is no error).

The one parser of the table, for all of them. Pure and light (H-5: a hook process loads it).

>>> unescape_mount_field(rb"/mnt/my\040drive/a\012b\134c")
b'/mnt/my drive/a\nb\\c'
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

__all__ = ["Mount", "as_utf8", "mount_in", "parse_mounts", "unescape_mount_field"]

_OCTAL = rb"\\([0-3][0-7]{2})"
"""An octal escape of one byte (``\000`` to ``\377``), as the kernel writes it in a field."""


def unescape_mount_field(field: bytes) -> bytes:
    r"""``field`` of a mount table line with each octal escape of one byte (``\040``) made that
    byte. A backslash starting no such escape (``\999``, ``\477``, ``\12`` at the end) stays as
    it is, with what follows it; so does every other byte. Linear in ``len(field)``.

    >>> unescape_mount_field(rb"/mnt/\999/\477/\12/\377")
    b'/mnt/\\999/\\477/\\12/\xff'
    """
    if b"\\" not in field:
        return field
    return re.sub(_OCTAL, lambda found: bytes([int(found[1], 8)]), field)


class Mount:
    """One line of the mount table (:func:`parse_mounts`), each field decoded when first read.

    The mount point is decoded as the line is parsed: every reader compares it. The other
    fields are decoded only when a reader asks for them, once each: the guard reads the
    device and the shown folder of the one mount holding a path, the type and options never
    (P-3, H-5: a hook reads a table of thousands of mounts on a busy container host).
    """

    __slots__ = ("_decode", "_device", "_fields", "_filesystem", "_shown", "point")

    point: str
    """Where the mount shows its folder: an absolute path in the reading process's root."""

    def __init__(self, fields: list[bytes], point: str, decode: Callable[[bytes], str]) -> None:
        """``fields``: the line's first five fields and the rest of it (``line.split(b" ",
        5)``), as the kernel wrote them; ``point``: field 5 decoded."""
        self._fields = fields
        self.point = point
        self._decode = decode
        self._device: str | None = None
        self._shown: str | None = None
        self._filesystem: tuple[str | None, str] | None = None

    @property
    def mount(self) -> str:
        """The mount's id (``"22"``), unique in the table."""
        return self._decode(self._fields[0])

    @property
    def parent(self) -> str:
        """The id of the mount it is mounted on (itself, or one not listed, for a root)."""
        return self._decode(self._fields[1])

    @property
    def device(self) -> str:
        """The filesystem's device, ``"major:minor"`` (``"8:1"``), as ``st_dev`` splits."""
        if self._device is None:
            self._device = self._decode(self._fields[2])
        return self._device

    @property
    def shown(self) -> str:
        """The folder of that filesystem the mount shows (``/`` for all of it)."""
        if self._shown is None:
            self._shown = self._decode(unescape_mount_field(self._fields[3]))
        return self._shown

    @property
    def kind(self) -> str | None:
        """The filesystem's type (``"ext4"``, ``"nfs4"``, ``"proc"``); None for a line with no
        ``-`` and type after its optional fields."""
        return self._described()[0]

    @property
    def options(self) -> str:
        """The filesystem's super options (``"rw,vers=4.2"``); ``""`` when the line has none."""
        return self._described()[1]

    @property
    def origin(self) -> bytes:
        """What tells this mount from another one at the same point (K-6a): the filesystem's
        type, its source (a device name, which may change between boots: compared by type and
        folder alone, ``workspace_mount.off_its_mount``) and the folder of it shown, as the kernel
        writes them (escaped, so no space or newline inside), one space apart
        (``b"ext4 /dev/sda1 /data/repos"``); never the mount id or the device numbers, which
        change with a reboot or a remount. ``b""`` for a line with no ``-``, type and source.
        """
        rest = self._fields[5].split(b" ")
        if b"-" not in rest[1:]:
            return b""
        dash = rest.index(b"-", 1)
        if len(rest) < dash + 3:
            return b""
        return b" ".join((rest[dash + 1], rest[dash + 2], self._fields[3]))

    def _described(self) -> tuple[str | None, str]:
        """``(kind, options)``, read from the fields after the mount's options: optional
        fields, a ``-``, the type, the source, the super options."""
        if self._filesystem is None:
            rest = self._fields[5].split(b" ")  # the mount's options, then the fields above
            found: tuple[str | None, str] = (None, "")
            if b"-" in rest[1:]:
                dash = rest.index(b"-", 1)
                if len(rest) > dash + 1:
                    options = self._decode(rest[dash + 3]) if len(rest) > dash + 3 else ""
                    found = (self._decode(rest[dash + 1]), options)
            self._filesystem = found
        return self._filesystem

    def __repr__(self) -> str:
        return f"Mount(device={self.device!r}, shown={self.shown!r}, point={self.point!r})"


def as_utf8(field: bytes) -> str:
    r"""``field`` read as UTF-8, a byte that is none as a surrogate (never an error), whatever
    the locale: the service's reading of the table (its paths come as UTF-8 text).

    >>> as_utf8(b"/media/Fotos Mam\xc3\xa1/\xe1")
    '/media/Fotos Mamá/\udce1'
    """
    return field.decode("utf-8", "surrogateescape")


def parse_mounts(table: bytes, decode: Callable[[bytes], str]) -> list[Mount]:
    r"""The mounts of a ``/proc/PID/mountinfo`` content, in the table's order (a mount listed
    later at one mount point is on top). Lines end at a newline only, fields at a space only
    (a carriage return in a path stays in it); a line of fewer than 7 fields is no mount.
    Each field is decoded by ``decode`` (``os.fsdecode``, :func:`as_utf8`), a path field once
    its octal escapes are (:func:`unescape_mount_field`): the mount point here, every other
    field only when a reader asks for it (:class:`Mount`), so a reader pays for the fields it
    reads. Linear in ``len(table)``; never raises (a ``decode`` with ``surrogateescape``).

    >>> mount = parse_mounts(b"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
    ...     b"40 22 0:52 /x /mnt/n\\040fs rw shared:1 - nfs4 srv:/ rw,vers=4.2\n", as_utf8)[1]
    >>> mount.device, mount.shown, mount.point, mount.kind, mount.options
    ('0:52', '/x', '/mnt/n fs', 'nfs4', 'rw,vers=4.2')
    """
    mounts: list[Mount] = []
    for line in table.split(b"\n"):  # the kernel escapes a newline, space, tab, backslash
        fields = line.split(b" ", 5)  # in a path; a carriage return, NBSP or form feed stays
        if len(fields) < 6 or b" " not in fields[5]:  # fewer than 7 fields
            continue
        mounts.append(Mount(fields, decode(unescape_mount_field(fields[4])), decode))
    return mounts


def mount_in(mounts: Sequence[Mount], path: str, device: int) -> Mount | None:
    """The mount the real ``path`` (whose ``st_dev`` is ``device``) lives on, among ``mounts``
    that say their filesystem's type: the first of that device, else (btrfs subvolumes report
    other device numbers) the one with the longest mount point holding ``path``; None when
    none says.

    >>> mounts = parse_mounts(b"22 1 8:1 / / rw - ext4 /dev/sda1 rw\\n", as_utf8)
    >>> mount_in(mounts, "/srv", os.makedev(9, 9)).kind
    'ext4'
    """
    wanted = f"{os.major(device)}:{os.minor(device)}"
    best: Mount | None = None
    for mount in mounts:
        if mount.kind is None:
            continue
        if mount.device == wanted:
            return mount
        point = mount.point
        inside = point == "/" or path == point or path.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) > len(best.point)):
            best = mount
    return best
