"""A shell pattern matched against a name in time linear in the pattern's length (H-5).

:func:`fnmatch.fnmatchcase` translates a pattern by searching the rest of it for a ``]`` from
each ``[``: a ``[`` that never closes (a literal one) makes that quadratic, so a word of
100,000 ``[`` (``echo [[[…``, ``find -name '[[[…'``) read for minutes. :func:`fnmatch_case`
spells each such ``[`` as ``[[]``, which fnmatch reads as the same one character at once.
"""

from __future__ import annotations

import functools

__all__ = ["fnmatch_case"]


def fnmatch_case(name: str, pattern: str) -> bool:
    """Whether ``name`` matches the shell ``pattern`` as :func:`fnmatch.fnmatchcase` decides
    it (``*``, ``?``, ``[…]``; a ``[`` no ``]`` closes is itself), in time linear in the
    pattern's length (:func:`_closed`)."""
    import fnmatch  # only for a word with a pattern (H-5: the hook's start-up)

    return fnmatch.fnmatchcase(name, _closed(pattern))


@functools.lru_cache(maxsize=256)
def _closed(pattern: str) -> str:
    """``pattern`` with each ``[`` after its last ``]`` (one fnmatch reads as itself) spelt
    ``[[]``: the same character. A ``[`` before the last ``]`` is unchanged and closes where
    it did (at the first ``]`` after it, never one of those added)."""
    last = pattern.rfind("]")
    tail = pattern[last + 1 :]
    return pattern if "[" not in tail else pattern[: last + 1] + tail.replace("[", "[[]")
