"""Merging lines into an index's bytes in the index's own form (A-6, V-2, P-5).

An index (``MEMORY.md``) is read in whatever form :func:`memory_core.decoding.decode_exact`
reads it: UTF-8 with or without a BOM, UTF-16 (with or without its BOM) or UTF-32, Windows-1252
or Latin-1; line ends LF, CRLF or CR alone. :func:`merge_index_bytes` merges lines into it
(:func:`memory_core.index_merge.merge_index`) and gives the result back in that same form: the
same BOM and codec, the new lines ending as the index's lines end (CR alone included), every
byte of the index as it was kept in front of them. A restore (the version's index given as
``places``) and an index whose lines end in more than one way (CR alone, CRLF, LF:
:func:`_with_own_ends`) keep each line's end; a line put back takes the end it had in the
version it comes from (so the undo of a delete gives the index back byte for byte, even when
the delete took every line ending one way; unless the index's lines end otherwise
since), any other the end most lines have. The undo of a
delete (restoring a file) and the import both add their lines through it.

Where that cannot be done exactly, it raises :class:`IndexNotRewritable` naming why, and the
caller writes nothing:

- bytes that do not decode exactly (UTF-16 with an odd byte or a lone surrogate, UTF-32 with a
  cut code unit);
- a new character the index's encoding cannot hold;
- new lines after which the index would no longer read as its encoding (UTF-16 without its byte
  order mark is told by its NUL bytes: lines of CJK text have none);
- lines from elsewhere (``foreign``: an import) for an index read as Windows-1252 or Latin-1
  whose bytes are just as well text of a legacy multi-byte encoding (Shift-JIS, GB18030, Big5,
  EUC-JP, EUC-KR): which one it is cannot be told, and the new lines' bytes would differ. An
  index's own lines (the undo of its delete) came from those very bytes and go back as they were.

A pure function of the bytes: it may be applied again to newer contents.

>>> merged = merge_index_bytes("- [A](a.md)\\r".encode("utf-16"), "- [B](b.md)\\n", {})
>>> merged.data == "- [A](a.md)\\r- [B](b.md)\\r".encode("utf-16"), merged.merge.added
(True, ['- [B](b.md)'])
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from memory_core.decoding import LEGACY_MULTIBYTE, decode_exact
from memory_core.index_merge import IndexMerge, merge_index
from memory_core.markdown import lines_with_ends

__all__ = ["LEGACY_MULTIBYTE", "IndexNotRewritable", "MergedBytes", "merge_index_bytes"]

_EIGHT_BIT = ("cp1252", "latin-1")


class IndexNotRewritable(ValueError):
    """The index cannot take the lines keeping its other bytes; ``str()`` says why, worded to
    follow the index's name (``MEMORY.md is UTF-16 text …``)."""


@dataclass(frozen=True, slots=True)
class MergedBytes:
    """``merge`` is what :func:`~memory_core.index_merge.merge_index` did to the index's text;
    ``data`` the index's new bytes (None when no line is added)."""

    merge: IndexMerge
    data: bytes | None


def _lf(text: str) -> str:
    """``text`` with every line end (CRLF, CR alone) written as LF."""
    return "".join(
        line.rstrip("\r\n") + "\n" if line.endswith(("\r", "\n")) else line
        for line in lines_with_ends(text)
    )


