"""A settings file's byte order mark and line ends: the mark skipped on reading, as the
harnesses skip it, and written back in front of the new text; the lines an install adds end as
the file's own lines do (H-3).

An editor on Windows saves ``settings.json`` or ``config.toml`` with a UTF-8 byte order mark.
Claude Code and Codex CLI read such a file as if the mark were not there (measured with the
real CLIs: a Workspace's ``.claude/settings.json`` or ``.codex/config.toml`` with one takes
effect, ``test_e2e_repository_switches_hooks_off.py``,
``test_e2e_codex_repository_switches_hooks_off.py``), so an install reads it the same way rather
than refuse it as no JSON or TOML, and keeps the mark: every other byte of the file is the
user's too. A file saved with CRLF line ends gets its new lines with CRLF, not a file of mixed
line ends in the user's dotfiles.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.toml_document import TOMLDocument

__all__ = [
    "BYTE_ORDER_MARK",
    "UTF16_MARK",
    "decoded",
    "dump_toml",
    "encoded",
    "line_ends_like",
    "parse_toml",
    "read_toml_as_codex",
    "split_mark",
]

BYTE_ORDER_MARK = "\ufeff"
UTF16_MARK = "\ufffe"
"""What a text read from a UTF-16LE file starts with in memory: its byte order mark (the bytes
``FF FE``) as no UTF-8 settings file can start (U+FFFE is a noncharacter, and no JSON or TOML
text starts with it: :func:`decoded` refuses a UTF-8 one that does)."""
_UTF16LE_BYTES = b"\xff\xfe"


def decoded(raw: bytes) -> str:
    """A settings file's bytes as text: UTF-16LE behind its byte order mark, the text then
    starting with :data:`UTF16_MARK`; else UTF-8. Raises ``ValueError`` (a
    ``UnicodeDecodeError`` for bytes of neither, UTF-32LE's included: its mark ``FF FE 00 00``
    starts with UTF-16LE's, and the caller names it by its mark,
    :func:`memory_core.byte_order.marked_text`) for a UTF-8 text starting with U+FFFE."""
    if raw.startswith(_UTF16LE_BYTES) and not raw.startswith(codecs.BOM_UTF32_LE):
        return UTF16_MARK + raw[len(_UTF16LE_BYTES) :].decode("utf-16-le")
    text = raw.decode("utf-8")
    if text.startswith(UTF16_MARK):
        raise ValueError("it starts with U+FFFE, a noncharacter no harness reads")
    return text


def encoded(text: str) -> bytes:
    """``text`` as :func:`decoded` read it: UTF-16LE with its byte order mark when it starts
    with :data:`UTF16_MARK`, else UTF-8."""
    if text.startswith(UTF16_MARK):
        return _UTF16LE_BYTES + text[len(UTF16_MARK) :].encode("utf-16-le")
    return text.encode("utf-8")


_LONE_LF = re.compile(r"(?<!\r)\n")


def line_ends_like(text: str, like: str | None) -> str:
    """``text`` with each lone LF made CRLF when ``like`` (the file's text now) ends its lines
    with CRLF only; else ``text`` as it is. (JSON holds no line end inside a string, and a
    TOML file written with CRLF only holds none but CRLF in its multi-line strings.)

    >>> line_ends_like('{\\n  "a": 1\\n}\\n', '{\\r\\n}\\r\\n')
    '{\\r\\n  "a": 1\\r\\n}\\r\\n'
    >>> line_ends_like('a\\nb\\n', 'x\\r\\ny\\n')
    'a\\nb\\n'
    """
    if like is None or "\r\n" not in like or _LONE_LF.search(like):
        return text
    return _LONE_LF.sub("\r\n", text)


def split_mark(text: str | None) -> tuple[str, str | None]:
    """``(mark, rest)``: the byte order mark ``text`` starts with (``""`` when none; UTF-8's,
    or :data:`UTF16_MARK`) and the text after it (None for None).

    >>> split_mark("\\ufeff{}")
    ('\\ufeff', '{}')
    >>> split_mark("{}")
    ('', '{}')
    """
    if text is not None and text.startswith((BYTE_ORDER_MARK, UTF16_MARK)):
        return text[0], text[1:]
    return "", text


def parse_toml(text: str | None) -> TOMLDocument:
    """The TOML document ``text`` holds (None: an empty one), a leading byte order mark
    skipped. Raises :class:`tomlkit.exceptions.TOMLKitError` for text that is no TOML, and for
    a UTF-16 text (:data:`UTF16_MARK`), which Codex CLI does not read."""
    mark, body = split_mark(text)
    if mark == UTF16_MARK:
        raise TOMLKitError("it is UTF-16 text; Codex CLI reads TOML as UTF-8: save it as UTF-8")
    return tomlkit.parse(body or "")


def dump_toml(document: TOMLDocument, like: str | None) -> str:
    """``document`` as text, behind the byte order mark ``like`` (the file's text it was read
    from) starts with, if any, its lines ended as ``like`` ends them (:func:`line_ends_like`)."""
    return split_mark(like)[0] + line_ends_like(tomlkit.dumps(document), like)


def read_toml_as_codex(path: Path) -> dict[str, Any] | None:
    """A Codex CLI ``config.toml`` (or profile file) at ``path`` as Codex reads it, its byte
    order mark left out; None when it cannot be read or is not TOML (Codex refuses it too)."""
    try:
        return tomllib.loads(split_mark(path.read_text(encoding="utf-8"))[1] or "")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
