r"""Bash's own quoting spelt as the guard's word splitter reads quotes (P-3).

``$'…'`` (ANSI-C quoting) is decoded into a single-quoted word, ``$"…"`` read as ``"…"`` and a
line continuation removed: :func:`bash_quoting`. Read by the lexer of the write guard and by the
one reader of definitions (:mod:`~harness_memory.hooks.definitions`), so ``$'alias' …`` and
``declare $'P\\x41TH=.'`` are read as bash runs them.
"""

from __future__ import annotations

import os
import re
import sys

from harness_memory.hooks.printed_text import SIMPLE_ESCAPES

__all__ = ["bash_quoting"]


def bash_quoting(command: str) -> str:
    """``command`` with the quoting bash has and ``shlex`` lacks spelt in quotes ``shlex``
    reads: ``$'…'`` (ANSI-C quoting: ``\x2f``, ``\057``, ``\u002f``, ``\n`` …) decoded into
    a single-quoted word, ``$"…"`` (locale quoting) as ``"…"``, and a backslash-newline (a line
    continuation, outside single quotes and comments) removed. Bash reads ``echo x >
    $'/m/other/x.md'`` as the plain path; left to ``shlex``, the word would start with ``$``
    and anchor nothing. A comment (a ``#`` starting a word outside quotes, to the end of its
    line: not ``a#b``, ``${#x}``, ``$#``, ``a\\ #b``) is kept as written: bash ends it at the
    newline, a backslash before it continuing nothing (``true # \\`` then a write on the next
    line: the write runs, review58f), and a quote in it opens none."""
    if "$'" not in command and '$"' not in command and "\\\n" not in command:
        return command
    out: list[str] = []
    quote: str | None = None  # the quote the scan is inside, if any
    starts_word = True  # whether a ``#`` here starts a word: a comment
    at = 0
    while at < len(command):
        char = command[at]
        pair = command[at : at + 2]
        if quote is None and char == "#" and starts_word:
            end = command.find("\n", at)  # a comment: as written, its last backslash too
            end = len(command) if end == -1 else end
            out.append(command[at:end])
            at = end
            continue
        starts_word = quote is None and char in _WORD_ENDS
        if quote == "'":
            out.append(char)
            quote = None if char == "'" else quote
        elif pair == "\\\n":
            at += 1  # a line continuation: both characters go
            starts_word = bool(out) and out[-1] in _WORD_ENDS
        elif char == "\\":
            out.append(pair)
            at += 1
        elif quote == '"':
            out.append(char)
            quote = None if char == '"' else quote
        elif pair == "$'":
            end, text = _ansi_c(command, at + 2)
            out.append("'" + text.replace("'", "'\"'\"'") + "'")
            at = end
        elif pair == '$"':
            out.append('"')
            quote = '"'
            at += 1
        else:
            out.append(char)
            quote = char if char in "'\"" else None
        at += 1
    return "".join(out)


_WORD_ENDS = frozenset(" \t\n;&|()<>")
"""The characters after which a ``#`` starts a comment for bash (its metacharacters)."""

_ANSI_C_RE = (
    r"(?s)\\(?:x(?P<x>[0-9A-Fa-f]{1,2})|u(?P<u>[0-9A-Fa-f]{1,4})|U(?P<U>[0-9A-Fa-f]{1,8})"
    r"|(?P<o>[0-7]{1,3})|c(?P<c>.)|(?P<plain>.))"
)
_ANSI_C_PLAIN = {**SIMPLE_ESCAPES, "'": "'", '"': '"', "?": "?"}


def _ansi_c(command: str, start: int) -> tuple[int, str]:
    """The end (the closing quote's index) and the decoded text of the ``$'…'`` whose text
    begins at ``start``; an unclosed one runs to the end of ``command``. ``\\xHH`` and
    ``\\nnn`` are bytes, as for bash: the text is decoded as a file name is
    (:func:`os.fsdecode`), so ``$'\\xc3\\xa9'`` is ``é``."""
    at = start
    while at < len(command) and command[at] != "'":
        at += 2 if command[at] == "\\" else 1
    raw = command[start:at]
    decoded = bytearray()
    done = 0
    for match in re.finditer(_ANSI_C_RE, raw):
        decoded += raw[done : match.start()].encode("utf-8", "surrogateescape")
        decoded += _ansi_c_escape(match)
        done = match.end()
    decoded += raw[done:].encode("utf-8", "surrogateescape")
    return at, os.fsdecode(bytes(decoded))


def _ansi_c_escape(match: re.Match[str]) -> bytes:
    """The bytes bash makes of one backslash escape of ``$'…'``."""
    for name in ("x", "o"):
        if (digits := match.group(name)) is not None:
            return bytes([int(digits, 16 if name == "x" else 8) & 0xFF])
    for name in ("u", "U"):
        if (digits := match.group(name)) is not None:
            code = int(digits, 16)
            if code > sys.maxunicode:
                return match.group(0).encode()
            return chr(code).encode("utf-8", "surrogatepass")
    if (control := match.group("c")) is not None:
        return bytes([ord(control) & 0x1F])
    plain = match.group("plain")
    return _ANSI_C_PLAIN.get(plain, "\\" + plain).encode("utf-8", "surrogateescape")
