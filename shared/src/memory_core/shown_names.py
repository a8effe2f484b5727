"""File names as a person can be shown them, and as findings name them (T-5b).

A name on disk may hold bytes that are not UTF-8 (Python's ``surrogateescape``), control
characters (a line break, a tab, an escape) or characters a person cannot see (I-9). A
listing, a finding or a report shows it escaped, one line, every character visible:
:func:`shown_name`. A finding that links such a name (an index line linking
``deploy\\nsteps.md``) names the same entry by the same escaped form.
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
