"""Merging two copies of a scope that both changed since a common base, losing nothing (R-2).

Two machines work on copies of one scope and send their changes back through the service (R-1),
so the service's copy and a machine's copy may both have changed since the version they last
agreed on. :func:`merge_scopes` combines them file by file. Each copy is given as file name →
git blob id (:func:`blob_id`: equal ids, equal bytes); bytes are asked for (``content``) only
where a file's text must be merged.

- A file changed on one side only takes that side's version (a delete included); the same
  change on both sides is taken once.
- ``MEMORY.md`` changed on both sides is merged as lines (:func:`~memory_core.line_merge.
  merge_lines`, diff3): every line either side added is kept, a line one side removed and the
  other left alone is removed, and where both wrote the same region the first side's lines come
  first. An index is read, merged and rewritten in its own form throughout (UTF-16 or UTF-32,
  Windows-1252, a byte order mark, CR-only line ends: :func:`_text`), the lines merged into it
  and the links renamed in it included.
- A topic file changed differently on both sides (edited twice, or created twice with other
  text): the first side's version keeps the name and the second's is kept beside it under a new
  name, ``<stem>-<label>.md`` (``-2``, ``-3`` … when taken), reported as ``kept-both``. Never
  conflict markers in a memory file.
- Deleted on one side and edited on the other: the edited file stays, reported as
  ``kept-edited``; where that side renamed *and* rewrote it (git paired the two, or its index
  line links the new name now, :mod:`~memory_core.rewritten_renames`), both texts stay, the
  edit under the old name, reported as ``renamed-changed``; renamed to two names on the two
  sides, at least one with its text changed, both texts stay under their new names, reported
  as ``renamed-apart``.
- The ``.workspace`` marker is never replaced (K-5): a different one on the second side is
  reported as ``marker-kept``.
- A topic file one side renamed (the caller gives the renames, found by git's rename
  detection) is renamed on the other side too, its index links with it, before the rules
  above: renamed on one side and edited on the other is one file under the new name holding
  the edit; renamed to two names keeps the first side's (``renamed-twice``); renamed on one
  side and deleted on the other is kept (``renamed-deleted``); two texts given one new name
  (``a.md`` → ``c.md`` on one side, ``b.md`` → ``c.md`` or a new ``c.md`` on the other) keep
  the first side's there and the second side's under a new name like a ``kept-both`` copy,
  each side's index lines linking its own text (``renamed-to-one``); a new ``c.md`` written
  with other text on each side, no rename, is kept the same way, reported as ``kept-both``:
  the second side's index lines linking ``c.md`` link ``c-<label>.md``, its text.
- The merged scope never holds two names a case-insensitive or normalising file system (macOS,
  Windows) folds into one (``OK.md`` beside ``ok.md``, ``café.md`` in NFC beside NFD,
  ``Memory.md`` beside ``MEMORY.md``): a machine there could keep only one, and would send the
  other's text back as an edit of it. A name the first side does not hold that is such a *twin*
  of a name the merged scope holds (the first side's, or one the second brings that sorts
  before it) is kept under a new name like a ``kept-both`` copy, reported as ``twin-renamed``.
  Twins the first side already holds are left as they are.

A file kept by the ``kept-edited`` and ``kept-both`` rules gets its index lines: the lines of
the keeping side's ``MEMORY.md`` that link to it (T-4: ``./c.md``, ``c.md#why``, ``<c.md>``,
``[[c]]``, ``my%20note.md`` for ``my note.md``, and ``C.md`` where that side holds ``c.md``
and no ``C.md``: the file a case-insensitive disk opens for it; never another file that side
holds), links rewritten to the new name for a ``kept-both`` copy
(:func:`~memory_core.index_merge.rewrite_links`), are merged into the index
(:func:`~memory_core.index_merge.merge_index`: nothing twice), so nothing kept is unindexed.
The merged index's lines linking a ``twin-renamed`` file (so spelled, or in another case as
above) that are not lines of the first side's index (the second side's own) are rewritten to
its new name; so are the second side's
lines linking a name whose text of the second side an earlier merge kept as a ``kept-both``
copy (a file sent, then its index line in a send of its own), the first side's file keeping
its lines.

"First" is the copy whose names win: the service's scope when it takes a machine's changes,
the service's answer when a machine takes what came back. Pure.

>>> base = {"MEMORY.md": blob_id(b"- [A](a.md)\\n")}
>>> first = {"MEMORY.md": blob_id(b"- [A](a.md)\\n- [B](b.md)\\n")}
>>> second = {"MEMORY.md": blob_id(b"- [A](a.md)\\n- [C](c.md)\\n")}
>>> texts = {blob_id(t): t for t in (b"- [A](a.md)\\n", b"- [A](a.md)\\n- [B](b.md)\\n",
...                                  b"- [A](a.md)\\n- [C](c.md)\\n")}
>>> merged = merge_scopes(base, first, second, lambda blob: texts[blob], label="laptop")
>>> merged.new[merged.files["MEMORY.md"]]
b'- [A](a.md)\\n- [B](b.md)\\n- [C](c.md)\\n'
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote

from memory_core import layout
from memory_core.decoding import decode_exact
from memory_core.index import (
    entry_targets,
    index_lines_linking_each,
    link_targets,
    linked_topic_files,
    opened_in_any_case,
)
from memory_core.index_merge import merge_index, rewrite_links
from memory_core.index_rewrite import IndexNotRewritable, merge_index_bytes
from memory_core.line_merge import changed_on_both, merge_lines
from memory_core.markdown import line_texts, lines_with_ends
from memory_core.rewritten_renames import rewritten_renames
from memory_core.scope_files import INDEX_CAP, TOPIC_CAP, fold_name, is_scope_file, is_topic_file
from memory_core.wiki_links import WikiFiles

__all__ = [
    "KeptNames",
    "MergeOutcome",
    "OutcomeKind",
    "ScopeMerge",
    "blob_id",
    "fitted_name",
    "fold_name",
    "index_lines_for",
    "kept_name",
    "merge_scopes",
    "part_twins",
    "with_index_lines",
]

OutcomeKind = Literal[
    "index-lines-both",
    "index-unwritten",
    "kept-both",
    "kept-edited",
    "marker-kept",
    "renamed-apart",
    "renamed-deleted",
    "renamed-changed",
    "renamed-to-one",
    "renamed-twice",
    "twin-renamed",
]
Blobs = Mapping[str, str]
"""A copy of a scope: file name → git blob id."""
Renames = Mapping[str, str]
"""The topic files one side renamed since the base: old name → new name."""
Content = Callable[[str], bytes]
"""The bytes of a blob id of any of the copies."""
# ``[[``, a wiki link's opening, in the bytes of an index in UTF-8 or an 8-bit encoding, in
# UTF-16 (either byte order: ``5B 00 5B`` is inside both) and in UTF-32: an index holding none
# of them has no wiki link to resolve
_WIKI_OPENINGS = (b"[[", b"[\0[", b"[\0\0\0[")

_NAME_MAX_BYTES = 255
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def blob_id(data: bytes) -> str:
    """The git blob id of ``data`` (SHA-1 of ``blob <size>\\0`` and the bytes).

    >>> blob_id(b"")
    'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'
    """
    digest = hashlib.sha1(b"blob %d\x00" % len(data), usedforsecurity=False)
    digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class MergeOutcome:
    """What a merge did beyond taking one side's change (R-2): ``file`` and, for ``kept-both``,
    the name the second version is kept under (``kept_as``); for ``twin-renamed``, the name of
    the file it is a twin of (``twin``) and the name it is kept under (``kept_as``); for
    ``renamed-twice`` (``file`` renamed ``twin`` on the second side, ``kept_as`` on the first)
    and ``renamed-deleted`` (``file`` renamed ``kept_as`` on one side, deleted on the other)
    the name it is kept under; for ``renamed-changed`` (``file`` renamed ``kept_as`` and
    changed on one side, edited on the other: both kept) the changed text's name; for
    ``renamed-apart`` (``file`` renamed ``kept_as`` on the first side and ``twin`` on the
    second, at least one with its text changed: both kept) the two names; for
    ``renamed-to-one`` (two texts given one new name ``file``, at least one side by a rename)
    the name the second side's text is kept under (``kept_as``) and the names each side's
    text had before (``renamed_from``: first, second; None where that side wrote it as
    ``file``); ``written_twice`` for a ``kept-both`` of a name
    the base lacks that each side wrote (each side's index lines link its own text); for
    ``index-unwritten`` (the index change could
    not be written where the index stands) ``reason`` says why and what to do, ``kept_as``
    names the file holding the lines the change added (None: it added none) and ``also_kept``
    the files that hold the rest of them when one topic file could not (each within its cap,
    T-2)."""

    kind: OutcomeKind
    file: str
    kept_as: str | None = None
    twin: str | None = None
    reason: str | None = None
    also_kept: tuple[str, ...] = ()
    renamed_from: tuple[str | None, str | None] = (None, None)
    written_twice: bool = False
    lines: tuple[str, ...] = ()
    """For ``index-lines-both``: the index lines as they were before both sides changed them."""

    def files(self) -> tuple[str, ...]:
        """Every file this outcome names: ``file``, ``kept_as`` and ``also_kept``."""
        return (self.file, *((self.kept_as,) if self.kept_as else ()), *self.also_kept)

    def describe(self) -> str:
        """One line for a person: what happened to the file and where its text is."""
        match self.kind:
            case "kept-both" if self.written_twice:
                return (
                    f"{self.file} was written on two machines: both are kept, the later one as "
                    f"{self.kept_as}; each index line links the file holding the text it was "
                    "written for"
                )
            case "kept-both":
                return (
                    f"{self.file} was edited on two machines: both are kept, "
                    f"the later one as {self.kept_as}"
                )
            case "kept-edited":
                return f"{self.file} was deleted on one machine and edited on another: kept"
            case "renamed-apart":
                return (
                    f"{self.file} was renamed {self.kept_as} on one machine and {self.twin} on "
                    f"another, with other texts: both are kept, as {self.kept_as} and "
                    f"{self.twin}"
                )
            case "renamed-changed":
                return (
                    f"{self.file} was renamed {self.kept_as} and changed on one machine and "
                    f"edited on another: both are kept, the edit as {self.file}"
                )
            case "renamed-twice":
                return (
                    f"{self.file} was renamed {self.kept_as} on one machine and {self.twin} on "
                    f"another: it is kept as {self.kept_as}"
                )
            case "renamed-to-one":
                came = [
                    f"{old} was renamed {self.file}" if old else f"{self.file} was written"
                    for old in self.renamed_from
                ]
                second = self.renamed_from[1]
                whose = f"{second}'s text" if second else f"the other {self.file}"
                return (
                    f"{came[0]} on one machine and {came[1]} on another: both are kept, "
                    f"{whose} as {self.kept_as}; each index line links the file holding the "
                    "text it was written for"
                )
            case "renamed-deleted":
                return (
                    f"{self.file} was renamed {self.kept_as} on one machine and deleted on "
                    f"another: kept as {self.kept_as}"
                )
            case "index-unwritten":
                return self._index_unwritten()
            case "index-lines-both":
                shown = self.lines[0] if len(self.lines[0]) <= 80 else self.lines[0][:79] + "…"
                more = f" and {len(self.lines) - 1} more" if len(self.lines) > 1 else ""
                return (
                    f"the {self.file} line {shown!r}{more} was changed on two machines: both "
                    "versions are kept, one after the other"
                )
            case "twin-renamed":
                return (
                    f"{self.file} differs from {self.twin} only in letter case or Unicode "
                    "normalisation, one file on macOS and Windows: it is kept as "
                    f"{self.kept_as}"
                )
            case _:
                return f"{self.file} named another Workspace path: the scope's own is kept"

    def _index_unwritten(self) -> str:
        """The line of an ``index-unwritten`` outcome: why, where the lines are, what to do."""
        fix = (
            "make MEMORY.md on the service's machine a regular file of its own within "
            f"{INDEX_CAP} bytes"
        )
        if self.kept_as is None:
            return (
                f"{self.file} could not be written on the service ({self.reason}): "
                f"this machine's change of it only removed lines; {fix}, then remove "
                "them again"
            )
        if not self.also_kept:
            where = f"{self.kept_as} (a file of the scope)"
        else:
            *firsts, last = (self.kept_as, *self.also_kept)
            where = (
                f"{', '.join(firsts)} and {last} (files of the scope, each within "
                f"{TOPIC_CAP} bytes)"
            )
        return (
            f"{self.file} could not be written on the service ({self.reason}): the "
            f"lines this machine added are kept in {where}; to keep them in the "
            f"index, {fix}, then move them into it"
        )


@dataclass(slots=True)
class ScopeMerge:
    """The merged scope (``files``: name → blob id), the bytes of blob ids that neither input
    held (``new``: a merged index), and what was done beyond taking a side (``outcomes``)."""

    files: dict[str, str] = field(default_factory=dict)
    new: dict[str, bytes] = field(default_factory=dict)
    outcomes: list[MergeOutcome] = field(default_factory=list)


def kept_name(name: str, label: str, taken: Iterable[str]) -> str:
    """A free topic file name for the second version of ``name``: ``<stem>-<label>.md``, then
    ``<stem>-<label>-2.md`` …; ``label`` folded to ``[a-z0-9-]`` (``copy`` when nothing is
    left); never a twin of a name of ``taken`` (:func:`fold_name`). A stem too long for the
    name to stay within 255 UTF-8 bytes (K-7: a name of many multi-byte characters) is cut at a
    character and marked with six hex digits of its whole name's hash (``<head>~1a2b3c``), so
    two long names alike in their first 230 bytes keep copies told apart by where they came
    from, whatever order they are kept in. A caller keeping many copies in one merge uses one
    :class:`KeptNames` instead (linear in the copies, not quadratic).

    >>> kept_name("deploy.md", "Alice's Laptop", {"deploy-alice-s-laptop.md"})
    'deploy-alice-s-laptop-2.md'
    """
    return KeptNames(taken).keep(name, label)


class KeptNames:
    """The names of one merge's scope as kept copies are named among them (:func:`kept_name`'s
    rule), each name kept added at once: the names are folded once (:func:`fold_name`), and
    the copies of one name (or of its twins) are numbered on from the last one given (a number
    once taken stays taken), so keeping ``n`` copies of one name, or one copy of ``n`` names, costs
    O(``n`` + names), where a :func:`kept_name` each folded every name and counted from 1."""

    def __init__(self, taken: Iterable[str]) -> None:
        """``taken``: the names no copy may be a twin of (any iterable, read once)."""
        self._folded = {fold_name(other) for other in taken}
        self._next: dict[tuple[str, str], int] = {}

    def add(self, name: str) -> None:
        """Take ``name`` too (a file the merge put in place under it)."""
        self._folded.add(fold_name(name))

    def keep(self, name: str, label: str) -> str:
        """The free name for the second version of ``name`` (:func:`kept_name`), now taken."""
        slug = _slug(label)
        key = (fold_name(name), slug)
        start = self._next.get(key, 1)
        numbers = itertools.count(start)
        tails = (f"-{slug}" + (f"-{number}" if number > 1 else "") for number in numbers)
        found = _free_cut(name, _NAME_MAX_BYTES, tails, self._folded)
        assert found is not None  # a 255-byte budget always leaves room
        self._next[key] = next(numbers)  # one past the number of the name found
        self.add(found)
        return found

    def fit(self, name: str, max_bytes: int) -> str | None:
        """``name`` cut to fit ``max_bytes`` bytes (:func:`fitted_name`'s rule) among the
        names taken, now taken itself; ``name`` when it fits, None when nothing can."""
        if len(name.encode("utf-8", "surrogateescape")) <= max_bytes:
            return name
        tails = ("" if number == 1 else f"-{number}" for number in itertools.count(1))
        found = _free_cut(name, max_bytes, itertools.islice(tails, 1000), self._folded)
        if found is not None:
            self.add(found)
        return found


def fitted_name(name: str, max_bytes: int, taken: Iterable[str]) -> str | None:
    """``name`` cut to take at most ``max_bytes`` bytes of UTF-8, for a disk whose names are
    shorter than 255 bytes (eCryptfs: 143): by :func:`kept_name`'s rule (the stem cut at a
    character and marked with six hex digits of its whole name's hash, ``<head>~1a2b3c.md``),
    then ``-2``, ``-3`` … up to ``-1000`` for a name ``taken`` holds (or a twin of one). ``name``
    itself when it fits; None when ``max_bytes`` leaves no room for a topic file name (nor up
    to ``-1000``). One :class:`KeptNames` (:meth:`KeptNames.fit`) cuts many names among the
    same ones, folding them once.

    >>> fitted_name("é" * 100 + ".md", 143, ())
    'éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé~d36996.md'
    """
    return KeptNames(taken).fit(name, max_bytes)


def _free_cut(
    name: str, max_bytes: int, tails: Iterable[str], folded: Collection[str]
) -> str | None:
    """The first ``<stem><tail>.md`` of ``tails`` within ``max_bytes`` bytes whose
    :func:`fold_name` is none of ``folded``, the stem cut and marked with its hash where it
    must be; None when none is a scope file name."""
    stem = name[:-3] if name.endswith(".md") else name
    raw = stem.encode("utf-8", "surrogateescape")
    mark = "~" + hashlib.sha1(raw, usedforsecurity=False).hexdigest()[:6]
    for tail in tails:
        suffix = tail + ".md"
        budget = max_bytes - len(suffix.encode("utf-8"))
        head = stem
        if len(raw) > budget:
            if budget - len(mark) < 1:
                return None
            head = raw[: budget - len(mark)].decode("utf-8", "ignore") + mark
        candidate = head + suffix
        if fold_name(candidate) not in folded and is_scope_file(candidate):
            return candidate
    return None


def _slug(label: str) -> str:
    """``label`` as it stands in a kept copy's name: ``[a-z0-9-]``, ``copy`` when empty."""
    return _SLUG_RE.sub("-", label.lower()).strip("-")[:40].strip("-") or "copy"


def index_lines_for(
    index: bytes | None, names: Iterable[str], files: Iterable[str] | None = None
) -> dict[str, list[str]]:
    """The lines of the index ``index`` (bytes, read in its own form: :func:`_text`) that link
    to each of ``names`` (T-4), read in one pass however many names: name → its lines, in
    order; a name no line links is left out (:func:`~memory_core.index.index_lines_linking_each`).
    ``files``: the files of the copy the index is of, among which a link in another case
    names the only file it opens on a case-insensitive disk (``C.md`` for its ``c.md``)."""
    text = _text(index)
    if not text:
        return {}
    return index_lines_linking_each(text, names, files=None if files is None else set(files))


def _text(data: bytes | None) -> str | None:
    """The index ``data`` as text, read in its own form (:func:`~memory_core.decoding.
    decode_exact`: UTF-8, UTF-16 or UTF-32, Windows-1252; its line ends kept, CR alone
    included), without its byte order mark; None when absent or not exactly decodable."""
    exact = None if data is None else decode_exact(data)
    return None if exact is None else exact.text


def _lines_of(data: bytes | None) -> set[str]:
    """The lines of the index ``data`` (:func:`_text`) without their ends; none when unread."""
    return set(line_texts(_text(data) or ""))


def _each_line_relinked(raw: bytes, relink: Callable[[str], str]) -> bytes | None:
    """The index ``raw`` with ``relink`` applied to each line's text, in the index's own form
    (its encoding, byte order mark and each line's end as they were); None when no line
    changed, or the bytes do not decode exactly or cannot hold a new name (left as it is)."""
    exact = decode_exact(raw)
    if exact is None:
        return None
    parts: list[str] = []
    for line in lines_with_ends(exact.text):
        text = line.rstrip("\r\n")
        parts += (relink(text), line[len(text) :])
    relinked = "".join(parts)
    if relinked == exact.text:
        return None
    try:
        return exact.encode(relinked)
    except UnicodeEncodeError:
        return None


def with_index_lines(index: bytes | None, lines: list[str]) -> bytes | None:
    """``index`` (bytes, or None for none) with ``lines`` merged in, nothing twice, in its own
    form (:func:`~memory_core.index_rewrite.merge_index_bytes`; a new index is UTF-8); None
    when nothing changed or the index cannot take them keeping its other bytes."""
    added = "".join(line + "\n" for line in lines)
    if index is None:
        merged = merge_index(None, added, {})
        return merged.text.encode() if merged.changed else None
    try:
        return merge_index_bytes(index, added, {}).data
    except IndexNotRewritable:
        return None


@dataclass(slots=True)
class _Relink:
    """Index lines to merge in: the lines of ``side``'s index linking ``name``, as ``new``."""

    side: Blobs
    name: str
    new: str


def merge_scopes(
    base: Blobs,
    first: Blobs,
    second: Blobs,
    content: Content,
    *,
    label: str,
    renamed: tuple[Renames, Renames] = ({}, {}),
    sub_folder_notes: Collection[str] = (),
) -> ScopeMerge:
    """Merge ``first`` and ``second``, both changed from ``base`` (see the module docstring).

    ``label`` names the second side in the names of kept copies (a machine's name).
    ``renamed``: the topic files each side renamed since ``base`` (old name → new, as git's
    rename detection found them), followed by the other side (:func:`_follow_renames`).
    ``sub_folder_notes``: the files of the scope's sub-folders (relative POSIX paths, which no
    copy holds) the indexes' wiki links name, as the lint knows them: a wiki link opening one
    (``[[Deploy Freeze]]`` for ``notes/Deploy Freeze.md``) never follows a rename of a topic
    file Memory's loose reading would give it (``deploy-freeze.md``, T-5b). Never
    raises on content; ``content`` is called only for versions of the index that must be read.
    """
    rewritten = (
        rewritten_renames(renamed[0], base, first, content),
        rewritten_renames(renamed[1], base, second, content),
    )
    followed = _follow_renames(base, first, second, content, (renamed, sub_folder_notes), label)
    base, first, second = followed.base, followed.first, followed.second
    made = followed.made

    def read(blob: str) -> bytes:
        """The bytes of ``blob``: an index following the renames made, else ``content``'s."""
        return made[blob] if blob in made else content(blob)

    merge = _merge_files(base, first, second, read, label, followed.relinks, rewritten)
    merge.outcomes[:0] = _renamed_apart(followed.outcomes, rewritten)
    merge.new.update({blob: made[blob] for blob in merge.files.values() if blob in made})
    return merge


def _merge_files(
    base: Blobs,
    first: Blobs,
    second: Blobs,
    content: Content,
    label: str,
    relinks: list[_Relink],
    rewritten: tuple[Renames, Renames],
) -> ScopeMerge:
    """:func:`merge_scopes` once each side's renames are followed by the other; ``rewritten``
    the files each side renamed and rewrote (:func:`rewritten_renames`), which name what a
    ``kept-edited`` file's other side did."""
    merge = ScopeMerge(files=dict(first))
    taken = set(base) | set(first) | set(second)
    kept = KeptNames(taken)
    for name in sorted(taken - {layout.INDEX_FILE}):
        was, ours, theirs = base.get(name), first.get(name), second.get(name)
        if theirs in (was, ours):
            continue  # the second side left it alone, or made the first side's change
        if ours == was:
            _put(merge.files, name, theirs)  # changed on the second side only
        elif name == layout.MARKER_FILE:
            if ours is None:
                _put(merge.files, name, theirs)
            else:
                merge.outcomes.append(MergeOutcome("marker-kept", name))
        elif theirs is None:  # deleted on the second side, edited on the first: kept
            merge.outcomes.append(_kept_edited(name, rewritten[1]))
            relinks.append(_Relink(first, name, name))
        elif ours is None:  # deleted on the first side, edited on the second: kept
            merge.files[name] = theirs
            merge.outcomes.append(_kept_edited(name, rewritten[0]))
            relinks.append(_Relink(second, name, name))
        else:  # two different versions: the second one under a new name
            new = kept.keep(name, label)
            taken.add(new)
            merge.files[new] = theirs
            merge.outcomes.append(MergeOutcome("kept-both", name, new))
            relinks.append(_Relink(second, name, new))
    _merge_index(merge, base, first, second, content, relinks)
    _part_twins(merge, first, content, label, taken, second)
    kept_before = _kept_both_before(base, first, second, label)
    moved = _twins_moved_before(base, first, second) | kept_before
    index = merge.files.get(layout.INDEX_FILE)
    if moved and index is not None:
        _relink_twins(merge, index, first.get(layout.INDEX_FILE), content, moved, second)
        _keep_first_lines(merge, first.get(layout.INDEX_FILE), content, set(kept_before))
    return merge


def _renamed_apart(
    outcomes: list[MergeOutcome], rewritten: tuple[Renames, Renames]
) -> list[MergeOutcome]:
    """``outcomes`` of following the renames, with each file the two sides renamed to two
    names, at least one with its text changed (so both texts stay, each under its side's new
    name), said as ``renamed-apart``: in place of a ``renamed-deleted`` (the side that changed
    it did not delete it), or added where neither rename was pure (nothing else said it)."""
    said: list[MergeOutcome] = []
    for outcome in outcomes:
        old, pure = outcome.file, outcome.kept_as
        firsts, seconds = rewritten[0].get(old), rewritten[1].get(old)
        if outcome.kind != "renamed-deleted":
            said.append(outcome)
        elif firsts not in (None, pure):  # the first side changed it, the second renamed it
            said.append(MergeOutcome("renamed-apart", old, firsts, pure))
        elif seconds not in (None, pure):
            said.append(MergeOutcome("renamed-apart", old, pure, seconds))
        else:
            said.append(outcome)
    for old, new in rewritten[0].items():
        other = rewritten[1].get(old)
        if other is not None and other != new:
            said.append(MergeOutcome("renamed-apart", old, new, other))
    return said


def _reworded_on_both(base: bytes, second: bytes, first: bytes) -> tuple[str, ...]:
    """The index lines of ``base`` both sides reworded, each its own way (both versions are
    kept, :func:`~memory_core.line_merge.changed_on_both`), as text; not those whose two
    versions differ only in where their links point (a rename each side made, said by its
    own outcome), in any T-4 form (:func:`_words`)."""
    were: list[str] = []
    for was, seconds, firsts in changed_on_both(base, second, first):
        if {_words(line) for line in seconds} != {_words(line) for line in firsts}:
            were += [line.rstrip("\r\n") for line in was]
    return tuple(were)


def _words(text: str) -> str:
    """What the index line ``text`` says, not where it links: every link target blanked, in
    each form the link reader knows (inline, reference definition, wiki, entry, HTML; T-4:
    :func:`~memory_core.index.link_targets`, :func:`~memory_core.index.entry_targets`)."""
    targets = [*link_targets(text), *entry_targets(text)]
    return rewrite_links(text, dict.fromkeys(map(_nfc, targets), ""))


def _kept_edited(name: str, rewritten: Renames) -> MergeOutcome:
    """The outcome of ``name`` kept with its edit where the other side no longer holds it:
    ``renamed-changed`` when that side renamed and rewrote it, else ``kept-edited``."""
    new = rewritten.get(name)
    if new is None:
        return MergeOutcome("kept-edited", name)
    return MergeOutcome("renamed-changed", name, new)


def _keep_first_lines(
    merge: ScopeMerge, held: str | None, content: Content, names: set[str]
) -> None:
    """Give each file of ``names`` the merged index links none of its lines of the first
    side's index ``held`` (a blob id) back: a second side's edit of such a line was pointed at
    its own text's new name (:func:`_kept_both_before`), and the first side's file stays
    indexed (T-4)."""
    index = merge.files.get(layout.INDEX_FILE)
    if held is None or index is None:
        return
    raw = merge.new[index] if index in merge.new else content(index)
    text = _text(raw)
    if text is None:
        return
    linked = index_lines_linking_each(text, names)
    unlinked = sorted(name for name in names if name not in linked)
    found = index_lines_for(content(held), unlinked) if unlinked else {}
    lines = [line for name in unlinked for line in found.get(name, [])]
    if not lines:
        return
    data = with_index_lines(raw, lines)
    if data is not None:
        merge.files[layout.INDEX_FILE] = blob_id(data)
        merge.new[blob_id(data)] = data


@dataclass(slots=True)
class _Followed:
    """The three copies with each side's renames made on the other side too (``made``: the
    bytes of the indexes whose links were pointed at the new names), what that did beyond
    (``outcomes``) and the index lines a renamed file kept that way must keep (``relinks``)."""

    base: dict[str, str]
    first: dict[str, str]
    second: dict[str, str]
    made: dict[str, bytes] = field(default_factory=dict)
    outcomes: list[MergeOutcome] = field(default_factory=list)
    relinks: list[_Relink] = field(default_factory=list)


def _follow_renames(
    base: Blobs,
    first: Blobs,
    second: Blobs,
    content: Content,
    renames_and_notes: tuple[tuple[Renames, Renames], Collection[str]],
    label: str,
) -> _Followed:
    """Make each side's renames on the other side, as ``git merge`` does with the renames its
    detection finds, so a file renamed on one side and edited (or left alone) on the other is
    one file under its new name, holding the edit, and the index lines of both sides link it:

    - renamed ``a.md`` → ``b.md`` on one side, still ``a.md`` on the other (edited or not):
      ``a.md`` is read as ``b.md`` in the other side and the base, and the links to ``a.md`` of
      their indexes as links to ``b.md``; the file-by-file merge then takes the edit into
      ``b.md`` (both sides edited its text: both kept, ``kept-both``);
    - renamed to two names (``b.md`` first, ``c.md`` second): the first side's name is kept,
      the second side's text and index lines read under it (``renamed-twice``);
    - renamed on one side, deleted on the other: the renamed file is kept, with its index
      lines (``renamed-deleted``), as an edited file is (R-2: nothing is lost);
    - two texts given one new name (``a.md`` → ``c.md`` first, ``b.md`` → ``c.md`` or a
      ``c.md`` of its own second, :func:`_part_one_new_name`): the second side's ``c.md``
      is read under a new name (``c-<label>.md``), its index links with it, before the rest;
      its rename (``b.md`` → that name) is then followed as any (``renamed-to-one``); a
      new ``c.md`` with other text on each side, no rename, is parted the same way
      (``kept-both``).

    A rename is followed only where its new name is free on the other side (or made free, as
    above, where the other side left the old file as it was), and only a pure one (git's
    ``R100``): the renaming side holds the old file's very text under the new name. git calls
    a file gone and one come holding half its text a rename (a templated note replaced by the
    next day's, ``R074``); following that would land the other side's edit of the old file in
    the new one. Not followed, the old file is merged under its own name (``kept-edited``), the
    new one is a file of its own. ``renames_and_notes``: those of :func:`merge_scopes`."""
    renamed, notes = renames_and_notes
    first_renames = _pure(renamed[0], base, first)
    second_pure = _pure(renamed[1], base, second)
    second_renames = dict(second_pure)
    done = _Followed(dict(base), dict(first), dict(second))
    links: tuple[dict[str, str], dict[str, str], dict[str, str]] = ({}, {}, {})
    onto_one: dict[str, str] = {}
    _part_one_new_name(done, first_renames, second_renames, onto_one, label)
    held = done.base.get(layout.INDEX_FILE) if onto_one else None  # read only when needed
    before = _lines_of(content(held)) if held is not None else set()
    _relink_index(done.second, onto_one, content, done.made, kept=before, notes=notes)
    done.relinks.extend(_Relink(second, name, new) for name, new in onto_one.items())
    parted = dict(done.second)  # the second side as the renames below find it
    for old, new in first_renames.items():
        if not (is_topic_file(old) and is_topic_file(new)) or old not in base or new not in first:
            continue
        if new in second and parted.get(old) != base[old]:
            continue  # onto the second side's own new file, with an edit of the old one there
        other = second_renames.get(old)
        if old in parted and new not in parted:
            done.second[new] = done.second.pop(old)
        elif other is not None and other != new and other in parted and new not in parted:
            done.second[new] = done.second.pop(other)
            links[2][other] = new
            done.outcomes.append(MergeOutcome("renamed-twice", old, new, other))
        elif old not in parted and other is None:
            done.outcomes.append(MergeOutcome("renamed-deleted", old, new))
            done.relinks.append(_Relink(first, new, new))
            continue
        else:
            continue
        done.base[new] = done.base.pop(old)
        links[0][old] = links[2][old] = new
    for old, new in second_renames.items():
        if not (is_topic_file(old) and is_topic_file(new)) or old not in base or new not in parted:
            continue
        if old in first and new not in first and old in done.base:
            done.first[new] = done.first.pop(old)
            done.base[new] = done.base.pop(old)
            links[0][old] = links[1][old] = new
        elif old not in first and old not in first_renames:
            done.outcomes.append(MergeOutcome("renamed-deleted", old, new))
            done.relinks.append(_Relink(second, second_pure[old], new))
    for files, renames in zip((done.base, done.first, done.second), links, strict=True):
        _relink_index(files, renames, content, done.made, notes=notes)
    return done


def _part_one_new_name(
    done: _Followed,
    first_renames: Renames,
    second_renames: dict[str, str],
    second_links: dict[str, str],
    label: str,
) -> None:
    """Give the second side's file a new name wherever both sides hold a different text under
    a name the base lacks (``a.md`` → ``c.md`` on one side, ``b.md`` → ``c.md`` on the other,
    or a new ``c.md`` written on each): the second side's ``c.md`` is read as
    ``c-<label>.md`` (:func:`kept_name`), the links of its index to ``c.md`` with it
    (``second_links``, old → new), and its rename onto ``c.md`` as one onto the new name
    (``second_renames``, changed in place), so that each side's index lines link the text they
    were written for (a line the base's index held, written before either text, links both:
    the caller keeps it and adds a copy for the new name). Reported as ``renamed-to-one``
    where at least one side got the name by a rename, else as ``kept-both``
    (``written_twice``)."""
    first_from = {new: old for old, new in first_renames.items()}
    second_from = {new: old for old, new in second_renames.items()}
    kept = KeptNames([*done.base, *done.first, *done.second])
    for name in sorted(set(done.first) & set(done.second) - set(done.base)):
        if not is_topic_file(name) or done.first[name] == done.second[name]:
            continue
        new = kept.keep(name, label)
        done.second[new] = done.second.pop(name)
        second_links[name] = new
        if (old := second_from.get(name)) is not None:
            second_renames[old] = new
        froms = (first_from.get(name), second_from.get(name))
        if froms == (None, None):  # written on both sides, no rename
            done.outcomes.append(MergeOutcome("kept-both", name, new, written_twice=True))
        else:
            done.outcomes.append(MergeOutcome("renamed-to-one", name, new, renamed_from=froms))


def _pure(renames: Renames, base: Blobs, side: Blobs) -> Renames:
    """The renames of ``renames`` (old → new) that ``side`` made without changing the text:
    its file under the new name is the base's file under the old one, blob for blob."""
    return {
        old: new
        for old, new in renames.items()
        if base.get(old) is not None and base.get(old) == side.get(new)
    }


def _relink_index(
    files: dict[str, str],
    renames: dict[str, str],
    content: Content,
    made: dict[str, bytes],
    *,
    kept: set[str] | None = None,
    notes: Collection[str] = (),
) -> None:
    """Point the links of the index of ``files`` at the new names of ``renames`` (old → new),
    but for its lines of ``kept``; the new index's bytes go into ``made``, in the index's own
    form (:func:`_each_line_relinked`); one not exactly decodable is left as it is. A wiki
    link names the file the lint resolves it to among the files before the renames and the
    sub-folders' ``notes`` (``[[Deploy Freeze]]`` follows ``deploy-freeze.md``, unless
    ``notes/Deploy Freeze.md`` is one of them, T-5b)."""
    blob = files.get(layout.INDEX_FILE)
    if not renames or blob is None:
        return
    raw = made[blob] if blob in made else content(blob)
    nfc = {_nfc(old): new for old, new in renames.items()}
    back = {new: old for old, new in renames.items()}
    before = [back.get(name, name) for name in files]
    wiki = WikiFiles([*before, *notes]) if any(at in raw for at in _WIKI_OPENINGS) else None
    other_cases = _other_cases(nfc, opened_in_any_case(before))

    def relink(line: str) -> str:
        if kept and line in kept:
            return line
        return rewrite_links(line, other_cases(line, nfc), wiki)

    data = _each_line_relinked(raw, relink)
    if data is None:
        return
    files[layout.INDEX_FILE] = blob_id(data)
    made[blob_id(data)] = data


def _twins_moved_before(base: Blobs, first: Blobs, second: Blobs) -> dict[str, str]:
    """The twins an earlier merge of the second side's changes kept under a new name: a name
    the second side holds as it was in ``base`` that the first side lacks while it holds a
    twin of it (``OK.md`` beside the sent ``ok.md``) and its very text under another name
    (``ok-laptop.md``). Old name → new. A machine sends a topic file and, with its next send,
    the index line linking it (two writes of the agent, each sent at once): that line follows
    the file to its new name, never links the twin (on macOS or Windows, the other file)."""
    held = {fold_name(name): name for name in first}
    moved: dict[str, str] = {}
    for name, blob in second.items():
        if name in first or base.get(name) != blob or fold_name(name) not in held:
            continue
        stem = name.rpartition(".")[0]
        copies = sorted(
            (not other.startswith(f"{stem}-"), other)
            for other, same in first.items()
            if same == blob and other not in second
        )
        if copies:
            moved[name] = copies[0][1]
    return moved


def _kept_both_before(base: Blobs, first: Blobs, second: Blobs, label: str) -> dict[str, str]:
    """The files an earlier merge of the second side's changes kept as a ``kept-both`` copy: a
    name the second side holds as it was in ``base`` that the first side holds with other text,
    while it holds the second side's text under that name's kept name for ``label``
    (``c-laptop.md``, ``c-laptop-2.md`` …; :func:`kept_name`) that the second side lacks. Old
    name → new. A machine sends a new ``c.md`` (kept as ``c-laptop.md`` beside the service's
    own ``c.md``) and, with its next send, the index line it wrote for it: that line follows its
    text, never links the other ``c.md``."""
    moved: dict[str, str] = {}
    for name, blob in second.items():
        if not is_topic_file(name) or base.get(name) != blob or first.get(name) in (None, blob):
            continue
        stem = name.removesuffix(".md")
        kept = re.compile(re.escape(f"{stem}-{_slug(label)}") + r"(?:-[0-9]+)?\.md")
        copies = sorted(
            other
            for other, same in first.items()
            if same == blob and other not in second and kept.fullmatch(other)
        )
        if copies:
            moved[name] = copies[0]
    return moved


def part_twins(files: Blobs, content: Content, *, label: str) -> ScopeMerge:
    """``files`` (one copy of a scope) with no two names a case-insensitive or normalising file
    system folds into one: of each group of twins the name that sorts first keeps its name
    (``MEMORY.md`` before ``Memory.md``), each other is kept under a new name (``<stem>-<label>
    .md``, reported as ``twin-renamed``) and the index lines linking it follow it. For a scope
    that got twins where no merge made it (an agent on the service's machine wrote both)."""
    merge = ScopeMerge(files=dict(files))
    _part_twins(merge, {}, content, label, set(files))
    return merge


def _part_twins(
    merge: ScopeMerge,
    first: Blobs,
    content: Content,
    label: str,
    taken: set[str],
    second: Iterable[str] = (),
) -> None:
    """Keep each name of the merged scope the first side does not hold that is a twin of one
    it holds under a new name (see the module), its index lines from the second side (whose
    files are ``second``) with it."""
    held = {fold_name(name): name for name in sorted(merge.files, reverse=True) if name in first}
    renames: dict[str, str] = {}
    kept = KeptNames([*taken, *merge.files])
    for name in sorted(set(merge.files) - set(first)):
        twin = held.setdefault(fold_name(name), name)
        if twin == name:
            continue
        new = kept.keep(name, label)
        taken.add(new)
        merge.files[new] = merge.files.pop(name)
        held[fold_name(new)] = new
        merge.outcomes.append(MergeOutcome("twin-renamed", name, new, twin))
        renames[name] = new
    index = merge.files.get(layout.INDEX_FILE)
    if renames and index is not None:
        _relink_twins(merge, index, first.get(layout.INDEX_FILE), content, renames, second)


def _nfc(name: str) -> str:
    """``name`` in NFC, the form links are compared in (T-4)."""
    return unicodedata.normalize("NFC", name)


def _relinked(
    line: str,
    renames: dict[str, str],
    held_forms: set[str],
    other_cases: Callable[[str, Mapping[str, str]], Mapping[str, str]],
) -> str:
    """``line`` with its links to the old names of ``renames`` pointed at their new names, in
    another case too where that is the only file of the second side it opens (``other_cases``,
    :func:`_other_cases`)."""
    targets = set(link_targets(line))
    here = {
        _nfc(old): new
        for old, new in renames.items()
        if _nfc(old) not in held_forms or old in targets
    }
    return rewrite_links(line, other_cases(line, here))


def _relink_twins(
    merge: ScopeMerge,
    index: str,
    held: str | None,
    content: Content,
    renames: dict[str, str],
    second: Iterable[str] = (),
) -> None:
    """Point the lines of the merged index ``index`` (a blob id) that are not lines of the
    first side's index ``held`` at the new names of ``renames`` (old name → new). A link
    names a file in any normalisation form (T-4), except where the scope still holds a
    normalisation twin of the old name: there only a link naming it exactly is its own. A
    link in another case names the only file of ``second`` (the second side's files) it
    opens on a case-insensitive disk, when that side holds no file spelled so (``c.md`` for
    its ``C.md``)."""
    raw = merge.new[index] if index in merge.new else content(index)
    kept = _lines_of(content(held)) if held is not None else set()
    held_forms = {_nfc(name) for name in merge.files}
    other_cases = _other_cases(
        {_nfc(old): new for old, new in renames.items()}, opened_in_any_case(list(second))
    )

    def relink(line: str) -> str:
        return line if line in kept else _relinked(line, renames, held_forms, other_cases)

    data = _each_line_relinked(raw, relink)
    if data is None:
        return
    merge.files[layout.INDEX_FILE] = blob_id(data)
    merge.new[blob_id(data)] = data


def _put(files: dict[str, str], name: str, blob: str | None) -> None:
    """Set ``files[name]`` to ``blob``; None removes it."""
    if blob is None:
        files.pop(name, None)
    else:
        files[name] = blob


def _lines_of_relinks(
    relinks: list[_Relink], content: Content
) -> dict[str | None, dict[str, list[str]]]:
    """For each index (blob id) of the sides of ``relinks``, its lines linking each file those
    relinks name there (:func:`index_lines_for`, a link in another case naming the only file
    of that side it opens): one read of each index however many files a merge keeps."""
    names: dict[str | None, list[str]] = {}
    files: dict[str | None, set[str]] = {}
    for relink in relinks:
        blob = relink.side.get(layout.INDEX_FILE)
        names.setdefault(blob, []).append(relink.name)
        files.setdefault(blob, set()).update(relink.side)  # both sides' files: never looser
    return {
        blob: index_lines_for(content(blob), wanted, files[blob])
        for blob, wanted in names.items()
        if blob is not None
    }


def _other_cases(
    renames: Mapping[str, str], opened: Callable[[str], str]
) -> Callable[[str, Mapping[str, str]], Mapping[str, str]]:
    """A function giving, for one index line of a copy and renames (old name, NFC → new)
    among ``renames``, those renames and each link target of the line that names a renamed
    file only in another case or Unicode form, as ``opened`` (the copy's
    :func:`~memory_core.index.opened_in_any_case`, built once per copy) finds it, with that
    file's new name: ``C.md`` → ``c-laptop.md`` where the copy holds ``c.md`` and no ``C.md``
    (its case-insensitive disk opens ``c.md`` for the link). A line that spells no renamed
    name in any case or Unicode form (:func:`fold_name`, as the disk folds: ``STRASSE`` is
    ``straße``), as written or percent-encoded, is not parsed again."""
    stems = {fold_name(name.removesuffix(".md")) for old in renames for name in (old, quote(old))}
    spelled = "|".join(re.escape(stem) for stem in sorted(stems, key=len, reverse=True))
    gate = re.compile(spelled) if spelled else None

    def with_other_cases(line: str, here: Mapping[str, str]) -> Mapping[str, str]:
        if gate is None or not gate.search(fold_name(line)):
            return here
        other = {
            target: here[file]
            for target in linked_topic_files(line)
            if target not in here and (file := opened(target)) in here
        }
        return {**here, **other} if other else here

    return with_other_cases


def _merge_index(
    merge: ScopeMerge,
    base: Blobs,
    first: Blobs,
    second: Blobs,
    content: Content,
    relinks: list[_Relink],
) -> None:
    """Set the merged index in ``merge``: one side's where only it changed, else the two
    merged as lines (the first side's first; lines both reworded said as
    ``index-lines-both``), then the lines of ``relinks`` (each side's index lines linking a
    file kept, pointed at its kept name) merged in, nothing twice."""
    name = layout.INDEX_FILE
    was, ours, theirs = base.get(name), first.get(name), second.get(name)
    if not relinks and theirs in (was, ours):
        return  # the first side's index stands
    if not relinks and ours == was:
        _put(merge.files, name, theirs)
        return
    if theirs in (was, ours):
        index = None if ours is None else content(ours)
    elif ours == was:
        index = None if theirs is None else content(theirs)
    else:
        parts = [b"" if blob is None else content(blob) for blob in (was, theirs, ours)]
        index = merge_lines(parts[0], parts[1], parts[2])  # the first side's lines first
        if were := _reworded_on_both(parts[0], parts[1], parts[2]):
            merge.outcomes.append(MergeOutcome("index-lines-both", name, lines=were))
    lines: list[str] = []
    found = _lines_of_relinks(relinks, content)
    opened: dict[int, Callable[[str], str]] = {}  # per side (by identity): built once each
    for relink in relinks:
        linking = found.get(relink.side.get(name), {}).get(relink.name, [])
        if relink.new == relink.name:
            lines.extend(linking)
            continue
        renames = {_nfc(relink.name): relink.new}
        if id(relink.side) not in opened:
            opened[id(relink.side)] = opened_in_any_case(list(relink.side))
        other_cases = _other_cases(renames, opened[id(relink.side)])
        lines.extend(rewrite_links(line, other_cases(line, renames)) for line in linking)
    if lines and (data := with_index_lines(index, lines)) is not None:
        index = data
    if index is None:
        merge.files.pop(name, None)
        return
    blob = blob_id(index)
    merge.files[name] = blob
    if blob not in (was, ours, theirs):
        merge.new[blob] = index
