"""Which texts look alike to a person: the skeleton of Unicode's UTS #39 (T-5b).

Two strings are *confusable* when their skeletons are equal (UTS #39 section 4): ``pnpm`` with
a Latin ``p`` and ``pnрm`` with a Cyrillic ``р`` (U+0440), ``notes`` and ``nοtes`` with a Greek
``ο``, ``plan`` and the full-width ``ｐｌａｎ``. The mapping is Unicode's own ``confusables.txt``,
kept unmodified in ``unicode_data/`` beside this module with its licence (Unicode License V3).
No Python library computes this skeleton from a current ``confusables.txt`` and is small and
kept (ICU's spoof checker has no wheel); the table is read on the first call, never on import,
so a process that only imports this module (a hook: H-5) pays nothing for it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources

from memory_core.ignorable import is_ignorable

__all__ = ["CONFUSABLES_VERSION", "prototype", "skeleton"]

CONFUSABLES_VERSION = "18.0.0"
"""The Unicode version of the ``confusables.txt`` kept in ``unicode_data/``."""

_DATA_FILE = "confusables.txt"


_DATA_LINE = re.compile(
    r"^[ \t]*([0-9A-Fa-f]+)[ \t]*;[ \t]*([0-9A-Fa-f]+(?:[ \t]+[0-9A-Fa-f]+)*)[ \t]*;",
    re.MULTILINE,
)
"""A data line's source code point and its target's, hex (``0441 ; 0063 ; MA # …``, tabs after
the semicolons); a comment line or an empty one matches nothing."""


@cache
def _prototypes() -> dict[int, str]:
    """Each source code point of ``confusables.txt`` and the prototype it maps to (a
    :meth:`str.translate` table).

    A data line is ``SOURCE ; TARGET ; MA # comment``, code points in hex, the target one or
    more of them. One regex over the file finds the lines and their fields: the first lint of
    a scope waits for this table, and a split and strip of each of its 6,700 lines and their
    fields in Python took over twice as long (0.1 s on a loaded machine)."""
    text = resources.files("memory_core").joinpath("unicode_data", _DATA_FILE)
    table: dict[int, str] = {}
    for source, target in _DATA_LINE.findall(text.read_text(encoding="utf-8-sig")):
        points = target.split()
        table[int(source, 16)] = (
            chr(int(target, 16))
            if len(points) == 1
            else "".join(chr(int(point, 16)) for point in points)
        )
    return table


def _ignorable(char: str) -> bool:
    """A Default_Ignorable_Code_Point, drawn as nothing, as UTS #39 section 4 drops them before
    mapping (:func:`memory_core.ignorable.is_ignorable`: the format characters, the variation
    selectors, the fillers, the reserved ones; the property as the ``regex`` library has it)."""
    return is_ignorable(char)


def prototype(char: str) -> str:
    """What one character ``char`` (a ``str`` of length 1) looks like: its ``confusables.txt``
    prototype (``"р"`` U+0440 gives ``"p"``, ``"ｐ"`` gives ``"p"``, ``"m"`` gives ``"rn"``),
    or ``char`` itself when Unicode lists none."""
    return _prototypes().get(ord(char), char)


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, characters drawn as nothing dropped, each
    character replaced by its prototype, NFD again. Two strings with one skeleton look alike
    (``skeleton("pnрm") == skeleton("pnpm")``); the skeleton itself is for comparing only, never
    for showing (``skeleton("m") == "rn"``).

    >>> skeleton("prefers-pn\\u0440m") == skeleton("prefers-pnpm")
    True
    """
    decomposed = unicodedata.normalize("NFD", text)
    if not decomposed.isascii():
        decomposed = "".join(char for char in decomposed if not _ignorable(char))
    return unicodedata.normalize("NFD", decomposed.translate(_prototypes()))
