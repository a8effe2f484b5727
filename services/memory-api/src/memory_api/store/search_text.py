"""The text side of search (S-1): what is indexed, what a query asks for, where it matched.

Pure functions, no I/O. Words are what SQLite's ``unicode61`` tokenizer makes them (runs of
letters, digits, marks and private-use characters; case and Latin diacritics folded), with one
addition for the scripts written without spaces between words — Chinese, Japanese, Korean,
Thai, Lao, Khmer, Myanmar (:data:`UNSPACED_SCRIPTS`): a run of those characters is indexed as its
overlapping two-character pieces plus its last character, so ``用户周末喜欢`` is stored as
``用户 户周 周末 末喜 喜欢 欢``. A query run of two or more characters becomes the phrase of its
pieces (``成语接龙`` → ``"成语 语接 接龙"``), which FTS5 finds exactly where the run holds those
characters in a row; one character becomes a prefix (``龙`` → ``"龙"*``), which finds it at any
place. A run of such characters glued to Latin letters (``用Python写``) is split at the script
change, so ``python`` finds it too.

Text and query are compared in Unicode's compatibility form (NFKC, taken one grapheme cluster at
a time: :func:`comparable`), so what looks the same is found the same: a word typed composed
finds it written decomposed (``データ`` with its sound mark apart, Korean as separate jamo, as
macOS writes them), and full-width or half-width forms find the ordinary ones (``ＡＰＩ`` and
``API``, ``ｶﾀｶﾅ`` and ``カタカナ``).

The highlighting is done here, on the stored text as written, by the same rules: a query word
marks the words it equals (the last one of the query: those it starts), a run marks where it
occurs in a run. Term frequencies and field lengths for the ranking (:mod:`.search_rank`) come
from the same matches, so what is counted is what is shown.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import regex
from memory_core.wire import SnippetPart

__all__ = [
    "MAX_MATCHES",
    "UNSPACED_SCRIPTS",
    "Match",
    "Query",
    "Term",
    "comparable",
    "field_length",
    "index_text",
    "marked_parts",
    "matches",
    "parse_query",
    "snippet",
]

UNSPACED_SCRIPTS = (
    "Han",
    "Hiragana",
    "Katakana",
    "Hangul",
    "Bopomofo",
    "Thai",
    "Lao",
    "Khmer",
    "Myanmar",
)
"""Scripts whose words are not separated by spaces (Korean is, but its particles glue to the
noun: ``서울에서`` holds ``서울``). By Unicode script extensions, so ``ー`` and ``々`` belong."""

SNIPPET_CHARS = 140
"""About how many characters a body snippet shows around the matches."""
_LEAD_CHARS = 40
"""How much text a snippet keeps before its first match."""
MAX_MATCHES = 1000
"""Matches of one term counted and marked in one text."""
_ANCHORS = 50
"""How many matches a snippet is tried around (a long body may hold thousands)."""

_LETTER = r"\p{L}\p{N}\p{M}\p{Co}"
_SCRIPTS = "".join(rf"\p{{scx={name}}}" for name in UNSPACED_SCRIPTS)
_RUN = regex.compile(rf"[[{_LETTER}]&&[{_SCRIPTS}]]+", regex.V1)
_WORD_CHAR = f"[[{_LETTER}]--[{_SCRIPTS}]]"
_PIECE = regex.compile(rf"(?P<run>{_RUN.pattern})|(?P<word>{_WORD_CHAR}+)", regex.V1)
_QUERY_WORD = regex.compile(rf"[{_LETTER}_]+", regex.V1)
_ROUGH_WORD = re.compile(r"[^\W_]+")
_SPACE = regex.compile(r"\s+")
# What unicode61's remove_diacritics takes off: the combining accents of Latin letters.
_ACCENTS = r"[\u0300-\u036f]"
_FOLDED = regex.compile(rf"(?<=\p{{Script=Latin}}){_ACCENTS}+")


def _fold(word: str) -> str:
    """A word as the tokenizer compares it: Latin accents removed, lower case (unicode61 folds
    case one character for one, so ``ß`` stays ``ß``: ``casefold`` would make it ``ss`` and
    mark nothing where the index found ``Straße``)."""
    return unicodedata.normalize("NFC", _FOLDED.sub("", unicodedata.normalize("NFD", word))).lower()


def _accented() -> dict[str, str]:
    """Each ASCII letter and the precomposed Latin letters that fold to it (``u``: ``ùúûü…``)."""
    found: dict[str, str] = {}
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        folded = _fold(chr(code))
        if len(folded) == 1 and folded.isascii() and folded.isalpha():
            found[folded] = found.get(folded, "") + chr(code)
    return found


_ACCENTED = _accented()
_CLUSTER = regex.compile(r"\X")


def comparable(text: str) -> tuple[str, list[int] | None]:
    """``text`` as search compares it (NFKC, one grapheme cluster at a time), and where each of
    its characters came from: ``origin[i]`` is the index in ``text`` of the cluster that gave
    character ``i`` (plus one entry for the end); None when ``text`` is already in that form
    (then the two are the same, index for index: nearly every text).

    >>> comparable("ＡＰＩ key")
    ('API key', [0, 1, 2, 3, 4, 5, 6, 7])
    """
    if unicodedata.is_normalized("NFKC", text):
        return text, None
    pieces: list[str] = []
    origin: list[int] = []
    for cluster in _CLUSTER.finditer(text):
        piece = unicodedata.normalize("NFKC", cluster.group())
        pieces.append(piece)
        origin.extend([cluster.start()] * len(piece))
    origin.append(len(text))
    return "".join(pieces), origin


def _pieces(run: str) -> str:
    if len(run) == 1:
        return f" {run} "
    pairs = " ".join(run[i : i + 2] for i in range(len(run) - 1))
    return f" {pairs} {run[-1]} "


@functools.cache
def _fast_run() -> re.Pattern[str]:
    """:data:`_RUN` for the standard ``re`` module: the same characters as explicit ranges.

    ``regex``'s script properties cost about 0.3 µs a character, ten times a plain range
    class; indexing 300 MB of text goes through this one. Built on first use (about 50 ms):
    every character of planes 0 and 1 tested, planes 2 and 3 (CJK ideographs) taken whole.
    """
    every = "".join(map(chr, range(0x20000)))
    ranges = [(found.start(), found.end() - 1) for found in _RUN.finditer(every)]
    ranges.append((0x20000, 0x3FFFF))
    members = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    return re.compile(f"[{members}]+")


def index_text(text: str) -> str:
    """The text FTS5 indexes for ``text``: every unspaced run as its pieces (see the module doc).

    >>> index_text("用户周末 deploy")
    ' 用户 户周 周末 末  deploy'
    """
    return _fast_run().sub(lambda found: _pieces(found.group()), comparable(text)[0])


def field_length(text: str) -> int:
    """The length of a field for BM25: about its words plus the characters of its unspaced
    runs (each run also counts as one word: a length norm needs no more precision)."""
    text = comparable(text)[0]
    return len(_ROUGH_WORD.findall(text)) + sum(map(len, _fast_run().findall(text)))


@dataclass(frozen=True, slots=True)
class Term:
    """One thing every hit must hold: ``words`` in a row (as typed), or ``run`` as a substring.

    ``prefix``: the last word may be the start of a longer word (search as you type).
    """

    words: tuple[str, ...] = ()
    run: str = ""
    prefix: bool = False

    @property
    def fts(self) -> str:
        """This term in FTS5 query syntax (a quoted phrase; ``*`` for a prefix)."""
        if self.run:
            if len(self.run) == 1:
                return f'"{self.run}"*'
            return '"' + " ".join(self.run[i : i + 2] for i in range(len(self.run) - 1)) + '"'
        return '"' + " ".join(self.words) + '"' + ("*" if self.prefix else "")


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: its terms, all required; ``fts`` the FTS5 MATCH expression."""

    terms: tuple[Term, ...]

    @property
    def fts(self) -> str:
        """Every term, all required (FTS5's implicit AND)."""
        return " ".join(term.fts for term in self.terms)

    def in_column(self, index: int, column: str) -> str:
        """FTS5 syntax for term ``index`` found in ``column`` (for its document frequency)."""
        return f"{{{column}}} : {self.terms[index].fts}"


