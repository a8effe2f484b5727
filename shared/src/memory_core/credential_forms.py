"""The forms in which people give a value to a credential key, line by line (T-6).

Assignments (``DB_PASS=…``, ``pw: …``, ``"apiKey": "…"``, ``password => '…'``), prose in the
note's language (``root pw `…` ``, ``the NAS password is …``, ``Passwort lautet …``,
``пароль от роутера: …``, ``密码是 …``), login pairs (``login: admin / …``), XML
(``<password>…</password>``, ``<add key="Password" value="…"/>``), command lines
(``mysql -p…``, ``sshpass -p …``, ``docker login -p …``, ``redis-cli -a …``, ``curl -u user:…``)
and Markdown table rows (``| password | … |``). Each finds the value; whether it is a credential
is :func:`~memory_core.credential_values.looks_secret`'s call. A span is ``(kind, start, end)``
of the value within the line, ``kind`` being ``"password-assignment"`` and the like.

>>> form_spans("root pw `Lm29xQ!k`", frozenset({"pw"}))
[('password-assignment', 9, 17)]
>>> form_spans("bypass: проходит", frozenset({"pass"}))
[]
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from memory_core.credential_keys import (
    NAME_HINTS,
    PHRASE_HINTS,
    credential_key_kind,
    lower_in_place,
    phrase_kind,
    phrases,
)
from memory_core.credential_suffixes import ValueSuffixes
from memory_core.credential_values import looks_secret
from memory_core.markdown import blank_code_spans

__all__ = [
    "FORM_HINTS",
    "Cell",
    "Span",
    "TableRow",
    "cell_value",
    "form_spans",
    "is_delimiter_row",
    "names_credential",
    "table_row",
]

Span = tuple[str, int, int]

# KEY=value, key: value, "key": "value", key => value where KEY names a credential
# (credential_key_kind). Found from each hint's occurrence rather than tried at every position
# of the line, which keeps long lines cheap.
_IDENTIFIER_REST = re.compile(r"[A-Za-z0-9_.-]{0,60}")
_IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_VALUE = re.compile(
    r"[\"']?[ \t]*(?:=>|->|[:=：])[ \t]*(?P<quote>[\"'`]?)(?P<secret>[^\s\"'`,;]{1,300})"
)
_ASSIGNMENT_HINTS = ("pass", "pw", "secret", "token", "credential", "key")

# What follows a prose name of a credential before its value (``password: x``, ``pw is x``,
# ``Passwort lautet x``, ``密码是 x``, ``パスワードは x``, ``비밀번호는 x``). Linear: no word
# of it starts with a space, tab, ``*`` or ``_``, so the leading runs are taken whole (``*+``,
# never given back), and an attempt starting strictly inside a run of spaces and tabs (one
# before it and one at it) declines at once, where it would walk the rest of the run again
# (``search`` attempts every position: 6000 characters of them took 3 s). A prose name or a
# filler word ends before a run, never inside one, so every ``match`` made here is as before.
_SEPARATOR = re.compile(
    r"[*_]{0,2}+(?:(?:(?<![ \t])|(?![ \t]))[ \t]*+(?:=>|->|→|[:=：]|[—–](?=[ \t])"
    r"|(?<=[ \t])(?:is|was|ist|lautet|est|es|é|è|это)(?=[ \t]))"
    r"|(?:是|为|為|は|는|은|이))[*_]{0,2}[ \t]*",
    re.IGNORECASE,
)
# A word between the name and a separator (``password for the staging admin: x``).
_FILLER_WORD = re.compile(r"[ \t]+\(?[^\W\d_][\w'’-]*\)?")
_FILLER_WORDS = 4
_QUOTED = re.compile(
    r"(?P<ticks>`{1,2})(?P<code>[^`\n]+)(?P=ticks)(?!`)"
    r"|\"(?P<double>[^\"\n]+)\"|'(?P<single>[^'\n]+)'|«(?P<angle>[^»\n]+)»|„(?P<low>[^“”\n]+)[“”]"
)
_QUOTED_GROUPS = ("code", "double", "single", "angle", "low")
# What ends the quoted value each of « and „ opens (a line break ends it unclosed).
_CLOSING = {"«": re.compile("[»\n]"), "„": re.compile("[“”\n]")}
_BARE = re.compile(r"[^\s,;|<>()\[\]{}`]+")
_SPACES = re.compile(r"[ \t]*")

# Command lines that take a password: (literal hints, pattern with a group "arg").
_ARG = r"""(?P<arg>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)"""
_ON = r"\b[^|;&\n]{0,200}?"  # the rest of the same command, a bounded look
_COMMANDS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (hints, re.compile(pattern))
    for hints, pattern in (
        (
            ("mysql", "mariadb"),
            rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb(?:-dump|-admin)?){_ON}[ \t]-p{_ARG}",
        ),
        (("sshpass",), rf"\bsshpass{_ON}[ \t]-p[ \t]*{_ARG}"),
        (
            ("login",),  # not "docker", a word of many lines: the command holds "login" too
            rf"\bdocker[ \t]+login{_ON}[ \t](?:-p|--password)(?:[ \t]+|=){_ARG}",
        ),
        (("redis-cli",), rf"\bredis-cli{_ON}[ \t](?:-a|--pass)[ \t]+{_ARG}"),
        (
            ("curl", "wget", "http"),
            rf"\b(?:curl|wget|https?(?=[ \t])){_ON}[ \t](?:-u|--user|-a|--auth)"
            rf"(?:[ \t]+|=){_ARG}",
        ),
    )
)
_USER_PASSWORD_COMMANDS = ("curl", "wget", "http")
_XML_ELEMENT = re.compile(r"<(?P<tag>[A-Za-z_][\w.:-]{0,60})>(?P<value>[^<\n]{1,300})</(?P=tag)>")
# <add key="Password" value="…"/> (.NET configuration), name="…" value="…" likewise.
_XML_KEY_VALUE = re.compile(
    r"\b(?:key|name)=\"(?P<tag>[A-Za-z_][\w.:-]{0,60})\"[ \t]+value=\"(?P<value>[^\"\n]{1,300})\""
)
# A login written as a pair: ``login: admin / s3cret``, ``creds: deploy:s3cret``.
_LOGIN_PAIR = re.compile(
    r"(?i)(?<![\w-])(?:login|logins|creds|credentials?|zugang(?:sdaten)?|логин|учётка|учетка"
    r"|账号|帐号)(?:[ \t]+\(?[^\W\d_][\w'-]*\)?){0,3}[*_]{0,2}[ \t]*(?:[:=：—–→]|->)[ \t]*"
    r"`?[^\s/:`|~.][^\s/:`|]{0,59}`?[ \t]*(?:/|:)[ \t]*(?P<arg>`[^`\n]+`|[^\s`|/:]+)"
    r"(?=[\s,;)]|$)"
)
_LOGIN_HINTS = ("login", "cred", "zugang", "логин", "учётка", "учетка", "账号", "帐号")

FORM_HINTS = (
    *_ASSIGNMENT_HINTS,
    *PHRASE_HINTS,
    *_LOGIN_HINTS,
    *(hint for hints, _ in _COMMANDS for hint in hints),
    "</",
    "value=",
    "|",
)
"""Lower-case literals one of which a line holds when :func:`form_spans` can find anything."""


def _value_span(start: int, value: str, kind: str, *, strong: bool = False) -> Span | None:
    """The span of ``value`` (found at ``start``) when it is a ``kind`` credential, else None."""
    if not looks_secret(value, password=kind == "password", strong=strong):
        return None
    return f"{kind}-assignment", start, start + len(value)


def _assignment_value(match: re.Match[str], kind: str) -> Span | None:
    """The value of an assignment without a closing quote or brackets, when it is a secret."""
    start = match.start("secret")
    value = match.group("secret")
    quote = match.group("quote")
    if quote and value.endswith(quote):
        value = value[:-1]
    if not quote:
        stripped = _without_trailing_marks(value, ")]}>.:|")
        if stripped.count("(") >= value.count(")") - (len(value) - len(stripped)):
            value = stripped
    return _value_span(start, value, kind)


def _without_trailing_marks(value: str, marks: str = ".,:'\"") -> str:
    """``value`` without the punctuation that ends the sentence around it; an elided value
    (``abc...``, ``abc…``) keeps its dots, which say it is an example. ``!`` and ``?`` stay:
    they end passwords more often than sentences (``Winter2025!``)."""
    return value if value.endswith(("...", "…")) else value.rstrip(marks)


def _key_start(line: str, position: int) -> int:
    """Where the identifier holding ``position`` starts, looking back at most 60 characters.

    A plain walk, not a regex search: a regex anchored at ``position`` and tried from each of the
    60 places before it costs 60 × 60 steps per hint, which a line of a million ``pwd=`` hints
    turned into a quarter of a minute.
    """
    start, limit = position, max(0, position - 60)
    while start > limit and line[start - 1] in _IDENTIFIER_CHARS:
        start -= 1
    return start


def _assignments(line: str, lowered: str) -> Iterator[tuple[str, re.Match[str]]]:
    """``(kind, value match)`` of each ``key = value`` whose key names a credential.

    A hint inside a value already found is not looked at again, so the work stays linear in the
    line's length however many hints it repeats.
    """
    seen: set[int] = set()
    for hint in _ASSIGNMENT_HINTS:
        position = lowered.find(hint)
        while position != -1:
            rest = _IDENTIFIER_REST.match(line, position)
            end = rest.end() if rest else position
            value = _VALUE.match(line, end) if end not in seen else None
            seen.add(end)
            if value is not None:
                kind = credential_key_kind(line[_key_start(line, position) : end])
                if kind is not None:
                    yield kind, value
                    end = max(end, value.end() - 1)
            position = lowered.find(hint, end + 1)


def _assignment_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(_ASSIGNMENT_HINTS):
        return
    for kind, match in _assignments(line, line.lower()):
        found = _assignment_value(match, kind)
        if found is not None:
            yield found


class _Values:
    """The values the prose names of one line are given, and whether each is a credential.

    Many names can share the end of their value: every name inside one run of value characters
    (``:pw:pw:pw…``, ``密码是密码是…``) gives a bare value running to the end of the run, and
    every ``«`` (``„``) before a ``»`` (``“``) opens a quoted value ending there. The run is
    matched and its trailing marks found once, a closing mark is found by bisection, and the
    values ending at one place are judged together
    (:class:`~memory_core.credential_suffixes.ValueSuffixes`), so the work is linear in the
    line's length however many names share a value.
    """

    def __init__(self, line: str) -> None:
        self.line = line
        self.start = self.end = self.unmarked_end = -1
        self.closings: dict[str, list[int]] = {}
        self.judges: dict[int, ValueSuffixes] = {}

    def quoted(self, at: int) -> tuple[int, int] | None:
        """``(start, end)`` of the quoted value (:data:`_QUOTED`) starting at ``at``, or None."""
        opening = self.line[at : at + 1]
        if opening in _CLOSING:  # «…» and „…“: found without a scan to the closing mark
            closings = self.closings.get(opening)
            if closings is None:
                found = _CLOSING[opening].finditer(self.line)
                closings = self.closings[opening] = [closing.start() for closing in found]
            after = bisect_right(closings, at)
            if after == len(closings) or closings[after] == at + 1:
                return None
            end = closings[after]
            return None if self.line[end] == "\n" else (at + 1, end)
        quoted = _QUOTED.match(self.line, at)
        if quoted is None:
            return None
        return quoted.span(next(name for name in _QUOTED_GROUPS if quoted.group(name) is not None))

    def bare_end(self, at: int) -> int:
        """Where ``_without_trailing_marks`` of the bare value at ``at`` ends (``at`` when there
        is none), found without copying the value."""
        if not self.start <= at < self.end:
            bare = _BARE.match(self.line, at)
            if bare is None:
                return at
            self.start, self.end = at, bare.end()
            self.unmarked_end = self.end
            while self.unmarked_end > at and self.line[self.unmarked_end - 1] in ".,:'\"":
                self.unmarked_end -= 1
        if self.line[max(at, self.end - 3) : self.end].endswith(("...", "…")):
            return self.end  # an elided value keeps its dots
        return max(at, self.unmarked_end)

    def span(self, start: int, end: int, kind: str, *, strong: bool) -> Span | None:
        """The span of ``line[start:end]`` when it is a ``kind`` credential, else None."""
        judge = self.judges.get(end)
        if judge is None:
            judge = self.judges[end] = ValueSuffixes(self.line, end)
        if not judge.looks_secret(start, password=kind == "password", strong=strong):
            return None
        return f"{kind}-assignment", start, end


def _phrase_value(
    line: str, at: int, kind: str, values: _Values, covered: tuple[int, int]
) -> Span | None:
    """The value a prose name of a credential ending at ``at`` is given, when it is a secret.

    Right after the name (``pw: x``, ``pw is x``, ``pw `x` ``) any credential counts; past a
    few words (``password for the staging admin: x``) or a bare space (``vnc password 8301``)
    only a strong one (:func:`~memory_core.credential_values.looks_secret`). A bare value
    inside ``covered`` (``(start, end)`` of a value already found on the line) is not judged
    again: it would be masked within that one, under its kind.
    """
    strong = False
    separator = _SEPARATOR.match(line, at)
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
    quoted = values.quoted(at)
    if quoted is not None:
        return values.span(*quoted, kind, strong=strong)
    end = values.bare_end(at)
    if covered[0] <= at and end <= covered[1]:
        return None
    return values.span(at, end, kind, strong=strong)


def _past_filler(line: str, at: int) -> int | None:
    """Where the value starts after up to four words and a separator from ``at``, or None."""
    for _ in range(_FILLER_WORDS):
        word = _FILLER_WORD.match(line, at)
        if word is None:
            return None
        at = word.end()
        separator = _SEPARATOR.match(line, at)
        if separator is not None:
            return separator.end()
    return None


def _phrase_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    if hints.isdisjoint(PHRASE_HINTS):
        return
    prose = blank_code_spans(line) if "`" in line else line
    values = _Values(line)
    covered = (0, 0)
    for kind, start, end in phrases(line):
        if prose[start] != line[start]:
            continue  # a word inside code (``python -c pass``) names nothing
        found = _phrase_value(line, end, kind, values, covered)
        if found is not None:
            covered = (found[1], found[2])
            yield found


def _command_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    for command_hints, pattern in _COMMANDS:
        if hints.isdisjoint(command_hints):
            continue
        for match in pattern.finditer(line):
            start, end = match.span("arg")
            value = match.group("arg")
            if value[:1] in "'\"":
                start, end, value = start + 1, end - 1, value[1:-1]
            if command_hints[0] in _USER_PASSWORD_COMMANDS:
                user, colon, value = value.partition(":")
                if not colon:
                    continue
                start += len(user) + 1
            found = _value_span(start, value, "password")
            if found is not None:
                yield found


def _login_spans(line: str, hints: frozenset[str]) -> Iterator[Span]:
    """``login: admin / s3cret``: the second half of a login pair, when it is a credential."""
    if hints.isdisjoint(_LOGIN_HINTS):
        return
    for match in _LOGIN_PAIR.finditer(line):
        start, value = match.start("arg"), match.group("arg")
        if value.startswith("`"):
            start, value = start + 1, value[1:-1]
        found = _value_span(start, _without_trailing_marks(value), "password")
        if found is not None:
            yield found


def _xml_spans(line: str) -> Iterator[Span]:
    for match in itertools.chain(_XML_ELEMENT.finditer(line), _XML_KEY_VALUE.finditer(line)):
        kind = credential_key_kind(match.group("tag"))
        value = match.group("value").strip()
        if kind is not None and value:
            start = match.start("value") + match.group("value").index(value)
            found = _value_span(start, value, kind)
            if found is not None:
                yield found


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a Markdown table row: its text (stripped) and where that is in the line."""

    text: str
    start: int
    end: int


