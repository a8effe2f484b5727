"""R-2, A-6: an index in another encoding or with other line ends is merged as its own lines.

Two copies of a scope that both changed ``MEMORY.md`` (two machines, R-2), and a delete whose
index pruning races an agent's append (A-6), merge the index as lines. An index the service
reads in another form (``tests/data/cases/delete-keeps-index-line``: CR-only line ends, UTF-16,
Windows-1252) is merged line by line in that form: every line added on either side once, every
other byte as it was, the byte order mark once at the start, never a torn code unit.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from memory_core.decoding import decode_exact, decode_text
from memory_core.line_merge import merge_lines
from memory_core.scope_merge import MergeOutcome, blob_id, merge_scopes
from memory_core.scope_write import apply_scope

INDEX = "MEMORY.md"

A = "- [Café notes](cafe-notes.md) — the café's wifi\n"
B = "- [Punjabi](punjabi.md) ਪੰਜਾਬੀ, the team's words\n"  # U+0A2A: 0x0A in UTF-16's bytes
C = "- [From the service](c.md) ਪ\n"
D = "- [From the laptop](d.md) ਜ\n"

FORMS = {
    "utf-8, CR alone": ("utf-8", "\r", b""),
    "utf-8 BOM, CRLF": ("utf-8", "\r\n", b"\xef\xbb\xbf"),
    "Windows-1252, CR alone": ("cp1252", "\r", b""),
    "UTF-16LE with its BOM": ("utf-16-le", "\n", b"\xff\xfe"),
    "UTF-16BE with its BOM, CR alone": ("utf-16-be", "\r", b"\xfe\xff"),
    "UTF-32LE with its BOM": ("utf-32-le", "\n", b"\xff\xfe\x00\x00"),
    # read as UTF-32 by its NUL bytes, as a plain read takes it (``ਪ`` is ``2A 0A 00 00``)
    "UTF-32LE without a BOM": ("utf-32-le", "\n", b""),
    "UTF-32BE without a BOM, CRLF": ("utf-32-be", "\r\n", b""),
}


def _written(text: str, name: str) -> bytes:
    """``text`` (LF line ends) as an index in the form ``name``; Windows-1252 gets no Gurmukhi."""
    codec, end, bom = FORMS[name]
    if codec == "cp1252":
        text = text.replace("ਪੰਜਾਬੀ", "Panjabi").replace("ਪ", "p").replace("ਜ", "j")
    return bom + text.replace("\n", end).encode(codec)


Copy = dict[str, bytes]


def _merge(
    base: Copy, first: Copy, second: Copy, renamed: tuple[dict[str, str], dict[str, str]] = ({}, {})
) -> tuple[Copy, list[MergeOutcome]]:
    """The scope merged from two machines' copies (the service's first), and what the merge
    says it did."""
    texts = {blob_id(data): data for copy in (base, first, second) for data in copy.values()}

    def ids(copy: Copy) -> dict[str, str]:
        return {name: blob_id(data) for name, data in copy.items()}

    merged = merge_scopes(
        ids(base), ids(first), ids(second), texts.__getitem__, label="laptop", renamed=renamed
    )
    texts.update(merged.new)
    return {name: texts[blob] for name, blob in merged.files.items()}, merged.outcomes


def _merged(base: bytes, first: bytes, second: bytes) -> tuple[bytes, list[MergeOutcome]]:
    """The index merged from two machines' copies holding only it."""
    files, outcomes = _merge({INDEX: base}, {INDEX: first}, {INDEX: second})
    return files[INDEX], outcomes


@pytest.mark.parametrize("form", FORMS)
def test_r2_lines_appended_on_two_machines_are_each_kept_once_in_the_index_form(
    form: str,
) -> None:
    base = _written(A + B, form)
    first = _written(A + B + C, form)  # the service's copy
    second = _written(A + B + D, form)  # the laptop's
    merged, outcomes = _merged(base, first, second)
    assert merged == _written(A + B + C + D, form)
    assert outcomes == []  # no line was reworded on both sides


@pytest.mark.parametrize("form", FORMS)
def test_a6_a_pruned_line_and_a_line_the_agent_appended_meanwhile_both_hold(form: str) -> None:
    """The delete's pruning (``cafe-notes.md``'s line gone) merged with the agent's append."""
    base = _written(A + B, form)
    pruned = _written(B, form)
    appended = _written(A + B + C, form)
    assert merge_lines(base, pruned, appended) == _written(B + C, form)


def test_r2_a_line_reworded_on_both_machines_is_reported_as_its_text() -> None:
    form = "UTF-16LE with its BOM"
    base = _written(A + B, form)
    first = _written(A.replace("wifi", "wifi password") + B, form)
    second = _written(A.replace("wifi", "opening hours") + B, form)
    _, [outcome] = _merged(base, first, second)
    assert outcome.kind == "index-lines-both"
    assert outcome.lines == (A.rstrip("\n"),)