def parse_query(text: str) -> Query | None:
    """The user's words as a :class:`Query`, each distinct term once; None when ``text`` holds
    no word.

    Never FTS5 syntax from the user: quotes, operators, column names and stars are just text.

    >>> parse_query('deploy "notes').fts
    '"deploy" "notes"*'
    >>> parse_query("用Python写代码").fts
    '"用"* "Python" "写代 代码"'
    >>> parse_query("?!") is None
    True
    """
    terms: list[Term] = []
    for word in _QUERY_WORD.findall(comparable(text)[0]):
        for piece in _PIECE.finditer(word.replace("_", " ")):
            if piece.group("run"):
                terms.append(Term(run=piece.group()))
            elif terms and terms[-1].words and word_continues(word, piece.start()):
                previous = terms.pop()
                terms.append(Term(words=(*previous.words, piece.group())))
            else:
                terms.append(Term(words=(piece.group(),)))
    if not terms:
        return None
    last = terms[-1]
    if last.words:
        terms[-1] = Term(words=last.words, prefix=True)
    return Query(tuple(dict.fromkeys(terms)))  # a word typed twice is one thing to find


def word_continues(word: str, start: int) -> bool:
    """Whether the Latin piece at ``start`` of a query word follows another Latin piece across
    an underscore (``feedback_prefers_uv`` is one phrase of three words, as the tokenizer sees
    the name), not across a run of unspaced characters."""
    return start > 0 and word[start - 1] == "_"


