"""R-2: a topic file renamed on one machine and changed on another ends as one file.

Machine A renames ``a.md`` to ``b.md`` (and points its index line there) while machine B, from
the same version, edits ``a.md``. After both sync, every copy and the service hold one file,
``b.md``, with B's edit, and one index line linking it: the rename is found by git's own
rename detection, as a ``git merge`` would. Where the two cannot be made one (both renamed it,
to different names; renamed and edited on one side, edited on the other) the result is one
file under the first name with a said outcome, or both texts kept and said: never two files in
silence, and every version stays in the history.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, synced, two_machines
from tests.support.case_insensitive_disk import case_insensitive_disk

__all__ = ["two_machines"]  # the fixture, used by name

INDEX_LINE = "- [A](a.md) about a\n"


@pytest.fixture
def user(shared_service: RealService, new_agent: str) -> Path:
    """The service's user scope of this test's agent, holding ``a.md`` and its index line."""
    from memory_core import layout

    scope = layout.memory_root(shared_service.data_dir, new_agent) / "user"
    append(scope / "MEMORY.md", INDEX_LINE)
    append(scope / "a.md", "a first line\na second line\n")
    return scope


def rename(scope: Path, old: str, new: str) -> None:
    """``old`` renamed ``new`` in ``scope`` and its index line pointed there (as an agent
    does)."""
    (scope / old).rename(scope / new)
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace(f"({old})", f"({new})"), encoding="utf-8"
    )


def names(scope: Path) -> list[str]:
    return sorted(path.name for path in scope.iterdir())


def every_copy(user: Path, *copies: RemoteCopy) -> list[Path]:
    return [user, *(copy.memory_root / "user" for copy in copies)]


@pytest.mark.parametrize("renamer_first", [True, False], ids=["rename-first", "edit-first"])
def test_r2_a_rename_and_an_edit_on_two_machines_end_as_one_renamed_file_with_the_edit(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], renamer_first: bool
) -> None:
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    (desktop.memory_root / "user" / "a.md").write_text(
        "a first line\na second line, edited\n", encoding="utf-8"
    )
    order = (laptop, desktop) if renamer_first else (desktop, laptop)
    for copy in order:
        synced(copy)
    for copy in order:
        synced(copy)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md"], scope
        assert (scope / "b.md").read_text(encoding="utf-8").endswith("line, edited\n"), scope
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [A](b.md) about a\n"


def test_r2_an_index_line_edited_on_the_other_machine_follows_the_rename(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    (desktop.memory_root / "user" / "MEMORY.md").write_text(
        "- [A](a.md) about a, said better\n", encoding="utf-8"
    )
    synced(laptop)
    synced(desktop)
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md"], scope
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            "- [A](b.md) about a, said better\n"
        ), scope


def test_r2_one_file_renamed_to_two_names_on_two_machines_keeps_the_first_name_and_says_so(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    rename(desktop.memory_root / "user", "a.md", "c.md")
    synced(laptop)
    [result] = synced(desktop)
    assert result.outcomes == [
        "a.md was renamed b.md on one machine and c.md on another: it is kept as b.md"
    ]
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md"], scope
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [A](b.md) about a\n"


def test_r2_two_files_renamed_to_one_name_on_two_machines_keep_both_each_with_its_line(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The laptop renames ``a.md`` to ``c.md``, the desktop ``b.md`` to ``c.md``: both texts
    are kept, the desktop's as ``c-desktop.md``, and each index line links the file holding the
    text it was written for (the desktop's ``[B](c.md)`` line pointed at the laptop's text)."""
    append(user / "MEMORY.md", "- [B](b.md) about b\n")
    append(user / "b.md", "b's only line\n")
    monkeypatch.setattr(socket, "gethostname", lambda: "desktop")  # the name in a kept copy's
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "c.md")
    rename(desktop.memory_root / "user", "b.md", "c.md")
    synced(laptop)
    [result] = synced(desktop)
    assert result.outcomes == [
        "a.md was renamed c.md on one machine and b.md was renamed c.md on another: both are "
        "kept, b.md's text as c-desktop.md; each index line links the file holding the text it "
        "was written for"
    ]
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "c-desktop.md", "c.md"], scope
        assert (scope / "c.md").read_text(encoding="utf-8") == "a first line\na second line\n"
        assert (scope / "c-desktop.md").read_text(encoding="utf-8") == "b's only line\n"
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            "- [A](c.md) about a\n- [B](c-desktop.md) about b\n"
        ), scope


