"""V-2: a restore puts an index line back where it stood in the version it comes from — after
the same neighbour line, with the blank lines that stood between them — in the index's own form
(CRLF, CR alone, UTF-16), every line written since kept where it is. Lines merged from elsewhere
(an import: no version to place them by) still go at the end."""

from __future__ import annotations

import pytest
from memory_core.decoding import decode_exact
from memory_core.index import prune_index
from memory_core.index_merge import merge_index
from memory_core.index_rewrite import merge_index_bytes
from memory_core.markdown import code_lines

THEN = (
    "# User memory\n"
    "\n"
    "- [A](a.md) — a\n"
    "- [B](b.md) — b\n"
    "- [C](c.md) — c\n"
    "\n"
    "## Reference\n"
    "\n"
    "- [D](d.md) — d\n"
)


def undone(then: str, name: str, now: str) -> bytes | None:
    """The bytes of the index ``now`` once the lines a delete of ``name`` took from ``then``
    are put back (the undo of that delete, ``then`` its version's index)."""
    removed = prune_index(then, name)[1]
    lines = "".join(line + "\n" for line in removed)
    return merge_index_bytes(now.encode(), lines, {}, places=then).data


def without(text: str, line: str) -> str:
    return text.replace(line + "\n", "", 1)


@pytest.mark.parametrize("line", [row for row in THEN.splitlines() if row.startswith("- ")])
def test_v2_each_line_goes_back_to_its_own_place(line: str) -> None:
    merged = merge_index(without(THEN, line), line + "\n", {}, places=THEN)

    assert merged.text == THEN
    assert merged.added == [line]


def test_v2_a_line_whose_neighbour_above_is_gone_goes_after_the_nearest_one_left() -> None:
    now = without(THEN, "- [B](b.md) — b").replace("- [A](a.md) — a\n", "")

    merged = merge_index(now, "- [B](b.md) — b\n", {}, places=THEN)

    assert merged.text == THEN.replace("- [A](a.md) — a\n", "")


def test_v2_a_line_with_no_neighbour_above_left_goes_before_the_one_below() -> None:
    now = "- [C](c.md) — c\n- [Z](z.md)\n"

    merged = merge_index(now, "- [B](b.md) — b\n", {}, places=THEN)

    assert merged.text == "- [B](b.md) — b\n- [C](c.md) — c\n- [Z](z.md)\n"


def test_v2_a_line_none_of_whose_neighbours_is_left_goes_at_the_end() -> None:
    now = "# Rewritten\n- [X](x.md)\n"

    assert merge_index(now, "- [B](b.md) — b\n", {}, places=THEN).text == now + "- [B](b.md) — b\n"


def test_v2_lines_written_since_keep_their_place() -> None:
    now = without(THEN, "- [B](b.md) — b").replace("- [C]", "- [New](new.md)\n- [C]")

    merged = merge_index(now, "- [B](b.md) — b\n", {}, places=THEN)

    assert merged.text == THEN.replace("- [C]", "- [New](new.md)\n- [C]")


def test_v2_without_the_version_lines_are_added_at_the_end_as_an_import_adds_them() -> None:
    now = without(THEN, "- [B](b.md) — b")

    assert merge_index(now, "- [B](b.md) — b\n", {}).text == now + "- [B](b.md) — b\n"


@pytest.mark.parametrize(
    ("codec", "end"),
    [("utf-8", "\r\n"), ("utf-8", "\r"), ("utf-16", "\n"), ("cp1252", "\r\n")],
)
def test_v2_the_index_keeps_its_form_with_the_line_put_back(codec: str, end: str) -> None:
    then = THEN.replace("\n", end)
    now = then.replace("- [B](b.md) — b" + end, "", 1)

    merged = merge_index_bytes(now.encode(codec), "- [B](b.md) — b\n", {}, places=then)

    assert merged.data == then.encode(codec)


