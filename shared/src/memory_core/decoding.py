"""Bytes of a topic file → text with LF line ends, never raising (T-2).

Kept apart from parsing so the service can decode an index (``MEMORY.md``) the same way.
:func:`decode_exact` reads bytes the way :func:`decode_text` does but keeps what a rewrite needs
to give every other byte back unchanged (A-6): the byte order mark, the codec, the line ends.

>>> decode_text(b"\\xef\\xbb\\xbfa\\r\\nb")
('a\\nb', ['encoding: UTF-8 byte order mark removed', 'line-endings: CRLF read as LF'])
"""

from __future__ import annotations

import codecs
import re
from collections import defaultdict, deque
from dataclasses import dataclass

from memory_core.legacy_readings import (
    KOI8_R,
    WINDOWS_1251,
    capital_inside,
    cjk_readings,
    cyrillic_by_case,
    cyrillic_readings,
    decodes,
    koi8_r_by_case,
    wholly_common_cjk,
)

__all__ = [
    "CP1252_UNDEFINED",
    "CYRILLIC_8BIT",
    "LEGACY_MULTIBYTE",
    "MIXED_READING",
    "NOT_DECODED",
    "NOT_UTF8",
    "REPLACED",
    "SHORT_TEXT_BYTES",
    "UNDEFINED_BYTES",
    "UNMARKED_UTF16",
    "ExactText",
    "decode_exact",
    "decode_file",
    "decode_text",
    "exact_codec",
    "legacy_multibyte",
    "legacy_readings",
    "line_of",
    "name_spellings",
    "not_decoded_why",
    "not_utf8_spots",
    "shown_lines",
    "shown_text",
]

LEGACY_MULTIBYTE = ("cp932", "gb18030", "big5", "euc_jp", "euc_kr")
"""Multi-byte encodings whose text :func:`decode_text` would read as Windows-1252 or Latin-1
(cp932 is Windows' Shift-JIS), with the name a user knows each by and iconv's name for it."""

CYRILLIC_8BIT = WINDOWS_1251
"""Windows-1251, the 8-bit Cyrillic encoding of Windows (Russian, Ukrainian, Bulgarian,
Serbian): its letters are the bytes cp1252 gives to accented Latin letters, so read as cp1252
a Cyrillic index is mojibake (``Êîôå`` for ``Кофе``); :func:`legacy_multibyte` tells it too,
and KOI8-R (``koi8_r``, older Unix and mail), whose letters stand in the same bytes, case
swapped (:func:`~memory_core.legacy_readings.cyrillic_reading`)."""
_CYRILLIC = (WINDOWS_1251, KOI8_R)

_KNOWN_AS = {
    "cp1252": ("Windows-1252 (Western)", "CP1252"),
    CYRILLIC_8BIT: ("Windows-1251 (Cyrillic)", "CP1251"),
    KOI8_R: ("KOI8-R (Cyrillic)", "KOI8-R"),
    "cp932": ("Shift-JIS", "CP932"),
    "gb18030": ("GBK/GB18030", "GB18030"),
    "big5": ("Big5", "BIG5"),
    "euc_jp": ("EUC-JP", "EUC-JP"),
    "euc_kr": ("EUC-KR", "EUC-KR"),
}
_WEIGHED = ("cp1252", "latin_1", *LEGACY_MULTIBYTE)
_HIGH_RUN = re.compile(rb"[\x80-\xff]{2,}")
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def decode_text(
    raw: bytes, *, partial: bool = False, name_legacy: bool = True
) -> tuple[str, list[str]]:
    """Decode a topic file's bytes to text with LF line ends; never raises (T-2).

    Returns ``(text, problems)``. A UTF-8 byte order mark is stripped (a UTF-32 or UTF-16 one
    selects that encoding, UTF-32 first: its little-endian mark begins with UTF-16's; UTF-16
    or UTF-32 without a mark is told by its NUL bytes, :func:`_wide_without_bom`); bytes
    that are not UTF-8 are read as cp1252, each byte it does not define as its C1 control (as
    WHATWG's windows-1252 does: :data:`CP1252_UNDEFINED`), and named as an ``encoding``
    problem; CRLF (and lone CR) line ends become LF and are named as a ``line-endings`` problem.
    ``partial`` says the bytes were cut at the read cap, so an incomplete UTF-8 sequence at the
    very end is dropped rather than reported. Bytes read as cp1252 that look like a legacy CJK
    encoding say so in their problem, with the iconv command (:func:`legacy_multibyte`);
    ``name_legacy=False`` skips that judgement (a caller decoding many lines of one file for
    their links only).

    >>> decode_text(b"\\xef\\xbb\\xbfa\\r\\nb")
    ('a\\nb', ['encoding: UTF-8 byte order mark removed', 'line-endings: CRLF read as LF'])
    >>> decode_text("Café".encode("latin-1"))[1]
    ['encoding: not valid UTF-8 (byte 0xe9 at offset 3, line 1); read as cp1252']
    """
    problems: list[str] = []
    text: str
    mark = 0
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
        mark = len(codecs.BOM_UTF8)
        problems.append("encoding: UTF-8 byte order mark removed")
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00
        text = _wide_text(raw, "utf-32", "encoding: UTF-32 text", problems, partial=partial)
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _wide_text(raw, "utf-16", "encoding: UTF-16 text", problems, partial=partial)
    elif (unmarked := _wide_without_bom(raw)) is not None:
        unmarked_problem = f"encoding: UTF-{unmarked[4:6]} text without a byte order mark"
        text = _wide_text(raw, unmarked, unmarked_problem, problems, partial=partial)
    else:
        try:
            text = codecs.getincrementaldecoder("utf-8")().decode(raw, final=not partial)
        except UnicodeDecodeError:
            text = _not_utf8_text(raw, mark, problems, partial=partial, name_legacy=name_legacy)
    return _lf_text(text, problems)


