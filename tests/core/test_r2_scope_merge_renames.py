"""R-2: a file one side renamed (as git's rename detection finds it) and the other side changed
merges into one file under the new name, its index lines following it; never two files said
nothing of."""

from __future__ import annotations

import pytest
from memory_core import scope_merge
from memory_core.scope_merge import ScopeMerge, blob_id, merge_scopes

Copy = dict[str, bytes]
INDEX = "MEMORY.md"
BASE = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text\n"}
RENAMED = {INDEX: b"- [A](b.md) about a\n", "b.md": b"a text\n"}


def _merge(
    base: Copy,
    first: Copy,
    second: Copy,
    renamed: tuple[dict[str, str], dict[str, str]],
    sub_folder_notes: tuple[str, ...] = (),
) -> tuple[Copy, ScopeMerge]:
    texts = {blob_id(data): data for copy in (base, first, second) for data in copy.values()}

    def ids(copy: Copy) -> dict[str, str]:
        return {name: blob_id(data) for name, data in copy.items()}

    merged = merge_scopes(
        ids(base),
        ids(first),
        ids(second),
        texts.__getitem__,
        label="laptop",
        renamed=renamed,
        sub_folder_notes=sub_folder_notes,
    )
    assert not set(merged.files.values()) - set(texts) - set(merged.new)  # every blob is known
    texts.update(merged.new)
    return {name: texts[blob] for name, blob in merged.files.items()}, merged


EDITED = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text, edited\n"}


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_renamed_on_one_side_and_edited_on_the_other_is_one_file_with_the_edit(
    renamer: str,
) -> None:
    if renamer == "first":
        files, merged = _merge(BASE, RENAMED, EDITED, ({"a.md": "b.md"}, {}))
    else:
        files, merged = _merge(BASE, EDITED, RENAMED, ({}, {"a.md": "b.md"}))
    assert files == {INDEX: b"- [A](b.md) about a\n", "b.md": b"a text, edited\n"}
    assert merged.outcomes == []


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_an_index_line_edited_on_the_other_side_follows_the_rename(renamer: str) -> None:
    edited = {INDEX: b"- [A](a.md) about a, said better\n", "a.md": b"a text\n"}
    if renamer == "first":
        files, _ = _merge(BASE, RENAMED, edited, ({"a.md": "b.md"}, {}))
    else:
        files, _ = _merge(BASE, edited, RENAMED, ({}, {"a.md": "b.md"}))
    assert files == {INDEX: b"- [A](b.md) about a, said better\n", "b.md": b"a text\n"}


def test_r2_renamed_to_two_names_keeps_the_first_side_s_name_and_says_so() -> None:
    second = {INDEX: b"- [A](c.md) about a\n", "c.md": b"a text\n"}
    files, merged = _merge(BASE, RENAMED, second, ({"a.md": "b.md"}, {"a.md": "c.md"}))
    assert files == RENAMED
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed b.md on one machine and c.md on another: it is kept as b.md"
    ]


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_renamed_on_one_side_and_deleted_on_the_other_is_kept_with_its_line(
    renamer: str,
) -> None:
    deleted = {INDEX: b""}
    if renamer == "first":
        files, merged = _merge(BASE, RENAMED, deleted, ({"a.md": "b.md"}, {}))
    else:
        files, merged = _merge(BASE, deleted, RENAMED, ({}, {"a.md": "b.md"}))
    assert files == RENAMED
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed b.md on one machine and deleted on another: kept as b.md"
    ]


def test_r2_a_rename_whose_side_changed_the_text_is_not_followed() -> None:
    """git calls a file gone and one come holding half its text a rename (``R074``); one side
    that also changed the text made a new text, not the old one renamed: the other side's edit
    of the old file stays under the old name, never lands in the new one, and the outcome
    says the first side renamed and rewrote it (its index line links ``b.md`` now), not that
    it deleted it."""
    first = {INDEX: b"- [A](b.md) about a\n", "b.md": b"first's text\n"}
    second = {INDEX: b"- [A](a.md) about a\n", "a.md": b"second's text\n"}
    files, merged = _merge(BASE, first, second, ({"a.md": "b.md"}, {}))
    assert files == {
        INDEX: b"- [A](b.md) about a\n- [A](a.md) about a\n",
        "b.md": b"first's text\n",
        "a.md": b"second's text\n",
    }
    assert [(o.kind, o.file, o.kept_as) for o in merged.outcomes] == [
        ("renamed-changed", "a.md", "b.md")
    ]


