"""T-5/I-8: the scan of a line holding many prose names of credentials is linear in its length.

A prose name's bare value runs to the end of its run of value characters, so in ``:pw:pw:pw…``
every name gave a value reaching the end of the line, which was matched and judged again per
name: 6,000 characters took 2 s, a 1 MiB line (memory files are read up to 1 MiB) hours. A
value found covers the names after it, but one judged no credential did not: finding the
credentials in 30,000 characters of ``=API-Key`` (every name's value ``API-Key=API-Key=…``,
placeholder words) took 22 s, of ``密码是`` 52 s, and every ``«`` before one ``»`` gave a value
ending there (``pw „`` × n and one ``“``: 36 s). The
scan must find and mask exactly what it did (no cap, no skipped line): the former prose-name
code is kept here as the reference the scan is compared with on generated lines. Work is
counted (characters judged or summarised, value matches), never timed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from memory_core import credential_forms, credential_suffixes
from memory_core.credential_forms import (
    _BARE,
    _QUOTED,
    _QUOTED_GROUPS,
    _SPACES,
    Span,
    _past_filler,
    _value_span,
    _without_trailing_marks,
)
from memory_core.credential_keys import PHRASE_HINTS, phrases
from memory_core.credentials import find_secrets, mask_secret_lines
from memory_core.markdown import blank_code_spans

_T = TypeVar("_T")


# ---- the reference: prose-name values as they were found before the scan was made linear ----
def _reference_phrase_value(line: str, at: int, kind: str) -> Span | None:
    strong = False
    separator = credential_forms._SEPARATOR.match(line, at)
    if separator is not None and separator.end() > at:
        at = separator.end()
    elif line.startswith(("`", " `"), at):
        at = line.index("`", at)
    else:
        after_filler = _past_filler(line, at)
        if after_filler is not None:
            at = after_filler
        elif line.startswith((" ", "\t"), at):
            at = _SPACES.match(line, at).end()  # type: ignore[union-attr] # matches anywhere
        else:
            return None
        strong = True
    quoted = _QUOTED.match(line, at)
    if quoted is not None:
        group = next(name for name in _QUOTED_GROUPS if quoted.group(name) is not None)
        return _value_span(quoted.start(group), quoted.group(group), kind, strong=strong)
    bare = _BARE.match(line, at)
    if bare is None:
        return None
    return _value_span(at, _without_trailing_marks(bare.group()), kind, strong=strong)


def _reference_phrase_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(PHRASE_HINTS):
        return
    prose = blank_code_spans(line) if "`" in line else line
    for kind, start, end in phrases(line):
        if prose[start] != line[start]:
            continue
        found = _reference_phrase_value(line, end, kind)
        if found is not None:
            yield found


# ---- generated lines: names, separators, values and prose, glued or spaced ----
_NAMES = [
    "password", "Password", "pw", "PW", "pass", "passwd", "passphrase", "Passwort", "пароль",
    "密码", "パスワード", "비밀번호", "token", "Token", "secret", "api_key", "api key", "API-Key",
    "apiKey", "DB_PASSWORD", "root pw", "mot de passe", "contraseña", "токен",
]  # fmt: skip
_SEPARATORS = [
    ":", ": ", "=", " = ", " is ", " was ", " ist ", " lautet ", "：", "=>", " -> ", "→", " — ",
    "是", "は", "는", "`", " `", "**: ", "_:", "'", '"', ": '", ': "', " «", " „", "",
    " for the admin: ", " of the NAS is ",
]  # fmt: skip
_VALUES = [
    "Lm29xQ!k", "hunter2", "200152", "sunshine", "Winter2025!", "ghp_A1b2C3d4E5f6G7h8I9j0K1l2",
    "abc...", "abc…", "x", "$TOKEN", "<token>", "****", "your-api-key-here", "os.environ[",
    "/home/alex", "--frozen", "uKdMNKHWnfVaEpVwKZgT", "проходит", "密码是", "4096", "a.b.c",
]  # fmt: skip
_GLUE = [*" ,;|.:'\"`()<>[]{}-_!?", "»", "”", " and ", " see ", ".", "...", "\t"]


def _generated_lines(seed: int, count: int) -> list[str]:
    generator = random.Random(seed)  # noqa: S311 - generated test lines, no secret
    pieces = [_NAMES, _SEPARATORS, _VALUES, _GLUE]
    lines = []
    for _ in range(count):
        parts: list[str] = []
        for _ in range(generator.randint(1, 14)):
            if generator.random() < 0.6:
                parts += [
                    generator.choice(_NAMES),
                    generator.choice(_SEPARATORS),
                    generator.choice(_VALUES),
                ]
            else:
                parts.append(generator.choice(generator.choice(pieces)))
            if generator.random() < 0.5:
                parts.append(generator.choice(_GLUE))
        lines.append("".join(parts))
    return lines


def test_t5_the_linear_scan_finds_and_masks_what_the_former_scan_did(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thousands of generated lines mixing names, separators, values and prose: the findings
    and the masked lines are identical to those of the former prose-name code."""
    lines = _generated_lines(20261203, 4000)
    text = "\n".join(lines)
    linear = (find_secrets(text), mask_secret_lines(lines))
    monkeypatch.setattr(credential_forms, "_phrase_spans", _reference_phrase_spans)
    reference = (find_secrets(text), mask_secret_lines(lines))
    assert linear[0] == reference[0]
    for number, (got, expected) in enumerate(zip(linear[1], reference[1], strict=True)):
        assert got == expected, lines[number]
    assert len(reference[0]) > 1000  # the lines give values to mask, not only nothing


