"""T-4, T-5, A-6: index entries joined by a character other tools take for a line break.

Memory ends a line at LF, CRLF or CR only (``memory_core.markdown.line_texts``). An index
whose entries were joined by U+2028, U+2029, NEL, a form feed, a vertical tab or U+001C–U+001E
looks like an entry a line in an editor or to a model (``str.splitlines`` splits there), and
was one line to Memory with no word of it: lint said nothing, and deleting one topic file
pruned the whole joined line, every entry on it. Right: lint warns (``joined-index-line``,
naming the line and the character, with the fix), and a delete removes only the entries of
such a line that link the deleted file, with the character that joined each.
"""

from __future__ import annotations

import pytest
from memory_core.index import index_lines_linking, prune_index
from memory_core.index_merge import merge_index
from memory_core.lint import SEVERITIES, lint_index
from memory_core.markdown import blank_comment_lines, line_texts

SOFT_BREAKS = {
    "\u2028": "U+2028 LINE SEPARATOR",
    "\u2029": "U+2029 PARAGRAPH SEPARATOR",
    "\x85": "U+0085 NEXT LINE (NEL)",
    "\x0c": "U+000C FORM FEED",
    "\x0b": "U+000B LINE TABULATION (vertical tab)",
    "\x1c": "U+001C INFORMATION SEPARATOR FOUR",
    "\x1d": "U+001D INFORMATION SEPARATOR THREE",
    "\x1e": "U+001E INFORMATION SEPARATOR TWO",
}
A, B, C = "- [Uv](uv.md) use uv", "- [Pnpm](pnpm.md) use pnpm", "- [Ruff](ruff.md) lint"
TOPICS = ["uv.md", "pnpm.md", "ruff.md", "deploy.md"]


def test_t4_every_character_str_splitlines_breaks_at_but_lf_and_cr_is_a_soft_break() -> None:
    splits_at = {chr(point) for point in range(0x110000) if len(f"a{chr(point)}b".splitlines()) > 1}
    assert splits_at - {"\n", "\r"} == set(SOFT_BREAKS)


@pytest.mark.parametrize("soft", SOFT_BREAKS, ids=[f"U+{ord(c):04X}" for c in SOFT_BREAKS])
def test_t5_lint_names_the_line_and_the_character_that_joins_entries(soft: str) -> None:
    index = f"# Memory\n{A}{soft}{B}{soft}{C}\n- [Deploy](deploy.md) freeze\n"

    [joined] = [f for f in lint_index(index, TOPICS) if f.code == "joined-index-line"]

    assert (joined.file, joined.line, joined.severity) == ("MEMORY.md", 2, "warning")
    assert joined.message.startswith(f"3 parts of this line are joined by {SOFT_BREAKS[soft]}")
    assert "Memory reads one line" in joined.message
    assert joined.message.endswith(
        f"put each entry on its own line (replace each U+{ord(soft):04X} with a line break, "
        "or with a space inside one entry's text)"
    )
    assert SEVERITIES["joined-index-line"] == "warning"


def test_t5_lint_names_each_character_of_a_line_joined_by_two_kinds() -> None:
    [joined] = [
        f for f in lint_index(f"{A}\u2028{B}\x0c{C}\n", TOPICS) if f.code == "joined-index-line"
    ]
    assert "U+2028 LINE SEPARATOR and U+000C FORM FEED" in joined.message
    assert "replace each U+2028 and U+000C with a line break," in joined.message


@pytest.mark.parametrize(
    "index",
    [
        f"{A}\n{B}\r\n{C}\r",  # LF, CRLF and CR end lines: nothing is joined
        f"{A}\u2028\n{B}\n",  # a soft break at the end of a line joins nothing
        f"\u2029{A}\n",
        "",
    ],
)
def test_t5_lines_that_join_no_text_are_no_finding(index: str) -> None:
    assert [f for f in lint_index(index, TOPICS) if f.code == "joined-index-line"] == []


