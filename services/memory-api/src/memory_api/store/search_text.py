"""The text side of search (S-1): what is indexed, what a query asks for, where it matched.

Pure functions, no I/O. Words are what SQLite's ``unicode61`` tokenizer makes them (runs of
letters, digits, marks and private-use characters; case and Latin diacritics folded), with one
addition for the scripts written without spaces between words — Chinese, Japanese, Korean,
Yi, Thai, Lao, Khmer, Myanmar, the Tai scripts, Javanese, Balinese (:data:`UNSPACED_SCRIPTS`):
a run of those characters is indexed as its overlapping two-character pieces plus its last
character, so ``用户周末喜欢`` is stored as ``用户 户周 周末 末喜 喜欢 欢``; a run hard-wrapped
across the lines of a paragraph (``喝\n咖啡``, an editor's fill column) is one run
(:func:`_wraps`: never after a heading, a table row, a list item's line not going on, a hard
line break, nor a line short of a fill column: ``张三\n李四``, a name a line, is two). A query
run of two or more characters becomes the phrase of its pieces (``成语接龙`` →
``"成语 语接 接龙"``), which FTS5 finds exactly where the run holds those characters in a
row; one character becomes a prefix (``龙`` → ``"龙"*``), which finds it at any
place. In a query still being typed (``typing``: the page's live search), the last Hangul
syllable may be unfinished (an input method shows ``한ㄱ`` and ``한구`` on the way to
``한국``): a consonant typed alone after it is left out, and one without a final consonant is
found with any, below the syllable as typed; a query typed in full finds only what it says
(``공부`` never ``공분``). A run of such characters glued to Latin letters
(``用Python写``) is split at the script change, so ``python`` finds it too. A word of an Indic
script (:data:`INDIC_SCRIPTS`: Hindi writes its compounds as one word, ``प्रधानमंत्री``) is
indexed in the same way by its grapheme clusters, each pair joined by a private-use character,
plus its last cluster (``डाकघर``, "post office", as ``डा\\ue000क क\\ue000घ घ\\ue000र
र\\ue000``): a query word of those scripts is the phrase of its cluster pairs, found exactly
where a word holds those clusters in a row (``घर`` finds ``डाकघर``), never where a cluster of
the query is half of one in the text (``मंत्र`` does not find ``मंत्री``: ``त्री`` is one
cluster); one cluster asks for the pieces that start with it whole. Each symbol (emoji, ``✅``,
an arrow or math sign such as ``→ ≠ ≤``, ``± ×``) is a word of its own, glued to its neighbours
or not, so ``🚀`` finds itself wherever it stands; symbols typed glued together are found in a
row (an emoji sequence, ``👩\\u200d💻``, is its emoji once its joiners and skin tone are left out:
never a note holding them apart); a flag, two regional indicators, is one symbol; the ASCII
signs ``+ < = > | ~`` stay word breaks (:func:`sign_separators`: ``a+b`` is ``a`` and ``b``).
Arabic writes its proclitics (``و ف ب ك ل``) and the article ``ال`` onto the word: a word
holding the article is indexed with its parts too, without its proclitics and without the
article (``والنشر``, "and the publishing", as ``والنشر النشر نشر``), and a query word is found
after them. Hebrew writes its prefixes (``ה ו ב כ ל מ ש``, up to three) onto the word in the
same way: a word starting with them is indexed with its ends after them too (``הקפה``, "the
coffee", as ``הקפה קפה``). A camelCase identifier (``getUserName``, ``HTTPServer``) is indexed
as itself followed by its words, and a camelCase query word asks for itself (any case) or
those words in a row, so ``UserName``, ``user_name`` and ``json`` find ``getUserName`` and
``parseJSON``, and ``GitHub`` finds ``github`` as ``github`` does (and ``git hub`` too); the hits
holding a query identifier exactly as typed (``user_name``) rank first. A query word typed with
the signs ``#`` or ``+`` right after it (``C#``, ``C++``, ``F#``, ``g++``) is a name: found as a
whole word (``C#`` never asks for every word starting with ``c``), the hits holding it with
those signs rank first, and it is marked with them.

Before that, text and query alike take their search form (:func:`search_form`): NFC (a note
written in NFD, as macOS spells Korean or accented names, is found by what a keyboard types),
with compatibility characters as NFKC folds them (half-width katakana ``ｶﾞｲﾄﾞ`` as ``ガイド``;
a sound mark written apart, half-width ``ﾞ ﾟ`` or spacing ``゛ ゜``, voices the kana before it
whatever its width: ``カﾞ``, ``カ゛`` and ``ｶﾞ`` are ``ガ``, ``ハﾟ`` is ``パ``;
full-width Latin ``ＡＰＩ``, ligatures ``ﬁ``, squared words ``㍿``, circled and parenthesised
letters and numbers, superscripts, math letters ``𝐀``; not Hangul letters typed alone),
without Greek accents (as unicode61 drops Latin ones), without the marks a reader may leave
out — Arabic harakat and tatweel, Hebrew points — or that only hint at rendering inside a word
(a soft hyphen, a combining grapheme joiner, a zero-width joiner, the zero-width space of
Thai word breaks), with katakana as hiragana (an input method shows ``でぷろい`` until it is
converted to ``デプロイ``: either finds the other), and with ``ß`` as ``ss``,
``ё`` as ``е``, Turkish ``ı`` as ``i``, the Latin letters with a stroke as the letter under it
(``ł đ ø ħ``), ``æ œ þ ð`` as ``ae oe th d`` and the Arabic letter forms written alike as one
(``أ إ آ ٱ`` as ``ا``, ``ى ی`` as ``ي``, ``ک`` as ``ك``, ``ة`` as ``ه``; where that merges two
words, ``على`` and ``علي``, the one written as typed ranks first and is marked: ``Match.loose``;
the index holds each such word as written too, so the notes writing it as typed are fetched
first, however many write it otherwise)
(``strasse`` finds
``Straße``, ``kirmizi`` finds ``Kırmızı``, ``ежик`` finds ``Ёжик``, ``lodz`` finds ``Łódź``,
``oeuvre`` finds ``œuvre``, ``محمد`` finds ``مُحَمَّد``, ``احمد`` finds ``أحمد``, ``Donaudampf``
finds ``Donau\\u00addampf``).

The highlighting is done here by the same rules, in the stored text's search form, each place
mapped back onto whole characters of the text as written (``file`` marks ``ﬁle``, ``株式``
marks all of ``㍿``, never half of a character and its marks): a query word marks the words it
equals (the last one of the query: those it starts), a run marks where it occurs in a run.
Term frequencies and field lengths for the ranking (:mod:`.search_rank`) come from the same
matches, so what is counted is what is shown.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import functools
import heapq
import re
import sqlite3
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

import regex
from memory_core.hidden_text import without_hidden
from memory_core.ignorable import ignorable_class
from memory_core.markdown import code_lines
from memory_core.wire import SnippetPart

from memory_api.store.search_markup import Pieces, reader_form

__all__ = [
    "CLUSTER",
    "INDIC_SCRIPTS",
    "MAX_MATCHES",
    "UNSPACED_SCRIPTS",
    "Match",
    "Query",
    "Shown",
    "Term",
    "field_length",
    "index_text",
    "marked_parts",
    "matches",
    "parse_query",
    "search_form",
    "shown_matches",
    "sign_separators",
    "snippet",
    "visible_text",
]

UNSPACED_SCRIPTS = (
    # ideographic and syllabic: each character a syllable (Unicode line breaking class ID)
    "Han",
    "Hiragana",
    "Katakana",
    "Hangul",
    "Bopomofo",
    "Yi",
    "Tangut",
    "Khitan_Small_Script",
    "Nushu",
    # South-East Asian: words run together (line breaking class SA, "complex context")
    "Thai",
    "Lao",
    "Khmer",
    "Myanmar",
    "Tai_Le",
    "New_Tai_Lue",
    "Tai_Tham",
    "Tai_Viet",
    "Ahom",
    # Brahmic scripts written in scriptio continua
    "Javanese",
    "Balinese",
)
"""Scripts whose words are not separated by spaces (Korean is, but its particles glue to the
noun: ``서울에서`` holds ``서울``). By Unicode script extensions, so ``ー`` and ``々`` belong."""

INDIC_SCRIPTS = (
    "Devanagari",
    "Bengali",
    "Gurmukhi",
    "Gujarati",
    "Oriya",
    "Tamil",
    "Telugu",
    "Kannada",
    "Malayalam",
    "Sinhala",
)
"""Scripts whose words are spaced but whose compounds are written as one word (Hindi
``प्रधानमंत्री``, "prime minister", is ``प्रधान`` and ``मंत्री``) and whose letters are
syllables of several characters, a consonant with its vowel sign (matra), virama and the
consonants it joins: a word of them is searched by its grapheme clusters (:data:`CLUSTER`),
so any part of it made of whole clusters is found, never half of one."""

SNIPPET_CHARS = 140
"""About how many characters a body snippet shows around the matches."""
_LEAD_CHARS = 40
"""How much text a snippet keeps before its first match."""
MAX_MATCHES = 1000
"""Matches of one term counted and marked in one text."""
_ANCHORS = 50
"""How many matches a snippet is tried around (a long body may hold thousands)."""

_LETTER = r"\p{L}\p{N}\p{M}\p{Co}"
# The unspaced scripts' characters by script extensions, but for the combining accents Tai Le
# shares with Latin (U+0300–U+036F): those stay in the Latin word they are written in.
_SCRIPTS = "[" + "".join(rf"\p{{scx={name}}}" for name in UNSPACED_SCRIPTS) + "]--[\u0300-\u036f]"
_RUN = regex.compile(rf"[[{_LETTER}]&&[{_SCRIPTS}]]+", regex.V1)
_INDIC = "".join(rf"\p{{scx={name}}}" for name in INDIC_SCRIPTS)
_INDIC_RUN = regex.compile(rf"[[\p{{L}}\p{{M}}]&&[{_INDIC}]]+", regex.V1)
CLUSTER = regex.compile(r"\X")
"""A grapheme cluster, as ``regex`` segments text (Unicode's extended grapheme clusters with
the conjunct rule: ``त्री``, a consonant, virama, consonant and vowel sign, is one)."""
_JOINS = "\ue000"
"""What joins the two clusters of an indexed Indic pair (a private-use character: a word
character to the tokenizer, never typed into a query), so a one-cluster query asks for the
pairs that start with that whole cluster (``"का\\ue000"*``), never one that starts with its
characters and goes on with a vowel sign (``कां``)."""
# Symbols searched one by one: emoji, the symbol blocks (``✅``, ``🚀``, arrows and math signs)
# and the Latin-1 signs ``¬ ± × ÷``. Blocks, not ``\p{So}``: a class of a few ranges is scanned
# at C speed, one of So's hundreds three times slower.
# A flag is two regional indicator letters (``🇯🇵`` is J and P), paired from the start of a run
# of them: one symbol, so ``🇸🇯`` is not found in ``🇺🇸🇯🇵`` (the US and Japan), nor ``🇯🇵`` in
# ``🇯🇲 🇵🇱`` (Jamaica, Poland).
_SYMBOLS = "\u00a9\u00ac\u00ae\u00b1\u00d7\u00f7\u2122\u2190-\u2bff\U0001f000-\U0001faff"
_REGIONAL = "\U0001f1e6-\U0001f1ff"
_FLAG = f"[{_REGIONAL}]{{2}}"
_SYMBOL = re.compile(f"{_FLAG}|[{_SYMBOLS}]")
_REGIONAL_BEFORE = re.compile(f"[{_REGIONAL}]*$")


@functools.cache
def sign_separators() -> str:
    """The math signs that stay word breaks for the tokenizer (``+ < = > | ~`` and a few more):
    code and tables hold them everywhere, and ``a+b`` is the words ``a`` and ``b``. The others,
    arrows and the signs of the math blocks (``→ ≠ ≤``), are symbols: each a word of its own.
    Found by a scan of the code points on first use, as every Unicode table of this module is
    (:func:`_spelled_as`, :func:`_compat`, :func:`_marks`): a process that never searches nor
    indexes (a CLI command, most of a service's start) never pays for them."""
    return "".join(
        sign
        for sign in map(chr, range(0x30000))
        if unicodedata.category(sign) == "Sm"
        and not _SYMBOL.match(sign)
        and unicodedata.normalize("NFKC", sign) == sign
    )


_WORD_CHAR = f"[[{_LETTER}]--[{_SCRIPTS}]--[[\\p{{L}}\\p{{M}}]&&[{_INDIC}]]]"
_PIECE = regex.compile(
    rf"(?P<symbol>(?:{_FLAG}|[{_SYMBOLS}])+)|(?P<run>{_RUN.pattern})|(?P<indic>{_INDIC_RUN.pattern})"
    rf"|(?P<word>{_WORD_CHAR}+)",
    regex.V1,
)
_QUERY_WORD = regex.compile(rf"[{_LETTER}{_SYMBOLS}_]+", regex.V1)
_NAME_SIGNS = re.compile(r"[#+]+")
"""Signs that may end a query word as part of a name (``C#``, ``C++``, ``F#``, ``g++``), when
no word goes on after them (``a+b`` is the words ``a`` and ``b``; ``#tag`` is ``tag``)."""
_BASE_CHAR = regex.compile(r"[\p{L}\p{N}\p{Co}]")
"""A character a query word needs to be searchable: marks alone (``\u0301``) are no word (the
tokenizer drops an accent, and an empty prefix would match every note)."""
_ROUGH_WORD = re.compile(r"[^\W_]+")
_SPACE = regex.compile(r"\s+")
# What unicode61's remove_diacritics takes off: the combining accents of Latin letters.
_ACCENTS = r"[\u0300-\u036f]"
_FOLDED = regex.compile(rf"(?<=\p{{Script=Latin}}){_ACCENTS}+")
# Left out of a word's search form (search_form): marks a reader may leave out (Hebrew points
# and cantillation, Arabic harakat, Quranic marks, tatweel) and what only hints at rendering
# inside a word (soft hyphen, combining grapheme joiner, zero-width joiner, and the zero-width
# space Thai, Lao, Khmer and Myanmar text marks its word breaks with, which a reader does not
# see: ไทยไม่มี finds ไทย\u200bไม่มี; elsewhere it is hidden, I-9, and left out of what is searched
# with the other hidden characters: visible_text).
# ZWNJ stays a word break: in Persian it parts a prefix or suffix from its stem (می‌خواهم is
# found by خواهم). Many keyboards make it hard to type, so the word is found written without
# it too (میخواهم), and one typed with it finds the word written without (_ZWNJ_JOINED).
# A variation selector after its character (U+FE00–U+FE0F, the ideographic ones U+E0100–U+E01EF
# a name such as 葛\U000e0100城 carries, Mongolian's free ones U+180B–U+180D, U+180F) picks a
# glyph, not a letter: 葛城 finds it. Every other character drawn as nothing (Unicode's
# Default_Ignorable_Code_Point, memory_core.ignorable: a word joiner, a BOM, a Hangul filler,
# the reserved ones) is left out alike, in a query as in the text: pass<U+2060>word pasted into
# the search box finds password (I-9). That class is built on first use (every code point
# matched, ~65 ms), never at import (S-1).
_LEFT_OUT_MARKS = (
    "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a"
    "\u0640\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
    "\U0001f3fb-\U0001f3ff"
)


@functools.cache
def _left_out() -> str:
    """The body of the class of characters a word's search form leaves out (above)."""
    return _LEFT_OUT_MARKS + ignorable_class(keep="\u200c")


@functools.cache
def _left_out_re() -> re.Pattern[str]:
    """A run of characters a word's search form leaves out."""
    return re.compile(f"[{_left_out()}]+")


_UNCASED = (
    (0x3400, 0xA000),  # CJK Unified Ideographs and Extension A (and the Yijing hexagrams)
    (0xAC00, 0xF900),  # Hangul syllables and Jamo Extended-B, surrogates, private use
)
"""Spans of plane 0 that hold no letter with a case, ever (ideographs, syllables, surrogates,
private use); planes 2 and up are ideographs, tags and private use."""
_CASED_SPANS = ((0x80, _UNCASED[0][0]), (_UNCASED[0][1], _UNCASED[1][0]), (_UNCASED[1][1], 0x20000))
"""Where :func:`_unfolded_capitals` looks for capitals: U+0080–U+1FFFF but :data:`_UNCASED`."""


def _unfolded_capitals() -> dict[str, str]:
    """Each capital letter SQLite's ``unicode61`` leaves as it is, with its small letter.

    The tokenizer folds case by a table of its own, which lacks the case pairs Unicode gave
    letters later (Cherokee's small letters, Georgian Mtavruli, a few Latin and Cyrillic ones)
    and every cased letter above plane 0 (Osage, Adlam, Old Hungarian, Warang Citi, …):
    search folds those itself, so ``ᏣᎳᎩ`` and ``ꮳꮃꭹ`` find each other. Asked of the SQLite
    in use (an in-memory table), so a newer one that folds them needs nothing here. Looked for
    outside the blocks Unicode gives only uncased characters for good (:data:`_UNCASED`):
    less than half of the code points at import."""
    letters = [chr(code) for start, end in _CASED_SPANS for code in range(start, end)]
    capitals = [
        letter
        for letter, small in zip(letters, map(str.lower, letters), strict=True)
        if small != letter and len(small) == 1
    ]
    with contextlib.closing(sqlite3.connect(":memory:")) as probe:
        probe.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61')")
        probe.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
        probe.execute("INSERT INTO t VALUES (?)", (" ".join(capitals),))
        kept = {term for (term,) in probe.execute("SELECT term FROM v")}
    return {capital: capital.lower() for capital in capitals if capital in kept}


# Letters a keyboard without them types as another: ``ß`` as ``ss``, ``ё`` as ``е``, Turkish
# ``ı`` as ``i``; the Latin letters with a stroke, which no decomposition takes apart as it does
# an accent, as the letter under it (``lodz`` finds ``Łódź``, ``da nang`` ``Đà Nẵng``, ``tromso``
# ``Tromsø``); ``æ œ þ ð`` as ``ae oe th d``; and the Arabic letter forms a reader writes alike,
# as search engines fold them: an alef with hamza or madda or wasla as a bare alef, alef
# maksura and the Persian yeh as yeh, the Persian keheh as kaf, teh marbuta as heh (``احمد``
# finds ``أحمد``, ``مدرسه`` ``مدرسة``).
_SPELLED_AS = {
    "ß": "ss",
    "ẞ": "SS",
    "ё": "е",
    "Ё": "Е",
    "ı": "i",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ø": "o",
    "Ø": "O",
    "ħ": "h",
    "Ħ": "H",
    # the ligatures a keyboard types as their two letters (``oeuvre`` finds ``œuvre``)
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    # Icelandic thorn and eth, as they are written in ASCII
    "þ": "th",
    "Þ": "TH",
    "ð": "d",
    "Ð": "D",
    "\u0622": "\u0627",  # آ
    "\u0623": "\u0627",  # أ
    "\u0625": "\u0627",  # إ
    "\u0671": "\u0627",  # ٱ
    "\u0649": "\u064a",  # ى
    "\u06cc": "\u064a",  # ی
    "\u06a9": "\u0643",  # ک
    "\u0629": "\u0647",  # ة
    # katakana as hiragana: an input method shows what is typed in hiragana until it is
    # converted (``でぷろい`` on the way to ``デプロイ``), and either spells the same sounds
    **{chr(code): chr(code - 0x60) for code in [*range(0x30A1, 0x30F7), 0x30FD, 0x30FE]},
}


@functools.cache
def _spelled_as() -> dict[str, str]:
    """:data:`_SPELLED_AS` and the capitals SQLite leaves unfolded (:func:`_unfolded_capitals`,
    asked of it on first use), as their small letters."""
    return {**_SPELLED_AS, **_unfolded_capitals()}


@functools.cache
def _spelled_re() -> re.Pattern[str]:
    """A letter of :func:`_spelled_as` (a C-speed scan; ``str.translate`` is 10x slower)."""
    return re.compile(f"[{''.join(_spelled_as())}]")


@functools.cache
def _after_letter() -> str:
    """After each letter of a query word, what the text as written may hold that its search
    form does not (a pattern)."""
    return f"[\u0300-\u036f{_left_out()}\u200c]*"


_ZWNJ = "\u200c"
_ZWNJ_JOINED = re.compile(rf"[^\W_]+(?:{_ZWNJ}[^\W_]+)+")
"""A word whose parts a zero-width non-joiner parts (Persian ``می‌خواهم``, ``کتاب‌ها``)."""
# A query letter and the letters written for it: ``е`` for ``ё``, ``ss`` for ``ß``.
_WRITTEN_AS = {"е": "[её]", "ss": "(?:ss|ß|ẞ)"}


_GREEK = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")
_ACCENT_RE = re.compile(f"{_ACCENTS}+")
_GREEK_ACCENTS = regex.compile(rf"(?<=\p{{Script=Greek}}){_ACCENTS}+")


def _ranges(codes: list[int], gap: int = 1) -> str:
    """Code points as the ranges of a character class (neighbours less than ``gap`` apart
    joined)."""
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and code - ranges[-1][1] <= gap:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)


