"""P-3: a file with another name (a hard link) in the memory root is not written by any name.

A hard link is one more name of the same file: ``realpath`` keeps it as spelled, no mount shows
it, and writing it writes every name. A link to another Workspace's ``MEMORY.md`` left in the
Workspace (made by a program, or by a Session of that Workspace from its own scope) turned
``echo x >> notes.md`` into a write of that scope, and one to a Session record into a new key.
Which names a file has cannot be asked of the kernel, but one lies in the memory root (or the
records) only if it holds the file's inode: the guard reads those inodes once per decision and
refuses a file of several names whose inode is there, and any inside the memory root (the
service leaves every memory file one name). A file of several names all outside them (a pnpm
or cargo store hard-linking packages into ``node_modules`` on the same disk) passes; when the
memory root's inodes cannot all be read (past the scan's cap), any file of several names on
its filesystem is refused, as before (a read error never widens access). Folders, files of
one name and new files pass.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from harness_memory import names

from tests.support.guard_cases import SHELL, Layout, answer, refusal


def write(where: Layout, path: Path) -> str | None:
    return refusal(answer(where, "claude-code", "Write", {"file_path": str(path), "content": "x"}))


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_hard_link_to_another_scopes_file_is_refused_by_any_name(
    where: Layout, harness: str
) -> None:
    link = where.workspace / "notes.md"
    os.link(where.root / where.other / "MEMORY.md", link)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": f"echo x >> {link}"}))

    assert reason is not None and "hard links" in reason
    assert write(where, link) is not None
    assert (where.root / where.other / "MEMORY.md").read_text(encoding="utf-8") == ""


def test_p3_a_file_of_the_own_scope_linked_to_another_scopes_file_is_refused(
    where: Layout,
) -> None:
    inside = where.root / where.own / "linked.md"
    os.link(where.root / where.other / "MEMORY.md", inside)
    reason = write(where, inside)
    assert reason is not None and "hard links" in reason


def test_p3_a_hard_link_to_a_session_record_is_refused(where: Layout) -> None:
    records = where.state / "sessions"
    records.mkdir(parents=True)
    (records / "s-2.json").write_text("{}", encoding="utf-8")
    link = where.workspace / "settings.json"
    os.link(records / "s-2.json", link)
    reason = write(where, link)
    assert reason is not None and "hard links" in reason


def test_p3_folders_files_of_one_name_and_new_files_pass(where: Layout) -> None:
    (where.workspace / "src").mkdir()
    (where.workspace / "README.md").write_text("x", encoding="utf-8")
    for command in ["echo x >> README.md", "cd src && echo x > new.py", "ls src .", "rm -r src"]:
        assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
    assert write(where, where.root / where.own / "MEMORY.md") is None


def test_p3_a_package_store_hard_linked_into_the_workspace_passes(where: Layout) -> None:
    """pnpm links each package file from its store into ``node_modules``: two names, both
    outside the memory root and the records, on their filesystem. Writing either passes."""
    store = where.workspace.parent / "pnpm-store" / "index.js"
    store.parent.mkdir()
    store.write_text("module.exports = 1\n", encoding="utf-8")
    linked = where.workspace / "node_modules" / "pkg" / "index.js"
    linked.parent.mkdir(parents=True)
    os.link(store, linked)
    assert linked.stat().st_dev == where.root.stat().st_dev

    for harness in SHELL:
        command = {"command": f"echo x >> {linked} && sed -i s/1/2/ {store}"}
        assert answer(where, harness, SHELL[harness][1], command) is None, harness
    assert write(where, linked) is None


def test_p3_a_hard_link_is_refused_when_the_memory_roots_inodes_cannot_all_be_read(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the scan's cap (counted: here 2 entries) where the file's other name lies is
    unknown: refused, as any read error would."""
    monkeypatch.setattr(names, "NAMES_CAP", 2)
    store = where.workspace / "store.js"
    store.write_text("x", encoding="utf-8")
    os.link(store, where.workspace / "linked.js")

    reason = write(where, where.workspace / "linked.js")

    assert reason is not None and "hard links" in reason
    assert write(where, where.workspace / "single.js") is None


def test_p3_a_hard_link_is_refused_when_a_folder_of_the_memory_root_cannot_be_listed(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scope folder the guard may not list (``EACCES``; the tests run as root, so the
    kernel's refusal is stood in for): whether it holds the file's other name is unknown, so
    the write is refused, as it would be were the folder readable and the name there."""
    store = where.workspace / "store.js"
    store.write_text("x", encoding="utf-8")
    os.link(store, where.workspace / "linked.js")
    hidden = os.fspath(where.root / where.other)
    scandir = os.scandir

    def refusing(folder: str) -> Any:
        if os.fspath(folder) == hidden:
            raise PermissionError(13, "Permission denied", hidden)
        return scandir(folder)

    monkeypatch.setattr(os, "scandir", refusing)

    reason = write(where, where.workspace / "linked.js")

    assert reason is not None and "hard links" in reason
    assert write(where, where.workspace / "single.js") is None
