"""Merging one index into another (P-5): links renamed, lines added once; pure text in, text out.

An import brings a foreign ``MEMORY.md`` along with its topic files. Files whose names were
already taken in the target scope are kept under new names, so the lines linking to them must
link to the names actually used (:func:`rewrite_links`); then the source lines are merged into
the target index without duplicates (:func:`merge_index`):

- a target that has no index (or a blank one) receives the source index whole, links rewritten;
- otherwise a source line is appended unless it is blank, already present (compared without
  outer whitespace, HTML comments and all, and hidden by a comment there as here:
  ``## Ops <!-- team -->`` is there once it is), the source's top-level ``# `` title, or a link
  line whose every topic link already has a line in the target (the memory is indexed there
  already; an entry inside ``<!-- … -->`` links nothing);
- lines of a comment across lines (:func:`memory_core.markdown.comment_line_runs`) come
  together when some of them alone would leave a ``<!--`` or ``-->`` hiding or showing other
  lines; a line put back in place of the ``<!--``/``-->`` a delete kept of it
  (:func:`memory_core.index.comment_ends`) takes their place;
- the target's own lines are never changed, reordered or removed, and its line ends (LF or
  CRLF) are used for the appended lines;
- lines that come back to the index they were once part of (a restore, V-2: ``places``) go
  back to where they stood in it, next to the same neighbours, rather than at the end (an
  entry a delete cut out of a line of entries joined by a soft break comes back on a line of
  its own, where it stood among them: :func:`memory_core.index.line_entries`; but into that
  line, byte for byte, when the line also opens or closes a comment across lines, which a
  line of its own beside it would land inside: :func:`_rejoined`; when that line was edited
  meanwhile, on a line of its own without the ``<!--``/``-->`` the line keeps, after the
  line closing any comment it would fall in: :func:`_shown_again`; after the code a fence or
  an indented code block changed since would take it into: :func:`_out_of_code`).

Merging the same source twice therefore adds nothing the second time (P-5, "a second run
changes nothing").

>>> rewrite_links("- [Uv](uv.md#why) — use uv", {"uv.md": "uv-imported.md"})
'- [Uv](uv-imported.md#why) — use uv'
>>> rewrite_links("- [D](<Deploy notes.md>)", {"Deploy notes.md": "Deploy notes-imported.md"})
'- [D](<Deploy notes-imported.md>)'
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from memory_core.index import (
    RepeatedFind,
    comment_ends,
    entry_span,
    index_lines,
    line_entries,
    line_without_entries,
    linked_name_spans,
    linked_topic_files,
    opened_in_any_case,
    reference_definitions,
    reference_labels,
    scope_link_targets,
    topic_link_targets,
    wiki_link_targets,
    without_comment_ends,
)
from memory_core.joined_lines import has_soft_break
from memory_core.markdown import (
    blank_code_spans,
    blank_comment_lines,
    blank_comments,
    code_lines,
    comment_line_runs,
    fenced_lines,
    indented_code_lines,
    lines_with_ends,
)
from memory_core.wiki_links import WikiFiles, wiki_path

__all__ = ["IndexMerge", "case_renames", "merge_index", "rewrite_links", "wiki_renames"]

_REFERENCE_RE = re.compile(r"( {0,3}\[[^\]\n]+\]:[ \t]*)(<[^<>\n]*>|\S+)")
# Characters a bare link destination cannot hold as they are; anything else stays readable.
_BARE_SAFE = "!$&'*+,;=:@~-._"


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _new_destination(raw: str, angled: bool, renames: Mapping[str, str]) -> tuple[str, str] | None:
    """The key of ``renames`` the destination ``raw`` (without angle brackets) names and its
    rewritten text, or None if unchanged."""
    cut = min((i for i in (raw.find("#"), raw.find("?")) if i != -1), default=len(raw))
    path, suffix = raw[:cut], raw[cut:]
    prefix = ""
    while path.startswith("./"):
        prefix, path = prefix + "./", path[2:]
    key = _nfc(unquote(path))
    new = renames.get(key)
    if new is None:
        return None
    if angled:
        return key, prefix + new + suffix
    if "%" in path or any(char in new for char in " ()<>%"):
        return key, prefix + quote(new, safe=_BARE_SAFE) + suffix
    return key, prefix + new + suffix


def _inline_spans(prose: str) -> list[tuple[int, int, bool]]:
    """``(start, end, angled)`` of every inline link destination in a code-span-blanked line."""
    spans: list[tuple[int, int, bool]] = []
    finder = RepeatedFind(prose)  # each character looked at about once, as link_targets does
    position = prose.find("](")
    while position != -1:
        following = prose.find("](", position + 2)
        before = len(prose) if following == -1 else following
        i = position + 2
        while i < len(prose) and prose[i] in " \t":
            i += 1
        if i < len(prose) and prose[i] == "<":
            close = finder.find(">", i + 1)
            if close != -1 and not -1 < finder.find("<", i + 1) < close:  # as link_targets
                spans.append((i + 1, close, True))
        else:
            start, depth = i, 0
            while i < before and prose[i] not in " \t":
                if prose[i] == "(":
                    depth += 1
                elif prose[i] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                i += 1
            if i > start:
                spans.append((start, i, False))
        position = following
    return spans


def rewrite_links(
    line: str,
    renames: Mapping[str, str],
    wiki: WikiFiles | None = None,
    *,
    linked: set[str] | None = None,
) -> str:
    """Point the links of ``line`` that name a renamed topic file at its new name (T-4 forms).

    ``renames`` maps an old file name (NFC) to the new one. The link's form is kept: ``./``,
    ``<…>``, a ``#anchor`` or ``?query``, percent-encoding (a bare target that needs it is
    encoded); an entry (`` - `a.md` - about a``) names the new file. Prose mentions and links in
    code spans are left alone; a wiki link (``[[old]]``) and an HTML link's ``href`` name the
    new file too. ``wiki``: the scope's files before the renames, among which a wiki link
    names the file the lint resolves it to (``[[Deploy Freeze]]`` is ``deploy-freeze.md``,
    :class:`~memory_core.wiki_links.WikiFiles`); None: the file its name spells. ``linked``:
    a set each key of ``renames`` whose links the line had pointed at the new name is added
    to: which renamed files a line links, learnt in the one pass that rewrites it
    (:func:`~memory_core.short_names.linking_lines`).
    """
    if not renames:
        return line
    prose = blank_code_spans(line)
    spans = _inline_spans(prose)
    reference = _REFERENCE_RE.match(prose)
    if reference:
        start, end = reference.span(2)
        angled = prose[start] == "<"
        spans.append((start + 1, end - 1, True) if angled else (start, end, False))
    entry = entry_span(line)
    if entry is not None:
        spans.append((*entry, True))  # a name in a code span: written as it is, like <…>
    named = linked_name_spans(line)  # ``[[deploy]]``, ``<a href="deploy.md">``
    wiki_starts = {start for start, _, is_wiki in named if is_wiki}
    spans.extend((start, end, False) for start, end, _ in named)
    result = line
    for start, end, angled in sorted(spans, reverse=True):  # right to left: offsets stay valid
        if start in wiki_starts:
            found = _new_wiki_name(line[start:end], renames, wiki)
        else:
            found = _new_destination(line[start:end], angled, renames)
        if found is not None:
            result = result[:start] + found[1] + result[end:]
            if linked is not None and found[1] != line[start:end]:
                linked.add(found[0])
    return result


def wiki_renames(text: str, renames: Mapping[str, str], files: Iterable[str]) -> dict[str, str]:
    """``renames`` (old file name, NFC → new) and, for each wiki link of the index ``text``
    that names a renamed file among ``files`` (the files before the renames) as the lint
    resolves it (``[[Deploy Freeze]]`` for ``deploy-freeze.md``,
    :class:`~memory_core.wiki_links.WikiFiles`), the name it writes (``Deploy Freeze.md``)
    → that file's new name: so :func:`rewrite_links` points it at the new file too.

    >>> wiki_renames("- [[Deploy Freeze]] x\\n", {"deploy-freeze.md": "d-imported.md"},
    ...              ["deploy-freeze.md"])
    {'deploy-freeze.md': 'd-imported.md', 'Deploy Freeze.md': 'd-imported.md'}
    """
    found = dict(renames)
    if not renames or "[[" not in text:
        return found
    table = WikiFiles(files)
    by_nfc = {_nfc(old): new for old, new in renames.items()}
    for name in wiki_link_targets(index_lines(text)):
        named = table.resolve(name)
        if named is not None and named in by_nfc and name not in found:
            found[name] = by_nfc[named]
    return found


def case_renames(
    text: str, renames: Mapping[str, str], files: Iterable[str], *, held: Iterable[str] = ()
) -> dict[str, str]:
    """``renames`` (old file name, NFC → new) and, for each link of the index ``text`` that
    names one of ``files`` (NFC, the files before the renames) only in another case, as a
    disk that ignores case opens it and the lint takes it (:func:`~memory_core.index.
    opened_in_any_case`, T-5b), the name it writes → that file's name, new or as it is: so
    :func:`rewrite_links` points it at the file as it is named on every disk (P-5). ``held``:
    the other names (NFC) the source holds (a symlink, a FIFO, a file not imported); a link
    spelled as one of them, or folding as one of them too, means it, and is never mapped.

    >>> case_renames("- [D](Deploy.md) x\\n- [N](N.MD)\\n", {"deploy.md": "d-imported.md"},
    ...              ["deploy.md", "n.md"])
    {'deploy.md': 'd-imported.md', 'Deploy.md': 'd-imported.md', 'N.MD': 'n.md'}
    >>> case_renames("- [N](N.md)\\n", {}, ["n.md"], held=["N.md"])
    {}
    """
    found = dict(renames)
    names = set(files)
    opened = opened_in_any_case([*names, *held])
    for target in linked_topic_files(text):
        named = opened(target)
        if named in names and target not in found:
            found[target] = renames.get(named, named)
    return found


def _new_wiki_name(
    name: str, renames: Mapping[str, str], wiki: WikiFiles | None = None
) -> tuple[str, str] | None:
    """The key of ``renames`` the wiki link ``[[name]]`` names and the renamed file's name for
    it (without ``.md`` when ``name`` was written so), or None if unchanged; the file it names
    is the one ``wiki`` resolves it to, else the one its path spells (``[[./deploy]]`` is
    ``deploy.md``)."""
    written_md = name.lower().endswith(".md")
    named = wiki.resolve(name) if wiki is not None else None
    key = named if named is not None else _nfc(wiki_path(name))
    new = renames.get(key)
    if new is None:
        return None
    return key, new if written_md else new.removesuffix(".md")


@dataclass(slots=True)
class IndexMerge:
    """What :func:`merge_index` did: the new ``text`` and the source lines ``added``
    (links rewritten) and ``skipped`` (each with the reason: ``"already there"``,
    ``"already indexed"``, ``"title"``). ``changed`` tells whether ``text`` differs. A
    restore (``places``) also says which rows of ``text`` (0-based, in order) are lines
    ``put`` back on lines of their own, and which rows of the index it was given it
    ``dropped`` (the ``<!--``/``-->`` a delete kept of a line put back): every other row is
    the index's own, in order (a joined line given its entry back rewritten in place).
    ``put`` is None when not known (no restore)."""

    text: str
    changed: bool
    added: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    put: list[int] | None = None
    dropped: list[int] = field(default_factory=list)


def _line_end(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def merge_index(
    target: str | None,
    source: str,
    renames: Mapping[str, str],
    *,
    places: str | None = None,
    twins: Collection[str] = (),
) -> IndexMerge:
    """Merge the ``source`` index into the ``target`` index (None: there is none yet).

    ``renames`` maps source file names to the names used in the target scope (see
    :func:`rewrite_links`). ``places``: the index the lines were once part of (a restore's
    version of ``MEMORY.md``, V-2): each added line goes back to its place there
    (:func:`_put_back`) instead of the end. ``twins``: names (NFC) the target scope holds in
    two Unicode normalizations, each "already indexed" only by a line spelling it so.
    Returns an :class:`IndexMerge` (the module says which lines are added); never raises.
    """
    lines = index_lines(source)
    fenced = fenced_lines(lines)
    rewritten = [
        line if in_fence else rewrite_links(line, renames)
        for line, in_fence in zip(lines, fenced, strict=True)
    ]
    if target is None or not target.strip():
        end = _line_end(source)
        text = end.join(rewritten) + (end if rewritten else "")
        added = [line for line in rewritten if line.strip()]
        return IndexMerge(text=text, changed=bool(added), added=added)
    held = index_lines(target)
    # a line is there by its own text, comments and all; blanked, only to find links
    present = set(_keys(held))
    indexed = _indexed(target, twins, restore=places is not None)
    merge = IndexMerge(text=target, changed=False)
    prose = _shown_source(rewritten, places)  # an entry inside ``<!-- … -->`` links nothing
    why_not = _why_not(rewritten, prose, fenced, (present, indexed), twins, places is not None)
    appended = [line for line, why in zip(rewritten, why_not, strict=True) if why is None]
    if appended:
        head, alone = target, appended
        loose: dict[str, str] = {}  # an entry put back alone → it without its comment ends
        if places is not None:
            spare = [
                line
                for line, why in zip(rewritten, why_not, strict=True)
                if why == "already indexed"
            ]
            head, alone, rejoined, taken, loose = _rejoined(target, appended, spare, places)
            present.update(rejoined)
            present.update((entry.strip(), entry.strip()) for entry in loose.values())
            why_not = [
                None if line.strip() in taken else why
                for line, why in zip(rewritten, why_not, strict=True)
            ]
            appended = [
                loose.get(line.strip(), line)
                for line, why in zip(rewritten, why_not, strict=True)
                if why is None
            ]
        if places is None:
            merge.text = _with_lines(head, alone)[0] if alone else head
        else:
            ends = {
                line.strip(): kept
                for line, shown, why in zip(rewritten, prose, why_not, strict=True)
                if why is None
                and line.strip() not in loose  # its ends are kept on a joined line
                and (kept := comment_ends(line, shown))
            }
            merge.text, merge.put, merge.dropped = _placed(head, alone, places, ends, loose)
        if "<!--" in merge.text and not _read_as_before(merge.text, present):
            _add_whole_comments(rewritten, why_not)
            appended = [line for line, why in zip(rewritten, why_not, strict=True) if why is None]
            head, alone = target, appended
            if places is not None:
                head, alone, *_ = _rejoined(target, appended, [], places)
            merge.text, merge.put = _with_lines(head, alone, places) if alone else (head, [])
            merge.put, merge.dropped = None if places is None else merge.put, []
        merge.changed = True
        merge.added = appended
    merge.skipped = [(line, why) for line, why in zip(rewritten, why_not, strict=True) if why]
    return merge


def _indexed(target: str, twins: Collection[str], *, restore: bool) -> set[str]:
    """The topic files the index ``target`` links (NFC, ``twins`` as spelled), which a source
    line linking only them does not add ("already indexed"). In a restore (V-2) only an entry
    linking the file alone counts (a line, or one entry of a joined line:
    :func:`~memory_core.index.line_entries`), one made for it since: a line linking other
    files too (``- [Z](z.md), see [Y](y.md)``, given back by another undo) never keeps out
    the file's own entry its delete took (A-6: that line went whole, nothing of it stays)."""
    linked = linked_topic_files(target, twins)
    if not restore:
        return set(linked)
    lines = index_lines(target)
    references = reference_definitions(lines)
    alone: set[str] = set()
    for number in sorted({number for numbers in linked.values() for number in numbers}):
        for entry in line_entries(lines[number - 1]):
            names = {_linked(name, twins) for name in scope_link_targets(entry, references)}
            if len(names) == 1:
                alone.update(names)
    return alone


