"""One-line text fields of a frontmatter block, read as their author wrote them (T-1a).

YAML reinterprets plain values: ``Issue #42 fixed`` loses its tail to a comment, ``8080`` is a
number, ``yes`` a boolean, ``2026-01-05`` a date, and a value starting with a backtick, ``@``,
``%``, ``*`` or ``!`` is refused or taken as an alias or tag. For the text fields Memory reads
(``name`` and ``description``) the rule is therefore: a value written on the field's own line
(no block scalar ``|`` / ``>``) is the text of that line, with its quotes removed when it is
quoted; a plain value continued over indented lines is those lines' words joined by spaces.
Where strict YAML would have read something else, the file's problems say so in one short line;
a plain value holding ``": "`` is read as written without a problem (agents write it all the
time and every reader takes it as text).

>>> fields = read_text_fields("name: port\\ndescription: 8080\\nupdated_at: 2026-11-03")
>>> fields.values
{'name': 'port', 'description': '8080'}
>>> fields.problems
['frontmatter: description read as written; YAML would read the number 8080']
>>> fields.rest
'\\n\\nupdated_at: 2026-11-03'
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = ["TEXT_FIELDS", "AsWritten", "read_text_fields", "text_field_lines"]

TEXT_FIELDS = ("name", "description")
"""The frontmatter fields read as one line of text (T-1a)."""

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it
# A plain value YAML reads as exactly its text: it starts with a letter and holds none of the
# marks that make YAML cut, refuse or retype it (checked before paying for a YAML parse).
_PLAIN_TEXT_RE = re.compile(r"[A-Za-z][^#:]*(?<![\s:])")
_RETYPED_WORDS = frozenset(
    ("y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf")
)
# A top-level "name: value" line; indented lines belong to a mapping above and are not fields.
# The key may be quoted ("description": …), which YAML reads as the same key.
_FIELD_LINE_RE = re.compile(
    r"(?P<quote>[\"']?)(name|description)(?P=quote)[ \t]*:(?:[ \t]+(.*?))?[ \t]*"
)
# What YAML takes as a block scalar header (``|``, ``>-``, ``|2+`` …, then only a comment); any
# other value starting with ``|`` or ``>`` (``>= 3 reviewers``, ``|x| is abs``) is text.
_BLOCK_HEADER_RE = re.compile(r"[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?")


@dataclass(frozen=True, slots=True)
class AsWritten:
    """What :func:`read_text_fields` found in a frontmatter block.

    ``values`` maps a text field to its text as written; ``problems`` names each value strict
    YAML would have read differently (``"frontmatter: …"``); ``rest`` is the block with those
    lines blanked (line numbers kept), to be read by YAML for every other field.
    """

    values: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rest: str = ""


def read_text_fields(block: str) -> AsWritten:
    """Read ``name`` and ``description`` from a frontmatter block as written (T-1a).

    ``block`` is the text between the ``---`` lines, LF line ends. A field whose value is not on
    its own line (a block scalar, a continued plain or quoted value, an empty value) is left in
    ``rest`` for YAML. When a field appears twice the last line wins, as in YAML. Never raises.
    """
    lines = block.split("\n")
    values: dict[str, str] = {}
    reasons: dict[str, str | None] = {}
    for number, line in enumerate(lines):
        match = _FIELD_LINE_RE.fullmatch(line)
        if match is None:
            continue
        value = match.group(3) or ""
        more = _continuation(lines, number)
        if more:
            found = _as_written_folded(value, more)
        elif value:
            found = _as_written(value)
        else:
            continue
        if found is None:
            continue
        key = match.group(2)
        values[key], reasons[key] = found
        lines[number : number + 1 + len(more)] = [""] * (1 + len(more))
    problems = [
        f"frontmatter: {key} read as written; {reason}"
        for key, reason in reasons.items()
        if reason is not None
    ]
    return AsWritten(values, problems, "\n".join(lines))


def text_field_lines(block: str) -> dict[str, str]:
    """The raw text on each top-level ``name`` / ``description`` line of ``block`` (T-1a).

    The fallback when YAML cannot read a block at all: a field whose line is there (a quote
    left open, say) is still its text, never "missing". The last line of a field wins.
    """
    found: dict[str, str] = {}
    for line in block.split("\n"):
        match = _FIELD_LINE_RE.fullmatch(line)
        if match is not None and match.group(3):
            found[match.group(2)] = match.group(3)
    return found


def _continuation(lines: Sequence[str], number: int) -> list[str]:
    """The indented lines right after line ``number`` that its value goes on over.

    Reads each of those lines and the one ending them, no more (no copy of the lines after
    ``number``: that made a block of field lines quadratic).
    """
    more: list[str] = []
    for at in range(number + 1, len(lines)):
        following = lines[at]
        if not following.strip() or following[:1] not in (" ", "\t"):
            break
        more.append(following)
    return more


# A first continuation line that starts a nested list or mapping: structure, YAML's to read.
_STRUCTURE_RE = re.compile(r"-(?:[ \t]|$)|[^\s#][^:]*:(?:[ \t]|$)")


def _as_written_folded(value: str, more: list[str]) -> tuple[str, str | None] | None:
    """``(text, reason)`` of a plain value continued over the indented lines ``more``.

    The text is the lines' words joined by single spaces, as YAML folds a plain value; a
    ``#`` inside stays text (YAML would cut the value there). None for what is no plain text:
    a quoted value or block scalar (YAML reads those), a nested list or mapping, comment lines.
    """
    if value and (value[0] in "\"'[{" or _BLOCK_HEADER_RE.fullmatch(value)):
        return None
    parts = [line.strip() for line in more]
    if any(part.startswith("#") for part in parts):
        return None
    if not value and _STRUCTURE_RE.match(parts[0]):
        return None
    text = " ".join([value, *parts] if value else parts)
    try:
        loaded: Any = _load("\n".join([value, *more]))
    except Exception:  # user content: a value strict YAML refuses is still text
        return text, "YAML cannot read it"
    if isinstance(loaded, str) and loaded == text:
        return text, None
    return text, f"YAML would read {_describe(loaded, text)}"


def _as_written(value: str) -> tuple[str, str | None] | None:
    """``(text, reason)`` of a one-line value; reason is None when YAML reads the same text.

    None when the value is not a one-line text (a block scalar, or a quote left open).
    """
    if _BLOCK_HEADER_RE.fullmatch(value):
        return None
    if _PLAIN_TEXT_RE.fullmatch(value) and value.lower() not in _RETYPED_WORDS:
        return value, None
    try:
        loaded: Any = _load(value)
        failed = False
    except Exception:  # user content: a value strict YAML refuses is still text
        loaded, failed = None, True
    if value[0] in "\"'":
        if not failed and isinstance(loaded, str):
            return loaded, None  # quoted, escapes and all, as YAML reads it
        end = _quote_end(value)
        if end == -1:
            return None  # a quote left open on this line may close on a later one
        if end == len(value) - 1:
            return value[1:-1], "YAML cannot read the quoted value"
        if value[-1] == value[0] and _quotes_pair_up(value[1:-1], value[0]):
            # quotes inside quotes, not escaped ("regime "CSPN" aware"): the outer pair goes
            return value[1:-1], f"YAML cannot read unescaped {value[0]} inside the quoted value"
        # a quoted part with more text after it ("v2" is out): the line is the text
        return value, "YAML cannot read a quoted part followed by more text"
    if not failed and isinstance(loaded, str) and loaded == value:
        return value, None
    if not failed:
        return value, f"YAML would read {_describe(loaded, value)}"
    if value.startswith(_YAML_STARTERS):
        return value, f"YAML cannot read a value starting with {value[0]!r}"
    if ": " in value and _colon_is_the_only_trouble(value):
        return value, None
    return value, "YAML cannot read it"


_YAML_STARTERS = tuple("`@%*!&|>")


def _colon_is_the_only_trouble(value: str) -> bool:
    """Tell whether YAML refuses a plain value only for holding ``": "`` (``a: b``)."""
    try:
        loaded = _load(value.replace(": ", " "))
    except Exception:  # user content: refused for another reason
        return False
    return isinstance(loaded, str)


def _load(value: str) -> Any:
    """What strict YAML makes of ``value`` as a field's value; raises on what it refuses."""
    return yaml.load(f"v: {value}", Loader=_LOADER)["v"]  # noqa: S506 - a safe loader


