"""The layout of a JSON settings file, kept when an install or uninstall rewrites it (H-3).

A user's ``settings.json`` is theirs: an install changes only the keys it owns, so the rest of
the file must read as it did — compact on one line, indented by four spaces or a tab, with or
without a final line end, CRLF or LF, non-ASCII written as is or as ``\\u`` escapes.
:func:`layout_of` finds the :class:`JsonLayout` that writes the file's own object back to
exactly its text;
:meth:`JsonLayout.render` then writes the changed object the same way, so ``install`` followed by
``uninstall`` gives the file back byte for byte. A new file gets :data:`DEFAULT`, two-space
indent; so does a file no layout reproduces (hand-aligned arrays, a one-line array in an
indented object, keys spaced by hand), which keeps all the same its line ends (CRLF), the
whitespace around its value (a final line end or none) and, when it writes every character
past ASCII as a ``\\u`` escape, its escapes (H-3).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from memory_core import json_text

from harness_memory.installers.json_values import escaped_surrogates

__all__ = ["DEFAULT", "JsonLayout", "layout_of"]

_FIRST_INDENT = re.compile(r"\n([ \t]+)\S")


@dataclass(frozen=True, slots=True)
class JsonLayout:
    """How a JSON text is laid out: what :func:`json.dumps` needs to write it, and the
    whitespace around the value (``lead`` before it, ``tail`` after it, e.g. ``"\\n"``)."""

    indent: str | None
    item_separator: str
    key_separator: str
    ensure_ascii: bool
    lead: str = ""
    tail: str = "\n"
    newline: str = "\n"
    """What ends the lines inside the value: ``"\r\n"`` for a file saved on Windows."""

    def render(self, document: dict[str, Any]) -> str:
        """``document`` as text in this layout."""
        body = json.dumps(
            document,
            indent=self.indent,
            separators=(self.item_separator, self.key_separator),
            ensure_ascii=self.ensure_ascii,
        )
        return self.lead + escaped_surrogates(body).replace("\n", self.newline) + self.tail


DEFAULT = JsonLayout(indent="  ", item_separator=",", key_separator=": ", ensure_ascii=False)
"""A new file's layout (and a file no layout reproduces): two-space indent, a final line end."""


def _shapes(body: str) -> list[tuple[str | None, str, str]]:
    """``(indent, item separator, key separator)`` that ``body`` (the JSON value alone) may be
    written with: an indented text's first indent, else the compact spellings."""
    found = _FIRST_INDENT.search(body)
    if found is None:
        return [(None, item, key) for item in (",", ", ") for key in (":", ": ")]
    return [(found.group(1), ",", key) for key in (": ", ":")]


def layout_of(text: str | None) -> JsonLayout:
    """The layout in which the object ``text`` holds is written as exactly ``text``;
    :data:`DEFAULT` for no text, blank text, an empty object or text that is no JSON object;
    for a text no layout reproduces, :data:`DEFAULT`'s indent with the text's line ends, the
    whitespace around its value and its ``\\u`` escapes (when it writes no character past
    ASCII as is)."""
    if text is None or not text.strip():
        return DEFAULT
    try:
        document = json_text.loads(text)
    except ValueError:
        return DEFAULT
    if not isinstance(document, dict) or not document:
        return DEFAULT  # `{}` tells nothing of how the user lays out keys
    body = text.strip()
    start = text.index(body)
    lead, tail = text[:start], text[start + len(body) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    for indent, item, key in _shapes(body):
        for ascii_only in (False, True):
            layout = JsonLayout(indent, item, key, ascii_only, lead, tail, newline)
            if layout.render(document) == text:
                return layout
    return replace(DEFAULT, ensure_ascii=_escapes_only(body), lead=lead, tail=tail, newline=newline)


_NON_ASCII_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u(?!00[0-7])[0-9A-Fa-f]{4}")
"""A ``\\u`` escape of a character past ASCII (``\\u00e4``), not one of an escaped backslash
(``\\\\u00e4`` is a backslash and ``u00e4``)."""


def _escapes_only(body: str) -> bool:
    """Whether the JSON text ``body`` writes its characters past ASCII as ``\\u`` escapes:
    it holds such an escape and no such character as is."""
    return body.isascii() and _NON_ASCII_ESCAPE.search(body) is not None
