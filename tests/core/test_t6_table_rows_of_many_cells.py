"""I-8, Q-2c: a table row of many cells costs what its written cells do, once per line.

Credentials in Markdown tables (``| password | x |``, a column headed ``Password``) are found by
splitting each table row into cells. Every cell was made an object, for every scan of the text
(several per answer, each line twice): ``GET …/index`` of a ``MEMORY.md`` with one 200 KB line
of ``|`` took 16 s (45 s under a profiler, 3.5 million cells), a Session start 2.3 s, and the
16 MiB an index may hold minutes and gigabytes. A blank cell names nothing and holds no
value, so only written cells are made, a row once per line. What is found and masked is
what the cell-by-cell split found: the former split is kept here as the reference. Work is
counted (cells made), never timed.
"""

from __future__ import annotations

import random
import re

import pytest
from memory_core import credential_forms
from memory_core.credential_forms import Cell, is_delimiter_row, table_row
from memory_core.credential_keys import credential_key_kind, phrases
from memory_core.credentials import find_secrets, mask_secret_lines

SECRET = "hunter2-Zq8xW4pLk9"
BLANK_CELLS = 200_000


def _reference_cells(line: str) -> list[Cell] | None:
    """The cells as the former split made them, every blank one included."""
    stripped = line.lstrip(" ")
    if not stripped.startswith("|") or len(line) - len(stripped) > 3:
        return None
    cells: list[Cell] = []
    position = line.index("|") + 1
    while position < len(line):
        end = line.find("|", position)
        if end == -1:
            end = len(line)
            if not line[position:].strip():
                break
        raw = line[position:end]
        text = raw.strip()
        start = position + (raw.index(text) if text else 0)
        cells.append(Cell(text, start, start + len(text)))
        position = end + 1
    return cells


@pytest.fixture
def cells_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every cell the scan makes."""
    made: list[str] = []

    class Counted(Cell):
        __slots__ = ()

        def __init__(self, text: str, start: int, end: int) -> None:
            made.append(text)
            super().__init__(text, start, end)

    monkeypatch.setattr(credential_forms, "Cell", Counted)
    return made


def test_i8_a_row_of_many_blank_cells_makes_only_its_written_ones(cells_made: list[str]) -> None:
    row = f"| password | {SECRET} |" + "|" * BLANK_CELLS
    index = ["# Memory", "", row, "- [Notes](notes.md) - what I keep"]

    masked = mask_secret_lines(index)
    found = find_secrets("\n".join(index))

    assert SECRET not in masked[2] and "[masked: password-assignment]" in masked[2]
    assert found == [("password-assignment", 3)]
    assert set(cells_made) == {"password", SECRET}  # no blank cell was made
    assert len(cells_made) <= 4  # the name and its value, once per line in each of two scans


def test_i8_a_credential_column_cell_in_a_row_of_many_blank_cells_is_still_masked(
    cells_made: list[str],
) -> None:
    table = ["| Service | Password |", "|---|---|", f"| db | {SECRET} |" + "|" * BLANK_CELLS]
    assert SECRET not in mask_secret_lines(table)[2]
    assert "" not in cells_made


def _reference_name(cell: str) -> str | None:
    """The kind a cell names as the former check found it: a prose name spanning the cell, or
    a key."""
    text = cell.strip("*_` ")
    if not text:
        return None
    for kind, start, end in phrases(text):
        if (start, end) == (0, len(text)):
            return kind
    return credential_key_kind(text) if " " not in text else None


def test_i8_rows_are_split_into_the_cells_the_former_split_made() -> None:
    chooser = random.Random(8)  # noqa: S311 - test data, not a secret
    pieces = ["|", "|", " ", "  ", "a", "pw", "`x`", "\t", "---", ":", "-", "\u00a0", "\u3000"]
    names = ["Password", "**PW**", "api key", "DB_PASSWORD", "apiKey", "sort_key", "пароль"]
    names += ["密码", "mot de passe", "İpass", "bypass", "Token", "key", "api", "x_secret"]
    for _ in range(4000):
        line = "".join(chooser.choice(pieces + names) for _ in range(chooser.randint(0, 14)))
        reference = _reference_cells(line)
        row = table_row(line)
        if reference is None:
            assert row is None, line
            continue
        assert row is not None, line
        assert row.count == len(reference), line
        written = {i: cell for i, cell in enumerate(reference) if cell.text}
        every = range(-1, len(reference) + 1)
        assert {i: row.cell(i) for i in every} == {i: written.get(i) for i in every}, line
        named = [(i, kind) for i, cell in written.items() if (kind := _reference_name(cell.text))]
        assert list(row.named) == named, line
        assert list(row.named_cells) == [written[i] for i, _ in named], line
        after = [written.get(i + 1) for i, _ in named]
        assert [row.after_named(at) for at in range(len(named))] == after, line
        delimiter = len(written) == len(reference) and all(
            re.fullmatch(":?-+:?", cell.text) for cell in reference
        )
        assert is_delimiter_row(row) == delimiter, line