def _raw_cell(line: str, start: int) -> str:
    """The text of the cell starting at ``start`` (just past a ``|``), unstripped."""
    closing = line.find("|", start)
    return line[start : len(line) if closing == -1 else closing]


def _cell_at(line: str, start: int, raw: str | None = None) -> Cell | None:
    """The cell whose ``raw`` text (found when not given) starts at ``start`` (just past a
    ``|``), None when it is blank."""
    if raw is None:
        raw = _raw_cell(line, start)
    text = raw.strip()
    if not text:
        return None
    start += len(raw) - len(raw.lstrip())
    return Cell(text, start, start + len(text))


@dataclass(frozen=True, slots=True)
class TableRow:
    """A Markdown table row (``| a | b |``): its ``line``, where its first cell starts
    (``first``, just past the opening ``|``), how many cells it has (``count``), and the cells
    naming a credential (``named``: ``(index, kind)``, in order; ``named_cells``: those cells).

    No other cell is made: the row is read from the line when a cell is asked for, so a row of a
    million cells, blank or written, costs what its credential names do (:func:`table_row`).
    """

    line: str
    first: int
    count: int
    named: tuple[tuple[int, str], ...]
    named_cells: tuple[Cell, ...]

    def cell(self, index: int) -> Cell | None:
        """The cell at ``index`` when it is written (None: blank, or past the row's end); found
        by a walk over the ``index`` ``|``s before it."""
        if not 0 <= index < self.count:
            return None
        position = self.first
        for _ in range(index):
            position = self.line.find("|", position) + 1
        return _cell_at(self.line, position)

    def after_named(self, at: int) -> Cell | None:
        """The cell right after ``named_cells[at]``, when it is written (``| password | x |``)."""
        closing = self.line.find("|", self.named_cells[at].end)
        return None if closing == -1 else _cell_at(self.line, closing + 1)


