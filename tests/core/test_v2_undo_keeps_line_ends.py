"""V-2, A-6: the undo of a delete gives the index back byte for byte, whatever its lines end
in: LF, CRLF, CR alone or a mix of them, its last line with or without an end. Each line the
delete kept keeps its own end; each line put back takes the end it had in the version (even
when the delete took every line ending so); a joined line given its entry back is matched
though its text changed. An import adds its lines with the end most of the index's lines have.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import memory_core
import pytest
from memory_core.index import index_lines, prune_index
from memory_core.index_rewrite import _held_ends, merge_index_bytes
from memory_core.markdown import blank_comment_lines, fenced_lines, line_texts, lines_with_ends

ENDS = {
    "lf": ["\n"],
    "crlf": ["\r\n"],
    "cr": ["\r"],
    "lf+crlf": ["\n", "\r\n"],
    "cr+lf": ["\r", "\n"],
    "all three": ["\n", "\r\n", "\r"],
}


def _rows(rng: random.Random, i: int) -> list[str]:
    """The rows of one piece of an index: mostly link lines (some to ``uv.md``, which the
    delete prunes), a section title after a blank line, prose naming ``uv.md``, a comment
    across lines, or a line of entries joined by a soft break that opens a comment."""
    target = rng.choice(["uv.md", "uv.md#why", "b.md", "c.md"])
    shape = rng.choice(["link"] * 5 + ["section", "prose", "comment", "joined"])
    if shape == "link":
        return [f"- [L{i}]({target}) — {i}"]
    if shape == "section":
        return ["", f"## Part {i}"]
    if shape == "prose":
        return [f"see {target} for {i}"]
    comment = [f"- [Old{i}](old.md)", f"{i} -->"]
    if shape == "comment":
        return [f"<!-- old {i}:", *comment]
    soft = rng.choice(["\u2028", "\f"])
    return [f"## Joined {i}", f"- [J{i}](c.md){soft}- [K{i}]({target}) <!-- old {i}:", *comment]


def _index(rng: random.Random, ends: list[str]) -> str:
    rows = [row for i in range(rng.randint(1, 9)) for row in _rows(rng, i)]
    # a blank line ending in LF after a line ending in CR alone reads as its CRLF once the
    # lines between them are pruned: the prune's own limit, not the undo's
    blank = ["\r"] if "\r" in ends else ends
    text = "".join(row + rng.choice(ends if row else blank) for row in rows)
    return text.rstrip("\r\n") if rng.random() < 0.3 else text


@pytest.mark.parametrize("kind", list(ENDS))
def test_v2_prune_then_undo_gives_every_index_back_byte_for_byte(kind: str) -> None:
    rng = random.Random(f"v2-undo-{kind}")  # noqa: S311 - a seeded fuzz, not a secret
    undone = 0
    for _ in range(120):
        then = _index(rng, ENDS[kind])
        pruned, removed = prune_index(then, "uv.md")
        if not removed:
            continue
        lines = "".join(line + "\n" for line in removed)

        merged = merge_index_bytes(pruned.encode(), lines, {}, places=then)

        assert merged.data == then.encode(), (then, pruned)
        undone += 1
    assert undone > 50


@pytest.mark.parametrize(
    ("joined", "end"),
    [("\u2028", "\r\n"), ("\f", "\r\n"), ("\u2028", "\r"), ("\f", "\n")],
)
def test_v2_a_joined_line_given_its_entry_back_in_an_index_of_mixed_ends(
    joined: str, end: str
) -> None:
    """The entry goes back into the joined line that opens a comment (the line is its old
    self again): the line, changed in place, is still the index's own (was: refused, 'has
    lines ending in more than one way, not kept in order')."""
    then = f"- [B](b.md){joined}- [A](a.md) <!-- old:\n- [Old](old.md)\n-->\n- [C](c.md) — c{end}"
    pruned, removed = prune_index(then, "a.md")
    assert removed == ["- [A](a.md) <!-- old:"] or removed == ["- [A](a.md)"]

    merged = merge_index_bytes(pruned.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    assert merged.data == then.encode()


def test_v2_lines_of_the_one_end_the_delete_took_every_line_of_come_back_with_it() -> None:
    then = "- [A](uv.md) a\r\n- [B](b.md) b\n- [A2](uv.md#x) a2\r\n- [C](c.md) c\n"
    pruned, removed = prune_index(then, "uv.md")
    assert pruned == "- [B](b.md) b\n- [C](c.md) c\n"

    merged = merge_index_bytes(pruned.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    assert merged.data == then.encode()


def _with_lf(text: str) -> str:
    """``text`` as an editor writing LF line ends writes it (the last line given one too)."""
    return "".join(line.rstrip("\r\n") + "\n" for line in lines_with_ends(text))


@pytest.mark.parametrize(
    "then",
    [
        "- [A](a.md) a\r\n- [U](uv.md) u\r\n- [C](c.md) c\r\n",
        "- [A](a.md) a\r\n- [U](uv.md) u\r- [C](c.md) c\n",
        "- [A](a.md) a\r\n- [C](c.md) c\r\n- [U](uv.md) u",
    ],
    ids=["crlf", "mixed", "crlf-last-line-without-an-end"],
)
def test_v2_an_index_written_with_lf_since_takes_its_line_back_with_lf(then: str) -> None:
    """The index's lines end otherwise than they did in the version (an editor wrote it with
    LF since the delete): the line put back ends as they do now, never as it did then."""
    pruned, removed = prune_index(then, "uv.md")
    now = _with_lf(pruned)

    merged = merge_index_bytes(now.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    assert merged.data == _with_lf(then).encode()


@pytest.mark.parametrize(
    ("index", "added"),
    [
        (b"\r\n\n\r\n", b"- [X](x.md)\r\n"),
        (b"\n\r\n\n", b"- [X](x.md)\n"),
        (b"- [A](a.md)\r\n- [B](b.md)\n- [C](c.md)\r\n", b"- [X](x.md)\r\n"),
    ],
    ids=["blank-lines-only", "blank-lines-only-lf", "lines"],
)
def test_v2_an_import_into_an_index_of_mixed_ends_adds_with_the_usual_end(
    index: bytes, added: bytes
) -> None:
    """An import into an index whose lines end in two ways (blank lines only included: was
    refused) adds its lines with the end most of them have; an index of blank lines only is
    replaced by the lines, as it is when its blank lines end alike."""
    merged = merge_index_bytes(index, "- [X](x.md)\n", {}, foreign=True)

    kept = b"" if not index.strip() else index
    assert merged.data == kept + added


def _kept_in_order(kept: str, merged: str, put_back: Sequence[str] = ()) -> bool:
    """Whether every line of ``kept`` (with its end) is a line of ``merged``, byte for byte and
    in order; its last line without an end may have gained one (a line put back after it).
    A line of ``kept`` that is just the ``<!--`` or ``-->`` a delete kept of one of
    ``put_back`` may be gone: that line, put back, stands in for it."""
    lines = iter(lines_with_ends(merged))
    ends = [line for line in put_back if "<!--" in line or "-->" in line]
    for old in lines_with_ends(kept):
        text = old.strip()
        comment_end = text.startswith(("<!--", "-->")) and any(
            line.startswith(text) or line.endswith(text) for line in ends
        )
        for line in lines:
            if line == old or (not old.endswith(("\r", "\n")) and line.rstrip("\r\n") == old):
                break
            if comment_end and line.strip() in ends:
                break  # the line put back in its place
        else:
            return False
    return True


def _a_subsequence(lines: Sequence[str], of: Sequence[str]) -> bool:
    """Whether ``lines`` are among ``of`` in the order ``of`` holds them: lines put back on
    lines of their own keep the order they stood in in the version."""
    rest = iter(of)
    return all(any(line == other for other in rest) for line in lines)


def _shown(text: str) -> list[str]:
    """The lines of ``text`` a model reads as text: outside comments and code fences."""
    lines = index_lines(text)
    return [
        shown.strip()
        for shown, fenced in zip(blank_comment_lines(lines), fenced_lines(lines), strict=True)
        if shown.strip() and not fenced
    ]


U = "- [U](uv.md) u"
L0 = "- [L0](uv.md) 0"


def _copied_rows(rng: random.Random, i: int) -> list[str]:
    """The rows of one piece of an index with copies of the lines a delete prunes: the same
    entry twice, commented out or in a fence (kept: they link nothing; the first link line,
    ``L0``, always to ``uv.md``, has fenced copies too), kept lines alike
    (``- [D](b.md) d``), a stray ``-->``, a reference, a wiki link, a line opening a comment,
    one closing it followed by blank lines, a fence whose closing ```` ``` ```` is the
    neighbour of a line it takes, a line of prose holding U+2028 or U+2029 (no line end for
    the index, one for ``str.splitlines``), a line of indented code (or a list item's own
    indented line) just before a link line."""
    target = rng.choice(["uv.md", "uv.md#why", "b.md"])
    shape = rng.choice(
        ["link"] * 3
        + ["same", "entry", "title", "blank", "close", "ref", "wiki", "commented", "fenced"]
        + ["opens", "prose", "closes", "fence-then", "soft", "indented"]
    )
    soft = rng.choice(["\u2028", "\u2029"])
    pieces = {
        "link": [f"- [L{i}]({target}) {i}" if i else L0],
        "same": ["- [D](b.md) d"],
        "entry": [U],
        "title": ["## Part"],
        "blank": [""],
        "close": ["-->"],
        "ref": ["- [R][r]", "", "[r]: uv.md"],
        "wiki": ["- [[uv]] w"],
        "commented": ["<!--", U, "-->"],
        "fenced": ["```", rng.choice([U, L0]), "```"],
        "opens": [f"- [K{i}]({target}) <!-- old:", U, "-->"],
        "prose": ["see uv.md"],
        "closes": ["<!-- was:", "- [Old](old.md)", f"--> - [C{i}]({target}) {i}", "", ""],
        "fence-then": ["```", "- [F](b.md)", "```", f"- [G{i}]({target}) {i}"],
        "soft": [f"note {i}{soft}more {i}"],
        "indented": ["", rng.choice(["    make", "\tmake", "    - [I](b.md)"]), L0],
    }
    return pieces[shape]


def _edited(rng: random.Random, pruned: str, ends: list[str]) -> str:
    """``pruned`` as the user may have written it since the delete: as it is, or with a few
    lines of their own added anywhere, each ending in LF or CRLF."""
    if rng.random() < 0.5:
        return pruned
    lines = lines_with_ends(pruned)
    if lines and not lines[-1].endswith(("\r", "\n")):
        lines[-1] += rng.choice(ends)
    for _ in range(rng.randint(1, 3)):
        mine = f"- [M{rng.randint(0, 99)}](m.md) mine"
        lines.insert(rng.randint(0, len(lines)), mine + rng.choice(["\n", "\r\n"]))
    return "".join(lines)


@pytest.mark.parametrize("kind", list(ENDS))
def test_v2_an_undo_never_changes_a_byte_of_a_line_the_user_kept(kind: str) -> None:
    """Whatever the index holds beside the lines put back (copies of them commented out or in
    a fence, duplicate lines, lines the user added since, ending otherwise): every line the
    user kept comes back byte for byte, its text and its end, in its order, and the lines put
    back on lines of their own keep the order they had. Was: a line put back was taken for a
    later kept copy of it, and every kept line between lost its end."""
    rng = random.Random(f"v2-kept-{kind}")  # noqa: S311 - a seeded fuzz, not a secret
    files = ["uv.md", "b.md"]
    checked = exact = 0
    for _ in range(100):
        rows = [row for i in range(rng.randint(1, 12)) for row in _copied_rows(rng, i)]
        blank = ["\r"] if "\r" in ENDS[kind] else ENDS[kind]  # as in _index
        then = "".join(row + rng.choice(ENDS[kind] if row else blank) for row in rows)
        pruned, removed = prune_index(then, "uv.md", files=files)
        now = _edited(rng, pruned, ENDS[kind])
        if not removed or not now.strip():
            continue  # nothing to put back, or no index to keep lines of
        lines = "".join(line + "\n" for line in removed)

        merged = merge_index_bytes(now.encode(), lines, {}, places=then)

        got = now if merged.data is None else merged.data.decode()
        assert _kept_in_order(now, got, removed), (then, now, got)
        back = line_texts(got)
        put = [back[at].strip() for at in merged.merge.put or []]
        assert _a_subsequence(put, [line.strip() for line in merged.merge.added]), (then, now, got)
        assert Counter(_shown(got)) == Counter(_shown(now)) + Counter(_shown(then)) - Counter(
            _shown(pruned)
        ), (then, now, got)  # each line put back shown, in no comment or fence; none hidden
        if now == pruned:  # the index as the delete left it: given back byte for byte
            assert got == then, (then, got)
            exact += 1
        checked += 1
    assert checked > 40 and exact > 20


@pytest.mark.parametrize(
    "then",
    [
        f"{U}\n- [A](a.md) a\r\n- [A](a.md) a\n<!--\n{U}\n-->\n",
        f"{U}\n<!--\r\n{U}\r\n-->\r\n{U}\n",
    ],
    ids=["kept-lines-before-a-commented-copy", "a-commented-copy-of-its-own"],
)
def test_v2_a_line_put_back_is_never_taken_for_its_commented_copy(then: str) -> None:
    """The line put back has a copy the delete kept (commented out, linking nothing): the
    lines kept before that copy, and the copy itself, keep their ends."""
    pruned, removed = prune_index(then, "uv.md")
    assert removed == [U] * (then.count(U) - 1)  # all but the commented copy

    merged = merge_index_bytes(pruned.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    assert merged.data is not None and _kept_in_order(pruned, merged.data.decode())
    assert merged.data.decode().startswith(U + "\n")


def test_v2_a_joined_line_given_its_entry_back_keeps_its_own_end() -> None:
    """The line the undo rewrites in place (a joined line given its entry back) is a line the
    user kept: it keeps the end it has now, though most lines end otherwise since the delete
    (was: it took the most common end, LF)."""
    then = "- [B](b.md)\u2028- [A](a.md) <!-- old:\r\n- [Old](old.md)\r\n-->\r\n- [C](c.md) c\r\n"
    pruned, removed = prune_index(then, "a.md")
    assert pruned == "- [B](b.md)\u2028<!-- old:\r\n- [Old](old.md)\r\n-->\r\n- [C](c.md) c\r\n"
    now = "- [B](b.md)\u2028<!-- old:\r\n- [Old](old.md)\n-->\n- [C](c.md) c\n"  # the rest LF

    merged = merge_index_bytes(now.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    back = "- [B](b.md)\u2028- [A](a.md) <!-- old:\r\n- [Old](old.md)\n-->\n- [C](c.md) c\n"
    assert merged.data == back.encode()


class _Counted(str):
    """A line whose comparisons and hashes are counted: the work a merge does, never its time."""

    __slots__ = ()
    work = 0
    budget = 0

    def __eq__(self, other: object) -> bool:
        _Counted.work += 1
        assert _Counted.work <= _Counted.budget, "more than linear work"
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        _Counted.work += 1
        return str.__hash__(self)


def test_v2_the_ends_of_20000_joined_lines_rewritten_in_place_take_linear_work() -> None:
    """Each of 20,000 joined lines given its entry back is rewritten in place: which held line
    each row is takes a few comparisons per line (was: each rewritten row scanned every held
    line after it, 200 million comparisons)."""
    count = 20_000
    own = [(_Counted(f"- [B{i}](b.md)\u2028<!-- old:"), "\r\n") for i in range(count)]
    rows = [_Counted(f"- [B{i}](b.md)\u2028- [A{i}](a.md) <!-- old:") for i in range(count)]
    _Counted.work, _Counted.budget = 0, 10 * count

    ends = _held_ends(own, rows, [])

    assert ends == ["\r\n"] * count


def _steps(then: str, now: str, lines: str) -> int:
    """How many lines of ``memory_core`` the undo's merge of ``lines`` into ``now`` (each
    where it stood in ``then``) runs (a trace's line events, loops' turns included): the work
    it does, never its time."""
    steps = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal steps
        steps += event == "line"
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename.startswith(_CORE) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        merge_index_bytes(now.encode(), lines, {}, places=then)
    finally:
        sys.settrace(previous)
    return steps


_CORE = str(Path(memory_core.__file__).parent)


def _wrapped_in_a_comment_since(count: int) -> tuple[str, str, str]:
    """An index whose ``count`` lines to ``a.md`` the delete took, wrapped in ``<!-- … -->``
    since: the version, the index now, the lines to put back."""
    then = "".join(f"- [K{i}](k{i}.md) k\n- [A{i}](a.md) a\n" for i in range(count))
    pruned, removed = prune_index(then, "a.md")
    return then, f"<!--\n{pruned}-->\n", "".join(line + "\n" for line in removed)


def _each_opening_a_comment(count: int) -> tuple[str, str, str]:
    """An index each of whose ``count`` lines to ``uv.md`` opens a comment across lines (the
    delete kept its ``<!-- c``): the version, the index now, the lines to put back."""
    then = "".join(
        f"- [K{i}](k.md) k\n- [U{i}](uv.md) u <!-- c\nold {i}\n-->\n" for i in range(count)
    )
    pruned, removed = prune_index(then, "uv.md")
    return then, pruned, "".join(line + "\n" for line in removed)


@pytest.mark.parametrize("shape", [_wrapped_in_a_comment_since, _each_opening_a_comment])
def test_v2_an_undo_twice_as_long_takes_twice_the_work(
    shape: Callable[[int], tuple[str, str, str]],
) -> None:
    """Putting back twice the lines takes twice the work, when the index was wrapped in a
    comment since the delete (each line moves out of it) or each line put back opens a comment
    the delete kept the ``<!--`` of (was: the comments read again for each line moved, or every
    line put back looked at for each: 4 times the work at twice the lines)."""
    work = []
    for count in (300, 600):
        work.append(_steps(*shape(count)))

    assert work[1] <= 2.05 * work[0]


def test_v2_lines_moved_out_of_a_comment_wrapped_around_them_since_keep_their_order() -> None:
    """The index wrapped in ``<!-- … -->`` since the delete: the lines put back, which would be
    hidden in it, come after it in the order they had (was: last first)."""
    then, now, lines = _wrapped_in_a_comment_since(3)

    merged = merge_index_bytes(now.encode(), lines, {}, places=then)

    assert merged.data is not None
    assert merged.data.decode() == now + lines


@pytest.mark.parametrize(
    "then",
    [
        "- [A](a.md) x\n\n- [U](uv.md) u",
        "- [A](a.md) x\r\n\r\n- [U](uv.md) u",
        "- [A](a.md) x\r\n\n- [U](uv.md) u",
        "# T\n\n- [U](uv.md) u",
        "- [A](a.md) x\n\n\n- [U](uv.md) u",
        "- [A](a.md) x\n\n- [U](uv.md) u\n- [V](uv.md#why) v",
        "<details>\n- [B](b.md) b\n</details>\n\n- [U](uv.md) u",
        "# T\n\n<div>\nx\n</div>\n\n- [U](uv.md) u",
        "<div>\r\nx\r\n</div>\r\n\r\n- [U](uv.md) u\r\n- [V](uv.md#why) v",
        "- [A](a.md) a\n- [U1](uv.md) u\n- [B](b.md) b\n\n- [U](uv.md) u",
        "- [U1](uv.md) u\n- [A](a.md) a\n\n- [U](uv.md) u",
    ],
    ids=[
        "lf",
        "crlf",
        "mixed",
        "after-a-title",
        "two-blank-lines",
        "two-lines-taken",
        "after-an-html-block",
        "after-an-html-block-under-a-title",
        "two-after-an-html-block-crlf",
        "one-higher-up-too",
        "the-first-line-too",
    ],
)
def test_v2_the_last_lines_without_an_end_after_a_blank_line_come_back_with_it(
    then: str,
) -> None:
    """A delete of the index's last lines, the last without a line end, after a blank line
    leaves the blank line without an end, which is no line (``A\\n\\nU`` pruned to ``A\\n``):
    its undo puts the blank line back with them, byte for byte (was ``A\\nU``); after an HTML
    block (``<details>``, ``<div>``) too, which that blank line ends: the lines come back after
    it, never above the block (was ``U\\n<details>…``)."""
    pruned, removed = prune_index(then, "uv.md")

    merged = merge_index_bytes(
        pruned.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == then.encode()