def test_v2_a_run_of_lines_lost_together_comes_back_together_in_order() -> None:
    then = "".join(f"- [Note {n}](note-{n}.md) — note {n}\n" for n in range(2000))
    kept = then.splitlines(keepends=True)
    now = "".join(kept[:500] + kept[1500:1501] + kept[1999:])  # most of it lost since

    merged = merge_index(now, then, {}, places=then)

    assert merged.text == then
    assert len(merged.added) == 2000 - 502


def test_v2_every_line_a_delete_took_for_one_file_comes_back() -> None:
    """A delete prunes every line linking the file; its undo puts every one of them back, not
    only the first (the second is not "already indexed" by a line the same restore adds)."""
    then = "- [Café](cafe.md) — x\n- [Other](other.md) — y\n- [Again](cafe.md#rollback) — z\n"
    pruned = "- [Other](other.md) — y\n"
    taken = "- [Café](cafe.md) — x\n- [Again](cafe.md#rollback) — z\n"

    merged = merge_index(pruned, taken, {}, places=then)

    assert merged.text == then
    assert merged.added == ["- [Café](cafe.md) — x", "- [Again](cafe.md#rollback) — z"]


def test_v2_a_line_another_line_still_indexes_stays_out() -> None:
    """A line whose file a line the index holds now links is not put back (the agent indexed
    it again since): only the index as it is now counts, not the restore's own lines."""
    then = "- [Café](cafe.md) — x\n- [Other](other.md) — y\n"
    now = "- [Other](other.md) — y\n- [Cafe, rewritten](cafe.md) — new\n"

    merged = merge_index(now, "- [Café](cafe.md) — x\n", {}, places=then)

    assert merged.text == now
    assert merged.skipped == [("- [Café](cafe.md) — x", "already indexed")]


@pytest.mark.parametrize(
    ("then", "pruned"),
    [
        (b"- [A](a.md) x\r\n- [B](b.md) y\n- [C](c.md) z\r", b"- [B](b.md) y\n- [C](c.md) z\r"),
        (b"- [B](b.md) y\n- [A](a.md) x\r- [C](c.md) z\r\n", b"- [B](b.md) y\n- [C](c.md) z\r\n"),
        (b"- [B](b.md) y\r- [C](c.md) z\n- [A](a.md) x\r", b"- [B](b.md) y\r- [C](c.md) z\n"),
    ],
    ids=["crlf-first", "cr-middle", "cr-last"],
)
def test_v2_an_index_of_mixed_line_ends_takes_its_line_back_with_its_own_end(
    then: bytes, pruned: bytes
) -> None:
    """A delete prunes an index whose lines end in CR alone beside LF (or CRLF); its undo puts
    the line back with the end it had there, every other byte as it is (was: refused, the
    line listed to add by hand)."""
    merged = merge_index_bytes(pruned, "- [A](a.md) x\n", {}, places=then.decode())

    assert merged.data == then
    assert merged.merge.added == ["- [A](a.md) x"]


@pytest.mark.parametrize(
    "then",
    [
        b"- [B](b.md) y\r\n- [A](a.md) x",
        b"- [B](b.md) y\r- [A](a.md) x",
        b"- [B](b.md) y\n- [A](a.md) x",
        "- [B](b.md) y\r\n- [A](a.md) x".encode("utf-16"),
    ],
    ids=["crlf", "cr-alone", "lf", "utf-16-crlf"],
)
def test_v2_the_last_line_without_an_end_comes_back_as_it_was(then: bytes) -> None:
    """A delete of an index's last line, which had no line end, leaves the line before it
    without one (no line end is left to tell the index's); its undo takes the ends the lines
    had in the version (was: LF after each, a CRLF or CR index turned LF)."""
    codec = "utf-16" if then.startswith(b"\xff\xfe") else "utf-8"
    text = then.decode(codec)
    pruned = text[: text.index("- [A]")].rstrip("\r\n").encode(codec)

    merged = merge_index_bytes(pruned, "- [A](a.md) x\n", {}, places=text)

    assert merged.data == then


