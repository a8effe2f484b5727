"""R-2, Q-2: a merged scope is written into its folder without losing a write made meanwhile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_core.index import index_lines_linking, index_lines_linking_each
from memory_core.scope_files import TOPIC_CAP
from memory_core.scope_merge import MergeOutcome, blob_id
from memory_core.scope_write import apply_scope

from tests.support.index_reads import count_index_reads


def _apply(scope: Path, disk: dict[str, bytes], target: dict[str, bytes]) -> list[MergeOutcome]:
    texts = {blob_id(data): data for data in (*disk.values(), *target.values())}
    return apply_scope(
        scope,
        {name: blob_id(data) for name, data in disk.items()},
        {name: blob_id(data) for name, data in target.items()},
        texts.__getitem__,
        label="laptop",
    )


def _files(scope: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(scope.iterdir())}


def test_r2_changes_land_when_the_folder_holds_what_was_merged(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_bytes(b"- [A](a.md)\n")
    (tmp_path / "a.md").write_bytes(b"a\n")
    (tmp_path / "gone.md").write_bytes(b"old\n")
    disk = _files(tmp_path)
    target = {"MEMORY.md": b"- [A](a.md)\n- [B](b.md)\n", "a.md": b"a2\n", "b.md": b"b\n"}
    assert _apply(tmp_path, disk, target) == []
    assert _files(tmp_path) == target


def test_r2_a_topic_edited_meanwhile_keeps_its_name_and_the_new_text_goes_beside(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.md").write_bytes(b"a0\n")
    disk = _files(tmp_path)
    (tmp_path / "a.md").write_bytes(b"written by an agent meanwhile\n")
    outcomes = _apply(tmp_path, disk, {"a.md": b"from the push\n"})
    assert outcomes == [MergeOutcome("kept-both", "a.md", "a-laptop.md")]
    assert _files(tmp_path) == {
        "a.md": b"written by an agent meanwhile\n",
        "a-laptop.md": b"from the push\n",
    }


def test_r2_a_topic_edited_meanwhile_is_not_deleted(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"a0\n")
    disk = _files(tmp_path)
    (tmp_path / "a.md").write_bytes(b"edited meanwhile\n")
    assert _apply(tmp_path, disk, {}) == [MergeOutcome("kept-edited", "a.md")]
    assert _files(tmp_path) == {"a.md": b"edited meanwhile\n"}


def test_r2_a_topic_deleted_meanwhile_gets_the_edit(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"a0\n")
    disk = _files(tmp_path)
    (tmp_path / "a.md").unlink()
    assert _apply(tmp_path, disk, {"a.md": b"a1\n"}) == [MergeOutcome("kept-edited", "a.md")]
    assert _files(tmp_path) == {"a.md": b"a1\n"}


def test_r2_a_text_kept_beside_a_file_edited_meanwhile_gets_its_index_line(
    tmp_path: Path,
) -> None:
    """The change's index line for ``a.md`` now links the text an agent wrote meanwhile; the
    change's own text, kept as ``a-laptop.md``, is linked by that line pointed there: nothing
    kept is left out of the index (an agent would never find it at Session start)."""
    (tmp_path / "MEMORY.md").write_bytes(b"- [A](a.md) about a\n")
    (tmp_path / "a.md").write_bytes(b"a0\n")
    disk = _files(tmp_path)
    (tmp_path / "a.md").write_bytes(b"written by an agent meanwhile\n")
    target = {"MEMORY.md": b"- [A](a.md) about a\n- [P](p.md) pushed\n", "a.md": b"pushed a\n"}
    target["p.md"] = b"p\n"
    assert _apply(tmp_path, disk, target) == [MergeOutcome("kept-both", "a.md", "a-laptop.md")]
    assert _files(tmp_path)["a-laptop.md"] == b"pushed a\n"
    assert _files(tmp_path)["MEMORY.md"] == (
        b"- [A](a.md) about a\n- [P](p.md) pushed\n- [A](a-laptop.md) about a\n"
    )


def test_r2_a_file_edited_while_the_change_deleted_it_keeps_its_index_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "MEMORY.md").write_bytes(b"- [A](a.md) about a\n- [B](b.md) about b\n")
    (tmp_path / "a.md").write_bytes(b"a0\n")
    (tmp_path / "b.md").write_bytes(b"b\n")
    disk = _files(tmp_path)
    (tmp_path / "a.md").write_bytes(b"edited meanwhile\n")
    target = {"MEMORY.md": b"- [B](b.md) about b\n", "b.md": b"b\n"}
    assert _apply(tmp_path, disk, target) == [MergeOutcome("kept-edited", "a.md")]
    assert _files(tmp_path) == {
        "MEMORY.md": b"- [B](b.md) about b\n- [A](a.md) about a\n",
        "a.md": b"edited meanwhile\n",
        "b.md": b"b\n",
    }


def test_r2_a_push_keeping_many_files_reads_the_index_a_fixed_number_of_times_not_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file of a push kept beside a file edited meanwhile gets its index line, and the
    index is read a fixed number of times for all of them, never once per file: a push that
    keeps thousands (every file, once the history is moved aside) costs the index's length,
    not its square. (Once by the one-pass reader that finds the lines; then the lines found
    are merged into the index on disk, in its own form, by the merge every index line
    addition goes through: that reads it twice more, once for all.)"""
    count = 300
    lines = "".join(f"- [N{n}](n{n}.md) about {n}\n" for n in range(count))
    (tmp_path / "MEMORY.md").write_text(lines)
    for n in range(count):
        (tmp_path / f"n{n}.md").write_bytes(b"before\n")
    disk = _files(tmp_path)
    for n in range(count):
        (tmp_path / f"n{n}.md").write_bytes(b"written meanwhile\n")
    target = {"MEMORY.md": lines.encode()} | {f"n{n}.md": b"pushed\n" for n in range(count)}
    reads = count_index_reads(monkeypatch, lines)
    outcomes = _apply(tmp_path, disk, target)
    assert len(outcomes) == count and {o.kind for o in outcomes} == {"kept-both"}
    assert len(reads) == 3  # the one-pass reader's, the merge's two: never one per file
    readded = (tmp_path / "MEMORY.md").read_text().splitlines()[count:]
    assert sorted(readded) == sorted(f"- [N{n}](n{n}-laptop.md) about {n}" for n in range(count))