def test_r2_a_line_left_without_its_end_ends_as_the_index_lines_end() -> None:
    """The service's new last line has no line end; the laptop's line follows it in the merge:
    it gets the CR the index's lines end in (an LF would make a line end no line of it has)."""
    base = b"- [A](a.md)\r"
    first = b"- [A](a.md)\r- [C](c.md) service"
    second = b"- [A](a.md)\r- [D](d.md) laptop\r"
    merged, _ = _merged(base, first, second)
    assert merged == b"- [A](a.md)\r- [C](c.md) service\r- [D](d.md) laptop\r"


@pytest.mark.parametrize("form", FORMS)
def test_r2_a_file_edited_on_both_machines_is_kept_twice_each_copy_with_its_index_line(
    form: str,
) -> None:
    """The laptop's edit is kept as ``cafe-notes-laptop.md``: its index line is added in the
    index's own form (never left out because the index is not UTF-8, never in another one)."""
    base = {INDEX: _written(A + B, form), "cafe-notes.md": b"v0\n"}
    first = {INDEX: base[INDEX], "cafe-notes.md": b"v1 from the service\n"}
    second = {INDEX: base[INDEX], "cafe-notes.md": b"v2 from the laptop\n"}
    files, outcomes = _merge(base, first, second)
    assert sorted(files) == [INDEX, "cafe-notes-laptop.md", "cafe-notes.md"]
    kept_line = A.replace("(cafe-notes.md)", "(cafe-notes-laptop.md)")
    assert files[INDEX] == _written(A + B + kept_line, form)
    assert [outcome.kind for outcome in outcomes] == ["kept-both"]


@pytest.mark.parametrize("renamer", ["first", "second"])
@pytest.mark.parametrize("form", FORMS)
def test_r2_an_index_line_reworded_on_one_machine_follows_a_rename_on_the_other(
    form: str, renamer: str
) -> None:
    base = {INDEX: _written(A + B, form), "cafe-notes.md": b"text\n"}
    renamed = {INDEX: _written(A.replace("cafe-notes", "cafe") + B, form), "cafe.md": b"text\n"}
    reworded = {INDEX: _written(A.replace("wifi", "wifi password") + B, form)}
    reworded["cafe-notes.md"] = b"text\n"
    if renamer == "first":
        files, _ = _merge(base, renamed, reworded, ({"cafe-notes.md": "cafe.md"}, {}))
    else:
        files, _ = _merge(base, reworded, renamed, ({}, {"cafe-notes.md": "cafe.md"}))
    moved = A.replace("cafe-notes", "cafe").replace("wifi", "wifi password")
    assert files == {INDEX: _written(moved + B, form), "cafe.md": b"text\n"}


@pytest.mark.parametrize("form", FORMS)
def test_r2_a_push_landing_beside_an_agent_s_edit_adds_the_kept_text_s_line_in_the_index_form(
    tmp_path: Path, form: str
) -> None:
    """The laptop's push changes ``cafe-notes.md`` while an agent here rewrote it: the pushed
    text is kept as ``cafe-notes-laptop.md`` and its index line is merged into the index on
    disk in that index's form (UTF-8 bytes appended to a UTF-16 index would tear it)."""
    index = tmp_path / INDEX
    index.write_bytes(_written(A, form))
    (tmp_path / "cafe-notes.md").write_bytes(b"v0\n")
    disk = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    (tmp_path / "cafe-notes.md").write_bytes(b"written by an agent meanwhile\n")
    target = {INDEX: _written(A + C, form), "cafe-notes.md": b"pushed\n", "c.md": b"c\n"}
    texts = {blob_id(data): data for data in (*disk.values(), *target.values())}
    outcomes = apply_scope(
        tmp_path,
        {name: blob_id(data) for name, data in disk.items()},
        {name: blob_id(data) for name, data in target.items()},
        texts.__getitem__,
        label="laptop",
    )
    assert [outcome.kept_as for outcome in outcomes] == ["cafe-notes-laptop.md"]
    kept_line = A.replace("(cafe-notes.md)", "(cafe-notes-laptop.md)")
    assert index.read_bytes() == _written(A + C + kept_line, form)


def _u16(text: str) -> bytes:
    return codecs.BOM_UTF16_LE + text.encode("utf-16-le")


def test_r2_an_index_one_side_tore_is_merged_at_its_line_feed_bytes_each_line_once() -> None:
    """The laptop's UTF-16 index got a UTF-8 line appended (an agent's ``echo >> MEMORY.md``,
    an odd number of bytes: it decodes no more). All three copies are then split at each
    ``0x0A`` byte alike, so the lines both still share match: none is written twice, the
    byte order mark stays once at the start, and the appended bytes are kept."""
    base = _u16(A + B)
    first = _u16(A + B + C)
    appended = b"!- [U](u.md) odd\n"
    merged, _ = _merged(base, first, base + appended)
    assert merged.count(codecs.BOM_UTF16_LE) == 1
    assert merged.count(A.encode("utf-16-le")) == merged.count(B.encode("utf-16-le")) == 1
    # the service's index as it was, then the appended bytes; between them at most the NUL
    # byte the laptop's last UTF-16 line feed ended in (its appended line began after it)
    assert merged.startswith(first)
    assert merged[len(first) :] in (appended, b"\0" + appended)