UV = "- [U](uv.md) u"


@pytest.mark.parametrize(
    "then",
    [
        f"```\n{UV}\n```\n- [A](a.md)\n{UV}\n- [B](b.md)\n",
        f"<!--\n{UV}\n-->\n- [A](a.md)\n{UV}\n- [B](b.md)\n",
        f"- [A](a.md)\n{UV}\n- [B](b.md)\n- [A](a.md)\n{UV}\n- [C](c.md)\n",
        f"- [A](a.md)\n```\n- [A](a.md)\n```\n{UV}\n",
        f"- [A](a.md)\n{UV} <!-- note\nhidden\n-->\n- [B](b.md)\n",
        f"- [A](a.md)\r\n{UV} <!-- x\n\r\n\nhidden\r\n-->\n- [B](b.md)\r\n",
        f"<!-- x\nhidden\n--> {UV}\r\n\n\r\n- [B](b.md)\n\r\n",
        "- [R][r]\n\n[r]: uv.md\nnote\u2028more\u2029x\nsee uv.md\n",
    ],
    ids=[
        "fenced-copy-before-it",
        "commented-copy-before-it",
        "the-same-line-twice",
        "a-fence-closing-above-it",
        "it-opens-a-comment",
        "blank-lines-after-the-comment-it-opens",
        "blank-lines-after-the-comment-it-closes",
        "a-definition-a-blank-line-below-u2028-u2029-in-a-line",
    ],
)
def test_v2_each_line_comes_back_to_its_own_copy_among_repeats_comments_and_fences(
    then: str,
) -> None:
    """The undo of a delete gives the index back byte for byte where it holds copies of the
    line (a fenced or commented-out one: not the line; the line twice: both come back), a
    repeated neighbour (a fence's closing ```` ``` ```` is not its opening one), a line that
    opens or closes a comment (its kept ``<!--``/``-->`` gives way to it, the blank lines
    after keep their ends) or U+2028/U+2029 inside a line. Was: nothing put back (the fenced
    copy taken for it), one of two, a line put back inside the fence, after the comment or
    next to a stray ``<!--`` (the rest of the index hidden), blank lines given other ends."""
    pruned, removed = prune_index(then, "uv.md")
    assert removed

    merged = merge_index_bytes(pruned.encode(), "".join(r + "\n" for r in removed), {}, places=then)

    assert merged.data == then.encode()


@pytest.mark.parametrize(
    ("closing", "back"),
    [
        ("````", "# I\n```\ncode\n````\n- [A](a.md) a\n- [K](k.md) k\n"),
        ("~~~", "# I\n- [A](a.md) a\n```\ncode\n~~~\n- [K](k.md) k\n"),
    ],
    ids=["closes-it-still", "closes-it-no-more"],
)
def test_v2_a_line_put_back_never_lands_in_a_fence_whose_closing_line_was_edited(
    closing: str, back: str
) -> None:
    """The line after a code fence, deleted, then the fence's closing line edited: the undo
    puts the line back where it is shown, never as code: just after the line that closes the
    fence now, or before the fence when nothing closes it (was: after the fence's last line
    of code, inside it, because its closing line there is no longer the index's)."""
    then = "# I\n```\ncode\n```\n- [A](a.md) a\n- [K](k.md) k\n"
    pruned, removed = prune_index(then, "a.md")
    now = pruned.replace("```\n- [K]", f"{closing}\n- [K]")

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == back.encode()