def _not_utf8_text(
    raw: bytes, mark: int, problems: list[str], *, partial: bool, name_legacy: bool
) -> str:
    """The text of ``raw`` (after a UTF-8 byte order mark of ``mark`` bytes), which is not
    valid UTF-8: read line by line when it is mostly UTF-8 (:func:`_mostly_utf8`), else as
    cp1252 (:func:`_western_text`). Its ``encoding`` problem, added to
    ``problems``, starts with :data:`NOT_UTF8` and names the first bytes that are not UTF-8
    on each line, by byte offset in the file and line (:func:`not_utf8_spots`), and how the
    bytes were read."""
    where = _spots_shown(*not_utf8_spots(raw, mark, partial=partial))
    if (mixed := _mostly_utf8(raw, partial=partial)) is not None:
        text, odd = mixed
        shown = ", ".join(str(number) for number in odd[:5])
        more = f" and {len(odd) - 5} more" if len(odd) > 5 else ""
        lines = raw.splitlines()
        undefined = _undefined_lines([lines[number - 1] for number in odd], odd)
        problems.append(
            f"{NOT_UTF8}{where}); line {shown}{more} {MIXED_READING}, every other line as UTF-8"
            + undefined
        )
        return text
    text, used = _western_text(raw)
    problem = f"{NOT_UTF8}{where}); read as {used}"
    if (wide := _unmarked_utf16(raw, partial=partial)) is not None:
        problem += f", but {UNMARKED_UTF16} ({wide}: it holds NUL bytes, as no 8-bit text does)"
    elif name_legacy and (legacy := legacy_readings(raw)) is not None:
        problem += f", but {_looks_like(legacy)}"
    problems.append(problem)
    return text


def _western_text(raw: bytes) -> tuple[str, str]:
    """``raw`` read as cp1252 byte by byte (:data:`CP1252_UNDEFINED`), and how it was read:
    ``cp1252``, then the lines holding a byte cp1252 does not define, ``cp1252, line 4 holds
    bytes cp1252 does not define (shown as hidden text)`` (:data:`UNDEFINED_BYTES`). One stray
    byte never makes a letter (``Š``, ``\\x8a``) or dash (``–``, ``\\x96``) of a Windows-1252
    file a C1 control, which lint names as hidden text and the model is shown as its mark, nor
    a link to ``šárka.md`` dangle (I-9, T-2)."""
    text = raw.decode("cp1252", CP1252_UNDEFINED)
    return text, "cp1252" + _undefined_lines(raw.splitlines())


def _undefined_lines(lines: list[bytes], numbers: list[int] | None = None) -> str:
    """``, line 4 holds bytes cp1252 does not define (shown as hidden text)`` for the ``lines``
    (numbered 1, 2, … or by ``numbers``) holding a byte cp1252 does not define; ``""`` for
    none."""
    odd = [
        numbers[at] if numbers else at + 1
        for at, line in enumerate(lines)
        if _UNDEFINED_BYTE.search(line) is not None
    ]
    if not odd:
        return ""
    shown = ", ".join(str(number) for number in odd[:5])
    more = f" and {len(odd) - 5} more" if len(odd) > 5 else ""
    verb = "hold" if len(odd) > 1 else "holds"
    return f", line{'s' if len(odd) > 1 else ''} {shown}{more} {verb} {UNDEFINED_BYTES}"


UNDEFINED_BYTES = "bytes cp1252 does not define (shown as hidden text)"
"""What an ``encoding`` problem of a file read as cp1252 says of its lines holding a byte cp1252
does not define (``0x81 0x8d 0x8f 0x90 0x9d``): each is read as the C1 control of its value,
as WHATWG's windows-1252 reads it, and named as hidden text; every other byte is cp1252's."""

CP1252_UNDEFINED = "memory-core-cp1252-undefined"
"""The codec error handler (:func:`codecs.register_error`) that reads, with ``cp1252``, each
byte cp1252 does not define as the C1 control of the same value (``0x81`` as U+0081, as WHATWG's
windows-1252 does), and writes those controls back as those bytes: a decode never fails, and
an encode gives every byte back (no other byte reads as those controls). Other errors raise.
Meant for ``cp1252`` alone (Python names the codec of the error ``charmap``)."""
_UNDEFINED = frozenset(b"\x81\x8d\x8f\x90\x9d")
_UNDEFINED_BYTE = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")


def _undefined_as_c1(error: UnicodeError) -> tuple[str | bytes, int]:
    """:data:`CP1252_UNDEFINED`: the first byte (or control) of ``error`` as the control (or
    byte) of its value when it is one cp1252 does not define; else ``error`` is raised (an
    error of any codec but the 8-bit ones, too: Python names every 8-bit codec's errors
    ``charmap``, as far as the codec can be told)."""
    if getattr(error, "encoding", None) != "charmap":
        raise error
    if isinstance(error, UnicodeDecodeError):
        byte = error.object[error.start]
        if byte in _UNDEFINED:
            return chr(byte), error.start + 1
    if isinstance(error, UnicodeEncodeError):
        code = ord(error.object[error.start])
        if code in _UNDEFINED:
            return bytes([code]), error.start + 1
    raise error


codecs.register_error(CP1252_UNDEFINED, _undefined_as_c1)


def _unmarked_utf16(raw: bytes, *, partial: bool) -> str | None:
    """``UTF-16LE`` or ``UTF-16BE`` when ``raw``, which is not UTF-8 and too little ASCII for
    :func:`_wide_without_bom` (Japanese, Chinese), holds NUL bytes and is valid UTF-16 in that
    byte order (the first that is); else None. Text in UTF-8 or an 8-bit encoding holds no
    NUL."""
    if b"\x00" not in raw:
        return None
    whole = raw[: len(raw) - len(raw) % 2] if partial else raw
    for codec, shown in (("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")):
        try:
            codecs.getincrementaldecoder(codec)().decode(whole, final=not partial)
        except UnicodeDecodeError:
            continue
        return shown
    return None


UNMARKED_UTF16 = "the bytes look like UTF-16 without a byte order mark"
"""What an ``encoding`` problem of bytes not valid UTF-8 says when they look like UTF-16 saved
without its byte order mark (T-2): no 8-bit encoding is then proposed to convert from."""

NOT_UTF8 = "encoding: not valid UTF-8 ("
"""How the ``encoding`` problem of bytes read though not valid UTF-8 starts (T-2): then the
bytes that are not, as :func:`not_utf8_spots` finds them, and how they were read."""

MIXED_READING = "read as cp1252"
"""What an ``encoding`` problem of a UTF-8 file with lines of another encoding says of them."""

SPOTS_SHOWN = 5
"""How many lines' bad bytes an ``encoding`` problem names (then "and N more lines")."""


