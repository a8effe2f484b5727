"""Regular expressions compiled where they are first used, not at import (H-5).

A hook process imports the shared rules for the one check it makes; a module that compiled
every pattern it holds at import made each such process pay for all of them (the hidden-text
rule's 13, the Markdown reader's 21: several milliseconds of a Session-start hook's budget).
A module keeps its patterns as strings and matches with ``compiled(PATTERN).match(…)``: the
first call compiles, each later one is a dictionary look-up.

>>> compiled("[a-z]+").fullmatch("memory") is not None
True
>>> compiled("[a-z]+") is compiled("[a-z]+")
True
"""

from __future__ import annotations

import functools
import re

__all__ = ["compiled"]


@functools.cache
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled with ``flags`` (``re`` flags), once per process: every later call
    returns the same :class:`re.Pattern`. Raises :class:`re.error` for a pattern ``re`` refuses
    (the first time it is used, so each module's tests use each of its patterns)."""
    return re.compile(pattern, flags)
