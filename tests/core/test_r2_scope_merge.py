"""R-2: two copies of a scope that both changed merge without losing anything."""

from __future__ import annotations

from collections.abc import Callable, Collection

import pytest
from memory_core import scope_merge
from memory_core.index import opened_in_any_case
from memory_core.scope_files import is_scope_file
from memory_core.scope_merge import (
    MergeOutcome,
    ScopeMerge,
    blob_id,
    fitted_name,
    fold_name,
    kept_name,
    merge_scopes,
    part_twins,
)
from memory_core.short_names import fitted_renames

from tests.support.index_reads import count_index_reads

Copy = dict[str, bytes]


def _merge(base: Copy, first: Copy, second: Copy, label: str = "laptop") -> tuple[Copy, ScopeMerge]:
    """Merge three copies given as bytes; return the merged copy as bytes and the merge."""
    texts = {blob_id(data): data for copy in (base, first, second) for data in copy.values()}
    asked: list[str] = []

    def content(blob: str) -> bytes:
        asked.append(blob)
        return texts[blob]

    def ids(copy: Copy) -> dict[str, str]:
        return {name: blob_id(data) for name, data in copy.items()}

    merged = merge_scopes(ids(base), ids(first), ids(second), content, label=label)
    texts.update(merged.new)
    return {name: texts[blob] for name, blob in merged.files.items()}, merged


INDEX = "MEMORY.md"


def test_r2_a_change_on_one_side_is_taken() -> None:
    base = {INDEX: b"- [A](a.md)\n", "a.md": b"a\n", "b.md": b"b\n"}
    first = dict(base)
    second = {INDEX: b"- [A](a.md)\n", "a.md": b"a, edited\n", "c.md": b"c\n"}
    files, merged = _merge(base, first, second)
    assert files == {INDEX: b"- [A](a.md)\n", "a.md": b"a, edited\n", "c.md": b"c\n"}
    assert merged.outcomes == []


def test_r2_lines_appended_on_both_sides_are_all_kept() -> None:
    base = {INDEX: b"# Memory\n- [A](a.md)\n"}
    first = {INDEX: b"# Memory\n- [A](a.md)\n- [B](b.md) from the service\n"}
    second = {INDEX: b"# Memory\n- [A](a.md)\n- [C](c.md) from the laptop\n"}
    files, merged = _merge(base, first, second)
    assert files[INDEX] == (
        b"# Memory\n- [A](a.md)\n- [B](b.md) from the service\n- [C](c.md) from the laptop\n"
    )
    assert merged.outcomes == []


def test_r2_a_line_removed_on_one_side_stays_removed() -> None:
    base = {INDEX: b"- [A](a.md)\n- [B](b.md)\n", "a.md": b"a\n", "b.md": b"b\n"}
    first = {INDEX: b"- [B](b.md)\n", "b.md": b"b\n"}  # a deleted with its line
    second = {INDEX: b"- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n", "a.md": b"a\n", "b.md": b"b\n"}
    files, _ = _merge(base, first, second)
    assert files == {INDEX: b"- [B](b.md)\n- [C](c.md)\n", "b.md": b"b\n"}


def test_r2_two_edits_keep_both_the_second_under_a_reported_name() -> None:
    base = {INDEX: b"- [Deploy](deploy.md) how we deploy\n", "deploy.md": b"v0\n"}
    first = {INDEX: base[INDEX], "deploy.md": b"v1 from the desktop\n"}
    second = {INDEX: base[INDEX], "deploy.md": b"v2 from the laptop\n"}
    files, merged = _merge(base, first, second, label="Alice's Laptop")
    assert files["deploy.md"] == b"v1 from the desktop\n"
    assert files["deploy-alice-s-laptop.md"] == b"v2 from the laptop\n"
    assert merged.outcomes == [MergeOutcome("kept-both", "deploy.md", "deploy-alice-s-laptop.md")]
    assert files[INDEX] == (
        b"- [Deploy](deploy.md) how we deploy\n- [Deploy](deploy-alice-s-laptop.md) how we deploy\n"
    )
    assert b"<<<<<<<" not in b"".join(files.values())
    assert "deploy-alice-s-laptop.md" in merged.outcomes[0].describe()