def test_v2_a_line_put_back_whose_text_the_version_also_held_in_a_fence_leaves_the_fence() -> None:
    """Whether a line put back was code in the version is read from the row it came from
    there, never from its text: the version shows ``- [A](a.md) a`` after a fence that holds
    the same text as code; the delete of ``a.md`` takes the shown line and the one after it;
    the fence's closing line is edited so that nothing closes it. Both lines go back before
    the fence, in their order (was: ``A`` left inside the fence as code, after ``A2``)."""
    then = "# I\n```md\n- [A](a.md) a\n```\n- [A](a.md) a\n- [A2](a.md) second\n- [K](k.md) k\n"
    pruned, removed = prune_index(then, "a.md")
    assert removed == ["- [A](a.md) a", "- [A2](a.md) second"]
    now = pruned.replace("```\n- [K]", "~~~\n- [K]")

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == (
        b"# I\n- [A](a.md) a\n- [A2](a.md) second\n```md\n- [A](a.md) a\n~~~\n- [K](k.md) k\n"
    )


def test_v2_a_line_put_back_never_hides_a_line_both_versions_show() -> None:
    """Restoring an index whose comment across lines opens on a line put back and closes on
    another (``- [C](c.md) c <!-- note -->``): the index's own ``- [A](a.md) a``, shown
    before, lands inside that comment; the line put back that the comment hides goes after
    the line that closes it, which stays in its place, so one ``- [A](a.md) a`` is shown, as
    the version shows one (was: none; the comments were read without the closing line)."""
    then = "  - [A](a.md) a\n<!-- <!-- nested\n- [A](a.md) a\n- [C](c.md) c <!-- note -->\n~~~ md\n"
    now = "- [A](a.md) a\n<!-- c\n~~~ md\n"

    merged = merge_index_bytes(now.encode(), then, {}, places=then)

    assert merged.data == (
        b"<!-- <!-- nested\n- [A](a.md) a\n- [C](c.md) c <!-- note -->\n- [A](a.md) a\n"
        b"<!-- c\n~~~ md\n"
    )


def test_v2_lines_lost_together_before_a_line_opening_a_comment_come_back_before_it() -> None:
    """The delete took three lines in a row, the last opening a comment across lines (its
    ``<!-- old:`` kept); the user then wrote a line of their own at the comment's top. The undo
    puts the last line back in place of the ``<!-- old:`` it kept and the two lines before it
    just before it, in their order (was: after the comment, behind the line that stood after
    them: found by the kept-lines fuzz with its put-back lines checked for order)."""
    then = "- [L0](uv.md) 0\n- [L1](uv.md) 1\n- [K2](uv.md) <!-- old:\n- [U](u.md) u\n-->\n"
    pruned, removed = prune_index(then, "uv.md")
    assert pruned == "<!-- old:\n- [U](u.md) u\n-->\n"
    now = pruned.replace("<!-- old:\n", "<!-- old:\n- [M](m.md) mine\n")

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == then.replace("<!-- old:\n", "<!-- old:\n- [M](m.md) mine\n").encode()


@pytest.mark.parametrize("indent", ["    ", "\t", "  \t"])
def test_v2_a_line_put_back_never_splits_an_indented_code_block_grown_since(indent: str) -> None:
    """The line after an indented code block (four spaces or a tab, after a blank line: code
    in CommonMark), deleted, then a line of code added to the block: the undo puts the line
    back just after the block's last line, as it does after a fence, never between its lines,
    where it would cut the block in two and take the code after it into its own entry (was:
    right after its old neighbour, ``make deploy``)."""
    then = f"# Tools\n\nDeploy with:\n\n{indent}make deploy\n- [B](b.md) b\n- [K](k.md) k\n"
    pruned, removed = prune_index(then, "b.md")
    grown = f"{indent}make deploy\n\n{indent}make verify\n"
    now = pruned.replace(f"{indent}make deploy\n", grown)

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == now.replace("- [K]", "- [B](b.md) b\n- [K]").encode()


