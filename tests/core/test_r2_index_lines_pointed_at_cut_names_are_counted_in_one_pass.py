"""R-2, K-7: how many index lines a cut of each long name points there, in one pass.

A disk of short names (eCryptfs: 143 bytes) keeps each long name under a cut and points the
index's links there; the merge's line says how many index lines it pointed at each cut
(:func:`memory_core.short_names.linking_lines`), on the service's take of a push and on a
machine's fetch. That count read the whole index once per renamed file: 200 cut names in an
index of 5,000 lines took tens of seconds of a push. Each line is read once now, and credits
every renamed file it links, in any link form (T-4).
"""

from __future__ import annotations

from typing import Any

import pytest
from memory_core import short_names
from memory_core.index_merge import rewrite_links
from memory_core.short_names import linking_lines, relinked_index

RENAMES = {
    "a.md": "a~111111.md",
    "b.md": "b~222222.md",
    "c d.md": "c d~333333.md",
    "e.md": "e~444444.md",
}
INDEX = (
    "# Memory\n"
    "- [A](a.md) and [B](./b.md#why) — both\n"  # a, b
    "- [[a]] beside <a href='c d.md'>c</a>\n"  # a, c d
    "- [A twice](a.md) [A again](<a.md>)\n"  # a, once however many links
    "- [C][c]\n"
    "[c]: <c d.md>\n"  # c d (the definition is the line that names it)
    "- `b.md` - an entry, and [other](other.md)\n"  # b
    "- a.md named in prose, and [code](`a.md`) in a code span\n"  # nothing
    "- [D](d.md) renamed by no one\n"
)


def test_r2_each_renamed_file_counts_the_lines_that_link_it() -> None:
    assert linking_lines(INDEX.encode(), RENAMES) == {"a.md": 3, "b.md": 2, "c d.md": 2, "e.md": 0}


def test_r2_the_counts_are_the_lines_the_relinked_index_points_at_each_file() -> None:
    """Each count is what pointing that file's links alone changes of the index's lines."""
    lines = INDEX.encode().splitlines(keepends=True)
    for old, new in RENAMES.items():
        changed = [line for line in lines if relinked_index(line, {old: new}) != line]
        assert linking_lines(INDEX.encode(), RENAMES)[old] == len(changed), old


def test_r2_an_index_that_is_not_utf8_counts_no_line() -> None:
    data = INDEX.encode() + b"\xff\n"
    assert linking_lines(data, RENAMES) == dict.fromkeys(RENAMES, 0)


def test_r2_each_index_line_is_read_once_whatever_the_count_of_cut_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = [f"note-{number}-" + "é" * 80 + ".md" for number in range(40)]
    renames = {name: f"note-{number}~{number:06x}.md" for number, name in enumerate(names)}
    index = "".join(f"- [{number}]({name}) note {number}\n" for number, name in enumerate(names))
    reads: list[str] = []

    def reading(line: str, *args: Any, **kwargs: Any) -> str:
        reads.append(line)
        return rewrite_links(line, *args, **kwargs)

    monkeypatch.setattr(short_names, "rewrite_links", reading)
    counts = linking_lines(index.encode(), renames)

    assert counts == dict.fromkeys(names, 1)
    assert len(reads) == len(names)  # one read of each of its 40 lines, not 40 of each
