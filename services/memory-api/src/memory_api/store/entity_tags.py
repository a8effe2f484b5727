"""``If-Match`` as RFC 9110 reads it (§13.1.1, §8.8.3, §5.6.1, §5.3), for the config's ETag (A-2).

The field is ``"*"`` or a comma-separated list of entity-tags, and a client (or a proxy on the
way) may send that list on several field lines: they mean the lines joined by ``", "`` (§5.3),
so :func:`if_match_holds` takes every line. An entity-tag is ``"…"`` (strong) or ``W/"…"``
(weak), and its quoted text may itself hold a comma (``"a,b"`` is one tag, whose members are
never taken apart). ``If-Match`` compares strongly: a weak tag never matches. Two leniencies,
both of old: a member with no double quote at all (``abc``) is taken as the tag ``"abc"``; and
``*`` sent on more than one line (``*, *``) is still ``*``. Anything else that is no
entity-tag (an unclosed quote, ``*`` among tags) is kept as a member that matches nothing, so
a malformed precondition fails (412) rather than passes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["IfMatch", "if_match_holds", "parse_if_match"]

_OWS = " \t"


@dataclass(frozen=True, slots=True)
class IfMatch:
    """A parsed ``If-Match``: ``any`` for ``*``; else ``strong``, the strong entity-tags listed
    (each with its double quotes, e.g. ``'"3f2a"'``), in the order sent. Weak tags and members
    that are no entity-tag are dropped: they can never match."""

    any: bool
    strong: tuple[str, ...]


def parse_if_match(lines: str | Iterable[str]) -> IfMatch:
    """Parse the ``If-Match`` field from its field line(s) (one string, or every line sent).

    >>> parse_if_match(['"a", W/"b"', '"c,d"'])
    IfMatch(any=False, strong=('"a"', '"c,d"'))
    >>> parse_if_match("*").any, parse_if_match('*, "a"').any
    (True, False)
    """
    value = ", ".join([lines] if isinstance(lines, str) else lines)
    members = _members(value)
    if members and all(member == "*" for member in members):
        return IfMatch(any=True, strong=())
    strong: list[str] = []
    for member in members:
        if member.startswith('"'):
            strong.append(member)
        elif '"' not in member and member != "*" and not member.startswith("W/"):
            strong.append(f'"{member}"')  # unquoted: taken as if quoted (an old leniency)
    return IfMatch(any=False, strong=tuple(strong))


def if_match_holds(lines: str | Iterable[str], etag: str) -> bool:
    """Whether the ``If-Match`` field sent as ``lines`` holds for the current ``etag`` (a strong
    tag with its quotes): ``*``, or one of its strong tags equal to ``etag`` (§13.1.1)."""
    parsed = parse_if_match(lines)
    return parsed.any or etag in parsed.strong


def _members(value: str) -> list[str]:
    """The list members of ``value``: each a whole entity-tag (``"…"``, ``W/"…"``, quotes kept),
    or the text up to the next comma when it is none (``*``, ``abc``, an unclosed ``"ab``);
    empty members and the blanks around each are dropped (§5.6.1)."""
    members: list[str] = []
    position, end = 0, len(value)
    while position < end:
        while position < end and (value[position] in _OWS or value[position] == ","):
            position += 1
        if position >= end:
            break
        opening = position + 2 if value.startswith("W/", position) else position
        if opening < end and value[opening] == '"':
            closing = value.find('"', opening + 1)
            if closing != -1:
                after = closing + 1
                while after < end and value[after] in _OWS:
                    after += 1
                if after == end or value[after] == ",":
                    members.append(value[position : closing + 1])
                    position = after
                    continue
        comma = value.find(",", position)
        stop = end if comma == -1 else comma
        members.append(value[position:stop].strip(_OWS))
        position = stop
    return members
