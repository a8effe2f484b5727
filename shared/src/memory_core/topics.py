"""Topic files: bytes → text → frontmatter fields, body and ``[[links]]`` (T-1…T-3).

Parsing never raises on user content (T-2). Whatever is wrong with a file is returned as a
``problems`` entry of the form ``"<area>: <what>"`` — areas are ``encoding``, ``line-endings``,
``size``, ``empty`` and ``frontmatter`` — together with every field that could still be read.
The file's identity is its name (``Deploy notes.md``), never the frontmatter ``name``.

>>> topic = parse_topic(b"---\\nname: prefers-pnpm\\ndescription: use pnpm\\n---\\nSee [[ci]].\\n",
...                     "prefers-pnpm.md")
>>> (topic.name, topic.description, topic.links, topic.problems)
('prefers-pnpm', 'use pnpm', ['ci'], [])
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path
from typing import Any

import msgspec
import yaml
from frontmatter.default_handlers import YAMLHandler

from memory_core.decoding import decode_file, decode_text
from memory_core.field_lines import fields_as_read
from memory_core.hidden_text import find_hidden
from memory_core.markdown import (
    URL_RE,
    WIKI_LINK_RE,
    blank_code_spans,
    blank_comment_lines,
    blank_comments,
    fenced_lines,
    line_texts,
)
from memory_core.scope_files import TOPIC_CAP
from memory_core.text_fields import read_text_fields, text_field_lines

__all__ = [
    "EMPTY_FILE",
    "EMPTY_NAME",
    "NO_FRONTMATTER",
    "READ_CAP_BYTES",
    "ParsedTopic",
    "decode_text",
    "extract_links",
    "parse_topic",
    "read_topic",
]

READ_CAP_BYTES = TOPIC_CAP
"""At most this many bytes of a topic file are ever read (T-2)."""

NO_FRONTMATTER = "frontmatter: missing (no '---' block at the top)"
"""The problem of a file with no frontmatter at all (T-2)."""
EMPTY_FILE = "empty: the file holds no text"
"""The problem of a file with no text (T-2)."""
EMPTY_NAME = "frontmatter: name is empty; the file name stands in"
"""The problem of a ``name:`` line with no text (``name: ""``): the stem is the name (T-1a)."""

_HANDLER = YAMLHandler()
"""Opens a block (a ``---`` line at the top) and loads its YAML (python-frontmatter's own)."""
_CLOSED = YAMLHandler(fm_boundary=re.compile(r"^(?:-{3,}|\.{3})\s*$", re.MULTILINE))
"""Splits a block :data:`_HANDLER` opened at its first ``---`` or ``...`` line: Pandoc (and
R Markdown, Quarto) close a YAML metadata block with either, as YAML ends a document with
``...``; python-frontmatter takes ``---`` alone, and read such a note as having none (T-1)."""
_FIELDS = ("name", "description", "updated_at")
_ERROR_PATH_RE = re.compile(r"at `\$\.(\w+)`")
_PLAIN_FIELD_RE = re.compile(r"([A-Za-z_][\w-]*):[ \t]+([^\s\"'\[{|>&*!#%@`-].*)")


class TopicFields(msgspec.Struct, frozen=True):
    """The frontmatter fields Memory reads (T-1); unknown fields are ignored, never an error.

    ``updated_at`` arrives here already as an ISO 8601 string (YAML dates are converted first).
    """

    name: str | None = None
    description: str | None = None
    updated_at: str | None = None


class ParsedTopic(msgspec.Struct, frozen=True):
    """A parsed topic file (T-1…T-3).

    ``file`` is the file name; ``name`` the frontmatter ``name`` when readable, else the stem;
    ``description`` / ``updated_at`` are None when missing or unreadable; ``body`` is the text
    after the frontmatter (LF line ends, outer whitespace stripped); ``links`` the ``[[name]]``
    targets in order of first appearance; ``problems`` the T-2 findings (``"frontmatter: …"``);
    ``truncated`` is true when only the first :data:`READ_CAP_BYTES` bytes were read;
    ``body_line`` is the 1-based line of the file on which ``body`` starts (for lint findings);
    ``hidden`` holds ``(line, where, what)`` for each line of the file with characters a model
    reads but a person cannot see (I-9): the 1-based line, ``where`` it is (``the body``,
    ``the frontmatter field 'description'``, ``the frontmatter``) and what they are
    (:func:`~memory_core.hidden_text.describe_hidden`), never the hidden text.
    """

    file: str
    name: str
    description: str | None
    updated_at: str | None
    body: str
    links: list[str]
    problems: list[str]
    truncated: bool
    body_line: int = 1
    hidden: tuple[tuple[int, str, str], ...] = ()


def extract_links(body: str) -> list[str]:
    """Return the ``[[name]]`` link targets of a body, in order, each once (T-3).

    ``[[name|alias]]`` and ``[[name#section]]`` link to ``name``; links inside code fences,
    code spans or HTML comments (closed on their line or a later one), an address
    (``[[https://…]]``) and padded forms such as a shell test ``[[ -f x ]]`` are not links.

    >>> extract_links("See [[a]], [[b|B]] and [[a#why]]; `[[not]]`.")
    ['a', 'b']
    """
    if "[[" not in body:
        return []  # most bodies: no line need be split, fenced or blanked
    seen: dict[str, None] = {}
    for line in _prose_lines(body):
        for match in re.compile(WIKI_LINK_RE).finditer(line):
            if re.compile(URL_RE).match(match.group(1)) is None:
                seen.setdefault(match.group(1), None)
    return list(seen)


def _prose_lines(body: str) -> list[str]:
    """The body's lines outside fenced code blocks, code spans and HTML comments blanked."""
    lines = blank_comment_lines(body.split("\n"))  # ``<!--`` … ``-->`` across lines too
    return [
        blank_comments(blank_code_spans(line))
        for line, fenced in zip(lines, fenced_lines(lines), strict=True)
        if not fenced
    ]


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _yaml_problem(error: Exception, read: list[str]) -> str:
    kept = f"read {', '.join(read)} line by line" if read else "no fields read"
    if isinstance(error, yaml.MarkedYAMLError):
        # +1: marks count from 0 in the block, which starts on the opening line's line end.
        parts = []
        if error.context:
            where = f", line {error.context_mark.line + 1}" if error.context_mark else ""
            parts.append(f"{error.context}{where}")
        if error.problem:
            where = f", line {error.problem_mark.line + 1}" if error.problem_mark else ""
            parts.append(f"{error.problem}{where}")
        what = _one_line(": ".join(parts) or "invalid YAML")
        return f"frontmatter: invalid YAML ({what}); {kept}"
    return f"frontmatter: invalid YAML ({_one_line(str(error) or type(error).__name__)}); {kept}"


def _repair_plain_values(block: str) -> str | None:
    """Quote unquoted one-line values that hold ``": "`` (``description: a: b``), or None.

    Agents often write such lines; strict YAML refuses them ("mapping values are not allowed").
    Only top-level ``key: value`` lines whose value is plain text are touched, so a real error
    (an unclosed quote, a broken list) still fails and is reported.
    """
    lines = block.split("\n")
    changed = False
    for number, line in enumerate(lines):
        match = _PLAIN_FIELD_RE.fullmatch(line)
        if match and ": " in match.group(2):
            lines[number] = f"{match.group(1)}: {json.dumps(match.group(2).rstrip())}"
            changed = True
    return "\n".join(lines) if changed else None


def _salvage(block: str) -> dict[str, Any]:
    """Read the known fields line by line from a block whose YAML as a whole failed."""
    found: dict[str, Any] = {}
    for line in line_texts(block):
        key, sep, _ = line.partition(":")
        if sep and key in _FIELDS and key not in found:
            try:
                value = yaml.safe_load(line)
            except Exception:  # noqa: S112 - user content: an unreadable line is skipped
                continue
            if isinstance(value, dict) and key in value:
                found[key] = value[key]
    return found


def _normalise_date(value: Any, problems: list[str]) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, str):
        candidate = value.strip()
        try:
            dt.datetime.fromisoformat(candidate.replace("Z", "+00:00"))
        except ValueError:
            problems.append(
                f"frontmatter: updated_at {_one_line(candidate, 40)!r} is not an ISO 8601 date"
            )
            return None
        return candidate
    return value