def test_a6_a_pruned_line_and_an_appended_line_another_encoding_both_hold() -> None:
    """The delete's pruning race (A-6) merges with the same rule: an agent's UTF-8 append to
    a UTF-16 index doubles no line."""
    base = _u16(A + B)
    appended = base + b"!- [U](u.md) odd\n"
    merged = merge_lines(base, _u16(B), appended)
    assert merged.count(B.encode("utf-16-le")) == 1
    assert A.encode("utf-16-le") not in merged


@pytest.mark.parametrize("service_copy", [None, b""], ids=["deleted", "emptied"])
def test_r2_lines_added_to_an_index_the_service_emptied_keep_the_index_form(
    service_copy: bytes | None,
) -> None:
    """The service deleted (or emptied) ``MEMORY.md`` while the laptop added two lines to its
    UTF-16 copy: the merged index holds the laptop's lines, every line end in UTF-16 (a lone
    UTF-8 ``0x0A`` byte would shift every character after it)."""
    base = "- [A](a.md) x\n- [B](b.md) y\n".encode("utf-16")
    added = "- [C](c.md) laptop\n- [D](d.md) laptop too\n"
    second = base + added.encode("utf-16-le" if base.startswith(b"\xff\xfe") else "utf-16-be")
    first = {} if service_copy is None else {INDEX: service_copy}
    files, _ = _merge({INDEX: base}, first, {INDEX: second})
    exact = decode_exact(files[INDEX])
    assert exact is not None
    assert exact.codec.startswith("utf-16")
    assert exact.text == added


def test_r2_a_byte_order_mark_only_one_machine_added_is_no_blank_line() -> None:
    """The laptop's editor saved the index with a UTF-8 byte order mark and a new line; the
    service added one: the mark comes first, and no empty line appears after it."""
    base = (A + B).encode()
    first = (A + B + C).encode()
    second = codecs.BOM_UTF8 + (A + B + D).encode()
    merged, _ = _merged(base, first, second)
    assert merged == codecs.BOM_UTF8 + (A + B + C + D).encode()
    merged, _ = _merged(base, second, first)
    assert merged == codecs.BOM_UTF8 + (A + B + D + C).encode()


@pytest.mark.parametrize("codec", ["utf-32-le", "utf-32-be"])
def test_t2_an_index_in_utf32_without_a_bom_reads_as_utf32_in_a_plain_read_and_a_merge(
    codec: str,
) -> None:
    """A plain read took UTF-32 saved without its byte order mark for UTF-8 (NUL bytes are
    valid UTF-8): three NULs in every character reached the model, and nothing was said. It is
    read as UTF-32 by its NUL bytes, named as such, and a merge splits it into the same lines."""
    raw = (A + B).encode(codec)

    text, problems = decode_text(raw)
    exact = decode_exact(raw)

    assert text == A + B
    assert problems == ["encoding: UTF-32 text without a byte order mark"]
    assert exact is not None and (exact.codec, exact.bom, exact.text) == (codec, b"", A + B)
    assert merge_lines(raw, raw + C.encode(codec), raw + D.encode(codec)) == (
        (A + B + D + C).encode(codec)
    )


@pytest.mark.parametrize("codec", ["utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("text", ["hi\n", "x", "- [A](a.md)\n", "Café ✓\n"])
def test_t2_a_short_file_in_utf32_without_a_bom_reads_as_utf32(codec: str, text: str) -> None:
    """Under 32 bytes (what a delete's pruning may leave of an index), UTF-32 without its mark
    was read as UTF-8: ``"hi\\n"`` as ``h\\x00\\x00\\x00…``, silently. Every unit holding
    UTF-32's NULs (its two high bytes) and a character is UTF-32, however short."""
    raw = text.encode(codec)

    decoded, problems = decode_text(raw)
    exact = decode_exact(raw)

    assert (decoded, problems) == (text, ["encoding: UTF-32 text without a byte order mark"])
    assert exact is not None and (exact.codec, exact.text) == (codec, text)


@pytest.mark.parametrize(
    "raw",
    [b"abcd", b"a\x00b\x00", b"\x00a\x00b", b"a\x00\x00\x00bcde", b"\x00\x00\x00\x00", b"ab\n"],
)
def test_t2_short_text_without_utf32s_nuls_in_every_unit_is_not_utf32(raw: bytes) -> None:
    exact = decode_exact(raw)

    assert exact is None or not exact.codec.startswith("utf-32"), exact
    assert not any("UTF-32" in problem for problem in decode_text(raw)[1])
