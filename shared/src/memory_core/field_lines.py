"""Frontmatter field lines a person reads as ``key: value`` though YAML reads no such field
(T-1a).

An editor or an input method may put something else than ``": "`` after a key: a no-break
space (macOS Option-Space, text copied from a web page), an ideographic or a thin space, or a
full-width colon (a Chinese or Japanese input method: ``description：部署前先备份``); and a
person may write a field's key in another case (``Description:``) or leave out the space
(``description:text``). Every editor shows the line as the field; YAML reads a plain scalar or
another key instead, so the field would be lost and lint would call it missing while its line
is there. Such a line is read as the field written plainly, and the file's problems say so,
naming what was there and the fix.

Which lines are field lines is YAML's own answer, not a guess: the block's tokens
(``yaml.scan``) tell which lines start with a token at column 0 outside any flow collection;
a line inside a quoted value, a block scalar, a flow ``{…}``/``[…]`` or an indented mapping is
part of a value and is never rewritten. A field YAML reads (``description: real``) wins over
every lookalike line of it; of several lookalike lines of one field (``NAME:`` and ``Name:``)
the last is read, as YAML reads a field written twice. The lines not read are named as
ignored. Problems are merged per kind (the count and the first line), so a file of 70,000
lookalike lines has a handful of problems, not 140,000.

>>> block, problems = fields_as_read("Description\\uff1a部署\\nupdated_at:\\u00a02026-11-20")
>>> block
'description: 部署\\nupdated_at: 2026-11-20'
>>> problems[0]
"frontmatter: Description read as 'description: …'; after the key stands U+FF1A FULLWIDTH \
COLON, where YAML needs ': ', and field names are lower case (it would read no description): \
write 'description: '"
>>> len(problems)
2
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import yaml

__all__ = ["FIELDS", "fields_as_read"]

FIELDS = ("name", "description", "updated_at")
"""The frontmatter fields Memory reads (T-1), each also when written in another case."""

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it

_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
"""The Unicode spaces (category Zs) but the ASCII space: shown as a space, no space to YAML."""

_FULL_WIDTH_COLON = "\uff1a"

# A ``key`` (quoted or not) at the start of a line, then a full-width colon and at most one
# space of any kind, or a colon and one Unicode space YAML does not take for one, or (a key of
# FIELDS only, checked by the caller) a colon with text right after it; ``value`` is the rest.
_LOOKALIKE_RE = re.compile(
    rf"(?P<quote>[\"']?)(?P<key>[A-Za-z_][\w-]*)(?P=quote)[ \t]*"
    rf"(?P<separator>{_FULL_WIDTH_COLON}[ \t{_SPACES}]?|:[{_SPACES}]|:(?=[^\s:]))(?P<value>.*)"
)
# A key (quoted or not) and its colon at the start of a line.
_KEY_RE = re.compile(r"(?P<quote>[\"']?)(?P<key>[A-Za-z_][\w-]*)(?P=quote)[ \t]*:")
# A line that may need rewriting (checked before paying for a YAML scan): a lookalike
# separator, or a key of FIELDS not in lower case or with text right after its colon.
_CANDIDATE_RE = re.compile(
    rf"^[\"']?[A-Za-z_][\w-]*[\"']?[ \t]*(?:{_FULL_WIDTH_COLON}|:[{_SPACES}])"
    r"|^[\"']?(?i:name|description|updated_at)[\"']?[ \t]*:(?=[^\s:])"
    r"|^[\"']?(?!(?:name|description|updated_at)\b)(?i:name|description|updated_at)\b",
    re.MULTILINE,
)
_RESCANS = 8
"""At most this many lines YAML's scanner refuses are cut off and the block scanned again."""


@dataclass(frozen=True, slots=True)
class _Heads:
    """What YAML's scanner reads at column 0 outside any flow collection: ``keys`` maps each
    line index starting a top-level key to that key (as YAML reads it, quotes removed),
    ``scalars`` holds each line index starting a scalar that is no key, ``starts`` every line
    index starting a token (a key, a scalar, a ``-`` entry …)."""

    keys: dict[int, str]
    scalars: set[int]
    starts: list[int]


