r"""A field of the kernel's mount table (``/proc/PID/mountinfo``) as the bytes it names.

The kernel writes each path field of the mount table with four bytes escaped as three octal
digits, so that fields stay split by spaces and lines by newlines: space ``\040``, tab
``\011``, newline ``\012`` and backslash ``\134`` (proc(5), ``seq_path`` in the kernel).
Every other byte stands as it is, a carriage return and bytes that are no UTF-8 too. Read by
the service's mount table (:mod:`memory_core.mount_table`, text read as UTF-8) and by the
guard's (:mod:`harness_memory.mounts`, bytes decoded as file names are), which decode the
bytes each as their own reader does.

>>> unescape_mount_field(rb"/mnt/my\040drive/a\012b\134c")
b'/mnt/my drive/a\nb\\c'
"""

from __future__ import annotations

import re

__all__ = ["unescape_mount_field"]

_OCTAL = re.compile(rb"\\([0-3][0-7]{2})")
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
    return _OCTAL.sub(lambda found: bytes([int(found[1], 8)]), field)