def _is_compat(character: str) -> bool:
    """Whether search folds ``character`` to its compatibility form (NFKC): half-width kana,
    ligatures, squared words, circled and parenthesised letters and numbers, superscripts,
    math alphanumerics, full-width Latin, presentation forms. Not the Hangul letters a Korean
    keyboard types alone (their NFKC would join ``ㄱㅏ`` into ``가``), nor what NFKC spells
    with a space (``´`` as a space and an accent, ``ﷺ`` as four words)."""
    code = ord(character)
    if 0x3131 <= code <= 0x318E or 0xFFA0 <= code <= 0xFFDC:
        return False
    folded = unicodedata.normalize("NFKC", character)
    if folded == unicodedata.normalize("NFC", character):
        return False
    return not (" " in folded and folded.strip())


@functools.cache
def _compat() -> tuple[str, str]:
    """The compatibility characters (:func:`_is_compat`) as two classes: exactly those of
    plane 0 (``re`` makes a class of plane 0 alone a bitmap, scanned at C speed), and a few
    whole blocks above it (math letters, enclosed letters: one such range makes ``re`` test
    every character against each range of the class in turn, three times slower, so only text
    holding a character above plane 0 is scanned for them). A character of those blocks that
    NFKC leaves alone is left alone."""
    codes = [
        code
        for code in range(0x30000)
        if unicodedata.decomposition(chr(code))
        and _is_compat(chr(code))
        and chr(code) not in _FIXED_SPACES  # folded by a translate first, _AS_SPACE
    ]
    return (
        _ranges([code for code in codes if code < 0x10000]),
        _ranges([code for code in codes if code >= 0x10000], gap=0x400),
    )