def not_utf8_spots(
    raw: bytes, mark: int = 0, *, partial: bool = False
) -> tuple[list[tuple[int, int, int]], int]:
    """Where ``raw`` is not valid UTF-8: ``(line, offset, byte)`` of the first bad byte on
    each of the first :data:`SPOTS_SHOWN` lines holding one, and how many lines hold one.

    ``line`` is 1-based, lines ending at LF, CRLF or CR as every reader takes them; ``offset``
    is the byte's 0-based offset in the file (``mark``: the bytes of a byte order mark cut
    off before ``raw``); ``byte`` its value. ``partial``: the bytes were cut at the read cap,
    so an incomplete sequence at the very end is not counted. One pass, each line decoded once.

    >>> not_utf8_spots("a\\ncafé\\n".encode() + b"caf\\xe9\\n")
    ([(3, 11, 233)], 1)
    """
    spots: list[tuple[int, int, int]] = []
    count = 0
    offset = mark
    lines = raw.splitlines(keepends=True)
    for number, line in enumerate(lines, start=1):
        last = partial and number == len(lines)
        try:
            codecs.getincrementaldecoder("utf-8")().decode(line, final=not last)
        except UnicodeDecodeError as error:
            count += 1
            if len(spots) < SPOTS_SHOWN:
                spots.append((number, offset + error.start, line[error.start]))
        offset += len(line)
    return spots, count


def _spots_shown(spots: list[tuple[int, int, int]], count: int) -> str:
    """``byte 0xe9 at offset 28, line 3; byte 0xfc at offset 90, line 7 and 2 more lines``."""
    shown = "; ".join(
        f"byte 0x{byte:02x} at offset {offset}, line {line}" for line, offset, byte in spots
    )
    more = count - len(spots)
    return shown + (f" and {more} more line{'s' if more > 1 else ''}" if more > 0 else "")


def _wide_text(raw: bytes, codec: str, problem: str, problems: list[str], *, partial: bool) -> str:
    """``raw`` decoded as UTF-16 or UTF-32 (``codec``), its ``problem`` added to ``problems``.
    Bytes that are not valid in it are read as U+FFFD, and the problem then says so
    (:data:`REPLACED`), naming the first such bytes by byte offset in the file and line.
    ``partial``: cut at the read cap, so an incomplete unit at the very end is dropped."""
    problems.append(problem)
    try:
        return codecs.getincrementaldecoder(codec)().decode(raw, final=not partial)
    except UnicodeDecodeError as error:
        text = codecs.getincrementaldecoder(codec)("replace").decode(raw, final=not partial)
        line = line_of(raw[: error.start].decode(codec, errors="replace"))
        bad = raw[error.start : error.end].hex()
        problems.append(
            f"encoding: not valid {codec.upper()} (bytes 0x{bad} at offset {error.start}, "
            f"line {line}, and any like them {REPLACED})"
        )
        return text


def line_of(before: str) -> int:
    """The 1-based line the text after ``before`` starts on, lines ending at LF, CRLF or CR as
    :func:`not_utf8_spots` counts them (and every reader: T-2). ``before`` must not end
    between the CR and LF of one line end.

    >>> line_of("a\\r\\nb\\rc\\nd")
    4
    """
    return before.count("\n") + before.count("\r") - before.count("\r\n") + 1


REPLACED = "are read as U+FFFD"
"""What an ``encoding`` problem says of bytes not valid in a file's UTF-16 or UTF-32 (T-2)."""


def _lf_text(text: str, problems: list[str]) -> tuple[str, list[str]]:
    """``text`` with LF line ends and no surviving BOM; a ``line-endings`` problem added."""
    if "\r" in text:
        kind = "CRLF" if "\r\n" in text else "CR"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        problems.append(f"line-endings: {kind} read as LF")
    if text.startswith("\ufeff"):  # a BOM that survived (UTF-16 or doubled)
        text = text[1:]
    return text, problems


def _mostly_utf8(raw: bytes, *, partial: bool = False) -> tuple[str, list[int]] | None:
    """``raw``, not valid UTF-8 as a whole, read line by line when it is UTF-8 text with a few
    lines of another encoding (a line pasted from a Latin-1 file, a stray byte): at least as
    many lines hold valid multi-byte UTF-8 as lines are not UTF-8 (text in another 8-bit
    encoding seldom forms a valid UTF-8 sequence). Each valid line is read as UTF-8, each
    other one as cp1252 (a byte it does not define as its C1 control: :data:`CP1252_UNDEFINED`).
    Returns the text
    (line ends as written) and the numbers of the lines not read as UTF-8; None otherwise (a
    whole file in another encoding is read as one, never as a mix).

    >>> _mostly_utf8("- café\\n- thé\\n".encode() + b"- caf\\xe9\\n")
    ('- café\\n- thé\\n- café\\n', [3])
    """
    lines = raw.splitlines(keepends=True)
    parts: list[str] = []
    odd: list[int] = []
    utf8 = 0
    for number, line in enumerate(lines, start=1):
        last = partial and number == len(lines)
        try:
            parts.append(codecs.getincrementaldecoder("utf-8")().decode(line, final=not last))
        except UnicodeDecodeError:
            odd.append(number)
            parts.append(line.decode("cp1252", CP1252_UNDEFINED))
            continue
        utf8 += bool(_HIGH_BYTE.search(line))
    if not odd or utf8 < len(odd):
        return None
    return "".join(parts), odd


def legacy_multibyte(raw: bytes) -> str | None:
    """The legacy encoding (one of :data:`LEGACY_MULTIBYTE`, :data:`CYRILLIC_8BIT` or
    ``koi8_r``) that ``raw``, bytes that are not UTF-8, most likely are, or None when they
    read best as Windows-1252/Latin-1: the first of :func:`legacy_readings`."""
    readings = legacy_readings(raw)
    return None if readings is None else readings[0]


