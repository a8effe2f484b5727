"""T-5b: linting an index costs work linear in its links and the scope's files.

Each dangling link is looked up among the scope's file names (another case, drawn alike): one
dict read per link against tables built once per lint, never a scan of every name per link.
An index of n dangling links over n files made a lint look at n² names (4000 of each: 13 s).
The work is counted here as the names' case folds and skeleton keys computed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from memory_core import lint
from memory_core.lint import lint_index


class CountedName(str):
    """A file name that counts each time it is case-folded."""

    folds = 0

    def casefold(self) -> str:
        CountedName.folds += 1
        return super().casefold()


def name_work(n: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """Case folds of the names and skeleton keys computed to lint an index of ``n`` dangling
    links and ``n`` linked files."""
    keys = 0
    look_keys: Callable[[str], tuple[tuple[str, str], tuple[str, str]]] = lint._look_keys

    def counted(name: str) -> tuple[tuple[str, str], tuple[str, str]]:
        nonlocal keys
        keys += 1
        return look_keys(name)

    monkeypatch.setattr(lint, "_look_keys", counted)
    CountedName.folds = 0
    files = [CountedName(f"note-{i}.md") for i in range(n)]
    index = "".join(f"- [Gone {i}](gone-{i}.md) x\n- [Note](note-{i}.md) y\n" for i in range(n))
    findings = lint_index(index, files)
    assert len([f for f in findings if f.code == "dangling-link"]) == n
    return keys + CountedName.folds


def test_t5b_dangling_links_are_looked_up_in_work_linear_in_links_and_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small, double = name_work(100, monkeypatch), name_work(200, monkeypatch)
    assert small > 0 and double <= 2 * small + 10
