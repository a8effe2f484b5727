"""Small Markdown helpers shared by topics, indexes and templates: code blocks and code spans.

Only what link detection needs, in linear time on any input: which lines are fenced code
(CommonMark fences of three or more backticks or tildes, an unclosed fence running to the end),
which are code at all (fenced or indented, reading list items, HTML blocks and setext headings
first: :func:`code_lines`, :func:`indented_code_lines`), and blanking single-line code spans and
HTML comments so a link shown as code or commented out is not taken for a link.

>>> fenced_lines(["a", "```sh", "[[ -f x ]]", "```", "b"])
[False, True, True, True, False]
>>> blank_code_spans("`[x](a.md)` and [y](b.md)").strip()
'and [y](b.md)'
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence

__all__ = [
    "URL_RE",
    "WIKI_LINK_RE",
    "blank_code_spans",
    "blank_comment_lines",
    "blank_comments",
    "code_lines",
    "comment_line_runs",
    "fenced_lines",
    "indented_code_lines",
    "line_texts",
    "lines_with_ends",
]

WIKI_LINK_RE = (
    r"\[\[([^\s\[\]|#\\](?:[^\[\]\n|#]*[^\s\[\]|#\\])?)"  # the name: no padding, | or #
    r"(?:\\?[|#][^\[\]\n]*)?\]\]"  # an alias (after ``\|`` in a table's cell) or a section
)
"""A wiki link's pattern (compiled where matched: ``re.compile`` keeps it), group 1 the
name it links: ``[[name]]``, ``[[name|alias]]``, ``[[name#section]]``, ``[[name\\|alias]]`` (a
Markdown table's cell escapes the ``|``, as Obsidian's help writes it); a padded ``[[ -f x ]]``
(a shell test) is none (T-3, T-4)."""
URL_RE = r"[A-Za-z][A-Za-z0-9+.-]*://"
"""A web address's start (a pattern, as :data:`WIKI_LINK_RE`): ``[[https://example.com/guide]]``
names no memory."""

# The one line rule of Memory (T-2, T-4): a line ends at CRLF, a lone CR or LF, as Markdown,
# the harnesses and the model take it. Nothing else ends a line: not U+2028/U+2029, a form
# feed, a vertical tab, NEL (U+0085) or U+001C-U+001E, which ``str.splitlines`` splits at.
_LINE_WITH_END_RE = r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+"

_FENCE_RE = r" {0,3}(```+|~~~+)"
# Spans within one line, without inner backticks: linear time on any input.
_CODE_SPAN_RE = r"(`{1,3})[^`\n]+\1"


def _closes(line: str, fence: str) -> bool:
    """A closing fence: the same character, at least as long, nothing else on the line."""
    match = re.compile(_FENCE_RE).match(line)
    if match is None:
        return False
    marker = match.group(1)
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip().strip(fence[0])


def fenced_lines(lines: Sequence[str]) -> list[bool]:
    """For each line (without its line end), whether it is inside or delimits a code fence:
    fences as the index reader reads them, at up to three spaces of indent, whatever stands
    before (a fence marker inside a ``<!--`` … ``-->`` comment opens one here too, so the lines
    after it are fenced until a closing marker; :func:`code_lines` reads comments first)."""
    flags: list[bool] = []
    fence: str | None = None
    for line in lines:
        if fence is None:
            match = re.compile(_FENCE_RE).match(line)
            fence = match.group(1) if match else None
            flags.append(fence is not None)
        else:
            flags.append(True)
            if _closes(line, fence):
                fence = None
    return flags


_ITEM_RE = r"([-+*]|[0-9]{1,9}[.)])(?=[ \t]|$)"
_BREAK_RE = r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$"
_BLOCK_RE = r"#{1,6}(?:[ \t]|$)|>"
_UNDERLINE_RE = r"(?:=+|-+)[ \t]*$"  # a setext heading's, under a paragraph line
_DEFINITION_RE = (
    r"\[(?:[^\\\[\]]|\\.){1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)"
    r"(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?[ \t]*$"
)
"""A link reference definition whole on its line (``[r]: r.md``, ``[r]: <r.md> "R"``): no
paragraph, so an indented line after it is code (a definition cannot interrupt a paragraph)."""
# CommonMark's HTML blocks 1-5 (as markdown-it reads them): the start of the block's first
# line (past its indent), and what ends the block, anywhere in a line, its first included.
_HTML_BLOCKS = (
    (r"<(?:script|pre|style|textarea)(?=\s|>|$)", r"</(?:script|pre|style|textarea)>", re.I),
    (r"<!--", r"-->", 0),
    (r"<\?", r"\?>", 0),
    (r"<![A-Za-z]", r">", 0),
    (r"<!\[CDATA\[", r"\]\]>", 0),
)


def _html_end(text: str) -> re.Pattern[str] | None:
    """What ends the HTML block (``<!--``, ``<pre>``, ``<?``, ``<!DOCTYPE``, ``<![CDATA[``)
    ``text`` (a line past its indent) opens, else None."""
    for opening, ending, flags in _HTML_BLOCKS:
        if re.compile(opening, flags).match(text):
            return re.compile(ending, flags)
    return None


def _interrupts(text: str, content: str) -> bool:
    """Whether a list item (``text``: its line past its indent; ``content``: past its
    marker's spaces) may end the paragraph of the line before, in its list item: not when
    empty, nor an ordered one numbered other than 1 (CommonMark)."""
    number = text.split(".", 1)[0].split(")", 1)[0]
    return bool(content.strip()) and (not number.isdigit() or int(number) == 1)


def _item_content(text: str, width: int) -> int | None:
    """The column a list item's content starts at (CommonMark), when ``text`` (a line
    without its indent of ``width`` columns, tabs expanded) starts one, else None: after the
    marker and the 1-4 spaces after it; one column past the marker when it is followed by
    nothing or by code (five spaces or more)."""
    item = re.compile(_ITEM_RE).match(text)
    if item is None or re.compile(_BREAK_RE).match(text):
        return None
    end = width + item.end()
    rest = text[item.end() :]
    spaces = len(rest) - len(rest.lstrip(" "))
    return end + 1 if not rest.strip() or spaces > 4 else end + spaces


def code_lines(lines: Sequence[str]) -> list[bool]:
    """For each line (without its line end), whether it is code as CommonMark reads it: in a
    code fence or delimiting one, or in an indented code block, i.e. indented four columns or
    more (a tab to the next multiple of four) past the content of the list item holding it,
    where no paragraph goes on (after a blank line, a heading, a setext heading's underline,
    a rule, a fence, an HTML block's last line, the start); a blank line between two lines of
    one indented block is in it. Not code: a line continuing a list item (``    - [A](a.md)``
    under ``- [T](t.md)``), a paragraph's continuation (a lazy line too; an item numbered
    other than 1, or empty, does not end a paragraph), and the lines of an HTML block that
    ends at a marker (``<!--`` … ``-->``, ``<pre>`` … ``</pre>``, ``<?`` … ``?>``,
    ``<!DOCTYPE`` … ``>``, ``<![CDATA[`` … ``]]>``; blank lines inside too; a fence marker
    there opens nothing). A rule (``---``), a heading, a fence or an HTML block's first line
    less indented than a list item ends it, never continues it; a line less indented than
    the item holding a fence or an HTML block ends both. A fence opens and closes up to three
    columns past the item holding it. Linear time.

    Left out (read otherwise than CommonMark does; rare in an index, each a paragraph here):
    block quotes (``>     code`` is code in CommonMark), a list item that opens empty before a
    blank line, a link reference definition
    across lines (one whole on its line, ``[a]: /u "T"``, is read: an indented line after it
    is code, as in CommonMark; a title on the next line is read as code), and an HTML block that
    ends at a blank line (``<div>``, a tag alone on its line: a heading, a one-line comment or
    a rule inside it ends it here, so an indented line after those is code here, not there).

    Read as commonmark.js (0.31) reads it, not as markdown-it-py (4.3): under a list item whose
    content starts at column five or more (``1.   [T](t.md)``, ``10.  [T](t.md)``), a line
    that would start a block (a heading, a fence, a rule, an HTML block) indented four columns
    or more but less than that content (``    # x``) is a lazy line of the item's paragraph
    here; markdown-it ends the item there and reads the line as indented code.

    >>> code_lines(["# T", "", "    code", "- [T](t.md)", "", "    - [A](a.md)"])
    [False, False, True, False, False, False]
    """
    return [kind != _NOT_CODE for kind in _code_kinds(lines)]


def indented_code_lines(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it is in an indented code block as :func:`code_lines` reads
    it (never a fence's line).

    >>> indented_code_lines(["```", "    x", "```", "", "    y"])
    [False, False, False, False, True]
    """
    return [kind == _INDENTED for kind in _code_kinds(lines)]


_NOT_CODE, _FENCED, _INDENTED = range(3)


def _code_kinds(lines: Sequence[str]) -> list[int]:
    """For each line, ``_NOT_CODE``, ``_FENCED`` or ``_INDENTED``: see :func:`code_lines`."""
    flags = [_NOT_CODE] * len(lines)
    items: list[int] = []  # the content column of each list item open, innermost last
    paragraph = False  # the line before goes on as a paragraph (a lazy line continues it)
    blanks: list[int] | None = None  # blank lines since the last indented line of code
    fence: tuple[str, int] | None = None  # the open fence's marker and the column it is in
    html: tuple[re.Pattern[str], int] | None = None  # what ends the open HTML block, its column
    for at, raw in enumerate(lines):
        line = raw.expandtabs(4)
        text = line.lstrip(" ")
        width = len(line) - len(text)
        if fence is not None and (not text or width >= fence[1]):
            flags[at] = _FENCED
            if width - fence[1] < 4 and _closes(text, fence[0]):
                fence = None
            continue
        if html is not None and (not text or width >= html[1]):
            html = None if html[0].search(text) else html
            continue
        fence = html = None  # ended with the list item holding it, by a line less indented
        if not text:
            if blanks is not None:
                blanks.append(at)
            paragraph = False
            continue
        opened = re.compile(_FENCE_RE).match(text)
        ends = _html_end(text)
        starts = (
            opened is not None
            or ends is not None
            or _item_content(text, width) is not None
            or bool(re.compile(_BLOCK_RE).match(text) or re.compile(_BREAK_RE).match(text))
        )
        outdented = bool(items) and width < items[-1]
        if paragraph and outdented and not starts:
            continue  # a lazy line of the item's paragraph
        underline = (
            paragraph and not outdented and re.compile(_UNDERLINE_RE).match(text) is not None
        )
        while items and width < items[-1]:
            items.pop()
        base = items[-1] if items else 0
        if width - base >= 4:
            if not paragraph:
                for blank in blanks or []:
                    flags[blank] = _INDENTED
                flags[at], blanks = _INDENTED, []
            continue
        blanks = None
        if opened is not None or ends is not None or underline:
            flags[at] = _NOT_CODE if opened is None else _FENCED
            fence = None if opened is None else (opened.group(1), base)
            html = None if ends is None or ends.search(text) else (ends, base)
            paragraph = False
            continue
        content = _item_content(text, width)
        interrupts = outdented or _interrupts(text, line[content:])
        if content is not None and paragraph and not interrupts:
            continue  # no item: the paragraph goes on
        if content is not None:
            items.append(content)
            if line[content:].startswith("    ") and line[content:].strip():
                flags[at], blanks, paragraph = _INDENTED, [], False  # ``-     code``
                continue
        defined = (
            not paragraph and content is None and re.compile(_DEFINITION_RE).match(text) is not None
        )
        paragraph = (
            not re.compile(_BREAK_RE).match(text) and not text.startswith("#") and not defined
        )
        paragraph = paragraph and (content is None or bool(line[content:].strip()))
    return flags


def blank_code_spans(line: str) -> str:
    """Replace each code span of a line by spaces of the same length (offsets stay valid)."""
    return re.compile(_CODE_SPAN_RE).sub(lambda match: " " * len(match.group(0)), line)


def blank_comments(line: str) -> str:
    """Replace each HTML comment closed on its line (``<!-- [Old](old.md) -->``, an entry
    commented out) by spaces of the same length, so a link in it is not taken for a link.

    Linear time on any input: each ``<!--`` is closed by the first ``-->`` after it, and once
    none follows, no later comment closes either.

    >>> blank_comments("<!-- [B](b.md) gone --> [A](a.md)").strip()
    '[A](a.md)'
    """
    if "<!--" not in line:
        return line
    parts: list[str] = []
    done = 0
    while (start := line.find("<!--", done)) != -1:
        end = line.find("-->", start + 4)
        if end == -1:
            break
        parts += (line[done:start], " " * (end + 3 - start))
        done = end + 3
    parts.append(line[done:])
    return "".join(parts)


_NOT_LINE_END = r"[^\n]"


def blank_comment_lines(lines: Sequence[str]) -> list[str]:
    """``lines`` (split by :func:`line_texts`) with each HTML comment that closes blanked by
    spaces, on its line or across lines (``<!--`` on one line, ``-->`` on a later one): an
    entry inside renders as nothing and links nothing (T-4, T-5). Each line keeps its length,
    so offsets stay valid; a line wholly inside is all spaces. A ``<!--`` in a code span or on
    a fenced line opens nothing; one never closed blanks nothing (as :func:`blank_comments`).
    Linear time: each ``<!--`` is closed by the first ``-->`` after it.

    >>> found = blank_comment_lines(["- [A](a.md) <!-- old:", "- [B](b.md)", "-->", "[C](c.md)"])
    >>> [line.rstrip() for line in found]
    ['- [A](a.md)', '', '', '[C](c.md)']
    """
    if not any("<!--" in line for line in lines):
        return list(lines)
    text = "\n".join(lines)
    parts: list[str] = []
    done = 0
    for start, end in _comment_offsets(lines):
        parts += (text[done:start], re.compile(_NOT_LINE_END).sub(" ", text[start:end]))
        done = end
    parts.append(text[done:])
    return "".join(parts).split("\n")


def comment_line_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The 0-based first and last line of each HTML comment of ``lines`` (as
    :func:`blank_comment_lines` finds them) that closes on a later line than it opens, in
    order; runs that share a line are one (``a <!-- x`` … ``--> b <!-- y`` … ``-->``). Lines
    that hold these runs in part go together: a ``<!--`` or ``-->`` alone runs on elsewhere.

    >>> comment_line_runs(["# I", "<!--", "old", "--> a <!--", "b -->", "<!-- c -->"])
    [(1, 4)]
    """
    if not any("<!--" in line for line in lines):
        return []
    starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    runs: list[tuple[int, int]] = []
    for start, end in _comment_offsets(lines):
        first, last = bisect.bisect_right(starts, start) - 1, bisect.bisect_right(starts, end) - 1
        if first == last:
            continue
        if runs and runs[-1][1] >= first:
            first = runs.pop()[0]
        runs.append((first, last))
    return runs


def _comment_offsets(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The start and end (past ``-->``) of each HTML comment that closes, as offsets into
    ``"\\n".join(lines)``; a ``<!--`` in a code span or on a fenced line opens nothing."""
    fenced = fenced_lines(lines)
    searched = "\n".join(
        " " * len(line) if in_fence else blank_code_spans(line) if "`" in line else line
        for line, in_fence in zip(lines, fenced, strict=True)
    )
    found: list[tuple[int, int]] = []
    done = 0
    while (start := searched.find("<!--", done)) != -1:
        end = searched.find("-->", start + 4)
        if end == -1:
            break
        found.append((start, end + 3))
        done = end + 3
    return found


def lines_with_ends(text: str) -> list[str]:
    """Split ``text`` into lines, each keeping its own line end: ``\\r\\n``, a lone ``\\r``
    or ``\\n``, and nothing else (U+2028, ``\\f``, ``\\x85``… stay inside their line).

    Joining the result gives ``text`` back byte for byte; a final line without a line end is
    kept as it is, and ``""`` has no lines. Index pruning, the template insert and the
    plugin's packing rewrite text line by line with this, so every other line stays exactly
    as written. Use it (or :func:`line_texts`), never ``str.splitlines``, on memory text.

    >>> lines_with_ends("a\\r\\nb\\rc\\u2028d\\ne")
    ['a\\r\\n', 'b\\r', 'c\\u2028d\\n', 'e']
    """
    return re.compile(_LINE_WITH_END_RE).findall(text)


def line_texts(text: str) -> list[str]:
    """The lines of ``text`` as :func:`lines_with_ends` cuts them, without their line ends.

    A trailing line end does not start another line; ``""`` has no lines. This is the
    numbering every part of Memory uses (1-based: line ``n`` is ``line_texts(t)[n-1]``).

    >>> line_texts("a\\r\\nb\\x0cc\\n")
    ['a', 'b\\x0cc']
    """
    if "\r" not in text:  # the usual, decoded text (T-2): split at C speed
        parts = text.split("\n")
        if parts[-1] == "":
            parts.pop()
        return parts
    return [line.removesuffix("\n").removesuffix("\r") for line in lines_with_ends(text)]
