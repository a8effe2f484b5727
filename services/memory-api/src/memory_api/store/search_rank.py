"""The relevance score of a search hit (S-1): BM25 per field, the fields weighted and summed.

For a topic file ``d`` and the query's terms ``t``::

    score(d) = Σ_field weight(field) · Σ_t idf(field, t) · tf·(k1+1) / (tf + k1·(1−b+b·len/avg))

with ``tf`` how often ``t`` matches in that field of ``d``, ``len`` the field's length (words,
and characters of unspaced scripts: :func:`~memory_api.store.search_text.field_length`), ``avg``
its average over the agent's topic files, ``k1 = 1.2``, ``b = 0.75``, and
``idf(field, t) = ln(1 + (N − n + 0.5) / (n + 0.5))`` over the ``N`` topic files, ``n`` of which
hold ``t`` in that field. The weights (:data:`FIELD_WEIGHTS`) apply outside each field's
saturation, so one match in a name or description outranks any number in a body alone; the
idf stays positive for a word most files hold (SQLite's built-in ``bm25()`` floors it to 10⁻⁶
there, which scored every ``deploy`` hit of the demo 0.0). Higher is better; a score compares
hits of one query over one agent's memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FIELDS", "FIELD_WEIGHTS", "K1", "B", "FieldStats", "score"]

FIELDS = ("name", "description", "body")
FIELD_WEIGHTS = (10.0, 4.0, 1.0)
"""Weights of the name, description and body fields."""
K1 = 1.2
B = 0.75


@dataclass(frozen=True, slots=True)
class FieldStats:
    """What the score needs of the whole memory: ``files`` (N), per field the average length
    and, per query term, how many files hold it there (``holding[field][term]``)."""

    files: int
    average_length: tuple[float, float, float]
    holding: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

    def idf(self, field: int, term: int) -> float:
        """``ln(1 + (N − n + 0.5) / (n + 0.5))``: positive, larger for rarer terms."""
        held = min(self.holding[field][term], self.files)
        return math.log(1 + (self.files - held + 0.5) / (held + 0.5))


def score(
    stats: FieldStats,
    lengths: Sequence[int],
    frequencies: Sequence[Sequence[int]],
) -> float:
    """The score of one file: ``lengths[field]`` and ``frequencies[field][term]`` its counts."""
    total = 0.0
    for field, weight in enumerate(FIELD_WEIGHTS):
        average = stats.average_length[field] or 1.0
        norm = K1 * (1 - B + B * lengths[field] / average)
        for term, frequency in enumerate(frequencies[field]):
            if frequency:
                saturated = frequency * (K1 + 1) / (frequency + norm)
                total += weight * stats.idf(field, term) * saturated
    return total
