"""I-4: the one cut, ``memory_core.caps.share_budget``, that the service applies at CHAR_CAP and a
harness's fitting at its own room (H-1): a fair share between the scopes, a prefix of each."""

from __future__ import annotations

import itertools

import pytest
from memory_core.caps import share_budget


def ends(*costs: int) -> list[int]:
    return list(itertools.accumulate(costs))


@pytest.mark.parametrize(
    ("scopes", "budget", "kept"),
    [
        ([ends(10, 10), ends(10)], 30, [2, 1]),  # all fit: all kept
        ([ends(10, 10, 10)], 25, [2]),  # one scope: the longest prefix that fits
        ([ends(10), ends(40, 40, 40)], 60, [1, 1]),  # the user needs less than half: hands on
        ([ends(40, 40, 40), ends(10)], 60, [1, 1]),  # the Workspace needs less: hands on
        ([ends(30, 30), ends(30, 30)], 61, [1, 1]),  # both over half: 30 and 31 each
        ([ends(31, 1), ends(31, 1)], 63, [1, 2]),  # an odd budget: the user has the smaller half
        ([ends(5, 50, 1), ends(5)], 40, [1, 1]),  # a line that does not fit ends the scope
        ([[], ends(10, 10)], 15, [0, 1]),  # a scope without lines hands everything on
        ([ends(10), ends(10)], -1, [0, 0]),  # no room at all
    ],
)
def test_i4_each_scope_keeps_a_prefix_within_its_fair_share(
    scopes: list[list[int]], budget: int, kept: list[int]
) -> None:
    assert share_budget(scopes, budget) == kept


def test_i4_the_budget_is_shared_between_at_most_two_scopes() -> None:
    with pytest.raises(ValueError, match="two scopes"):
        share_budget([ends(1), ends(1), ends(1)], 1)