EVERY_FORM = (
    "# Memory\n"
    "- [A](a.md) inline, [B](<b.md#why>) angled\n"
    "- [Ref][r] a reference use\n"
    '- [[c]] wiki and <a href="d.md">html</a>\n'
    "- `e.md` - an entry\n"
    "- [P](p%25.md) a name holding a percent sign\n"
    "- [A2](a.md) one\u2028- [F](f.md) two joined by a soft break\n"
    "<!-- - [G](g.md) commented out -->\n"
    "```\n- [H](h.md) fenced\n```\n"
    "- [Caf\u00e9](cafe\u0301.md) written in NFD\n"
    "see a.md in prose\n"
    "\n"
    "[r]: a.md\n"
)


def test_r2_one_read_finds_for_each_file_the_lines_a_delete_of_it_removes() -> None:
    """The one-pass reader finds, for every file, just the lines a delete of that file prunes
    (T-4: every link form; a reference use where its definition points; of joined entries
    the ones linking it; never fenced, commented or prose)."""
    names = ["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md", "h.md", "p%.md"]
    names += ["caf\u00e9.md", "nothing.md"]
    each = index_lines_linking_each(EVERY_FORM, names)
    one_by_one = {name: index_lines_linking(EVERY_FORM, name) for name in names}
    assert each == {name: lines for name, lines in one_by_one.items() if lines}
    assert sorted(each) == ["a.md", "b.md", "c.md", "café.md", "d.md", "e.md", "f.md", "p%.md"]


