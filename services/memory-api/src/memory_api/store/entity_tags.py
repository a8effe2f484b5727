"""``If-Match`` and ``If-None-Match`` as RFC 9110 reads them (§13.1.1, §13.1.2, §8.8.3, §5.6.1,
§5.3), for every unsafe route on a topic file, an index and the config (A-2, A-6, V-2).

:class:`Preconditions` is the one rule: a resource with no current representation fails any
``If-Match``; one with no ETag (a topic file, an index) fails any ``If-Match`` but ``*``; a
failed one is a 412 (:class:`~memory_api.errors.PreconditionFailed`) and nothing changes.
``If-None-Match`` fails for ``*`` when the resource is there, and for a list naming its ETag
(weak comparison, §8.8.3.2).

The field is ``"*"`` or a comma-separated list of entity-tags, and a client (or a proxy on the
way) may send that list on several field lines: they mean the lines joined by ``", "`` (§5.3),
so :func:`if_match_holds` takes every line. An entity-tag is ``"…"`` (strong) or ``W/"…"``
(weak), and its quoted text may itself hold a comma (``"a,b"`` is one tag, whose members are
never taken apart). ``If-Match`` compares strongly: a weak tag never matches. Two leniencies,
both of old: a member with no double quote at all (``abc``) is taken as the tag ``"abc"``; and
``*`` sent on more than one line (``*, *``) is still ``*``. Anything else that is no
entity-tag (an unclosed quote, ``*`` among tags) puts the field outside its grammar, so a
malformed precondition fails (412) rather than passes, ``If-None-Match`` as ``If-Match``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memory_api.errors import PreconditionFailed

__all__ = ["NO_PRECONDITIONS", "IfMatch", "Preconditions", "if_match_holds", "parse_if_match"]

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


SHOWN_CHARS = 80
"""Characters of a failed precondition's field quoted in its 412 at most."""


@dataclass(frozen=True, slots=True)
class Preconditions:
    """The ``If-Match`` and ``If-None-Match`` fields of an unsafe request, each as every line
    of it sent says it (the lines joined by ``", "``, §5.3), None when not sent."""

    if_match: str | None = None
    if_none_match: str | None = None

    def check(self, what: str, *, exists: bool, etag: str | None = None, read: str = "") -> None:
        """Raise :class:`PreconditionFailed` (412) when a precondition fails for ``what`` (``"the
        topic file 'a.md'"``) as it is now: ``exists``, whether it has a current representation;
        ``etag``, its current strong ETag, None when it has none; ``read``, where a client reads
        that ETag (said in the 412). ``If-Match`` first, then ``If-None-Match`` (§13.2.2). The
        caller holds the resource's lock, so what is judged is what the change then changes.
        A field outside the grammar (``*`` among entity-tags, an unclosed quote) fails either
        way: it is never taken to hold (``If-None-Match: "x", *`` let a delete through)."""
        for field, sent in (("If-Match", self.if_match), ("If-None-Match", self.if_none_match)):
            if sent is not None and _outside_grammar(_members(sent)):
                raise PreconditionFailed(
                    f"{field} {_shown(sent)} is outside its grammar (* alone, or a list of "
                    f'entity-tags such as "3f2a"), so it never holds for {what}; nothing changed'
                )
        if self.if_match is not None:
            if not exists:
                raise PreconditionFailed(
                    f"If-Match {_shown(self.if_match)} fails: {what} is not there; nothing changed"
                )
            if not if_match_holds(self.if_match, etag or ""):  # no ETag: only * holds
                raise PreconditionFailed(_if_match_failed(self.if_match, what, etag, read))
        if self.if_none_match is not None and exists:
            members = _members(self.if_none_match)
            if members and all(member == "*" for member in members):
                raise PreconditionFailed(f"If-None-Match * fails: {what} is there; nothing changed")
            if etag is not None and etag in {_opaque(member) for member in members}:
                raise PreconditionFailed(
                    f"If-None-Match {_shown(self.if_none_match)} names the current ETag of "
                    f"{what}; nothing changed"
                )


NO_PRECONDITIONS = Preconditions()
"""A request that sent neither field: every change applies unconditionally."""


def _if_match_failed(sent: str, what: str, etag: str | None, read: str) -> str:
    if etag is None:
        return (
            f"If-Match {_shown(sent)} fails: {what} has no ETag, so only If-Match: * (it is "
            "there) holds; nothing changed"
        )
    return (
        f"If-Match {_shown(sent)} does not name the current ETag of {what}: it changed since it "
        "was read, or that value is not an ETag it had (a weak W/ tag never matches: send the "
        f"ETag as {read} answers it, quotes included); reload it and apply the change again"
    )


def _outside_grammar(members: list[str]) -> bool:
    """Whether ``members`` (:func:`_members`) are no ``*`` alone (sent on one line or more) and
    no list of entity-tags: a ``*`` among tags, or a member with a stray double quote (an
    unclosed ``"ab``). An unquoted ``abc`` is a tag (the old leniency)."""
    if all(member == "*" for member in members):
        return False
    for member in members:
        tag = member.removeprefix("W/")
        quoted = len(tag) >= 2 and tag[0] == tag[-1] == '"'
        if member == "*" or not (quoted or '"' not in member):
            return True
    return False


def _shown(sent: str) -> str:
    return repr(sent if len(sent) <= SHOWN_CHARS else sent[:SHOWN_CHARS] + "…")


def _opaque(member: str) -> str:
    """``member`` as the strong tag weak comparison compares (§8.8.3.2): ``W/`` dropped, an
    unquoted value quoted (the old leniency :func:`parse_if_match` has too)."""
    tag = member.removeprefix("W/")
    return tag if tag.startswith('"') else f'"{tag}"'