@dataclass(frozen=True, slots=True)
class _Lookalike:
    """A line read as ``field`` (line index ``number``): its ``key`` as written (quotes
    removed), the ``separator`` standing for ``": "`` (None: only the key's case differs), the
    ``value`` after it, whether YAML reads the line as a key (``is_key``), and ``rewritten``:
    the line as the field written plainly."""

    number: int
    key: str
    field: str
    separator: str | None
    value: str
    is_key: bool
    rewritten: str


def fields_as_read(block: str, first_line: int = 1) -> tuple[str, list[str]]:
    """``(block, problems)``: ``block`` (a frontmatter block, LF line ends) with each field
    line a person reads as ``key: value`` written so: a separator that only looks like ``": "``
    (or a field's ``":"`` with text right after it) written ``": "``, and a key of
    :data:`FIELDS` in another case (``Description``) in lower case.

    Only lines whose first token YAML's scanner starts at column 0 outside a flow collection
    are considered (:func:`_scan_heads`); a line inside a value is left as it is. When YAML
    reads the field itself (``description:``), every lookalike line of it is ignored; else of
    several lookalike lines of one field the last is read. An ignored line YAML reads as no
    key is blanked (with its continuation lines), so the rest of the block still reads as a
    mapping; an ignored key (``Description:``) stays, another key to YAML. The line count never
    changes. ``problems`` (``"frontmatter: …"``) has one entry per kind, naming the first line
    and the count; ``first_line`` is the file's line number of the block's first line, for
    those names. Never raises.
    """
    if not _CANDIDATE_RE.search(block):
        return block, []
    lines = block.split("\n")
    heads = _scan_heads(lines)
    found = [
        lookalike
        for number in sorted([*heads.keys, *heads.scalars])
        if (lookalike := _lookalike(lines[number], number, heads.keys.get(number))) is not None
    ]
    if not found:
        return block, []
    problems = _Problems(first_line)
    written = {key: number for number, key in sorted(heads.keys.items(), reverse=True)}
    read: dict[str, _Lookalike] = {}
    for lookalike in reversed(found):  # the last line of a field is read
        if lookalike.field not in written and lookalike.field not in read:
            read[lookalike.field] = lookalike
    for lookalike in found:
        if read.get(lookalike.field) is lookalike:
            lines[lookalike.number] = lookalike.rewritten
            problems.read(lookalike)
            continue
        if lookalike.field in written:
            problems.ignored(
                lookalike, lines, written[lookalike.field], "is on line {}, as YAML reads it"
            )
        else:
            winner = read[lookalike.field].number
            problems.ignored(
                lookalike, lines, winner, "is written again on line {}, and the last is read"
            )
        if not lookalike.is_key:
            _blank(lines, lookalike.number, heads.starts)
    return "\n".join(lines), problems.merged()


def _lookalike(line: str, number: int, key: str | None) -> _Lookalike | None:
    """The :class:`_Lookalike` of ``line`` (index ``number``), or None when it reads as what
    YAML reads; ``key`` is the key YAML reads there (None: a scalar that is no key)."""
    match = _LOOKALIKE_RE.fullmatch(line)
    if match is not None:
        written = match.group("key")
        separator = match.group("separator")
        field = written.lower() if written.lower() in FIELDS else written
        if separator == ":" and field not in FIELDS:
            return None  # ``url:https://…``: YAML's to read
        value = match.group("value")
        rewritten = f"{field}: {value}" if value.strip(f" \t{_SPACES}") else f"{field}:"
        return _Lookalike(number, written, field, separator, value, key is not None, rewritten)
    if key is None or key.lower() not in FIELDS or key == key.lower():
        return None
    match = _KEY_RE.match(line)
    if match is None or match.group("key") != key:
        return None  # a key spelt with escapes or over lines: YAML's to read
    rest = line[match.end() :]
    return _Lookalike(number, key, key.lower(), None, rest, True, f"{key.lower()}:{rest}")