def test_r2_two_creations_of_one_name_keep_both() -> None:
    first = {"new.md": b"mine\n"}
    second = {"new.md": b"theirs\n"}
    files, merged = _merge({}, first, second)
    assert files == {"new.md": b"mine\n", "new-laptop.md": b"theirs\n"}
    assert [outcome.kind for outcome in merged.outcomes] == ["kept-both"]


def test_r2_delete_on_one_side_and_edit_on_the_other_keeps_the_edit() -> None:
    base = {INDEX: b"- [X](x.md) x\n- [Y](y.md) y\n", "x.md": b"x0\n", "y.md": b"y\n"}
    deleted = {INDEX: b"- [Y](y.md) y\n", "y.md": b"y\n"}  # the API's delete prunes the line
    edited = {INDEX: base[INDEX], "x.md": b"x1\n", "y.md": b"y\n"}
    for first, second in ((deleted, edited), (edited, deleted)):
        files, merged = _merge(base, first, second)
        assert files["x.md"] == b"x1\n"
        assert b"- [X](x.md) x\n" in files[INDEX]
        assert b"- [Y](y.md) y\n" in files[INDEX]
        assert merged.outcomes == [MergeOutcome("kept-edited", "x.md")]


def test_r2_the_same_change_on_both_sides_is_taken_once() -> None:
    base = {INDEX: b"- [A](a.md)\n"}
    same = {INDEX: b"- [A](a.md)\n- [B](b.md)\n", "b.md": b"b\n"}
    files, merged = _merge(base, same, dict(same))
    assert files == same
    assert merged.outcomes == []


def test_r2_the_workspace_marker_is_never_replaced() -> None:
    files, merged = _merge({}, {".workspace": b"/srv/app\n"}, {".workspace": b"/home/a/app\n"})
    assert files == {".workspace": b"/srv/app\n"}
    assert merged.outcomes == [MergeOutcome("marker-kept", ".workspace")]
    files, _ = _merge({}, {}, {".workspace": b"/home/a/app\n"})
    assert files == {".workspace": b"/home/a/app\n"}


def test_r2_without_a_common_base_nothing_is_dropped() -> None:
    """A base lost to a rewritten history reads as empty: every difference is kept twice."""
    first = {INDEX: b"- [A](a.md)\n", "a.md": b"a1\n", "s.md": b"same\n"}
    second = {INDEX: b"- [A](a.md)\n- [B](b.md)\n", "a.md": b"a2\n", "b.md": b"b\n"}
    second["s.md"] = b"same\n"
    files, _ = _merge({}, first, second)
    assert files["a.md"] == b"a1\n" and files["a-laptop.md"] == b"a2\n"
    assert files["b.md"] == b"b\n" and files["s.md"] == b"same\n"
    # the second side's line for a.md links its text, a-laptop.md, where it wrote it
    assert files[INDEX] == b"- [A](a.md)\n- [A](a-laptop.md)\n- [B](b.md)\n"


def test_r2_an_unchanged_index_is_never_read() -> None:
    asked: list[str] = []
    base = {INDEX: blob_id(b"i\n"), "a.md": blob_id(b"a\n")}
    second = {INDEX: blob_id(b"i\n"), "a.md": blob_id(b"a2\n")}

    def content(blob: str) -> bytes:
        asked.append(blob)
        return b""

    merged = merge_scopes(base, dict(base), second, content, label="x")
    assert merged.files == second and asked == []


def test_r2_kept_names_are_free_topic_names_within_255_bytes() -> None:
    long = "ü" * 126 + ".md"  # 255 bytes
    name = kept_name(long, "laptop", {long})
    assert name.endswith("-laptop.md") and len(name.encode()) <= 255
    assert name.startswith("ü" * 100) and is_scope_file(name)
    assert kept_name("a.md", "", {"a.md"}) == "a-copy.md"
    assert kept_name("a.md", "x", {"a-x.md", "a-x-2.md"}) == "a-x-3.md"