def _why_not(
    rewritten: list[str],
    prose: list[str],
    fenced: list[bool],
    held: tuple[set[tuple[str, str]], set[str]],
    twins: Collection[str],
    restore: bool = False,
) -> list[str | None]:
    """Per source line (``rewritten``; ``prose``: the same with comments blanked; ``fenced``:
    inside a code fence) why it is not added (``""`` blank, ``"already there"``, ``"title"``,
    ``"already indexed"``), None when it is added. ``held``: ``present`` (lines held, each as
    its text and its text blanked), which grows by each line added, and ``indexed`` (topic
    files the target links, NFC but ``twins`` as spelled), which does not: two source lines
    linking one file both go in (a delete pruned both, and its undo puts both back). A
    reference definition (``[r]: a.md``) a source line uses is never "already indexed": it is
    where that line links, and without it ``- [R][r]`` would link nothing (V-2: a restore
    puts it back). ``restore``: the lines are those a delete took, each put back, the same
    line twice too (it stood twice); an import adds a line it holds twice once."""
    used = {
        label
        for shown, in_fence in zip(prose, fenced, strict=True)
        if not in_fence
        for label in reference_labels(shown)
    }
    why_not: list[str | None] = []
    present, indexed = held
    there = set(present) if restore else present  # a restore: each line the delete took
    for line, shown, in_fence in zip(rewritten, prose, fenced, strict=True):
        key = (line.strip(), _FENCED if in_fence else shown.strip())
        links = [] if in_fence else [_linked(t, twins) for t in topic_link_targets(shown)]
        if not key[0]:
            why_not.append("")
        elif key in there:
            why_not.append("already there")
        elif key[0].startswith("# ") and not links:
            why_not.append("title")
        elif (
            links
            and all(link in indexed for link in links)
            and not used.intersection(reference_definitions([shown]))
        ):
            why_not.append("already indexed")
        else:
            why_not.append(None)
            present.add(key)
    return why_not