def _blank(lines: list[str], number: int, starts: list[int]) -> None:
    """Blank line ``number`` and the lines after it up to the next line YAML starts a token on
    at column 0 (the ignored line's continuation)."""
    after = bisect.bisect_right(starts, number)
    end = starts[after] if after < len(starts) else len(lines)
    lines[number:end] = [""] * (end - number)


def _scan_heads(lines: list[str]) -> _Heads:
    """The :class:`_Heads` of the block ``lines``, read from YAML's token stream.

    A character YAML's reader refuses (a control character, never YAML's structure) is
    scanned as a space. YAML's scanner refuses a line at column 0 of a mapping with no ``": "``
    on it (``could not find expected ':'``), as each lookalike line is: those are scanned with
    their separator written ``": _"`` (:func:`_as_key`; the ``_`` keeps a quote after the
    separator text, so a value's extent stays the same) and read as scalars, never as YAML's
    keys. Where the scanner still refuses the block, the refused key-less line is scanned as a
    comment from where it starts, or any other refused line cut where the scanner stopped, and
    the block scanned again, at most :data:`_RESCANS` times; after that the heads scanned
    before the refusal are all there is. Either change only ends a value early, so a line read
    as a head is one YAML starts a token on.
    """
    scanned = [  # no reader error, same marks; no line break but ``\n`` (the lines' own split)
        _UNREADABLE_RE.sub(" ", line).translate(_YAML_LINE_BREAKS) for line in lines
    ]
    lookalikes: set[int] = set()
    for number, line in enumerate(scanned):
        key = _as_key(line)
        if key is not None:
            scanned[number] = key
            lookalikes.add(number)
    heads = _Heads({}, set(), [])
    for _ in range(_RESCANS + 1):
        heads = _Heads({}, set(), [])
        try:
            _scan_into("\n".join(scanned), heads, lookalikes)
        except yaml.YAMLError as error:
            if not isinstance(error, yaml.MarkedYAMLError):
                return heads
            mark = error.context_mark if error.problem == _NO_COLON else error.problem_mark
            if mark is None or mark.line >= len(scanned):
                return heads
            line = scanned[mark.line]
            if error.problem == _NO_COLON:
                scanned[mark.line] = f"{line[: mark.column]}#{line[mark.column :]}"
            elif line[mark.column :]:
                scanned[mark.line] = line[: mark.column]
            else:
                return heads
            continue
        return heads
    return heads


_NO_COLON = "could not find expected ':'"
_UNREADABLE_RE: re.Pattern[str] = yaml.reader.Reader.NON_PRINTABLE
"""The characters YAML's reader refuses (a control character): scanned as a space."""
_YAML_LINE_BREAKS = {0x85: " ", 0x2028: " ", 0x2029: " "}
"""The characters YAML's scanner counts as line breaks besides ``\n`` (NEL, LINE SEPARATOR,
PARAGRAPH SEPARATOR): scanned as a space, so its line numbers are the block's ``\n`` lines."""


def _as_key(line: str) -> str | None:
    """``line`` with its lookalike separator written ``": _"`` (a key to YAML's scanner), or
    None when it has none."""
    match = _LOOKALIKE_RE.fullmatch(line)
    if match is None:
        return None
    key = match.group("key")
    if match.group("separator") == ":" and key.lower() not in FIELDS:
        return None
    return f"{line[: match.start('separator')]}: _{match.group('value')}"