def table_row(line: str) -> TableRow | None:
    """The Markdown table row ``line`` is (``| a | b |``), None for another line.

    Cells lie between ``|``s; the text after the last one is a cell when it is not blank. Only
    the cells holding a :data:`~memory_core.credential_keys.NAME_HINTS` literal are looked at,
    each once: the rest are counted at C speed. A row of millions of cells (a 16 MiB index line
    of ``|a``) was split into a Cell each, 9 s per 2 MB line and hundreds of MB (Q-2c). Made
    once per line per scan (credentials' ``_scan`` passes it on), never kept.
    """
    stripped = line.lstrip(" ")
    if not stripped.startswith("|") or len(line) - len(stripped) > 3:
        return None
    first = line.index("|") + 1
    count = line.count("|", first) + (1 if line[line.rfind("|") + 1 :].strip() else 0)
    named: list[tuple[int, str]] = []
    cells: list[Cell] = []
    index, previous = 0, first
    for start in _hinted_cells(line, first):
        index += line.count("|", previous, start)
        previous = start
        raw = _raw_cell(line, start)
        kind = names_credential(raw.strip())
        cell = None if kind is None else _cell_at(line, start, raw)
        if cell is not None and kind is not None:
            named.append((index, kind))
            cells.append(cell)
    return TableRow(line, first, count, tuple(named), tuple(cells))