def _linked(target: str, twins: Collection[str]) -> str:
    """The file a link ``target`` names, as :func:`~memory_core.index.links_of_lines` keys it:
    NFC, unless that name is one of ``twins`` (then as spelled)."""
    name = _nfc(target)
    return target if name in twins else name


def _add_whole_comments(rewritten: list[str], why_not: list[str | None]) -> None:
    """Mark added (None in ``why_not``) every line of each comment across lines of the source
    (``rewritten``) that has any line added: a comment cut, its new lines alone would hide or
    show others."""
    for first, last in comment_line_runs(rewritten):
        if None in why_not[first : last + 1]:
            why_not[first : last + 1] = [None] * (last + 1 - first)


def _with_lines(
    target: str, lines: list[str], places: str | None = None, ends: Mapping[str, str] = {}
) -> tuple[str, list[int]]:
    """``target`` with ``lines`` added: at its end, or where they stood in ``places`` (``ends``
    as :func:`_put_back` takes them); and the rows (0-based, in order) the lines added are
    on."""
    end = _line_end(target)
    head = target if target.endswith("\n") else target + end
    if places is None:
        start = head.count("\n")
        return head + end.join(lines) + end, list(range(start, start + len(lines)))
    where = [entry for line in index_lines(places) for entry in line_entries(line)]
    return _with_blank_taken(*_put_back(head, lines, where, end, ends), places)


