"""Whether a run of URL-safe characters reads as words (an identifier) or as random text
(a bearer secret), A-10.

A secret is ``mem_`` and 43 characters of ``secrets.token_urlsafe`` (each of the 64 URL-safe
characters equally likely). An identifier is made of words: snake or camel case, mostly
letters, runs of lower case, ``_``/``-`` between words (``get_recent_context_for_the_current
_project``, ``createOrUpdateMemoryTopicFileInProjectScope``). :func:`word_bits` is the log2
likelihood ratio of the text under a small word model (a Markov chain over the classes lower,
upper, digit, separator, and English letter frequencies) against random URL-safe text.

The false-negative bound is Markov's inequality: the word model's probabilities of all texts
of one length sum to 1, so the ratio averages 1 over random text and a random text scores
``bits`` or more with probability at most ``2 ** -bits``. At :data:`WORDS_AT_BITS` (24) a fresh
secret is taken for words at most once in 16 million; measured, 100,000 fresh secrets scored
-60 bits on average and none above +3 (the bound is loose). The identifiers above score 54
and 38 bits; a repeated rare letter (``x`` * 43, test secrets) scores far below 0.

A text with no lower-case letter is scored as its lower-case form: SCREAMING_SNAKE_CASE is
words too (``GET_RECENT_CONTEXT_FOR_THE_CURRENT_PROJECT`` scored -36 bits, so an MCP tool of
that name after ``-mem_`` was refused as a bearer token and masked in the log). The bound
still holds: a fresh secret has no lower-case letter with probability ``(38/64) ** 43``
(about 2e-10), and lower-cased it is random text again, scoring far below 0.

The bound is for random text over all 64 characters; an operator's own token
(``MEMORY_API_TOKENS``) may be random over fewer, all of one case, and such text scores well as
words: a run of letters is the likeliest step of the word model. Of 20,000 random 43-character
texts, 903 read as words over A-Z (scored in lower case), 823 over a-z, 121 over upper hex, 152
over lower hex, so such a token was left unmasked in the log. :func:`reads_as_words` therefore
asks more of a text with letters of one case only: words between ``_``/``-`` separators, as
SCREAMING_SNAKE_CASE and snake_case identifiers are (:func:`_words_in_one_case`). Measured
again, 0 of 20,000 read as words over each of A-Z, a-z, A-Z 0-9, a-z 0-9, upper hex, lower
hex and base32 (A-Z 2-7); over A-Z and ``_`` (an alphabet no token generator uses) 68. Adding
conditions only narrows what reads as words, so the bound for fresh secrets holds as before.
"""

from __future__ import annotations

import math
import re

__all__ = ["WORDS_AT_BITS", "reads_as_words", "word_bits"]

WORDS_AT_BITS = 24.0
"""The score (bits) from which a text reads as words: random text reaches it with probability
at most ``2 ** -24`` (about 6e-8)."""

_LONGEST_WORD = 16
"""The most characters of one word between separators in a one-case identifier (``OBSERVATIONS``
is 12)."""
_SEPARATORS = re.compile(r"[_-]+")

_PERCENT = {  # English letter frequencies, per cent
    "e": 12.7, "t": 9.1, "a": 8.2, "o": 7.5, "i": 7.0, "n": 6.7, "s": 6.3, "h": 6.1, "r": 6.0,
    "d": 4.3, "l": 4.0, "c": 2.8, "u": 2.8, "m": 2.4, "w": 2.4, "f": 2.2, "g": 2.0, "y": 2.0,
    "p": 1.9, "b": 1.5, "v": 1.0, "k": 0.8, "j": 0.15, "x": 0.15, "q": 0.1, "z": 0.07,
}  # fmt: skip
_TOTAL = sum(_PERCENT.values())
_LETTER_BITS = {letter: math.log2(share / _TOTAL * 26) for letter, share in _PERCENT.items()}
"""Per letter (either case): log2 of its word-model probability over the random one (1/26)."""

_RANDOM = {"l": 26 / 64, "u": 26 / 64, "d": 10 / 64, "s": 2 / 64}
"""Each class's share of random URL-safe text (``A-Z a-z 0-9 _ -``)."""
_WORD: dict[str | None, dict[str, float]] = {  # the next class, given the one before (None: first)
    None: {"l": 0.55, "u": 0.15, "d": 0.05, "s": 0.25},
    "l": {"l": 0.78, "u": 0.14, "d": 0.03, "s": 0.05},
    "u": {"l": 0.80, "u": 0.12, "d": 0.03, "s": 0.05},
    "d": {"l": 0.10, "u": 0.15, "d": 0.50, "s": 0.25},
    "s": {"l": 0.60, "u": 0.20, "d": 0.05, "s": 0.15},
}
_STEP_BITS = {
    before: {after: math.log2(share / _RANDOM[after]) for after, share in row.items()}
    for before, row in _WORD.items()
}


def _class(character: str) -> str:
    if "a" <= character <= "z":
        return "l"
    if "A" <= character <= "Z":
        return "u"
    return "d" if "0" <= character <= "9" else "s"


def word_bits(text: str) -> float:
    """log2 of how much likelier ``text`` (URL-safe characters only) is as words than as
    random URL-safe text; positive: more like words; a text with no lower-case letter is
    scored as its lower-case form (ALL-CAPS words). Raises KeyError for another character.

    >>> word_bits("GET_RECENT_CONTEXT") == word_bits("get_recent_context") > 0
    True
    """
    if not any("a" <= character <= "z" for character in text):
        text = text.lower()
    total = 0.0
    before: str | None = None
    for character in text:
        kind = _class(character)
        total += _STEP_BITS[before][kind]
        if kind in "lu":
            total += _LETTER_BITS[character.lower()]
        before = kind
    return total


def reads_as_words(text: str) -> bool:
    """Whether ``text`` (URL-safe characters) reads as words: :func:`word_bits` reaches
    :data:`WORDS_AT_BITS`, and, for a text of one case of letters only, each of its pieces
    between separators reads as a word (:func:`_words_in_one_case`). A fresh secret's 43
    characters do at most once in 16 million."""
    if word_bits(text) < WORDS_AT_BITS:
        return False
    has_lower = any("a" <= character <= "z" for character in text)
    has_upper = any("A" <= character <= "Z" for character in text)
    return (has_lower and has_upper) or _words_in_one_case(text)


def _words_in_one_case(text: str) -> bool:
    """Whether ``text``, whose letters are all of one case, is words between separators
    (``get_recent_context``, ``GET_RECENT_CONTEXT``): at least two pieces between ``_``/``-``,
    none longer than :data:`_LONGEST_WORD`, each of at least 3 characters more like a word
    than random (:func:`word_bits` positive); the last may be cut."""
    pieces = [piece for piece in _SEPARATORS.split(text) if piece]
    if len(pieces) < 2 or max(map(len, pieces)) > _LONGEST_WORD:
        return False
    return all(len(piece) < 3 or word_bits(piece) > 0 for piece in pieces[:-1])