@dataclass(frozen=True, slots=True)
class Match:
    """Where a term matched in a text: characters ``start`` to ``end``; ``term`` its index."""

    start: int
    end: int
    term: int


def matches(text: str, query: Query) -> list[Match]:
    """Every place in ``text`` (as written) that one of the query's terms matches, in order;
    at most :data:`MAX_MATCHES` per term (a score saturates long before, a snippet shows few).
    Found in :func:`comparable` ``text``, each match then spans the clusters it came from."""
    text, origin = comparable(text)
    found = _matches(text, query)
    if origin is None:
        return found
    return [
        Match(origin[match.start], _cluster_end(origin, match.end), match.term) for match in found
    ]


def _cluster_end(origin: list[int], end: int) -> int:
    """Where in the original text the cluster holding comparable character ``end - 1`` ends."""
    start = origin[end - 1]
    while origin[end] == start:
        end += 1
    return origin[end]


def _matches(text: str, query: Query) -> list[Match]:
    """:func:`matches` in a text already in comparable form."""
    found: list[Match] = []
    for number, (pattern, run, prefix) in enumerate(_finders(query)):
        count = 0
        if pattern is None:
            at = text.find(run)
            while at >= 0 and count < MAX_MATCHES:
                found.append(Match(at, at + len(run), number))
                at, count = text.find(run, at + 1), count + 1
            continue
        for hit in pattern.finditer(text):
            start, end = hit.span()
            if start and _in_word(text[start - 1]):
                continue  # inside a longer word
            if prefix:
                while end < len(text) and _in_word(text[end]):
                    end += 1
            elif end < len(text) and _in_word(text[end]):
                continue
            found.append(Match(start, end, number))
            count += 1
            if count == MAX_MATCHES:
                break
    found.sort(key=lambda match: (match.start, match.end))
    return found


def _in_word(character: str) -> bool:
    """Whether ``character`` belongs to a word (a letter, digit or mark of a spaced script)."""
    if character < "\x80":
        return character.isalnum()
    return unicodedata.category(character)[0] in "LNM" and not _fast_run().match(character)