def _convert_fields(data: dict[str, Any], problems: list[str]) -> TopicFields:
    """Validate the known fields with msgspec; a field of the wrong type is dropped and named."""
    known = {key: data[key] for key in _FIELDS if data.get(key) is not None}
    if "updated_at" in known:
        known["updated_at"] = _normalise_date(known["updated_at"], problems)
    for _ in _FIELDS:
        try:
            return msgspec.convert(known, TopicFields)
        except msgspec.ValidationError as error:
            match = _ERROR_PATH_RE.search(str(error))
            field = match.group(1) if match else None
            problems.append(f"frontmatter: {_one_line(str(error))}")
            if field not in known:
                break
            del known[field]
    return TopicFields()


def _second_block(body: str) -> bool:
    """Tell whether the body starts with another ``---`` block that reads as frontmatter."""
    if not _HANDLER.detect(body):
        return False
    try:
        block, _ = _CLOSED.split(body)
        value = _HANDLER.load(block)
    except Exception:
        return False
    return isinstance(value, dict) and bool(value)


_BLANK_LINES = re.compile(r"\A(?:[^\S\n]*\n)+")


def _trimmed(body: str) -> str:
    """``body`` without its blank lines before the first line of text, nor the blanks after its
    last: the first line keeps its indent, as Markdown reads it (``    code`` opening a body is
    an indented code block, not a paragraph)."""
    return _BLANK_LINES.sub("", body, count=1).rstrip()