def test_r2_index_lines_written_meanwhile_stay(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_bytes(b"- [A](a.md)\n")
    disk = _files(tmp_path)
    with (tmp_path / "MEMORY.md").open("ab") as handle:
        handle.write(b"- [L](l.md) appended by a local agent\n")
    _apply(tmp_path, disk, {"MEMORY.md": b"- [A](a.md)\n- [P](p.md) pushed\n"})
    text = (tmp_path / "MEMORY.md").read_bytes()
    assert b"- [L](l.md) appended by a local agent\n" in text
    assert b"- [P](p.md) pushed\n" in text


def test_r2_a_symlink_is_never_followed_or_replaced(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"outside\n")
    scope = tmp_path / "scope"
    scope.mkdir()
    (scope / "a.md").symlink_to(outside)
    outcomes = _apply(scope, {}, {"a.md": b"pushed\n"})
    assert outcomes == [MergeOutcome("kept-both", "a.md", "a-laptop.md")]
    assert outside.read_bytes() == b"outside\n"
    assert (scope / "a.md").is_symlink()
    assert (scope / "a-laptop.md").read_bytes() == b"pushed\n"
    _apply(scope, {"a.md": b"outside\n"}, {})  # a delete leaves a link alone too
    assert (scope / "a.md").is_symlink() and outside.exists()


def test_r2_the_marker_is_created_never_replaced(tmp_path: Path) -> None:
    _apply(tmp_path, {}, {".workspace": b"/home/a/app\n"})
    assert (tmp_path / ".workspace").read_bytes() == b"/home/a/app\n"
    _apply(tmp_path, {".workspace": b"/home/a/app\n"}, {".workspace": b"/elsewhere\n"})
    _apply(tmp_path, {".workspace": b"/home/a/app\n"}, {})
    assert (tmp_path / ".workspace").read_bytes() == b"/home/a/app\n"


def test_r2_names_that_are_no_memory_files_are_skipped(tmp_path: Path) -> None:
    _apply(tmp_path, {}, {"notes.txt": b"x", ".hidden.md": b"x", "ok.md": b"ok\n"})
    assert _files(tmp_path) == {"ok.md": b"ok\n"}


def test_r2_index_changes_the_folder_cannot_take_gather_in_one_file_of_the_machine(
    tmp_path: Path,
) -> None:
    """An index that is a symlink is never followed or replaced: the lines each change adds
    are kept in ``MEMORY-<label>.md``, one file however many changes come, each line once."""
    target = tmp_path.parent / f"{tmp_path.name}-elsewhere.md"
    target.write_bytes(b"- [A](a.md)\n")
    (tmp_path / "MEMORY.md").symlink_to(target)
    base = b"- [A](a.md)\n"
    first = _apply(tmp_path, {"MEMORY.md": base}, {"MEMORY.md": base + b"- [B](b.md)\n"})
    second = _apply(
        tmp_path, {"MEMORY.md": base}, {"MEMORY.md": base + b"- [B](b.md)\n- [C](c.md)\n"}
    )
    assert [o.kept_as for o in first + second] == ["MEMORY-laptop.md", "MEMORY-laptop.md"]
    assert {o.kind for o in first + second} == {"index-unwritten"}
    assert (tmp_path / "MEMORY-laptop.md").read_bytes() == b"- [B](b.md)\n- [C](c.md)\n"
    assert target.read_bytes() == b"- [A](a.md)\n"


def _index_lines(count: int, start: int = 0) -> bytes:
    """``count`` index lines of about 100 bytes each, numbered from ``start``."""
    return b"".join(
        b"- [T%07d](t%07d.md) " % (at, at) + b"x" * 70 + b"\n" for at in range(start, start + count)
    )


def test_r2_index_lines_past_a_topic_file_s_cap_go_into_more_files_each_line_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The lines a change adds to an index the folder cannot take are more than one topic file
    holds (1 MiB, T-2): they are kept in ``MEMORY-<label>.md``, ``MEMORY-<label>-2.md`` …,
    each file within the cap, every line once across them, and the outcome names every file;
    the next change that adds the same lines and more adds only the new ones."""
    (tmp_path / "MEMORY.md").symlink_to(tmp_path / "elsewhere.md")
    added = _index_lines(25_000)  # about 2.4 MiB
    [outcome] = _apply(tmp_path, {"MEMORY.md": b""}, {"MEMORY.md": added})

    kept = sorted(p.name for p in tmp_path.glob("MEMORY-laptop*.md"))
    assert kept == ["MEMORY-laptop-2.md", "MEMORY-laptop-3.md", "MEMORY-laptop.md"]
    assert all((tmp_path / name).stat().st_size <= TOPIC_CAP for name in kept)
    held = [line for name in kept for line in (tmp_path / name).read_bytes().splitlines(True)]
    assert sorted(held) == sorted(added.splitlines(True))
    assert outcome.kind == "index-unwritten"
    said = outcome.describe()
    assert all(name in said for name in kept), said
    assert "changed while it was written" not in caplog.text

    more = _index_lines(10, start=25_000)
    [again] = _apply(tmp_path, {"MEMORY.md": b""}, {"MEMORY.md": added + more})
    after = sorted(p.name for p in tmp_path.glob("MEMORY-laptop*.md"))
    held = [line for name in after for line in (tmp_path / name).read_bytes().splitlines(True)]
    assert sorted(held) == sorted((added + more).splitlines(True))  # each line once
    assert all((tmp_path / name).stat().st_size <= TOPIC_CAP for name in after)
    assert again.kind == "index-unwritten"


LINKED = b"- [F](f.md) the file\n"
KEPT = b"- [G](g.md) kept\n"


def _index_moved_while_written(
    scope: Path, monkeypatch: pytest.MonkeyPatch, *, linked_back: bool
) -> None:
    """The scope's ``MEMORY.md`` moved away just as the writer opens it (``mv MEMORY.md
    INDEX.txt``) and, when ``linked_back``, a link to the moved file made just after (``ln -s
    INDEX.txt MEMORY.md``): a move then a link, not one atomic swap."""
    from memory_core import file_edit, scope_write

    edit = file_edit.edit_file

    def moved(path: Path, *args: object, **kwargs: object) -> object:
        index = Path(path)
        index.rename(scope / "INDEX.txt")
        try:
            return edit(path, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            if linked_back:
                index.symlink_to("INDEX.txt")

    monkeypatch.setattr(scope_write, "edit_file", moved)


def test_r2_an_index_moved_and_linked_back_while_written_deletes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer took an index gone when it opened it for written, and deleted ``f.md`` while
    its line stayed in the file the new link names (review rv-fix69s: a version recorded):
    the index is looked at again, and a link there refuses the whole change (A-6)."""
    from memory_core.scope_write import HalfDeleteRefused

    (tmp_path / "MEMORY.md").write_bytes(LINKED + KEPT)
    (tmp_path / "f.md").write_bytes(b"f\n")
    disk = _files(tmp_path)
    _index_moved_while_written(tmp_path, monkeypatch, linked_back=True)

    with pytest.raises(HalfDeleteRefused):
        _apply(tmp_path, disk, {"MEMORY.md": KEPT})

    assert (tmp_path / "f.md").read_bytes() == b"f\n"
    assert (tmp_path / "INDEX.txt").read_bytes() == LINKED + KEPT