def legacy_readings(raw: bytes, *, weigh: bool = True) -> tuple[str, ...] | None:
    """The legacy encodings ``raw``, bytes that are not UTF-8, is most likely written in, the
    likeliest first; two or more when it is too short to tell which (a CJK title of two
    characters reads as Chinese, Japanese and Korean alike): then no reading of it is shown
    as its text. None when they read best as Windows-1252/Latin-1.

    8-bit Cyrillic is told first (:func:`_cyrillic_8bit`), then which of Windows-1251 and
    KOI8-R it is (:func:`~memory_core.legacy_readings.cyrillic_reading`). Else
    ``charset-normalizer`` weighs the candidates; its verdict on the family (a CJK encoding or
    an 8-bit Western one) is taken, never its choice among the CJK ones: on one or two index
    lines it tells GB18030, Big5 and EUC-JP apart only 0-80 % of the time, and took two in
    three one-line GB18030 indexes for EUC-KR; which CJK encoding it is is
    :func:`~memory_core.legacy_readings.cjk_readings`'s verdict (``docs/note-format.md``,
    "Encodings"). Its family verdict is weighed against how
    the bytes read as Windows-1252 (:func:`_unlike_western`, over :data:`_SAMPLE_BYTES` from
    the first byte above 0x7F; two such bytes at least, one alone tells nothing): a CJK
    verdict stands when the bytes decode strictly in that encoding and either a quarter of
    their bytes above 0x7F stand where Western text never has them (in a run of three, or in a
    word of two or more multi-byte characters apart from ASCII letters, :data:`_CJK_WORD`: one
    traditional Chinese word in an English line of GB18030), or at least half come in runs of
    two or more (as CJK characters' bytes do) and some stand so — the lone accented
    letters of Western text (``niño``, ``Noël``, ``ação``, whose byte pairs happen to be valid
    Big5) stand nowhere else. A Western verdict on bytes half of whose high bytes stand so is
    overruled: the CJK encoding is then the one it weighs best among those alone (one line of
    katakana, ``- [設定](settings.md) ― ビルド手順``, is judged Windows-1252 now and then).
    On short index lines generated in each encoding (``tests/core/test_t2_legacy_cjk_index.py``)
    this tells every Shift-JIS, EUC-JP, GB18030 and EUC-KR line and 99 % of Big5 ones as CJK,
    every English line holding one CJK word of two characters or more, and no German, French,
    Spanish, Portuguese, Italian or Nordic one in Windows-1252 or Latin-1.
    Short text is never named by one legacy encoding when it reads as Western text too: bytes
    with at most :data:`SHORT_TEXT_BYTES` above 0x7F whose Windows-1252 reading stands as
    Western text does (:func:`_short_and_western`: ``Ærø``, ``‘a’``, ``çà``, which the
    verdicts above named Big5, Shift-JIS and Windows-1251) are named with ``cp1252`` last
    among their readings: too little text to tell, so none is shown as its text and a file is
    not decoded but named with every command that may convert it (T-2). So are a few
    Windows-1251 letters told by their case alone that read as Western text too (``да`` is
    ``äà``, and ``- [çà](a.md)`` the very bytes of ``- [за](a.md)``: both named), and CJK
    encodings that read every character as a common one come before Windows-1251
    (:func:`_windows_1251_by_case`).
    Cost: ~2.7 ms for a 28,000-character Shift-JIS index (41 KB), plus ~12 ms to import
    ``charset-normalizer`` the first time (and 0.4-0.7 s for ``chardet``'s models when a short
    index needs them); UTF-8 text never gets here. ``weigh=False`` never loads those models
    (a hook's budget, H-5: :func:`not_decoded_why`): the readings they would choose among are
    all returned (:func:`~memory_core.legacy_readings.cjk_readings`,
    :func:`~memory_core.legacy_readings.cyrillic_readings`), likeliest by the rest first.
    """
    readings = _family_readings(raw, weigh=weigh)
    if readings is None or not _short_and_western(raw):
        return readings
    return (*readings, WESTERN)  # too little text to tell: never one named, nor shown


def _family_readings(raw: bytes, *, weigh: bool) -> tuple[str, ...] | None:
    """:func:`legacy_readings` before the check of short text that reads as Western text."""
    from charset_normalizer import from_bytes  # only for bytes that are not UTF-8

    if (cyrillic := _cyrillic_8bit(raw, weigh=weigh)) is not None:
        return cyrillic
    best = from_bytes(raw, cp_isolation=list(_WEIGHED)).best()
    first = _HIGH_BYTE.search(raw)
    sample = raw[max(first.start() - 1, 0) if first else 0 :][:_SAMPLE_BYTES]  # and what it follows
    unlike, high = _unlike_western(sample)
    codec = None if best is None else best.encoding
    if high < 2:
        return None  # one byte above 0x7F tells nothing
    if codec not in LEGACY_MULTIBYTE and 2 * unlike >= high:  # no Western text: which CJK?
        best = from_bytes(raw, cp_isolation=list(LEGACY_MULTIBYTE)).best()
        decoding = (other for other in LEGACY_MULTIBYTE if decodes(raw, other))
        codec = best.encoding if best is not None else next(decoding, None)
    if codec not in LEGACY_MULTIBYTE or not decodes(raw, codec):
        return None
    paired = sum(len(run) for run in _HIGH_RUN.findall(sample))
    if not (4 * unlike >= high or (2 * paired >= high and unlike)):
        return None
    readable = [other for other in LEGACY_MULTIBYTE if decodes(raw, other)]
    head = raw[: raw.rfind(b"\n", 0, _CHOICE_BYTES) + 1 or _CHOICE_BYTES]  # whole lines
    if fitting := [other for other in readable if decodes(head, other)]:
        return cjk_readings(head, fitting, weigh=weigh).codecs
    return cjk_readings(raw, readable, weigh=weigh).codecs  # a first line longer than the sample


def _cyrillic_8bit(raw: bytes, *, weigh: bool) -> tuple[str, ...] | None:
    """:func:`legacy_readings` of ``raw``, bytes that are not UTF-8, when they are 8-bit
    Cyrillic text rather than Western or CJK text, else None. Windows-1251 Cyrillic text:
    ``charset-normalizer``, weighing Windows-1252, Latin-1, Windows-1251 and the CJK
    encodings, finds Windows-1251 best, every byte above 0x7F reads there as a
    Cyrillic letter or a sign Cyrillic text uses (``«» — – „ “ … №``), and at least two thirds
    of them stand in words with no ASCII letter. A Western word read so (``Größe``, ``été``)
    glues its accented letters to ASCII ones; a Cyrillic word is all bytes above 0x7F.
    KOI8-R text passes the same way (its letters are Windows-1251 letters, case swapped), and
    ``charset-normalizer`` may find KOI8-R best instead, or a CJK encoding (135 of 150
    generated one-line Russian KOI8-R indexes were named Shift-JIS before): then it is told
    by its letters and their case (:func:`~memory_core.legacy_readings.koi8_r_by_case`), and
    named with the CJK encodings that read it just as well (too short to tell: ``югдь`` is
    ``性能``); where its words read with a capital after a lower-case letter, after the CJK
    encodings that read it (:func:`_cyrillic_or_cjk`)."""
    from charset_normalizer import from_bytes

    try:
        text = raw.decode(CYRILLIC_8BIT)
    except UnicodeDecodeError:
        return None
    high = _HIGH.findall(text)
    if len(high) < 2 or any(
        not ("\u0400" <= found <= "\u04ff") and found not in _CYRILLIC_SIGNS for found in high
    ):
        return None
    apart = sum(
        len(word)
        for word in _WORD.findall(text)
        if len(word) > 1 and not any(letter.isascii() for letter in word)
    )
    if 3 * apart < 2 * len(high):
        return None
    best = from_bytes(raw, cp_isolation=[*_WEIGHED, *_CYRILLIC]).best()
    if best is None or best.encoding in _CYRILLIC:
        return _cyrillic_or_cjk(raw, cyrillic_readings(raw, weigh=weigh), weigh=weigh)
    if koi8_r_by_case(raw):
        return (*cyrillic_readings(raw, weigh=weigh), *wholly_common_cjk(raw))
    if cyrillic_by_case(raw, WINDOWS_1251, _CYRILLIC_SIGNS):  # ``Кофе``, weighed as GB18030
        return _windows_1251_by_case(raw, weigh=weigh)  # ``да`` (``äà``): with cp1252, never read
    return None