def test_r2_one_new_name_written_on_two_machines_keeps_both_each_with_its_line(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rename: the laptop and the desktop each write a new ``c.md`` of their own with its
    index line. Both texts are kept, the desktop's as ``c-desktop.md``, and its line links
    that file (it linked ``c.md``, the laptop's text, beside a copy linking ``c-desktop.md``)."""
    monkeypatch.setattr(socket, "gethostname", lambda: "desktop")  # the name in a kept copy's
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    for copy, text in ((laptop, "the laptop's c\n"), (desktop, "the desktop's c\n")):
        append(copy.memory_root / "user" / "c.md", text)
        append(copy.memory_root / "user" / "MEMORY.md", f"- [C](c.md) {text}")
    synced(laptop)
    [result] = synced(desktop)
    assert result.outcomes == [
        "c.md was written on two machines: both are kept, the later one as c-desktop.md; each "
        "index line links the file holding the text it was written for"
    ]
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "a.md", "c-desktop.md", "c.md"], scope
        assert (scope / "c.md").read_text(encoding="utf-8") == "the laptop's c\n"
        assert (scope / "c-desktop.md").read_text(encoding="utf-8") == "the desktop's c\n"
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            f"{INDEX_LINE}- [C](c.md) the laptop's c\n- [C](c-desktop.md) the desktop's c\n"
        ), scope


def test_r2_a_new_file_and_its_index_line_sent_one_by_one_keep_the_line_on_its_text(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The post-write hook sends each write at once and fetches nothing: the desktop's new
    ``c.md`` is kept as ``c-desktop.md`` beside the laptop's, and its index line, sent next
    from a copy still holding ``c.md``, links ``c-desktop.md`` (it linked the laptop's text)."""
    monkeypatch.setattr(socket, "gethostname", lambda: "desktop")  # the name in a kept copy's
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    append(laptop.memory_root / "user" / "c.md", "the laptop's c\n")
    append(laptop.memory_root / "user" / "MEMORY.md", "- [C](c.md) the laptop's c\n")
    synced(laptop)
    append(desktop.memory_root / "user" / "c.md", "the desktop's c\n")
    [file_sent] = desktop.sync(None, send_only=True)
    append(desktop.memory_root / "user" / "MEMORY.md", "- [C](c.md) the desktop's c\n")
    [line_sent] = desktop.sync(None, send_only=True)
    assert file_sent.sent and line_sent.sent and line_sent.outcomes == []
    synced(desktop)
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "a.md", "c-desktop.md", "c.md"], scope
        assert (scope / "c.md").read_text(encoding="utf-8") == "the laptop's c\n"
        assert (scope / "c-desktop.md").read_text(encoding="utf-8") == "the desktop's c\n"
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            f"{INDEX_LINE}- [C](c.md) the laptop's c\n- [C](c-desktop.md) the desktop's c\n"
        ), scope