def _end(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _with_own_ends(held: str, merged: str, places: str | None) -> str:
    """``merged`` (LF line ends: the index ``held`` with lines merged in) given back with each
    of ``held``'s lines that ``merged`` keeps ending as it ends there, and every other line
    (put back, or rewritten in place: a joined line given its entry back) as it ended in
    ``places`` (the version a restore takes it from: without an end when it was last there
    without one), else as most of ``held``'s lines (or of ``places``'s) end. When ``held``'s
    lines end otherwise than they did in ``places`` (the index written with other line ends
    since), every other line ends as most of ``held``'s do.

    The merge keeps ``held``'s lines in order, adds none that it holds (but blank ones), and
    may rewrite one in place or drop a ``<!--``/``-->`` a delete kept of a line it puts back:
    so a line of ``merged`` that ``held`` holds further on is that line, those skipped on the
    way are the ones rewritten or dropped (:func:`_held_rows`). One pass. Raises
    :class:`IndexNotRewritable` when a line ending in CR alone would run into a blank line
    ending in LF after it (one CRLF)."""
    own = lines_with_ends(held)
    then = {line.rstrip("\r\n"): _end(line) for line in lines_with_ends(places or "")}
    if _ends_changed(own, places or ""):
        then = {}
    ends = [_end(line) for line in own if _end(line)] or [end for end in then.values() if end]
    usual = max(sorted(set(ends)), key=ends.count) if ends else "\n"
    rows = [line.rstrip("\n") for line in lines_with_ends(merged)]
    out: list[str] = []
    for text, kept in zip(rows, _held_rows(own, rows), strict=True):
        if out and not _end(out[-1]):  # the index's last line, no longer last
            out[-1] += then.get(out[-1]) or usual
        out.append(text + then.get(text, usual) if kept is None else own[kept])
    if len(lines_with_ends("".join(out))) != len(out):
        raise IndexNotRewritable(
            "has lines ending in CR alone beside lines ending in LF, which would run together"
        )
    return "".join(out)


def _ends_changed(own: list[str], places: str) -> bool:
    """Whether a line of ``own`` (lines with their ends) ends otherwise than every line with
    its text in ``places`` does (a line without an end on either side aside: a delete of the
    last line leaves the one before it without one)."""
    ends: dict[str, set[str]] = defaultdict(set)
    for line in lines_with_ends(places):
        ends[line.rstrip("\r\n")].add(_end(line))
    return any(
        (end := _end(line))
        and (was := ends.get(line.rstrip("\r\n")))
        and end not in was
        and "" not in was
        for line in own
    )


def _held_rows(own: list[str], rows: list[str]) -> list[int | None]:
    """For each of ``rows`` (lines without ends), the index of the line of ``own`` (lines with
    their ends) it is, None for a line not held: the next line of ``own`` with its text, in
    order; a blank row only when the next line of ``own`` is blank (blank lines are added)."""
    where: dict[str, deque[int]] = defaultdict(deque)
    for number, line in enumerate(own):
        where[line.rstrip("\r\n")].append(number)
    at = 0
    found: list[int | None] = []
    for text in rows:
        spots = where[text] if text.strip() else deque([at] if at < len(own) else [])
        while spots and spots[0] < at:
            spots.popleft()
        if spots and own[spots[0]].rstrip("\r\n") == text:
            at = spots.popleft() + 1
            found.append(at - 1)
        else:
            found.append(None)
    return found


def _undecided(raw: bytes) -> str | None:
    """The legacy multi-byte encoding that reads ``raw`` as well, if any."""
    for codec in LEGACY_MULTIBYTE:
        try:
            raw.decode(codec)
        except UnicodeDecodeError:
            continue
        return codec
    return None


def merge_index_bytes(
    raw: bytes,
    lines: str,
    renames: Mapping[str, str],
    *,
    foreign: bool = False,
    places: str | None = None,
    twins: Collection[str] = (),
) -> MergedBytes:
    """Merge ``lines`` (text, LF line ends) into the index bytes ``raw``, in their own form.

    ``renames`` maps source file names to the names used (see
    :func:`~memory_core.index_merge.merge_index`); ``foreign`` says the lines come from
    elsewhere (an import), not from this index's own history; ``places``, the index text they
    were once part of (its own line ends kept, as :func:`~memory_core.decoding.decode_exact`
    reads it, or LF), puts each back where it stood there (a restore); ``twins``, the names
    (NFC) the scope holds in two Unicode normalizations, each linked in its own spelling. Raises
    :class:`IndexNotRewritable` (see the module docstring); never writes.
    """
    exact = decode_exact(raw)
    if exact is None:
        raise IndexNotRewritable(
            "is UTF-16 or UTF-32 text whose bytes do not decode exactly "
            "(an odd byte, a lone surrogate or a cut code unit)"
        )
    text = exact.text
    ends = {_end(line) for line in lines_with_ends(text)} - {""}
    # a restore (``places``), or lines ending in more than one way: each line keeps its own
    # end, each line put back takes the end it had in the version (none left to tell the
    # index's by, or every line of one kind pruned: a delete undone gives it back whole)
    own_ends = places is not None or len(ends) > 1
    cr_only = ends == {"\r"} and not own_ends
    at = None if places is None else _lf(places)  # the merge reads LF line ends
    if cr_only:
        text = text.replace("\r", "\n")  # merged with LF, given back with CR alone
    merge = merge_index(_lf(text) if own_ends else text, lines, renames, places=at, twins=twins)
    if not merge.changed:
        return MergedBytes(merge, None)
    if own_ends:
        merge.text = _with_own_ends(text, merge.text, places)
    if foreign and exact.codec in _EIGHT_BIT and (other := _undecided(raw)) is not None:
        raise IndexNotRewritable(
            f"is not UTF-8, and its encoding cannot be told: its bytes read as {exact.codec} "
            f"and as {other} alike"
        )
    try:
        data = exact.encode(merge.text.replace("\n", "\r") if cr_only else merge.text)
    except UnicodeEncodeError as error:
        raise IndexNotRewritable(
            f"is {exact.codec} text, which cannot hold {error.object[error.start]!r} of the "
            "new lines"
        ) from None
    again = decode_exact(data)
    if again is None or (again.bom, again.codec) != (exact.bom, exact.codec):
        raise IndexNotRewritable(
            f"is {exact.codec} text that would no longer read as {exact.codec} with the new "
            "lines (UTF-16 without its byte order mark is told by its NUL bytes)"
        )
    return MergedBytes(merge, data)