@pytest.mark.parametrize("soft", SOFT_BREAKS, ids=[f"U+{ord(c):04X}" for c in SOFT_BREAKS])
@pytest.mark.parametrize(
    ("deleted", "kept", "removed"),
    [
        ("uv.md", f"{B}{{soft}}{C}", A),
        ("pnpm.md", f"{A}{{soft}}{C}", B),
        ("ruff.md", f"{A}{{soft}}{B}", C),
    ],
    ids=["first", "middle", "last"],
)
def test_a6_a_delete_removes_only_the_joined_entry_linking_the_file(
    soft: str, deleted: str, kept: str, removed: str
) -> None:
    index = f"# Memory\r\n{A}{soft}{B}{soft}{C}\r\n- [Deploy](deploy.md) freeze\r\n"

    pruned, gone = prune_index(index, deleted)

    assert gone == [removed]
    assert pruned == f"# Memory\r\n{kept.format(soft=soft)}\r\n- [Deploy](deploy.md) freeze\r\n"
    assert index_lines_linking(index, deleted) == [removed]  # what a restore puts back


def test_a6_a_joined_line_every_entry_of_which_links_the_file_goes_whole() -> None:
    index = f"- [Uv](uv.md)\u2028- [Uv, why](uv.md#why)\n{B}\n"
    assert prune_index(index, "uv.md") == (f"{B}\n", ["- [Uv](uv.md)\u2028- [Uv, why](uv.md#why)"])


def test_a6_an_entry_whose_text_runs_on_past_a_soft_break_goes_with_that_text() -> None:
    """A part linking nothing is the text of the entry before it, not an entry of its own:
    it goes with that entry, and stays with the entry kept."""
    index = f"- [Uv](uv.md) use uv\u2028for every project\u2028{B}\u2028more on pnpm\n"
    assert prune_index(index, "uv.md") == (
        f"{B}\u2028more on pnpm\n",
        ["- [Uv](uv.md) use uv\u2028for every project"],
    )
    assert prune_index(index, "pnpm.md") == (
        "- [Uv](uv.md) use uv\u2028for every project\n",
        [f"{B}\u2028more on pnpm"],
    )
    alone = "- [Uv](uv.md) first half\u2028second half\n"
    assert prune_index(alone, "uv.md") == ("", [alone.rstrip("\n")])  # one entry: the line


def test_a6_blank_parts_left_at_the_edge_of_a_joined_line_go_with_the_entry() -> None:
    assert prune_index(f"{A}\u2028\u2028{B}", "uv.md") == (B, [A])
    assert prune_index(f"{A}\u2029 \u2029{B}\u2029\n", "pnpm.md") == (f"{A}\n", [B])


def test_a6_a_joined_entry_using_a_reference_to_the_file_goes_with_its_definition() -> None:
    index = f"{A}\x0c- [Pnpm][p] use pnpm\n\n[p]: pnpm.md\n"
    assert prune_index(index, "pnpm.md") == (f"{A}\n\n", ["- [Pnpm][p] use pnpm", "[p]: pnpm.md"])


def test_a6_a_link_a_soft_break_cuts_in_two_still_takes_its_line_whole() -> None:
    """A link whose text holds the soft break is in no one part: the line goes whole."""
    index = f"- [Uv\u2028notes](uv.md) {B}\n{C}\n"
    assert prune_index(index, "uv.md") == (f"{C}\n", [f"- [Uv\u2028notes](uv.md) {B}"])


COMMENT_PLACEMENTS = [
    (  # the line closes a comment in an entry kept
        "<!-- retired:\n- [Old](old.md) -->{soft}{A}{soft}{B}\n{C}\n",
        "<!-- retired:\n- [Old](old.md) -->{soft}{B}\n{C}\n",
        A,
    ),
    (  # the line opens a comment in an entry kept
        "{A}{soft}{B} <!-- old:\n- [Old](old.md)\n-->\n{C}\n",
        "{B} <!-- old:\n- [Old](old.md)\n-->\n{C}\n",
        A,
    ),
    (  # the line opens a comment in the entry removed: its <!-- part stays in its place
        "{B}{soft}{A} <!-- old:\n- [Old](old.md)\n-->\n{C}\r\n",
        "{B}{soft}<!-- old:\n- [Old](old.md)\n-->\n{C}\r\n",
        A + " <!-- old:",
    ),
    (  # the line closes a comment in the entry removed: its --> stays in its place
        "<!-- old:\n- [Old](old.md)\n--> {A}{soft}{B}\r\n{C}",
        "<!-- old:\n- [Old](old.md)\n-->{soft}{B}\r\n{C}",
        "--> " + A,
    ),
    (  # both: the --> of one entry removed, the <!-- of another
        "<!--\n--> {A}{soft}{B}{soft}- [Uv, why](uv.md#why) <!-- x\n-->\n",
        "<!--\n-->{soft}{B}{soft}<!-- x\n-->\n",
        None,
    ),
]
"""Joined lines that also open or close an HTML comment across lines: ``(index, pruned,
removed)`` for a delete of ``uv.md`` (removed None: the two entries of the last)."""
PLACEMENT_IDS = ["closes-kept", "opens-kept", "opens-removed", "closes-removed", "both-removed"]