@functools.cache
def _compat_re() -> re.Pattern[str]:
    """A compatibility character (:func:`_compat`)."""
    return re.compile(f"[{''.join(_compat())}]")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@functools.cache
def _marks() -> str:
    """The marks of plane 0 (categories ``M*``) as the ranges of a class."""
    return _ranges(
        [code for code in range(0x300, 0x10000) if unicodedata.category(chr(code))[0] == "M"]
    )


# The sound marks written apart from their kana: half-width ``ﾞ ﾟ`` and the spacing full-width
# ``゛ ゜``. After a kana they voice it (``カﾞ`` and ``カ゛`` read ``ガ``), as the combining marks
# U+3099 and U+309A do, into which they are folded; NFKC alone spells ``゛`` as a space and a
# mark, and composes ``ﾞ`` only with a kana of its own stretch.
_SOUND_MARKS = "\uff9e\uff9f\u309b\u309c"
_FIXED_SPACES = (
    "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
"""The no-break, em, narrow, math and ideographic spaces, each of which NFKC spells as a
space whatever stands beside it: one C-speed translate folds them all, never a stretch each
(text of CJK and no-break spaces, typed by some input methods, is full of them)."""
_AS_SPACE = str.maketrans(dict.fromkeys(_FIXED_SPACES, " "))
_FIXED_SPACE_RE = re.compile(f"[{_FIXED_SPACES}]")
_VOICING = str.maketrans(dict(zip(_SOUND_MARKS, "\u3099\u309a\u3099\u309a", strict=True)))
_SOUND_MARK_RE = re.compile(f"[{_SOUND_MARKS}]")
# A stretch of text search_form changes after NFC (a Greek word with its accents, a run of
# half-width kana, a ligature …) with the marks on it: most text has none, and costs one
# C-speed scan.
_STRETCH = 64
"""Characters of a changed stretch folded at once, at most (and the marks on the last): a
highlight in it maps back by folding its characters one by one, which costs little that way."""


_WRAPPED = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3005-\u3007"
    "\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3040-\u312f\u31a0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
)
"""The characters of the unspaced scripts (:data:`UNSPACED_SCRIPTS`) a hard wrap falls between:
Thai, Lao, Myanmar, Khmer, Han, kana (``ー`` and ``々`` too), Bopomofo, Yi, half-width
katakana. A line break between two of them, with the indent of the next line, is no word break
to a reader (an editor's fill column, a Markdown formatter's prose wrap cut the run there):
search_form leaves it out, so ``喝\n咖啡`` is found by ``喝咖啡``. Not Hangul: Korean is
written with spaces between words, so an editor wraps it at a space (``안녕\n하세요`` is two
words)."""
_FILLED = 20
"""The characters a line holds at least when a fill column ended it (:func:`_wraps`; its indent
and list marker count, its line end and one blank before it do not): no editor
or formatter fills narrower than 40 columns (Emacs's 70, Vim's and Prettier's 80), 20 characters
of Chinese or Japanese, which take two columns each. A shorter line is one its writer ended:
an entry of its own (a name, ``张三`` over ``李四``), never a word cut in two."""
_BLOCK = r"[ \t]*(?:#{1,6}[ \t]|>|\||```|~~~)"
_ITEM = r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]"


@functools.cache
def _break_re() -> re.Pattern[str]:
    """A hard wrap's span where the line before reads as one (:func:`_wraps`): the line break
    (one blank or carriage return before it too) ending a line of :data:`_FILLED` characters or
    more before that blank or carriage return (a file's line ends never change what is joined),
    after a :data:`_WRAPPED` character, with the next line's indent, before another, not
    a mark: a mark opening a line (a sound mark written apart, ``ﾞ ゛``, or a combining one)
    makes its stretch take the character before it (:func:`_folded_stretches`), here the break,
    and a wrap there would overlap that stretch and throw every later mark off. Each way it
    starts is a literal character (a blank, a line break), looking a fixed width behind, so the
    engine skips to where a line ends at C speed."""
    wrapped, marks = f"[{_WRAPPED}]", f"[{_marks()}{_SOUND_MARKS}]"
    ends = "|".join(
        f"(?<={wrapped}{end}\n)(?<=[^\n]{{{_FILLED}}}{end}\n)"
        for end in ("", "[ \t]", "\r", "[ \t]\r")
    )
    return re.compile(rf"(?:\n| \r?\n|\t\r?\n|\r\n)(?:{ends})[ \t]*(?={wrapped})(?!{marks})")


@functools.cache
def _not_going_on_re() -> re.Pattern[str]:
    """A line that is no paragraph going on (a heading, a blockquote or table line, a fence;
    a list item's line when the next is not indented into it), up to its last
    :data:`_WRAPPED` character before a line break :func:`_break_re` may find: its end is
    where the break after it starts."""
    wrapped = f"[{_WRAPPED}]"
    return re.compile(
        rf"^(?:{_BLOCK}|{_ITEM}(?=[^\n]*\n(?![ \t])))[^\n]*{wrapped}(?=[ \t]?\r?\n[ \t]*{wrapped})",
        re.MULTILINE,
    )


_BREAK_HINT = re.compile(f"\n[ \t]*(?=[{_WRAPPED}])")
"""A line break before a :data:`_WRAPPED` character: a text with none has no wrap (a literal
the engine finds at C speed; text in other scripts is read no further)."""
_JOINED = "\x00"
"""What ends a line that is no paragraph going on for a moment (:func:`_without_wraps`), so no
wrap is found after it; never in a text it is used on."""


_CODE_HINT = re.compile(r"```|~~~|(?:^|\n)(?: {4}| {0,3}\t)", re.ASCII)
"""A fence's marker, or a line indented four columns (a tab reaches them): a text that may hold
code, whose lines are never joined as a wrap."""


def _wraps(text: str) -> Iterator[tuple[int, int]]:
    """The spans of ``text`` search_form leaves out as hard wraps, in order: the line break (and
    one blank before it) between two :data:`_WRAPPED` characters, with the next line's indent,
    where a fill column cut a paragraph's line (:func:`_break_re`). CommonMark is the rule: the
    line before goes on as a paragraph, so never after a heading, a blockquote or table line, a
    fence, nor after a list item's line when the next line is not indented into it
    (``- 张三\n李四``: two runs, :func:`_not_going_on_re`), nor at a hard line break (two
    blanks before it), nor before a mark (:func:`_break_re`), nor between two lines of code, a
    fence's or an indented block's (:func:`~memory_core.markdown.code_lines`, looked for only
    in a text holding a fence's marker or a line indented four columns, :data:`_CODE_HINT`).
    And a fill column cuts only a line that reached it: a line shorter than :data:`_FILLED`
    characters was ended by its writer (``张三\n李四``, a name a line), its break is no wrap.
    Linear: each pattern scans the text once."""
    if _BREAK_HINT.search(text) is None:
        return
    code: list[bool] = []
    if _CODE_HINT.search(text):
        code = code_lines([row.removesuffix("\r") for row in text.split("\n")])
    ended = {found.end() for found in _not_going_on_re().finditer(text)}
    line = done = 0  # the line a wrap ends, and the text counted up to
    for found in _break_re().finditer(text):
        start = found.start()
        if start in ended:
            continue
        if code:
            line, done = line + text.count("\n", done, start), start
            if code[line] or code[line + 1]:
                continue
        yield start, found.end()


