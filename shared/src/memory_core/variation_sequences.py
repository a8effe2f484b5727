"""The variation sequences Unicode registers, read from its own data files (I-9).

A variation selector U+FE00–U+FE0F renders as nothing; one after a character it forms no
registered sequence with is how a byte per character is smuggled past a reader
(:mod:`memory_core.hidden_text`). The registered ones are Unicode 18.0.0's
``StandardizedVariants.txt`` (standardized variants: maths symbols, CJK punctuation and
compatibility ideographs, Myanmar, Phags-pa, Manichaean, Egyptian hieroglyphs …) and
``emoji-variation-sequences.txt`` (text and emoji presentation, U+FE0E/U+FE0F), kept unmodified
in ``unicode_data/`` (the README there says where they were checked). The Mongolian free
variation selectors those files also list are judged by their own rule in ``hidden_text``.

The ideographic variation selectors U+E0100–U+E01EF are registered per font collection in
the Ideographic Variation Database, which is not kept here; ``hidden_text`` caps them by rule.

>>> registered_sequence(0x2269, 0xFE00)  # ≩︀, with vertical stroke
True
>>> registered_sequence(0x90E8, 0xFE00)  # 部 takes no standardized variant
False
"""

from __future__ import annotations

import functools

__all__ = ["SEQUENCE_FILES", "UNICODE_VERSION", "registered_sequence", "sequences_by_selector"]

UNICODE_VERSION = "18.0.0"
"""The Unicode version of the two kept files."""
SEQUENCE_FILES = ("StandardizedVariants.txt", "emoji-variation-sequences.txt")
"""The files in ``memory_core/unicode_data/`` that list the registered sequences."""
_SELECTORS = range(0xFE00, 0xFE10)


@functools.cache
def _registered() -> frozenset[tuple[int, int]]:
    """Every ``(base, selector)`` code point pair the kept files list, for the selectors
    U+FE00–U+FE0F. Lines are ``BASE SELECTOR; description; # comment``.

    ``importlib.resources`` is imported here, on the first selector met: at import time it
    would load ``tempfile`` into every hook process (H-5)."""
    from importlib import resources

    data = resources.files("memory_core").joinpath("unicode_data")
    pairs: set[tuple[int, int]] = set()
    for name in SEQUENCE_FILES:
        for line in data.joinpath(name).read_text(encoding="utf-8").split("\n"):
            sequence = line.split("#", 1)[0].split(";", 1)[0].split()
            if len(sequence) != 2:
                continue
            base, selector = (int(point, 16) for point in sequence)
            if selector in _SELECTORS:
                pairs.add((base, selector))
    return frozenset(pairs)


def registered_sequence(base: int, selector: int) -> bool:
    """Whether the code point ``base`` followed by the variation selector ``selector``
    (U+FE00–U+FE0F) is a sequence Unicode registers (standardized or emoji)."""
    return (base, selector) in _registered()


def sequences_by_selector() -> dict[int, list[tuple[int, int]]]:
    """The registered bases of each selector U+FE00–U+FE0F as sorted, merged inclusive code
    point ranges ``[(first, last), …]``: the compact table the web page's copy of the rule
    reads (``static/js/variation-sequences.js``)."""
    by_selector: dict[int, list[tuple[int, int]]] = {}
    for base, selector in sorted(_registered(), key=lambda pair: (pair[1], pair[0])):
        ranges = by_selector.setdefault(selector, [])
        if ranges and ranges[-1][1] == base - 1:
            ranges[-1] = (ranges[-1][0], base)
        else:
            ranges.append((base, base))
    return by_selector
