"""A JSON settings file read as its harness reads it, for ``harness-memory status`` (H-3, H-6).

An install rewrites a settings file, so it refuses what it could not write back as it was
(:mod:`~harness_memory.installers.json_values`: a key twice in one object, a number beyond a
double). ``status`` only reads: what matters there is what the harness itself takes from the
file, so it reads it the harness's way:

- Gemini CLI 0.61 (``loadSettings``): ``JSON.parse(stripJsonComments(text))`` of the file read
  as UTF-8 (bytes that are not become U+FFFD). ``//`` and ``/* */`` comments are blanked
  outside strings (``strip-json-comments`` 3, ported in :func:`strip_comments`); a key twice in
  one object keeps its last value; ``1e400`` is a number; a byte order mark, ``NaN``, a trailing
  comma or anything but an object is an error, and a settings file in error stops Gemini CLI
  before any Session starts (``FatalConfigError``, its message on the terminal): no hook runs,
  and the user is told by Gemini CLI itself.
- Claude Code 2.1.332: JSON, a leading byte order mark skipped, a key twice keeps its last
  value (measured: ``test_e2e_repository_switches_hooks_off.py``;
  :func:`~harness_memory.installers.workspace_switches.claude_code_settings`).

What Python cannot read at all (arrays nested deeper than it recurses, an integer of more
digits than it converts) is :class:`NotKnown`: ``status`` cannot tell what the harness does.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from memory_core import json_text

from harness_memory.installers import json_values
from harness_memory.installers.settings_text import split_mark

__all__ = [
    "HarnessRefuses",
    "NotKnown",
    "claude_code_loads",
    "gemini_loads",
    "read_gemini_settings",
    "strip_comments",
]

READ_CAP = 16 * 1024 * 1024
"""Bytes of a settings file read at most (as :func:`~harness_memory.installers.files.read_text`)."""


class HarnessRefuses(ValueError):
    """The harness reads no settings object from the text; the message says why, for a person."""


class NotKnown(ValueError):
    """Python cannot read the text as the harness does (too deep, too long a number, not a
    regular file, over :data:`READ_CAP`): what the harness takes from it is not known."""


def strip_comments(text: str) -> str:
    """``text`` with each ``//`` and ``/* */`` comment outside strings blanked (every character
    but white space becomes a space), as ``strip-json-comments`` 3 does for Gemini CLI: a ``"``
    preceded by an odd number of backslashes does not end a string; a ``//`` comment ends at its
    line end; a comment never closed runs to the end.

    >>> strip_comments('{"a": 1, // one\\n "b": "//x" /* two */}')
    '{"a": 1,       \\n "b": "//x"          }'
    """
    parts: list[str] = []
    inside_string = False
    comment: str | None = None  # "//" or "/*"
    offset = 0
    index = 0
    while index < len(text):
        pair = text[index : index + 2]
        if comment is None and text[index] == '"' and not _escaped(text, index):
            inside_string = not inside_string
        if inside_string:
            index += 1
            continue
        if comment is None and pair in ("//", "/*"):
            parts.append(text[offset:index])
            offset, comment = index, pair
            index += 2
            continue
        if comment == "//" and text[index] == "\n":
            parts.append(_blank(text[offset:index]))
            offset, comment = index, None
        elif comment == "/*" and pair == "*/":
            parts.append(_blank(text[offset : index + 2]))
            offset, comment = index + 2, None
            index += 2
            continue
        index += 1
    rest = text[offset:]
    return "".join(parts) + (_blank(rest) if comment else rest)


def _escaped(text: str, quote: int) -> bool:
    """Whether the ``"`` at ``quote`` follows an odd number of backslashes."""
    count = 0
    while quote - count - 1 >= 0 and text[quote - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _blank(segment: str) -> str:
    return "".join(char if char.isspace() else " " for char in segment)


def _refuse_constant(name: str) -> Any:
    raise HarnessRefuses(f"{name} is no JSON value")


def _object(text: str) -> dict[str, Any]:
    """The JSON object ``text`` holds, a key twice keeping its last value (as JavaScript's
    ``JSON.parse`` and Claude Code keep it); :class:`HarnessRefuses` or :class:`NotKnown`."""
    try:
        document = json_text.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise HarnessRefuses(f"it is not valid JSON ({error})") from None
    except json_text.JsonTooDeep:
        raise NotKnown("it nests arrays or objects deeper than harness-memory reads") from None
    except HarnessRefuses:
        raise
    except ValueError:  # an integer of more digits than Python converts
        raise NotKnown("it holds a number longer than harness-memory reads") from None
    if not isinstance(document, dict):
        raise HarnessRefuses(f"it holds {json_values.kind(document)}, not a JSON object")
    return document


def gemini_loads(text: str) -> dict[str, Any]:
    """The settings object Gemini CLI 0.61 takes from ``text`` (comments blanked, JSON, a key
    twice keeping its last value). Raises :class:`HarnessRefuses` for a text Gemini CLI stops
    on (no JSON, a byte order mark, ``NaN``, no object), :class:`NotKnown` for one Python
    cannot read."""
    return _object(strip_comments(text))


def claude_code_loads(text: str) -> dict[str, Any]:
    """The settings object Claude Code 2.1.332 takes from ``text`` (a byte order mark skipped,
    a key twice keeping its last value). Raises :class:`HarnessRefuses` or :class:`NotKnown`."""
    return _object(split_mark(text)[1] or "")


def read_gemini_settings(path: Path) -> dict[str, Any] | None:
    """The Gemini CLI settings object at ``path`` as Gemini CLI 0.61 reads it, or None when no
    file is there (it reads none either).

    Raises :class:`HarnessRefuses` when Gemini CLI stops on the file (a folder, a file it may
    not read, or text :func:`gemini_loads` refuses) and :class:`NotKnown` when this cannot tell
    (no regular file, one over :data:`READ_CAP`, or text Python cannot read)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise HarnessRefuses(f"it cannot be read ({error.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise HarnessRefuses("it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise NotKnown("it is not a regular file")
    try:
        with path.open("rb") as handle:
            raw = handle.read(READ_CAP + 1)
    except OSError as error:
        raise HarnessRefuses(f"it cannot be read ({error.strerror})") from None
    if len(raw) > READ_CAP:
        raise NotKnown(f"it is larger than {READ_CAP} bytes")
    return gemini_loads(raw.decode("utf-8", errors="replace"))