def _windows_1251_by_case(raw: bytes, *, weigh: bool) -> tuple[str, ...]:
    """The readings of ``raw``, a few Windows-1251 letters by their case
    (:func:`~memory_core.legacy_readings.cyrillic_by_case`), likeliest first: Windows-1251
    alone, or after the CJK encodings in which every character stands where their text has
    them (:func:`~memory_core.legacy_readings.wholly_common_cjk`, ordered by
    :func:`~memory_core.legacy_readings.cjk_readings`). A Windows-1251 word reads so only with
    a capital every other letter (its lower-case letters are bytes 0xE0 and above, past every
    CJK encoding's common rows, ``ё`` aside), which the case rule does not let through; short
    Big5 ``測試``, EUC-KR ``메모`` and EUC-JP ``手順`` do (``ґъёХ``, ``ёЮёр``, ``јкЅз``)."""
    if capital_inside(raw.decode(WINDOWS_1251)):
        return _cyrillic_or_cjk(raw, (WINDOWS_1251,), weigh=weigh)
    common = wholly_common_cjk(raw)
    if not common:
        return (WINDOWS_1251,)
    return (*cjk_readings(raw, common, weigh=weigh).codecs, WINDOWS_1251)


def _cyrillic_or_cjk(raw: bytes, readings: tuple[str, ...], *, weigh: bool) -> tuple[str, ...]:
    """``readings``, the 8-bit Cyrillic encodings ``raw`` reads best in, unless a third of
    its words read in the first with a capital after a lower-case letter
    (:func:`~memory_core.legacy_readings.capital_inside`: ``іЖҐч`` is Big5 ``備份``, ``йРдє``
    EUC-KR ``優雅``): then the CJK encodings that decode it come first, ``readings`` last, too
    little to tell (a Cyrillic name such as ``МосГорТранс`` alone reads so too)."""
    if not capital_inside(raw.decode(readings[0])):
        return readings
    decoding = [codec for codec in LEGACY_MULTIBYTE if decodes(raw, codec)]
    if not decoding:
        return readings
    return (*cjk_readings(raw, decoding, weigh=weigh).codecs, *readings)


_CYRILLIC_SIGNS = frozenset("«»—–„“”…№\xa0‘’")
_WORD = re.compile(r"[^\W\d_]+")


_WESTERN_LETTERS = frozenset(
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿŒœŠšŽžŸ"
)
_WESTERN_SIGNS = frozenset("\xa0¡¢£¥§©ª«®°±²³µ·¹º»¼½¾¿×÷‘’‚“”„•–—…€™")
_SIGNS_APART = frozenset("¢£¥§©®±²³¹ª¼½¾×÷”•€™")
"""Signs Western text never glues to a following letter (``°C``, ``µs``, ``¡Hola``, ``it’s``
and ``»Zitat«`` it does)."""
_NEVER_AFTER_WESTERN = frozenset("@[\\^`{|}~")
_HIGH = re.compile("[^\x00-\x7f]")
_LONG_HIGH_RUN = re.compile("[^\x00-\x7f]{3,}")
_CJK_WORD = re.compile(
    rb"(?<![A-Za-z\x80-\xff])(?:[\x81-\xfe][\x40-\x7e\x80-\xfe]){2,}(?![A-Za-z\x80-\xff])"
)
"""A word of two or more characters of a legacy multi-byte encoding standing apart from
ASCII letters: each a lead byte above 0x7F and its trail byte, often ASCII (GBK's traditional
characters, Big5's, Shift-JIS's katakana: ``資料`` in GB18030 is ``0xD9 0x59 0xC1 0xCF``,
``ÙYÁÏ`` in cp1252). The accented letters of a Western word are glued to its ASCII letters
(``été``, ``Größe``, ``¿Qué``) or stand one pair alone (``Öl``, ``ça``), never so."""


SHORT_TEXT_BYTES = 4
"""Bytes above 0x7F a non-UTF-8 text holds at most to be *short*: two CJK characters, four
Cyrillic letters, a Western word or two. Below it the verdicts of :func:`legacy_readings`
(``charset-normalizer``'s family, ``chardet``'s choice, the byte patterns) rest on too little
to stand alone against a Western reading (:func:`_short_and_western`)."""
WESTERN = "cp1252"
"""The reading :func:`legacy_readings` adds for short text that is Western text too."""


def _short_and_western(raw: bytes) -> bool:
    """Whether ``raw``, bytes that are not UTF-8, is short (at most :data:`SHORT_TEXT_BYTES`
    above 0x7F) and its Windows-1252 reading stands as Western text does: every such byte an
    accented letter or a common sign, none where :func:`_unlike_western` says Western text
    never has it, a CJK-looking pair of words aside (``Ærø`` is ``0xC6 0x72 0xF8``, two Big5
    characters' bytes, and a Western word). ``Кофе`` in Windows-1251 (``Êîôå``, four accented
    letters in a row) and ``設定`` in Shift-JIS (``Ý’è`` with a byte cp1252 leaves undefined)
    do not."""
    if len(_HIGH_BYTE.findall(raw)) > SHORT_TEXT_BYTES:
        return False
    unlike, _ = _unlike_western(raw, cjk_words=False)
    return unlike == 0


