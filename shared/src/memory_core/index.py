"""Index (``MEMORY.md``) lines: link detection and pruning (T-4, A-6); pure text in, text out.

An index link is a Markdown link whose target is a topic file of the scope:

- inline: ``[t](file.md)``, ``[t](./file.md)``, ``[t](<Deploy notes.md>)``,
  ``[t](Deploy%20notes.md)``, each with an optional ``#anchor`` and/or link title
  (``"…"``, ``'…'`` or ``(…)``);
- a reference definition on its own line: ``[t]: file.md``, and every line that uses its label
  (``- [Deploy][d]``, ``[d][]``, ``[d]``): the definition says where that line links
  (:func:`reference_definitions`), wherever in the index it stands;
- an entry that names the file in a code span as the first thing of a list item or table row
  (`` - `a-note.md` - about a ``, ``| `a-note.md` | about a |``), the form OpenCode's memory
  index uses.

A file name written in prose ("see testing-conventions.md", "edit `README.md` too") is a mention,
not a link, and so is a link inside a code span, a fenced code block or an HTML comment closed
on its line (``<!-- - [Old](old.md) -->``, an entry commented out). A link into a sub-folder
of the scope (``[Feb](archive/2026-02.md)``) names no topic file, but lint checks it is there
(:func:`scope_link_targets`).

>>> link_targets("- [Deploy](./deploy-freeze.md#why \\"Freeze\\") — no Friday deploys")
['deploy-freeze.md']
>>> line_links_to("- [Notes](Deploy%20notes.md) — see also", "Deploy notes.md")
True
>>> line_links_to("The deploy-freeze.md file is mentioned in prose.", "deploy-freeze.md")
False
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from memory_core.joined_lines import SOFT_BREAKS, entries, has_soft_break, parts_without
from memory_core.markdown import (
    URL_RE,
    WIKI_LINK_RE,
    blank_code_spans,
    blank_comment_lines,
    blank_comments,
    fenced_lines,
    line_texts,
    lines_with_ends,
)
from memory_core.scope_files import fold_name
from memory_core.wiki_links import WikiFiles, wiki_path

__all__ = [
    "IndexRead",
    "RepeatedFind",
    "comment_ends",
    "entry_linked_files",
    "entry_span",
    "entry_targets",
    "files_linked",
    "index_lines",
    "index_lines_linking",
    "index_lines_linking_each",
    "line_entries",
    "line_links_to",
    "line_without_entries",
    "link_targets",
    "linked_name_spans",
    "linked_topic_files",
    "links_of_lines",
    "opened_in_any_case",
    "prune_index",
    "reference_definitions",
    "reference_labels",
    "scope_link_targets",
    "scope_relative",
    "topic_link_targets",
    "wiki_link_targets",
    "wiki_names_naming",
    "without_comment_ends",
]


@dataclass(frozen=True, slots=True)
class IndexRead:
    """How much of a ``MEMORY.md`` was read, for an index larger than the read cap (T-5b).

    ``size`` is the file's size in bytes; ``lines_total`` the number of lines of the whole
    file, or a lower bound when ``exact`` is false; ``links`` maps each scope-local link
    target found past the cap to its line numbers (so no file is called unindexed falsely).
    """

    size: int
    lines_total: int
    exact: bool
    links: dict[str, list[int]]


_REFERENCE_RE = re.compile(r" {0,3}\[([^\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)")
# ``[text][label]``, ``[label][]`` or ``[label]`` not followed by ``(``, ``[`` or ``:``
_REFERENCE_USE_RE = re.compile(r"\[([^\[\]\n]+)\](?:\[([^\[\]\n]*)\])?(?![(\[:])")
# `` - `a-note.md` - about a``, ``1. **`a.md`**: …``, ``| `a.md` | … |``: a code span naming a
# Markdown file as the first thing of a list item or a table row.
_ENTRY_RE = re.compile(
    r"[ \t]{0,3}(?:[-*+]|\d{1,9}[.)]|\|)[ \t]+(?:\*\*|__)?(`{1,2})[ \t]*"
    r"(?P<name>[^`\n]*?[^`\s]\.md)[ \t]*\1"
)
# ``<a href="a.md">``, ``<A class=x HREF='a.md'>``, ``<a href=a.md>``: the attributes before
# ``href`` read up to 200 characters (linear time on a line of many ``<a`` never closed).
_HREF_RE = re.compile(
    r"<a\s[^<>]{0,200}?\bhref[ \t]*=[ \t]*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s\"'<>]+))",
    re.IGNORECASE,
)
_TITLE_CLOSERS = {'"': '"', "'": "'", "(": ")"}
_SOFT_BREAK_RE = re.compile(f"[{SOFT_BREAKS}]")


def _prose(line: str) -> str:
    """``line`` with its code spans and HTML comments blanked: what may link (T-4)."""
    return blank_comments(blank_code_spans(line))


def index_lines(text: str) -> list[str]:
    """Split an index into lines (:func:`memory_core.markdown.line_texts`: a line ends at LF,
    CRLF or a lone CR, nothing else), line ends removed.

    A trailing line end does not start another line; ``""`` has no lines. This is the line
    numbering every other part of Memory uses (1-based: line ``n`` is ``index_lines(t)[n-1]``).

    >>> index_lines("a\\r\\nb\\u2028c\\n")
    ['a', 'b\\u2028c']
    """
    return line_texts(text)


class RepeatedFind:
    """``text.find(char, start)`` asked again and again of one line, each character looked at
    about once: a search remembers where it started and what it found, and a later search
    from a start in between has the same answer. Every ``](`` of a line searches on for its
    ``>`` or title's end; a line of many ``](<`` with no ``>`` (or of titles never closed)
    was scanned to its end once per ``](``: quadratic, seconds per request for a 1 MiB index.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._searched: dict[str, tuple[int, int]] = {}  # char → (searched from, found or -1)

    def find(self, char: str, start: int) -> int:
        """The first index of ``char`` at or after ``start`` in the text, or -1."""
        searched = self._searched.get(char)
        if searched is not None:
            since, found = searched
            if since <= start and (found == -1 or start <= found):
                return found
        found = self._search(char, start)
        self._searched[char] = (start, found)
        return found

    def _search(self, char: str, start: int) -> int:
        return self.text.find(char, start)


def _destination(line: str, start: int, finder: RepeatedFind, before: int) -> str | None:
    """Parse an inline link destination beginning at ``start`` (just after ``](``); a bare one
    ends ``before`` the next ``](`` at the latest (none holds one: a file name with ``](``
    is written ``<…>``), so no character of a line is scanned once per link."""
    end = len(line)
    i = start
    while i < end and line[i] in " \t":
        i += 1
    if i < end and line[i] == "<":
        close = finder.find(">", i + 1)
        if close == -1 or -1 < finder.find("<", i + 1) < close:
            return None
        target, i = line[i + 1 : close], close + 1
    else:
        depth, first = 0, i
        while i < before and line[i] not in " \t":
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
        close = finder.find(_TITLE_CLOSERS[line[i]], i + 1)
        if close == -1:
            return None
        i = close + 1
        while i < end and line[i] in " \t":
            i += 1
    if i < end and line[i] == ")":
        return target
    return None


def _clean(target: str) -> str:
    """Drop ``#anchor`` and ``?query``, percent-decode, drop a leading ``./`` (and the slashes
    doubled after it: ``.//x.md`` is ``x.md``, never the absolute ``/x.md``)."""
    for mark in ("#", "?"):
        target = target.partition(mark)[0]
    target = unquote(target)
    while target.startswith("./"):
        target = target[2:].lstrip("/")
    return target


def link_targets(line: str) -> list[str]:
    """Return the decoded targets of the Markdown links in one line, in order (T-4).

    Anchors, queries and titles are dropped, ``%XX`` escapes decoded and a leading ``./``
    removed; targets are returned whatever they point at (URLs included), see
    :func:`topic_link_targets` for the scope-local ones. Links in code spans are ignored.
    """
    prose = _prose(line)
    targets: list[str] = []
    reference = _REFERENCE_RE.match(prose)
    if reference:
        raw = reference.group(2)
        targets.append(_clean(raw[1:-1] if raw.startswith("<") else raw))
    finder = RepeatedFind(prose)
    position = prose.find("](")
    while position != -1:
        following = prose.find("](", position + 2)
        before = len(prose) if following == -1 else following
        target = _destination(prose, position + 2, finder, before)
        if target:
            targets.append(_clean(target))
        position = following
    return [target for target in targets if target]


def entry_span(line: str) -> tuple[int, int] | None:
    """Where in ``line`` the file name of an entry (`` - `a-note.md` - about a``) is, or None."""
    match = _ENTRY_RE.match(line)
    return match.span("name") if match is not None else None


def entry_targets(line: str) -> list[str]:
    """The files a line names as entries other than by a Markdown link (T-4), in order: the
    entry form (`` - `a-note.md` - about a``, OpenCode's), a wiki link (``- [[deploy-freeze]]``
    names ``deploy-freeze.md``, Obsidian's; ``|alias`` and ``#section`` dropped, a ``.md``
    written kept, an address none) and an HTML link (``<a href="deploy.md">``, its ``#anchor``
    dropped and ``%XX`` decoded as a Markdown link's). A person reading the index, and the
    model, take each for a link to that file, so lint checks it and a delete prunes it; in a
    code span or an HTML comment it is none.

    >>> entry_targets("- `a-note.md` - about a"), entry_targets("see `README.md` for more")
    (['a-note.md'], [])
    >>> entry_targets('- [[deploy-freeze|Freeze]] and <a href="./db%20notes.md#why">DB</a>')
    ['deploy-freeze.md', 'db notes.md']
    """
    span = entry_span(line)
    found = [line[span[0] : span[1]]] if span is not None else []
    for start, end, wiki in linked_name_spans(line):
        name = line[start:end]
        if wiki:
            found.append(wiki_path(name))
        elif target := _clean(name):
            found.append(target)
    return found


def linked_name_spans(line: str) -> list[tuple[int, int, bool]]:
    """``(start, end, wiki)`` of each name a wiki link (``wiki``: ``[[deploy-freeze]]``, its
    name without ``.md``, an address none) or an HTML link (its ``href`` value, as written)
    holds in ``line``, outside code spans and HTML comments, in order (:func:`entry_targets`;
    a rename rewrites them in place)."""
    if "[[" not in line and "<" not in line:
        return []
    prose = _prose(line)
    spans = [
        (*match.span(1), True)
        for match in re.compile(WIKI_LINK_RE).finditer(prose)
        if re.compile(URL_RE).match(match.group(1)) is None
    ]
    for match in _HREF_RE.finditer(prose):
        group = next(number for number in (1, 2, 3) if match.group(number) is not None)
        spans.append((*match.span(group), False))
    return sorted(spans)


def _label(label: str) -> str:
    """A reference label as CommonMark matches it: case-folded, inner whitespace collapsed."""
    return " ".join(label.split()).casefold()


def reference_labels(line: str) -> list[str]:
    """The labels of the reference links a line uses (``[t][label]``, ``[label][]``,
    ``[label]``), normalized (:func:`_label`); a definition line and code spans use none. A
    shortcut ``[label]`` is a link only where a definition of it exists: resolve through
    :func:`reference_definitions`.

    >>> reference_labels("- [Deploy freeze][Freeze  Notes] and [other][] - see [x](x.md)")
    ['freeze notes', 'other']
    """
    prose = _prose(line)
    if _REFERENCE_RE.match(prose):
        return []
    labels: list[str] = []
    for match in _REFERENCE_USE_RE.finditer(prose):
        first, second = match.group(1), match.group(2)
        label = _label(second if second else first)
        if label:
            labels.append(label)
    return labels


def reference_definitions(lines: Sequence[str]) -> dict[str, str]:
    """Each reference label defined in ``lines`` (split by :func:`index_lines`; fenced code
    skipped) and the target its first definition gives, cleaned as :func:`link_targets` does
    (CommonMark: a later definition of the same label is ignored).

    >>> reference_definitions(["- [Deploy][d]", "", "[D]: ./deploy.md#why", "[d]: other.md"])
    {'d': 'deploy.md'}
    """
    found: dict[str, str] = {}
    lines = blank_comment_lines(lines)  # a definition inside ``<!-- … -->`` defines nothing
    for line, fenced in zip(lines, fenced_lines(lines), strict=True):
        if fenced or "]:" not in line:
            continue
        match = _REFERENCE_RE.match(_prose(line))
        if match is not None:
            raw = match.group(2)
            found.setdefault(
                _label(match.group(1)), _clean(raw[1:-1] if raw.startswith("<") else raw)
            )
    return found


def _is_local(target: str) -> bool:
    return "/" not in target and "\\" not in target and ":" not in target


def topic_link_targets(line: str) -> list[str]:
    """Return the targets a line links or names as an entry that are files of this scope (no
    path, no URL)."""
    return [target for target in (*link_targets(line), *entry_targets(line)) if _is_local(target)]


def _in_sub_folder(target: str) -> str | None:
    """``target`` as a relative POSIX path into a sub-folder of the scope, or None: a URL, an
    absolute path, a Windows path, a path with ``..`` (another scope, or outside) or a local
    file name. ``./`` and empty segments are dropped."""
    if ":" in target or "\\" in target or target.startswith(("/", "~")):
        return None
    parts = [part for part in target.split("/") if part not in ("", ".")]
    if len(parts) < 2 or ".." in parts:
        return None
    return "/".join(parts)


def scope_relative(target: str, here: str | None = None) -> str:
    """``target`` (a cleaned link target) as the path inside the scope's folder it names when
    it is written another way, as a Markdown viewer resolves it (lexically): ``.//x.md`` and
    ``notes/../x.md`` are ``x.md``; given ``here``, the scope folder's absolute path, so are
    ``../user/x.md`` (from a folder ``user``) and ``/…/user/x.md``. Any other target comes back
    as it is: a URL, a ``~`` or Windows path, one leading out of the folder (A-6, T-5).

    >>> scope_relative(".//x.md"), scope_relative("a/../x.md"), scope_relative("../m/x.md", "/m")
    ('x.md', 'x.md', 'x.md')
    >>> scope_relative("/m/a/x.md", "/m"), scope_relative("../other/x.md", "/m")
    ('a/x.md', '../other/x.md')
    """
    if "/" not in target or ":" in target or "\\" in target or target.startswith("~"):
        return target
    absolute = target.startswith("/")
    if not absolute and not any(part in ("", ".", "..") for part in target.split("/")):
        return target  # a plain path into a sub-folder: the usual link, at C speed
    path = posixpath.normpath(target)
    if absolute or path == ".." or path.startswith("../"):
        if here is None:
            return target
        base = posixpath.normpath(here).rstrip("/") + "/"
        path = posixpath.normpath(posixpath.join(base, path))
        if not path.startswith(base):
            return target
        path = path[len(base) :]
    return target if path in ("", ".") else path


def scope_link_targets(
    line: str, references: Mapping[str, str] | None = None, here: str | None = None
) -> list[str]:
    """:func:`topic_link_targets` and the links into sub-folders of the scope, as relative POSIX
    paths (``archive/2026-02.md``): every target inside the scope's folder (T-5), however it
    is written (:func:`scope_relative`; ``here``, the scope folder's path, as there). With the
    index's ``references`` (:func:`reference_definitions`), the reference links the line uses
    count too. The one reading of what an index line links: lint's and a delete's (A-6)."""
    targets = [*link_targets(line), *entry_targets(line)]
    if references:
        targets.extend(references[label] for label in reference_labels(line) if label in references)
    targets = [scope_relative(target, here) for target in targets]
    local = [target for target in targets if _is_local(target)]
    deeper = [path for path in map(_in_sub_folder, targets) if path is not None]
    return [*local, *deeper]


def _same_name(left: str, right: str) -> bool:
    # macOS hands out NFD file names; an index usually holds NFC text.
    return unicodedata.normalize("NFC", left) == unicodedata.normalize("NFC", right)


def line_links_to(
    line: str,
    file_name: str,
    *,
    exact: bool = False,
    wiki: Collection[str] = (),
    here: str | None = None,
) -> bool:
    """Tell whether ``line`` holds a Markdown link to ``file_name``, or names it as an entry
    (T-4); prose never counts.

    The target is compared after decoding; a raw, undecoded match counts too (a file whose
    name really holds ``%20``). Unicode is compared in NFC, or, with ``exact``, as spelled (the
    folder holds another file whose name differs only in normalization: a link then names the
    one it spells, as the kernel takes it). ``wiki``: the other names a wiki link may write
    for the file (:func:`wiki_names_naming`, ``Deploy Freeze.md`` for ``deploy-freeze.md``).
    A target is read as :func:`scope_link_targets` reads it (``here``: :func:`scope_relative`).
    """
    same = str.__eq__ if exact else _same_name
    for match in _targets_with_raw(line):
        if any(same(scope_relative(candidate, here), file_name) for candidate in match):
            return True
    if any(same(scope_relative(entry, here), file_name) for entry in entry_targets(line)):
        return True
    return bool(wiki) and any(
        is_wiki and unicodedata.normalize("NFC", wiki_path(line[start:end])) in wiki
        for start, end, is_wiki in linked_name_spans(line)
    )


def files_linked(text: str, files: Collection[str]) -> set[str]:
    """The files of the scope the index ``text`` links (:func:`linked_topic_files`, NFC), a
    wiki link resolved among the scope's ``files`` as the lint resolves it
    (``[[Deploy Freeze]]`` links ``deploy-freeze.md``,
    :class:`~memory_core.wiki_links.WikiFiles`), and a link naming one of ``files`` only in
    another case the file it opens on a disk that ignores case, as the lint takes it
    (:func:`opened_in_any_case`, T-5b).

    >>> sorted(files_linked("- [[Deploy Freeze]]\\n- [B](b.md)\\n", ["deploy-freeze.md", "b.md"]))
    ['Deploy Freeze.md', 'b.md', 'deploy-freeze.md']
    >>> sorted(files_linked("- [B](B.md)\\n", ["b.md"]))
    ['B.md', 'b.md']
    """
    linked = set(linked_topic_files(text))
    opened = opened_in_any_case(files)
    linked.update(opened(target) for target in list(linked))
    linked.discard("")
    if "[[" in text:
        table = WikiFiles(files)
        for name in wiki_link_targets(index_lines(text)):
            if (found := table.resolve(name)) is not None:
                linked.add(found)
    return linked


def entry_linked_files(text: str, here: str | None = None) -> set[str]:
    """The targets inside the scope (NFC) that an entry of the index ``text`` links: a line
    that is no reference definition (``[b]: b.md`` alone indexes nothing), its reference links
    resolved through the definitions; code fences and comments skipped. What a delete's answer
    compares before and after the pruning to name the files left with no entry (A-6);
    ``here`` as for :func:`scope_relative`.

    >>> sorted(entry_linked_files("- [A][a], see [B](b.md)\\n\\n[a]: a.md\\n[c]: c.md\\n"))
    ['a.md', 'b.md']
    """
    lines = blank_comment_lines(index_lines(text))
    references = reference_definitions(lines) if any("]:" in line for line in lines) else {}
    linked: set[str] = set()
    for line, fenced in zip(lines, fenced_lines(lines), strict=True):
        if fenced or ("]:" in line and _REFERENCE_RE.match(_prose(line))):
            continue
        linked.update(
            unicodedata.normalize("NFC", target)
            for target in scope_link_targets(line, references, here)
        )
    return linked


def wiki_names_naming(
    text: str, file_name: str, files: Collection[str], *, exact: bool = False
) -> frozenset[str]:
    """The names (NFC, as :func:`wiki_link_targets` keys them) other than ``file_name`` that a
    wiki link of the index ``text`` writes for ``file_name``, one of the scope's ``files``,
    and that no other file answers once it is gone: the links a delete of it leaves dangling,
    whose lines it prunes (A-6). A link is resolved as the lint resolves it
    (:class:`~memory_core.wiki_links.WikiFiles`: ``[[Deploy Freeze]]`` and
    ``[[DEPLOY-freeze]]`` name ``deploy-freeze.md``, unless a file of that very name is there).
    One that another file answers without ``file_name`` is still a working link and is not
    named: ``[[testing]]`` beside ``feedback_testing.md`` when ``project_testing.md`` goes, or
    ``[[DEPLOY]]`` beside ``deploy.md`` when ``Deploy.md`` goes on a case-sensitive disk.
    ``exact``: only the file spelled ``file_name`` goes (its twin in another Unicode
    normalization stays, :func:`line_links_to`); else every file whose name is it in NFC.

    >>> sorted(wiki_names_naming("- [[Deploy Freeze]]\\n- [[deploy]]\\n", "deploy-freeze.md",
    ...                          ["deploy-freeze.md", "deploy.md"]))
    ['Deploy Freeze.md']
    >>> sorted(wiki_names_naming("- [[testing]]\\n", "project_testing.md",
    ...                          ["project_testing.md", "feedback_testing.md"]))
    []
    """
    if "[[" not in text:
        return frozenset()
    wanted = unicodedata.normalize("NFC", file_name)
    table = WikiFiles(files)
    naming = [
        name
        for name in wiki_link_targets(index_lines(text))
        if name != wanted and table.resolve(name) == wanted
    ]
    if not naming:
        return frozenset()
    if exact:
        left = [file for file in files if file != file_name]
    else:
        left = [file for file in files if unicodedata.normalize("NFC", file) != wanted]
    without = WikiFiles(left)
    return frozenset(name for name in naming if without.resolve(name) is None)


def _targets_with_raw(line: str) -> list[tuple[str, ...]]:
    decoded = link_targets(line)
    if "%" not in line:
        return [(target,) for target in decoded]
    # A second pass without percent-decoding, for names that contain a literal '%'.
    raw_line = line.replace("%", "%25")
    return [(target, raw) for target, raw in zip(decoded, link_targets(raw_line), strict=False)]


def linked_topic_files(
    text: str, twins: Collection[str] = (), here: str | None = None
) -> dict[str, list[int]]:
    """Map each target inside the scope's folder of an index (a topic file, or a path into a
    sub-folder: :func:`scope_link_targets`) to the 1-based lines that link to it; ``twins``
    and ``here`` as :func:`links_of_lines` takes them."""
    return links_of_lines(index_lines(text), twins, here)


def links_of_lines(
    lines: Sequence[str], twins: Collection[str] = (), here: str | None = None
) -> dict[str, list[int]]:
    """:func:`linked_topic_files` of ``lines`` already split by :func:`index_lines`: each
    target inside the scope's folder (NFC) and the 1-based lines linking it, code fences
    skipped; a line using a reference label links where its definition points. A target whose
    NFC is one of ``twins`` (names, NFC, that the scope holds in two Unicode normalizations:
    two files to the kernel) is kept as spelled: each spelling links its own file. ``here``:
    the scope folder's path, by which ``../user/x.md`` and an absolute path name its files
    (:func:`scope_relative`).

    >>> links_of_lines(["- [Deploy][d] - no Friday deploys", "", "[d]: deploy.md"])
    {'deploy.md': [1, 3]}
    >>> twins = links_of_lines(["- [A](cafe\u0301.md)", "- [B](caf\u00e9.md)"], {"caf\u00e9.md"})
    >>> [(len(name), lines) for name, lines in twins.items()]  # decomposed, then composed
    [(8, [1]), (7, [2])]
    """
    found: dict[str, list[int]] = {}
    lines = blank_comment_lines(lines)  # an entry inside ``<!-- … -->``, across lines, is none
    references = reference_definitions(lines) if any("]:" in line for line in lines) else {}
    for number, (line, fenced) in enumerate(zip(lines, fenced_lines(lines), strict=True), start=1):
        if fenced:
            continue
        for target in dict.fromkeys(scope_link_targets(line, references, here)):
            name = unicodedata.normalize("NFC", target)
            found.setdefault(target if name in twins else name, []).append(number)
    return found


def wiki_link_targets(lines: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """Each target (NFC, as :func:`links_of_lines` keys it: ``[[Deploy Freeze]]`` is
    ``Deploy Freeze.md``) that ``lines``, split by :func:`index_lines`, write as a wiki link,
    and the 1-based lines writing it so, outside code fences and HTML comments. A wiki link
    names a note, not a path: Obsidian finds ``[[Deploy Freeze]]`` in ``deploy-freeze.md``
    (lint, T-5b).

    >>> wiki_link_targets(["- [[Deploy Freeze|freeze]] and [b](b.md)", "`[[code]]`"])
    {'Deploy Freeze.md': (1,)}
    """
    if not any("[[" in line for line in lines):
        return {}
    found: dict[str, tuple[int, ...]] = {}
    lines = blank_comment_lines(lines)
    for number, (line, fenced) in enumerate(zip(lines, fenced_lines(lines), strict=True), 1):
        if fenced or "[[" not in line:
            continue
        for start, end, wiki in linked_name_spans(line):
            name = line[start:end]
            if wiki:
                target = unicodedata.normalize("NFC", wiki_path(name))
                if number not in found.get(target, ()):
                    found[target] = (*found.get(target, ()), number)
    return found


def _may_name(line: str, file_name: str) -> bool:
    """A cheap test before parsing: False only when ``line`` cannot link to ``file_name``.

    A line without ``%`` holds each link target verbatim, so it can link the file only if the
    name is in it, or if a target differs from the name only in Unicode normalization (NFC is
    compared). For an ASCII name that needs a character whose NFC form is ASCII (a singleton
    like the Kelvin sign ``K``): no such character is left in a line that is in NFC already.
    So an index line of ordinary prose with an em dash is skipped by a C-speed test, like an
    ASCII one; any other line is left to the full parse (escapes, NFC/NFD).
    """
    if "%" in line:
        return True
    if file_name in line or ("[[" in line and _stem(file_name) in line):  # ``[[deploy]]``
        return True
    if line.isascii():
        return False
    return not (file_name.isascii() and unicodedata.is_normalized("NFC", line))


def _lines_with_any_ends(text: str) -> list[str]:
    """Split ``text`` into lines each keeping its own line end: ``\\r\\n``, a lone ``\\r`` or
    ``\\n``, every one a line end as every reader takes it (T-2, ``decode_text``). Joining the
    result gives ``text`` back."""
    return lines_with_ends(text)


def prune_index(
    text: str,
    file_name: str,
    *,
    exact: bool = False,
    files: Collection[str] | None = None,
    here: str | None = None,
) -> tuple[str, list[str]]:
    """Remove every line holding a link to ``file_name`` (T-4, A-6); keep the rest byte-for-byte.
    ``exact``: as for :func:`line_links_to`. ``files``: the scope's files (``file_name``
    among them); a wiki link naming ``file_name`` as the lint resolves it among them links it
    too (``[[Deploy Freeze]]`` for ``deploy-freeze.md``, :func:`wiki_names_naming`); None:
    only a wiki link writing its name (in NFC) does. A link is read as the lint reads it
    (:func:`scope_link_targets`: ``./x.md``, ``<x.md>``, ``notes/../x.md``, and with ``here``,
    the scope folder's path, ``../user/x.md`` and an absolute path to it); a bare ``x.md``
    in prose is a mention for both, and stays. A line that links another file of the scope
    too (``- [B](b.md), see [A](./a.md#why)``) goes whole, as A-6 says:

    >>> prune_index("- [B](b.md), see [A](./a.md#why)\\n- [C](c.md)\\n", "a.md")
    ('- [C](c.md)\\n', ['- [B](b.md), see [A](./a.md#why)'])

    Returns ``(new_text, removed_lines)`` (removed lines without their line ends). Prose
    mentions and lines in fenced code stay. A line ends at LF, CRLF or a lone CR (classic Mac
    line ends), as every reader takes them (T-2); each kept line keeps its own line end, and the
    presence or absence of a final line end is preserved. When nothing links to the file the
    text comes back unchanged. Only the lines that can name the file are parsed (see
    :func:`_may_name`), so pruning an index of thousands of lines costs a few C-speed scans.

    >>> prune_index("# Index\\r\\n- [A](a.md)\\r\\nsee a.md\\r\\n", "a.md")
    ('# Index\\r\\nsee a.md\\r\\n', ['- [A](a.md)'])
    >>> prune_index("- [A](a.md)\\r- [B](b.md)\\r", "a.md")
    ('- [B](b.md)\\r', ['- [A](a.md)'])

    A line whose entries are joined by a soft break (U+2028, a form feed …: other tools show
    them as lines, :mod:`memory_core.joined_lines`) loses only the entries that link the file,
    with the break that joined each; it goes whole when every entry of it does:

    >>> prune_index("- [A](a.md)\\u2028- [B](b.md)\\n", "a.md")
    ('- [B](b.md)\\n', ['- [A](a.md)'])

    Given ``files``, a link naming ``file_name`` in another case or Unicode form links it too
    when no file of ``files`` is spelled as the link is and no other folds alike
    (:func:`opened_in_any_case`; never with ``exact``, a twin in another normalization being
    there): the lint takes it as the file's entry (T-5b) and a disk that ignores case opens
    it, so it would be left linking nothing (its lines come after the others in the removed
    lines):

    >>> prune_index("- [A](A.md)\\n- [B](b.md)\\n", "a.md", files=["a.md", "b.md"])
    ('- [B](b.md)\\n', ['- [A](A.md)'])
    """
    new_text, removed = _prune_spelled(text, file_name, exact=exact, files=files, here=here)
    for twin in () if exact else _case_twins(text, file_name, files or ()):
        new_text, gone = _prune_spelled(new_text, twin, exact=False, files=None, here=here)
        removed.extend(gone)
    return new_text, removed


def _case_twins(text: str, file_name: str, files: Collection[str]) -> list[str]:
    """The link targets (NFC) of the index ``text`` that name ``file_name``, one of the
    scope's ``files``, only in another case or Unicode form, as a disk that ignores case opens
    them (:func:`opened_in_any_case`: no file spelled so, no other file folding alike).

    Only the lines that may hold the name folded as a disk that ignores case folds it are
    parsed (:func:`_lines_folding_to`), none when the name occurs only as spelled: a few
    C-speed scans in the usual index, as for :func:`prune_index`. Which lines are parsed never
    decides the answer; each is judged alone, whatever else the index holds.
    """
    if not files:
        return []
    nfc = unicodedata.normalize("NFC", file_name)
    candidates = _lines_folding_to(text, nfc)
    opened = opened_in_any_case(files)
    return sorted(
        {
            target
            for line in candidates
            for target in _names_linked(line, {})
            if target != nfc and opened(target) == nfc
        }
    )


def _lines_folding_to(text: str, name: str) -> list[str]:
    """The lines of the index ``text`` (:func:`index_lines`) that may link ``name`` (NFC)
    spelled in another case or Unicode form: those holding it folded as
    :func:`~memory_core.scope_files.fold_name` folds names (full case folding: ``Strasse.md``
    for ``straße.md``, ``ﬁle.md`` for ``file.md``), as written or ``%``-decoded; none when it
    occurs only as spelled. An index in ASCII without ``%`` is searched whole (its lower case
    keeps every offset); any other is folded line by line.

    >>> _lines_folding_to("- [S](Strasse.md)\\n- [B](b.md) 100%\\n", "straße.md")
    ['- [S](Strasse.md)']
    """
    folded = fold_name(name)
    if text.isascii() and "%" not in text:
        lowered = text.lower()
        positions = [match.start() for match in re.finditer(f"(?={re.escape(folded)})", lowered)]
        if all(text.startswith(name, position) for position in positions):
            return []  # the name occurs only as spelled: no link in another case
        return [line for line in index_lines(text) if folded in line.lower()]
    return [line for line in index_lines(text) if _may_fold_to(line, folded)]


def _may_fold_to(line: str, folded: str) -> bool:
    """Whether ``line`` holds ``folded`` (a name folded by
    :func:`~memory_core.scope_files.fold_name`) once folded so itself, as written or with its
    ``%XX`` escapes decoded (a link target is compared decoded and as written)."""
    if line.isascii() and "%" not in line:
        return folded in line.lower()
    return folded in fold_name(line) or ("%" in line and folded in fold_name(unquote(line)))


def _prune_spelled(
    text: str, file_name: str, *, exact: bool, files: Collection[str] | None, here: str | None
) -> tuple[str, list[str]]:
    """:func:`prune_index` for the lines linking ``file_name`` as spelled (in NFC, or as it
    is with ``exact``) or by a wiki link resolved among ``files``."""
    tokens = _lines_with_any_ends(text)
    starts = list(itertools.accumulate(map(len, tokens), initial=0))
    fenced = fenced_lines([_content(token) for token in tokens]) if _may_fence(text) else None
    prose = _uncommented(text, tokens)
    wiki = (
        wiki_names_naming(text, file_name, files, exact=exact) if files is not None else frozenset()
    )
    may_name = _lines_that_may_name(text, tokens, starts, file_name)
    if wiki:
        may_name = sorted({*may_name, *(n for n, token in enumerate(tokens) if "[[" in token)})
    removed_at = [
        number
        for number in may_name
        if (fenced is None or not fenced[number])
        and line_links_to(
            _prose_of(tokens, prose, number), file_name, exact=exact, wiki=wiki, here=here
        )
    ]
    labels: set[str] = set()
    if removed_at and "]:" in text:
        contents = prose if prose is not None else [_content(token) for token in tokens]
        labels = _labels_linking(contents, file_name, exact=exact, here=here)
        uses = _reference_uses(contents, fenced, labels)
        removed_at = sorted({*removed_at, *uses})
    if not removed_at:
        return text, []
    partly = _partly_removed(tokens, prose, removed_at, file_name, labels, exact=exact, wiki=wiki)
    if prose is not None:  # a line cut into entries keeps its comment ends there already
        whole_lines = [number for number in removed_at if number not in partly]
        partly.update(_comment_ends_kept(tokens, prose, whole_lines))
    if partly:
        whole = set(removed_at) - partly.keys()
        result = "".join(
            partly[number][0] + token[len(_content(token)) :] if number in partly else token
            for number, token in enumerate(tokens)
            if number not in whole
        )
    else:  # the kept stretches between the removed lines, sliced from the text as they are
        ends = [starts[number] for number in removed_at] + [len(text)]
        begins = [0] + [starts[number + 1] for number in removed_at]
        result = "".join(text[begin:end] for begin, end in zip(begins, ends, strict=True))
    if not text.endswith(("\n", "\r")):
        # the file had no final line end: the new last line must not gain one
        result = result.removesuffix("\n").removesuffix("\r")
    removed: list[str] = []
    for number in removed_at:
        removed.extend(partly[number][1] if number in partly else [_content(tokens[number])])
    return result, removed


def _partly_removed(
    tokens: Sequence[str],
    prose: Sequence[str] | None,
    removed_at: Sequence[int],
    file_name: str,
    labels: set[str],
    *,
    exact: bool,
    wiki: Collection[str] = (),
) -> dict[int, tuple[str, list[str]]]:
    """The lines of ``removed_at`` that hold entries joined by a soft break
    (:mod:`memory_core.joined_lines`: U+2028, a form feed …, which other tools show as line
    breaks) of which only some link ``file_name`` (or use a reference ``labels`` defines to
    it): by 0-based number, the line without those entries and the entries removed. Every
    other line of ``removed_at`` goes whole. ``prose``: the lines with comments blanked across
    lines (:func:`_uncommented`), or None when there is none; an entry removed that opens or
    closes such a comment leaves its ``<!--`` / ``-->`` part in its place
    (:func:`comment_ends`), so the comment still runs where it ran."""
    partly: dict[int, tuple[str, list[str]]] = {}
    for number in removed_at:
        line = _content(tokens[number])
        if not has_soft_break(line):
            continue

        def links(part: str) -> bool:
            return line_links_to(part, file_name, exact=exact, wiki=wiki) or any(
                label in labels for label in reference_labels(part)
            )

        leaves = None if prose is None else _comment_ends_of(prose[number])
        if (
            _parts_link_as_the_line(line)
            and (kept := parts_without(line, links, _starts_entry, leaves)) is not None
        ):
            partly[number] = kept
    return partly


def _comment_ends_of(shown: str) -> Callable[[str, int], str]:
    """What an entry of a joined line leaves when a delete removes it (``leaves`` of
    :func:`~memory_core.joined_lines.parts_without`): its :func:`comment_ends`, read against
    ``shown``, the whole line with its index's comments blanked (the entry starts at ``at``)."""

    def leaves(entry: str, at: int) -> str:
        return comment_ends(entry, shown[at : at + len(entry)])

    return leaves


def line_entries(line: str) -> list[str]:
    """The entries of one index line (without its line end) as a delete cuts them: for a line
    whose entries a soft break joins (:mod:`memory_core.joined_lines`), each of them, as
    :func:`prune_index` removes one; else ``[line]``. A restore finds where an entry it puts
    back stood by them (:func:`memory_core.index_merge.merge_index`).

    >>> line_entries("- [A](a.md) one\\u2028- [B](b.md) two")
    ['- [A](a.md) one', '- [B](b.md) two']
    """
    if not has_soft_break(line) or not _parts_link_as_the_line(line):
        return [line]
    return entries(line, _starts_entry)


def line_without_entries(line: str, shown: str, gone: Sequence[str]) -> str | None:
    """``line`` (one index line, without its line end) as a delete that removed its joined
    entries ``gone`` (some of :func:`line_entries`) left it: without them and the soft break
    each took, each leaving its ``<!--`` / ``-->`` part (:func:`comment_ends`, read against
    ``shown``, the line with its index's comments blanked). None when ``line`` is no joined
    line, or such a delete would not have removed just ``gone`` from it. A restore puts the
    entries back into the line the delete left (V-2, A-6).

    >>> line_without_entries("- [A](a.md)\u2028- [B](b.md)", "- [A](a.md)\u2028- [B](b.md)",
    ...                      ["- [B](b.md)"])
    '- [A](a.md)'
    """
    if not has_soft_break(line) or not _parts_link_as_the_line(line):
        return None
    firsts = {_SOFT_BREAK_RE.split(entry, maxsplit=1)[0] for entry in gone}
    kept = parts_without(line, firsts.__contains__, _starts_entry, _comment_ends_of(shown))
    if kept is None or sorted(kept[1]) != sorted(gone):
        return None
    return kept[0]


def _starts_entry(part: str) -> bool:
    """Whether a part of a joined line (:mod:`memory_core.joined_lines`) starts an entry of
    its own: it links a file, names one as an entry, or uses a reference."""
    return bool(link_targets(part) or entry_targets(part) or reference_labels(part))


def _parts_link_as_the_line(line: str) -> bool:
    """Whether the parts of ``line`` between soft breaks, each read alone, hold the links,
    entries and reference uses the whole line holds, each part's brackets paired: no link's
    text or target holds a soft break (``[Uv<U+2028>notes](uv.md)`` is one link across two
    parts). Else the line is never cut, and goes whole."""

    def found(text: str) -> list[str]:
        return [*link_targets(text), *entry_targets(text), *reference_labels(text)]

    parts = _SOFT_BREAK_RE.split(line)
    if any(part.count("[") != part.count("]") for part in parts):
        return False
    return sorted(found(line)) == sorted(target for part in parts for target in found(part))


def _labels_linking(
    contents: Sequence[str], file_name: str, *, exact: bool, here: str | None
) -> set[str]:
    """The reference labels whose definition in ``contents`` links ``file_name``, read as
    :func:`scope_link_targets` reads it (``here``: :func:`scope_relative`)."""
    same = str.__eq__ if exact else _same_name
    references = reference_definitions(contents)
    return {
        label
        for label, target in references.items()
        if same(scope_relative(target, here), file_name)
    }


def _reference_uses(
    contents: Sequence[str], fenced: Sequence[bool] | None, labels: set[str]
) -> list[int]:
    """The 0-based numbers of the lines that use one of ``labels`` (the reference labels
    :func:`_labels_linking` found; a definition's own line is found by :func:`line_links_to`)."""
    if not labels:
        return []
    return [
        number
        for number, line in enumerate(contents)
        if "[" in line
        and (fenced is None or not fenced[number])
        and any(label in labels for label in reference_labels(line))
    ]


def index_lines_linking(
    text: str,
    file_name: str,
    *,
    exact: bool = False,
    files: Collection[str] | None = None,
    here: str | None = None,
) -> list[str]:
    """The lines of the index ``text`` (:func:`index_lines`) that link to ``file_name``: the
    lines :func:`prune_index` removes for it, in order (a restore puts these back, V-2);
    ``exact``, ``files`` and ``here`` as there (``exact``: its twin in another Unicode
    normalization is another file; a wiki link naming it among the scope's files links it).

    >>> index_lines_linking("- [Deploy][d]\\n- [B](b.md)\\n\\n[d]: deploy.md\\n", "deploy.md")
    ['- [Deploy][d]', '[d]: deploy.md']
    """
    return prune_index(text, file_name, exact=exact, files=files, here=here)[1]


def index_lines_linking_each(
    text: str, names: Iterable[str], *, files: Collection[str] | None = None
) -> dict[str, list[str]]:
    """:func:`index_lines_linking` for each of ``names`` in one pass over the index ``text``:
    each name (as given) that some line links → those lines, in order, as :func:`prune_index`
    removes them for it (T-4: every link form, a reference use where its definition points,
    of a line of entries joined by a soft break the entries linking it; fenced code and HTML
    comments link nothing). Names compare in NFC. Each line is read once whatever the count
    of names, so the index lines of thousands of files kept in a push cost the index's
    length, not its square (R-2).

    ``files``: the files of the copy the index belongs to; a link naming none of them as
    written but one only in another case or Unicode form (:func:`~memory_core.scope_files.
    fold_name`) links that one, as a case-insensitive disk (macOS, Windows) opens it
    (``C.md`` for a copy's ``c.md``); one holding the spelling itself, or two files it folds
    to, keeps each link its own file.

    >>> index_lines_linking_each("- [A](a.md) [[b]]\\n- [B][r]\\n\\n[r]: b.md\\n", ["b.md", "c.md"])
    {'b.md': ['- [A](a.md) [[b]]', '- [B][r]', '[r]: b.md']}
    >>> index_lines_linking_each("- [C](./C.MD#why)\\n", ["c.md"], files=["c.md"])
    {'c.md': ['- [C](./C.MD#why)']}
    """
    wanted: dict[str, list[str]] = {}
    for name in names:
        wanted.setdefault(unicodedata.normalize("NFC", name), []).append(name)
    found: dict[str, list[str]] = {}
    if not wanted or not text:
        return found
    opened = opened_in_any_case(files or ())
    lines = index_lines(text)
    commented = "<!--" in text and "-->" in text
    shown = blank_comment_lines(lines) if commented else lines
    fenced = fenced_lines(lines) if _may_fence(text) else [False] * len(lines)
    references = reference_definitions(shown) if "]:" in text else {}
    for line, prose, fence in zip(lines, shown, fenced, strict=True):
        if fence:
            continue
        for target in dict.fromkeys(_names_linked(prose, references)):
            for name in wanted.get(target) or wanted.get(opened(target)) or ():
                leaves = _comment_ends_of(prose) if commented else None
                found.setdefault(name, []).extend(
                    _entries_linking(line, name, references, leaves, opened)
                )
    return found


def opened_in_any_case(files: Collection[str]) -> Callable[[str], str]:
    """A function giving the file of ``files`` (NFC) a link target (NFC) opens on a
    case-insensitive disk when no file is spelled as it is: the only one that folds to it
    (:func:`~memory_core.scope_files.fold_name`); else ``""``.

    >>> opened = opened_in_any_case(["c.md", "A.md", "a.md"])
    >>> opened("C.md"), opened("c.md"), opened("A.MD")
    ('c.md', '', '')
    """
    present = {unicodedata.normalize("NFC", name) for name in files}
    single: dict[str, str] = {}
    for name in present:
        single[fold_name(name)] = "" if fold_name(name) in single else name

    def opened(target: str) -> str:
        return "" if not single or target in present else single.get(fold_name(target), "")

    return opened


def _names_linked(prose: str, references: Mapping[str, str]) -> list[str]:
    """The targets (NFC) one index line links as :func:`line_links_to` finds them, undecoded
    ones too, and where the reference labels it uses point (``references``: label →
    target, :func:`reference_definitions`)."""
    targets = [*link_targets(prose), *entry_targets(prose)]
    if "%" in prose:  # a name that really holds ``%20``, linked as it is spelled
        targets += link_targets(prose.replace("%", "%25"))
    if references and "[" in prose:
        targets += [references[label] for label in reference_labels(prose) if label in references]
    return [unicodedata.normalize("NFC", target) for target in targets]


def _entries_linking(
    line: str,
    name: str,
    references: Mapping[str, str],
    leaves: Callable[[str, int], str] | None,
    opened: Callable[[str], str] | None = None,
) -> list[str]:
    """What :func:`prune_index` removes of ``line``, a line linking ``name``: the line, or of
    a line of entries joined by a soft break (:func:`_partly_removed`) the entries linking it
    when some do not; ``opened`` as in :func:`index_lines_linking_each` (a target in another
    case that opens ``name``)."""
    if not has_soft_break(line) or not _parts_link_as_the_line(line):
        return [line]
    labels = {label for label, target in references.items() if _same_name(target, name)}
    nfc = unicodedata.normalize("NFC", name)

    def links(part: str) -> bool:
        """Whether the entry ``part`` links ``name``, itself, by a reference label, or in
        another case that opens it."""
        return (
            line_links_to(part, name)
            or any(label in labels for label in reference_labels(part))
            or (opened is not None and any(opened(t) == nfc for t in _names_linked(part, {})))
        )

    kept = parts_without(line, links, _starts_entry, leaves)
    return [line] if kept is None else kept[1]


def _uncommented(text: str, tokens: Sequence[str]) -> list[str] | None:
    """The lines of ``tokens`` (without their ends) with HTML comments blanked across lines
    (:func:`~memory_core.markdown.blank_comment_lines`), or None when ``text`` holds none to
    blank (the usual index: its lines are read as they are)."""
    if "<!--" not in text or "-->" not in text:
        return None
    return blank_comment_lines([_content(token) for token in tokens])


def _comment_ends_kept(
    tokens: Sequence[str], prose: Sequence[str], removed_at: Sequence[int]
) -> dict[int, tuple[str, list[str]]]:
    """The lines of ``removed_at`` that close or open an HTML comment running across lines
    (``- [A](a.md) <!-- retired:`` … ``-->``): each kept as its ``-->`` and ``<!--`` parts
    alone, by 0-based number, with the line as removed. Removing it whole would end the
    comment early or leave it unopened, and the entries it hides would become entries."""
    kept: dict[int, tuple[str, list[str]]] = {}
    for number in removed_at:
        line = _content(tokens[number])
        if ends := comment_ends(line, prose[number]):
            kept[number] = (ends, [line])
    return kept


def comment_ends(line: str, shown: str) -> str:
    """What a delete keeps of index ``line`` (``shown``: the line with its index's comments
    blanked, :func:`~memory_core.markdown.blank_comment_lines`): the ``-->`` that closes a
    comment run into it and the ``<!--`` part that opens one running on from it, joined by a
    space; ``""`` for a line that does neither (A-6). A restore puts the line back in place of
    them (:func:`memory_core.index_merge.merge_index`).

    >>> comment_ends("--> - [A](a.md) <!-- old:", "    - [A](a.md)          ")
    '--> <!-- old:'
    """
    cut, resume = _comment_end_cuts(line, shown)
    head, tail = line[:cut], line[resume:]
    return f"{head} {tail}".strip() if head and tail else head or tail


def without_comment_ends(line: str, shown: str) -> str:
    """Index ``line`` without its :func:`comment_ends` (``shown`` as there), outer whitespace
    dropped: the entry itself, as a restore puts it back on a line of its own when the index
    keeps those ends elsewhere (V-2).

    >>> without_comment_ends("--> - [A](a.md) <!-- old:", "    - [A](a.md)          ")
    '- [A](a.md)'
    """
    cut, resume = _comment_end_cuts(line, shown)
    return line[cut:resume].strip()


def _comment_end_cuts(line: str, shown: str) -> tuple[int, int]:
    """Where the ``-->`` that closes a comment run into ``line`` ends (0: none) and where the
    ``<!--`` that opens one running on from it starts (``len(line)``: none)."""
    close, opening = line.find("-->"), line.rfind("<!--")
    cut = close + 3 if close != -1 and not shown[: close + 3].strip() else 0
    if "<!--" in line[:cut]:
        cut = 0  # a comment opened and closed on this line: none ran into it
    resume = opening if opening != -1 and not shown[opening:].strip() else len(line)
    if "-->" in line[resume:]:
        resume = len(line)  # closed on this line: none runs on from it
    return cut, max(cut, resume)


def _prose_of(tokens: Sequence[str], prose: Sequence[str] | None, number: int) -> str:
    """Line ``number`` (0-based) as links are read in it: from ``prose`` when there is one."""
    return prose[number] if prose is not None else _content(tokens[number])


def _content(token: str) -> str:
    """A line of :func:`_lines_with_any_ends` without its line end."""
    return token.removesuffix("\n").removesuffix("\r")


def _may_fence(text: str) -> bool:
    """False when no line of ``text`` can open a code fence (no three backticks or tildes)."""
    return "```" in text or "~~~" in text


def _lines_that_may_name(
    text: str, tokens: list[str], starts: list[int], file_name: str
) -> list[int]:
    """The 0-based numbers of the lines for which :func:`_may_name` holds, in order.

    ``tokens`` are the lines with their ends, ``starts`` their offsets (and the text's
    length). In the usual index (no ``%``, in NFC, an ASCII name) those are the lines the name
    occurs in, found by searching the whole text; otherwise each line is asked.
    """
    if "%" in text or not file_name.isascii() or not unicodedata.is_normalized("NFC", text):
        return [n for n, token in enumerate(tokens) if _may_name(_content(token), file_name)]
    numbers: list[int] = []
    # a wiki link writes the name without ``.md``; most indexes hold none: the whole name
    needle = _stem(file_name) if "[[" in text else file_name
    position = text.find(needle)
    while position != -1:
        number = bisect.bisect_right(starts, position) - 1
        numbers.append(number)
        position = text.find(needle, starts[number + 1])  # on from the next line
    return numbers


def _stem(file_name: str) -> str:
    """``file_name`` without ``.md`` (any case), as a wiki link writes it; the name itself
    when that would leave nothing."""
    stem = file_name[:-3] if file_name.lower().endswith(".md") else file_name
    return stem or file_name
