"""Index (``MEMORY.md``) lines: link detection and pruning (T-4, A-6); pure text in, text out.

An index link is a Markdown link whose target is a topic file of the scope:

- inline: ``[t](file.md)``, ``[t](./file.md)``, ``[t](<Deploy notes.md>)``,
  ``[t](Deploy%20notes.md)``, each with an optional ``#anchor`` and/or link title
  (``"…"``, ``'…'`` or ``(…)``);
- a reference definition on its own line: ``[t]: file.md``.

A file name written in prose ("see testing-conventions.md") is a mention, not a link, and so is
a link inside a code span or a fenced code block.

>>> link_targets("- [Deploy](./deploy-freeze.md#why \\"Freeze\\") — no Friday deploys")
['deploy-freeze.md']
>>> line_links_to("- [Notes](Deploy%20notes.md) — see also", "Deploy notes.md")
True
>>> line_links_to("The deploy-freeze.md file is mentioned in prose.", "deploy-freeze.md")
False
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import unquote

from memory_core.markdown import blank_code_spans, fence_flags, fenced_lines, lines_with_ends

__all__ = [
    "index_lines",
    "line_links_to",
    "link_targets",
    "linked_topic_files",
    "links_of_lines",
    "prune_index",
    "topic_link_targets",
]

_REFERENCE_RE = re.compile(r" {0,3}\[[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)")
_TITLE_CLOSERS = {'"': '"', "'": "'", "(": ")"}


def index_lines(text: str) -> list[str]:
    """Split an index into lines on ``\\n`` only, line ends (``\\r`` included) removed.

    A trailing line end does not start another line; ``""`` has no lines. This is the line
    numbering every other part of Memory uses (1-based: line ``n`` is ``index_lines(t)[n-1]``).

    >>> index_lines("a\\r\\nb\\n")
    ['a', 'b']
    """
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [part.removesuffix("\r") for part in parts]


def _destination(line: str, start: int) -> str | None:
    """Parse an inline link destination beginning at ``start`` (just after ``](``)."""
    end = len(line)
    i = start
    while i < end and line[i] in " \t":
        i += 1
    if i < end and line[i] == "<":
        close = line.find(">", i + 1)
        if close == -1 or "<" in line[i + 1 : close]:
            return None
        target, i = line[i + 1 : close], close + 1
    else:
        depth, first = 0, i
        while i < end and line[i] not in " \t":
            char = line[i]
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    break
                depth -= 1
            i += 1
        target = line[first:i]
    while i < end and line[i] in " \t":
        i += 1
    if i < end and line[i] in _TITLE_CLOSERS:
        close = line.find(_TITLE_CLOSERS[line[i]], i + 1)
        if close == -1:
            return None
        i = close + 1
        while i < end and line[i] in " \t":
            i += 1
    if i < end and line[i] == ")":
        return target
    return None


def _clean(target: str) -> str:
    """Drop ``#anchor`` and ``?query``, percent-decode, drop a leading ``./``."""
    for mark in ("#", "?"):
        target = target.partition(mark)[0]
    target = unquote(target)
    while target.startswith("./"):
        target = target[2:]
    return target


def link_targets(line: str) -> list[str]:
    """Return the decoded targets of the Markdown links in one line, in order (T-4).

    Anchors, queries and titles are dropped, ``%XX`` escapes decoded and a leading ``./``
    removed; targets are returned whatever they point at (URLs included), see
    :func:`topic_link_targets` for the scope-local ones. Links in code spans are ignored.
    """
    prose = blank_code_spans(line)
    targets: list[str] = []
    reference = _REFERENCE_RE.match(prose)
    if reference:
        raw = reference.group(1)
        targets.append(_clean(raw[1:-1] if raw.startswith("<") else raw))
    position = prose.find("](")
    while position != -1:
        target = _destination(prose, position + 2)
        if target:
            targets.append(_clean(target))
        position = prose.find("](", position + 2)
    return [target for target in targets if target]