def test_r2_a_case_twin_of_a_file_the_scope_holds_is_kept_under_a_reported_name() -> None:
    """A machine on macOS or Windows holds ``OK.md`` and ``ok.md`` as one file: the merged
    scope never has both, so none of their texts is lost there."""
    base = {INDEX: b"- [OK](OK.md) the service's\n", "OK.md": b"service\n"}
    second = {**base, INDEX: base[INDEX] + b"- [ok](ok.md) the laptop's\n", "ok.md": b"laptop\n"}
    files, merged = _merge(base, dict(base), second)
    assert files == {
        INDEX: b"- [OK](OK.md) the service's\n- [ok](ok-laptop.md) the laptop's\n",
        "OK.md": b"service\n",
        "ok-laptop.md": b"laptop\n",
    }
    assert merged.outcomes == [MergeOutcome("twin-renamed", "ok.md", "ok-laptop.md", "OK.md")]
    assert merged.outcomes[0].describe() == (
        "ok.md differs from OK.md only in letter case or Unicode normalisation, one file on "
        "macOS and Windows: it is kept as ok-laptop.md"
    )


def test_r2_normalisation_twins_sent_together_keep_each_its_own_index_line() -> None:
    nfc, nfd = "caf\u00e9.md", "cafe\u0301.md"  # NFD sorts first: it keeps its name
    index = f"- [C]({nfc}) composed\n- [D]({nfd}) decomposed\n".encode()
    files, merged = _merge({}, {}, {INDEX: index, nfc: b"composed\n", nfd: b"decomposed\n"})
    renamed = "caf\u00e9-laptop.md"
    assert files == {
        INDEX: f"- [C]({renamed}) composed\n- [D]({nfd}) decomposed\n".encode(),
        nfd: b"decomposed\n",
        renamed: b"composed\n",
    }
    assert [outcome.kind for outcome in merged.outcomes] == ["twin-renamed"]


def test_r2_a_topic_file_twin_of_the_index_is_renamed_and_existing_twins_are_left() -> None:
    base = {INDEX: b"# Memory\n", "A.md": b"A\n", "a.md": b"a\n"}  # written on a Linux service
    second = {**base, "Memory.md": b"a topic\n", "a.md": b"a, edited\n"}
    files, merged = _merge(base, dict(base), second)
    assert files == {
        INDEX: b"# Memory\n",
        "A.md": b"A\n",
        "a.md": b"a, edited\n",
        "Memory-laptop.md": b"a topic\n",
    }
    assert [outcome.file for outcome in merged.outcomes] == ["Memory.md"]


def test_r2_kept_names_are_never_twins_of_a_taken_name() -> None:
    assert kept_name("a.md", "x", {"A-X.md"}) == "a-x-2.md"
    base = {"deploy.md": b"v0\n", "Deploy-Laptop.md": b"other\n"}
    first = {**base, "deploy.md": b"v1\n"}
    second = {**base, "deploy.md": b"v2\n"}
    files, merged = _merge(base, first, second)
    assert files["deploy-laptop-2.md"] == b"v2\n"
    assert [outcome.kind for outcome in merged.outcomes] == ["kept-both"]


def test_r2_twins_one_copy_holds_are_parted_the_first_by_name_keeping_its_own() -> None:
    nfc, nfd = "caf\u00e9.md", "cafe\u0301.md"
    index = f"- [ok](ok.md) lower\n- [C]({nfc}) composed\n- [D]({nfd}) decomposed\n"
    files = {INDEX: index.encode(), "OK.md": b"O\n", "ok.md": b"o\n", nfc: b"c\n", nfd: b"d\n"}
    texts = {blob_id(data): data for data in files.values()}
    parted = part_twins(
        {name: blob_id(data) for name, data in files.items()}, texts.__getitem__, label="twin"
    )
    texts.update(parted.new)
    held = {name: texts[blob] for name, blob in parted.files.items()}
    renamed = "caf\u00e9-twin.md"
    relinked = f"- [ok](ok-twin.md) lower\n- [C]({renamed}) composed\n- [D]({nfd}) decomposed\n"
    assert held == {
        INDEX: relinked.encode(),
        "OK.md": b"O\n",
        "ok-twin.md": b"o\n",
        nfd: b"d\n",
        renamed: b"c\n",
    }
    assert [(outcome.file, outcome.twin) for outcome in parted.outcomes] == [
        (nfc, nfd),
        ("ok.md", "OK.md"),
    ]