def _without_wraps(text: str) -> str:
    """``text`` with its hard wraps (:func:`_wraps`) left out: in a text with no code and no
    :data:`_JOINED`, by two substitutions at C speed (the lines that are no paragraph going on
    marked at their end, then every wrap left out), never a step per line in Python."""
    if _BREAK_HINT.search(text) is None:
        return text
    if _JOINED in text or _CODE_HINT.search(text):
        wraps = list(_wraps(text))
        ends = [0, *(end for _, end in wraps)]
        starts = [*(start for start, _ in wraps), len(text)]
        return "".join(map(text.__getitem__, map(slice, ends, starts)))
    marked = _not_going_on_re().sub(f"\\g<0>{_JOINED}", text)
    return _break_re().sub("", marked).replace(_JOINED, "")


@functools.cache
def _changed_re(astral: bool) -> re.Pattern[str]:
    """The pattern of the stretches search_form changes in a text of plane 0 alone, or in one
    holding a character above it (``astral``)."""
    compat, compat_astral = _compat()
    spelled = _spelled_as()
    plane_0 = "".join(letter for letter in spelled if letter < "\U00010000")
    changes = f"{_left_out()}\u0370-\u03ff\u1f00-\u1fff{compat}{plane_0}{_SOUND_MARKS}"
    if astral:
        changes += compat_astral + "".join(letter for letter in spelled if letter >= "\U00010000")
    marks = _marks()
    return re.compile(f"[{changes}][{changes}{marks}]{{0,{_STRETCH - 1}}}[{marks}{_SOUND_MARKS}]*")


def _changed_in(text: str) -> re.Pattern[str]:
    """The pattern of the stretches search_form changes, for ``text``."""
    return _changed_re(astral=_ASTRAL.search(text) is not None)


@functools.cache
def _cluster() -> re.Pattern[str]:
    """One character and the marks on it (a half-width sound mark too): what a highlight
    never splits."""
    return re.compile(f"(?s:.)[{_marks()}{_SOUND_MARKS}]*")


def _fold_stretch(stretch: str) -> str:
    """A changed stretch in its search form (see :func:`search_form`)."""
    if _SOUND_MARK_RE.search(stretch):  # on the kana before: カﾞ, カ゛ and ｶﾞ are ガ
        stretch = unicodedata.normalize("NFC", stretch.translate(_VOICING))
    if _compat_re().search(stretch):
        stretch = unicodedata.normalize("NFKC", stretch)
    stretch = _left_out_re().sub("", stretch)
    if _GREEK.search(stretch):
        bare = _GREEK_ACCENTS.sub("", unicodedata.normalize("NFD", stretch))
        stretch = unicodedata.normalize("NFC", bare)
    spelled_as = _spelled_as()
    return _spelled_re().sub(lambda spelled: spelled_as[spelled.group()], stretch)


def _changed(found: re.Match[str]) -> str:
    return _fold_stretch(found.group())


def _spaced(text: str) -> str:
    """``text`` with its fixed-width spaces as spaces (:data:`_AS_SPACE`), of the same
    length: a position in one is the same in the other."""
    return text.translate(_AS_SPACE) if _FIXED_SPACE_RE.search(text) else text


def _stretches(text: str) -> Iterator[tuple[int, int, bool]]:
    """The spans of ``text`` (in NFC) that :func:`search_form` changes, in order, each with
    whether it is a hard wrap (:func:`_wraps`, left out) rather than a stretch of
    :func:`_changed_in` (folded; one that starts with a sound mark takes the character before
    it too, the kana it voices). The two never overlap: a wrap is blanks and a line break,
    which no stretch holds, and none comes before a sound mark (:func:`_break_re`), whose
    stretch would take the break."""
    wraps = ((*span, True) for span in _wraps(text))  # an NBSP is no wrap's blank
    return heapq.merge(_folded_stretches(_spaced(text)), wraps)


def _folded_stretches(text: str) -> Iterator[tuple[int, int, bool]]:
    """The stretches of :func:`_stretches` that are folded (no hard wraps)."""
    done = 0
    for found in _changed_in(text).finditer(text):
        start = found.start()
        if start > done and text[start] in _SOUND_MARKS:
            start -= 1
        yield start, found.end(), False
        done = found.end()


def search_form(text: str) -> str:
    """``text`` as search compares it (see the module doc): NFC, compatibility characters
    folded as NFKC folds them (half-width kana, ligatures, ``㍿``, ``①``, ``²``, ``𝐀``,
    full-width Latin), the marks a reader may leave out and in-word rendering hints dropped,
    Greek accents too (as unicode61 drops Latin ones), ``ß`` as ``ss``, ``ё`` as ``е``,
    Turkish ``ı`` as ``i``, katakana as hiragana (see :func:`_spelled_as`).

    >>> search_form("Straße, Ёжик, مُحَمَّد, Donau\\u00addampf, Οδυσσέας, ＡＰＩキー")
    'Strasse, Ежик, محمد, Donaudampf, Οδυσσεας, APIきー'
    >>> search_form("ｶﾞｲﾄﾞ, ﬁle, ㍿, ①, x², 𝐀, Kırmızı")
    'がいど, file, 株式会社, 1, x2, A, Kirmizi'
    >>> search_form("カﾞイド, ハﾟン, カ゛イド") == "がいど, ぱん, がいど"
    True
    """
    if text.isascii():
        return text  # no ASCII character changes: the common case, at C speed
    text = unicodedata.normalize("NFC", text)
    if _SOUND_MARK_RE.search(text) is not None:
        return _form_with_map(text)[0]  # a sound mark's stretch takes the kana before it
    text = _spaced(_without_wraps(text))  # no stretch holds a blank or line break
    return _changed_in(text).sub(_changed, text)


@dataclass(slots=True)
class _FormMap:
    """Where the characters of a text's search form stand in the text: ``stretches`` holds,
    per changed stretch, ``(form start, form end, text start, text end)``; the form between
    them is the text, shifted. Inside a stretch each character (with its marks) maps on its
    own, worked out when a match needs it."""

    text: str
    stretches: list[tuple[int, int, int, int]]
    starts: list[int]
    units: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)

    def _units(self, index: int) -> list[tuple[int, int, int, int]]:
        """The spans of each character of stretch ``index``; the whole stretch as one when
        it does not fold as its characters one by one do."""
        known = self.units.get(index)
        if known is not None:
            return known
        form_start, form_end, text_start, text_end = self.stretches[index]
        units, length = [], form_start
        for cluster in _cluster().finditer(self.text, text_start, text_end):
            folded = len(_fold_stretch(cluster.group()))
            units.append((length, length + folded, cluster.start(), cluster.end()))
            length += folded
        if length != form_end:
            units = [self.stretches[index]]
        self.units[index] = units
        return units

    def _place(self, at: int, start: bool) -> int:
        index = bisect.bisect_right(self.starts, at) - 1
        if index < 0:
            return at + (0 if start else 1)
        _, form_end, _, text_end = self.stretches[index]
        if at >= form_end:
            return text_end + at - form_end + (0 if start else 1)
        for _, unit_end, unit_start, unit_text_end in self._units(index):
            if at < unit_end:
                return unit_start if start else unit_text_end
        return text_end

    def start(self, at: int) -> int:
        """The text position of form position ``at`` as a match's start (a character the
        form spells as several begins there)."""
        return self._place(at, start=True)

    def end(self, at: int) -> int:
        """The text position of form position ``at`` as a match's end (after the whole
        character the form's last matched character comes from)."""
        return 0 if at <= 0 else self._place(at - 1, start=False)


def _form_with_map(text: str) -> tuple[str, _FormMap | None]:
    """:func:`search_form` of ``text`` (in NFC, as stored) and where its characters stand in
    ``text`` (None: the same text)."""
    if text.isascii():
        return text, None
    pieces: list[str] = []
    stretches: list[tuple[int, int, int, int]] = []
    done = length = 0
    stretched = _stretches(text)
    text = _spaced(text)  # what is folded, position for position
    for start, end, wrap in stretched:
        pieces.append(text[done:start])
        length += start - done
        whole = "" if wrap else _fold_stretch(text[start:end])
        stretches.append((length, length + len(whole), start, end))
        length += len(whole)
        pieces.append(whole)
        done = end
    if not stretches:
        return text, None
    pieces.append(text[done:])
    return "".join(pieces), _FormMap(text, stretches, [span[0] for span in stretches])


def _fold(word: str) -> str:
    """A word as the tokenizer compares it: Latin accents removed, case folded."""
    return unicodedata.normalize(
        "NFC", _FOLDED.sub("", unicodedata.normalize("NFD", word))
    ).casefold()


@functools.cache
def _accented() -> dict[str, str]:
    """Each letter a query word is folded to and the letters written for it that fold to it:
    the precomposed Latin letters (``u``: ``ùúûü…``), the accented Greek ones (``ο``: ``όὀὸ…``)
    and the full-width forms (``a``: ``ａＡ``; ``1``: ``１``)."""
    found: dict[str, str] = {}
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        folded = _fold(chr(code))
        if len(folded) == 1 and folded.isascii() and folded.isalpha():
            found[folded] = found.get(folded, "") + chr(code)
    for code in [*range(0x370, 0x400), *range(0x1F00, 0x2000)]:
        folded = _fold(search_form(chr(code)))
        if len(folded) == 1 and folded.isalpha() and folded != chr(code).casefold():
            found[folded] = found.get(folded, "") + chr(code)
    for code in range(0xFF10, 0xFF5B):
        folded = chr(code - 0xFEE0).casefold()
        if folded.isalnum():
            found[folded] = found.get(folded, "") + chr(code)
    return found


