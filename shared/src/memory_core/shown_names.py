"""A file name as a listing, a report or a terminal can show it (T-5b, I-9).

A name on disk may hold bytes that are not UTF-8 (``os.fsdecode`` makes them lone surrogates,
which no JSON encoder takes: a 500), control characters (a terminal runs them) or characters a
person cannot see. :func:`shown_name` escapes all three; every place that sends or prints a
name read from a listing goes through it.
"""

from __future__ import annotations

import os
import unicodedata

from memory_core.hidden_text import show_hidden

__all__ = ["shown_name"]

_CONTROL_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shown_name(name: str) -> str:
    """``name`` as a listing can show it (T-5b): bytes that are not UTF-8 as ``\\xe9``, control
    characters as ``\\n``, ``\\t`` or ``\\x1b``, characters a person cannot see as a mark
    (I-9, :func:`~memory_core.hidden_text.show_hidden`: ``[hidden: U+200B]``); any other name
    unchanged. Raises ``UnicodeEncodeError`` for a lone surrogate ``os.fsdecode`` never makes.

    >>> shown_name("caf\\udce9-notes.md"), shown_name("deploy\\nsteps.md")
    ('caf\\\\xe9-notes.md', 'deploy\\\\nsteps.md')
    """
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    return show_hidden("".join(_escaped(char) for char in text))


def _escaped(char: str) -> str:
    if unicodedata.category(char) != "Cc":
        return char
    return _CONTROL_ESCAPES.get(char, f"\\x{ord(char):02x}")
