"""A file name as the service shows it in an answer, a report or a log (T-5b, I-9).

A name listed from the disk may hold what no JSON text can carry or no person sees: bytes that
are not UTF-8 (``os.fsdecode`` keeps them as lone surrogates, which the JSON encoder refuses:
the answer became a 500), control characters (a line break splits a report's line), characters
a person cannot see. :func:`shown_name` escapes or marks each, so one rule shows every name.
"""

from __future__ import annotations

import os
import unicodedata

from memory_core.hidden_text import show_hidden

__all__ = ["shown_name"]


def shown_name(name: str) -> str:
    """``name`` as a listing can show it (T-5b): bytes that are not UTF-8 as ``\\xe9``, control
    characters as ``\\n``, ``\\t`` or ``\\x1b``, characters a person cannot see as a mark
    (I-9, :func:`~memory_core.hidden_text.show_hidden`: ``[hidden: U+200B]``); any other name
    unchanged.

    >>> shown_name("caf\\udce9-notes.md"), shown_name("deploy\\nsteps.md")
    ('caf\\\\xe9-notes.md', 'deploy\\\\nsteps.md')
    """
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    return show_hidden("".join(_escaped(char) for char in text))


_CONTROL_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escaped(char: str) -> str:
    if unicodedata.category(char) != "Cc":
        return char
    return _CONTROL_ESCAPES.get(char, f"\\x{ord(char):02x}")