REWRITTEN = {INDEX: b"- [A](b.md) about a\n", "b.md": b"nothing like the old text\n"}
EDITED_AGAIN = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text\nand a line more\n"}


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_renamed_and_rewritten_on_one_side_edited_on_the_other_keeps_both_and_says_so(
    renamer: str,
) -> None:
    """``a.md`` renamed ``b.md`` and rewritten in one change (too little text left for git to
    pair them: a delete and an add to git), ``a.md`` edited on the other side: both texts
    stay, each with its index line, and the outcome names the rename its index line tells,
    never "deleted on one machine"."""
    if renamer == "first":
        files, merged = _merge(BASE, REWRITTEN, EDITED_AGAIN, ({}, {}))
    else:
        files, merged = _merge(BASE, EDITED_AGAIN, REWRITTEN, ({}, {}))
    assert files["a.md"] == b"a text\nand a line more\n"
    assert files["b.md"] == b"nothing like the old text\n"
    assert sorted(files[INDEX].decode().splitlines()) == [
        "- [A](a.md) about a",
        "- [A](b.md) about a",
    ]
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed b.md and changed on one machine and edited on another: both are "
        "kept, the edit as a.md"
    ]


def test_r2_git_s_pairing_alone_names_the_rewrite_where_no_index_line_linked_the_file() -> None:
    base = {INDEX: b"", "a.md": b"a text\n"}
    first = {INDEX: b"", "b.md": b"a text, then much more\n"}
    second = {INDEX: b"", "a.md": b"a text, edited\n"}
    _, merged = _merge(base, first, second, ({"a.md": "b.md"}, {}))
    assert [(o.kind, o.file, o.kept_as) for o in merged.outcomes] == [
        ("renamed-changed", "a.md", "b.md")
    ]


def test_r2_a_file_deleted_and_another_written_with_its_own_line_is_no_rename() -> None:
    """A delete beside a new file whose index line is a line of its own (not the old line
    pointed at it) stays a delete: ``kept-edited``."""
    first = {INDEX: b"- [B](b.md) about b\n", "b.md": b"b text\n"}
    _, merged = _merge(BASE, first, EDITED_AGAIN, ({}, {}))
    assert [(o.kind, o.file) for o in merged.outcomes] == [("kept-edited", "a.md")]


TEMPLATE = (
    "# Stand-up {day}\n\n## Done\n\n- {done}\n\n## Next\n\n- review\n\n## Blockers\n\n- none\n"
)


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_a_templated_note_replaced_by_the_next_day_s_is_no_rename(renamer: str) -> None:
    """``standup-2026-12-01.md`` deleted and ``standup-2026-12-02.md`` added from the same
    template on one machine (git: ``R074``), ``standup-2026-12-01.md`` edited on the other: the
    edit stays in the 12-01 file (``kept-edited``), the 12-02 file is the one machine's own."""
    old, new = "standup-2026-12-01.md", "standup-2026-12-02.md"
    day1 = TEMPLATE.format(day="2026-12-01", done="shipped the index").encode()
    day1_edited = TEMPLATE.format(day="2026-12-01", done="shipped the index, then fixed it")
    day2 = TEMPLATE.format(day="2026-12-02", done="wrote the docs").encode()
    base = {INDEX: f"- [Mon]({old}) stand-up\n".encode(), old: day1}
    replaced = {INDEX: f"- [Tue]({new}) stand-up\n".encode(), new: day2}
    edited = {INDEX: f"- [Mon]({old}) stand-up\n".encode(), old: day1_edited.encode()}
    if renamer == "first":
        files, merged = _merge(base, replaced, edited, ({old: new}, {}))
    else:
        files, merged = _merge(base, edited, replaced, ({}, {old: new}))
    assert files[old] == day1_edited.encode() and files[new] == day2
    assert f"({old})".encode() in files[INDEX] and f"({new})".encode() in files[INDEX]
    assert [(o.kind, o.file) for o in merged.outcomes] == [("kept-edited", old)]