def _with_blank_taken(text: str, put: list[int], places: str) -> tuple[str, list[int]]:
    """``text`` (LF line ends; ``put``: the rows of the lines put back) with the blank line a
    delete took with the last lines of the index put back too, and the rows put back then
    (that blank line's among them). It is put back when the last run of lines put back ends
    ``text`` (lines put back higher up too stay where they are: review55i) and were the last
    of ``places`` after a blank line, the last of them without an end, and the
    line before them is the one before that blank line there: a delete of lines ending the
    index leaves the line before them without an end
    (:func:`~memory_core.index.prune_index`), and a blank line without an end is no line, so
    its undo puts it back (``A\n\nU`` pruned to ``A\n``, undone to ``A\n\nU``, never
    ``A\nU``; after an HTML block that blank line ends, never ``U`` above the block, V-2).
    ``text`` as it is otherwise."""
    rows = text.split("\n")[:-1]
    then = places.split("\n")
    ordered = sorted(put)
    back = 0  # the run of lines put back that ends ``text`` (others may stand higher up)
    while back < len(ordered) and ordered[-1 - back] == len(rows) - 1 - back:
        back += 1
    if not 0 < back < len(rows) or len(then) < back + 2 or places.endswith("\n"):
        return text, put
    blank, before = then[-back - 1], then[-back - 2]
    if blank or before != rows[-back - 1] or then[-back:] != rows[-back:]:
        return text, put
    at = len(rows) - back
    higher = [row for row in ordered if row < at]
    return "".join(row + "\n" for row in [*rows[:at], "", *rows[at:]]), [
        *higher,
        *range(at, at + back + 1),
    ]


def _placed(
    head: str, lines: list[str], places: str, ends: Mapping[str, str], loose: Mapping[str, str]
) -> tuple[str, list[int], list[int]]:
    """``head`` (the index, joined lines given their entries back) with ``lines`` put back
    where they stood in ``places`` (:func:`_put_back`), the ``<!--``/``-->`` a delete kept of
    each dropped (``ends``: :func:`_without_kept_ends`) and each shown again
    (:func:`_shown_again`, ``loose`` as there): the rows put back are tracked as rows, so a
    copy of a line the index keeps (commented out, in a fence) is never taken for it.
    Returns the text, the rows put back and the rows of ``head`` dropped."""
    if not lines:
        return head, [], []
    text, rows = _with_lines(head, lines, places, ends)
    dropped: list[int] = []
    if "<!--" in text:
        before = rows
        text, rows, gone = _without_kept_ends(text, ends, rows)
        dropped = [at - bisect_right(before, at) for at in gone]  # as rows of head
    text, rows = _shown_again(text, rows, loose)
    then = index_lines(places)
    spots = _spots(then, [line.strip() for line in lines])[0]  # the rows each came from
    came = {row for found in spots.values() for row in found if row < len(then)}
    code = _code_rows(then, came)
    in_code = {text: [row in code for row in found] for text, found in spots.items()}
    text, rows = _out_of_code(text, rows, in_code)
    return text, rows, dropped