@pytest.mark.parametrize("soft", ["\u2028", "\x0c"], ids=["U+2028", "U+000C"])
@pytest.mark.parametrize(("index", "pruned", "removed"), COMMENT_PLACEMENTS, ids=PLACEMENT_IDS)
def test_a6_a_joined_line_running_a_comment_on_keeps_its_other_entries_and_the_comment_ends(
    soft: str, index: str, pruned: str, removed: str | None
) -> None:
    """A joined line that also opens or closes an HTML comment running across lines: a delete
    keeps both what the comment needs (its ``<!--`` / ``-->``, else the comment would end early
    or never open, and the entries it hides would become entries) and the line's entries that
    do not link the file. Only the entries that link it go; the rest is byte for byte."""
    index, pruned = (text.format(soft=soft, A=A, B=B, C=C) for text in (index, pruned))
    gone = [removed] if removed else ["--> " + A, "- [Uv, why](uv.md#why) <!-- x"]

    assert prune_index(index, "uv.md") == (pruned, gone)


def _shown_links(text: str) -> list[str]:
    """The topic files linked outside every HTML comment of ``text``, in order met."""
    shown = "\n".join(blank_comment_lines(line_texts(text)))
    return [name for name in ("uv.md", "old.md", "pnpm.md", "ruff.md") if f"({name}" in shown]


@pytest.mark.parametrize("soft", ["\u2028", "\x0c"], ids=["U+2028", "U+000C"])
@pytest.mark.parametrize(("index", "pruned", "removed"), COMMENT_PLACEMENTS, ids=PLACEMENT_IDS)
def test_v2_a_restore_puts_an_entry_cut_beside_a_comment_back_into_its_joined_line(
    soft: str, index: str, pruned: str, removed: str | None
) -> None:
    """Delete then restore (V-2): the entries a delete cut out of a joined line that opens or
    closes a comment across lines go back into that line, byte for byte, where the index
    still holds it as the delete left it. On a line of its own beside the comment's
    ``<!--`` / ``-->`` an entry landed inside the comment: hidden from the model and lint."""
    index = index.format(soft=soft, A=A, B=B, C=C)
    after_delete, gone = prune_index(index, "uv.md")

    merged = merge_index(after_delete, "".join(line + "\n" for line in gone), {}, places=index)

    assert merged.text == index
    assert merged.added == gone
    assert "uv.md" in _shown_links(merged.text)
    again = merge_index(merged.text, "".join(line + "\n" for line in gone), {}, places=index)
    assert (again.changed, again.added) == (False, [])


@pytest.mark.parametrize("soft", ["\u2028", "\x0c"], ids=["U+2028", "U+000C"])
@pytest.mark.parametrize(("index", "pruned", "removed"), COMMENT_PLACEMENTS, ids=PLACEMENT_IDS)
def test_v2_an_entry_whose_joined_line_changed_meanwhile_comes_back_outside_the_comment(
    soft: str, index: str, pruned: str, removed: str | None
) -> None:
    """The joined line was edited after the delete, so the entry cannot go back into it: it
    comes back on a line of its own that no comment hides, and the comment still hides what
    it hid (``old.md`` stays retired); every other line stays as it was."""
    index = index.format(soft=soft, A=A, B=B, C=C)
    after_delete, gone = prune_index(index, "uv.md")
    edited = after_delete.replace("use pnpm", "use pnpm 9")

    merged = merge_index(edited, "".join(line + "\n" for line in gone), {}, places=index)

    assert merged.changed
    assert "uv.md" not in _shown_links(edited)
    assert sorted(_shown_links(merged.text)) == sorted(_shown_links(index))  # old.md hidden
    assert [row for row in line_texts(edited) if row.strip()] == [
        row for row in line_texts(merged.text) if row in line_texts(edited) and row.strip()
    ]