def test_r2_an_index_line_sent_after_its_twin_file_links_the_name_the_file_is_kept_under() -> None:
    """An agent writes ``ok.md`` (a twin of ``OK.md``), then its index line: each write is sent
    at once, so the line comes in a send of its own, from a copy that still holds ``ok.md``
    (it has not fetched since). The line links ``ok-laptop.md``, where the text was kept,
    never ``ok.md``, which a macOS or Windows machine opens as ``OK.md``."""
    base = {INDEX: b"- [OK](OK.md) the service's\n", "OK.md": b"service\n", "ok.md": b"laptop\n"}
    first = {INDEX: base[INDEX], "OK.md": b"service\n", "ok-laptop.md": b"laptop\n"}
    second = {**base, INDEX: base[INDEX] + b"- [ok](ok.md) the laptop's\n"}
    files, merged = _merge(base, first, second)
    assert files == {
        INDEX: b"- [OK](OK.md) the service's\n- [ok](ok-laptop.md) the laptop's\n",
        "OK.md": b"service\n",
        "ok-laptop.md": b"laptop\n",
    }
    assert merged.outcomes == []


C_BASE = {INDEX: b"- [A](a.md) about a\n", "a.md": b"a\n"}
MINE = {INDEX: b"- [A](a.md) about a\n- [C](c.md) mine\n", "a.md": b"a\n", "c.md": b"mine\n"}
THEIRS = {INDEX: b"- [A](a.md) about a\n- [C](c.md) theirs\n", "a.md": b"a\n", "c.md": b"theirs\n"}
CREATED_BOTH = (
    "c.md was written on two machines: both are kept, the later one as c-laptop.md; each "
    "index line links the file holding the text it was written for"
)


def test_r2_a_new_name_written_on_two_machines_keeps_each_text_with_its_own_index_line() -> None:
    """Two machines write a new c.md, each with its own text and index line: the second's text
    is kept as c-laptop.md and its index line follows it there. It was left linking c.md, the
    first machine's text, beside a copy of it linking c-laptop.md (a stale index line)."""
    files, merged = _merge(C_BASE, MINE, THEIRS)
    assert files == {
        INDEX: b"- [A](a.md) about a\n- [C](c.md) mine\n- [C](c-laptop.md) theirs\n",
        "a.md": b"a\n",
        "c.md": b"mine\n",
        "c-laptop.md": b"theirs\n",
    }
    assert [o.describe() for o in merged.outcomes] == [CREATED_BOTH]
    files, merged = _merge(C_BASE, THEIRS, MINE)  # the other order: the names swap, as the texts
    assert files == {
        INDEX: b"- [A](a.md) about a\n- [C](c.md) theirs\n- [C](c-laptop.md) mine\n",
        "a.md": b"a\n",
        "c.md": b"theirs\n",
        "c-laptop.md": b"mine\n",
    }
    assert [o.describe() for o in merged.outcomes] == [CREATED_BOTH]


def test_r2_one_index_line_written_with_two_texts_links_each_text_once() -> None:
    """Both machines wrote the very same index line for their own c.md: each text keeps a
    line of its own, neither twice."""
    line = b"- [C](c.md) about c\n"
    mine = {**MINE, INDEX: C_BASE[INDEX] + line}
    theirs = {**THEIRS, INDEX: C_BASE[INDEX] + line}
    files, merged = _merge(C_BASE, mine, theirs)
    assert files[INDEX] == C_BASE[INDEX] + line + b"- [C](c-laptop.md) about c\n"
    assert (files["c.md"], files["c-laptop.md"]) == (b"mine\n", b"theirs\n")
    assert [o.kind for o in merged.outcomes] == ["kept-both"]


def test_r2_a_new_name_written_on_two_machines_with_an_index_line_on_one_side_only() -> None:
    """The side without an index line for c.md adds none; the other side's line links its
    own text, whichever side it is and whichever side's names win."""
    unindexed_mine = {**MINE, INDEX: C_BASE[INDEX]}
    unindexed_theirs = {**THEIRS, INDEX: C_BASE[INDEX]}
    cases = [
        (MINE, unindexed_theirs, b"- [C](c.md) mine\n"),
        (unindexed_theirs, MINE, b"- [C](c-laptop.md) mine\n"),
        (unindexed_mine, THEIRS, b"- [C](c-laptop.md) theirs\n"),
        (THEIRS, unindexed_mine, b"- [C](c.md) theirs\n"),
    ]
    for first, second, line in cases:
        files, merged = _merge(C_BASE, first, second)
        assert files[INDEX] == C_BASE[INDEX] + line
        assert files["c.md"] == first["c.md"] and files["c-laptop.md"] == second["c.md"]
        assert [o.describe() for o in merged.outcomes] == [CREATED_BOTH]
    files, merged = _merge(C_BASE, unindexed_mine, unindexed_theirs)
    assert files == {**C_BASE, "c.md": b"mine\n", "c-laptop.md": b"theirs\n"}
    assert [o.describe() for o in merged.outcomes] == [CREATED_BOTH]


