"""Counting the reads of one index text, to check a reader's cost grows with the index, not
with the number of files it is asked about (R-2): no timed assertion, the count itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from memory_core import index


def count_index_reads(monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    """Record each time ``memory_core.index`` splits the whole of ``text`` into lines: once per
    read of that index, whichever reader does it (one name's ``prune_index``, or many names'
    ``index_lines_linking_each``). The list grows as the reads happen."""
    reads: list[str] = []
    for name in ("line_texts", "lines_with_ends"):
        split: Callable[[str], list[str]] = getattr(index, name)

        def counted(whole: str, split: Callable[[str], list[str]] = split) -> list[str]:
            """``split(whole)``, recorded when ``whole`` is the index counted."""
            if whole == text:
                reads.append(whole)
            return split(whole)

        monkeypatch.setattr(index, name, counted)
    return reads
