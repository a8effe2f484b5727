"""Merging lines into an index's bytes in the index's own form (A-6, V-2, P-5).

An index (``MEMORY.md``) is read in whatever form :func:`memory_core.decoding.decode_exact`
reads it: UTF-8 with or without a BOM, UTF-16 (with or without its BOM) or UTF-32, Windows-1252
or Latin-1; line ends LF, CRLF or CR alone. :func:`merge_index_bytes` merges lines into it
(:func:`memory_core.index_merge.merge_index`) and gives the result back in that same form: the
same BOM and codec, the new lines ending as the index's lines end (CR alone included), every
byte of the index as it was kept in front of them. A restore (the version's index given as
``places``) and an index whose lines end in more than one way (CR alone, CRLF, LF:
:func:`_with_own_ends`) keep each line's end (a joined line given its entry back too); a line
put back takes the end it had in the
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

from collections import Counter, defaultdict, deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise as pairs

from memory_core.decoding import CP1252_UNDEFINED, LEGACY_MULTIBYTE, ExactText, decode_exact
from memory_core.index_merge import IndexMerge, merge_index
from memory_core.markdown import blank_comment_lines, fenced_lines, lines_with_ends

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


def _split(text: str) -> list[tuple[str, str]]:
    """The lines of ``text``, each as its text and its end (``""`` for a last line without)."""
    split: list[tuple[str, str]] = []
    for line in lines_with_ends(text):
        body = line.rstrip("\r\n")
        split.append((body, line[len(body) :]))
    return split


def _lf(lines: list[tuple[str, str]]) -> str:
    """The lines (text, end) with every line end (CRLF, CR alone) written as LF."""
    return "".join(text + "\n" if end else text for text, end in lines)


def _with_own_ends(
    own: list[tuple[str, str]],
    merged: str,
    version: list[tuple[str, str]],
    merge: IndexMerge,
) -> str:
    """``merged`` (LF line ends: the index, ``own`` lines as text and end, with the lines
    ``merge.added`` merged in) given back with each of ``own`` that ``merged`` keeps (or rewrites in
    place: a joined line given its entry back) ending as it ends there, and every line put
    back as it ended in ``version`` (the lines of the version a restore takes it from:
    without an end when it was last there without one), else as most of ``own`` (or of
    ``version``) end. When ``own`` lines end otherwise than they did in ``version`` (the index
    written with other line ends since), every other line ends as most of ``own`` do.

    Which rows of ``merged`` are ``own`` lines: those a restore's ``merge`` says it kept
    (:func:`_rows_ends`), else :func:`_held_ends` finds them. Each line's text and
    end are worked out once. Raises :class:`IndexNotRewritable` when a line ending in CR alone
    would run into a blank line ending in LF after it (one CRLF)."""
    added, put, dropped = merge.added, merge.put, set(merge.dropped)
    then = {} if _ends_changed(own, version, _kept_ends(added)) else dict(version)
    ends = Counter(end for _, end in own if end) or Counter(e for e in then.values() if e)
    usual = max(sorted(ends), key=ends.__getitem__) if ends else "\n"
    rows = merged.split("\n")
    if rows[-1] == "":  # the last line's end, not a line
        rows.pop()
    out: list[tuple[str, str]] = []
    shown = _shown_ends(version) if then else {}
    held = _held_ends(own, rows, added) if put is None else _rows_ends(own, len(rows), put, dropped)
    for text, kept in zip(rows, held, strict=True):
        if out and not out[-1][1]:  # the index's last line, no longer last
            out[-1] = (out[-1][0], then.get(out[-1][0]) or usual)
        if kept is None and (ends_then := shown.get(text)):
            kept = ends_then.popleft() if len(ends_then) > 1 else ends_then[0]
        out.append((text, then.get(text, usual) if kept is None else kept))
    if any(end == "\r" and not text and after == "\n" for (_, end), (text, after) in pairs(out)):
        raise IndexNotRewritable(
            "has lines ending in CR alone beside lines ending in LF, which would run together"
        )
    return "".join(text + end for text, end in out)


def _shown_ends(version: list[tuple[str, str]]) -> dict[str, deque[str]]:
    """Each line of ``version`` (text, end) that shows text (outside comments and code
    fences: a line a delete takes) → its ends there, in order: a line put back twice takes
    each copy's own end, never that of a commented-out or fenced copy of it (V-2)."""
    lines = [text for text, _ in version]
    ends: dict[str, deque[str]] = defaultdict(deque)
    for (text, end), seen, fenced in zip(
        version, blank_comment_lines(lines), fenced_lines(lines), strict=True
    ):
        if seen.strip() and not fenced:
            ends[text].append(end)
    return ends