def test_r2_a_rename_and_an_edit_on_the_renaming_machine_too_keeps_both_and_says_so(
    user: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    """A file renamed and changed on one machine (git: ``R0xx``, not ``R100``) is not followed
    as a rename: the other machine's edit of the old file stays under the old name, never in
    the new one, and the sync says the first machine renamed and changed it."""
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    append(laptop.memory_root / "user" / "b.md", "the laptop's third line\n")
    (desktop.memory_root / "user" / "a.md").write_text("the desktop's whole text\n", "utf-8")
    synced(laptop)
    [result] = synced(desktop)
    assert result.outcomes == [
        "a.md was renamed b.md and changed on one machine and edited on another: both are "
        "kept, the edit as a.md"
    ]
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "a.md", "b.md"], scope
        assert (scope / "b.md").read_text(encoding="utf-8").endswith("the laptop's third line\n")
        assert (scope / "a.md").read_text(encoding="utf-8") == "the desktop's whole text\n"
        index = (scope / "MEMORY.md").read_text(encoding="utf-8")
        assert sorted(index.splitlines()) == ["- [A](a.md) about a", "- [A](b.md) about a"]


STANDUP = "# Stand-up {}\n\n## Done\n\n- {}\n\n## Next\n\n- review\n\n## Blockers\n\n- none\n"


@pytest.mark.parametrize("renamer_first", [True, False], ids=["new-day-first", "edit-first"])
def test_r2_a_templated_note_replaced_by_the_next_day_s_keeps_the_edit_in_its_own_day(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], renamer_first: bool
) -> None:
    """``standup-2026-12-01.md`` deleted and ``standup-2026-12-02.md`` added from the same
    template on one machine (git finds ``R074``), the 12-01 note edited on the other: the edit
    ends in the 12-01 note, said ``kept-edited``; the 12-02 note is the first machine's."""
    laptop, desktop = two_machines
    old, new = "standup-2026-12-01.md", "standup-2026-12-02.md"
    append(user / old, STANDUP.format("2026-12-01", "shipped the index"))
    append(user / "MEMORY.md", f"- [Mon]({old}) stand-up\n")
    synced(laptop)
    synced(desktop)
    lap = laptop.memory_root / "user"
    (lap / old).unlink()
    (lap / new).write_text(STANDUP.format("2026-12-02", "wrote the docs"), encoding="utf-8")
    index = (lap / "MEMORY.md").read_text(encoding="utf-8")
    (lap / "MEMORY.md").write_text(index.replace(f"- [Mon]({old})", f"- [Tue]({new})"), "utf-8")
    edited = STANDUP.format("2026-12-01", "shipped the index, then fixed it")
    (desktop.memory_root / "user" / old).write_text(edited, encoding="utf-8")
    first, second = (laptop, desktop) if renamer_first else (desktop, laptop)
    synced(first)
    [result] = synced(second)
    assert result.outcomes == [f"{old} was deleted on one machine and edited on another: kept"]
    synced(first)
    for scope in every_copy(user, laptop, desktop):
        assert (scope / old).read_text(encoding="utf-8") == edited, scope
        assert (scope / new).read_text(encoding="utf-8").startswith("# Stand-up 2026-12-02")


@pytest.mark.parametrize("renamer_first", [True, False], ids=["rename-first", "delete-first"])
def test_r2_a_rename_and_a_delete_on_two_machines_keep_the_renamed_file_and_say_so(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], renamer_first: bool
) -> None:
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    (desktop.memory_root / "user" / "a.md").unlink()
    (desktop.memory_root / "user" / "MEMORY.md").write_text("", encoding="utf-8")
    order = (laptop, desktop) if renamer_first else (desktop, laptop)
    synced(order[0])
    [second] = synced(order[1])
    assert second.outcomes == [
        "a.md was renamed b.md on one machine and deleted on another: kept as b.md"
    ]
    synced(order[0])
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md"], scope
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [A](b.md) about a\n"