def _pieces(run: str) -> str:
    if len(run) == 1:
        return f" {run} "
    pairs = " ".join(run[i : i + 2] for i in range(len(run) - 1))
    return f" {pairs} {run[-1]} "


def _cluster_pairs(clusters: list[str]) -> list[str]:
    """The indexed pieces of an Indic word's clusters: each with the next, joined by
    :data:`_JOINS`, and the last with the joiner alone (``प्रधानमंत्री`` →
    ``प्र\\ue000धा धा\\ue000न न\\ue000मं मं\\ue000त्री त्री\\ue000``)."""
    following = [*clusters[1:], ""]
    return [cluster + _JOINS + after for cluster, after in zip(clusters, following, strict=True)]


def _indic_pieces(found: re.Match[str]) -> str:
    return " " + " ".join(_cluster_pairs(CLUSTER.findall(found.group()))) + " "


@functools.cache
def _fast_indic() -> re.Pattern[str]:
    """:data:`_INDIC_RUN` for the standard ``re`` module (their blocks lie in plane 0)."""
    every = "".join(map(chr, range(0x10000)))
    ranges = [(found.start(), found.end() - 1) for found in _INDIC_RUN.finditer(every)]
    members = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    return re.compile(f"[{members}]+")


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


# Where an identifier's words meet: camelCase, PascalCase, an acronym before a word (ASCII:
# code identifiers are).
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# The capital starting a word inside an identifier; a capital first is 6x faster to scan for.
_CAMEL_AT = re.compile(r"[A-Z](?:(?<=[a-z0-9][A-Z])|(?<=[A-Z]{2})(?=[a-z]))")


def _ascii_alnum(character: str) -> bool:
    return character.isascii() and character.isalnum()


def _with_parts(text: str) -> str:
    """``text`` with each camelCase identifier followed by its words (one C-speed scan for
    text without one)."""
    out: list[str] = []
    done = 0
    for meet in _CAMEL_AT.finditer(text):
        if meet.start() < done:
            continue  # another meeting in a word already done
        start, end = meet.start(), meet.end()
        while start > done and _ascii_alnum(text[start - 1]):
            start -= 1
        while end < len(text) and _ascii_alnum(text[end]):
            end += 1
        out.append(text[done:end])
        out.append(" " + " ".join(_CAMEL_SPLIT.split(text[start:end])))
        done = end
    out.append(text[done:])
    return "".join(out)


# Arabic writes its proclitics — و ف ("and", "so"), ب ك ل ("with", "as", "for") — and the
# article ال onto the word: والنشر is "and the publishing". A word holding the article is
# indexed with its parts too (النشر, نشر), and a query word is found after them; after ل
# the article's alef is not written (للنشر, "for the publishing": نشر). Only before the
# article: a word that merely starts with one of those letters (بيت, كتاب) is never split.
_PROCLITICS = "[وف]?[بكل]?"
_ARABIC_LETTER = "[\u0621-\u064a\u066e\u066f\u0671-\u06d3\u06d5\u06ee\u06ef\u06fa-\u06fc\u06ff]"
_ARABIC_LETTER_RE = re.compile(_ARABIC_LETTER)
_WITH_ARTICLE = re.compile(rf"(?<![^\W_])(?:({_PROCLITICS})ال|[وف]?لل)({_ARABIC_LETTER}{{2,}})")
_ARABIC_PREFIX = re.compile(f"{_PROCLITICS}(?:ال)?|[وف]?لل")


def _with_arabic_parts(text: str) -> str:
    """``text`` with each Arabic word holding the article followed by its parts without the
    proclitics and without the article (``والنشر`` → ``والنشر النشر نشر``, ``للنشر`` →
    ``للنشر نشر``)."""

    def parts(found: re.Match[str]) -> str:
        clitics, stem = found.groups()
        return f"{found.group()} {'ال' + stem + ' ' if clitics else ''}{stem}"

    return _WITH_ARTICLE.sub(parts, text)


AS_TYPED = "\ue001"
"""Marks the token of an Arabic word as written (:func:`_typed_words`): a private-use
character, a word character to the tokenizer, never typed into a query."""
_ARABIC_WORD_RE = re.compile(f"{_ARABIC_LETTER}+")


def _typed_words(text: str, formed: str) -> str:
    """The Arabic words of ``text`` (``formed``: its search form) that hold a letter an Arabic
    fold merges or merges onto (:data:`_FOLD_TARGET_RE`), as written (the search form with
    the letters of :data:`_MERGING` kept, :func:`_unmerged_form`), with their parts after the
    article, each marked by :data:`AS_TYPED`, joined by spaces; ``""`` for none.

    The tokenizer indexes the folded word (``على`` as ``علي``), which finds every spelling; these
    tokens find the word as it is written, so the files holding a query word as typed are
    fetched first (:meth:`Query.as_typed`) and rank first by the same fold the ranker
    applies (:attr:`Match.loose`), however many files write it otherwise.

    >>> _typed_words("نام على الكرسي", search_form("نام على الكرسي"))
    '\ue001نام \ue001على \ue001الكرسي \ue001كرسي'
    """
    unmerged = _unmerged_form(text, formed.replace(_ZWNJ, ""))
    if "ال" in unmerged or "لل" in unmerged:
        unmerged = _with_arabic_parts(unmerged)
    return " ".join(
        AS_TYPED + word
        for word in _ARABIC_WORD_RE.findall(unmerged)
        if _FOLD_TARGET_RE.search(word) is not None
    )


def _after_arabic_prefix(text: str, at: int) -> bool:
    """Whether ``text[at]`` starts a word's part after its Arabic proclitics or article
    (``والنشر``: ``النشر`` at 1, ``نشر`` at 3), the word holding the article."""
    if _ARABIC_LETTER_RE.match(text, at) is None:
        return False
    for length in range(1, 5):
        start = at - length
        if start < 0 or (start and _in_word(text[start - 1])):
            continue
        prefix = text[start:at]
        if _ARABIC_PREFIX.fullmatch(prefix) and (
            prefix.endswith(("ال", "لل")) or text.startswith("ال", at)
        ):
            return True
    return False


def _with_zwnj_joined(text: str) -> str:
    """``text`` with each word a zero-width non-joiner parts followed by its parts written
    together (``می\u200cخواهم`` → ``می\u200cخواهم میخواهم``): found by its parts, by the word
    typed without the joiner, and (the query's joiners left out, :func:`parse_query`) with it."""
    return _ZWNJ_JOINED.sub(
        lambda found: f"{found.group()} {found.group().replace(_ZWNJ, '')}", text
    )


# Hebrew writes its prefixes onto the word: ה ("the"), ו ("and"), ב ל מ כ ("in", "to", "from",
# "as") and ש ("that"), up to three of them (וכשה…, ושב…): הקפה is "the coffee", ובבית "and in
# the house". A word of three or more letters starting with them is indexed with each of its
# ends after one, two or three of them too (הקפה as הקפה קפה), and a query word is found after
# them, so קפה finds הקפה and מהקפה. Unlike Arabic's article, no prefix tells itself apart from
# a word's own first letter: a word starting with one (מכונה) is indexed with such an end
# too (כונה), which only a query for that end finds.
_HEBREW_PREFIX = "והבכלמש"
_HEBREW_LETTER = "\u05d0-\u05ea"
_HEBREW_PREFIXED = re.compile(
    rf"(?<![^\W_])[{_HEBREW_PREFIX}]{{1,3}}[{_HEBREW_LETTER}]{{2,}}(?![^\W_])"
)
_HEBREW_LETTER_RE = re.compile(f"[{_HEBREW_LETTER}]")


def _with_hebrew_parts(text: str) -> str:
    """``text`` with each Hebrew word that starts with prefixes followed by its ends after one,
    two and three of them, of two letters or more after one and three or more after more
    (``הקפה`` → ``הקפה קפה``, ``ובבית`` → ``ובבית בבית בית``)."""

    def parts(found: re.Match[str]) -> str:
        word = found.group()
        ends = [word]
        for cut in range(1, 4):
            if len(word) - cut < (2 if cut == 1 else 3) or word[cut - 1] not in _HEBREW_PREFIX:
                break
            ends.append(word[cut:])
        return " ".join(ends)

    return _HEBREW_PREFIXED.sub(parts, text)


def _after_hebrew_prefix(text: str, at: int) -> bool:
    """Whether ``text[at]`` starts a Hebrew word's end after one to three prefixes at the
    word's start (``הקפה``: ``קפה`` at 1; ``ובבית``: ``בית`` at 2)."""
    if _HEBREW_LETTER_RE.match(text, at) is None:
        return False
    for length in range(1, 4):
        start = at - length
        if start < 0 or text[start] not in _HEBREW_PREFIX:
            return False
        if not (start and _in_word(text[start - 1])):
            return True
    return False


def index_text(text: str) -> str:
    """The text FTS5 indexes for ``text``: every unspaced run as its pieces, and each
    camelCase identifier followed by its words, so a part of it is found too (see the module
    doc).

    >>> index_text("用户周末 deploy")
    ' 用户 户周 周末 末  deploy'
    >>> index_text("call getUserName on HTTPServer")
    'call getUserName get User Name on HTTPServer HTTP Server'
    """
    formed = search_form(text)
    if _ZWNJ in formed:
        formed = _with_zwnj_joined(formed)
    pieced = _fast_run().sub(lambda found: _pieces(found.group()), formed)
    if not pieced.isascii():
        pieced = _fast_indic().sub(_indic_pieces, pieced)
    if _SYMBOL.search(pieced) is not None:
        pieced = _SYMBOL.sub(r" \g<0> ", pieced)  # each a word of its own
    if "ال" in pieced or "لل" in pieced:
        pieced = _with_arabic_parts(pieced)
    if _HEBREW_LETTER_RE.search(pieced) is not None:
        pieced = _with_hebrew_parts(pieced)
    if _ARABIC_LETTER_RE.search(formed) is not None and (typed := _typed_words(text, formed)):
        return f"{_with_parts(pieced)} {typed}"
    return _with_parts(pieced)