def _rejoined(
    target: str, lines: list[str], spare: list[str], places: str
) -> tuple[str, list[str], set[tuple[str, str]], set[str], dict[str, str]]:
    """``target`` with the entries among ``lines`` that a delete cut out of a line of entries
    joined by a soft break in ``places`` (A-6) that also opens or closes an HTML comment
    across lines back in that line, where the index still holds it as the delete left it
    (:func:`memory_core.index.line_without_entries`): the line is then its old self again,
    byte for byte, and an entry that opened or closed a comment across lines opens or closes
    it again, never put on a line of its own inside it (V-2).
    ``spare``: source lines not added for linking files indexed already, which go back too
    when the delete took them from the same line (its other entries linking the same file).
    Returns the new text, the lines still to put back (in order), each line rejoined as
    ``(line, line as shown)`` and the entries put back in them, without outer whitespace, and
    for each entry of such a line that cannot go back into it (edited meanwhile) but held
    that line's ``<!--`` / ``-->``, which the index keeps there still: the entry without them
    (:func:`memory_core.index.without_comment_ends`), by the entry without outer whitespace.
    """
    old = index_lines(places)
    wanted = {line.strip() for line in lines}
    extra = {line.strip() for line in spare}
    if "<!--" not in places:
        return target, lines, set(), set(), {}
    shown = blank_comment_lines(old)
    either = wanted | extra
    groups: dict[int, tuple[list[str], list[str]]] = {}
    for number, line in enumerate(old):
        if not has_soft_break(line) or not comment_ends(line, shown[number]):
            continue  # else an entry stands on a line of its own, no comment around it
        entries = line_entries(line)
        cut = [entry for entry in entries if entry.strip() in wanted]
        more = [entry for entry in entries if entry.strip() in either]
        if cut and len(more) < len(entries):
            groups[number] = (more, cut)
    if not groups:
        return target, lines, set(), set(), {}
    rows = lines_with_ends(target)
    contents: dict[str, deque[int]] = defaultdict(deque)  # a line's text → its rows, in order
    for at, row in enumerate(rows):
        contents[row.rstrip("\r\n")].append(at)
    taken: set[str] = set()
    rejoined: set[tuple[str, str]] = set()
    loose: dict[str, str] = {}
    for number, tries in groups.items():
        found = _left_by_delete(old[number], shown[number], tries, contents, taken)
        if found is None:
            for entry in tries[1]:
                at = old[number].find(entry)
                seen = shown[number][at : at + len(entry)]
                if at != -1 and comment_ends(entry, seen):
                    loose.setdefault(entry.strip(), without_comment_ends(entry, seen))
            continue
        cut, left = found
        at = contents[left].popleft()  # its first copy still as the delete left it
        rows[at] = old[number] + rows[at][len(left) :]
        taken.update(entry.strip() for entry in cut)
        rejoined.add((old[number].strip(), shown[number].strip()))
    alone = [line for line in lines if line.strip() not in taken]
    return "".join(rows), alone, rejoined, taken, loose


def _shown_again(text: str, put: list[int], loose: Mapping[str, str]) -> tuple[str, list[int]]:
    """``text`` (a restore's merge, V-2; ``put``: the rows of the lines put back on lines of
    their own) with each of those lines that ``loose`` names written as it says (without the
    ``<!--`` / ``-->`` the index keeps elsewhere), and each put back inside a comment across
    lines, which would hide it, moved to just after the line that closes that comment; every
    other line as it was (a commented-out copy of a line put back stays in its comment). And
    the rows of the lines put back then. Lines moved past one comment keep their order.
    A hidden line that opens or closes its comment itself stays where it is: moved, it would
    take the comment's ``<!--`` or ``-->`` along and hide what follows. Linear: the comments
    are read once, every line in its place (a hidden line's ``-->`` counted, so a line shown
    before and after the merge is never taken into a comment that line closes)."""
    rows = lines_with_ends(text)
    for at in put:
        body = rows[at].rstrip("\r\n")
        if body.strip() in loose:
            rows[at] = loose[body.strip()] + rows[at][len(body) :]
    if "<!--" not in text:
        return "".join(rows), put
    contents = [row.rstrip("\r\n") for row in rows]
    shown = blank_comment_lines(contents)  # a line of a comment put back whole stays in it
    runs = comment_line_runs(contents)  # read once, every line in its place
    firsts = [first for first, _ in runs]
    opens = set(firsts)
    hidden = {
        at
        for at in put
        if blank_comments(rows[at]).strip()
        and not shown[at].strip()
        and at not in opens
        and "-->" not in rows[at]
    }  # one that opens or closes its comment stays: moved, it would take the comment along
    if not hidden:
        return "".join(rows), put
    stay = [at for at in range(len(rows)) if at not in hidden]
    slots: dict[int, list[int]] = defaultdict(list)  # a row of ``stay`` → hidden rows before it
    for at in sorted(hidden):
        run = bisect_right(firsts, at) - 1  # the last comment opening at or before it
        within = run >= 0 and at <= runs[run][1]  # then after the line that closes it
        slots[bisect_right(stay, runs[run][1] if within else at)].append(at)
    return _moved(rows, stay, slots, put)