def test_r2_one_new_text_written_on_two_machines_is_one_file_with_one_line() -> None:
    for first, second in ((MINE, dict(MINE)), (MINE, {**MINE, INDEX: C_BASE[INDEX]})):
        for one, other in ((first, second), (second, first)):
            files, merged = _merge(C_BASE, one, other)
            assert files == MINE
            assert merged.outcomes == []


def test_r2_an_index_line_held_before_the_new_name_was_written_links_both_texts() -> None:
    """The index linked c.md before either machine wrote it (a line written first): that line
    was written for neither text, so each text keeps a copy of it and none is unindexed."""
    planned = b"- [A](a.md) about a\n- [C](c.md) planned\n"
    base = {**C_BASE, INDEX: planned}
    for first, second in ((MINE, THEIRS), (THEIRS, MINE)):
        files, merged = _merge(base, {**first, INDEX: planned}, {**second, INDEX: planned})
        assert files[INDEX] == planned + b"- [C](c-laptop.md) planned\n"
        assert (files["c.md"], files["c-laptop.md"]) == (first["c.md"], second["c.md"])
        assert [o.describe() for o in merged.outcomes] == [CREATED_BOTH]


def test_r2_an_index_line_sent_after_its_new_file_was_kept_both_links_the_kept_copy() -> None:
    """The laptop sends its new c.md alone (kept as c-laptop.md beside the service's own c.md),
    then, from a copy that still holds its c.md (it has not fetched since), the index line it
    wrote for it: the line links c-laptop.md, the laptop's text, never the service's c.md."""
    sent = {**THEIRS, INDEX: C_BASE[INDEX]}  # the laptop's last send, taken: the base now
    service = {**MINE, "c-laptop.md": b"theirs\n"}
    files, merged = _merge(sent, service, THEIRS)
    assert files == {
        INDEX: b"- [A](a.md) about a\n- [C](c.md) mine\n- [C](c-laptop.md) theirs\n",
        "a.md": b"a\n",
        "c.md": b"mine\n",
        "c-laptop.md": b"theirs\n",
    }
    assert merged.outcomes == []


def test_r2_an_index_line_edited_after_its_file_was_kept_both_leaves_the_other_its_line() -> None:
    """The laptop's edit of c.md was kept as c-laptop.md; its next send edits c.md's index line
    too: the edited line links its text, c-laptop.md, and the service's c.md keeps its line."""
    lines = b"- [C](c.md) about c\n- [Z](z.md) z\n"
    before = {INDEX: lines, "c.md": b"c0\n", "z.md": b"z\n"}
    service = {
        INDEX: lines + b"- [C](c-laptop.md) about c\n",
        "c.md": b"service\n",
        "c-laptop.md": b"laptop\n",
        "z.md": b"z\n",
    }
    sent = {**before, "c.md": b"laptop\n"}  # taken: the base now
    second = {**sent, INDEX: lines.replace(b"about c", b"about c, sharper")}
    files, merged = _merge(sent, service, second)
    assert files[INDEX] == (
        b"- [C](c-laptop.md) about c, sharper\n- [Z](z.md) z\n- [C](c-laptop.md) about c\n"
        b"- [C](c.md) about c\n"
    )
    assert (files["c.md"], files["c-laptop.md"]) == (b"service\n", b"laptop\n")
    assert merged.outcomes == []


LONG_HEADS = ["長" * 83, "ü" * 124, "😀" * 61, "e\u0301" * 82, "a" * 250]


