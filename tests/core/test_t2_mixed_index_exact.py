"""T-2, A-6: a mostly-UTF-8 index is rewritten by the text its reader shows, every byte kept.

A line of such an index that is not UTF-8 reads as cp1252 (``decode_text``); ``decode_exact``
now reads it the same way, so whatever judges its lines by their text (a delete's pruning, a
restore's merge, the merge of two writes) sees ``šárka.md`` where the reader does, and gives
the line's own bytes back. The ``CP1252_UNDEFINED`` error handler reads only 8-bit codecs.
"""

from __future__ import annotations

import codecs

import pytest
from memory_core.decoding import CP1252_UNDEFINED, decode_exact, decode_text
from memory_core.line_merge import merge_lines

CZECH = b"- [\x8a\xe1rka](\x9a\xe1rka.md) \x96 Czech \x81\r\n"  # Windows-1252
INDEX = codecs.BOM_UTF8 + b"# Memory\n" + "- [Café](cafe.md) é\n".encode() + CZECH + b"- [B](b.md)"


def test_t2_a_mixed_index_reads_as_its_reader_shows_it_and_encodes_back_exactly() -> None:
    exact = decode_exact(INDEX)
    assert exact is not None
    assert exact.text.replace("\r\n", "\n") == decode_text(INDEX)[0]
    assert "- [Šárka](šárka.md) – Czech \x81\r\n" in exact.text
    assert exact.encode(exact.text) == INDEX
    assert exact.bom + b"".join(exact.lines()) == INDEX
    pruned = exact.text.replace("- [Šárka](šárka.md) – Czech \x81\r\n", "")
    assert exact.encode(pruned) == INDEX.replace(CZECH, b"")
    assert exact.encode(exact.text + "\n- [Ü](u.md)") == INDEX + "\n- [Ü](u.md)".encode()


def test_t2_merging_two_writes_of_a_mixed_index_keeps_its_cp1252_line() -> None:
    ours, theirs = INDEX + b"\n- [A](a.md)\n", INDEX + b"\n- [C](c.md)\n"
    merged = merge_lines(INDEX, ours, theirs)
    assert merged.count(CZECH) == 1
    assert b"- [A](a.md)" in merged and b"- [C](c.md)" in merged


def test_t2_the_cp1252_error_handler_reads_no_codec_but_8_bit_ones() -> None:
    assert b"\x81".decode("cp1252", CP1252_UNDEFINED) == "\x81"
    with pytest.raises(UnicodeDecodeError):
        b"\x81".decode("utf-8", CP1252_UNDEFINED)
    with pytest.raises(UnicodeEncodeError):
        "\x81".encode("ascii", CP1252_UNDEFINED)
