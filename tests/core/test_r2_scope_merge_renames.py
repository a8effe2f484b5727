"""R-2: a file one side renamed (as git's rename detection finds it) and the other side changed
merges into one file under the new name, its index lines following it; never two files said
nothing of."""

from __future__ import annotations

import pytest
from memory_core.scope_merge import ScopeMerge, blob_id, merge_scopes

Copy = dict[str, bytes]
INDEX = "MEMORY.md"
BASE = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text\n"}
RENAMED = {INDEX: b"- [A](b.md) about a\n", "b.md": b"a text\n"}


def _merge(
    base: Copy, first: Copy, second: Copy, renamed: tuple[dict[str, str], dict[str, str]]
) -> tuple[Copy, ScopeMerge]:
    texts = {blob_id(data): data for copy in (base, first, second) for data in copy.values()}

    def ids(copy: Copy) -> dict[str, str]:
        return {name: blob_id(data) for name, data in copy.items()}

    merged = merge_scopes(
        ids(base), ids(first), ids(second), texts.__getitem__, label="laptop", renamed=renamed
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


def test_r2_renamed_and_edited_on_one_side_and_edited_on_the_other_keeps_both_texts() -> None:
    first = {INDEX: b"- [A](b.md) about a\n", "b.md": b"first's text\n"}
    second = {INDEX: b"- [A](a.md) about a\n", "a.md": b"second's text\n"}
    files, merged = _merge(BASE, first, second, ({"a.md": "b.md"}, {}))
    assert files == {
        INDEX: b"- [A](b.md) about a\n- [A](b-laptop.md) about a\n",
        "b.md": b"first's text\n",
        "b-laptop.md": b"second's text\n",
    }
    assert [o.kind for o in merged.outcomes] == ["kept-both"]


def test_r2_a_rename_onto_a_name_the_other_side_made_is_not_followed() -> None:
    second = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a text, edited\n", "b.md": b"new b\n"}
    files, merged = _merge(BASE, RENAMED, second, ({"a.md": "b.md"}, {}))
    assert files["a.md"] == b"a text, edited\n" and "b-laptop.md" in files
    assert {o.kind for o in merged.outcomes} == {"kept-edited", "kept-both"}
