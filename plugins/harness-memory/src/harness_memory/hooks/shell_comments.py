"""Where a comment starts in shell text, as bash reads it (P-3).

Bash starts a comment at a ``#`` that starts a word, outside quotes, and drops it to the
line's end. A ``#`` inside a word is text (``echo a#b``), and so is one after an escaped
blank: ``echo a\\ #b > x`` gives ``echo`` the one word ``a #b`` and writes ``x``; a ``\\``
before a newline joins the lines (``a\\`` then ``#b`` is the word ``a#b``). Read as a
comment, the rest of such a line (a redirection, a ``cp`` after ``;``) went unseen by the
guard's readers (review59b finding 3). :func:`comment_at` is the one rule, used by every
reader that drops comments (:func:`uncommented`, :func:`without_comments`,
:func:`harness_memory.hooks.tool_targets.shell_paths`' line reader).

Linear in the text's length: a backslash run is read once, by the ``#`` right after it.
"""

from __future__ import annotations

import functools
import re

__all__ = ["WORD_ENDS", "comment_at", "uncommented", "without_comments"]

WORD_ENDS = frozenset(" \t\n;&|()<>")
"""The characters after which a ``#`` starts a word (unless escaped), and so a comment."""
_BLANKS = frozenset(" \t\n")
"""The word ends after which :func:`without_comments` reads a comment (quotes unread)."""
_EVENT_RE = r"(?s)\\.|['\"`#]|\$\("
"""What changes the scan's state: an escape pair, a quote, a ``#``, a ``$(``."""


def comment_at(text: str, at: int, ends: frozenset[str] = WORD_ENDS) -> bool:
    """Whether the ``#`` at ``text[at]``, outside quotes, starts a comment: at the text's
    start, or after a word end (one of ``ends``, :data:`WORD_ENDS` unless given) that no
    backslash escapes (an odd run of backslashes before it: ``a\\ #b``, ``a\\`` newline
    ``#b``)."""
    if at == 0:
        return True
    if text[at - 1] not in ends:
        return False
    run = 0
    while at - 2 - run >= 0 and text[at - 2 - run] == "\\":
        run += 1
    return run % 2 == 0


def uncommented(text: str) -> str | None:
    """``text`` with each comment dropped as bash drops it: from a ``#`` starting a word
    outside quotes (:func:`comment_at`) to the line's end (``echo start # don't``: the
    apostrophe opens no quoted word that would take the next lines for one data word). None
    when a ``#`` starting a word stands in backquotes, or in double quotes after a ``$(`` or
    a backquote in them (``"$(ls # x)"``): there it may be a comment this does not follow.
    One pass over the characters that change its state, linear."""
    if "#" not in text:
        return text
    kept: list[str] = []
    quote = ""  # the quote the scan is inside: ``'``, ``"``, a backquote or none
    substituted = False  # a ``$(`` or backquote since the double quote opened
    copied = 0  # the text before this is in ``kept`` or dropped
    for match in re.finditer(_EVENT_RE, text):
        at, event = match.start(), match.group()
        if quote == "'":
            if event == "'" or event == "\\'":
                quote = ""
            continue
        if event.startswith("\\"):
            continue
        if event == "#":
            if not comment_at(text, at):
                continue
            if quote == "`" or (quote == '"' and substituted):
                return None
            if quote:
                continue
            kept.append(text[copied:at])
            end = text.find("\n", at)
            copied = len(text) if end == -1 else end
        elif event == "$(":
            substituted = substituted or quote == '"'
        elif quote and event == quote:
            quote = ""
        elif not quote:
            quote, substituted = event, False
        elif quote == '"' and event == "`":
            substituted = True
    kept.append(text[copied:])
    return "".join(kept)


@functools.lru_cache(maxsize=16)  # the same file's text is read for several questions (H-5)
def without_comments(text: str) -> str:
    """A shell script's ``text`` (a startup file, a script the guard follows) with its
    comments dropped, line by line: from each ``#`` that starts a word (:func:`comment_at`)
    after a line's start or a blank to its line's end, quotes not followed (a ``#`` after
    ``|`` is kept and read as commands: no command hidden). A comment runs nothing and
    defines nothing. One scan of its ``#`` characters."""
    if "#" not in text:
        return text
    kept: list[str] = []
    copied = 0  # the text before this is in ``kept`` or dropped
    at = text.find("#")
    while at >= 0:
        if comment_at(text, at, _BLANKS):
            kept.append(text[copied:at])
            end = text.find("\n", at)
            copied = len(text) if end == -1 else end
            at = copied
        at = text.find("#", at + 1)
    kept.append(text[copied:])
    return "".join(kept)
