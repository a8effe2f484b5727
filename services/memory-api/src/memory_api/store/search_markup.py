"""The text a reader sees of a Markdown text, for search (S-2), with where each piece stands.

Chinese and Japanese have no spaces, so emphasis, a link or a code span always sits inside a
run: ``[成语](https://x)接龙`` shows ``成语接龙``, ``喝*咖啡*`` shows ``喝咖啡``, ``**data**base``
shows ``database``. Search matches the text as shown (:func:`reader_form`), with:

- emphasis and strikethrough delimiters (``*``, ``_``, ``**``, ``__``, ``~~``; one ``~`` is
  text to markdown-it, ``~single~`` shown as written) left out
  where they pair up on a line as CommonMark pairs them (left- and right-flanking runs; ``_``
  never inside a word, so ``user_name`` stays; a lone ``*`` as in ``file*.txt`` stays);
- the backticks of a code span left out, its content kept as written (no markup inside);
- a link or image ``[text](url "title")`` shown as ``text``: its target (and title) is moved
  after the text, a paragraph of its own, so a URL stays searchable (``https://x`` finds it) and
  marked where it is written; an autolink ``<https://x>`` shown as its URL;
- a backslash escape (``\\*``) shown as the character it escapes.

HTML is text: the page renders Markdown with markdown-it's ``html: false``
(``static/js/markdown.js``), so a reader sees ``<b>ta</b>gged`` and ``<kbd>Ctrl</kbd>`` as
written, and search matches them as written (``kbd`` finds it, ``tagged`` does not).

Fenced and indented code blocks (:func:`~memory_core.markdown.code_lines`) are kept as written:
nothing there is markup. Reference links, and emphasis across lines, are read as written.

Each kept piece's place is :class:`Pieces`: a match in the reader's text maps back onto the
text as written, split where markup was left out (:meth:`Pieces.spans`). Linear in the text:
every pattern is bounded per position, each delimiter run is paired with one stack per line.
Bounded besides: the markup of a text is read up to :data:`MARKUP_TOKENS` tokens, the rest
of it read as written (a text of nothing but markup, ``*a*a*a…``, would cost seconds a MB).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from memory_core.markdown import code_lines

__all__ = ["MARKUP_TOKENS", "Pieces", "reader_form"]

MARKUP_TOKENS = 40_000
"""The markup tokens (a delimiter run, a code span, an escape, a link's opener or closer, an
autolink) read of one text, about 0.1 s of one CPU: some 300 KB of everyday Markdown (a topic
is read up to 1 MiB); past them, the text is read as written."""

_MARKUP_HINT = re.compile(r"[*_~`\[\]<\\]")
"""A text holding none of these has no markup to leave out: the fast path."""
_URL = r"[^()\s]{0,2000}(?:\([^()\s]{0,500}\)[^()\s]{0,2000})?"
"""A link's target: no space, at most one pair of parentheses (``https://x/X_(y)``, as
CommonMark takes balanced ones); bounded per position, as every pattern here."""
_TOKEN = re.compile(
    r"(?P<code>(?P<ticks>`{1,3})(?!`)(?P<inside>[^\n]{1,2000}?)(?<!`)(?P=ticks)(?!`))"
    r"|(?P<escape>\\[!-/:-@\[-`{-~])"
    r"|(?P<auto><(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]{1,2000}|[^<>\s@]{1,200}@[^<>\s]{1,200})>)"
    rf"|(?P<open>!?\[(?=[^\[\]\n]{{0,1000}}\]\({_URL}(?:\s+\"[^\"\n]{{0,500}}\")?\)))"
    rf"|(?P<close>\]\((?P<url>{_URL})(?P<title>\s+\"[^\"\n]{{0,500}}\")?\))"
    r"|(?P<run>\*+|_+|~~(?!~))"
)


def _punctuation(char: str) -> bool:
    """Whether ``char`` is punctuation to CommonMark's flanking rules (``_`` too)."""
    return char == "_" or not (char.isalnum() or char.isspace())


@dataclass(frozen=True, slots=True)
class Pieces:
    """Where the reader's text stands in the text as written: ``starts[i]`` (sorted) is where
    piece ``i`` starts in the reader's text, ``origins[i]`` where it starts as written; each
    piece is copied whole (a moved link target's piece stands after the text, its origin
    where the target is written)."""

    starts: list[int]
    origins: list[int]

    def place(self, at: int) -> int:
        """Where reader character ``at`` stands as written."""
        index = bisect.bisect_right(self.starts, at) - 1
        return self.origins[index] + at - self.starts[index]

    def spans(self, start: int, end: int) -> list[tuple[int, int]]:
        """Reader characters ``start`` to ``end`` (``start < end``) as written: one span per
        piece they cross, in the reader's order (the markup between them left out)."""
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_right(self.starts, end - 1) - 1
        spans = []
        for index in range(first, last + 1):
            begin = max(start, self.starts[index])
            stop = min(end, self.starts[index + 1]) if index < last else end
            origin = self.origins[index] - self.starts[index]
            spans.append((begin + origin, stop + origin))
        return spans