@pytest.mark.parametrize("renamer", ["exfat", "linux"])
def test_r2_a_case_only_rename_and_an_edit_on_two_machines_end_as_one_file_with_the_edit(
    shared_service: RealService, new_agent: str, user: Path, tmp_path: Path, renamer: str
) -> None:
    """``a.md`` renamed ``A.md`` on one machine and edited on the other, one of them on a
    case-insensitive disk (exFAT, as on Windows or macOS): every copy and the service end with
    ``A.md`` alone, holding the edit, and its index line; never both names (one file on that
    disk, whose other text it would send back as an edit), nothing waiting."""
    linux = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(linux)
    with case_insensitive_disk(tmp_path, private=True) as disk:
        exfat = machine(shared_service, new_agent, disk, "desktop")
        synced(exfat)
        renaming, editing = (exfat, linux) if renamer == "exfat" else (linux, exfat)
        rename(renaming.memory_root / "user", "a.md", "A.md")
        (editing.memory_root / "user" / "a.md").write_text("a first line, edited\n", "utf-8")
        for copy in (renaming, editing, renaming, editing):
            synced(copy)
        for scope in every_copy(user, linux, exfat):
            assert names(scope) == ["A.md", "MEMORY.md"], scope
            assert (scope / "A.md").read_text(encoding="utf-8") == "a first line, edited\n"
            assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [A](A.md) about a\n"
        for copy in (linux, exfat):
            [again] = synced(copy)
            assert not again.sent and not again.waiting


def test_r2_edits_sent_one_by_one_after_a_rename_elsewhere_all_land_in_the_renamed_file(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """The post-write hook sends each write at once and fetches nothing: the second edit is
    measured against the first one sent (``a.md``), while the service holds it as ``b.md``."""
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    synced(laptop)
    edited = desktop.memory_root / "user" / "a.md"
    append(edited, "a third line\n")
    [first] = desktop.sync(None, send_only=True)
    append(edited, "a fourth line\n")
    [second] = desktop.sync(None, send_only=True)
    assert first.sent and second.sent and first.outcomes == second.outcomes == []
    synced(desktop)
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md"], scope
        assert (scope / "b.md").read_text(encoding="utf-8") == (
            "a first line\na second line\na third line\na fourth line\n"
        ), scope


def test_r2_one_case_only_rename_made_on_both_machines_one_on_exfat_is_one_file(
    shared_service: RealService, new_agent: str, user: Path, tmp_path: Path
) -> None:
    linux = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(linux)
    with case_insensitive_disk(tmp_path, private=True) as disk:
        exfat = machine(shared_service, new_agent, disk, "desktop")
        synced(exfat)
        for copy in (linux, exfat):
            rename(copy.memory_root / "user", "a.md", "A.md")
        for copy in (linux, exfat, linux):
            [result] = synced(copy)
            assert result.outcomes == []
        for scope in every_copy(user, linux, exfat):
            assert names(scope) == ["A.md", "MEMORY.md"], scope
            assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- [A](A.md) about a\n"
        [again] = synced(exfat)
        assert not again.sent and not again.waiting


def rewrite(scope: Path, old: str, new: str, text: str) -> None:
    """``old`` renamed ``new`` and given ``text`` in one change (too little of the old text
    left for git to pair them), its index line pointed there."""
    rename(scope, old, new)
    (scope / new).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("renamer_first", [True, False], ids=["rename-first", "edit-first"])
def test_r2_renamed_and_rewritten_on_one_machine_edited_on_the_other_keeps_both_and_says_so(
    user: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
    renamer_first: bool,
) -> None:
    """The laptop renames ``a.md`` to ``b.md`` and rewrites it in one change; the desktop
    edits ``a.md``. Every copy ends with both texts, the edit as ``a.md`` and the rewrite as
    ``b.md``, each with its index line, and the sync says what happened (a rename, not "a.md
    was deleted on one machine")."""
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rewrite(laptop.memory_root / "user", "a.md", "b.md", "nothing like the old text\n")
    (desktop.memory_root / "user" / "a.md").write_text(
        "a first line\na second line, edited\n", encoding="utf-8"
    )
    order = (laptop, desktop) if renamer_first else (desktop, laptop)
    synced(order[0])
    [merged] = synced(order[1])
    assert merged.outcomes == [
        "a.md was renamed b.md and changed on one machine and edited on another: both are "
        "kept, the edit as a.md"
    ]
    synced(order[0])
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "a.md", "b.md"], scope
        assert (scope / "a.md").read_text(encoding="utf-8").endswith("line, edited\n"), scope
        assert (scope / "b.md").read_text(encoding="utf-8") == "nothing like the old text\n"
        index = (scope / "MEMORY.md").read_text(encoding="utf-8")
        assert sorted(index.splitlines()) == ["- [A](a.md) about a", "- [A](b.md) about a"]