def _unlike_western(raw: bytes, *, cjk_words: bool = True) -> tuple[int, int]:
    """How many of the bytes above 0x7F of ``raw``, read as Windows-1252, stand where Western
    text never has them: no accented letter or common sign (``ƒ``, ``‹``, ``ˆ``, a byte
    cp1252 leaves undefined), one followed by ``@ [ \\ ^ ` { | } ~``, or one of three or more
    in a row (``Größe`` has two). Shift-JIS and Big5 put a byte 0x40-0x7E after a lead byte
    above 0x7F (``デ`` is ``0x83 0x66``, ``ƒf`` in cp1252), so one line of katakana holds few
    pairs of high bytes but many such bytes; Western text holds next to none. Returns
    ``(unlike, high)``, ``high`` the count of bytes above 0x7F. ``cjk_words=False`` does not
    count the bytes of a word :data:`_CJK_WORD` finds (a short Western word may look so)."""
    text = raw.decode("cp1252", errors="replace")  # one character per byte
    in_runs = {at for run in _LONG_HIGH_RUN.finditer(text) for at in range(*run.span())}
    for word in _CJK_WORD.finditer(raw) if cjk_words else ():
        in_runs.update(at for at in range(*word.span()) if raw[at] > 0x7F)
    unlike = len(in_runs)
    for high in _HIGH.finditer(text):
        at, found = high.start(), high.group()
        if at not in in_runs and (
            (found not in _WESTERN_LETTERS and found not in _WESTERN_SIGNS)
            or text[at + 1 : at + 2] in _NEVER_AFTER_WESTERN
            or (found in _SIGNS_APART and text[at + 1 : at + 2].isalpha())
        ):
            unlike += 1
    return unlike, len(_HIGH.findall(text))


def _looks_like(readings: tuple[str, ...], *, weighed: bool = True) -> str:
    """``looks like Shift-JIS (cp932); convert it to UTF-8 (iconv -f CP932 -t UTF-8)`` for
    :func:`legacy_readings`' verdict; for text too short to tell, every encoding it is as
    likely in, none taken for it: ``looks like GBK/GB18030 or EUC-KR, too little text to tell
    which (gb18030 or euc_kr); convert it to UTF-8 from the one it is written in (iconv -f
    GB18030 -t UTF-8, or iconv -f EUC-KR -t UTF-8)``. ``weighed=False``: the readings were
    not weighed by language (:func:`legacy_readings`), so several are named as candidates
    (``looks like EUC-KR or GBK/GB18030, one of them (euc_kr or gb18030); …``), never
    as too little text to tell."""
    if len(readings) == 1:
        known, iconv = _KNOWN_AS[readings[0]]
        return (
            f"looks like {known} ({readings[0]}); convert it to UTF-8 (iconv -f {iconv} -t UTF-8)"
        )
    known = " or ".join(_KNOWN_AS[codec][0] for codec in readings)
    commands = ", or ".join(f"iconv -f {_KNOWN_AS[codec][1]} -t UTF-8" for codec in readings)
    why = "too little text to tell which" if weighed else "one of them"
    return (
        f"looks like {known}, {why} ({' or '.join(readings)}); "
        f"convert it to UTF-8 from the one it is written in ({commands})"
    )


def not_decoded_why(raw: bytes, *, weigh: bool = True) -> str | None:
    """Why an index (``MEMORY.md``) of bytes ``raw`` is not decoded, or None when it is.

    An index that is not UTF-8 (nor UTF-16/32) but :func:`legacy_multibyte` text is not read as
    cp1252: that would inject mojibake. Its readers inject a note instead (Q-2b) and lint names
    it (``unreadable``), in words that follow "the service …" / "Agent Memory …":
    ``"does not decode it: it is not UTF-8, and looks like Shift-JIS (cp932…); convert it …"``.
    Its bytes stay as they are: a delete still prunes its lines (:func:`decode_exact` keeps
    every byte). ``weigh=False`` (a hook, H-5: under 100 ms in a fresh process) never loads
    ``chardet``'s language models, 70 ms to import and 100 ms to read the first time: every
    candidate encoding they would choose among is named instead (:func:`legacy_readings`).

    >>> not_decoded_why("- [メモ](a.md)\\n".encode("utf-8")) is None
    True
    """
    if raw.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None  # UTF-32's little-endian mark begins with UTF-16's
    if raw.startswith(codecs.BOM_UTF32_BE) or _wide_without_bom(raw) is not None:
        return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        if _mostly_utf8(raw) is not None:
            return None  # UTF-8 with a few lines of another encoding: read line by line
        if (readings := legacy_readings(raw, weigh=weigh)) is not None:
            return (
                f"does not decode it: it is not UTF-8, and {_looks_like(readings, weighed=weigh)}"
            )
    return None


NOT_DECODED = "encoding: not decoded: "
"""How the problem of a file :func:`decode_file` does not decode starts (T-2)."""


def decode_file(raw: bytes, *, partial: bool = False) -> tuple[str | None, list[str]]:
    """A file's bytes as every reader takes them: one decision per file (T-2, Q-2b).

    Returns ``(text, problems)`` as :func:`decode_text`, or ``(None, [problem])`` for bytes
    :func:`not_decoded_why` does not decode (a legacy CJK encoding: read as cp1252 they would
    be mojibake wherever shown), the problem starting with :data:`NOT_DECODED` and naming the
    likely encoding and the ``iconv`` command. An index and a topic file are judged alike, so
    a topic file in Shift-JIS lists by its file name with no description, never as mojibake.
    ``partial``: the bytes were cut at the read cap (judged on their complete lines).

    >>> decode_file("- [設定](settings.md) ― ビルド手順".encode("cp932"))[1][0][:60]
    'encoding: not decoded: it is not UTF-8, and looks like Shift'
    """
    whole = (raw[: raw.rfind(b"\n") + 1] or raw) if partial else raw
    why = not_decoded_why(whole)
    if why is not None:
        return None, [NOT_DECODED + why.removeprefix("does not decode it: ")]
    return decode_text(raw, partial=partial, name_legacy=False)


def shown_text(raw: bytes) -> str:
    """The whole text of ``raw`` as a person is shown it (a version of a file, a diff, V-2):
    :func:`decode_text`'s, or for bytes :func:`decode_file` does not decode, the bytes in the
    legacy encoding they look like (a byte it cannot read as U+FFFD), never their cp1252
    reading. Fields are never parsed from this text: a parse follows :func:`decode_file`.

    >>> shown_text("- [設定](settings.md)".encode("cp932"))
    '- [設定](settings.md)'
    """
    text, _ = decode_file(raw)
    if text is not None:
        return text
    return decode_text(_in_its_encoding(raw, legacy_readings(raw)).encode("utf-8"))[0]