def visible_text(text: str) -> str:
    """What search indexes and matches of a text as written: what a person sees, each run of
    hidden characters (I-9) left out, so ``pass\\u200bword`` is ``password`` and a word spelt
    by tag characters, or a ``[hidden: …]`` mark, is nowhere to be found, and Markdown read as
    rendered (S-2, :func:`~.search_markup.reader_form`: ``[成语](https://x)接龙`` is
    ``成语接龙``, its link target kept after the text). The marks are put in only where an
    answer shows the text (:func:`shown_matches`)."""
    return reader_form(without_hidden(text)[0])[0]


@dataclass(frozen=True, slots=True)
class Shown:
    """A text as an answer shows it (:func:`shown_matches`): ``text`` with its ``[hidden: …]``
    marks, ``found`` the matches in it, ``marks`` the ``(start, end)`` of each mark in it."""

    text: str
    found: list[Match]
    marks: list[tuple[int, int]]


def shown_matches(text: str, query: Query) -> Shown:
    """``text`` (as written) as an answer shows it, each run of hidden characters (I-9) as its
    ``[hidden: …]`` mark, and where ``query`` matched in it: found in :func:`visible_text`,
    as indexed, each place moved past the marks before it. A mark where a match starts or ends
    stays outside it; one inside a match (``password`` finds ``pass\\u200bword``) is marked
    with it. A match across Markdown left out (``成语接龙`` in ``[成语](https://x)接龙``, S-2)
    marks the characters shown, one :class:`Match` a piece (the pieces after the first
    :attr:`Match.part`); all in the order of the text as written."""
    visible, marks = without_hidden(text)
    read, pieces = reader_form(visible)
    found = matches(read, query)
    if pieces is not None:
        found = _as_written(found, pieces)
    if not marks:
        return Shown(text, found, [])
    places = [place for place, _ in marks]
    before = [0]  # before[i]: the characters of the first i marks
    for _, mark in marks:
        before.append(before[-1] + len(mark))
    shown: list[str] = []
    done = 0
    for place, mark in marks:
        shown += (visible[done:place], mark)
        done = place
    shown.append(visible[done:])

    def moved(match: Match) -> Match:
        start = match.start + before[bisect.bisect_right(places, match.start)]
        end = match.end + before[bisect.bisect_left(places, match.end)]
        return dataclasses.replace(match, start=start, end=end)

    spans = [(place + before[i], place + before[i + 1]) for i, place in enumerate(places)]
    return Shown("".join(shown), [moved(match) for match in found], spans)


def _as_written(found: list[Match], pieces: Pieces) -> list[Match]:
    """``found`` (in a text's reader form) in the text as written, a match split where
    markup was left out, sorted by where they start (a moved link target's among them)."""
    placed = []
    for match in found:
        for number, (start, end) in enumerate(pieces.spans(match.start, match.end)):
            placed.append(dataclasses.replace(match, start=start, end=end, part=number > 0))
    placed.sort(key=lambda match: match.start)
    return placed


def field_length(text: str) -> int:
    """The length of a field for BM25: about its words plus the characters of its unspaced
    runs (each run also counts as one word: a length norm needs no more precision)."""
    return len(_ROUGH_WORD.findall(text)) + sum(map(len, _fast_run().findall(text)))


@dataclass(frozen=True, slots=True)
class Term:
    """One thing every hit must hold: ``words`` in a row (as typed), or ``run`` as a substring.

    ``prefix``: the last word may be the start of a longer word (search as you type).
    ``identifier``: the words as typed in one snake_case or camelCase identifier
    (``user_name``), which ranks the hits holding it exactly first; else empty.
    """

    words: tuple[str, ...] = ()
    run: str = ""
    prefix: bool = False
    identifier: str = ""
    signs: str = ""
    """The signs typed right after the word, ending it (``#`` of ``C#``, ``++`` of ``C++``): a
    name written so (a language's); the word is then whole, no prefix, and ``identifier`` is
    the word with its signs, which ranks the hits holding it so first and is marked whole."""
    clusters: bool = False
    """``run`` is of an Indic script: found where it starts and ends on cluster boundaries."""
    symbols: bool = False
    """``run`` is of symbols glued together (an emoji ZWJ sequence, ``👩‍💻``, is its emoji in a
    row once its joiners are left out): found as those symbols in a row, each a word."""
    open_end: bool = False
    """``run`` ends in a Hangul syllable still being typed (:func:`_open_syllable`; only in a
    query still being typed, ``typing``): that syllable is found with any final consonant
    (``한구`` finds ``한국``), a match so is loose (:attr:`Match.loose`)."""
    whole: tuple[str, ...] = ()
    """``words`` with each camelCase piece whole, as typed (``GitHub`` of ``Git Hub``), when a
    piece was split: a note writing the word in any case (``github``) holds the term too, so
    a camelCase reading only adds hits (S-2); else empty."""
    typed: str = ""
    """The word as typed when it holds a letter an Arabic fold merges (:data:`_MERGING`) or
    merges onto (``على``, whose form is ``علي``, or ``علي`` itself): a match that writes one
    of those letters otherwise is loose (:attr:`Match.loose`); else empty."""

    @property
    def fts(self) -> str:
        """This term in FTS5 query syntax (a quoted phrase; ``*`` for a prefix; a group of
        phrases, one per final consonant, for an open Hangul syllable)."""
        if self.open_end:
            return (
                "("
                + " OR ".join(_with_run(self, ending).fts for ending in _endings(self.run[-1]))
                + ")"
            )
        if self.symbols:
            return '"' + " ".join(_SYMBOL.findall(self.run)) + '"'
        if self.clusters:
            pairs = _cluster_pairs(CLUSTER.findall(self.run))
            if len(pairs) == 1:
                return f'"{pairs[0]}"*'  # the pairs starting with the cluster, the last one too
            return '"' + " ".join(pairs[:-1]) + '"'
        if self.run:
            if len(self.run) == 1:
                return f'"{self.run}"*'
            return '"' + " ".join(self.run[i : i + 2] for i in range(len(self.run) - 1)) + '"'
        star = "*" if self.prefix else ""
        phrase = '"' + " ".join(self.words) + '"' + star
        if self.whole:  # the word as typed, any case, or its camelCase words in a row
            return '("' + " ".join(self.whole) + '"' + star + " OR " + phrase + ")"
        return phrase


_HANGUL_FIRST, _HANGUL_LAST, _FINALS = 0xAC00, 0xD7A3, 28


_HANGUL_TYPING = re.compile("(?<=[\uac00-\ud7a3])[\u3131-\u314e]+$")
"""Consonants typed alone after a query's last syllable (``한ㄱ`` on the way to ``한국``): the
start of a syllable the input method has not made yet, left out."""


def _open_syllable(char: str) -> bool:
    """Whether ``char`` is a Hangul syllable without a final consonant (``구``, not ``국``):
    as a query's last character it may be a syllable still being typed, which the input method
    shows before its final consonant (``한국`` is typed through ``한구``), as a word's start is
    its prefix."""
    point = ord(char)
    return _HANGUL_FIRST <= point <= _HANGUL_LAST and (point - _HANGUL_FIRST) % _FINALS == 0


def _endings(syllable: str) -> list[str]:
    """The open Hangul ``syllable`` and the 27 syllables it makes with a final consonant."""
    return [chr(ord(syllable) + final) for final in range(_FINALS)]


