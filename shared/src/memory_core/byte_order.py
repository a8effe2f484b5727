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

__all__ = ["decode_marked", "marked_codec"]

_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's: FF FE 00 00 starts with FF FE
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
"""The byte order marks a text file may start with, and the codec that reads it without it."""


def marked_codec(raw: bytes) -> str | None:
    """The codec that reads ``raw`` without the byte order mark it starts with (``utf-8-sig``,
    ``utf-16``, ``utf-32``), or None when it starts with none."""
    return next((codec for mark, codec in _MARKS if raw.startswith(mark)), None)


def decode_marked(raw: bytes) -> str:
    """``raw`` as text: in the encoding its byte order mark names, without the mark; UTF-8
    when it has none. Raises ``UnicodeDecodeError`` (``.start``: the first byte that is not
    text in that encoding)."""
    return raw.decode(marked_codec(raw) or "utf-8")
