"""Bytes of a topic file → text with LF line ends, never raising (T-2).

Kept apart from parsing so the service can decode an index (``MEMORY.md``) the same way.
:func:`decode_exact` reads bytes the way :func:`decode_text` does but keeps what a rewrite needs
to give every other byte back unchanged (A-6): the byte order mark, the codec, the line ends.

>>> decode_text(b"\\xef\\xbb\\xbfa\\r\\nb")
('a\\nb', ['encoding: UTF-8 byte order mark removed', 'line-endings: CRLF read as LF'])
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

__all__ = ["ExactText", "decode_exact", "decode_text"]


def decode_text(raw: bytes, *, partial: bool = False) -> tuple[str, list[str]]:
    """Decode a topic file's bytes to text with LF line ends; never raises (T-2).

    Returns ``(text, problems)``. A UTF-8 byte order mark is stripped (a UTF-32 or UTF-16 one
    selects that encoding, UTF-32 first: its little-endian mark begins with UTF-16's; UTF-16
    without a mark is told by its NUL bytes, :func:`_utf16_without_bom`); bytes
    that are not UTF-8 are read as cp1252, or Latin-1 when cp1252 cannot map them, and named
    as an ``encoding`` problem; CRLF (and lone CR) line ends become LF and are named as a
    ``line-endings`` problem. ``partial`` says the bytes were cut at the read cap, so an
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
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00
        text = raw.decode("utf-32", errors="replace")
        problems.append("encoding: UTF-32 text")
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = raw.decode("utf-16", errors="replace")
        problems.append("encoding: UTF-16 text")
    elif (unmarked := _utf16_without_bom(raw)) is not None:
        text = raw.decode(unmarked, errors="replace")
        problems.append("encoding: UTF-16 text without a byte order mark")
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


_SAMPLE_BYTES = 4096
"""How much of a file :func:`_utf16_without_bom` looks at."""


def _utf16_without_bom(raw: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` for UTF-16 saved without its byte order mark (some
    Windows tools), else None. Text in UTF-8 or any 8-bit encoding holds no NUL byte, while
    UTF-16 of mostly ASCII text (as Markdown's link syntax is) has one in every other byte:
    at least 30 % (and 8) of the odd (little-endian) or even (big-endian) bytes of the first
    4 KiB, and at most 5 % of the others, of an even length."""
    if len(raw) % 2 or b"\x00" not in raw[:_SAMPLE_BYTES]:
        return None
    sample = raw[:_SAMPLE_BYTES]
    low, high = sample[0::2], sample[1::2]
    for codec, zeros, others in (("utf-16-le", high, low), ("utf-16-be", low, high)):
        nuls = zeros.count(0)
        if nuls >= max(8, 0.3 * len(zeros)) and others.count(0) <= 0.05 * len(others):
            return codec
    return None


@dataclass(frozen=True, slots=True)
class ExactText:
    """Text decoded so that :meth:`encode` gives back the very bytes it came from (A-6).

    ``bom`` is the byte order mark the file starts with (``b""`` for none); ``codec`` the
    Python codec of the rest (``utf-8``, ``utf-16-le``, ``utf-16-be``, ``utf-32-le``,
    ``utf-32-be``, ``cp1252``, ``latin-1``): the one :func:`decode_text` reads it with;
    ``text`` keeps its line ends as written (``\\r\\n``, ``\\r`` or ``\\n``).
    """

    bom: bytes
    codec: str
    text: str

    def encode(self, text: str) -> bytes:
        """``text`` (``self.text`` edited) as bytes of the same file: BOM, then the codec.

        Raises ``UnicodeEncodeError`` for a character the codec cannot hold (a pruned text only
        ever holds characters of the original)."""
        return self.bom + text.encode(self.codec)


def decode_exact(raw: bytes) -> ExactText | None:
    """Decode ``raw`` as :func:`decode_text` reads it, keeping its BOM, codec and line ends.

    None when the bytes cannot be given back exactly by re-encoding the text (UTF-16 or UTF-32
    with a cut code unit or a lone surrogate: :func:`decode_text` reads those with replacement
    characters), so a caller never rewrites a file it would change beyond its edit.

    >>> found = decode_exact("\\ufeffa\\rb".encode("utf-16-le"))
    >>> found.bom, found.codec, found.text
    (b'\\xff\\xfe', 'utf-16-le', 'a\\rb')
    >>> decode_exact("Café – x".encode("cp1252")).codec
    'cp1252'
    """
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    rest = raw[len(bom) :]
    if rest.startswith(codecs.BOM_UTF32_LE):
        bom, rest, codec = bom + codecs.BOM_UTF32_LE, rest[4:], "utf-32-le"
    elif rest.startswith(codecs.BOM_UTF32_BE):
        bom, rest, codec = bom + codecs.BOM_UTF32_BE, rest[4:], "utf-32-be"
    elif rest.startswith(codecs.BOM_UTF16_LE):
        bom, rest, codec = bom + codecs.BOM_UTF16_LE, rest[2:], "utf-16-le"
    elif rest.startswith(codecs.BOM_UTF16_BE):
        bom, rest, codec = bom + codecs.BOM_UTF16_BE, rest[2:], "utf-16-be"
    else:
        codec = _utf16_without_bom(raw) or "utf-8"
    candidates = (codec,) if codec != "utf-8" else ("utf-8", "cp1252", "latin-1")
    for candidate in candidates:
        try:
            text = rest.decode(candidate)
        except UnicodeDecodeError:
            continue
        if text.encode(candidate) == rest:
            return ExactText(bom=bom, codec=candidate, text=text)
        return None
    return None