def _split_frontmatter(text: str, problems: list[str]) -> tuple[dict[str, Any], str, bool]:
    """``(fields, body, block)`` of ``text``: ``block`` is whether a closed frontmatter block
    was there (the body's first line keeps its indent, so comparing the body with the text
    cannot tell). A missing or unclosed block is named in ``problems``."""
    stripped = text.strip()
    if not _HANDLER.detect(stripped):
        problems.append(NO_FRONTMATTER)
        return {}, _trimmed(text), False
    try:
        block, body = _CLOSED.split(stripped)  # opened by ``---``, closed by ``---`` or ``...``
    except ValueError:
        problems.append(
            "frontmatter: no closing '---' (or '...') line; the whole file is read as body"
        )
        return {}, _trimmed(text), False
    leading = text[: len(text) - len(text.lstrip())].count("\n")  # blank lines before ``---``
    # the block starts on the ``---`` line (its rest, empty): file line ``leading + 1``
    block, as_read = fields_as_read(block, leading + 1)  # ``description：…`` is the field (T-1a)
    problems.extend(as_read)
    as_written = read_text_fields(block)
    problems.extend(as_written.problems)
    metadata = _load_block(as_written.rest, problems, as_written.values)
    metadata.update(as_written.values)
    return metadata, _trimmed(body), True


def _load_block(block: str, problems: list[str], as_written: dict[str, str]) -> dict[str, Any]:
    """The block's fields by YAML (T-1), the one-line text fields already taken out of it."""
    try:
        value = _HANDLER.load(block)
    except Exception as error:  # user content: any YAML failure becomes a named problem
        repaired = _repair_plain_values(block)
        if repaired is not None:
            try:
                value = _HANDLER.load(repaired)
            except Exception:  # noqa: S110 - the repair did not help: report the first error
                pass
            else:
                if isinstance(value, dict):
                    return value
        # A text field whose line is there is its text, never "missing" (T-1a).
        salvaged = {**text_field_lines(block), **_salvage(block)}
        read = [field for field in _FIELDS if field in salvaged or field in as_written]
        problems.append(_yaml_problem(error, read))
        return salvaged
    metadata = value if isinstance(value, dict) else {}
    if not metadata and block.strip() and not as_written:
        problems.append("frontmatter: not a mapping of fields; ignored")
    return metadata