@pytest.mark.parametrize(
    "head",
    ["<!-- tools -->\n", "<pre>x</pre>\n", "Tools\n=====\n", "[r]: r.md\n", "[r]: <r.md> 'R'\n"],
)
def test_v2_a_line_put_back_never_splits_code_after_a_one_line_html_block_or_heading(
    head: str,
) -> None:
    """Indented lines right after a one-line HTML block, a setext heading or a link reference
    definition are code (nothing goes on there): a line put back after that code, grown since,
    goes after its last line, never between its lines (was: between them, its entry taking
    ``make verify`` in; after a definition, read as a paragraph going on, until now)."""
    then = f"{head}    make deploy\n- [B](b.md) b\n- [K](k.md) k\n"
    pruned, removed = prune_index(then, "b.md")
    now = pruned.replace("    make deploy\n", "    make deploy\n    make verify\n")

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == now.replace("- [K]", "- [B](b.md) b\n- [K]").encode()


def test_v2_a_line_put_back_among_a_list_items_indented_lines_stays_in_its_place() -> None:
    """Four-space lines continuing a list item are the item's own (a nested list), never code
    (CommonMark), though a blank line stands before them now: the line put back among them
    stays where it stood, between its neighbours."""
    then = "- [T](t.md) tools\n    - [A](a.md) a\n    - [B](b.md) b\n    - [C](c.md) c\n"
    pruned, removed = prune_index(then, "b.md")
    now = pruned.replace("tools\n", "tools\n\n")

    merged = merge_index_bytes(
        now.encode(), "".join(line + "\n" for line in removed), {}, places=then
    )

    assert merged.data == then.replace("tools\n", "tools\n\n").encode()


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        (["# T", "", "    code", "", "    more", "", "- [A](a.md)"], [0, 0, 1, 1, 1, 0, 0]),
        (["# T", "", "\tcode", "  \tcode", "text"], [0, 0, 1, 1, 0]),
        (["prose", "    continued", "", "    code"], [0, 0, 0, 1]),
        (["- [T](t.md)", "", "    - [A](a.md)", "", "      more of A", "        code"], [0] * 6),
        (["- [T](t.md)", "", "      code in T", "x", "", "    code"], [0, 0, 1, 0, 0, 1]),
        (["1. [T](t.md)", "", "   more of T", "", "       code in T"], [0, 0, 0, 0, 1]),
        (["<!--", "", "    old", "-->", "", "    code"], [0, 0, 0, 0, 0, 1]),
        (["- [N](n.md)", "---", "    code"], [0, 0, 1]),
        (["```", "    x", "```", "", "    y"], [1, 1, 1, 0, 1]),
        (["<!-- tools -->", "    make", "- [B](b.md)"], [0, 1, 0]),
        (["<pre>x</pre>", "    make"], [0, 1]),
        (["<pre>", "", "    x", "</pre>", "    make"], [0, 0, 0, 0, 1]),
        (["<!-->", "    make"], [0, 1]),
        (["<?php", "    x", "?>", "    make"], [0, 0, 0, 1]),
        (["Tools", "=====", "    make"], [0, 0, 1]),
        (["Tools", "--", "    make"], [0, 0, 1]),
        (["- Tools", "  ==", "      make"], [0, 0, 1]),
        (["- Tools", "===", "      make"], [0, 0, 0]),
        (["- Tools", "-", "  - [A](a.md)", "", "      make"], [0, 0, 0, 0, 0]),
        (["1. x", "1. x", "    code", "```", "```", "    code"], [0, 0, 0, 1, 1, 1]),
        (["- x", "  ```", "  y", "  ```", "      code"], [0, 1, 1, 1, 1]),
        (["<!--", "```", "- [A](a.md)", "-->", "    code"], [0, 0, 0, 0, 1]),
        (["- x", "  ```", "y", "", "    code"], [0, 1, 0, 0, 1]),
        (["- x", "  <!--", "y", "", "    code"], [0, 0, 0, 0, 1]),
        (["Tools", "2. x", "", "    make"], [0, 0, 0, 1]),
        (["Tools", "-", "    make"], [0, 0, 1]),
        (["[r]: r.md", "    make", "[s]: s.md", "[t]: <t.md> 'T'", "\tmake"], [0, 1, 0, 0, 1]),
        (["Tools", "[r]: r.md", "    make"], [0, 0, 0]),
        (["[r]:", "    r.md"], [0, 0]),
        (["- [r]: r.md", "    make"], [0, 0]),
        (["[r]: r.md 'R' more", "    make"], [0, 0]),
        (["-     make", "", "      more", "  text", "- [A](a.md)"], [1, 1, 1, 0, 0]),
        (["Tools", "1.     make", "       more", "more"], [0, 1, 1, 0]),
    ],
    ids=[
        "blank-inside",
        "tabs",
        "no-paragraph-cut",
        "list",
        "in-item",
        "ordered",
        "comment",
        "a-rule-ends-the-list",
        "fence",
        "after-a-one-line-comment",
        "after-a-one-line-pre",
        "pre-with-a-blank-line",
        "after-an-empty-comment",
        "after-a-processing-instruction",
        "after-a-setext-heading",
        "after-a-setext-heading-2",
        "after-a-setext-heading-in-an-item",
        "lazy-underline-is-text",
        "an-outdented-dash-is-an-item",
        "a-fence-ends-the-list",
        "fence-in-an-item",
        "fence-marker-in-a-comment",
        "a-fence-ends-with-its-item",
        "a-comment-ends-with-its-item",
        "an-item-numbered-2-goes-on-a-paragraph",
        "an-empty-item-under-a-line-is-an-underline",
        "after-link-reference-definitions",
        "a-definition-goes-on-a-paragraph",
        "a-definition-across-lines",
        "a-definition-in-an-item",
        "no-definition-text-after-its-title",
        "an-item-opening-with-code",
        "an-item-opening-with-code-after-a-paragraph",
    ],
)
def test_v2_which_lines_are_code(lines: list[str], code: list[int]) -> None:
    """Code as CommonMark reads it: fenced, or indented four columns past the list item that
    holds it (a tab to the next multiple of four), not continuing a paragraph; blank lines
    between lines of one indented block are in it; an HTML comment's lines are none; a rule
    (``---``) ends a list, never continues its item (was: the line after it read as the
    item's). An HTML block of one line (``<!-- x -->``, ``<pre>x</pre>``), the end of one
    (``-->``, ``</pre>``, ``?>``, blank lines inside it none) or a setext heading's underline
    (``===``, ``--`` under a line, not a lazy one) or a link reference definition whole on
    its line (``[r]: r.md``, not in a paragraph) ends what goes on, so an indented line
    after it is code; a list item opening with code (``-     make``) holds code indented four
    columns past its content; a fence less indented than a list item ends the item, a line less
    indented than the item holding a fence or comment ends both; an item numbered other than
    1, or empty, does not end a paragraph; a fence marker in an HTML comment opens nothing
    (was: all read as a paragraph going on or a fence open; each case as markdown-it-py 4.3
    and commonmark.js 0.31 read it: for the one form they read apart, see the test below)."""
    assert code_lines(lines) == [bool(flag) for flag in code]


