"""Topic files and index lines made for an import (P-5): the seed's model is one memory per
topic file and one index line per memory (docs/note-format.md).

- A memory that a coding agent keeps as part of a file (a list item of Gemini CLI's
  ``## Gemini Added Memories``, a section of Codex's ``memory_summary.md``, a task group of its
  ``MEMORY.md``) becomes a topic file of its own (:func:`made_topic`): frontmatter ``name``
  (kebab-case, from the memory's words), ``description`` (its first line), ``updated_at`` (the
  source's date) and ``imported_from``, then the memory's text as written.
- A topic file that the source's index never linked gets an index line made from its
  ``name`` and ``description`` (or its first line) (:func:`index_unlinked`), so that every
  imported memory is reachable from the index; the report names each such line.

Pure text in, text out; nothing here touches the disk.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

import yaml
from memory_core.hidden_text import without_hidden
from memory_core.index import files_linked
from memory_core.markdown import fenced_lines, line_texts
from memory_core.topics import parse_topic

from memory_api.transfer.sources import SourceFile, SourceScope

__all__ = [
    "INDEX_LINE_LIMIT",
    "Section",
    "add_made",
    "index_line",
    "index_unlinked",
    "list_items",
    "made_topic",
    "name_unlinked",
    "one_line",
    "sections",
    "slug",
    "unique_name",
]

INDEX_LINE_LIMIT = 150
"""A made index line is cut to this many characters (the seed's prompt asks for ~150)."""
SLUG_LIMIT = 48
"""A made topic name holds at most this many characters (before ``-2`` …)."""
_WORD = re.compile(r"[a-z0-9]+")
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*)")
"""An ATX heading line: its ``#`` run and its text; :func:`_heading` drops the closing run of
spaces, tabs and ``#``. (A lazy text before ``[ \t#]*$`` in the pattern itself backtracked in
quadratic time: one line of ``# a``, 80 000 spaces and ``b`` took 18 s, a 1 MiB one an hour.)"""
_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+")


def _heading(line: str) -> tuple[int, str] | None:
    """The level and text of the ATX heading ``line`` is (its closing spaces, tabs and ``#``
    dropped), or None; linear in the line's length.

    >>> _heading("## Deploy steps ##"), _heading("#nope")
    ((2, 'Deploy steps'), None)
    """
    match = _HEADING.fullmatch(line)
    if match is None:
        return None
    return len(match.group(1)), match.group(2).rstrip(" \t#")


def one_line(text: str, limit: int = INDEX_LINE_LIMIT) -> str:
    """``text`` on one line (runs of whitespace made one space), cut to ``limit`` characters.

    >>> one_line("Use  pnpm,\\n never npm", 14)
    'Use pnpm, nev…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def slug(text: str, fallback: str) -> str:
    """A kebab-case name from the words of ``text`` (ASCII letters and digits, accents
    dropped), at most :data:`SLUG_LIMIT` characters cut at a word; when ``text`` holds no such
    word (CJK, emoji), ``fallback`` plus 8 hex digits of the text's SHA-256 (stable, so a second
    import names it the same).

    >>> slug("Prefers pnpm over npm — always!", "memory")
    'prefers-pnpm-over-npm-always'
    >>> slug("数据库迁移", "memory")
    'memory-e8ad931c'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    name = ""
    for word in _WORD.findall(plain):
        longer = f"{name}-{word}" if name else word
        if len(longer) > SLUG_LIMIT:
            name = name or word[:SLUG_LIMIT]
            break
        name = longer
    if name:
        return name
    return f"{fallback}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"


def unique_name(stem: str, taken: set[str]) -> str:
    """``stem.md``, or ``stem-2.md`` … when taken; the name is added to ``taken``."""
    name, number = f"{stem}.md", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.md"
    taken.add(name)
    return name


def _scalar(value: str) -> str:
    """``value`` as a YAML scalar on one line (quoted only when YAML needs it)."""
    dumped = yaml.safe_dump({"v": value}, allow_unicode=True, width=1_000_000)
    return dumped.removeprefix("v: ").rstrip("\n")


def made_topic(
    name: str, description: str, body: str, updated_at: str | None, origin: str
) -> bytes:
    """The bytes of a topic file made from part of a source file (UTF-8, LF line ends).

    ``name`` is the file name without ``.md`` (kebab-case, no quoting needed);
    ``description`` is put on one line; ``updated_at`` an ISO 8601 date (omitted when None);
    ``origin`` is kept as ``imported_from``; ``body`` follows the frontmatter as written.
    """
    head = [f"name: {_scalar(name)}", f"description: {_scalar(one_line(description, 300))}"]
    if updated_at:
        head.append(f"updated_at: {updated_at}")
    head.append(f"imported_from: {_scalar(origin)}")
    text = body.strip("\n").replace("\r\n", "\n")
    return ("---\n" + "\n".join(head) + f"\n---\n{text}\n").encode()


def _link(file_name: str) -> str:
    if any(char in file_name for char in " ()<>[]%"):
        return f"<{file_name}>"
    return file_name


