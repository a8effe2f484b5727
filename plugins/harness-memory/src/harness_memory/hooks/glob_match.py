"""A shell pattern matched against a name in time linear in the pattern's length (H-5).

:func:`fnmatch.fnmatchcase` translates a pattern by searching the rest of it for a ``]`` from
each ``[``: a ``[`` that never closes (a literal one) makes that quadratic, so a word of
100,000 ``[`` (``echo [[[…``, ``find -name '[[[…'``) read for minutes. :func:`fnmatch_case`
spells each such ``[`` as ``[[]``, which fnmatch reads as the same one character at once.
:func:`bash_match` matches a folder entry as bash's glob does where it can tell: a bracket
expression only when it is a plain set of characters (``[nN]``); a negation, a range or a class
in one makes the pattern unknown (maybe matching), since the word reaches it with its quotes
removed (``["^"n]`` is bash's set of ``^`` and ``n``, ``[n"-"a]`` of ``n``, ``-``, ``a``); a
backslash or a ``]`` that may have been quoted is read both ways.
"""

from __future__ import annotations

import functools

__all__ = ["bash_match", "fnmatch_case"]


def fnmatch_case(name: str, pattern: str) -> bool:
    """Whether ``name`` matches the shell ``pattern`` as :func:`fnmatch.fnmatchcase` decides
    it (``*``, ``?``, ``[…]``; a ``[`` no ``]`` closes is itself), in time linear in the
    pattern's length (:func:`_closed`). A pattern with a bracket expression is matched by
    :func:`bash_match`; one it does not read (``[^x]``, ``[a-z]``, ``[[:alpha:]]``) matches
    every name: fnmatch read ``[^x]`` as "``^`` or ``x``" where bash negates."""
    if "[" in pattern:
        matched = bash_match(name, pattern)
        return matched is None or matched
    import fnmatch  # only for a word with a pattern (H-5: the hook's start-up)

    return fnmatch.fnmatchcase(name, _closed(pattern))


@functools.lru_cache(maxsize=256)
def _closed(pattern: str) -> str:
    """``pattern`` with each ``[`` after its last ``]`` (one fnmatch reads as itself) spelt
    ``[[]``: the same character. A ``[`` before the last ``]`` is unchanged and closes where
    it did (at the first ``]`` after it, never one of those added)."""
    last = pattern.rfind("]")
    tail = pattern[last + 1 :]
    return pattern if "[" not in tail else pattern[: last + 1] + tail.replace("[", "[[]")


_ANY = "?"
"""A token of :func:`_tokens`: any one character."""
_STAR = "*"
"""A token of :func:`_tokens`: any text."""
_PATTERN_CAP = 2048
"""The longest pattern :func:`bash_match` reads (a folder entry's name is at most 255 bytes);
a longer one is unknown to it. Keeps each reading linear in the cap at worst."""


class _Unknown(Exception):
    """A pattern :func:`bash_match` does not read: a bracket expression that is no plain set
    of characters (a negation, a range, a class in it), a pattern past the cap."""


def bash_match(name: str, pattern: str, *, nocase: bool = False) -> bool | None:
    """Whether bash's glob ``pattern`` (one path part: ``*``, ``?``, ``\\x``, a bracket
    expression that is a plain set of characters, ``[nN]``, a ``]`` first among them; a
    ``[`` no ``]`` closes is itself) may match the folder entry ``name``, either letter case
    under ``nocase`` (``nocaseglob``). The word reaches here with its quotes removed, so each
    reading its quotes may have had counts (:func:`_readings`): a ``\\`` that was a quoted
    backslash (``[n\\\\]otes`` reaches here as ``[n\\]otes``), a ``]`` that was quoted
    (``[n"]"]otes`` as ``[n]]otes``). None when a reading holds what this does not read and
    none matches: a negation (``["^"n]`` reads as ``[^n]``), a range (``[n"-"a]`` as an empty
    one; bash's follow ``globasciiranges``, the locale and ``nocaseglob``), a class, a pattern
    longer than :data:`_PATTERN_CAP`: the caller reads it as maybe matching.
    :func:`fnmatch.fnmatchcase` read ``[^x]`` as "``^`` or ``x``" and knew no class, so ``tee
    [^x]otes/MEMORY.md`` reached through a link ``notes`` the guard never matched (P-3). Time
    linear in the pattern times the name, times its readings."""
    answers = [_matches(name, _read(each), nocase=nocase) for each in _readings(pattern)]
    return True if True in answers else None if None in answers else False


_READINGS_CAP = 4
"""The most ``]`` of a pattern read each as maybe quoted (:func:`_readings`, every choice of
them: 2 ** 4 readings, twice); past it, the pattern is unknown."""


