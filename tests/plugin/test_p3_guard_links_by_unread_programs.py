"""P-3: a link a program the guard cannot read makes is no way around it.

``python3 -c "…os.symlink(open('target').read().strip(), 'lnk')" && echo x > lnk/a.md``: the
program builds the link from data, and the shell then writes through it. When the guard
answers, ``lnk`` is not there, so ``lnk/a.md`` was judged a plain Workspace path and let
through, and bash wrote into another scope. It is now judged as a link the command makes to a
place read from data (``ln -s "$(cat f)" lnk``) is: after a program the guard does not read
ran in the command, a write into a folder not there yet is refused (the program may make that
folder a link). A write into a folder already there is judged as that folder, so everyday
``python3 build.py && echo done >> build.log`` passes. Each refused form is then run by bash,
which changes the other scope: the gap was real.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, assert_refused_and_bash_writes

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')"
"""A program's text making ``lnk`` lead where the file ``target`` says (no memory named)."""
THROUGH_LINKS = [
    f'python3 -c "{MAKES_LINK}" && echo x > lnk/a.md',
    "python3 mk.py && cp note.md lnk/",
    "python3 mk.py; tee lnk/a.md < note.md",
    "python3 mk.py && mkdir -p lnk && echo x >> lnk/a.md",
    "./mk.sh && echo x > lnk/a.md",
    "bash mk.sh; cp note.md lnk/b.md",
    "python3 mk.py && bash -c 'echo x > lnk/a.md'",
    "for i in 1 2; do echo x > lnk/a.md; python3 mk.py 2>/dev/null || true; done",
]
"""Each was let through; ``target`` holds the other scope's folder, ``mk.py`` and ``mk.sh``
make ``lnk`` lead there."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK + "\n", encoding="utf-8")
    (work / "mk.sh").write_text('#!/bin/sh\nln -s "$(cat target)" lnk\n', encoding="utf-8")
    (work / "mk.sh").chmod(0o755)
    (work / "build").mkdir()


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("command", THROUGH_LINKS)
def test_p3_a_write_through_a_link_an_unread_program_may_make_is_refused(
    where: Layout, harness: str, command: str
) -> None:
    _prepared(where)
    assert_refused_and_bash_writes(where, harness, command)


@pytest.mark.parametrize(
    "command",
    [
        "python3 build.py && echo done >> build.log",
        "python script.py && echo x >> notes.md",
        "make && cp out.bin build/",
        "npm test && echo ok >> build/test.log",
        "python3 gen.py > build/out.txt",
        "echo x > fresh/a.md; python3 mk.py",
        "pytest -q 2>&1 | tee build/pytest.log",
    ],
)
def test_p3_writes_into_folders_already_there_pass(where: Layout, command: str) -> None:
    """A folder there already is judged as it is; a write before the program runs meets
    nothing it made."""
    _prepared(where)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