def _quotes_pair_up(inner: str, quote: str) -> bool:
    """Whether the ``quote`` characters of ``inner`` read as quotations inside it: each opens
    after a space or an opening bracket (or at the start) and closes before a space,
    punctuation or the end (``regime "CSPN" aware``; not ``v2" and "v3``). In single quotes an
    apostrophe between two letters (``it's``) is no quote.
    """
    opened = False
    for at, char in enumerate(inner):
        if char != quote:
            continue
        before = inner[at - 1] if at else " "
        after = inner[at + 1] if at + 1 < len(inner) else " "
        if quote == "'" and before.isalnum() and after.isalnum():
            continue
        if not opened and (before.isspace() or before in "([{"):
            opened = True
        elif opened and (after.isspace() or not after.isalnum()):
            opened = False
        else:
            return False
    return not opened


def _quote_end(value: str) -> int:
    """Index of the quote closing the one ``value`` opens with, or -1 when it stays open.

    In double quotes a backslash escapes the next character; in single quotes ``''`` is a quote.
    """
    quote, position = value[0], 1
    while position < len(value):
        char = value[position]
        if quote == '"' and char == "\\":
            position += 2
            continue
        if char == quote:
            if quote == "'" and value[position + 1 : position + 2] == "'":
                position += 2
                continue
            return position
        position += 1
    return -1


def _describe(loaded: Any, value: str) -> str:
    """How strict YAML would have read ``value`` (as ``loaded``), in a few words."""
    if loaded is None:
        return "null (no value)"
    if isinstance(loaded, bool):
        return f"the boolean {str(loaded).lower()}"
    if isinstance(loaded, int | float):
        return f"the number {loaded}"
    if isinstance(loaded, dt.date):
        return f"the date {loaded.isoformat()}"
    if isinstance(loaded, str) and " #" in value:
        return f"only {_clip(loaded)!r} (the rest as a comment)"
    if isinstance(loaded, str):
        return repr(_clip(loaded))
    if isinstance(loaded, list):
        return "a list"
    if isinstance(loaded, dict):
        return "a mapping"
    return f"a {type(loaded).__name__}"


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