def _readings(pattern: str) -> list[str]:
    """``pattern`` as written and with every backslash a backslash itself (``\\\\``), each
    with every choice of its ``]`` escaped (members: each may have been quoted, ``[n"]""]"]``
    reaching here as ``[n]]]``); ``[[:unknown:]]`` alone past :data:`_READINGS_CAP` of them
    (a pattern no reading settles: unknown)."""
    if "[" not in pattern:
        return [pattern]
    if pattern.count("]") > _READINGS_CAP:
        return ["[[:unknown:]]"]
    readings: list[str] = []
    for base in (pattern, pattern.replace("\\", "\\\\")):
        closers = [at for at, char in enumerate(base) if char == "]"]
        for chosen in range(2 ** len(closers)):
            escaped = base
            for bit, at in reversed(list(enumerate(closers))):
                if chosen >> bit & 1:
                    escaped = f"{escaped[:at]}\\{escaped[at:]}"
            readings.append(escaped)
    return readings


def _matches(name: str, tokens: tuple[_Token, ...] | None, *, nocase: bool) -> bool | None:
    """Whether the read ``tokens`` match ``name`` (:func:`bash_match`); None unread."""
    if tokens is None:
        return None
    at = taken = 0
    star, star_at = -1, 0
    while taken < len(name):
        token = tokens[at] if at < len(tokens) else None
        if token is not None and token != _STAR and _one(token, name[taken], nocase=nocase):
            at, taken = at + 1, taken + 1
        elif token == _STAR:
            star, star_at, at = at, taken, at + 1
        elif star >= 0:
            star_at += 1
            at, taken = star + 1, star_at
        else:
            return False
    return all(token == _STAR for token in tokens[at:])


_Token = str | frozenset[str]
"""A literal character, :data:`_ANY`, :data:`_STAR`, or a bracket expression: its set of
characters (a plain set is all :func:`_bracket` reads)."""


def _one(token: _Token, char: str, *, nocase: bool) -> bool:
    """Whether ``token`` (not :data:`_STAR`) matches the one character ``char``."""
    chars = {char, char.lower(), char.upper()} if nocase else {char}
    if isinstance(token, str):
        return token == _ANY or token in chars or (nocase and token.lower() == char.lower())
    return not token.isdisjoint(chars)


@functools.lru_cache(maxsize=64)
def _read(pattern: str) -> tuple[_Token, ...] | None:
    """:func:`_tokens` of ``pattern``, None where it is :class:`_Unknown`; memoised: a glob's
    part is matched against every entry of its folders."""
    try:
        return tuple(_tokens(pattern))
    except _Unknown:
        return None


def _tokens(pattern: str) -> list[_Token]:
    """``pattern`` read as bash reads a glob (:func:`bash_match`); :class:`_Unknown` for what
    it does not read. A run of ``*`` is one."""
    if len(pattern) > _PATTERN_CAP:
        raise _Unknown
    last = pattern.rfind("]")
    tokens: list[_Token] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "*":
            tokens += [] if tokens[-1:] == [_STAR] else [_STAR]
        elif char == "?":
            tokens.append(_ANY)
        elif char == "\\" and at + 1 < len(pattern):
            at += 1
            tokens.append(pattern[at])
        elif char == "[" and at < last and (read := _bracket(pattern, at)) is not None:
            tokens.append(read[0])
            at = read[1]
            continue
        else:
            tokens.append(char)
        at += 1
    return tokens


def _bracket(pattern: str, start: int) -> tuple[_Token, int] | None:
    """The bracket expression opening at ``pattern[start]`` (a ``[``) and the index after it;
    None when no ``]`` closes it (the ``[`` is then itself). A ``]`` first is a member."""
    at = start + 1
    if pattern[at : at + 1] in ("!", "^"):
        raise _Unknown  # ``["^"n]`` reaches here as ``[^n]``: a set of ``^`` and ``n``
    items: set[str] = set()
    first = True
    while at < len(pattern):
        char = pattern[at]
        if char == "]" and not first:
            return frozenset(items), at + 1
        first = False
        if char == "\\" and at + 1 < len(pattern):
            at += 1
            char = pattern[at]  # ``[01;32m\]``: an escaped character is itself
        ranged = pattern[at + 1 : at + 2] == "-" and pattern[at + 2 : at + 3] != "]"
        classed = char == "[" and pattern[at + 1 : at + 2] in (":", "=", ".")
        if classed or ranged:  # a class, a range (``[n"-"a]`` reaches here as ``[n-a]``)
            raise _Unknown
        items.add(char)
        at += 1
    return None
