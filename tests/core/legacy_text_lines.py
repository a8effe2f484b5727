"""Short index lines cut from real text in each CJK language, in each legacy encoding (T-2).

The texts (``tests/data/legacy-text``) are CPython's own samples of each codec's text
(``Lib/test/cjkencodings``): prose written by people, not words repeated. Each line is an index
line as people write them, its title and description windows of that prose.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

TEXTS = Path(__file__).parent.parent / "data" / "legacy-text"
LANGUAGE_OF = {
    "cp932": "ja",
    "euc_jp": "ja",
    "gb18030": "zh-hans",
    "big5": "zh-hant",
    "euc_kr": "ko",
}
"""Each legacy CJK encoding → the text of its language (``tests/data/legacy-text/<lang>.txt``)."""
WORDS_OF = {"cp1251": "ru", "koi8_r": "ru", "cp1252": "western", "latin_1": "western"}
"""Each 8-bit encoding → its text: Russian, or French, German and Spanish (PostgreSQL's
``libpq`` messages as its translators wrote them, one a line)."""

_CUT = re.compile(r"[\s,.!?:;()（）、。，「」？！：]+")


def _phrases(lang: str) -> list[str]:
    """The text's runs between spaces and punctuation, each holding a character above ASCII."""
    text = (TEXTS / f"{lang}.txt").read_text(encoding="utf-8")
    return [part for part in _CUT.split(text) if part and not part.isascii()]


_NEVER_FIRST = frozenset("ぁぃぅぇぉゃゅょゎっんァィゥェォッャュョヮンー")
"""Kana no Japanese word opens with: a window starting on one is no title anyone writes."""


def _window(rng: random.Random, phrases: list[str], shortest: int, longest: int) -> str:
    """A piece of ``shortest``-``longest`` characters of one phrase (all of a shorter one, of
    ``shortest`` or more), not opening on a kana no word opens with (:data:`_NEVER_FIRST`)."""
    while True:
        phrase = rng.choice([phrase for phrase in phrases if len(phrase) >= shortest])
        size = min(len(phrase), rng.randint(shortest, longest))
        start = rng.randint(0, len(phrase) - size)
        if phrase[start] not in _NEVER_FIRST:
            return phrase[start : start + size]


def _words(rng: random.Random, lines: list[str], shortest: int, longest: int) -> str:
    """``shortest``-``longest`` words in a row of one line of text."""
    words = rng.choice(lines).split()
    size = min(len(words), rng.randint(shortest, longest))
    start = rng.randint(0, len(words) - size)
    return " ".join(words[start : start + size])


def short_words(codec: str, kind: str, count: int = 150) -> list[bytes]:
    """``count`` different index lines in the 8-bit ``codec`` (:data:`WORDS_OF`) cut from its
    text: ``title`` lines ``- [<1-3 words>](note.md)``, or ``described`` ones, ``- [<1-3
    words>](note.md) - <2-8 words>``; each with two characters above ASCII or more."""
    text = (TEXTS / f"{WORDS_OF[codec]}.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    rng = random.Random(f"{codec} {kind}")  # noqa: S311 - test data, seeded
    found: dict[bytes, None] = {}
    for _ in range(100 * count):
        if len(found) == count:
            break
        line = f"- [{_words(rng, lines, 1, 3)}](note.md)"
        if kind == "described":
            line += f" - {_words(rng, lines, 2, 8)}"
        raw = (line + "\n").encode(codec, errors="ignore")
        if sum(byte > 0x7F for byte in raw) >= 2:
            found[raw] = None
    return list(found)


def short_lines(codec: str, kind: str, count: int = 150) -> list[bytes]:
    """``count`` different index lines in ``codec`` cut from its language's text: ``title``
    lines ``- [<2-6 characters>](note.md)``, or ``described`` ones, ``- [<2-6>](note.md) -
    <4-16>``; each with two characters above ASCII or more."""
    phrases = _phrases(LANGUAGE_OF[codec])
    rng = random.Random(f"{codec} {kind}")  # noqa: S311 - test data, seeded
    found: dict[bytes, None] = {}
    for _ in range(100 * count):
        if len(found) == count:
            break
        line = f"- [{_window(rng, phrases, 2, 6)}](note.md)"
        if kind == "described":
            line += f" - {_window(rng, phrases, 4, 16)}"
        raw = (line + "\n").encode(codec, errors="ignore")
        if sum(not character.isascii() for character in raw.decode(codec)) >= 2:
            found[raw] = None
    return list(found)