def _is_local(target: str) -> bool:
    return "/" not in target and "\\" not in target and ":" not in target


def topic_link_targets(line: str) -> list[str]:
    """Return the link targets of a line that name a file of this scope (no path, no URL)."""
    return [target for target in link_targets(line) if _is_local(target)]


def _same_name(left: str, right: str) -> bool:
    # macOS hands out NFD file names; an index usually holds NFC text.
    return unicodedata.normalize("NFC", left) == unicodedata.normalize("NFC", right)


def line_links_to(line: str, file_name: str) -> bool:
    """Tell whether ``line`` holds a Markdown link to ``file_name`` (T-4); prose never counts.

    The target is compared after decoding; a raw, undecoded match counts too (a file whose
    name really holds ``%20``). Unicode is compared in NFC.
    """
    for match in _targets_with_raw(line):
        if any(_same_name(candidate, file_name) for candidate in match):
            return True
    return False


def _targets_with_raw(line: str) -> list[tuple[str, ...]]:
    decoded = link_targets(line)
    if "%" not in line:
        return [(target,) for target in decoded]
    # A second pass without percent-decoding, for names that contain a literal '%'.
    raw_line = line.replace("%", "%25")
    return [(target, raw) for target, raw in zip(decoded, link_targets(raw_line), strict=False)]


def linked_topic_files(text: str) -> dict[str, list[int]]:
    """Map each scope-local link target of an index to the 1-based lines that link to it."""
    return links_of_lines(index_lines(text))[0]


def links_of_lines(
    lines: Sequence[str], *, first: int = 1, fence: str | None = None
) -> tuple[dict[str, list[int]], str | None]:
    """:func:`linked_topic_files` of ``lines`` (from :func:`index_lines`) numbered from
    ``first``, with ``fence`` the code fence open before them; returns the links (NFC target →
    line numbers) and the fence still open after them (see
    :func:`~memory_core.markdown.fence_flags`)."""
    flags, fence = fence_flags(lines, fence)
    found: dict[str, list[int]] = {}
    for number, (line, fenced) in enumerate(zip(lines, flags, strict=True), start=first):
        if fenced:
            continue
        for target in dict.fromkeys(topic_link_targets(line)):
            found.setdefault(unicodedata.normalize("NFC", target), []).append(number)
    return found, fence


def _may_name(line: str, file_name: str) -> bool:
    """A cheap test before parsing: False only when ``line`` cannot link to ``file_name``.

    An ASCII line without ``%`` holds each link target verbatim, so it can link the file only
    if the name is in it; any other line is left to the full parse (escapes, NFC/NFD).
    """
    if "%" in line or not line.isascii():
        return True
    return file_name in line


def prune_index(text: str, file_name: str) -> tuple[str, list[str]]:
    """Remove every line holding a link to ``file_name`` (T-4, A-6); keep the rest byte-for-byte.

    Returns ``(new_text, removed_lines)`` (removed lines without their line ends). Prose
    mentions and lines in fenced code stay; CRLF line ends and the presence or absence of a
    final line end are preserved. When nothing links to the file the text comes back unchanged.

    >>> prune_index("# Index\\r\\n- [A](a.md)\\r\\nsee a.md\\r\\n", "a.md")
    ('# Index\\r\\nsee a.md\\r\\n', ['- [A](a.md)'])
    """
    tokens = lines_with_ends(text)
    content = [token.removesuffix("\n").removesuffix("\r") for token in tokens]
    kept: list[str] = []
    removed: list[str] = []
    for token, line, in_fence in zip(tokens, content, fenced_lines(content), strict=True):
        if not in_fence and _may_name(line, file_name) and line_links_to(line, file_name):
            removed.append(line)
        else:
            kept.append(token)
    if not removed:
        return text, []
    result = "".join(kept)
    if not text.endswith("\n"):
        # the file had no final line end: the new last line must not gain one
        result = result.removesuffix("\n").removesuffix("\r")
    return result, removed