@functools.lru_cache(maxsize=64)
def _finders(query: Query) -> list[tuple[re.Pattern[str] | None, str, bool]]:
    """Per term: a pattern finding its words (case and Latin accents aside; the word
    boundaries checked by :func:`matches`), or its run; and whether it is a prefix."""
    finders: list[tuple[re.Pattern[str] | None, str, bool]] = []
    for term in query.terms:
        if term.run:
            finders.append((None, term.run, False))
            continue
        words = r"[\W_]+".join(_letters(_fold(word)) for word in term.words)
        finders.append((re.compile(words, re.IGNORECASE), "", term.prefix))
    return finders


def _letters(word: str) -> str:
    """A folded word as a pattern: each letter, or any accented form of it, then any accents."""
    return "".join(
        f"[{letter}{_ACCENTED.get(letter, '')}]{_ACCENTS}*"
        if letter.isalpha()
        else re.escape(letter)
        for letter in word
    )


def marked_parts(
    text: str, found: list[Match], start: int = 0, end: int | None = None
) -> list[SnippetPart]:
    """``text[start:end]`` as parts, the matched stretches ``hit``; whitespace runs as one space."""
    stop = len(text) if end is None else end
    parts: list[SnippetPart] = []
    position = start

    def add(piece: str, hit: bool) -> None:
        piece = _SPACE.sub(" ", piece)
        if not piece:
            return
        if parts and parts[-1].hit == hit:
            parts[-1] = SnippetPart(text=parts[-1].text + piece, hit=hit)
        else:
            parts.append(SnippetPart(text=piece, hit=hit))

    for match in found:
        if match.end <= position or match.start >= stop:
            continue
        begin = max(match.start, position)
        add(text[position:begin], hit=False)
        add(text[begin : min(match.end, stop)], hit=True)
        position = min(match.end, stop)
    add(text[position:stop], hit=False)
    return parts


def snippet(text: str, found: list[Match]) -> list[SnippetPart]:
    """A passage of about :data:`SNIPPET_CHARS` of ``text`` around its best matches, marked.

    The best passage holds the most distinct terms (then the most matches, then the earliest);
    without a match it is the start of the text. An ellipsis stands for what is cut.
    """
    if not text.strip():
        return []
    lead = len(text) - len(text.lstrip())
    best_start, best = 0, (-1, -1)
    for index, anchor in enumerate(found[:_ANCHORS] or [Match(lead, lead, -1)]):
        start = max(lead, anchor.start - _LEAD_CHARS)
        near = found[max(0, index - _LEAD_CHARS) : index + SNIPPET_CHARS]  # sorted by start
        inside = [
            match for match in near if start <= match.start <= match.end <= start + SNIPPET_CHARS
        ]
        score = (len({match.term for match in inside}), len(inside))
        if score > best:
            best_start, best = start, score
    start = _word_start(text, best_start, found, lead)
    end = _word_end(text, start + SNIPPET_CHARS)
    parts = marked_parts(text, found, start, end)
    if parts and start > lead:
        parts.insert(0, SnippetPart(text="…", hit=False))
    if parts and text[end:].strip():
        parts.append(SnippetPart(text="…", hit=False))
    return parts


def _word_start(text: str, start: int, found: list[Match], lead: int) -> int:
    """Move a cut forward past the word it splits (not past the first match it shows)."""
    if start <= lead:
        return lead
    first = min((match.start for match in found if match.start >= start), default=len(text))
    space = _SPACE.search(text, start, first)
    return space.end() if space else start


def _word_end(text: str, end: int) -> int:
    """Move a cut back to the end of the last whole word before it."""
    if end >= len(text):
        return len(text)
    space = max(text.rfind(" ", max(0, end - 20), end), text.rfind("\n", max(0, end - 20), end))
    return space if space > 0 else end