def _scan_into(text: str, heads: _Heads, lookalikes: set[int]) -> None:
    """Add to ``heads`` what YAML's scanner reads at column 0 outside flow collections of
    ``text``, a key on a line of ``lookalikes`` as a scalar; raises
    :class:`yaml.MarkedYAMLError` where the scanner refuses the text."""
    depth = 0
    key_line: int | None = None  # a KeyToken at column 0 waits for its scalar
    for token in yaml.scan(text, Loader=_LOADER):
        kind = type(token)
        if kind in _SKIPPED:
            continue
        if kind in _FLOW_STARTS:
            depth += 1
        elif kind in _FLOW_ENDS:
            depth = max(depth - 1, 0)
        mark = token.start_mark
        top = depth == 0 and mark.column == 0
        if top and (not heads.starts or heads.starts[-1] != mark.line):
            heads.starts.append(mark.line)
        if kind is yaml.KeyToken:
            key_line = mark.line if top else None
            continue
        if isinstance(token, yaml.ScalarToken) and top:
            if key_line == mark.line and mark.line not in lookalikes:
                heads.keys[mark.line] = token.value
            else:
                heads.scalars.add(mark.line)
        key_line = None


_SKIPPED = frozenset((yaml.StreamStartToken, yaml.StreamEndToken, yaml.BlockEndToken))
_FLOW_STARTS = frozenset((yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken))
_FLOW_ENDS = frozenset((yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken))


def _named(separator: str) -> str:
    if separator == ":":
        return "':' with no space after it"
    char = separator[0] if separator[0] == _FULL_WIDTH_COLON else separator[1]
    return f"U+{ord(char):04X} {unicodedata.name(char)}"


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Problems:
    """The problems of :func:`fields_as_read`, one per kind: the first line's message, and
    for a kind seen on several lines its count and the first line's number."""

    def __init__(self, first_line: int) -> None:
        self._first_line = first_line
        self._read: dict[tuple[object, ...], tuple[str, int, int]] = {}
        self._ignored: dict[tuple[str, str | None], tuple[str, str, int, int]] = {}

    def read(self, lookalike: _Lookalike) -> None:
        """Name ``lookalike`` as read as its field."""
        key, field, separator = lookalike.key, lookalike.field, lookalike.separator
        cased = key != field
        empty = separator is not None and not lookalike.value.strip(f" \t{_SPACES}")
        if separator is None:
            message = (
                f"frontmatter: {key} read as {field}; field names are lower case: write '{field}:'"
            )
        elif empty:
            message = (
                f"frontmatter: {key} has no value; after the key stands only {_named(separator)}: "
                f"write '{field}: ' and the {field}"
            )
        elif cased:
            message = (
                f"frontmatter: {key} read as '{field}: …'; after the key stands "
                f"{_named(separator)}, where YAML needs ': ', and field names are lower case "
                f"(it would read no {field}): write '{field}: '"
            )
        else:
            message = (
                f"frontmatter: {key} read as '{key}: …'; after the key stands "
                f"{_named(separator)}, where YAML needs ': ' (it would read no {key}): write ': '"
            )
        field_kind = field if field in FIELDS else None  # other keys: one problem for all
        kind = (field_kind, separator and _named(separator), cased, empty)
        first, number, count = self._read.get(kind, (message, lookalike.number, 0))
        self._read[kind] = (first, number, count + 1)

    def ignored(self, lookalike: _Lookalike, lines: list[str], other: int, why: str) -> None:
        """Name ``lookalike`` as ignored for the line ``other`` (index) of its field; ``why``
        says what stands on that line, ``{}`` its number."""
        line = _clip(lines[lookalike.number])
        reason = f"{lookalike.field} {why.format(other + self._first_line)}; remove one"
        kind = (why, lookalike.field if lookalike.field in FIELDS else None)
        first, text, number, count = self._ignored.get(kind, (reason, line, lookalike.number, 0))
        self._ignored[kind] = (first, text, number, count + 1)

    def merged(self) -> list[str]:
        """The problems: those read, in line order, then those ignored."""
        problems = []
        for message, number, count in self._read.values():
            if count > 1:
                message += f" ({count} such lines, the first is line {number + self._first_line})"
            problems.append(message)
        for reason, line, number, count in self._ignored.values():
            at = f"line {number + self._first_line} {line!r}"
            if count > 1:
                problems.append(f"frontmatter: {count} lines ignored, the first {at}: {reason}")
            else:
                problems.append(f"frontmatter: {at} ignored: {reason}")
        return problems