def test_r2_a_rename_onto_a_name_the_other_side_made_is_not_followed() -> None:
    second = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text, edited\n", "b.md": b"new b\n"}
    files, merged = _merge(BASE, RENAMED, second, ({"a.md": "b.md"}, {}))
    assert files["a.md"] == b"a text, edited\n" and files["b-laptop.md"] == b"new b\n"
    assert {o.kind for o in merged.outcomes} == {"kept-edited", "renamed-to-one"}


TWO = {
    INDEX: b"- [A](a.md) about a\n- [B](b.md) about b\n",
    "a.md": b"a text\n",
    "b.md": b"b text\n",
}
A_TO_C = {
    INDEX: b"- [A](c.md) about a\n- [B](b.md) about b\n",
    "c.md": b"a text\n",
    "b.md": b"b text\n",
}
B_TO_C = {
    INDEX: b"- [A](a.md) about a\n- [B](c.md) about b\n",
    "a.md": b"a text\n",
    "c.md": b"b text\n",
}


def test_r2_two_files_renamed_to_one_name_keep_both_texts_each_with_its_own_index_line() -> None:
    """a.md renamed c.md on one machine, b.md renamed c.md on another: both texts are kept, and
    each index line links the file holding the text it was written for. The second side's
    ``[B](c.md)`` line was left linking c.md, a's text, beside a dangling ``[B](b.md)``."""
    files, merged = _merge(TWO, A_TO_C, B_TO_C, ({"a.md": "c.md"}, {"b.md": "c.md"}))
    assert files == {
        INDEX: b"- [A](c.md) about a\n- [B](c-laptop.md) about b\n",
        "c.md": b"a text\n",
        "c-laptop.md": b"b text\n",
    }
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed c.md on one machine and b.md was renamed c.md on another: both are "
        "kept, b.md's text as c-laptop.md; each index line links the file holding the text it "
        "was written for"
    ]


def test_r2_a_file_renamed_onto_a_name_the_other_side_wrote_keeps_both_with_their_lines() -> None:
    """One side renamed a.md c.md, the other wrote a c.md of its own (and kept a.md): a's text
    keeps c.md and its line, the other c.md is kept under a new name with its line."""
    mine = {
        INDEX: b"- [A](a.md) about a\n- [C](c.md) mine\n",
        "a.md": b"a text\n",
        "c.md": b"mine\n",
    }
    base = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text\n"}
    renamed = {INDEX: b"- [A](c.md) about a\n", "c.md": b"a text\n"}
    files, merged = _merge(base, renamed, mine, ({"a.md": "c.md"}, {}))
    assert files == {
        INDEX: b"- [A](c.md) about a\n- [C](c-laptop.md) mine\n",
        "c.md": b"a text\n",
        "c-laptop.md": b"mine\n",
    }
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed c.md on one machine and c.md was written on another: both are kept, "
        "the other c.md as c-laptop.md; each index line links the file holding the text it "
        "was written for"
    ]
    files, merged = _merge(base, mine, renamed, ({}, {"a.md": "c.md"}))
    assert files == {
        INDEX: b"- [A](c-laptop.md) about a\n- [C](c.md) mine\n",
        "c.md": b"mine\n",
        "c-laptop.md": b"a text\n",
    }
    assert [o.describe() for o in merged.outcomes] == [
        "c.md was written on one machine and a.md was renamed c.md on another: both are kept, "
        "a.md's text as c-laptop.md; each index line links the file holding the text it was "
        "written for"
    ]


PURE_B = {INDEX: b"- [A](b.md) about a\n", "b.md": b"a text\n"}
CHANGED_B = {INDEX: b"- [A](b.md) about a\n", "b.md": b"a text\nthe first side's\n"}
PURE_C = {INDEX: b"- [A](c.md) about a\n", "c.md": b"a text\n"}
CHANGED_C = {INDEX: b"- [A](c.md) about a\n", "c.md": b"a text\nthe second side's\n"}