def _ends_changed(
    own: list[tuple[str, str]], version: list[tuple[str, str]], kept: Collection[str]
) -> bool:
    """Whether a line of ``own`` (text, end) ends otherwise than every line with its text in
    ``version`` does (a line without an end on either side aside: a delete of the last line
    leaves the one before it without one; and one of ``kept``, the ``<!--``/``-->`` a delete
    kept of a line with that line's end, which the line put back replaces); or whether the
    index holds none of ``version``'s lines but blank ones (written anew since)."""
    ends: dict[str, set[str]] = defaultdict(set)
    for text, end in version:
        ends[text].add(end)
    written = [text for text, _ in own if text.strip()]
    if written and not any(text in ends for text in written):
        return True  # an index written anew since: its own lines tell how lines end
    return any(
        end and (was := ends.get(text)) and end not in was and "" not in was and text not in kept
        for text, end in own
    )


def _rows_ends(
    own: Sequence[tuple[str, str]], count: int, put: Collection[int], dropped: Collection[int]
) -> list[str | None]:
    """For each of ``count`` merged rows, the end it keeps as a line of ``own`` (the index's
    lines, as text and end), None for a line ``put`` back (those rows): the other rows are
    the index's own lines in order, but those ``dropped`` (rows of ``own``)."""
    lines = (end for at, (_, end) in enumerate(own) if at not in dropped)
    added = set(put)
    return [None if at in added else next(lines, None) for at in range(count)]


def _held_ends(
    own: Sequence[tuple[str, str]], rows: Sequence[str], added: Collection[str]
) -> list[str | None]:
    """For each of ``rows`` (the merged lines, without ends), the end it keeps as a line of
    ``own`` (the index's lines, as text and end), None for a line added.

    The merge keeps the index's lines in order, inserts the ``added`` lines among them, may
    rewrite one in place (a joined line given its entry back) or drop a ``<!--``/``-->`` a
    delete kept of a line it puts back. So a row is the next held line when it has its text;
    else the held line just past ``<!--``/``-->`` lines (dropped) when it has its text; else a
    held line further on (those skipped being the ones rewritten or dropped) when it is not
    blank (blank lines are added only with a comment's other lines) and no added line with
    its text is still to come:
    an added line's text is held too when the index keeps a copy of it (commented out, in a
    fence), and an added line must never be taken for that copy, which would take every line
    kept between them for rewritten. A row neither held nor added (nor blank) is the next
    held line rewritten in place, and keeps its end. One pass, linear in the lines (20,000
    joined lines rewritten in place included: :func:`_next`)."""
    texts = [text for text, _ in own]
    rows_of: dict[str, deque[int]] = defaultdict(deque)  # a held line's text → its rows to come
    for row, text in enumerate(texts):
        rows_of[text].append(row)
    new = Counter(added)  # added lines still to come, by text
    at, count = 0, len(texts)
    found: list[str | None] = []
    past: dict[int, int] = {}  # a row → the first row from it on that is no comment end
    dropped = _kept_ends(added)
    for text in rows:
        spot = at if at < count and texts[at] == text else None
        if spot is None and at < count:  # the line after a ``<!--``/``-->`` dropped
            after = past.get(at) or past.setdefault(at, _past_kept(texts, at, dropped))
            spot = after if at < after < count and texts[after] == text else None
        if spot is None and text.strip() and not new[text]:
            spot = _next(rows_of, text, at)
            if spot is None and at < count:  # rewritten in place
                found.append(own[at][1])
                continue
        if spot is not None:
            at = spot + 1
        elif new[text]:
            new[text] -= 1
        found.append(None if spot is None else own[spot][1])
    return found


def _kept_ends(added: Collection[str]) -> set[str]:
    """What a delete may have kept of each of the ``added`` lines, without outer whitespace:
    its ``<!--`` part, its ``-->`` part, both (:func:`memory_core.index.comment_ends`); the
    merge drops such a line beside the line put back."""
    kept: set[str] = set()
    for line in added:
        close, opening = line.find("-->"), line.rfind("<!--")
        head = line[: close + 3].strip() if close != -1 else ""
        tail = line[opening:].strip() if opening != -1 else ""
        kept.update(part for part in (head, tail, f"{head} {tail}".strip()) if part)
    return kept