def test_r2_an_index_moved_away_while_written_is_written_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index gone when the writer opened it (and not back): the change's index is made
    there, as for a missing one, its new line kept (review rv-fix69s: written nowhere)."""
    (tmp_path / "MEMORY.md").write_bytes(KEPT)
    disk = _files(tmp_path)
    _index_moved_while_written(tmp_path, monkeypatch, linked_back=False)
    added = KEPT + b"- [H](h.md) new\n"

    assert _apply(tmp_path, disk, {"MEMORY.md": added, "h.md": b"h\n"}) == []

    assert (tmp_path / "MEMORY.md").read_bytes() == added
    assert (tmp_path / "h.md").read_bytes() == b"h\n"


def test_r2_an_index_moved_after_it_was_read_and_linked_back_deletes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index moved away after the writer read it, while it wrote the new text beside it
    (``mv MEMORY.md INDEX.txt``), and linked back after (``ln -s INDEX.txt MEMORY.md``): the
    writer found it gone at its exchange, then missing, and took that for written; ``f.md``
    went and its line stayed (review rv-fix69w: 899 of 2,000 tries of a loop). The index is
    looked at again: a link there refuses the whole change (A-6)."""
    from memory_core import atomic, file_edit, scope_write
    from memory_core.scope_write import HalfDeleteRefused

    (tmp_path / "MEMORY.md").write_bytes(LINKED + KEPT)
    (tmp_path / "f.md").write_bytes(b"f\n")
    disk = _files(tmp_path)
    write_temp, edit = atomic.write_temp_beside, file_edit.edit_file
    moved: list[Path] = []

    def temp_beside(path: Path, *args: object, **kwargs: object) -> object:
        if not moved:
            moved.append(Path(path).rename(tmp_path / "INDEX.txt"))
        return write_temp(path, *args, **kwargs)  # type: ignore[arg-type]

    def linked_back(path: Path, *args: object, **kwargs: object) -> object:
        try:
            return edit(path, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            if moved and not os.path.lexists(path):
                Path(path).symlink_to("INDEX.txt")

    monkeypatch.setattr(file_edit, "write_temp_beside", temp_beside)
    monkeypatch.setattr(scope_write, "edit_file", linked_back)

    with pytest.raises(HalfDeleteRefused):
        _apply(tmp_path, disk, {"MEMORY.md": KEPT})

    assert (tmp_path / "f.md").read_bytes() == b"f\n"
    assert (tmp_path / "INDEX.txt").read_bytes() == LINKED + KEPT


def test_r2_a_fifo_put_where_the_index_was_never_hangs_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index the writer found nothing to change in replaced by a FIFO before it is read
    again (``mv MEMORY.md INDEX.txt; mkfifo MEMORY.md``): the second look opens it without
    blocking and refuses the change (review rv-lead69: the push's worker thread waited for a
    writer of the FIFO for ever)."""
    import threading

    from memory_core import file_edit, scope_write
    from memory_core.scope_write import HalfDeleteRefused

    (tmp_path / "MEMORY.md").write_bytes(LINKED + KEPT)
    (tmp_path / "f.md").write_bytes(b"f\n")
    disk = _files(tmp_path)
    (tmp_path / "MEMORY.md").write_bytes(KEPT)  # the agent took the line out already
    edit = file_edit.edit_file

    def fifo_after(path: Path, *args: object, **kwargs: object) -> object:
        done = edit(path, *args, **kwargs)  # type: ignore[arg-type]
        if not (tmp_path / "INDEX.txt").exists():
            Path(path).rename(tmp_path / "INDEX.txt")
            os.mkfifo(path)
        return done

    monkeypatch.setattr(scope_write, "edit_file", fifo_after)
    raised: list[BaseException] = []

    def write() -> None:
        try:
            _apply(tmp_path, disk, {"MEMORY.md": KEPT})
        except HalfDeleteRefused as error:
            raised.append(error)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    writer.join(timeout=30)
    if writer.is_alive():  # let the blocked open end so the test run can
        with (tmp_path / "MEMORY.md").open("wb"):
            pass
        writer.join(timeout=5)
        pytest.fail("the writer blocked on the FIFO")
    assert len(raised) == 1
    assert (tmp_path / "f.md").read_bytes() == b"f\n"


def test_r2_lines_kept_in_a_file_moved_away_before_their_write_are_kept_in_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lines a change adds to an index the folder cannot take go into the machine's
    ``MEMORY-<label>.md`` of an earlier change; moved away (``mv``) between the writer's read
    of it and its write, they are in no file: they are kept in a file made for them, which
    the outcome names, never said kept in the file gone (review rv-del70)."""
    from memory_core import file_edit

    (tmp_path / "MEMORY.md").symlink_to(tmp_path / "elsewhere.md")
    base = b"- [A](a.md)\n"
    _apply(tmp_path, {"MEMORY.md": base}, {"MEMORY.md": base + b"- [B](b.md)\n"})
    kept = tmp_path / "MEMORY-laptop.md"
    check = file_edit._check_writable
    moves = [kept]

    def moved_first(path: Path) -> None:
        if moves and path == kept:
            moves.pop().rename(tmp_path / "moved.md")
        check(path)

    monkeypatch.setattr(file_edit, "_check_writable", moved_first)
    [outcome] = _apply(
        tmp_path, {"MEMORY.md": base}, {"MEMORY.md": base + b"- [B](b.md)\n- [C](c.md)\n"}
    )

    assert outcome.kind == "index-unwritten"
    named = [tmp_path / name for name in (outcome.kept_as or "", *outcome.also_kept)]
    held = b"".join(path.read_bytes() for path in named if path.is_file())
    assert b"- [C](c.md)\n" in held, outcome
    assert (tmp_path / "moved.md").read_bytes() == b"- [B](b.md)\n"


def test_r2_lines_of_kept_files_go_into_an_index_removed_and_written_anew_while_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer adds the index lines of the files a race kept to ``MEMORY.md``; the agent
    removes it right after the writer's read and writes it anew after the writer's second
    read found none: the writer looks again and adds them there, never lets the edit's
    "moved or removed" escape after the topic files were written (review rv-fix70d)."""
    from memory_core import file_edit, scope_write

    index = tmp_path / "MEMORY.md"
    index.write_bytes(b"- [G](g.md)\n")
    read = file_edit._read
    reads = [0]

    def raced(path: Path, *args: object, **kwargs: object) -> object:
        reads[0] += 1
        found = read(path, *args, **kwargs)  # type: ignore[arg-type]
        if reads[0] == 1:
            index.unlink()
        elif reads[0] == 2:
            index.write_bytes(b"- [H](h.md)\n")
        return found

    monkeypatch.setattr(file_edit, "_read", raced)
    scope_write._merged_into_index(index, ["- [K](k.md) kept\n"])

    assert index.read_bytes() == b"- [H](h.md)\n- [K](k.md) kept\n"
