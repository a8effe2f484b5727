"""Bytes of a topic file → text with LF line ends, never raising (T-2).

Kept apart from parsing so the service can decode an index (``MEMORY.md``) the same way.

>>> decode_text(b"\\xef\\xbb\\xbfa\\r\\nb")
('a\\nb', ['encoding: UTF-8 byte order mark removed', 'line-endings: CRLF read as LF'])
"""

from __future__ import annotations

import codecs

__all__ = ["decode_text"]


def decode_text(raw: bytes, *, partial: bool = False) -> tuple[str, list[str]]:
    """Decode a topic file's bytes to text with LF line ends; never raises (T-2).

    Returns ``(text, problems)``. A UTF-8 byte order mark is stripped (a UTF-16 one selects
    UTF-16); bytes that are not UTF-8 are read as cp1252, or Latin-1 when cp1252 cannot map them,
    and named as an ``encoding`` problem; CRLF (and lone CR) line ends become LF and are named as
    a ``line-endings`` problem. ``partial`` says the bytes were cut at the read cap, so an
    incomplete UTF-8 sequence at the very end is dropped rather than reported.

    >>> decode_text(b"\\xef\\xbb\\xbfa\\r\\nb")
    ('a\\nb', ['encoding: UTF-8 byte order mark removed', 'line-endings: CRLF read as LF'])
    >>> decode_text("Café".encode("latin-1"))[1]
    ['encoding: not valid UTF-8 (byte 0xe9 at offset 3); read as cp1252']
    """
    problems: list[str] = []
    text: str
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
        problems.append("encoding: UTF-8 byte order mark removed")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = raw.decode("utf-16", errors="replace")
        problems.append("encoding: UTF-16 text")
    else:
        try:
            text = codecs.getincrementaldecoder("utf-8")().decode(raw, final=not partial)
        except UnicodeDecodeError as error:
            where = f"byte 0x{raw[error.start]:02x} at offset {error.start}"
            try:
                text, used = raw.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                text, used = raw.decode("latin-1"), "Latin-1"
            problems.append(f"encoding: not valid UTF-8 ({where}); read as {used}")
    if "\r" in text:
        kind = "CRLF" if "\r\n" in text else "CR"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        problems.append(f"line-endings: {kind} read as LF")
    if text.startswith("\ufeff"):  # a BOM that survived (UTF-16 or doubled)
        text = text[1:]
    return text, problems