@pytest.mark.parametrize("head", LONG_HEADS, ids=["cjk", "latin-2", "emoji", "nfd", "ascii"])
def test_r2_long_names_alike_but_for_their_end_keep_copies_apart_and_within_255_bytes(
    head: str,
) -> None:
    """Names too long for ``-<label>.md`` to fit (K-7's 255 bytes of UTF-8), alike in all but
    their last characters, each kept once more, in either order: every kept name is a topic
    file name within 255 bytes, no two are one name or twins, and each names its own file the
    same whichever was kept first."""
    names = [f"{head[: len(head) - 1]}{end}.md" for end in ("a", "b", "é", "😀")]
    names = [n for n in names if len(n.encode()) <= 255]
    forward: dict[str, str] = {}
    taken = set(names)
    for name in names:
        forward[name] = kept_name(name, "laptop", taken)
        taken.add(forward[name])
    backward: dict[str, str] = {}
    taken = set(names)
    for name in reversed(names):
        backward[name] = kept_name(name, "laptop", taken)
        taken.add(backward[name])
    for kept in (forward, backward):
        assert all(len(k.encode()) <= 255 and is_scope_file(k) for k in kept.values()), kept
        assert len({fold_name(k) for k in kept.values()} | {fold_name(n) for n in names}) == (
            2 * len(names)
        )
    assert forward == backward


def test_r2_an_index_line_reworded_on_both_sides_keeps_both_versions_and_says_so() -> None:
    base = {"MEMORY.md": b"# Memory\n- [A](a.md) about a\n- [B](b.md) about b\n"}
    first = {
        "MEMORY.md": b"# Memory\n- [A](a.md) about a, the service's words\n- [B](b.md) about b\n"
    }
    second = {
        "MEMORY.md": b"# Memory\n- [A](a.md) about a, the laptop's words\n- [B](b.md) about b\n"
    }
    merged, merge = _merge(base, first, second)
    assert merged["MEMORY.md"] == (
        b"# Memory\n- [A](a.md) about a, the service's words\n"
        b"- [A](a.md) about a, the laptop's words\n- [B](b.md) about b\n"
    )
    assert [o.describe() for o in merge.outcomes] == [
        "the MEMORY.md line '- [A](a.md) about a' was changed on two machines: both versions "
        "are kept, one after the other"
    ]


def test_r2_index_lines_added_on_both_sides_or_changed_on_one_say_nothing() -> None:
    base = {"MEMORY.md": b"- [A](a.md) about a\n"}
    first = {"MEMORY.md": b"- [A](a.md) about a\n- [B](b.md) the service's\n"}
    second = {"MEMORY.md": b"- [A](a.md) about a, reworded\n- [C](c.md) the laptop's\n"}
    _, merge = _merge(base, first, second)
    assert merge.outcomes == []