@pytest.mark.parametrize("start", ["# x", "```", "---", "<!-- c -->"])
def test_v2_a_block_start_short_of_an_items_content_past_column_four_is_a_lazy_line(
    start: str,
) -> None:
    """Under a list item whose content starts at column five (``1.   [T](t.md)``), a line
    that would start a block indented four columns, less than that content, goes on the
    item's paragraph (a lazy line: no code), as commonmark.js 0.31 reads it; markdown-it-py
    4.3 reads it otherwise (the item ended, the line indented code: see ``code_lines``)."""
    assert code_lines(["1.   [T](t.md)", f"    {start}"]) == [False, False]


@pytest.mark.parametrize(
    ("then", "now", "put_back"),
    [
        (
            "> - [A](a.md) a\n- [U](uv.md) u\n- [B](b.md) b\n",
            "> - [A](a.md) a\n>     more\n- [B](b.md) b\n",
            "> - [A](a.md) a\n>     more\n- [U](uv.md) u\n- [B](b.md) b\n",
        ),
        (
            "# Notes\n\n> Keep it short.\n- [U](uv.md) u\n",
            "# Notes\n\n> Keep it short.\n>\n>     make test\n",
            "# Notes\n\n> Keep it short.\n>\n>     make test\n- [U](uv.md) u\n",
        ),
    ],
    ids=["a-quoted-list-grown-since", "quoted-code-added-since"],
)
def test_v2_a_line_put_back_never_splits_a_block_quote(then: str, now: str, put_back: str) -> None:
    """A line put back after its old neighbour, a block quote's line, when the quote has grown
    by lines since (``>``): it goes after the quote's last line, never between two of its lines,
    where it would end the quote and read the rest as another (its ``>     code`` as code)."""
    assert prune_index(then, "uv.md")[0].startswith(now.split("\n", 1)[0])

    assert undone(then, "uv.md", now) == put_back.encode()


