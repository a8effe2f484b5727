"""Matching the lines of two texts at a cost bounded by their size (V-2, R-2, Q-2c).

:class:`difflib.SequenceMatcher` costs far more than the texts' size when lines repeat: every
line is compared with every place its text occurs on the other side, again for each matching
block it finds. Measured: two 32 KB notes of alternating ``a``/``b`` lines took 31 s of CPU
for one ``GET …/diff``; ``a`` 500 times against ``a``/``b`` 250 times (1 KB each) 2.5 s. Any
caller who can make two versions of a file (a token, a machine, the agent's own file tools)
could stall the service with one request.

:class:`PatienceMatcher` matches lines the way ``git diff --patience`` and Breezy do:

1. the lines both regions start and end with are matched (a linear scan);
2. the lines that occur exactly once on each side are the anchors; the longest run of them
   in the same order on both sides (patience sorting, ``n log n``) is matched;
3. the same is done again in each gap between two anchors, at most :data:`MAX_DEPTH` levels
   deep: a line that repeats in the whole file is often unique within a gap;
4. a gap left without anchors is matched by difflib when it is small (at most
   :data:`SMALL_REGION` pairs of lines, and :data:`DIFFLIB_BUDGET` pairs over the whole
   matching), else it is one replaced block.

Each level looks at every line at most once, so the cost is at most ``MAX_DEPTH`` passes over
both texts plus the small difflib regions, whatever the lines hold. For ordinary text (lines
that are mostly unique) the result is the minimal one: two edits far apart are two hunks. For
lines that repeat it is a correct diff (applied, it gives the new text; a merge keeps every
added line), not always the smallest one.

The library ``patiencediff`` (Breezy's) was measured for this and not taken: its matcher
stops at 10 levels by raising (the Rust build a ``PanicException``, not an ``Exception``,
with a backtrace on stderr), which 766 nested lines reach.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from difflib import Match, SequenceMatcher
from typing import TypeVar

__all__ = ["DIFFLIB_BUDGET", "MAX_DEPTH", "SMALL_REGION", "PatienceMatcher"]

T = TypeVar("T", bound=Hashable)

MAX_DEPTH = 10
"""Levels of gaps between anchors looked into (each level is at most one pass over the lines;
ordinary text needs two or three)."""

SMALL_REGION = 2_500
"""Pairs of lines (one side's times the other's) of a gap without anchors that difflib may
match: 50 against 50 lines, 7 ms measured at worst whatever they hold."""

DIFFLIB_BUDGET = 25_000
"""Pairs of lines difflib may match over one whole matching: ten such gaps at most."""


def _anchors(a: Sequence[T], b: Sequence[T]) -> list[tuple[int, int]]:
    """The longest run of lines unique on both sides that comes in the same order on both, as
    ``(index in a, index in b)`` pairs, ascending on both (patience sorting)."""
    in_a: dict[T, int] = {}
    for line in a:
        in_a[line] = in_a.get(line, 0) + 1
    in_b: dict[T, int] = {}
    for line in b:
        if in_a.get(line) == 1:
            in_b[line] = in_b.get(line, 0) + 1
    unique_in_a = {line: i for i, line in enumerate(a) if in_b.get(line) == 1}
    pairs = [(unique_in_a[line], j) for j, line in enumerate(b) if in_b.get(line) == 1]
    tops: list[int] = []  # the smallest index in a ending a run of each length
    ends: list[int] = []  # the pair that ends it
    before: list[int] = []  # for each pair, the pair before it in its run (-1: none)
    for k, (i, _) in enumerate(pairs):
        length = bisect_left(tops, i)
        before.append(ends[length - 1] if length else -1)
        if length == len(tops):
            tops.append(i)
            ends.append(k)
        else:
            tops[length], ends[length] = i, k
    run: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        run.append(pairs[k])
        k = before[k]
    return run[::-1]


class PatienceMatcher(SequenceMatcher[T]):
    """A :class:`difflib.SequenceMatcher` whose cost is bounded (see the module docstring).

    Same constructor; ``isjunk`` and ``autojunk`` are passed on to difflib's matching of the
    small gaps without anchors. Serves :meth:`get_matching_blocks` (ascending, the last
    ``(len(a), len(b), 0)``) and what difflib derives from it: ``get_opcodes``,
    ``get_grouped_opcodes``, ``ratio``; also merge3's ``sequence_matcher``. Not
    ``find_longest_match`` nor ``quick_ratio``: nothing here indexes a whole text.
    """

    def __init__(
        self,
        isjunk: Callable[[T], bool] | None = None,
        a: Sequence[T] = (),
        b: Sequence[T] = (),
        autojunk: bool = True,
    ) -> None:
        self._junk, self._autojunk = isjunk, autojunk
        self._difflib_left = DIFFLIB_BUDGET
        self.a: Sequence[T] = ()
        self.b: Sequence[T] = ()
        self._blocks: list[Match] | None = None
        super().__init__(isjunk, a, b, autojunk)

    def set_seq1(self, a: Sequence[T]) -> None:
        """Set the first sequence (kept as given)."""
        self.a, self._blocks, self.opcodes = a, None, None

    def set_seq2(self, b: Sequence[T]) -> None:
        """Set the second sequence (kept as given: difflib's index of it is never built)."""
        self.b, self._blocks, self.opcodes = b, None, None

    def get_matching_blocks(self) -> list[Match]:
        """The matching blocks, as difflib's (ascending, the last ``(len(a), len(b), 0)``)."""
        if self._blocks is not None:
            return self._blocks
        self._difflib_left = DIFFLIB_BUDGET
        pairs: list[tuple[int, int, int]] = []
        self._match(0, len(self.a), 0, len(self.b), MAX_DEPTH, pairs)
        blocks: list[Match] = []
        for i, j, size in pairs:
            if (
                blocks
                and blocks[-1].a + blocks[-1].size == i
                and blocks[-1].b + blocks[-1].size == j
            ):
                blocks[-1] = Match(blocks[-1].a, blocks[-1].b, blocks[-1].size + size)
            else:
                blocks.append(Match(i, j, size))
        blocks.append(Match(len(self.a), len(self.b), 0))
        self._blocks = blocks
        return blocks

    def _match(
        self, alo: int, ahi: int, blo: int, bhi: int, depth: int, out: list[tuple[int, int, int]]
    ) -> None:
        """Append the matches of ``a[alo:ahi]`` and ``b[blo:bhi]`` to ``out``, in order."""
        a, b = self.a, self.b
        head = 0
        while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
            head += 1
        if head:
            out.append((alo, blo, head))
            alo, blo = alo + head, blo + head
        tail = 0
        while alo < ahi - tail and blo < bhi - tail and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
            tail += 1
        ahi, bhi = ahi - tail, bhi - tail
        if alo < ahi and blo < bhi:
            anchors = _anchors(a[alo:ahi], b[blo:bhi]) if depth else []
            if anchors:
                base_a, base_b = alo, blo
                for i, j in anchors:
                    self._match(alo, base_a + i, blo, base_b + j, depth - 1, out)
                    out.append((base_a + i, base_b + j, 1))
                    alo, blo = base_a + i + 1, base_b + j + 1
                self._match(alo, ahi, blo, bhi, depth - 1, out)
            else:
                self._match_small(alo, ahi, blo, bhi, out)
        if tail:
            out.append((ahi, bhi, tail))

    def _match_small(
        self, alo: int, ahi: int, blo: int, bhi: int, out: list[tuple[int, int, int]]
    ) -> None:
        """Match a gap without anchors with difflib if it is small and the budget allows;
        else leave it unmatched (one replaced block)."""
        pairs = (ahi - alo) * (bhi - blo)
        if pairs > SMALL_REGION or pairs > self._difflib_left:
            return
        self._difflib_left -= pairs
        inner = SequenceMatcher(self._junk, self.a[alo:ahi], self.b[blo:bhi], self._autojunk)
        out.extend((alo + i, blo + j, size) for i, j, size in inner.get_matching_blocks() if size)