def test_r2_a_merge_keeping_many_files_reads_each_index_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every file both sides edited is kept twice, each copy with its index line, and the
    laptop's index is read once for the lines of all of them, not once per file kept (the
    merged index, a text of its own here, is read by the line merge)."""
    count = 300
    lines = "".join(f"- [N{n}](n{n}.md) about {n}\n" for n in range(count))
    names = [f"n{n}.md" for n in range(count)]
    base = {INDEX: lines.encode()} | dict.fromkeys(names, b"base\n")
    first = {INDEX: (lines + "- [Y](y.md) the service's\n").encode()}
    first |= dict.fromkeys(names, b"the service's\n")
    second = {INDEX: (lines + "- [X](x.md) new\n").encode()} | dict.fromkeys(names, b"laptop\n")
    reads = count_index_reads(monkeypatch, lines + "- [X](x.md) new\n")
    sides: list[int] = []

    def counted(files: Collection[str]) -> Callable[[str], str]:
        sides.append(len(files))
        return opened_in_any_case(files)

    monkeypatch.setattr(scope_merge, "opened_in_any_case", counted)
    merged, merge = _merge(base, first, second)
    assert [o.kind for o in merge.outcomes] == ["kept-both"] * count
    assert len(reads) == 1
    assert len(sides) <= 2  # each side's files folded once, not once per file kept
    index = merged[INDEX].decode().splitlines()
    assert all(f"- [N{n}](n{n}-laptop.md) about {n}" in index for n in range(count))


@pytest.mark.parametrize(
    ("name", "theirs_line", "kept_line"),
    [
        ("c.md", "- [C](c.md) theirs", "- [C](c-laptop.md) theirs"),
        ("c.md", "- [C](./c.md#why) theirs", "- [C](./c-laptop.md#why) theirs"),
        ("c.md", "- [C](<c.md>) theirs", "- [C](<c-laptop.md>) theirs"),
        ("c.md", "- [[c]] theirs", "- [[c-laptop]] theirs"),
        ("my note.md", "- [C](my%20note.md) theirs", "- [C](my%20note-laptop.md) theirs"),
        # the machine holds no C.md: on its case-insensitive disk the link opens its c.md
        ("c.md", "- [C](C.md) theirs", "- [C](c-laptop.md) theirs"),
        ("c.md", "- [C](./C.MD#why) theirs", "- [C](./c-laptop.md#why) theirs"),
        # the disk folds as fold_name does, not as a regex ignores case: STRASSE is straße
        ("straße.md", "- [S](STRASSE.md) theirs", "- [S](straße-laptop.md) theirs"),
    ],
)
@pytest.mark.parametrize("edited", [False, True], ids=["written-twice", "edited-twice"])
def test_r2_a_kept_both_copy_takes_its_index_line_however_the_line_spells_its_name(
    name: str, theirs_line: str, kept_line: str, edited: bool
) -> None:
    """Each machine's index line links the text it was written for, in any spelling that
    opens the file there: ``./c.md``, ``c.md#why``, ``<…>``, a wiki link, percent-encoding, and
    on a case-insensitive disk another case of the only file it can be; whether both machines
    wrote the file new or both edited it (then the second side's line also stays as it is,
    as a line both edits share)."""
    mine_line = f"- [C](<{name}>) mine"
    base = {**C_BASE, name: b"was\n"} if edited else C_BASE
    first = {**base, INDEX: C_BASE[INDEX] + f"{mine_line}\n".encode(), name: b"mine\n"}
    second = {**base, INDEX: C_BASE[INDEX] + f"{theirs_line}\n".encode(), name: b"theirs\n"}
    files, merged = _merge(base, first, second)
    kept = kept_name(name, "laptop", {name})
    assert (files[name], files[kept]) == (b"mine\n", b"theirs\n")
    # an edited file's line of the second side stays beside its copy (two texts, one topic)
    theirs = [theirs_line] if edited else []
    assert files[INDEX].decode().splitlines() == [
        "- [A](a.md) about a",
        mine_line,
        *theirs,
        kept_line,
    ]
    assert [outcome.kind for outcome in merged.outcomes] == ["kept-both"]


def test_r2_a_line_in_another_case_of_a_file_the_machine_holds_links_that_file_only() -> None:
    """``C.md`` names the machine's ``c.md`` only while the machine holds no ``C.md``: where it
    holds both (a case-sensitive disk), each line links its own file."""
    first = {**C_BASE, INDEX: C_BASE[INDEX] + b"- [c](c.md) mine\n", "c.md": b"mine\n"}
    lines = b"- [c](c.md) theirs\n- [C](C.md) the big one\n"
    second = {**C_BASE, INDEX: C_BASE[INDEX] + lines, "c.md": b"theirs\n", "C.md": b"big\n"}
    files, _ = _merge(C_BASE, first, second)
    assert files[INDEX].decode().splitlines() == [
        "- [A](a.md) about a",
        "- [c](c.md) mine",
        "- [c](c-laptop.md) theirs",
        "- [C](C-laptop-2.md) the big one",
    ]
    assert (files["c-laptop.md"], files["C-laptop-2.md"]) == (b"theirs\n", b"big\n")


def test_r2_a_twin_takes_the_line_its_machine_wrote_in_another_case() -> None:
    """A macOS machine holds ``C.md`` and links it as ``c.md`` (its disk opens it so); the
    service holds another ``c.md``: the twin is kept as ``C-laptop.md`` and the machine's line
    follows it, never linking the service's ``c.md``."""
    first = {**C_BASE, INDEX: C_BASE[INDEX] + b"- [c](c.md) mine\n", "c.md": b"mine\n"}
    second = {**C_BASE, INDEX: C_BASE[INDEX] + b"- [C](c.md) theirs\n", "C.md": b"theirs\n"}
    files, merged = _merge(C_BASE, first, second)
    assert files[INDEX].decode().splitlines() == [
        "- [A](a.md) about a",
        "- [c](c.md) mine",
        "- [C](C-laptop.md) theirs",
    ]
    assert [outcome.kind for outcome in merged.outcomes] == ["twin-renamed"]