@pytest.mark.parametrize(
    ("first", "second"),
    [(PURE_B, CHANGED_C), (CHANGED_B, PURE_C), (CHANGED_B, CHANGED_C)],
    ids=["pure-changed", "changed-pure", "changed-changed"],
)
@pytest.mark.parametrize("git_paired", [True, False], ids=["git-paired", "index-tied"])
def test_r2_renamed_to_two_names_with_a_text_changed_keeps_both_and_says_so(
    first: Copy, second: Copy, git_paired: bool
) -> None:
    """``a.md`` renamed ``b.md`` on one side and ``c.md`` on the other, at least one of them
    with its text changed: two texts, so both stay under their new names, each with its
    index line, said in one line (never "deleted on another", never nothing)."""
    renamed = ({"a.md": "b.md"}, {"a.md": "c.md"}) if git_paired else ({}, {})
    pure = (_pure_of(first, "b.md"), _pure_of(second, "c.md"))
    renamed = (
        renamed[0] if git_paired else ({"a.md": "b.md"} if pure[0] else {}),
        renamed[1] if git_paired else ({"a.md": "c.md"} if pure[1] else {}),
    )
    files, merged = _merge(BASE, first, second, renamed)
    assert files["b.md"] == first["b.md"] and files["c.md"] == second["c.md"]
    assert sorted(files) == [INDEX, "b.md", "c.md"]
    assert sorted(files[INDEX].decode().splitlines()) == [
        "- [A](b.md) about a",
        "- [A](c.md) about a",
    ]
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed b.md on one machine and c.md on another, with other texts: both are "
        "kept, as b.md and c.md"
    ]


def _pure_of(side: Copy, name: str) -> bool:
    """Whether ``side`` holds the base's ``a.md`` text as ``name`` (git finds a pure rename
    whatever else it pairs)."""
    return side[name] == BASE["a.md"]


LINK_FORMS = {
    "inline": "- [A]({}.md) about a\n",
    "reference": "- [A][a] about a\n\n[a]: {}.md\n",
    "wiki": "- [[{}]] about a\n",
}


@pytest.mark.parametrize("form", sorted(LINK_FORMS))
def test_r2_a_line_each_side_relinked_for_its_own_rename_is_no_line_changed_twice(
    form: str,
) -> None:
    """``a.md`` renamed and rewritten ``b.md`` on one side and ``c.md`` on the other, each
    side pointing the index line at its own new name in whatever link form the line has (an
    inline link, a reference definition, a wiki link, T-4): a rename each side made, said as
    ``renamed-apart``; the line's words are the same on both sides, so never "changed on
    two machines"."""
    line = LINK_FORMS[form]
    base = {INDEX: line.format("a").encode(), "a.md": b"a text\n"}
    first = {INDEX: line.format("b").encode(), "b.md": b"the service's own text\n"}
    second = {INDEX: line.format("c").encode(), "c.md": b"the laptop's own text\n"}
    files, merged = _merge(base, first, second, ({}, {}))
    assert sorted(files) == [INDEX, "b.md", "c.md"]
    assert [o.describe() for o in merged.outcomes] == [
        "a.md was renamed b.md on one machine and c.md on another, with other texts: both are "
        "kept, as b.md and c.md"
    ]


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_a_wiki_link_follows_the_rename_of_the_file_it_names(renamer: str) -> None:
    """``[[Deploy Freeze]]`` names ``deploy-freeze.md`` as the lint resolves it (T-5b); a sync
    that renames the file on the other side points the link at the new name, as it does a
    Markdown link, never leaves it to dangle. ``[[./deploy-freeze]]`` is that file too."""
    lines = b"- [[Deploy Freeze|freeze]] weekend\n- [[./deploy-freeze]] again\n- [[other]] x\n"
    relinked = b"- [[freeze|freeze]] weekend\n- [[freeze]] again\n- [[other]] x\n"
    base = {INDEX: lines, "deploy-freeze.md": b"text\n", "other.md": b"o\n"}
    renamed = {INDEX: relinked, "freeze.md": b"text\n", "other.md": b"o\n"}
    # the other side edits the very lines: they follow the rename, not stay as they were
    edited_lines = lines.replace(b"weekend", b"weekend, staging fine").replace(b"x", b"y")
    edited = {INDEX: edited_lines, "deploy-freeze.md": b"text\n", "other.md": b"o\n"}
    pair: tuple[dict[str, str], dict[str, str]] = ({"deploy-freeze.md": "freeze.md"}, {})
    if renamer == "first":
        files, _ = _merge(base, renamed, edited, pair)
    else:
        files, _ = _merge(base, edited, renamed, (pair[1], pair[0]))
    assert files[INDEX].splitlines() == [
        b"- [[freeze|freeze]] weekend, staging fine",
        b"- [[freeze]] again",
        b"- [[other]] y",
    ]
    assert "freeze.md" in files and "deploy-freeze.md" not in files


