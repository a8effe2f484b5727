"""P-3, K-6a: a mount table field is read as the kernel wrote it (proc(5)): the four bytes it
escapes (space, tab, newline, backslash) come back from their three octal digits; every
other byte, a backslash starting no escape of one byte among them, stays as it is. A line is
a mount when it has the seven fields before the optional ones; its type and options follow
the ``-`` that ends those."""

from __future__ import annotations

import pytest
from memory_core import mount_fields
from memory_core.mount_fields import as_utf8, parse_mounts, unescape_mount_field


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


def test_a_line_of_fewer_than_seven_fields_is_no_mount() -> None:
    table = b"22 1 8:1 / / rw\n23 1 8:2 / /b rw - ext4 /dev/sdb rw\n\n"
    assert [mount.point for mount in parse_mounts(table, as_utf8)] == ["/b"]


@pytest.mark.parametrize(
    ("line", "kind", "options"),
    [
        (b"40 22 0:52 / /mnt/n rw shared:1 nfs4 srv:/ rw", None, ""),
        (b"40 22 0:52 / /mnt/n rw shared:1 -", None, ""),
        (b"40 22 0:52 / /mnt/n rw - nfs4", "nfs4", ""),
        (b"40 22 0:52 / /mnt/n rw - nfs4 srv:/ rw,vers=4.2", "nfs4", "rw,vers=4.2"),
    ],
    ids=["no-separator", "separator-is-the-last-field", "type-only", "type-and-options"],
)
def test_a_mount_says_its_type_only_after_the_separator(
    line: bytes, kind: str | None, options: str
) -> None:
    """The type and super options follow the ``-`` after the optional fields; a line without
    them is still a mount (its point and device count), one that says no type."""
    [mount] = parse_mounts(line + b"\n", as_utf8)
    assert (mount.device, mount.shown, mount.point) == ("0:52", "/", "/mnt/n")
    assert (mount.kind, mount.options) == (kind, options)


def test_a_reader_of_mount_points_decodes_no_other_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """P-3, H-5: the guard reads every mount's point on each tool call, on hosts with
    thousands of mounts; a field it does not read (ids, type, options, the shown folder) is
    neither unescaped nor decoded, and one it reads is decoded once however often it is read."""
    lines = 2_000
    table = b"".join(
        rb"%d 22 0:%d /x\040y /mnt/m\040%d rw shared:1 - nfs4 srv:/ rw,vers=4.2" % (n, n, n) + b"\n"
        for n in range(lines)
    )
    decoded: list[bytes] = []
    unescaped: list[bytes] = []

    def counting_decode(field: bytes) -> str:
        decoded.append(field)
        return as_utf8(field)

    def counting_unescape(field: bytes) -> bytes:
        unescaped.append(field)
        return unescape_mount_field(field)

    monkeypatch.setattr(mount_fields, "unescape_mount_field", counting_unescape)
    mounts = parse_mounts(table, counting_decode)
    assert [mount.point for mount in mounts] == [f"/mnt/m {n}" for n in range(lines)]
    assert (len(decoded), len(unescaped)) == (lines, lines)

    last = mounts[-1]
    assert (last.kind, last.options, last.kind, last.shown, last.shown) == (
        "nfs4",
        "rw,vers=4.2",
        "nfs4",
        "/x y",
        "/x y",
    )
    assert sorted(decoded[lines:]) == [b"/x y", b"nfs4", b"rw,vers=4.2"]
    assert unescaped[lines:] == [rb"/x\040y"]