def _case_variants(stem: str) -> list[str]:
    """Every spelling of ``stem`` (lower-case letters) in upper and lower case: ``2 **
    len(stem)`` names."""
    return [
        "".join(char.upper() if number >> at & 1 else char for at, char in enumerate(stem))
        for number in range(2 ** len(stem))
    ]


def test_r2_a_sync_keeping_thousands_of_copies_of_one_name_names_each_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A machine sends 2,048 spellings of ``notebookxyz`` in any case, each a twin of the
    service's ``notebookxyz.md``: each is kept under its own free name, numbered on
    (``-laptop``, ``-laptop-2`` … ``-laptop-2048``), every text kept, no two names twins; the
    names are folded a bounded number of times per copy, not once per copy per name (each
    copy folded every name of the scope and counted its number from 1: quadratic)."""
    variants = _case_variants("notebookxyz")
    second = {f"{stem}.md": f"text {n}\n".encode() for n, stem in enumerate(variants)}
    first = {"notebookxyz.md": b"the service's\n"}
    folds: list[str] = []
    fold = scope_merge.fold_name

    def counted(name: str) -> str:
        folds.append(name)
        return fold(name)

    monkeypatch.setattr(scope_merge, "fold_name", counted)
    files, merged = _merge({}, first, second)
    kept = sorted(files.values())
    assert kept == sorted([b"the service's\n", *second.values()])
    assert len({scope_merge.fold_name(name) for name in files}) == len(files)
    numbers = sorted(
        1 if name.endswith("-laptop.md") else int(name.removesuffix(".md").rpartition("-")[2])
        for name in files
        if name != "notebookxyz.md"
    )
    assert numbers == list(range(1, len(variants) + 1))
    assert all(outcome.kind in {"kept-both", "twin-renamed"} for outcome in merged.outcomes)
    assert len(folds) <= 20 * len(variants)


def test_r2_names_cut_for_a_short_disk_by_the_thousand_are_each_free_and_folded_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A push of 2,000 names too long for a disk of 143-byte names cuts each to a name no
    other name or cut takes (each long name's hash marks its cut), as a cut per name did; the
    names are folded a bounded number of times per name, not every name once per cut."""
    names = [f"{'é' * 70}-{number}.md" for number in range(2_000)]
    expected: dict[str, str] = {}
    for name in names[:50]:  # the rule, one name at a time, for a sample
        cut = fitted_name(name, 143, [*names, *expected.values()])
        assert cut is not None  # 140 bytes and a number: too long for the disk
        expected[name] = cut
    folds: list[str] = []
    fold = scope_merge.fold_name

    def counted(name: str) -> str:
        folds.append(name)
        return fold(name)

    monkeypatch.setattr(scope_merge, "fold_name", counted)
    renames = fitted_renames(names, 143)
    assert {name: renames[name] for name in names[:50]} == expected
    assert len(renames) == len(names)
    assert all(len(new.encode()) <= 143 and is_scope_file(new) for new in renames.values())
    assert len({fold(new) for new in renames.values()} | {fold(n) for n in names}) == 4_000
    assert len(folds) <= 10 * len(names)


def test_r2_a_file_kept_twice_gets_each_of_its_index_lines_beside_the_first() -> None:
    """A topic file edited on two machines, linked by two index lines (the file and a section
    of it): the copy kept under a new name gets both lines, each pointed at it, so nothing its
    index said of it is lost (one line came back when the first counted the file indexed)."""
    index = b"- [A](a.md) about a\n- [Why](a.md#why) why a\n"
    base = {INDEX: index, "a.md": b"a0\n"}
    first = {INDEX: index, "a.md": b"a1\n"}
    second = {INDEX: index, "a.md": b"a2\n"}

    files, merged = _merge(base, first, second)

    assert files["a.md"] == b"a1\n" and files["a-laptop.md"] == b"a2\n"
    assert merged.outcomes == [MergeOutcome("kept-both", "a.md", "a-laptop.md")]
    assert files[INDEX] == index + b"- [A](a-laptop.md) about a\n- [Why](a-laptop.md#why) why a\n"