# ---- generated lines of the kind where many names share one long value ----
_GLUED = [":", "=", "：", "是", "は", "는", "=>", "->", "→", "**:", ":_", "_=", "="]
_BETWEEN = ["", "", "", "a", "1", "Ab", "-", ".", "x.", "Lm29", "$", "!", "your", "/", "'", "密"]
_OPENINGS = [(" «", "»"), (": «", "»"), (" „", "“"), (" „", "”"), ("«", "»"), (" «x ", "»")]
_LAST = [
    *("", "Lm29xQ!k", "Winter2025!", "your-key", "200152", "x", "...", "…", ".", "!", "?"),
    *("2024-01-01", "sunshine", "ghp_A1b2C3d4E5f6G7h8I9j0K1l2", "os.environ", "--frozen"),
]  # fmt: skip


def _shared_value_lines(seed: int, count: int) -> list[str]:
    """Lines where a few kinds of glued name (``pw:``, ``密码是``, ``api-key=x``) or quoted
    name (``pw «``) repeat, so most names' values run on to one end; some values are credentials
    once the names before them (``your``, ``example``) are left behind."""
    generator = random.Random(seed)  # noqa: S311 - generated test lines, no secret
    lines = []
    for _ in range(count):
        quoted = generator.random() < 0.3
        if quoted:
            opening, closing = generator.choice(_OPENINGS)
            units = [generator.choice(_NAMES) + opening + generator.choice(_BETWEEN)]
        else:
            closing = ""
            units = [
                generator.choice(_NAMES) + generator.choice(_GLUED) + generator.choice(_BETWEEN)
                for _ in range(generator.randint(1, 3))
            ]
        parts = [generator.choice(["", "the NAS ", "- ", "| x | "])]
        parts += generator.choices(units, k=generator.randint(2, 60))
        if generator.random() < 0.3:  # a credential after the names: found, covering nothing
            parts.append(generator.choice(units).replace("your", "Lm29xQ"))
        parts += [generator.choice(_LAST), closing, generator.choice(["", "", " and more", "."])]
        lines.append("".join(parts))
    return lines