def _in_its_encoding(raw: bytes, readings: tuple[str, ...] | None) -> str:
    """``raw`` read in the one encoding :func:`legacy_readings` names (a byte it cannot read
    as U+FFFD); read as ASCII, every other byte U+FFFD, when it names several: text too short
    to tell is never shown in a guess (``- [��](config.md)``, not ``- [설정](config.md)``
    for ``- [设置](config.md)``)."""
    codec = "cp1252" if readings is None else readings[0]
    return raw.decode("ascii" if readings and len(readings) > 1 else codec, errors="replace")


def shown_lines(raw: bytes, lines: list[str]) -> list[str]:
    """``lines`` of the text :func:`decode_exact` makes of the index bytes ``raw`` (pruned or
    put back, A-6, V-2), as a person is shown them: for an index :func:`decode_file` does not
    decode (read as cp1252 or Latin-1 only to keep its bytes), each line's bytes in the legacy
    encoding it looks like (``- [設定](settings.md)``, not ``- [\x90Ý’è](settings.md)``), a
    byte that encoding cannot read as U+FFFD; other lines as they are."""
    exact = decode_exact(raw)
    if exact is None or exact.codec not in ("cp1252", "latin-1"):
        return lines
    readings = legacy_readings(raw) if not_decoded_why(raw) is not None else None
    if readings is None:
        return lines
    return [_in_its_encoding(line.encode(exact.codec, exact.errors), readings) for line in lines]


def name_spellings(raw: bytes, name: str) -> list[str]:
    """How a link to file ``name`` can read in the text :func:`decode_exact` makes of the index
    bytes ``raw``: ``name`` itself, and for an index read as Windows-1252 or Latin-1 whose bytes
    are legacy multi-byte text (:func:`legacy_multibyte`), ``name`` written in each such encoding
    that can hold it, read back as that 8-bit codec. A delete prunes, and a restore finds, the
    lines linking any of them (A-6): the link to a non-ASCII name in a Shift-JIS index is that
    name's Shift-JIS bytes.

    >>> raw = "- [メモ](メモ.md)\\n".encode("cp932")
    >>> spelled = name_spellings(raw, "メモ.md")[1]
    >>> spelled.encode("cp1252", CP1252_UNDEFINED) == "メモ.md".encode("cp932")
    True
    """
    if name.isascii():
        return [name]
    exact = decode_exact(raw)
    if exact is None or exact.codec not in ("cp1252", "latin-1") or legacy_multibyte(raw) is None:
        return [name]
    spellings = [name]
    for codec in (*LEGACY_MULTIBYTE, *_CYRILLIC):
        try:
            spelled = name.encode(codec).decode(exact.codec, exact.errors)
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if spelled not in spellings:
            spellings.append(spelled)
    return spellings


_CHOICE_BYTES = 1024
"""How much of a file (whole lines) tells which CJK encoding it is in (a dozen index lines:
two already tell every line of ``tests/core/test_t2_short_legacy_index_lines.py``)."""
_SAMPLE_BYTES = 4096
"""How much of a file :func:`_wide_without_bom` looks at."""


def _wide_without_bom(raw: bytes) -> str | None:
    """``utf-32-le``, ``utf-32-be``, ``utf-16-le`` or ``utf-16-be`` for UTF-32 or UTF-16 saved
    without its byte order mark (some Windows tools), else None. Text in UTF-8 or any 8-bit
    encoding holds no NUL byte, while UTF-16 of mostly ASCII text (as Markdown's link syntax
    is) has one in every other byte: at least 30 % (and 8) of the odd (little-endian) or even
    (big-endian) bytes of the first 4 KiB, and at most 5 % of the others, of an even length.
    UTF-32 (:func:`_utf32_without_bom`) is told first: its NULs would fail the UTF-16 test
    anyway, but a reader must never take it for UTF-8 (three NULs a character)."""
    if b"\x00" not in raw[:_SAMPLE_BYTES]:
        return None
    if (wide := _utf32_without_bom(raw)) is not None:
        return wide
    if len(raw) % 2:
        return None
    sample = raw[:_SAMPLE_BYTES]
    low, high = sample[0::2], sample[1::2]
    for codec, zeros, others in (("utf-16-le", high, low), ("utf-16-be", low, high)):
        nuls = zeros.count(0)
        if nuls >= max(8, 0.3 * len(zeros)) and others.count(0) <= 0.05 * len(others):
            return codec
    return None


def _utf32_without_bom(raw: bytes) -> str | None:
    """``utf-32-le`` or ``utf-32-be`` for UTF-32 saved without its byte order mark, else None:
    a length a multiple of 4, the first 4 KiB valid UTF-32 in that byte order, and of its
    units (at least 8) at least 30 % with the two high bytes NUL (every character of the
    Basic Multilingual Plane) and at most 5 % with the low byte NUL. UTF-16 of ASCII text has
    a letter where UTF-32 has its high bytes, and no 8-bit text has a NUL. Shorter than 8
    units (what a delete's pruning may leave of an index), it is UTF-32 only when every unit
    has both high bytes NUL and is not all NUL (no UTF-16 or 8-bit text is so), read alike
    in just one byte order.

    >>> _utf32_without_bom("hi\\n".encode("utf-32-be")), _utf32_without_bom(b"a\\x00b\\x00")
    ('utf-32-be', None)
    """
    sample = raw[: _SAMPLE_BYTES - _SAMPLE_BYTES % 4]
    if len(raw) % 4 or not sample:
        return None
    units = [sample[at : at + 4] for at in range(0, len(sample), 4)]
    for codec, high, low in (("utf-32-le", (2, 3), 0), ("utf-32-be", (0, 1), 3)):
        wide = sum(1 for unit in units if unit[high[0]] == unit[high[1]] == 0)
        if len(units) < 8:
            utf32 = wide == len(units) and b"\x00" * 4 not in units
        else:
            nul_low = sum(1 for unit in units if unit[low] == 0)
            utf32 = wide >= 0.3 * len(units) and nul_low <= 0.05 * len(units)
        if utf32 and decodes(sample, codec):
            return codec
    return None


