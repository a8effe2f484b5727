"""Which legacy encoding short non-UTF-8 text is written in, once its family is known (T-2).

:func:`memory_core.decoding.legacy_multibyte` tells CJK text (or 8-bit Cyrillic) from Western
text; this module tells which encoding of that family it is, or that too little text says:

- **CJK** (:func:`cjk_readings`): one or two index lines decode in several of Shift-JIS, GBK/
  GB18030, Big5, EUC-JP and EUC-KR. Each encoding puts the characters its text mostly uses in
  known places (GB2312's level-1 hanzi, Big5's frequent characters, JIS level-1 kanji and the
  kana, KS X 1001's Hangul syllables): text read in the right one stands there; read in a wrong
  one, much of it lands on rare characters (Hanja among Hangul, half-width katakana, GB's
  level-2 hanzi) or on a script its language does not write (kana in Chinese or Korean). A
  Japanese reading whose kana no Japanese writes (a small ``ゅ`` after ``い``: Big5's ``中文``
  in EUC-JP) is no reading of the text (:func:`_kana_read_as_japanese`). Where
  readings stand there alike (a GB18030 line wholly in GB rows 0xB0-0xC8 reads as Hangul), a
  Japanese reading with three kana or more is taken, else how often each reading's language
  writes the characters it reads as weighs them (:func:`_weighed`); when that too weighs two
  alike, or the text is too short to weigh, it is *undecided*: every such reading is named and
  none is guessed.
- **Cyrillic** (:func:`cyrillic_reading`): KOI8-R puts the lower-case letters where Windows-1251
  has the upper-case ones, so text read in the wrong one is mostly capitals (``кОФЕ``).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "CjkReadings",
    "capital_inside",
    "cjk_readings",
    "cyrillic_by_case",
    "cyrillic_reading",
    "cyrillic_readings",
    "decodes",
    "koi8_r_by_case",
    "wholly_common_cjk",
]

WINDOWS_1251 = "cp1251"
KOI8_R = "koi8_r"


@dataclass(frozen=True, slots=True)
class CjkReadings:
    """The CJK encodings ``raw`` most likely is: one when it stands out, else (the text too
    short to tell them apart) each it may be, likeliest first; never empty."""

    codecs: tuple[str, ...]


def _pair(found: bytes) -> tuple[int, int]:
    return (found[0], found[1]) if len(found) == 2 else (0, 0)


def _gb(found: bytes) -> bool:  # punctuation, digits, full-width ASCII; level-1 hanzi
    lead, trail = _pair(found)
    return 0xA1 <= lead <= 0xA3 or (0xB0 <= lead <= 0xD7 and trail >= 0xA1)


def _big5(found: bytes) -> bool:  # symbols; the 5,401 frequent characters
    pair = _pair(found)
    return 0xA1 <= pair[0] <= 0xA3 or (0xA4, 0x40) <= pair <= (0xC6, 0x7E)


def _euc_kr(found: bytes) -> bool:  # symbols, full-width ASCII; the Hangul syllables
    lead, _ = _pair(found)
    return 0xA1 <= lead <= 0xA3 or 0xB0 <= lead <= 0xC8


def _euc_jp(found: bytes) -> bool:  # symbols, full-width ASCII, kana; level-1 kanji
    lead, _ = _pair(found)
    return 0xA1 <= lead <= 0xA5 or 0xB0 <= lead <= 0xCF


def _cp932(found: bytes) -> bool:  # symbols, full-width ASCII, kana; level-1 kanji
    pair = _pair(found)
    return 0x81 <= pair[0] <= 0x83 or (0x88, 0x9F) <= pair <= (0x98, 0x72)


_COMMON: dict[str, Callable[[bytes], bool]] = {
    "cp932": _cp932,
    "gb18030": _gb,
    "big5": _big5,
    "euc_jp": _euc_jp,
    "euc_kr": _euc_kr,
}
"""Whether a character's bytes in that encoding stand where text of its language mostly has
them. A character of one byte above 0x7F (Shift-JIS's half-width katakana) or of three or
four (EUC-JP's JIS X 0212, GB18030's four-byte forms) never does."""
_JAPANESE = ("cp932", "euc_jp")
_MODEL_OF = {
    "cp932": "ja/cp932",
    "gb18030": "zh/gb18030",
    "big5": "zh/big5hkscs",
    "euc_jp": "ja/euc_jis_2004",
    "euc_kr": "ko/euc_kr",
}
"""The ``chardet`` model (``language/encoding``) of each encoding's own language: its table
gives each pair of bytes a weight 0-255 by how often the pair stands in that language's text
written so. The two bytes of one character are such a pair, so the table weighs each
character by how often its language writes it (``的`` 255 in GB18030, ``祸`` 1)."""
_WEIGHED_FROM = 4
"""Different characters above ASCII a reading needs before :func:`_weighed` weighs readings
that stand alike: below it they are too few to tell (``咖啡`` is ``엣렸`` and ``色携`` as
well; ``測試`` twice, in a title and its description, is still two)."""
_CAPPED_AT = 32
"""The weight a character counts at most: one very frequent character (``的`` read from
EUC-JP ``議``) does not outweigh the rest of a line."""
_STANDS_OUT = 1.3
"""How many times the next reading's mean weight the likeliest one's must be to be taken
alone. On 1,500 short lines cut from real text (``tests/core/legacy_text_lines.py``) and the
1,860 generated and written ones of ``tests/core/test_t2_legacy_cjk_index.py`` and
``tests/core/test_t2_short_legacy_index_lines.py``, ``chardet``'s whole verdict
(``detect_all``, at 0.3) named 5 and 8 wrongly and left 216 and 131 undecided; these weights at
1.3 name none wrongly (with :func:`capital_inside`; 1 and 2 as Windows-1251 before it) and
leave 193 and 87; at 1.5 they left 97 of the second set; from three characters on, 3 wrong
and 146 undecided of the first."""


def _common_share(raw: bytes, codec: str) -> float:
    """The share of the characters above ASCII of ``raw`` read in ``codec`` (which decodes
    it) whose bytes stand where text of that encoding's language mostly has them."""
    common = _COMMON[codec]
    counted = kept = 0
    for character in raw.decode(codec):
        if character.isascii():
            continue
        counted += 1
        kept += common(character.encode(codec))
    return kept / counted if counted else 0.0


def _kana(text: str) -> int:
    """How many hiragana and katakana ``text`` holds, with ``ー`` and the iteration marks
    (which stand only after a kana there; two can be a Big5 word read as EUC-JP:
    ``文件`` is ``ゅン`` there; three or more were Japanese in every line measured, once
    :func:`_kana_read_as_japanese` has let the reading stand)."""
    return sum(1 for character in text if _is_kana_or_mark(character))


_SMALL_HIRAGANA = frozenset("ぁぃぅぇぉゃゅょゎ")
_SMALL_KATAKANA = frozenset("ァィゥェォッャュョヮ")
_TAKES_YOON = frozenset("きしちにひみりぎじぢびぴキシチニヒミリギジヂビピテデフヴ")
"""The kana a small ya, yu or yo follows: the i-column (``きょう``, ``シュ``), and ``テュ``,
``デュ``, ``フュ``, ``ヴュ`` in loanwords."""


_HIRAGANA_MARKS = frozenset("ゝゞ")
_KATAKANA_MARKS = frozenset("ヽヾ")
_LONG_VOWEL = "ー"
"""The prolonged sound mark U+30FC, written after a kana of either script (``スプーン``,
``すごーい``)."""


def _is_kana(character: str) -> bool:
    """A hiragana or katakana letter, U+3041–U+30FA."""
    return "\u3041" <= character <= "\u30fa"


def _is_kana_or_mark(character: str) -> bool:
    """A kana letter, the prolonged sound mark ``ー`` or an iteration mark (``ゝゞヽヾ``): what
    :func:`_kana_stands` judges, and what a small kana or ``ン`` may follow."""
    return (
        _is_kana(character)
        or character == _LONG_VOWEL
        or character in _HIRAGANA_MARKS
        or character in _KATAKANA_MARKS
    )


def _is_hiragana(character: str) -> bool:
    """A hiragana letter, an iteration mark of hiragana, or ``ー`` (``すごーぃ``)."""
    return (
        "\u3041" <= character <= "\u3096"
        or character in _HIRAGANA_MARKS
        or character == _LONG_VOWEL
    )


def _is_katakana(character: str) -> bool:
    """A katakana letter, an iteration mark of katakana, or ``ー`` (``タイムゾーン``)."""
    return (
        "\u30a1" <= character <= "\u30fa"
        or character in _KATAKANA_MARKS
        or character == _LONG_VOWEL
    )


def _kana_stands(character: str, before: str) -> bool:
    """Whether the kana or mark ``character`` can follow ``before`` (``""`` at the start) in
    Japanese: a small kana follows a kana of its own script (a small ya, yu or yo one of
    :data:`_TAKES_YOON`), ``ン`` a katakana, ``ー`` a kana, an iteration mark a kana of its
    script, ``ん`` and ``っ`` a kana or a kanji (``読んで``, ``待って``); ``ー`` counts as a
    kana of either script before (``スプーン``, ``ガーッ``); no word opens with one of them."""
    if character in "ゃゅょャュョ":
        return before in _TAKES_YOON
    if character in _SMALL_HIRAGANA or character in _HIRAGANA_MARKS:
        return _is_hiragana(before)
    if character in _SMALL_KATAKANA or character in _KATAKANA_MARKS or character == "ン":
        return _is_katakana(before)
    if character == _LONG_VOWEL:
        return _is_kana_or_mark(before)
    if character in "んっ":
        return _is_kana_or_mark(before) or "\u4e00" <= before <= "\u9fff"
    return True


def _kana_read_as_japanese(text: str) -> bool:
    """Whether the kana of ``text`` (one reading of some bytes) could be Japanese: each
    stands where :func:`_kana_stands` lets it. Big5's most frequent characters stand in the
    bytes of EUC-JP's kana rows: ``中文`` is ``いゅ`` there, ``件用中`` is ``ンノい``, which no
    Japanese writes.

    >>> _kana_read_as_japanese("読んでチェックしょう"), _kana_read_as_japanese("いゅざ")
    (True, False)
    """
    before = ""
    for character in text:
        if _is_kana_or_mark(character) and not _kana_stands(character, before):
            return False
        before = character
    return True


def cjk_readings(raw: bytes, decoding: Sequence[str], *, weigh: bool = True) -> CjkReadings:
    """Which of ``decoding`` (the CJK encodings that decode ``raw``, not empty) ``raw`` is
    written in (see the module). ``chardet``'s models are loaded only when two or more stand
    where their language's text does alike; ``weigh=False`` never loads them (a hook's
    budget, H-5): those readings are then all returned, none taken for the text.

    >>> cjk_readings("- [咖啡](coffee.md) - 用户喜欢喝咖啡".encode("gb18030"),
    ...              ["gb18030", "euc_kr", "big5"]).codecs[0]
    'gb18030'
    """
    shares = {codec: _common_share(raw, codec) for codec in decoding}
    not_japanese = {
        codec
        for codec in decoding
        if codec in _JAPANESE and not _kana_read_as_japanese(raw.decode(codec))
    }
    if not_japanese and len(not_japanese) < len(decoding):
        shares.update(dict.fromkeys(not_japanese, -1.0))  # never the text's own reading
    best = max(shares.values())
    alike = [codec for codec in decoding if shares[codec] == best]
    if len(alike) == 1:
        return CjkReadings((alike[0],))
    with_kana = [codec for codec in alike if codec in _JAPANESE and _kana(raw.decode(codec)) >= 3]
    if with_kana:
        return CjkReadings((with_kana[0],))
    different = {character for character in raw.decode(alike[0]) if not character.isascii()}
    if len(different) < _WEIGHED_FROM or not weigh:
        return CjkReadings(tuple(alike))
    return _weighed(raw, alike)


def _weighed(raw: bytes, alike: list[str]) -> CjkReadings:
    """``alike`` ordered by how often each reading's characters are written in its language
    (:func:`_frequency`); decided when the first stands out (:data:`_STANDS_OUT`)."""
    weight = {codec: _frequency(raw, codec) for codec in alike}
    ranked = sorted(alike, key=lambda codec: -weight[codec])
    first, second = (weight[codec] for codec in ranked[:2])
    if first > 0 and first >= _STANDS_OUT * second:
        return CjkReadings((ranked[0],))
    return CjkReadings(tuple(ranked))


def _frequency(raw: bytes, codec: str) -> float:
    """The mean of ``log2(1 + weight)`` over the two-byte characters of ``raw`` read in
    ``codec`` (which decodes it), each weight (0-255, at most :data:`_CAPPED_AT`) how often
    its language writes that character (:data:`_MODEL_OF`); 0.0 when it has none. Read in
    its own encoding, a line lands on characters its language writes often (``議事録`` in
    Japanese, 2-10); read in another, on rare ones (``的祸峡``: 1-2 after one ``的``)."""
    from chardet.models import load_models  # only for text its readings leave undecided

    table = load_models()[_MODEL_OF[codec]]
    weights = [
        math.log2(1 + min(_CAPPED_AT, table[(found[0] << 8) | found[1]]))
        for found in (character.encode(codec) for character in raw.decode(codec))
        if len(found) == 2 and found[0] > 0x7F
    ]
    return sum(weights) / len(weights) if weights else 0.0


def cyrillic_reading(raw: bytes) -> str:
    """``cp1251`` or ``koi8_r``: the one of the two 8-bit Cyrillic encodings in which ``raw``
    (Cyrillic text in one of them) reads as more lower-case letters, every byte above 0x7F
    a Cyrillic letter or ``ё``: text read in the other is mostly capitals (``кОФЕ``), and
    KOI8-R's signs are box drawing (``╪``). Windows-1251 when they read as many.

    >>> cyrillic_reading("Кофе и чай".encode("koi8_r")), cyrillic_reading("Кофе".encode("cp1251"))
    ('koi8_r', 'cp1251')
    """
    koi8 = raw.decode(KOI8_R)  # every byte maps
    if any(not character.isascii() and not _is_cyrillic(character) for character in koi8):
        return WINDOWS_1251
    return cyrillic_readings(raw)[0]


def cyrillic_readings(raw: bytes, *, weigh: bool = True) -> tuple[str, ...]:
    """The 8-bit Cyrillic encodings ``raw`` (Cyrillic text in one of them) is in, likeliest
    first: the one its case tells (:func:`cyrillic_reading`'s rule), unless how often Russian
    writes the pairs of letters of each reading, lower-cased (:func:`_letter_pairs`), says the
    other :data:`_STANDS_OUT` times as much: then that one alone when a reading is all
    capitals (``ЗАМЕЧАНИЕ`` in Windows-1251 reads in KOI8-R as lower-case letters,
    ``гбнеючмхе``, and was named KOI8-R), else both, too little to tell (KOI8-R ``не`` beside
    ``ОГРАНИЧЕНИЕ``, whose capitals read as lower-case letters in Windows-1251).
    ``weigh=False`` never loads ``chardet``'s model (a hook's budget, H-5): both are returned,
    the one its case tells first, unless bytes KOI8-R reads as no letter tell Windows-1251."""
    koi8 = raw.decode(KOI8_R)  # every byte maps
    if any(not character.isascii() and not _is_cyrillic(character) for character in koi8):
        return (WINDOWS_1251,)
    texts = {KOI8_R: koi8, WINDOWS_1251: raw.decode(WINDOWS_1251, "replace")}
    lower = {
        codec: sum(1 for character in text if _is_cyrillic(character) and character.islower())
        for codec, text in texts.items()
    }
    by_case = KOI8_R if lower[KOI8_R] > lower[WINDOWS_1251] else WINDOWS_1251
    other = KOI8_R if by_case == WINDOWS_1251 else WINDOWS_1251
    if not weigh:
        return (by_case, other)
    pairs = {codec: _letter_pairs(text, codec) for codec, text in texts.items()}
    if pairs[by_case] * _STANDS_OUT > pairs[other]:
        return (by_case,)  # the pairs agree, or tell too little against the case
    if pairs[other] >= _STANDS_OUT * pairs[by_case] and min(lower.values()) == 0:
        return (other,)  # all capitals: ``ЗАМЕЧАНИЕ``, whose other reading is lower-case
    return (other, by_case)


_RUSSIAN_MODEL = {WINDOWS_1251: "ru/cp1251", KOI8_R: "ru/koi8-r"}


def _letter_pairs(text: str, codec: str) -> float:
    """The mean ``log2(1 + weight)`` of the pairs of Cyrillic letters of ``text`` lower-cased
    and written in ``codec``, each weight (0-255) how often Russian text so written holds
    that pair (``chardet``'s model); 0.0 for none. ``замечание`` weighs 6.0, ``гбнеючмхе`` 1.8."""
    from chardet.models import load_models

    table = load_models()[_RUSSIAN_MODEL[codec]]
    written = text.lower().encode(codec, "replace")
    weights = [
        math.log2(1 + table[(first << 8) | second])
        for first, second in itertools.pairwise(written)
        if first > 0x7F and second > 0x7F
    ]
    return sum(weights) / len(weights) if weights else 0.0


def koi8_r_by_case(raw: bytes) -> bool:
    """Whether ``raw`` reads in KOI8-R as Cyrillic words: every byte above 0x7F a Cyrillic
    letter, at least two of them, and twice as many lower-case letters as capitals or more
    (text capitalises a word's first letter at most). CJK bytes seldom read so: their lead
    and trail bytes would all have to be 0xC0 or above, two in three lower-case; where they
    do, :func:`wholly_common_cjk` says whether they are as likely CJK.

    >>> koi8_r_by_case("Кофе и чай".encode("koi8_r")), koi8_r_by_case("設定".encode("cp932"))
    (True, False)
    """
    return cyrillic_by_case(raw, KOI8_R)


_GLUED_SIGN = re.compile("№[^\\W\\d_]|[^\\W\\d_][«»„“”…—–№][^\\W\\d_]")
"""``№`` before a letter, or a sign other than an apostrophe (``п’ятниця``) between two
letters: how Cyrillic text never writes one (``№5``, ``«итог»``), and CJK bytes read in
Windows-1251 often do (``배포`` in EUC-KR is ``№иЖч``)."""


_MIXED_WORD = re.compile(r"[A-Za-z][\u0400-\u04ff]|[\u0400-\u04ff][A-Za-z]")
"""A Latin letter glued to a Cyrillic one inside a word: Russian text writes none (``IT-отдел``
has its hyphen), while Western text read in a Cyrillic code page is full of them (``née`` in
Windows-1252 is ``nйe`` in Windows-1251, ``déjà`` is ``dйjа``)."""


_CAPITAL_INSIDE = re.compile("[\u0430-\u045f][\u0400-\u042f]")
"""A lower-case Cyrillic letter followed by a capital inside a word: Cyrillic text writes
none (a capital opens a word, or all of it is capitals), while CJK bytes read as Cyrillic
letters often do (``優雅`` in EUC-KR is ``йРдє``, Big5 ``備份`` is ``іЖҐч``), and KOI8-R text
read in Windows-1251, case swapped, is full of them (``лПЖЕ``)."""


_CYRILLIC_WORD = re.compile("[\u0400-\u04ff]{2,}")


def capital_inside(text: str) -> bool:
    """Whether a third or more of the Cyrillic words of ``text`` (two letters or more) have a
    capital after a lower-case letter (:data:`_CAPITAL_INSIDE`): Cyrillic text seldom reads
    so (a name such as ``МосГорТранс``, among the other words of an index), CJK bytes read as
    Cyrillic letters often (``йРдє`` is EUC-KR ``優雅``): such text is named with the CJK
    encodings that read it first, too little to tell.

    >>> capital_inside("- [йРдє](a.md)"), capital_inside("Кофе и ЧАЙ, МосГорТранс, метро")
    (True, False)
    """
    words = _CYRILLIC_WORD.findall(text)
    inside = sum(1 for word in words if _CAPITAL_INSIDE.search(word))
    return inside > 0 and 3 * inside >= len(words)


def cyrillic_by_case(raw: bytes, codec: str, signs: frozenset[str] = frozenset()) -> bool:
    """Whether ``raw`` reads in ``codec`` (``koi8_r`` or ``cp1251``) as Cyrillic words, by the
    rule of :func:`koi8_r_by_case`, the characters of ``signs`` (``№``, ``«»``) standing among
    them, never glued into a word (:data:`_GLUED_SIGN`), and not counted: a few Windows-1251
    words (``Кофе``, ``Тест``, ``ещё №5``) are weighed best as GB18030, Big5 or Shift-JIS by
    ``charset-normalizer`` and were named so.

    >>> cyrillic_by_case("Кофе".encode("cp1251"), "cp1251")
    True
    """
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError:
        return False
    high = [character for character in text if not character.isascii()]
    if any(not _is_cyrillic(character) and character not in signs for character in high):
        return False
    if _MIXED_WORD.search(text):  # ``nйe``, ``dйjа vu``: Western letters read as Cyrillic
        return False
    if signs and _GLUED_SIGN.search(text):
        return False
    letters = [character for character in high if _is_cyrillic(character)]
    if len(letters) < 2:
        return False
    capitals = sum(1 for character in letters if character.isupper())
    return len(letters) - capitals >= 2 * capitals


def wholly_common_cjk(raw: bytes) -> list[str]:
    """The CJK encodings that read ``raw`` as characters all of which stand where their
    language's text has them: KOI8-R text that :func:`koi8_r_by_case` tells may be one of
    them too (``性能`` in GB18030 is ``югдь`` in KOI8-R; two characters cannot tell)."""
    return [codec for codec in _COMMON if decodes(raw, codec) and _common_share(raw, codec) == 1]


def decodes(raw: bytes, codec: str) -> bool:
    """Whether the bytes ``raw`` decode in ``codec`` without an error."""
    try:
        raw.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def _is_cyrillic(character: str) -> bool:
    return "\u0400" <= character <= "\u04ff"
