"""Matching the lines of two texts at a cost bounded by what differs (V-2, R-2, Q-2c).

:class:`difflib.SequenceMatcher` costs far more than the texts' size when lines repeat: every
line is compared with every place its text occurs on the other side, again for each matching
block it finds. Measured: two 32 KB notes of alternating ``a``/``b`` lines took 31 s of CPU
for one ``GET …/diff`` (a 1 MiB topic file, the cap, would take days), and a 80 KB
``MEMORY.md`` of 101 repeated lines merged in a push took 4.6 s, all of it holding the GIL and
the scope's lock. Any caller who can make two versions of a file (a token, a machine, the
agent's own file tools) could stall the service with one request.

:class:`BoundedMatcher` is a drop-in ``SequenceMatcher`` (``get_matching_blocks`` and all that
derives from it: ``get_opcodes``, ``get_grouped_opcodes``; also merge3's
``sequence_matcher``). The lines both texts start and end with are matched first (a linear
scan); difflib then matches only the lines in between, and only when those are at most
:data:`MATCH_BUDGET` pairs (lines of one side times lines of the other). Past that the lines
in between are one replaced block: a correct diff (applied, it gives the new text; a merge
keeps every added line), not the smallest one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from difflib import Match, SequenceMatcher
from typing import TypeVar

__all__ = ["MATCH_BUDGET", "BoundedMatcher"]

T = TypeVar("T", bound=Hashable)

MATCH_BUDGET = 250_000
"""Pairs of differing lines (one side's times the other's, after the common start and end)
difflib may match: 500 against 500 lines, or 50 against 5,000; tens of milliseconds at
worst, whatever the lines hold."""


class BoundedMatcher(SequenceMatcher[T]):
    """A :class:`difflib.SequenceMatcher` whose cost is bounded (see the module docstring).

    Same constructor; ``isjunk`` and ``autojunk`` are passed on to the matching of the lines
    in between. Matching blocks are difflib's, shifted past the common start, plus the common
    start and end, plus the ``(len(a), len(b), 0)`` sentinel difflib ends with. Only they and
    what difflib derives from them are served (not ``find_longest_match`` nor ``quick_ratio``:
    nothing here indexes the whole texts).
    """

    def __init__(
        self,
        isjunk: Callable[[T], bool] | None = None,
        a: Sequence[T] = (),
        b: Sequence[T] = (),
        autojunk: bool = True,
    ) -> None:
        self._junk, self._autojunk = isjunk, autojunk
        self._a: Sequence[T] = ()
        self._b: Sequence[T] = ()
        self._blocks: list[Match] | None = None
        super().__init__(isjunk, a, b, autojunk)

    def set_seq1(self, a: Sequence[T]) -> None:
        """Set the first sequence (kept as given)."""
        self._a, self._blocks, self.opcodes = a, None, None

    def set_seq2(self, b: Sequence[T]) -> None:
        """Set the second sequence; difflib's index of it is built only for the lines in
        between, by :meth:`get_matching_blocks` (never for a whole 16 MiB index)."""
        self._b, self._blocks, self.opcodes = b, None, None

    def get_matching_blocks(self) -> list[Match]:
        """The matching blocks, as difflib's (ascending, the last ``(len(a), len(b), 0)``)."""
        if self._blocks is not None:
            return self._blocks
        a, b = self._a, self._b
        head = 0
        while head < len(a) and head < len(b) and a[head] == b[head]:
            head += 1
        tail = 0
        while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
            tail += 1
        middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
        blocks = [Match(0, 0, head)] if head else []
        if middle_a and middle_b and len(middle_a) * len(middle_b) <= MATCH_BUDGET:
            inner = SequenceMatcher(self._junk, middle_a, middle_b, self._autojunk)
            blocks += [
                Match(block.a + head, block.b + head, block.size)
                for block in inner.get_matching_blocks()
                if block.size
            ]
        if tail:
            blocks.append(Match(len(a) - tail, len(b) - tail, tail))
        blocks.append(Match(len(a), len(b), 0))
        self._blocks = blocks
        return blocks