def _hinted_cells(line: str, first: int) -> list[int]:
    """Where each cell from ``first`` on that holds a name hint starts, in order. Each hint is
    looked for once per cell (a cell found, the search goes on past its end), at C speed."""
    lowered = lower_in_place(line)
    starts: set[int] = set()
    for hint in NAME_HINTS:
        position = lowered.find(hint, first)
        while position != -1:
            starts.add(line.rfind("|", first - 1, position) + 1)
            closing = line.find("|", position)
            if closing == -1:
                break
            position = lowered.find(hint, closing)
    return sorted(starts)


_MARKUP = "*_` "


def names_credential(cell: str) -> str | None:
    """The kind of credential a table cell names (``Password``, ``**pw**``, ``DB_PASSWORD``)."""
    text = cell.strip(_MARKUP)
    if not text:
        return None
    kind = phrase_kind(text)
    if kind is not None:
        return kind
    return credential_key_kind(text) if " " not in text else None


def cell_value(cell: Cell, kind: str) -> Span | None:
    """The span of a ``kind`` credential given in ``cell`` (its text bare or quoted), else None."""
    value = cell.text
    quoted = _QUOTED.fullmatch(value)
    if quoted is not None:
        group = next(name for name in _QUOTED_GROUPS if quoted.group(name) is not None)
        return _value_span(cell.start + quoted.start(group), quoted.group(group), kind)
    return _value_span(cell.start, value, kind) if " " not in value else None


