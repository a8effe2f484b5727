"""P-3, K-6a: a mount table field is read as the kernel wrote it (proc(5)): the four bytes it
escapes (space, tab, newline, backslash) come back from their three octal digits; every
other byte, a backslash starting no escape of one byte among them, stays as it is."""

from __future__ import annotations

import pytest
from memory_core.mount_fields import unescape_mount_field


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        (rb"/mnt/my\040drive", b"/mnt/my drive"),
        (rb"/mnt/tab\011newline\012back\134slash", b"/mnt/tab\tnewline\nback\\slash"),
        (rb"/mnt/ends\040", b"/mnt/ends "),
        (rb"/mnt/\377", b"/mnt/\xff"),
        (b"/mnt/Fotos Mam\xe1\r", b"/mnt/Fotos Mam\xe1\r"),
        (rb"/mnt/\999/\477/\08/\12", rb"/mnt/\999/\477/\08/\12"),
        (rb"/mnt/\134040", rb"/mnt/\040"),
        (b"/", b"/"),
    ],
    ids=[
        "space",
        "tab-newline-backslash",
        "escape-at-the-end",
        "highest-byte",
        "non-utf8-byte-and-carriage-return-as-they-are",
        "backslash-without-three-octal-digits-stays",
        "an-escaped-backslash-starts-no-second-escape",
        "no-escape",
    ],
)
def test_a_mount_table_field_is_the_bytes_the_kernel_escaped(written: bytes, meant: bytes) -> None:
    assert unescape_mount_field(written) == meant