def _moved(
    rows: list[str], stay: list[int], slots: Mapping[int, list[int]], put: list[int]
) -> tuple[str, list[int]]:
    """The text of ``rows`` with the rows ``stay`` in their order and each other row before
    the row of ``stay`` its slot in ``slots`` names (``len(stay)``: at the end); and the rows
    of ``put`` then."""
    order: list[int] = []
    for slot, row in enumerate(stay):
        order += [*slots.get(slot, []), row]
    order += slots.get(len(stay), [])
    new = {at: row for row, at in enumerate(order)}
    return "".join(rows[at] for at in order), sorted(new[at] for at in put)


_QUOTED = re.compile(" {0,3}>")
"""A block quote's line (``>`` after at most three spaces)."""


def _quoted(lines: Iterable[str]) -> list[bool]:
    """For each line, whether it is a block quote's line (:data:`_QUOTED`)."""
    return [_QUOTED.match(line) is not None for line in lines]


_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|"
    "header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|"
    "param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
_HTML_BLOCK = re.compile(rf" {{0,3}}</?(?:{_BLOCK_TAGS})(?:[ \t>]|/>|$)", re.IGNORECASE)
"""The first line of an HTML block that ends at a blank line (CommonMark's sixth kind:
``<div>``, ``<details>``, ``</table>``, one of its block tags opening or closing)."""


