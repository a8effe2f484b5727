"""One-line text fields of a frontmatter block, read as their author wrote them (T-1a).

YAML reinterprets plain values: ``Issue #42 fixed`` loses its tail to a comment, ``8080`` is a
number, ``yes`` a boolean, ``2026-01-05`` a date, and a value starting with a backtick, ``@``,
``%``, ``*`` or ``!`` is refused or taken as an alias or tag. For the text fields Memory reads
(``name`` and ``description``) the rule is therefore: a value written on the field's own line
(no block scalar ``|`` / ``>``, no indented continuation line) is the text of that line, with
its quotes removed when it is quoted. Where strict YAML would have read something else, the
file's problems say so in one short line; a plain value holding ``": "`` is read as written
without a problem (agents write it all the time and every reader takes it as text).

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
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = ["TEXT_FIELDS", "AsWritten", "read_text_fields"]

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
_FIELD_LINE_RE = re.compile(r"(name|description)[ \t]*:(?:[ \t]+(.*?))?[ \t]*")


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
        if match is None or not match.group(2) or _continues(lines, number):
            continue
        found = _as_written(match.group(2))
        if found is None:
            continue
        key = match.group(1)
        values[key], reasons[key] = found
        lines[number] = ""
    problems = [
        f"frontmatter: {key} read as written; {reason}"
        for key, reason in reasons.items()
        if reason is not None
    ]
    return AsWritten(values, problems, "\n".join(lines))


def _continues(lines: list[str], number: int) -> bool:
    """Tell whether the value on line ``number`` goes on over the next, indented line."""
    following = lines[number + 1] if number + 1 < len(lines) else ""
    return bool(following.strip()) and following[:1] in (" ", "\t")


def _as_written(value: str) -> tuple[str, str | None] | None:
    """``(text, reason)`` of a one-line value; reason is None when YAML reads the same text.

    None when the value is not a one-line text (a block scalar, or a quote left open).
    """
    if value[0] in "|>":
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
        if not _closed_quote(value):
            return None
        return value[1:-1], "YAML cannot read the quoted value"
    if not failed and isinstance(loaded, str) and loaded == value:
        return value, None
    if not failed:
        return value, f"YAML would read {_describe(loaded, value)}"
    if value.startswith(_YAML_STARTERS):
        return value, f"YAML cannot read a value starting with {value[0]!r}"
    if ": " in value and _colon_is_the_only_trouble(value):
        return value, None
    return value, "YAML cannot read it"


_YAML_STARTERS = tuple("`@%*!&")


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


def _closed_quote(value: str) -> bool:
    return len(value) >= 2 and value[-1] == value[0]


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