def test_t5_lines_of_names_sharing_one_value_are_masked_as_the_former_scan_did(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Generated lines where many names give one long value, bare or quoted: the findings and
    the masked lines are identical to those of the former prose-name code."""
    lines = _shared_value_lines(20261204, 1500)
    text = "\n".join(lines)
    linear = (find_secrets(text), mask_secret_lines(lines))
    monkeypatch.setattr(credential_forms, "_phrase_spans", _reference_phrase_spans)
    reference = (find_secrets(text), mask_secret_lines(lines))
    assert linear[0] == reference[0]
    for number, (got, expected) in enumerate(zip(linear[1], reference[1], strict=True)):
        assert got == expected, lines[number]
    assert 300 < len(reference[0]) < len(lines) - 300  # lines with a credential and without


class _Judged:
    """Counts the characters of the values handed to the functions that judge values, and of
    the texts summarised for judging values together (credential_suffixes._Tails)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.characters = 0
        for module, name in [
            (credential_forms, "looks_secret"),
            *((credential_suffixes, name) for name in ("looks_secret", "is_placeholder")),
            *((credential_suffixes, name) for name in ("_is_word", "looks_random")),
            (credential_suffixes, "character_classes"),
        ]:
            monkeypatch.setattr(module, name, self._counting(getattr(module, name)))
        judged = self

        class CountedTails(credential_suffixes._Tails):
            def __init__(self, text: str) -> None:
                judged.characters += len(text)
                super().__init__(text)

        monkeypatch.setattr(credential_suffixes, "_Tails", CountedTails)

    def _counting(self, judge: Callable[..., _T]) -> Callable[..., _T]:
        def counted(value: str, *args: bool, **flags: bool) -> _T:
            self.characters += len(value)
            return judge(value, *args, **flags)

        return counted


class _CountingPattern:
    """Stands in for a compiled pattern and counts its ``match`` calls."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0
        self.openings = 0  # calls at a ``«`` or ``„``, which scan on to a closing mark

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self.calls += 1
        self.openings += text[pos : pos + 1] in ("«", "„")
        return self.pattern.match(text, pos)


# A prose name glued to its separator and the next name: one run of value characters, every
# name's value reaching the end of the line; a found value covers the names after it.
# An opening « or „ that nothing closes is not scanned for its closing mark again per name.
_HOSTILE = [
    ":pw",
    "pw:",
    "pw=",
    "=pw",
    "*pw*:",
    "pw：",
    "pw=>",
    ":PW",
    "'pw:",
    "pw:x",
    "pw: «",
    "pw „",
]


def _hostile_work(line: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The characters judged and the bare-value matches of finding the credentials in ``line``;
    asserts that no ``«`` or ``„`` was scanned for its closing mark (the line has none)."""
    with monkeypatch.context() as patched:
        counted = _Judged(patched)
        counting = _CountingPattern(_BARE)
        patched.setattr(credential_forms, "_BARE", counting)
        quoted = _CountingPattern(_QUOTED)
        patched.setattr(credential_forms, "_QUOTED", quoted)
        find_secrets(line)
    assert quoted.openings == 0  # no closing mark on the line: never scanned for one
    return counted.characters, counting.calls


@pytest.mark.parametrize("unit", _HOSTILE)
def test_t5_a_long_line_repeating_a_glued_name_is_judged_in_linear_work(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line of ``:pw`` (and its kin) was judged once per name over the rest of the line:
    about n²/2u characters for n characters of a u-character unit (the former code, counted
    here: 341 times the line's length at 2 KiB of ``:pw``, 683 times at 4 KiB), 1.8e11 for a
    1 MiB line (memory files are read up to 1 MiB), 7e8 for 64 KiB. Now the characters judged
    and the bare-value matches stay within a few times the line's length at 8 and 16 KiB
    (the former work, 1.1e7 at 8 KiB, fails the bound for every unit it failed at 32 and
    64 KiB) and double as the line does, where the former work quadrupled; the scan's caps
    are 300 characters at most and no rule changes with a longer line, so what holds at
    16 KiB, fifty times the longest cap, holds at 1 MiB. The findings are those of a short
    line."""
    judged = []
    for size in (8 * 1024, 16 * 1024):
        line = unit * (size // len(unit))
        characters, calls = _hostile_work(line, monkeypatch)
        assert characters <= 4 * len(line)
        assert calls <= 4 * len(line) // len(unit) + 10
        judged.append(characters)
    assert judged[1] <= 2.1 * judged[0]
    found = find_secrets(line)
    assert found == find_secrets(unit * 50)
    assert (mask_secret_lines([line]) != [line]) == bool(found)
    medium = [unit * (1500 // len(unit))]  # long enough for the 300-character assignment cap
    masked = (find_secrets(medium[0]), mask_secret_lines(medium))
    monkeypatch.setattr(credential_forms, "_phrase_spans", _reference_phrase_spans)
    assert (find_secrets(medium[0]), mask_secret_lines(medium)) == masked


# Many names sharing one long value, judged no credential so that no found value covers the
# names after it, each form decided by another test of looks_secret: bare (every value of
# ``:password`` × n is ``password:password:…``, placeholder words; of ``密码是`` × n a word; of
# ``pw=A.`` code; of ``pw=-`` a flag; of ``pw:/`` a path; of ``pw=$`` a reference) or quoted
# (every ``«`` before the one ``»``, each value a credential in ``pw:«Xk-`` × n).
_SHARED = [
    *[(":password", ""), ("password:", ""), ("=token", ""), ("token=", ""), ("=api-key", "")],
    *[("api-key=", ""), ("密码是", ""), ("パスワードは", ""), ("pw=A.", ""), ("pw=-", "")],
    *[("pw:/", ""), ("pw=$", ""), ("pw «", "»"), ("pw: «", "»"), ("pw „", "“")],
    *[("token: «x ", "»"), ("pw:«Xk-", "»")],
]


def _judged_characters(line: str) -> int:
    with pytest.MonkeyPatch.context() as monkeypatch:
        judged = _Judged(monkeypatch)
        find_secrets(line)
    return judged.characters


@pytest.mark.parametrize(("unit", "closing"), _SHARED)
def test_t5_names_sharing_one_long_value_are_judged_in_linear_work(unit: str, closing: str) -> None:
    """Each name's value was copied and judged whole: finding the credentials in 30,000
    characters of ``pw=A.`` took 46 s, of ``密码是`` 52 s. Now the characters judged and
    summarised stay within a few times the line's length, and grow as the line does (twice
    the line, twice the work, where judging each value whole gave four times). At 12,500
    characters the former scan judged 7.8e6 to 2.6e7 of every unit, a hundred times the
    bound and more."""
    work = []
    for size in (12_500, 25_000):
        line = unit * (size // len(unit)) + closing
        work.append(_judged_characters(line))
        assert work[-1] <= 6 * len(line)
    assert work[1] <= 2.1 * work[0]