@pytest.mark.parametrize(
    ("now", "put_back"),
    [
        (
            "<details>\n- [A](a.md) a\n</details>\n\n- [B](b.md) b\n",
            "<details>\n- [A](a.md) a\n</details>\n\n- [U](uv.md) u\n- [B](b.md) b\n",
        ),
        (
            "<DIV class='x'>\n- [A](a.md) a\n\n- [B](b.md) b\n",
            "<DIV class='x'>\n- [A](a.md) a\n\n- [U](uv.md) u\n- [B](b.md) b\n",
        ),
        ("<div>\n- [A](a.md) a\n", "- [U](uv.md) u\n<div>\n- [A](a.md) a\n"),
    ],
    ids=["details-closed", "div-open-to-a-blank-line", "div-to-the-end"],
)
def test_v2_a_line_put_back_never_lands_in_an_html_block(now: str, put_back: str) -> None:
    """A line put back after its old neighbour, now in an HTML block that ends at a blank line
    (``<details>``, ``<div>``: its lines are raw HTML, an entry there links nothing): it goes
    after the blank line ending the block, or before the block when none ends it (was: right
    after its neighbour, shown as raw text inside the block)."""
    then = "- [A](a.md) a\n- [U](uv.md) u\n- [B](b.md) b\n"
    assert undone(then, "uv.md", now) == put_back.encode()


def test_v2_a_line_put_back_never_splits_the_code_a_list_item_opens_with() -> None:
    """A list item whose first line is code (``-     make deploy``: five spaces after the
    marker), grown by a line of code since: the line put back after it goes after that code,
    never between its lines (was: between them, the item's code cut in two)."""
    then = "-     make deploy\n- [U](uv.md) u\n- [B](b.md) b\n"
    now = prune_index(then, "uv.md")[0].replace("deploy\n", "deploy\n      make verify\n")

    assert undone(then, "uv.md", now) == now.replace("- [B]", "- [U](uv.md) u\n- [B]").encode()


def test_v2_a_cp1252_line_holding_an_undefined_byte_goes_back_into_an_index_now_all_ascii() -> None:
    """T-2, A-6: the delete took the one line of a Windows-1252 index that was not ASCII, and it
    held a byte cp1252 does not define (read as U+0081): the undo writes it back byte for byte,
    in cp1252 as the version had it, never refused as a character cp1252 cannot hold."""
    then = b"# Memory\n- [\x8a\xe1rka](\x9a\xe1rka.md) \x96 Czech \x81\n- [A](a.md) a\n"
    exact = decode_exact(then)
    assert exact is not None and exact.codec == "cp1252"
    now = b"# Memory\n- [A](a.md) a\n"
    gone = exact.text.splitlines(keepends=True)[1]
    merged = merge_index_bytes(now, gone, {}, places=exact.text, codec=exact.codec)
    assert merged.data == then