def parse_topic(raw: bytes, file_name: str) -> ParsedTopic:
    """Parse a topic file's bytes (T-1…T-3); never raises on content (T-2).

    Only the first :data:`READ_CAP_BYTES` bytes are used (``truncated`` and a ``size`` problem
    say so). ``file_name`` is the identity: without a readable ``name`` the stem stands in.
    Fields of the wrong type or with unreadable values are dropped and named in ``problems``.
    Bytes in a legacy CJK encoding are not decoded (:func:`~memory_core.decoding.decode_file`,
    as an index is not): the stem is the name, there is no description or body, and the
    ``encoding`` problem names the likely encoding and the ``iconv`` command.
    """
    truncated = len(raw) > READ_CAP_BYTES
    text, problems = decode_file(raw[:READ_CAP_BYTES], partial=truncated)
    if truncated:
        problems.append("size: larger than 1 MiB; only the first 1 MiB was read")
    stem = file_name.removesuffix(".md")
    if text is None:  # a legacy CJK encoding: by its file name, never as mojibake
        return ParsedTopic(file_name, stem, None, None, "", [], problems, truncated)
    if not text.strip():
        problems.append(EMPTY_FILE)
        return ParsedTopic(file_name, stem, None, None, "", [], problems, truncated)
    metadata, body, has_block = _split_frontmatter(text, problems)
    body_line = _line_of_body(text, body)
    fields = _convert_fields(metadata, problems)
    if _second_block(body):
        problems.append(
            "frontmatter: a second '---' block follows the first; only the first is read"
        )
    name = fields.name.strip() if fields.name and fields.name.strip() else stem
    if "name" in metadata and _is_blank(metadata["name"]):
        problems.append(EMPTY_NAME)  # the line is there, with no text
    description = fields.description.strip() if fields.description else None
    return ParsedTopic(
        file=file_name,
        name=name,
        description=description or None,
        updated_at=fields.updated_at,
        body=body,
        links=extract_links(body),
        problems=problems,
        truncated=truncated,
        body_line=body_line,
        hidden=_hidden_lines(text, body_line if has_block else 1),
    )


_FIELD_KEY_RE = re.compile(r"[\"']?([A-Za-z_][\w-]*)[\"']?[ \t]*[:\uff1a]")  # ``：``: T-1a


def _hidden_lines(text: str, body_line: int) -> tuple[tuple[int, str, str], ...]:
    """``ParsedTopic.hidden`` of ``text`` whose body starts on ``body_line`` (1: no
    frontmatter): a frontmatter line is named by the field it belongs to (I-9)."""
    found = find_hidden(text)
    if not found:
        return ()
    lines = text.split("\n")
    return tuple((number, _where(lines, number, body_line), what) for number, what in found)


def _where(lines: list[str], number: int, body_line: int) -> str:
    if number >= body_line:
        return "the body"
    for line in reversed(lines[1:number]):  # the field's line, or the one it continues
        match = _FIELD_KEY_RE.match(line)
        if match is not None:
            return f"the frontmatter field {match.group(1)!r}"
    return "the frontmatter"


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _line_of_body(text: str, body: str) -> int:
    """1-based line of ``text`` where ``body`` (a stripped tail of it) begins."""
    start = len(text.rstrip()) - len(body)
    if start < 0 or not text.startswith(body, start):
        return 1
    return text.count("\n", 0, start) + 1


def read_topic(path: Path) -> tuple[ParsedTopic, os.stat_result]:
    """Read and parse one topic file, at most :data:`READ_CAP_BYTES` (+1 to detect more).

    Returns the parsed topic and the ``os.stat_result`` of the opened file (size, mtime).
    Raises ``OSError`` when the file cannot be opened; never rewrites anything.
    """
    with path.open("rb") as handle:
        stat = os.fstat(handle.fileno())
        raw = handle.read(READ_CAP_BYTES + 1)
    return parse_topic(raw, path.name), stat
