"""Q-2c, I-8: masking a huge table row keeps nothing of it, and costs what its cells hold.

A ``MEMORY.md`` line may be megabytes of ``|a|a|…`` or ``| password | x |…``; the index is
masked at every Session start and ``GET …/index``. Rows were kept in a cache of the last eight
lines, each with an object per written cell: three distinct 2 MB lines of ``|a`` grew the
process by 200 MB each, and each such line took 9 s to split and judge cell by cell. Now a
row is read once per line per scan and dropped with it, and only a cell holding a credential
word is looked at. Memory is measured with ``tracemalloc``, work by counting the cells judged
and made, never by time.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from memory_core import credential_forms
from memory_core.credential_forms import Cell
from memory_core.credentials import mask_secret_lines

SECRET = "Zq8xW4pLk9"
CELLS = 200_000
MASK = "[masked: password-assignment]"


def test_q2c_masking_distinct_huge_rows_keeps_none_of_them() -> None:
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for variant in range(3):
            row = "|a" * CELLS + "|" + "b" * variant + f"| password | {SECRET} |"
            tracemalloc.reset_peak()
            at_start = tracemalloc.get_traced_memory()[0]
            masked = mask_secret_lines(["# Memory", row])
            peak = tracemalloc.get_traced_memory()[1] - at_start
            assert SECRET not in masked[1] and MASK in masked[1]
            # the masked copy and one lower-cased look at the line: no object per cell
            assert peak < 3 * len(row), (variant, peak)
            del row, masked
            gc.collect()
            assert tracemalloc.get_traced_memory()[0] - before < 64 * 1024, variant
    finally:
        tracemalloc.stop()


class _Work:
    """The cells a scan judges (as credential names) and the cells it makes."""

    def __init__(self) -> None:
        self.judged = 0
        self.made = 0


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> _Work:
    counted = _Work()
    judge = credential_forms.names_credential

    def judged(cell: str) -> str | None:
        counted.judged += 1
        return judge(cell)

    class Made(Cell):
        __slots__ = ()

        def __init__(self, text: str, start: int, end: int) -> None:
            counted.made += 1
            super().__init__(text, start, end)

    monkeypatch.setattr(credential_forms, "names_credential", judged)
    monkeypatch.setattr(credential_forms, "Cell", Made)
    return counted


def _masked(cell: str, cells: int, work: _Work) -> tuple[str, int, int]:
    """The masked row of ``cells`` cells ``cell``, and the cells judged and made for it."""
    work.judged = work.made = 0
    masked = mask_secret_lines(["# Memory", f"|{cell}" * cells])[1]
    return masked, work.judged, work.made


@pytest.mark.parametrize("cells", [1000, 4000])
def test_q2c_cells_naming_no_credential_word_are_neither_judged_nor_made(
    cells: int, work: _Work
) -> None:
    masked, judged, made = _masked("a", cells, work)
    assert masked == "|a" * cells
    assert (judged, made) == (0, 0)


def test_q2c_a_row_of_credential_words_costs_per_cell_what_one_cell_does(work: _Work) -> None:
    row_pairs = [_masked(f" password | {SECRET} |", pairs, work) for pairs in (1000, 2000, 4000)]
    for (masked, judged, made), pairs in zip(row_pairs, (1000, 2000, 4000), strict=True):
        assert masked.count(MASK) == pairs and SECRET not in masked
        assert (judged, made) == (pairs, 2 * pairs)  # each name judged once, it and its value made

    named_in_prose = [_masked("pw: x", cells, work) for cells in (1000, 2000, 4000)]
    for (_, judged, made), cells in zip(named_in_prose, (1000, 2000, 4000), strict=True):
        assert (judged, made) == (cells, 0)  # looked at once each, no cell names a credential
