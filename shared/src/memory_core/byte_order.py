"""Text files that start with a byte order mark, as editors save them (I-9, A-2).

Windows Notepad saves "UTF-8 with BOM" (``EF BB BF`` before the first character) and its
"Unicode" as UTF-16 with ``FF FE``; PowerShell 5 writes both. The mark says which encoding the
file is in and is no character of its text: a reader that takes it as text shows the model an
invisible U+FEFF before the first word, or refuses the file (a JSON reader finds "an invalid
character at byte 0"). :func:`decode_marked` reads such a file as its editor shows it.

>>> decode_marked(b"\\xef\\xbb\\xbf{}")
'{}'
>>> decode_marked("café".encode("utf-16"))
'café'
>>> decode_marked(b"plain")
'plain'
"""

from __future__ import annotations

import codecs

__all__ = ["decode_marked", "marked_codec", "marked_text", "not_text"]

_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 little-endian"),  # before UTF-16's: FF FE 00 00
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 big-endian"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 little-endian"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 big-endian"),
)
"""The byte order marks a text file may start with, the codec that reads what follows the
mark, and the encoding's name for a person."""


def _mark(raw: bytes) -> tuple[bytes, str, str]:
    """The byte order mark ``raw`` starts with, its codec and name; ``b""`` and UTF-8's when
    it starts with none."""
    return next((mark for mark in _MARKS if raw.startswith(mark[0])), (b"", "utf-8", "UTF-8"))


def marked_codec(raw: bytes) -> str | None:
    """The codec that reads what follows the byte order mark ``raw`` starts with
    (``utf-8``, ``utf-16-le``, ``utf-32-be``…), or None when it starts with none."""
    mark, codec, _ = _mark(raw)
    return codec if mark else None


def marked_text(raw: bytes) -> str | None:
    """What the byte order mark ``raw`` starts with says the file is, for a person:
    ``"UTF-16 big-endian text (its byte order mark FE FF says so)"``; None when it starts
    with none."""
    mark, _, name = _mark(raw)
    return f"{name} text (its byte order mark {mark.hex(' ').upper()} says so)" if mark else None


def decode_marked(raw: bytes) -> str:
    """``raw`` as text: in the encoding its byte order mark names, without the mark; UTF-8
    when it has none. Raises ``UnicodeDecodeError`` whose ``.object`` is ``raw`` and
    ``.start`` the offset in ``raw`` of the first byte that is not text in that encoding
    (after the mark: ``b"\\xef\\xbb\\xbf\\x80"`` fails at 3, byte ``0x80``);
    :func:`not_text` says so for a person.

    >>> try:
    ...     decode_marked(b"\\xef\\xbb\\xbf\\x80")
    ... except UnicodeDecodeError as error:
    ...     print(error.start, hex(error.object[error.start]))
    3 0x80
    """
    mark, codec, _ = _mark(raw)
    try:
        return raw[len(mark) :].decode(codec)
    except UnicodeDecodeError as error:
        start, end = error.start + len(mark), error.end + len(mark)
        raise UnicodeDecodeError(codec, raw, start, end, error.reason) from None


def not_text(error: UnicodeDecodeError) -> str:
    """What :func:`decode_marked`'s ``error`` found, for a person: the encoding the bytes are
    in (the one their byte order mark names, else UTF-8) and the first byte that is not such
    text, at its offset in the whole file: ``"not the UTF-16 little-endian text its byte
    order mark (FF FE) says (byte 0x0a at offset 41: truncated data)"`` (an odd byte a line
    end ``echo >>`` added), ``"not UTF-8 text (byte 0xe9 at offset 3: invalid continuation
    byte)"``."""
    raw = bytes(error.object)
    mark, _, name = _mark(raw)
    said = (
        f"not the {name} text its byte order mark ({mark.hex(' ').upper()}) says"
        if mark
        else "not UTF-8 text"
    )
    return f"{said} (byte 0x{raw[error.start]:02x} at offset {error.start}: {error.reason})"