def _html_block_lines(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it is in an HTML block that ends at a blank line
    (:data:`_HTML_BLOCK`, outside code), or is the blank line ending one: a line written after
    one of its lines, before that blank line, is raw HTML, no entry. Linear."""
    code = code_lines(lines)
    inside = [False] * len(lines)
    open_ = False
    for at, line in enumerate(lines):
        open_ = open_ or (not code[at] and _HTML_BLOCK.match(line) is not None)
        inside[at] = open_
        open_ = open_ and bool(line.strip())
    return inside


def _code_rows(lines: list[str], rows: Collection[int]) -> set[int]:
    """Those of ``rows`` (lines put back, or taken, among ``lines``) that are code
    (:func:`~memory_core.markdown.code_lines`: in a fence, or an indented code block), or that
    stand between two lines of one indented code block of the other lines, which they cut in
    two (the code after them read as their own text), or between two lines of a block quote
    (``>``), which they end (the quote's lines after them read as another quote, its
    ``>     code`` as code there), or after a line of an HTML block that ends at a blank line
    (:func:`_html_block_lines`), where they are raw HTML. Linear."""
    code = code_lines(lines)
    among = set(rows)
    others = [at for at in range(len(lines)) if at not in among]
    around = [*(lines[at] for at in others), ""]
    indented = indented_code_lines(around)
    quoted = _quoted(around)
    html = _html_block_lines(around)
    found: set[int] = set()
    for at in rows:
        slot = bisect_right(others, at)  # the other lines before it
        cut = (indented[slot - 1] and indented[slot]) or (quoted[slot - 1] and quoted[slot])
        raw = html[slot - 1] and bool(around[slot - 1].strip())
        if code[at] or (slot and (cut or raw)):
            found.add(at)
    return found


def _out_of_code(
    text: str, put: list[int], in_code: Mapping[str, list[bool]]
) -> tuple[str, list[int]]:
    """``text`` (a restore's merge, V-2; ``put``: the rows of the lines put back) with each
    line put back that landed in code (:func:`_code_rows`: in a code fence, whose neighbour
    there was the fence's closing line, edited since the delete, or among the lines of an
    indented code block grown since), which would show it as code linking nothing, unless the
    version held it so too (``in_code``: a line's text without outer whitespace → whether each
    row it stood on there, in order, was code: the lines put back with that text, in order,
    came from them), moved to just
    after the line that ends that code (a fence's closing line, an indented block's last
    line), or just before the line that opens a fence none closes; and the rows of the lines
    put back then. A line that is code by its own indent where it lands stays (no place near
    shows it otherwise). Linear."""
    rows = lines_with_ends(text)
    contents = [row.rstrip("\r\n") for row in rows]
    lines = [at for at in put if contents[at].strip()]  # a blank line put back ends a block
    code = _code_rows(contents, lines)
    hidden: set[int] = set()
    rank: Counter[str] = Counter()
    for at in lines:
        line = contents[at].strip()
        was = in_code.get(line, [])
        if at in code and not (rank[line] < len(was) and was[rank[line]]):
            hidden.add(at)
        rank[line] += 1
    if not hidden:
        return text, put
    stay = [at for at in range(len(rows)) if at not in hidden]
    kept = [*(contents[at] for at in stay), ""]  # the last: open at the end
    blocks = zip(code_lines(kept), _quoted(kept), _html_block_lines(kept), strict=True)
    inside = [any(kinds) for kinds in blocks]
    starts: list[int] = []
    for at, in_fence in enumerate(inside):
        starts.append(starts[-1] if at and in_fence and inside[at - 1] else at)
    ends = list(range(len(inside)))
    for at in range(len(inside) - 2, -1, -1):
        if inside[at] and inside[at + 1]:
            ends[at] = ends[at + 1]
    slots: dict[int, list[int]] = defaultdict(list)
    for at in sorted(hidden):
        slot = bisect_right(stay, at)  # the rows of ``stay`` before it
        if slot and inside[slot - 1]:
            last = ends[slot - 1]
            slot = starts[slot - 1] if last == len(stay) else last + 1
        slots[slot].append(at)
    return _moved(rows, stay, slots, put)


def _left_by_delete(
    line: str,
    shown: str,
    tries: tuple[list[str], list[str]],
    rows: Mapping[str, Collection[int]],
    taken: set[str],
) -> tuple[list[str], str] | None:
    """The first of ``tries`` (entries of the joined ``line``; ``shown``: it with comments
    blanked) whose removal leaves a line among ``rows`` (the index's lines, without ends → the
    rows still holding them), with that line; None when neither does, or one of them is in
    ``taken`` already."""
    for cut in tries:
        if any(entry.strip() in taken for entry in cut):
            return None
        left = line_without_entries(line, shown, cut)
        if left is not None and rows.get(left):
            return cut, left
    return None


def _without_kept_ends(
    text: str, ends: Mapping[str, str], put: list[int]
) -> tuple[str, list[int], list[int]]:
    """``text`` (a restore's merge, V-2) without the ``<!--``/``-->`` a delete kept of each
    line put back (``put``: their rows; ``ends``: line without outer whitespace → what the
    delete kept of it, :func:`memory_core.index.comment_ends`): the line next to one put back
    that holds just that, which the line's own comment ends now stand in for; and the rows of
    the lines put back then, and the rows of ``text`` dropped."""
    if not ends:
        return text, put, []
    rows = lines_with_ends(text)
    lines = set(put)
    dropped: set[int] = set()
    for at in put:
        kept = ends.get(rows[at].strip())
        if kept is None:
            continue
        for near in (at - 1, at + 1):
            if (
                0 <= near < len(rows)
                and near not in dropped
                and near not in lines
                and rows[near].strip() == kept
            ):
                dropped.add(near)
                break
    kept_rows = [at for at in range(len(rows)) if at not in dropped]
    now = {old: new for new, old in enumerate(kept_rows)}
    return "".join(rows[at] for at in kept_rows), [now[at] for at in put], sorted(dropped)


def _shown_source(rewritten: list[str], places: str | None) -> list[str]:
    """The source lines ``rewritten`` with HTML comments blanked across lines: as they ran in
    the version ``places`` they come back to (a restore), else among themselves."""
    prose = blank_comment_lines(rewritten)
    if places is None:
        return prose
    then = _shown_then(places)
    return [then.get(line, shown) for line, shown in zip(rewritten, prose, strict=True)]


def _shown_then(places: str) -> dict[str, str]:
    """Each entry of the index ``places`` (a restore's version, V-2) that shows text of its
    own → it with that index's comments blanked across lines: a line put back opening a
    comment that ran on over the lines after it there (``- [A](a.md) <!-- old:``) is read as
    it was read there, never as a line alone, whose ``<!--`` closes nowhere."""
    entries = [entry for line in index_lines(places) for entry in line_entries(line)]
    shown: dict[str, str] = {}
    for entry, seen in zip(entries, blank_comment_lines(entries), strict=True):
        if seen.strip():
            shown.setdefault(entry, seen)
    return shown


def _stripped(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines]


def _read_as_before(text: str, lines: set[tuple[str, str]]) -> bool:
    """Whether every line of ``text`` is one of ``lines``, each ``(line, line as shown)``
    without outer whitespace (comments blanked): merged, no line's comment opens or closes
    elsewhere than it did in the index it came from (no stray ``<!--`` hides what follows)."""
    return all(key in lines for key in _keys(index_lines(text)) if key[0])


_FENCED = "\x00fenced"
"""How a line in a code fence is shown (:func:`_keys`): as code, never as the entry it spells."""


def _keys(lines: list[str]) -> list[tuple[str, str]]:
    """Each of ``lines`` (an index's) as the merge compares it: without outer whitespace, and
    as it is shown, without outer whitespace (comments blanked across lines), or
    :data:`_FENCED` inside a code fence: a fenced or commented-out copy of an entry is not the
    entry (a restore puts the entry back beside it)."""
    shown = blank_comment_lines(lines)
    return [
        (line.strip(), _FENCED if in_fence else seen.strip())
        for line, seen, in_fence in zip(lines, shown, fenced_lines(lines), strict=True)
    ]


def _put_back(
    target: str, lines: list[str], places: list[str], end: str, ends: Mapping[str, str]
) -> tuple[str, list[int]]:
    """``target`` (ending in a line end) with each of ``lines`` where it stood in ``places``:
    after the nearest line above it there that the index holds, else before the nearest one
    below it, else at the end; the blank lines that stood next to that neighbour, on its side,
    stay next to it. Lines are compared without outer whitespace; each line of ``places`` is
    matched with its own copy in the index (:func:`_aligned`: a ```` ``` ```` closing a fence
    is never taken for the one opening it, a line put back never for a commented-out or
    fenced copy of it). Each line put back is a neighbour for the next, so a run of lines
    lost together comes back together, in order. ``gaps[p]`` holds the lines that go before
    the index's row ``p`` (each with the row of ``places`` it stood on). A line whose
    ``<!--``/``-->`` the delete kept (``ends``, as in :func:`_without_kept_ends`) goes just
    after the nearest row holding just that: in its place, so the lines after it there follow
    it past that row, and the lines put back that stood just before it there, one after the
    other, go just before that row with it, wherever their neighbours put them (a line the
    user wrote below the ``<!--`` since never splits them). Returns the text and the rows of
    the lines put back, in order."""
    rows = [row + "\n" for row in target.split("\n")[:-1]]
    held = [row.strip() for row in rows]
    where = [line.strip() for line in places]
    aligned, spots = _aligned(places, held, [line.strip() for line in lines])
    # each line going before the index's row ``p``, with the row of ``places`` it stood on
    gaps: list[list[tuple[str, int | None]]] = [[] for _ in range(len(rows) + 1)]
    put: dict[int, int] = {}  # a row of ``places`` put back → its gap
    matched = {row for row in aligned if row is not None}
    kept_rows: dict[str, list[int]] = defaultdict(list)  # a kept ``<!--``/``-->`` → its rows
    kept_ends = set(ends.values())
    for at, text in enumerate(held):
        if text in kept_ends and at not in matched:
            kept_rows[text].append(at)
    for line in lines:
        spot = _pop(spots, line.strip())
        gap = _gap(spot, aligned, put, where, len(held))
        kept = ends.get(line.strip())
        if kept and (row := _nearest(kept_rows[kept], gap)) is not None:
            # in the place of what the delete kept of it: the lines that were to go there
            # already stood before it, and so did the run of lines put back just before it
            # there, wherever their neighbours put them: all go before that row, in order
            run = _run_before(gaps[gap], spot) if gap != row + 1 else []
            moved = [*gaps[row + 1], *run]
            gaps[row] += moved
            gaps[row + 1] = []
            del gaps[gap][len(gaps[gap]) - len(run) :]
            put.update((at, row) for _, at in moved if at is not None)
            gap = row + 1
        gaps[gap].append((line + end, spot))
        if spot is not None:
            put[spot] = gap
    out: list[str] = []
    new: list[int] = []
    for at in range(len(rows) + 1):
        new += range(len(out), len(out) + len(gaps[at]))
        out += [text for text, _ in gaps[at]]
        out += rows[at : at + 1]
    return "".join(out), new


def _run_before(
    gap: list[tuple[str, int | None]], spot: int | None
) -> list[tuple[str, int | None]]:
    """The lines at the end of ``gap`` (each with the row of ``places`` it stood on, in
    order) that stood on the rows just before ``spot`` there, one after the other: a run of
    lines lost together with the line from ``spot``, which stays with it."""
    count = 0
    while (
        spot is not None and count < len(gap) and gap[len(gap) - 1 - count][1] == spot - 1 - count
    ):
        count += 1
    return gap[len(gap) - count :]


def _pop(spots: dict[str, deque[int]], text: str) -> int | None:
    """The next row of ``places`` a line with ``text`` stood on (dropped from ``spots``)."""
    rows = spots.get(text)
    return rows.popleft() if rows else None


def _aligned(
    places: list[str], held: list[str], lines: list[str]
) -> tuple[list[int | None], dict[str, deque[int]]]:
    """Which row of the index (``held``, stripped) each row of ``places`` (the version's
    lines) is, None for one it no longer holds; and, by text, the rows of ``places`` each of
    ``lines`` (stripped, the lines put back, in order) stood on: those a delete took, shown
    (neither inside a comment nor in a fence, which link nothing), else the first with that
    text. A row whose text the index holds as often as ``places`` does, those rows aside, is
    the copy of the same rank; any other the first copy after the row matched before it."""
    where = [line.strip() for line in places]
    spots, kept = _spots(places, lines)
    copies: dict[str, list[int]] = defaultdict(list)
    for at, text in enumerate(held):
        copies[text].append(at)
    counts = Counter(where[at] for at in kept)
    rank: Counter[str] = Counter()
    aligned: list[int | None] = [None] * len(where)
    last = -1
    for at in kept:
        text, found = where[at], copies.get(where[at], [])
        if len(found) == counts[text]:
            row: int | None = found[rank[text]]
        else:
            after = bisect_right(found, last)
            row = found[after] if after < len(found) else None
        aligned[at] = row
        rank[text] += 1
        last = last if row is None else row
    return aligned, spots


def _spots(places: list[str], lines: list[str]) -> tuple[dict[str, deque[int]], list[int]]:
    """By text, the rows of ``places`` (the version's lines) each of ``lines`` (stripped, the
    lines put back, in order) stood on: those a delete took, shown (neither inside a comment
    nor in a fence, which link nothing), else the first row with that text (``len(places)``
    when none has it). A line whose text the version shows fewer times than it is put back
    has no row for its extra copies. And the rows of ``places`` no line was taken from (the
    first row of a text no row shows included)."""
    where = [line.strip() for line in places]
    shown = blank_comment_lines(places)
    fenced = fenced_lines(places)
    gone = Counter(lines)
    spots: dict[str, deque[int]] = defaultdict(deque)
    kept: list[int] = []
    for at, text in enumerate(where):
        if gone[text] and not fenced[at] and shown[at].strip():
            gone[text] -= 1
            spots[text].append(at)
        else:
            kept.append(at)
    for text in lines:
        if text not in spots:
            spots[text].append(where.index(text) if text in where else len(where))
    return spots, kept


def _nearest(rows: list[int], gap: int) -> int | None:
    """The row of ``rows`` (in order) nearest the gap before row ``gap``, dropped from them
    (the first after it when two are as near), or None when there is none."""
    at = bisect_right(rows, gap - 1)
    if at < len(rows) and (at == 0 or rows[at] - gap <= gap - 1 - rows[at - 1]):
        return rows.pop(at)
    return rows.pop(at - 1) if at else None


def _gap(
    spot: int | None, aligned: list[int | None], put: dict[int, int], where: list[str], end: int
) -> int:
    """The gap (before the index's row ``p``, ``end`` past its last row; ``aligned``: the
    index's row of each row of ``where``, blank ones included) that the line which stood at
    ``spot`` of ``where`` goes back into: just after the nearest row above it that the index
    holds or that was put back (``put``: those rows of ``where`` and their gaps), else just
    before the nearest one below it that the index holds, else at the end."""
    if spot is None or spot >= len(where):
        return end
    for i in range(spot - 1, -1, -1):
        if i in put:
            return put[i]
        row = aligned[i]
        if row is not None:
            return row + 1
    for i in range(spot + 1, len(where)):
        row = aligned[i]
        if row is not None:
            return row
    return end