def _past_kept(texts: Sequence[str], at: int, kept: Collection[str]) -> int:
    """The first of ``texts`` from ``at`` on that is not one of ``kept`` (:func:`_kept_ends`,
    which the merge drops for the line put back): the lines after it are the index's own,
    each keeping its own end (V-2)."""
    while at < len(texts) and texts[at].strip() in kept:
        at += 1
    return at


def _next(rows_of: Mapping[str, deque[int]], text: str, at: int) -> int | None:
    """Where ``text`` is next among the held lines from row ``at`` on (``rows_of``: each
    text's rows still to come, dropped as ``at`` passes them: each row dropped once, so the
    whole pass stays linear in the lines, V-2), or None."""
    spots = rows_of.get(text)
    while spots and spots[0] < at:
        spots.popleft()
    return spots[0] if spots else None


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
    codec: str | None = None,
    twins: Collection[str] = (),
) -> MergedBytes:
    """Merge ``lines`` (text, LF line ends) into the index bytes ``raw``, in their own form.

    ``renames`` maps source file names to the names used (see
    :func:`~memory_core.index_merge.merge_index`); ``foreign`` says the lines come from
    elsewhere (an import), not from this index's own history; ``places``, the index text they
    were once part of (its own line ends kept, as :func:`~memory_core.decoding.decode_exact`
    reads it, or LF), puts each back where it stood there (a restore); ``codec``, the encoding
    that version was written in (``decode_exact``'s name for it): an index whose bytes are all
    ASCII now (its delete took every other character: ``Café`` was its only non-ASCII word)
    reads alike in it, and takes the lines back in it, not as UTF-8; ``twins``, the names
    (NFC) the scope holds in two Unicode normalizations, each linked in its own spelling. Raises
    :class:`IndexNotRewritable` (see the module docstring); never writes.
    """
    exact = decode_exact(raw)
    if exact is None:
        raise IndexNotRewritable(
            "is UTF-16 or UTF-32 text whose bytes do not decode exactly "
            "(an odd byte, a lone surrogate or a cut code unit)"
        )
    if codec in _EIGHT_BIT and exact.codec == "utf-8" and not exact.bom and raw.isascii():
        errors = CP1252_UNDEFINED if codec == "cp1252" else "strict"  # as decode_exact has it
        exact = ExactText(bom=b"", codec=codec, text=exact.text, errors=errors)  # the version's
    text = exact.text
    own = _split(text)  # each line's text and end, worked out once
    ends = {end for _, end in own} - {""}
    # a restore (``places``), or lines ending in more than one way: each line keeps its own
    # end, each line put back takes the end it had in the version (none left to tell the
    # index's by, or every line of one kind pruned: a delete undone gives it back whole)
    own_ends = places is not None or len(ends) > 1
    cr_only = ends == {"\r"} and not own_ends
    version = [] if places is None else _split(places)
    at = None if places is None else _lf(version)  # the merge reads LF line ends
    if cr_only:
        text = text.replace("\r", "\n")  # merged with LF, given back with CR alone
    merge = merge_index(_lf(own) if own_ends else text, lines, renames, places=at, twins=twins)
    if not merge.changed:
        return MergedBytes(merge, None)
    if own_ends:
        merge.text = _with_own_ends(own, merge.text, version, merge)
    if foreign and exact.codec in _EIGHT_BIT and (other := _undecided(raw)) is not None:
        raise IndexNotRewritable(
            f"is not UTF-8, and its encoding cannot be told: its bytes read as {exact.codec} "
            f"and as {other} alike"
        )
    try:
        written = merge.text.replace("\n", "\r") if cr_only else merge.text
        data = exact.encode(written)
    except UnicodeEncodeError as error:
        raise IndexNotRewritable(
            f"is {exact.codec} text, which cannot hold {error.object[error.start]!r} of the "
            "new lines"
        ) from None
    again = decode_exact(data)  # read as it was read: a line put back in cp1252 reads as one
    if again is None or again.bom != exact.bom or again.text != written:
        raise IndexNotRewritable(
            f"is {exact.codec} text that would no longer read as {exact.codec} with the new "
            "lines (UTF-16 without its byte order mark is told by its NUL bytes)"
        )
    return MergedBytes(merge, data)