def index_line(file_name: str, title: str, hook: str) -> str:
    """``- [title](file_name) — hook``, the seed's index line, at most
    :data:`INDEX_LINE_LIMIT` characters (the hook is cut; brackets in the title become
    parentheses so the link holds). A memory short enough to be its own title (``hook`` the
    same text, or empty) gets ``- [text](file_name)``, the text cut to fit. Characters a person
    cannot see in the title or hook (I-9) are left out: the line says what a person reads.

    >>> index_line("Deploy notes.md", "Deploy [prod]", "release checklist")
    '- [Deploy (prod)](<Deploy notes.md>) — release checklist'
    >>> index_line("uv.md", "Use uv, never pip", "Use uv, never pip")
    '- [Use uv, never pip](uv.md)'
    """
    link = _link(file_name)
    title, hook = without_hidden(title)[0], without_hidden(hook)[0]
    alone = not hook.strip() or one_line(hook, 10_000) == one_line(title, 10_000)
    room = INDEX_LINE_LIMIT - len(link) - 6 if alone else 80
    clean = one_line(title, max(room, 40)).replace("[", "(").replace("]", ")") or file_name
    head = f"- [{clean}]({link})"
    if alone:
        return head
    room = max(INDEX_LINE_LIMIT - len(head) - 3, 20)
    return f"{head} — {one_line(hook, room)}"


def _title_and_hook(body: str) -> tuple[str | None, str]:
    """A body's first heading (None when it has none before its first text) and its first
    line of text (list marker dropped)."""
    heading = None
    for line in line_texts(body):
        stripped = line.strip()
        if not stripped or stripped == "---":
            continue
        found = _heading(stripped)
        if found is not None:
            heading = heading or found[1]
            continue
        item = _ITEM.match(stripped)
        return heading, stripped[item.end() :] if item else stripped
    return heading, ""


def _line_for(item: SourceFile) -> str:
    """The index line of a topic file: its ``name`` and ``description``; without a
    description, its first heading (else its name) and its first line of text."""
    topic = parse_topic(item.data, item.name)
    if topic.description:
        return index_line(item.name, topic.name, topic.description)
    heading, text = _title_and_hook(topic.body)
    return index_line(item.name, heading or topic.name, text)


def _unlinked(scope: SourceScope) -> list[SourceFile]:
    """The topic files of ``scope`` its index links in no form, a wiki link read as the lint
    reads it (``[[Deploy Freeze]]`` links ``deploy-freeze.md``, T-5b)."""
    linked = files_linked(scope.index or "", [item.name for item in scope.files])
    return [i for i in scope.files if unicodedata.normalize("NFC", i.name) not in linked]


def name_unlinked(scope: SourceScope) -> None:
    """Note in ``scope.notes`` each topic file its index does not link (an archive: restored
    as it was, so the report says which memories no index line reaches)."""
    for item in _unlinked(scope):
        scope.notes.append(f"{item.name}: no line of the archived index links it (restored so)")


def index_unlinked(scope: SourceScope) -> None:
    """Give every topic file of ``scope`` that its index never links an index line of its own
    (appended to ``scope.index``, which is made when there is none); each line made is
    recorded in ``scope.indexed`` for the report."""
    made = [(item.name, _line_for(item)) for item in _unlinked(scope)]
    if not made:
        return
    text = scope.index or ""
    if text and not text.endswith("\n"):
        text += "\n"
    scope.index = text + "".join(f"{line}\n" for _, line in made)
    scope.indexed.extend(made)


@dataclass(frozen=True, slots=True)
class Section:
    """A heading's section: its ``level`` (0 for the text before the first heading),
    ``title`` and ``body`` (the lines under it up to the next heading of that level or above),
    and its first ``line`` (1-based) in the source."""

    level: int
    title: str
    body: str
    line: int


def sections(text: str, level: int) -> list[Section]:
    """Split Markdown ``text`` at its headings of ``level`` (``#`` count) or above, fenced
    code left whole; the text before the first such heading is a section of level 0 (left out
    when blank)."""
    lines = text.replace("\r\n", "\n").split("\n")
    found: list[Section] = []
    title, start, depth = "", 1, 0
    body: list[str] = []
    for number, (line, fenced) in enumerate(zip(lines, fenced_lines(lines), strict=True), 1):
        heading = None if fenced else _heading(line)
        if heading is not None and heading[0] <= level:
            if depth or "".join(body).strip():
                found.append(Section(depth, title, "\n".join(body).strip("\n"), start))
            (depth, title), start, body = heading, number, []
            continue
        body.append(line)
    if depth or "".join(body).strip():
        found.append(Section(depth, title, "\n".join(body).strip("\n"), start))
    return found


def list_items(text: str) -> list[str]:
    """The top-level list items of ``text`` (``-``, ``*``, ``+`` or ``1.``), each with its
    nested lines, marker removed; a non-blank line outside any list item is an item of its own
    (nothing written is dropped); fenced code stays with the item it follows."""
    items: list[list[str]] = []
    lines = text.replace("\r\n", "\n").split("\n")
    for line, fenced in zip(lines, fenced_lines(lines), strict=True):
        marker = None if fenced else _ITEM.match(line)
        if marker:
            items.append([line[marker.end() :]])
        elif line.strip() and (fenced or line[:1] in " \t") and items:
            items[-1].append(line)
        elif line.strip():
            items.append([line.strip()])
    return ["\n".join(item).strip() for item in items if "".join(item).strip()]


def add_made(
    scope: SourceScope,
    *,
    stem: str,
    title: str,
    description: str,
    body: str,
    updated_at: str | None,
    origin: str,
) -> str:
    """Add a topic file made from part of a source file to ``scope`` (:func:`made_topic`),
    named ``stem.md`` (``stem-2.md`` … when the scope offers that name already), with its index
    line (``title`` and ``description``); returns the file name."""
    name = unique_name(stem, {item.name for item in scope.files})
    data = made_topic(name.removesuffix(".md"), description, body, updated_at, origin)
    scope.files.append(SourceFile(name, data, origin, made=True))
    text = scope.index or ""
    if text and not text.endswith("\n"):
        text += "\n"
    scope.index = text + index_line(name, title, description) + "\n"
    return name