def _row_spans(row: TableRow) -> Iterator[Span]:
    """A key-value row: ``| password | x |``."""
    for at, (_, kind) in enumerate(row.named):
        following = row.after_named(at)
        if following is not None:
            found = cell_value(following, kind)
            if found is not None:
                yield found


def form_spans(line: str, hints: frozenset[str], row: TableRow | None = None) -> list[Span]:
    """The value spans of every form in ``line`` (unordered, perhaps overlapping); ``hints``
    are the :data:`FORM_HINTS` the lower-cased line holds: only the forms they name are tried.
    ``row`` is :func:`table_row` of the line, which the caller makes once per line (None: no
    table row, or not looked at)."""
    spans = [
        *_assignment_spans(line, hints),
        *_phrase_spans(line, hints),
        *_command_spans(line, hints),
        *_login_spans(line, hints),
    ]
    if "</" in hints or "value=" in hints:
        spans.extend(_xml_spans(line))
    if row is not None:
        spans.extend(_row_spans(row))
    return spans


# Cells of dashes with an optional colon at either end, every one written; the text after the
# last ``|`` is a cell when not blank. ``\s`` is what ``str.strip`` strips.
_DELIMITER_ROW = re.compile(r"(?>(?:\s*+:?-++:?\s*+\|)*)\s*+(?::?-++:?\s*+)?")


def is_delimiter_row(row: TableRow) -> bool:
    """A table's delimiter row: ``|---|:--:|`` (a blank cell is none), matched at C speed."""
    return _DELIMITER_ROW.fullmatch(row.line, row.first) is not None