@dataclass(frozen=True, slots=True)
class ExactText:
    """Text decoded so that :meth:`encode` gives back the very bytes it came from (A-6).

    ``bom`` is the byte order mark the file starts with (``b""`` for none); ``codec`` the
    Python codec of the rest (``utf-8``, ``utf-16-le``, ``utf-16-be``, ``utf-32-le``,
    ``utf-32-be``, ``cp1252``): the one :func:`decode_text` reads it with;
    ``text`` keeps its line ends as written (``\\r\\n``, ``\\r`` or ``\\n``).
    """

    bom: bytes
    codec: str
    text: str
    errors: str = "strict"
    """:data:`CP1252_UNDEFINED` for cp1252 (a byte it does not define read as, and given back
    from, its C1 control); ``strict`` otherwise."""
    odd: tuple[tuple[int, bytes], ...] = ()
    """For UTF-8 text with a few lines of another encoding (:func:`_mostly_utf8`), each such
    line's number (0-based, as :func:`_line_bodies` cuts ``text``) and its bytes without its
    line end: ``text`` holds the line as the reader shows it (cp1252), so a pruning and a
    restore's merge judge it by that text (A-6), and :meth:`encode` gives its bytes back."""

    def encode(self, text: str) -> bytes:
        """``text`` (``self.text`` edited) as bytes of the same file: BOM, then the codec.

        A line of :attr:`odd` that ``text`` keeps (found in order, by its text) is its own
        bytes again; any other line is written in the codec (a restore's line put back into a
        UTF-8 index is UTF-8, whatever its bytes were in the version). Raises
        ``UnicodeEncodeError`` for a character the codec cannot hold (a pruned text only ever
        holds characters of the original)."""
        if not self.odd:
            return self.bom + text.encode(self.codec, self.errors)
        return self.bom + b"".join(self._own_bytes(text))

    def _own_bytes(self, text: str) -> list[bytes]:
        """The lines of ``text`` as bytes: :meth:`encode` for text with :attr:`odd` lines.
        Linear in the lines: each own row is passed once."""
        own = _line_bodies(self.text)
        odd = dict(self.odd)
        texts = {own[row] for row in odd}
        rows_of: dict[str, deque[int]] = defaultdict(deque)  # an odd line's text → its rows
        for row, body in enumerate(own):
            if body in texts:
                rows_of[body].append(row)
        at = 0
        out: list[bytes] = []
        for line in _LINE_WITH_END.findall(text):
            body = line.rstrip("\r\n")
            data = None
            spots = rows_of.get(body)
            while spots and spots[0] < at:
                spots.popleft()
            if spots:  # the index's own line with this text: its own bytes
                at = spots.popleft() + 1
                data = odd.get(at - 1)
            if data is None:
                data = body.encode(self.codec, self.errors)
            out.append(data + line[len(body) :].encode(self.codec, self.errors))
        return out

    def lines(self) -> list[bytes]:
        """The bytes of each line of :attr:`text` with its line end (the BOM not included):
        ``b"".join(lines())`` is the file after its BOM."""
        odd = dict(self.odd)
        out: list[bytes] = []
        for row, line in enumerate(_LINE_WITH_END.findall(self.text)):
            body = line.rstrip("\r\n")
            data = odd[row] + line[len(body) :].encode() if row in odd else None
            out.append(data if data is not None else line.encode(self.codec, self.errors))
        return out


_LINE_WITH_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
"""A line with its end as :func:`memory_core.markdown.lines_with_ends` cuts text."""


def _line_bodies(text: str) -> list[str]:
    """The lines of ``text`` (:data:`_LINE_WITH_END`) without their ends."""
    return [line.rstrip("\r\n") for line in _LINE_WITH_END.findall(text)]


def exact_codec(raw: bytes) -> str:
    """The codec :func:`decode_exact` reads ``raw`` in when it is UTF-16 or UTF-32 (by its byte
    order mark, else by its NUL bytes: :func:`_wide_without_bom`): ``utf-32-le``, ``utf-32-be``,
    ``utf-16-le`` or ``utf-16-be``; else ``utf-8`` (read as UTF-8 or cp1252).

    >>> exact_codec("hi\\n".encode("utf-32")), exact_codec(b"hi\\n")
    ('utf-32-le', 'utf-8')
    """
    return _marked(raw)[2]


def _marked(raw: bytes) -> tuple[bytes, bytes, str]:
    """``raw``'s byte order marks (a UTF-8 one, then a UTF-32 or UTF-16 one), the bytes after
    them, and the codec those are in (:func:`exact_codec`)."""
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    rest = raw[len(bom) :]
    for mark, codec in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16's: FF FE 00 00 begins with FF FE
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if rest.startswith(mark):
            return bom + mark, rest[len(mark) :], codec
    return bom, rest, _wide_without_bom(raw) or "utf-8"


def decode_exact(raw: bytes) -> ExactText | None:
    """Decode ``raw`` as :func:`decode_text` reads it, keeping its BOM, codec and line ends.

    None when the bytes cannot be given back exactly by re-encoding the text (UTF-16 or UTF-32
    with a cut code unit or a lone surrogate: :func:`decode_text` reads those with replacement
    characters), so a caller never rewrites a file it would change beyond its edit. A UTF-8
    file with a few lines that are not (:func:`_mostly_utf8`) has those lines in ``text`` as
    the reader shows them (cp1252), their bytes in :attr:`ExactText.odd` (A-6).

    >>> found = decode_exact("\\ufeffa\\rb".encode("utf-16-le"))
    >>> found.bom, found.codec, found.text
    (b'\\xff\\xfe', 'utf-16-le', 'a\\rb')
    >>> decode_exact("Café – x".encode("cp1252")).codec
    'cp1252'
    """
    bom, rest, codec = _marked(raw)
    if codec == "utf-8" and not decodes(rest, codec):
        if (mixed := _mostly_utf8(rest)) is not None:  # each line read as the reader reads it
            lines = rest.splitlines(keepends=True)  # cut as _mostly_utf8 cuts them
            odd = tuple((at - 1, lines[at - 1].rstrip(b"\r\n")) for at in mixed[1])
            return ExactText(bom=bom, codec=codec, text=mixed[0], odd=odd)  # bytes in odd
        text = rest.decode("cp1252", CP1252_UNDEFINED)  # every byte back: exact
        return ExactText(bom=bom, codec="cp1252", text=text, errors=CP1252_UNDEFINED)
    try:
        text = rest.decode(codec)
    except UnicodeDecodeError:
        return None
    return ExactText(bom=bom, codec=codec, text=text) if text.encode(codec) == rest else None
