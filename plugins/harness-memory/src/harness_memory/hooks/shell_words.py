r"""A shell line split into words as Python's POSIX ``shlex`` splits it, in linear time (P-3, H-5).

The guard reads a command's words as ``shlex.shlex(text, posix=True,
punctuation_chars=";&|()<>")`` with ``whitespace_split`` on and no comments gives them, and a
variable's words (``TAR_OPTIONS``, ``GIT_CONFIG_PARAMETERS``) as :func:`shlex.split`: words
end at unquoted white space (space, tab, carriage return, newline); a run of the punctuation
characters is a word of its own; ``'…'`` keeps every character, ``"…"`` keeps a backslash
except before ``"`` or ``\``, and a backslash outside quotes keeps the character after it.
``shlex`` builds each word one character at a time (``token += char`` on an attribute, which
copies the word every time), so it reads one word in time that grows with the word's length
squared: a 200 KiB word took 5 s, a 1 MiB one two minutes, past every hook's time limit
(the guard judges commands up to :data:`~harness_memory.hooks.guarding.TEXT_CAP`).
:func:`split_words` gives the same words and the same errors, taking each run of plain
characters, each quoted part and each escape in one step.

>>> split_words("cp 'a b' \"c\\\"d\" e\\ f>out;ls", punctuation=PUNCTUATION)
['cp', 'a b', 'c"d', 'e f', '>', 'out', ';', 'ls']
"""

from __future__ import annotations

import re

__all__ = ["PUNCTUATION", "split_words"]

PUNCTUATION = ";&|()<>"
"""The characters whose runs are words of their own (``&&``, ``>``, ``;;``) in a command
line, as the guard handed them to ``shlex`` as ``punctuation_chars``."""
_SPACE = " \t\r\n"
"""White space as ``shlex`` reads it (no vertical tab, no form feed, no Unicode spaces)."""


def _plain_re(punctuation: str) -> str:
    """A run of characters that are neither white space, quote, backslash nor punctuation."""
    return "[^" + re.escape(_SPACE + "'\"\\" + punctuation) + "]+"


_IN_DOUBLE_RE = r'[^"\\]+'
"""A run of characters in double quotes that neither closes them nor escapes."""


def split_words(text: str, *, punctuation: str = "", dead: str = "") -> list[str]:
    r"""``text``'s words as ``shlex`` with ``posix=True``, ``whitespace_split=True``, no
    commenters and ``punctuation_chars=punctuation`` gives them (by default none: as
    :func:`shlex.split` does); ``ValueError("No closing quotation")`` for a quote left open,
    ``ValueError("No escaped character")`` for a backslash at the end, as ``shlex`` raises
    them. Linear in ``len(text)``. ``dead``: a character put for each ``$`` and backquote
    bash leaves as written (single-quoted, or after a backslash), so a word's ``$`` and
    backquotes left are those bash expands; the words are the same, one for one.

    >>> split_words("a&&b '' \\x", punctuation=PUNCTUATION)
    ['a', '&&', 'b', '', 'x']
    >>> split_words("'$a' \"$b\\$c\" \\$d", dead="_")
    ['_a', '$b\\_c', '_d']
    """
    plain = re.compile(_plain_re(punctuation))  # compiled once: re's own cache keeps it
    words: list[str] = []
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char in _SPACE:
            at += 1
        elif char in punctuation:
            start = at
            while at < end and text[at] in punctuation:
                at += 1
            words.append(text[start:at])
        else:
            parts: list[str] = []
            while at < end and text[at] not in _SPACE and text[at] not in punctuation:
                at = _word_part(text, at, plain, parts, dead)
            words.append("".join(parts))
    return words


def _word_part(text: str, at: int, plain: re.Pattern[str], parts: list[str], dead: str) -> int:
    """Append to ``parts`` the part of a word at ``text[at]`` (a run of plain characters, a
    quoted part or an escape) as ``shlex`` reads it, ``$`` and backquotes bash leaves as
    written spelt ``dead`` (when given); the index after it."""
    char = text[at]
    if char == "\\":
        if at + 1 == len(text):
            raise ValueError("No escaped character")
        parts.append(_deadened(text[at + 1], dead))
        return at + 2
    if char == "'":
        close = text.find("'", at + 1)
        if close < 0:
            raise ValueError("No closing quotation")
        parts.append(_deadened(text[at + 1 : close], dead))
        return close + 1
    if char == '"':
        return _double_quoted(text, at + 1, parts, dead)
    found = plain.match(text, at)
    assert found is not None, "split_words hands no space, quote, backslash or punctuation"
    parts.append(found[0])
    return found.end()


def _deadened(part: str, dead: str) -> str:
    """``part`` with each ``$`` and backquote spelt ``dead`` (unchanged when ``dead`` is "")."""
    return part.replace("$", dead).replace("`", dead) if dead else part


def _double_quoted(text: str, at: int, parts: list[str], dead: str = "") -> int:
    r"""Append the text of double quotes opened before ``text[at]`` to ``parts``: a backslash
    kept except before ``"`` or ``\`` (an escaped ``$`` or backquote spelt ``dead``); the
    index after the closing quote."""
    end = len(text)
    while at < end:
        if (found := re.compile(_IN_DOUBLE_RE).match(text, at)) is not None:
            parts.append(found[0])
            at = found.end()
            continue
        if text[at] == '"':
            return at + 1
        if at + 1 == end:  # a backslash last: shlex reads no escaped character
            raise ValueError("No escaped character")
        after = text[at + 1]
        parts.append(after if after in '"\\' else "\\" + _deadened(after, dead))
        at += 2
    raise ValueError("No closing quotation")