@pytest.mark.parametrize("renamer", ["first", "second"])
def test_r2_a_wiki_link_opening_a_note_in_a_sub_folder_stays_when_a_topic_file_is_renamed(
    renamer: str,
) -> None:
    """With ``notes/Deploy Freeze.md`` in a sub-folder, ``[[Deploy Freeze]]`` opens that note
    as the lint resolves it (a note of that exact name before Memory's loose reading, T-5b):
    a sync that renames ``deploy-freeze.md`` points ``[[deploy-freeze]]`` at the new name and
    leaves the line about the other note as it was, whichever side edited the lines."""
    lines = b"- [[Deploy Freeze]] the long notes\n- [[deploy-freeze]] weekend\n"
    base = {INDEX: lines, "deploy-freeze.md": b"text\n"}
    renamed = {INDEX: lines.replace(b"[[deploy-freeze]]", b"[[freeze]]"), "freeze.md": b"text\n"}
    # the other side edits the very lines (and adds one): the merge takes its lines, relinked
    edited_lines = lines.replace(b"notes", b"notes, read first").replace(b"weekend", b"Fridays")
    edited = {
        INDEX: edited_lines + b"- [[Deploy Freeze]] and its table\n",
        "deploy-freeze.md": b"text\n",
    }
    pair: tuple[dict[str, str], dict[str, str]] = ({"deploy-freeze.md": "freeze.md"}, {})
    notes = ("notes/Deploy Freeze.md",)
    if renamer == "first":
        files, _ = _merge(base, renamed, edited, pair, notes)
    else:
        files, _ = _merge(base, edited, renamed, (pair[1], pair[0]), notes)
    assert files[INDEX].splitlines() == [
        b"- [[Deploy Freeze]] the long notes, read first",
        b"- [[freeze]] Fridays",
        b"- [[Deploy Freeze]] and its table",
    ]


@pytest.mark.parametrize("codec", ["utf-16", "utf-32-be", "cp1252"])
def test_r2_a_wiki_link_in_an_index_in_another_encoding_follows_the_rename(codec: str) -> None:
    """``[[Deploy Freeze]]`` in a UTF-16, UTF-32 or Windows-1252 index follows the rename of
    ``deploy-freeze.md`` as it does in UTF-8 (its brackets are other bytes there)."""
    mark = b"\x00\x00\xfe\xff" if codec == "utf-32-be" else b""

    def written(text: str) -> bytes:
        return mark + text.encode(codec)

    lines = "- [[Deploy Freeze]] the café weekend\n- [[other]] x\n"
    base = {INDEX: written(lines), "deploy-freeze.md": b"text\n", "other.md": b"o\n"}
    renamed_lines = written(lines.replace("Deploy Freeze", "freeze"))
    renamed = {INDEX: renamed_lines, "freeze.md": b"text\n", "other.md": b"o\n"}
    edited = dict(base, **{INDEX: written(lines.replace("x", "y"))})
    files, _ = _merge(base, edited, renamed, ({}, {"deploy-freeze.md": "freeze.md"}))
    assert files[INDEX] == written("- [[freeze]] the café weekend\n- [[other]] y\n")


def test_r2_an_index_without_wiki_links_is_relinked_without_resolving_wiki_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Resolving wiki links takes every file's name, spelled each way the lint reads it: an
    index holding no ``[[`` (nearly every one) is relinked without it."""
    built: list[object] = []
    monkeypatch.setattr(scope_merge, "WikiFiles", lambda *args: built.append(args))
    base = {INDEX: b"- [A](a.md) about [a]\n", "a.md": b"a text\n"}
    renamed = {INDEX: b"- [A](b.md) about [a]\n", "b.md": b"a text\n"}
    edited = {INDEX: b"- [A](a.md) about [a], edited\n", "a.md": b"a text\n"}
    files, _ = _merge(base, edited, renamed, ({}, {"a.md": "b.md"}))
    assert files[INDEX] == b"- [A](b.md) about [a], edited\n"
    assert built == []