@pytest.mark.parametrize("laptop_changes", [True, False], ids=["both-change", "desktop-changes"])
def test_r2_renamed_to_two_names_with_a_text_changed_keeps_both_texts_and_says_so(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy], laptop_changes: bool
) -> None:
    """``a.md`` renamed ``b.md`` on the laptop and ``c.md`` on the desktop, the desktop (and
    maybe the laptop) changing its text too: both texts stay, each under its machine's name
    with its index line, and the sync says so (it said "deleted on another", or nothing)."""
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    rename(laptop.memory_root / "user", "a.md", "b.md")
    if laptop_changes:
        append(laptop.memory_root / "user" / "b.md", "the laptop's line\n")
    rename(desktop.memory_root / "user", "a.md", "c.md")
    append(desktop.memory_root / "user" / "c.md", "the desktop's line\n")
    synced(laptop)
    [result] = synced(desktop)
    assert result.outcomes == [
        "a.md was renamed b.md on one machine and c.md on another, with other texts: both are "
        "kept, as b.md and c.md"
    ]
    synced(laptop)
    for scope in every_copy(user, laptop, desktop):
        assert names(scope) == ["MEMORY.md", "b.md", "c.md"], scope
        assert (scope / "c.md").read_text(encoding="utf-8").endswith("the desktop's line\n")
        index = (scope / "MEMORY.md").read_text(encoding="utf-8")
        assert sorted(index.splitlines()) == ["- [A](b.md) about a", "- [A](c.md) about a"]


def test_r2_a_wiki_link_opening_a_note_in_a_sub_folder_stays_when_a_topic_file_is_renamed(
    user: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """The service's scope holds ``notes/Deploy Freeze.md`` (a sub-folder no sync brings), so
    its lint reads ``[[Deploy Freeze]]`` as that note (T-5b). One machine renames
    ``deploy-freeze.md`` to ``freeze.md``, the other edits the index's lines: the line
    linking the renamed file follows it, the line about the note in the sub-folder stays."""
    append(user / "deploy-freeze.md", "no Friday deploys\n")
    (user / "notes").mkdir()
    append(user / "notes" / "Deploy Freeze.md", "the long notes\n")
    lines = "- [[Deploy Freeze]] the long notes\n- [[deploy-freeze]] weekend\n"
    append(user / "MEMORY.md", lines)
    laptop, desktop = two_machines
    synced(laptop)
    synced(desktop)
    at_laptop = laptop.memory_root / "user"
    (at_laptop / "deploy-freeze.md").rename(at_laptop / "freeze.md")
    (at_laptop / "MEMORY.md").write_text(
        INDEX_LINE + lines.replace("[[deploy-freeze]]", "[[freeze]]"), encoding="utf-8"
    )
    (desktop.memory_root / "user" / "MEMORY.md").write_text(
        INDEX_LINE + lines.replace("notes\n", "notes, read first\n").replace("weekend", "Fridays"),
        encoding="utf-8",
    )
    synced(laptop)
    synced(desktop)

    assert (user / "MEMORY.md").read_text(encoding="utf-8") == (
        f"{INDEX_LINE}- [[Deploy Freeze]] the long notes, read first\n- [[freeze]] Fridays\n"
    )
