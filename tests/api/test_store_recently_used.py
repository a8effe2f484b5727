"""The one LRU map of the store (``memory_api.store.recently_used``): what a process keeps per
agent or repository (open search indexes and records files, overview rows, file lists) stays
bounded, and a value let go is handed to ``on_drop`` (closed) exactly once."""

from __future__ import annotations

import functools
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from memory_api.store.recently_used import RecentlyUsed


def test_at_most_limit_values_are_kept_the_least_recently_used_let_go_first() -> None:
    dropped: list[str] = []
    recent: RecentlyUsed[str, str] = RecentlyUsed(2, on_drop=dropped.append)
    for key in "abc":
        recent.put(key, key.upper())

    assert len(recent) == 2
    assert "a" not in recent
    assert (recent.get("b"), recent.get("c")) == ("B", "C")
    assert dropped == ["A"]


def test_a_get_makes_a_value_the_most_recently_used() -> None:
    dropped: list[str] = []
    recent: RecentlyUsed[str, str] = RecentlyUsed(2, on_drop=dropped.append)
    recent.put("a", "A")
    recent.put("b", "B")

    assert recent.get("a") == "A"
    recent.put("c", "C")

    assert dropped == ["B"]
    assert "a" in recent
    assert "c" in recent


def test_get_or_make_makes_only_what_is_not_kept() -> None:
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    recent: RecentlyUsed[str, str] = RecentlyUsed(2)
    assert recent.get_or_make("a", lambda: make("a")) == "A"
    assert recent.get_or_make("a", lambda: make("a")) == "A"
    recent.get_or_make("b", lambda: make("b"))
    recent.get_or_make("a", lambda: make("a"))  # a most recent: c lets b go
    recent.get_or_make("c", lambda: make("c"))

    assert made == ["a", "b", "c"]
    assert "b" not in recent
    assert recent.get("a") == "A"


def test_each_value_let_go_is_dropped_exactly_once() -> None:
    dropped: Counter[int] = Counter()
    recent: RecentlyUsed[int, int] = RecentlyUsed(3, on_drop=lambda value: dropped.update([value]))
    for key in range(10):
        recent.get_or_make(key, functools.partial(int, key))
        recent.get_or_make(key, lambda: -1)  # kept: not made, nothing dropped

    assert dropped == Counter(range(7))
    assert [recent.get(key) for key in (7, 8, 9)] == [7, 8, 9]


def test_an_unusable_value_is_made_again_and_the_old_one_dropped() -> None:
    dropped: list[str] = []
    recent: RecentlyUsed[str, str] = RecentlyUsed(2, on_drop=dropped.append)
    recent.put("a", "old")

    assert recent.get("a", usable=lambda value: value != "old") is None
    assert recent.get_or_make("a", lambda: "new", usable=lambda value: value != "old") == "new"
    assert dropped == ["old"]
    recent.put("a", "new")  # the same value again: still kept, not dropped
    assert dropped == ["old"]


def test_an_unusable_value_keeps_its_place() -> None:
    recent: RecentlyUsed[str, str] = RecentlyUsed(2)
    recent.put("a", "A")
    recent.put("b", "B")

    assert recent.get("a", usable=lambda _: False) is None
    recent.put("c", "C")

    assert "a" not in recent
    assert "b" in recent


def test_what_make_raises_is_raised_and_nothing_is_kept() -> None:
    recent: RecentlyUsed[str, str] = RecentlyUsed(2)

    def fail() -> str:
        raise OSError("no disk")

    with pytest.raises(OSError, match="no disk"):
        recent.get_or_make("a", fail)
    assert len(recent) == 0


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        RecentlyUsed[str, str](0)


def test_concurrent_get_or_make_makes_one_value_per_key() -> None:
    threads = 8
    arrived = 0
    everyone = threading.Condition()
    made: Counter[str] = Counter()
    recent: RecentlyUsed[str, object] = RecentlyUsed(4)

    def make(key: str) -> object:
        with everyone:  # hold the first making until every thread is asking too
            everyone.wait_for(lambda: arrived == threads)
        made[key] += 1
        return object()

    def ask() -> list[object]:
        nonlocal arrived
        with everyone:
            arrived += 1
            everyone.notify_all()
        return [recent.get_or_make(key, functools.partial(make, key)) for key in "abcabc"]

    with ThreadPoolExecutor(max_workers=threads) as pool:
        answers = [future.result() for future in [pool.submit(ask) for _ in range(threads)]]

    assert made == Counter({"a": 1, "b": 1, "c": 1})
    assert len({id(value) for answer in answers for value in answer}) == 3
