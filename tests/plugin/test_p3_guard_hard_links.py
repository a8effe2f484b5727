"""P-3: a file with another name (a hard link) on the memory root's filesystem is not written.

A hard link is one more name of the same file: ``realpath`` keeps it as spelled, no mount shows
it, and writing it writes every name. A link to another Workspace's ``MEMORY.md`` left in the
Workspace (made by a program, or by a Session of that Workspace from its own scope) turned
``echo x >> notes.md`` into a write of that scope, and one to a Session record into a new key.
Which names a file has cannot be asked of the kernel, so a regular file with more than one on
the memory root's (or the records') filesystem is refused by any name; the service leaves
every memory file one name. Folders (several names by nature), files
of one name and new files pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