def reader_form(text: str) -> tuple[str, Pieces | None]:
    """``text`` as a reader sees it once rendered (see the module doc), and where its pieces
    stand as written (None: nothing was left out, the text is its own reader's form).

    >>> reader_form("[成语](https://x)接龙 **data**base")[0]
    '成语接龙 database\\n\\nhttps://x'
    >>> reader_form("user_name, file*.txt")
    ('user_name, file*.txt', None)
    """
    if _MARKUP_HINT.search(text) is None:
        return text, None
    dropped: list[tuple[int, int]] = []  # spans of text left out, apart
    moved: list[tuple[int, int]] = []  # link targets, shown after the text
    lines = text.split("\n")
    code = (
        code_lines(lines)
        if "```" in text or "~~~" in text or "    " in text or "\t" in text
        else []
    )
    line_start = 0
    budget = MARKUP_TOKENS
    for number, line in enumerate(lines):
        if budget <= 0:
            break
        if not (code and code[number]):
            budget = _read_line(text, line_start, line_start + len(line), budget, dropped, moved)
        line_start += len(line) + 1
    if not dropped:
        return text, None
    starts, origins, out = [], [], []
    kept = done = 0
    for begin, end in sorted(dropped):
        if begin > done:
            starts.append(kept)
            origins.append(done)
            out.append(text[done:begin])
            kept += begin - done
        done = max(done, end)
    starts.append(kept)
    origins.append(done)
    out.append(text[done:])
    kept += len(text) - done
    for begin, end in moved:
        out.append("\n\n")  # a paragraph of its own: no run of the text goes on into it
        starts.append(kept)
        origins.append(begin - 2)  # the break stands for the "](" before the target
        starts.append(kept + 2)
        origins.append(begin)
        out.append(text[begin:end])
        kept += 2 + end - begin
    return "".join(out), Pieces(starts, origins)


def _read_line(
    text: str,
    start: int,
    end: int,
    budget: int,
    dropped: list[tuple[int, int]],
    moved: list[tuple[int, int]],
) -> int:
    """Add the markup of ``text[start:end]`` (one line, not code) to ``dropped`` and the link
    targets to ``moved``, reading at most ``budget`` tokens; the budget left (0: spent, the
    rest of the line read as written)."""
    openers: dict[str, list[tuple[int, int]]] = {}  # delimiter → open runs (start, length)
    links = 0  # link openers not yet closed
    for token in _TOKEN.finditer(text, start, end):
        if budget <= 0:
            return 0
        budget -= 1
        kind = token.lastgroup if token.lastgroup != "ticks" else "code"
        at, stop = token.span()
        if token.group("code") is not None:
            ticks = len(token.group("ticks"))
            dropped += [(at, at + ticks), (stop - ticks, stop)]
        elif kind == "escape":
            dropped.append((at, at + 1))  # the character it escapes is shown, as written
        elif kind == "auto":
            dropped += [(at, at + 1), (stop - 1, stop)]
        elif kind == "open":
            dropped.append((at, stop))
            links += 1
        elif token.group("close") is not None:
            if links:
                links -= 1
                dropped.append((at, stop))
                url_start, url_end = token.span("url")
                title_end = token.end("title") if token.group("title") else url_end
                if title_end > url_start:
                    moved.append((url_start, title_end))
        else:
            _pair(text, start, end, token.group(), at, openers, dropped)
    return budget


def _pair(
    text: str,
    start: int,
    end: int,
    run: str,
    at: int,
    openers: dict[str, list[tuple[int, int]]],
    dropped: list[tuple[int, int]],
) -> None:
    """Pair the delimiter ``run`` at ``at`` (CommonMark's flanking rules, simplified: a closer
    takes the nearest opener of its character) and drop what pairs."""
    before = text[at - 1] if at > start else " "
    after = text[at + len(run)] if at + len(run) < end else " "
    before_punctuation, after_punctuation = _punctuation(before), _punctuation(after)
    left = not after.isspace() and (not after_punctuation or before.isspace() or before_punctuation)
    right = not before.isspace() and (
        not before_punctuation or after.isspace() or after_punctuation
    )
    char = run[0]
    if char == "_":  # never inside a word
        can_open = left and (not right or before_punctuation)
        can_close = right and (not left or after_punctuation)
    else:
        can_open, can_close = left, right
    stack = openers.setdefault(char, [])
    length = len(run)
    if can_close and stack:
        open_at, open_length = stack.pop()
        used = min(open_length, length)
        dropped += [(open_at + open_length - used, open_at + open_length), (at, at + used)]
        if open_length > used:
            stack.append((open_at, open_length - used))
        return
    if can_open:
        stack.append((at, length))