def _with_run(term: Term, last: str) -> Term:
    """``term`` with its run's last character ``last``, closed."""
    return dataclasses.replace(term, run=term.run[:-1] + last, open_end=False)


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: its terms, all required; ``fts`` the FTS5 MATCH expression."""

    terms: tuple[Term, ...]

    @property
    def fts(self) -> str:
        """Every term, all required (an AND: a group of phrases may stand among them)."""
        return " AND ".join(term.fts for term in self.terms)

    def as_typed(self) -> Query:
        """This query with no Korean syllable opened (:attr:`Term.open_end`) and each Arabic
        word that an Arabic fold may match loosely (:attr:`Term.typed`) asked for as written
        (its :data:`AS_TYPED` token, :func:`_typed_words`): what it finds is written as typed
        (the candidates holding it are fetched first, S-2)."""
        return Query(tuple(_as_typed_term(term) for term in self.terms))

    def in_column(self, index: int, column: str) -> str:
        """FTS5 syntax for term ``index`` found in ``column`` (for its document frequency)."""
        return f"{{{column}}} : {self.terms[index].fts}"


def _as_typed_term(term: Term) -> Term:
    """``term`` as :meth:`Query.as_typed` asks for it."""
    term = dataclasses.replace(term, open_end=False)
    if term.typed and len(term.words) == 1:
        return dataclasses.replace(term, words=(AS_TYPED + term.typed,), typed="")
    return term


def parse_query(text: str, *, typing: bool = False) -> Query | None:
    """The user's words as a :class:`Query`, each distinct term once; None when ``text``
    holds no word.

    ``typing``: ``text`` is a query still being typed (the web page's search box as it
    changes, S-1): a Korean last syllable without a final consonant is then open (an input
    method shows ``한구`` on the way to ``한국``) and consonants typed alone after it are left
    out. A query typed in full (the API's default) finds only what it says: ``공부`` never
    finds ``공분``.

    Never FTS5 syntax from the user: quotes, operators, column names and stars are just text.
    A piece of marks with no letter or digit (a lone combining accent, a variation selector)
    is no word: left out.

    >>> parse_query('deploy "notes').fts
    '"deploy" AND "notes"*'
    >>> parse_query("用Python写代码").fts
    '"用"* AND "Python" AND "写代 代码"'
    >>> parse_query("GitHub pages").fts
    '("GitHub" OR "Git Hub") AND "pages"*'
    >>> parse_query("?!") is None
    True
    >>> parse_query("\\u0301 \\ufe0f") is None
    True
    """
    terms: list[Term] = []
    # a zero-width non-joiner typed in a word joins it: the word is indexed joined too
    form = search_form(text).replace(_ZWNJ, "")
    unmerged = _unmerged_form(text, form)
    for found in _QUERY_WORD.finditer(form):
        word, begin, before = found.group(), 0, len(terms)
        signs = _NAME_SIGNS.match(form, found.end())
        if signs and signs.end() < len(form) and _in_name(form[signs.end()]):
            signs = None  # ``a+b``: a sign between two words, no name
        for piece in _PIECE.finditer(word.replace("_", " ")):
            if (piece.group("word") or piece.group("indic")) and not _BASE_CHAR.search(
                piece.group()
            ):
                continue  # marks alone (a lone vowel sign too): nothing to find
            if piece.group("indic"):
                terms.append(Term(run=piece.group(), clusters=True))
            elif piece.group("symbol"):
                symbols = len(_SYMBOL.findall(piece.group())) > 1
                terms.append(Term(run=piece.group(), symbols=symbols))
            elif piece.group("run"):
                terms.append(Term(run=piece.group()))
            elif terms and terms[-1].words and word_continues(word, piece.start()):
                words, whole = _camel_words(terms.pop(), piece.group())
                terms.append(Term(words, identifier=word[begin : piece.end()], whole=whole))
            else:
                begin = piece.start()
                words, whole = _camel_words(None, piece.group())
                at = found.start() + piece.start()
                typed = unmerged[at : at + len(piece.group())]
                terms.append(
                    Term(
                        words=words,
                        identifier=piece.group() if len(words) > 1 else "",
                        whole=whole,
                        typed=typed if _FOLD_TARGET_RE.search(typed) else "",
                    )
                )
        if signs and len(terms) > before and terms[-1].words:  # the word ends in a word piece
            named = terms.pop()
            typed = (named.identifier or "".join(named.words)) + signs.group()
            terms.append(dataclasses.replace(named, identifier=typed, signs=signs.group()))
    if not terms:
        return None
    last = terms[-1]
    if last.words and not last.signs:
        terms[-1] = dataclasses.replace(last, prefix=True)
    elif not typing:
        pass  # typed in full: its last syllable is as written
    elif last.run and _HANGUL_TYPING.search(last.run):
        last = dataclasses.replace(last, run=_HANGUL_TYPING.sub("", last.run))
        terms[-1] = dataclasses.replace(last, open_end=_open_syllable(last.run[-1]))
    elif last.run and _open_syllable(last.run[-1]):
        terms[-1] = dataclasses.replace(last, open_end=True)
    return Query(tuple(dict.fromkeys(terms)))  # a word typed twice is one thing to find


def _camel_words(before: Term | None, piece: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of a query identifier once ``piece`` (a word typed after ``before``'s across
    an underscore, or first) is added, each camelCase piece split into its words (``GitHub``:
    ``Git Hub``); and those words with each such piece whole (``GitHub``), or empty when no
    piece was split (S-2)."""
    words = tuple(_CAMEL_SPLIT.split(piece))
    if before is None:
        return words, ((piece,) if len(words) > 1 else ())
    if len(words) == 1 and not before.whole:
        return (*before.words, *words), ()
    return (*before.words, *words), (*(before.whole or before.words), piece)


_MERGING = "\u0622\u0623\u0625\u0671\u0649\u0629"
"""The Arabic letters search folds onto another that spell distinct words with it (``على``
"on" and ``علي`` "Ali", ``كرة`` "ball" and ``كره`` "hatred"): alef with madda, hamza or wasla,
alef maksura, teh marbuta. Found either way, as people type without that precision, but a
hit written as typed ranks first and is the one marked (:attr:`Match.loose`)."""
_MERGING_RE = re.compile(f"[{_MERGING}]")
_FOLD_TARGET_RE = re.compile(f"[{_MERGING}\u0627\u064a\u0647]")
"""A letter of :data:`_MERGING` or one they are folded onto (alef, yeh, heh): a word holding
one is matched loosely where the text writes it otherwise (``كره`` finds ``كرة`` below ``كره``)."""
_KEEP = str.maketrans({letter: chr(0xF000 + index) for index, letter in enumerate(_MERGING)})
_RESTORE = str.maketrans({chr(0xF000 + index): letter for index, letter in enumerate(_MERGING)})


def _unmerged_form(text: str, form: str) -> str:
    """``text`` in its search form (``form``) but with the letters of :data:`_MERGING` as
    written, character for character against ``form``; ``form`` itself when ``text`` holds
    none of them (or when a fold around them changed the length, which no real text does)."""
    if text.isascii() or _MERGING_RE.search(text) is None:
        return form
    kept = search_form(unicodedata.normalize("NFC", text).translate(_KEEP)).replace(_ZWNJ, "")
    kept = kept.translate(_RESTORE)
    return kept if len(kept) == len(form) else form


def _as_typed(written: str, typed: str, prefix: bool) -> bool:
    """Whether ``written`` (a match as the text writes it) spells the merging Arabic letters
    as ``typed`` does (the whole of it, or its start for a prefix)."""
    kept = _unmerged_form(written, search_form(written).replace(_ZWNJ, "")).casefold()
    typed = typed.casefold()
    return kept.startswith(typed) if prefix else kept == typed


def word_continues(word: str, start: int) -> bool:
    """Whether the Latin piece at ``start`` of a query word follows another Latin piece across
    an underscore (``feedback_prefers_uv`` is one phrase of three words, as the tokenizer sees
    the name), not across a run of unspaced characters."""
    return start > 0 and word[start - 1] == "_"


@dataclass(frozen=True, slots=True)
class Match:
    """Where a term matched in a text: characters ``start`` to ``end``; ``term`` its index;
    ``exact``: the term's identifier as typed, neither spelled apart nor part of a longer one;
    ``loose``: found only through an opened Korean syllable or a merging Arabic fold (``공분``
    for ``공부`` typed, ``علي`` for ``على``): such a hit ranks below one written as typed, and
    :func:`matches` marks it only where the term is not found as typed; ``part``: a further
    piece of the match before it, split where Markdown was left out (S-2): counted once."""

    start: int
    end: int
    term: int
    exact: bool = False
    loose: bool = False
    part: bool = False


def matches(text: str, query: Query) -> list[Match]:
    """Every place in ``text`` (as written, in NFC as stored) that one of the query's terms
    matches, in order; at most :data:`MAX_MATCHES` per term (a score saturates long before, a
    snippet shows few). The terms are found in the text's search form, and each place maps
    back onto whole characters of the text (``file`` marks ``ﬁle``, ``株式`` marks ``㍿``)."""
    written = text
    text, places = _form_with_map(written)
    found: list[Match] = []
    indic = any(term.clusters for term in query.terms)
    edges = _cluster_edges(text) if indic else set()
    for number, (pattern, run, prefix) in enumerate(_finders(query)):
        identifier = query.terms[number].identifier.casefold()
        signs = query.terms[number].signs
        count = 0
        if run:  # every place, overlapping ones too (``龙龙`` twice in ``龙龙龙``)
            clusters = query.terms[number].clusters
            for hit in pattern.finditer(text):
                if clusters and not (hit.start() in edges and hit.end(1) in edges):
                    continue  # half of a cluster: a vowel sign or virama split off
                if not _pair_start(text, hit.start()):
                    continue  # the second half of a flag
                loose = query.terms[number].open_end and hit.group(1)[-1] != run[-1]
                found.append(Match(hit.start(), hit.end(1), number, loose=loose))
                count += 1
                if count == MAX_MATCHES:
                    break
            continue
        term = query.terms[number]
        for hit in pattern.finditer(text):
            start, end = hit.span()
            if (
                start
                and _in_word(text[start - 1])
                and not _parts_meet(text, start)
                and not _after_arabic_prefix(text, start)
                and not _after_hebrew_prefix(text, start)
            ):
                continue  # inside a longer word
            exact = (
                bool(identifier)
                and text[start:end].casefold() == identifier
                and not _in_identifier(text, start - 1)
                and not _in_identifier(text, end)
            )
            if prefix:
                rest = _end_of_word(text, end)
                exact = exact and rest == end
                end = rest
            elif end < len(text) and _in_word(text[end]) and not _parts_meet(text, end):
                continue
            if signs:
                exact, end = _with_signs(text, start, end, identifier, signs)
            found.append(
                Match(start, end, number, exact, _loose(written, places, start, end, term))
            )
            count += 1
            if count == MAX_MATCHES:
                break
    if places is not None:  # back onto the text as written, whole characters
        found = [
            dataclasses.replace(m, start=places.start(m.start), end=places.end(m.end))
            for m in found
        ]
    if not written.isascii():
        found = [_whole_graphemes(written, match) for match in found]
    as_typed = {match.term for match in found if not match.loose}
    found = [match for match in found if not (match.loose and match.term in as_typed)]
    found.sort(key=lambda match: (match.start, match.end))
    return found


def _loose(written: str, places: _FormMap | None, start: int, end: int, term: Term) -> bool:
    """Whether a word term's match at ``start:end`` of the search form of ``written`` is
    written otherwise than the term was typed in a letter of :data:`_MERGING`."""
    if not term.typed:
        return False
    if places is not None:
        start, end = places.start(start), places.end(end)
    return not _as_typed(written[start:end], term.typed, term.prefix)


def _pair_start(text: str, at: int) -> bool:
    """Whether ``at`` starts no flag's second half: ``text[at]`` is no regional indicator, or
    an even number of them stands before it (a flag pairs them from the start of the run;
    counted over the 64 characters before, more than any real text holds in a row)."""
    if not 0x1F1E6 <= ord(text[at]) <= 0x1F1FF:
        return True
    before = _REGIONAL_BEFORE.search(text, max(0, at - 64), at)
    return before is None or (before.end() - before.start()) % 2 == 0


def _cluster_edges(text: str) -> set[int]:
    """Where the clusters of each Indic word of ``text`` (a search form) start and end, as
    :func:`index_text` pieces them."""
    edges: set[int] = set()
    for word in _fast_indic().finditer(text):
        edges.update(cluster.start() for cluster in CLUSTER.finditer(text, *word.span()))
        edges.add(word.end())
    return edges


# What goes on a grapheme from before: marks (a half-width sound mark too), joiners, skin tones,
# and Thai and Lao AM (U+0E33, U+0EB3: letters that join as spacing marks do, as hidden-text.js
# counts them): a match from the AM of ``กำลัง`` is marked from its ``ก``.
_EXTENDING = regex.compile(r"[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}\u200d\u0e33\u0eb3]")
_GRAPHEME = regex.compile(r"\X")


def _whole_graphemes(text: str, match: Match) -> Match:
    """``match`` widened to whole user-perceived characters of ``text`` (a mark, a skin tone
    or a joined emoji after its last character, a mark its first character is): a highlight
    never shows half of one (``ด`` marks ``ดื่``, ``👩`` marks ``👩🏽\u200d💻``)."""
    start, end = match.start, match.end
    while start > 0 and (_EXTENDING.match(text, start) or text[start - 1] == "\u200d"):
        start -= 1
    grapheme = _GRAPHEME.match(text, end - 1)
    end = max(end, grapheme.end()) if grapheme else end
    if (start, end) == (match.start, match.end):
        return match
    return dataclasses.replace(match, start=start, end=end)


def _with_signs(text: str, start: int, end: int, typed: str, signs: str) -> tuple[bool, int]:
    """For a term typed with its signs (``C#``) whose word matched ``text[start:end]``: whether
    the signs follow there, as typed and ending the name (``C#``, not ``C#sharp`` or ``C++`` for
    ``C+``), and where the match then ends (after them: the name is marked whole)."""
    after = end + len(signs)
    whole = (
        text[start:after].casefold() == typed
        and not (start and _in_name(text[start - 1]))
        and not (after < len(text) and (_in_name(text[after]) or text[after] in "#+"))
    )
    return whole, after if whole else end


def _in_name(character: str) -> bool:
    """Whether ``character`` would make a name typed with signs part of a longer word (a letter,
    digit or mark of a spaced script, an underscore; not a character of an unspaced run:
    ``用C#写`` holds ``C#``)."""
    return character == "_" or _in_word(character)


def _in_identifier(text: str, at: int) -> bool:
    """Whether ``text[at]`` is there and could belong to an identifier (a letter, digit or
    underscore): then a match next to it is part of a longer one (``get_user_name``)."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def _parts_meet(text: str, at: int) -> bool:
    """Whether two words of a camelCase identifier meet at ``at`` (``get|User``,
    ``HTTP|Server``)."""
    return _CAMEL_SPLIT.match(text, at) is not None  # its lookbehind sees before ``at``


def _in_word(character: str) -> bool:
    """Whether ``character`` belongs to a word (a letter, digit or mark of a spaced script, or
    a character a word's search form leaves out, such as a soft hyphen)."""
    if character < "\x80":
        return character.isalnum()
    if _left_out_re().match(character):
        return True
    return unicodedata.category(character)[0] in "LNM" and not _fast_run().match(character)


@functools.cache
def _word_began() -> str:
    """A pattern for "the character just passed began a word": before it no letter or digit
    (or the text's start), a character of an unspaced run, two words of an identifier
    meeting, an Arabic word's proclitics or article, or a Hebrew word's prefixes. Put after a
    word's first letter, so the engine scans for that letter at C speed and skips the places
    inside a word there too (a 1 MB word holds a million ``x``). The run class in two
    lookbehinds: a bitmap for plane 0, and ranges above it tried only for a character above it
    (one such range makes ``re`` try every range for every character)."""
    members = re.findall(r"(\\?.)-(\\?.)", _fast_run().pattern[1:-2], re.DOTALL)
    plane_0 = "".join(f"{low}-{high}" for low, high in members if ord(high[-1]) < 0x10000)
    above = "".join(f"{low}-{high}" for low, high in members if ord(high[-1]) >= 0x10000)
    one = "(?s:.)"
    return (
        rf"(?:(?<![^\W_]{one})|(?<=[{plane_0}]{one})"
        rf"|(?<=[\U00010000-\U0010ffff]{one})(?<=[{above}]{one})"
        r"|(?-i:(?<=[a-z0-9][A-Z])|(?<=[A-Z][A-Z])(?=[a-z]))"
        # after an Arabic word's proclitics or article (the word checked: _after_arabic_prefix)
        rf"|(?<=[وفبكل]ا)(?<![^\W_]..)|(?<=[وف][بكل]ا)(?<![^\W_]...)"
        rf"|(?<=[ال]ل{one})(?<![^\W_]...)|(?<=[وفبكل]ال{one})(?<![^\W_]....)"
        rf"|(?<=[وف]لل{one})(?<![^\W_]....)"
        rf"|(?<=[وف][بكل]ال{one})(?<![^\W_].....)"
        # after a Hebrew word's prefixes (the word checked: _after_hebrew_prefix)
        rf"|(?<=[{_HEBREW_PREFIX}]{one})(?<![^\W_]..)"
        rf"|(?<=[{_HEBREW_PREFIX}]{{2}}{one})(?<![^\W_]...)"
        rf"|(?<=[{_HEBREW_PREFIX}]{{3}}{one})(?<![^\W_]....))"
    )


@functools.cache
def _wordish() -> re.Pattern[str]:
    """Word characters and marks, as many as follow."""
    return re.compile(rf"[\w{_marks()}]*")


def _end_of_word(text: str, at: int) -> int:
    """Where the word going on at ``at`` ends: letters, digits and marks, up to an underscore,
    an unspaced run or where two words of an identifier meet. A few C-speed scans, however long
    the word."""
    end = _wordish().match(text, at).end()  # type: ignore[union-attr]
    underscore = text.find("_", at, end)
    end = end if underscore < 0 else underscore
    for stop in (_CAMEL_SPLIT.search(text, at, end), _fast_run().search(text, at, end)):
        end = end if stop is None else stop.start()
    return end


@functools.lru_cache(maxsize=64)
def _finders(query: Query) -> list[tuple[re.Pattern[str], str, bool]]:
    """Per term: a pattern finding its words (case and Latin accents aside; the word
    boundaries checked by :func:`matches`), or its run (what its search form leaves out, a
    zero-width joiner in ``👩‍💻``, may stand between its characters); and whether it is a
    prefix."""
    finders: list[tuple[re.Pattern[str], str, bool]] = []
    for term in query.terms:
        if term.run:
            letters = list(map(re.escape, term.run))
            if term.open_end:  # the syllable with any final consonant
                letters[-1] = f"[{term.run[-1]}-{chr(ord(term.run[-1]) + _FINALS - 1)}]"
            written = f"[{_left_out()}]*".join(letters)
            finders.append((re.compile(f"(?=({written}))"), term.run, False))
            continue
        # words typed apart (``max_retry``) or met in an identifier (``UserName``)
        first, *others = (_fold(word) for word in term.words)
        words = r"[\W_]*".join([_letters(first, _word_began()), *map(_letters, others)])
        finders.append((re.compile(words, re.IGNORECASE), "", term.prefix))
    return finders


def _letters(word: str, after_first: str = "") -> str:
    """A folded word as a pattern for the text as written: each letter, or any accented form
    of it (``е`` or ``ё``, ``ss`` or ``ß``), then any accents or marks its search form leaves
    out; ``after_first`` right after the first letter. A Latin accent in the word is left to
    the letter before it, which takes any (the tokenizer drops them too): a pattern of a letter
    that may repeat after one that may too is a catastrophic backtrack on a run of accents."""
    if _ACCENT_RE.fullmatch(word) is None:
        word = _ACCENT_RE.sub("", word) or word
    else:  # accents alone: each exactly
        return re.escape(word[0]) + after_first + re.escape(word[1:])
    parts: list[str] = []
    at = 0
    while at < len(word):
        letter = word[at]
        if at == 1:
            parts.insert(1, after_first)
        if at and word.startswith("ss", at):
            parts.append(_WRITTEN_AS["ss"] + _after_letter())
            at += 2
            continue
        if letter in _WRITTEN_AS:
            parts.append(_WRITTEN_AS[letter])
        elif letter.isalpha() or letter in _accented():
            parts.append(f"[{re.escape(letter)}{_accented().get(letter, '')}]")
        else:
            parts.append(re.escape(letter))  # a digit, or a mark (a virama before a ZWJ)
        parts.append(_after_letter())
        at += 1
    if len(word) == 1:
        parts.insert(1, after_first)
    return "".join(parts)


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


def snippet(
    text: str, found: list[Match], whole: list[tuple[int, int]] | None = None
) -> list[SnippetPart]:
    """A passage of about :data:`SNIPPET_CHARS` of ``text`` around its best matches, marked.

    The best passage holds the most distinct terms (then the most matches, then the earliest);
    without a match it is the start of the text. An ellipsis stands for what is cut, never
    inside one of the spans ``whole`` (sorted, apart: the ``[hidden: …]`` marks of a text, which
    hold spaces), which the passage shows whole or not at all.
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
    if whole:
        start, end = _outside(whole, start, True), _outside(whole, end, False)
    parts = marked_parts(text, found, start, end)
    if parts and start > lead:
        parts.insert(0, SnippetPart(text="…", hit=False))
    if parts and text[end:].strip():
        parts.append(SnippetPart(text="…", hit=False))
    return parts


def _outside(spans: list[tuple[int, int]], at: int, start: bool) -> int:
    """A cut at ``at`` moved out of the span of ``spans`` it falls inside, if any: a start to
    the span's start, an end to the span's end."""
    index = bisect.bisect_right(spans, at, key=lambda span: span[0]) - 1
    if index >= 0 and spans[index][0] < at < spans[index][1]:
        return spans[index][0] if start else spans[index][1]
    return at


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
