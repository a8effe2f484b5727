"""JSON values of a settings file read so that they are written back as the same JSON (H-3).

Python's :mod:`json` reads more than JSON and some JSON it cannot give back: ``NaN`` and
``Infinity`` (no JSON; a harness's own reader refuses the file), a number beyond a double
(``1e400`` read as ``inf``, written back as ``Infinity``: the harness could no longer read the
user's settings at all), an integer of more than 4,300 digits (a ``ValueError`` Python's
reader raises, a traceback), values nested deeper than Python recurses (``RecursionError``),
and a ``\\ud800`` escape, half of a UTF-16 pair, which it reads as a lone surrogate no UTF-8
text can hold (``UnicodeEncodeError`` on writing, a traceback); a key twice in one object
keeps only its last value, the file then written anew in the default layout.
:func:`loads` refuses all but the surrogate by name (:class:`UnwritableJson`);
:func:`escaped_surrogates` writes that back as the escape it was.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from memory_core import json_text

from harness_memory.installers.settings_text import split_mark

__all__ = ["UnwritableJson", "escaped_surrogates", "kind", "loads"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN = 40
"""Characters of a refused number shown in the message, at most."""


class UnwritableJson(ValueError):
    """JSON text (or Python's more) holding a value that would not be written back as it was
    read; the message says which, for a person (no traceback, no file name): ``what`` the text
    holds, then (in brackets) ``why`` writing it back would change it, when that is not plain."""

    def __init__(self, what: str, why: str = "") -> None:
        super().__init__(f"{what} ({why})" if why else what)
        self.what = what


def _shown(literal: str) -> str:
    return literal if len(literal) <= _SHOWN else f"{literal[:_SHOWN]}… ({len(literal)} characters)"


def _constant(name: str) -> Any:
    raise UnwritableJson(f"it holds {name}, which is no JSON value")


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise UnwritableJson(
            f"it holds the number {_shown(literal)}, beyond what a JSON reader keeps as a number",
            "it would be written back as Infinity, which is not JSON",
        )
    return value


def _int(literal: str) -> int:
    try:
        return int(literal)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        raise UnwritableJson(
            f"it holds the number {_shown(literal)}, longer than this installer reads"
        ) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:  # one pass: a set of the keys so far, never a dict per key
        if key in seen:
            raise UnwritableJson(
                f"it holds the key {_shown(json.dumps(key, ensure_ascii=False))} twice in one "
                "object",
                "written back, the first would be lost and the file laid out anew",
            )
        seen.add(key)
    return dict(pairs)


def loads(text: str) -> Any:
    """The value of the JSON ``text``, as :func:`json.loads` reads it.

    Raises :class:`json.JSONDecodeError` for text that is no JSON, and :class:`UnwritableJson`
    (a ``ValueError`` too) for what Python would read but not write back as the same JSON:
    ``NaN``, ``Infinity``, ``-Infinity``, a number beyond a double, an integer of more digits
    than Python converts, values nested deeper than it recurses, a key twice in one object
    (Python keeps the last; as Gemini CLI's commented files, :mod:`.jsonc`, it is refused).
    A leading byte order mark is skipped, as the harnesses skip it
    (:mod:`~harness_memory.installers.settings_text`).
    """
    try:
        return json_text.loads(
            split_mark(text)[1] or "",
            object_pairs_hook=_object,
            parse_constant=_constant,
            parse_float=_float,
            parse_int=_int,
        )
    except json_text.JsonTooDeep:
        raise UnwritableJson(
            "it nests arrays or objects deeper than this installer reads"
        ) from None


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def escaped_surrogates(text: str) -> str:
    """``text`` (written by :func:`json.dumps` with ``ensure_ascii=False``) with each lone
    surrogate written as its ``\\uXXXX`` escape, as the file held it: a surrogate stands only
    inside a JSON string, where the escape means the same, and no UTF-8 text can hold one.

    >>> escaped_surrogates('{"a": "x\\ud800"}')
    '{"a": "x\\\\ud800"}'
    """
    return _LONE_SURROGATE.sub(_escape, text)


def kind(value: object) -> str:
    """The JSON value ``value`` (as :mod:`json` reads it) is, in JSON's words for a person:
    ``null``, ``true``, ``false``, ``an array``, ``a string``, ``a number`` or ``an object``."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return "an object" if isinstance(value, dict) else "a number"
