"""A-10a, A-1: the second reading of a JSON text a decoder took (:mod:`memory_core.json_members`)
takes every such text, or says it could not; it never reports "no repeat" for a text it did not
read."""

from __future__ import annotations

import pytest
from memory_core.json_members import UncheckedMembers, repeated_member


@pytest.mark.parametrize("value", ["9" * 4301, "-" + "9" * 4301])
def test_a10a_a_repeat_beside_an_integer_python_would_refuse_is_found(value: str) -> None:
    """Python's ``int`` refuses more than 4300 digits, which msgspec skips in a field it does
    not know: the second reading keeps numbers as text, so the repeat is still found. (A float
    of any length, ``NaN`` and ``Infinity`` Python reads as it is: they test no change.)"""
    body = f'{{"project": "a", "note": {value}, "project": "b"}}'.encode()

    assert repeated_member(body) == "project"


def test_a10a_a_text_too_deep_to_read_again_is_unchecked_not_passed() -> None:
    body = ('{"note": ' + "[" * 5000 + "]" * 5000 + ', "project": "b"}').encode()

    with pytest.raises(UncheckedMembers, match="nested too deep"):
        repeated_member(body)
