"""Which ``{{NAME}}`` of a template is a misspelt memory placeholder (I-1).

A template's ``{{MEMORY}}`` and ``{{WORKSPACE_MEMORY_KEY}}`` are filled in by memory; a name
written for one of them but not as it is (``{{MEMROY}}``, ``{{MEM0RY}}``, ``{{ＭＥＭＯＲＹ}}``,
``{{WORKSPACE_MEMROY_KEY}}``) reaches the model as written and no memory is injected. The rule:

1. the name is *folded*: NFKC (full-width and mathematical letters become ASCII), upper case,
   then the UTS #39 skeleton (:func:`~memory_core.confusables.skeleton`: a Cyrillic ``Е`` or a
   digit ``0`` is drawn as the Latin ``E`` and ``O``), and each run of spaces, ``_`` and ``-``
   becomes one ``_`` (the words of the name);
2. it is a typo of ``MEMORY`` or ``WORKSPACE_MEMORY_KEY`` when the folded name is at most one
   edit from it (Damerau–Levenshtein: one letter swapped with its neighbour, changed, dropped or
   added): for the long name that is its three words with one edit in one of them.

3. a name that holds the word *memory* or *index* but is no typo is written for a memory
   placeholder all the same when each of its words is one edit at most from memory's placeholder
   words (``MEMORY``, ``INDEX``, ``USER``, ``WORKSPACE``, ``KEY``): ``{{MEMORY_USER_INDEX}}``,
   ``{{USER_INDEX}}``, ``{{MEMORY_WORKSPACE_INDEX}}`` (:func:`memory_words_only`); with a word of
   its own (``{{WORKSPACE_MEMORY_URL}}``, ``{{SEARCH_INDEX}}``) it names another thing.

So the names of other things stay allowed however close they look (``{{MEMO}}``, ``{{memo}}``,
``{{MEMOIR}}``, ``{{MEMBER}}``, ``{{MEMORIES}}``, ``{{WORKSPACE_KEY}}``,
``{{WORKSPACE_SECRET_KEY}}``, ``{{WORKSPACE_MEMORY_URL}}``): two edits or a whole word apart.

Cost: each distinct name is folded once; a name whose folded length is more than one from both
placeholders' is never compared, and a comparison is one pass over the two names (the folding
table is read on the first name of a near length only).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

__all__ = [
    "MEMORY_OWN",
    "fold_name",
    "intended",
    "memory_words_only",
    "misspelt_placeholders",
    "within_one_edit",
]

MEMORY_OWN = ("{{MEMORY}}", "{{WORKSPACE_MEMORY_KEY}}")
"""The template placeholders memory fills in (I-1), as written."""

_OWN_NAMES = tuple(own.strip("{}") for own in MEMORY_OWN)
_LENGTHS = frozenset(len(name) + step for name in _OWN_NAMES for step in (-1, 0, 1))
_SEPARATORS = r"[\s_-]+"
_LENGTH_CHANGING = frozenset('"%')
"""The ASCII characters whose skeleton is longer (``%`` is drawn as ``°/₀``); folding any other
ASCII name changes its length only by joining its separators, so its length is known without
the skeleton's table."""


def fold_name(name: str) -> str:
    """``name`` as it is read for a typo (rule 1 of the module docstring): NFKC, upper case,
    skeleton, runs of separators as one ``_``, none at either end.

    >>> fold_name(" W\\u043erkspace  memory-key ")
    'WORKSPACE_MEMORY_KEY'
    """
    return _fold(name)


def _fold(name: str) -> str:
    # imported here: the confusables module loads ``importlib.resources`` (and ``tempfile``),
    # which a hook process never needs while no name is of a length near enough to compare (H-5)
    from memory_core.confusables import skeleton

    upper = unicodedata.normalize("NFKC", name).upper()
    return re.sub(_SEPARATORS, "_", skeleton(upper)).strip("_")


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by at most one edit (Damerau–Levenshtein distance <= 1):
    one character changed, dropped, added, or two neighbours swapped. One pass: the common
    start and end are skipped and what is left must be that one edit.

    >>> [within_one_edit("MEMORY", x) for x in ("MEMROY", "MEMOY", "MEMORYS", "MEMO", "MEMOIR")]
    [True, True, True, False, False]
    """
    if abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    if len(a) != len(b):
        return a[1:] == b or b[1:] == a
    if a[1:] == b[1:]:  # one changed (or none left)
        return True
    return len(a) >= 2 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:]


def intended(name: str) -> str | None:
    """The placeholder a ``{{NAME}}``'s ``name`` (between the braces) was written for, as
    written (``"{{MEMORY}}"``), or None when it is none's typo.

    >>> intended("MEM0RY"), intended("WORKSPACE_SECRET_KEY")
    ('{{MEMORY}}', None)
    """
    if (
        name.isascii()
        and not _LENGTH_CHANGING & set(name)
        and len(re.sub(_SEPARATORS, "_", name).strip("_")) not in _LENGTHS
    ):
        return None  # far off in length: folding keeps this name's length
    folded = fold_name(name)
    if len(folded) not in _LENGTHS:
        return None
    for own, own_name in zip(MEMORY_OWN, _folded(_OWN_NAMES), strict=True):
        if within_one_edit(folded, own_name):
            return own
    return None


_MEMORY_WORDS = ("MEMORY", "INDEX", "USER", "WORKSPACE", "KEY")


@cache
def _folded(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` folded as a name read for a typo is (:func:`fold_name`: ``INDEX`` is drawn as
    ``lNDEX``), so the two are compared alike; once per process."""
    return tuple(_fold(name) for name in names)


def memory_words_only(name: str) -> bool:
    """Whether each word of ``name`` folded (:func:`fold_name`) is one edit at most from one of
    memory's placeholder words (rule 3 of the module docstring).

    >>> memory_words_only("memory-user-index"), memory_words_only("WORKSPACE_MEMORY_URL")
    (True, False)
    """
    words = fold_name(name).split("_")
    own_words = _folded(_MEMORY_WORDS)
    return all(any(within_one_edit(word, own) for own in own_words) for word in words)


def misspelt_placeholders(names: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Of ``names`` (each a ``{{NAME}}`` as written and its NAME), those written for a memory
    placeholder but not as it is, each once, in order: ``{written: intended placeholder}``.

    >>> misspelt_placeholders([("{{MEMROY}}", "MEMROY"), ("{{CWD}}", "CWD")])
    {'{{MEMROY}}': '{{MEMORY}}'}
    """
    found: dict[str, str] = {}
    for written, name in dict.fromkeys(names):
        if written not in MEMORY_OWN and (own := intended(name)) is not None:
            found[written] = own
    return found
