"""T-2, T-5: what ``invalid-encoding`` says of UTF-16 text.

Japanese saved as UTF-16LE without a byte order mark has too few NUL bytes to be taken for
UTF-16 and is read as an 8-bit encoding; the finding proposed ``iconv -f LATIN1``, which
would garble it. It now says the bytes look like UTF-16 without a byte order mark, and gives
no conversion command. Lines of bad bytes in UTF-16/32 text are counted at LF, CRLF and CR,
as they are in UTF-8 text.
"""

from __future__ import annotations

import pytest
from memory_core.decoding import decode_text
from memory_core.encoding_findings import not_utf8_notes

JAPANESE = "日本語のメモ\n設定を保存する\n"


@pytest.mark.parametrize(("codec", "order"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_t2_japanese_utf16_without_a_bom_is_named_and_no_iconv_is_proposed(
    codec: str, order: str
) -> None:
    _, problems = decode_text(JAPANESE.encode(codec))

    [(_, message)] = not_utf8_notes("MEMORY.md", problems)

    assert "look like UTF-16 without a byte order mark" in message
    assert order in message
    assert "iconv" not in message and "LATIN1" not in message


def test_t2_latin1_text_still_gets_its_iconv_command() -> None:
    _, problems = decode_text("café crème\n".encode("latin-1"))

    [(_, message)] = not_utf8_notes("notes.md", problems)

    assert "iconv -f CP1252 -t UTF-8" in message


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("codec", ["utf-16", "utf-32"])
def test_t2_bad_bytes_in_utf16_or_32_are_on_the_line_every_reader_counts(
    codec: str, ending: str
) -> None:
    good = ending.join(["one", "two", "three", ""]).encode(codec)  # with its byte order mark
    unit = 4 if codec == "utf-32" else 2
    lone_surrogate = b"\x00\xd8" if unit == 2 else b"\x00\x00\x11\x00"  # not valid in it
    raw = good + lone_surrogate + "x\n".encode(codec)[unit:]

    _, problems = decode_text(raw)

    [(line, message)] = not_utf8_notes("MEMORY.md", problems)
    assert line == 4, message
    assert ", line 4," in message
