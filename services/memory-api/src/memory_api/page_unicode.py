"""The web page's module of the service's Unicode character classes (I-9, W-5).

``GET /static/js/unicode-classes.js``: an ES module exporting, for each class of
:data:`memory_core.char_classes.CLASSES`, the body of a ``u``-flag regex character class
(``"\\u{41}-\\u{5a}…"``) that holds exactly the characters this service's Unicode data puts
in it, and the Unicode version that data is. The page's copy of the hidden-text rule
(``static/js/hidden-text.js``) builds its letter, mark and number patterns from it instead of
the browser's ``\\p{L}``/``\\p{M}``, so a mark of a Unicode version newer than the service's is
no mark to either side (and one the browser does not know yet is one to both). Rendered once
per process, in a worker thread (a pass over every code point).
"""

from __future__ import annotations

import functools
import json

from memory_core.char_classes import UNICODE_VERSION, class_ranges

__all__ = ["MODULE_PATH", "unicode_classes_module"]

MODULE_PATH = "/static/js/unicode-classes.js"
"""Where the page imports the module from: served by the service, no file of ``static/``."""


def _escape(point: int) -> str:
    """``point`` as a regex escape of a ``u``-flag class (``\\u{41}``)."""
    return f"\\u{{{point:x}}}"


def _body(ranges: list[tuple[int, int]]) -> str:
    """The body of a regex character class of ``ranges`` (inclusive code point pairs)."""
    return "".join(
        _escape(first) if first == last else f"{_escape(first)}-{_escape(last)}"
        for first, last in ranges
    )


@functools.cache
def unicode_classes_module() -> bytes:
    """The module's UTF-8 text: ``UNICODE_VERSION`` and one string constant per class.

    >>> b'export const UNICODE_VERSION = ' in unicode_classes_module()
    True
    """
    lines = [
        "// Served by the memory service (memory_api.page_unicode): the character classes its",
        "// hidden-text rule judges by, from its own Unicode data. Each is the body of a regex",
        "// character class for the u flag. Never edited: what the service judges, the page does.",
        f"export const UNICODE_VERSION = {json.dumps(UNICODE_VERSION)};",
    ]
    for name, ranges in class_ranges().items():
        lines.append(f"export const {name.upper()} = {json.dumps(_body(ranges))};")
    return ("\n".join(lines) + "\n").encode()
