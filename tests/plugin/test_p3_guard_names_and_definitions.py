"""P-3: a substitution read as a name, and what a command defines, read soundly (review56).

``notes`` in the Workspace is a link into another Workspace's scope; ``target`` holds that
scope's folder and ``./nproc`` prints it. The guard reads ``$(date +%F)``, ``$(whoami)``,
``$(git rev-parse HEAD)`` as one fresh name only where that is what the shell runs:

- a substitution that may print nothing (``git rev-parse HEAD`` outside a repository or beside
  a ``GIT_DIR`` naming none, ``whoami`` for an account without a name) is read as nothing too:
  ``notes$(git rev-parse HEAD)/a.md`` is then ``notes/a.md``;
- a name the program prints that an entry already there has (a link ``notes<user>``,
  ``notes<year>`` the agent made before) is read as that entry;
- a definition is read however it is spelt (a line continuation inside ``PATH``, quotes inside
  a name, a name reference, a name built at run time, bash's table of commands) and so is what
  runs as a program starts (``LD_PRELOAD``, ``BASH_ENV``);
- a program the agent may have written (a folder in the home, the Workspace or ``/tmp`` on
  ``PATH``) is not the system's program.

What a command defines after a substitution (a ``source``, an ``alias``) reaches it not, unless
the command runs part of itself again (a loop, a function). One bash process shows two
families write into the other scope; everyday commands pass.
"""

from __future__ import annotations

import datetime
import getpass
import os
import subprocess

import pytest

from tests.support.guard_cases import Layout, let_through, refused_before_new_writes

MAY_PRINT_NOTHING = [
    "echo x > notes$(git rev-parse HEAD)/a.md",
    "export GIT_DIR=/nowhere; echo x > notes$(git rev-parse --short HEAD)/b.md",
    "echo x > notes`whoami`/c.md",
]
"""Substitutions that may print nothing, glued to a link's name: read as a name they were a
fresh folder; printing nothing they are the link (review56 finding 1)."""

NAMES_ALREADY_THERE = [
    "echo x > linked$(whoami)/a.md",
    'cp note.md "linked$(date +%Y)/b.md"',
    "mkdir -p linked$(id -un)/d && echo x > linked$(id -un)/d/c.md",
]
"""A name the program prints that a link the agent made before has."""

DEFINITIONS_SPELT_ANOTHER_WAY = [
    'PA\\\nTH=.:$PATH; cp note.md "$(nproc)/a.md"',
    "declare -n v=PA''TH; v=.:$v; cp note.md \"$(nproc)/b.md\"",
    'export "PA"TH=.:$PATH; cp note.md "$(nproc)/c.md"',
    "declare -- 'PA''TH=.:/usr/bin:/bin'; cp note.md \"$(nproc)/d.md\"",
    "declare $'P\\x41TH=.:/usr/bin:/bin'; cp note.md \"$(nproc)/e.md\"",
    'n=PA; n+=TH; printf -v "$n" ".:%s" "$PATH"; cp note.md "$(nproc)/f.md"',
    'BASH_CMDS[nproc]=./nproc; cp note.md "$(nproc)/g.md"',
    'export LD_PRELOAD=./hook.so; cp note.md "$(nproc)/h.md"',
    'export BASH_ENV=./x.sh; cp note.md "$(nproc)/i.md"',
    'for i in 1 2; do cp note.md "$(nproc)/j.md"; PATH=.:$PATH; done',
    'c() { cp note.md "$(nproc)/k.md"; }; PATH=.:$PATH; c',
]
"""A ``PATH`` (or what runs as a program starts) set however it is spelt, or set after the
substitution in a loop or before a function runs it (review56 finding 2)."""

COPIES_OF_A_FILE_NAME = [
    "for f in *.txt; do g=x$f; python3 -c \"open('$g')\" 2>/dev/null; done; echo x > lnk/a.md",
    'for f in *.txt; do g="x$f"; python3 -c "open(\'$g\')" 2>/dev/null; done; echo x > lnk/a.md',
    "for f in *.txt; do g=\\\n$f; python3 -c \"open('$g')\" 2>/dev/null; done; echo x > lnk/a.md",
]
"""A loop's file name copied with text before it, or across a line continuation, put into an
interpreter's code: the name ``x'+str(__import__('mk'))+'.txt`` runs ``mk.py``, which makes
``lnk`` lead into the other scope (review56: ``g=x$f`` was read as the literal ``x$f``)."""

PROVED_BY_BASH = [MAY_PRINT_NOTHING[0], DEFINITIONS_SPELT_ANOTHER_WAY[0]]
"""One of each family, run by one bash: each really writes into the other scope."""

EVERYDAY = [
    'cp note.md "{root}/{own}/$(date +%F).md"; source venv/bin/activate 2>/dev/null',
    "alias ll='ls -l'; cp note.md \"{root}/{own}/$(date +%F).md\"",
    'cp note.md "{root}/{own}/$(date +%F).md" && export PATH="$HOME/.local/bin:$PATH"',
    'mkdir -p "logs/$(date +%Y)"',
    "cat >> {root}/{own}/MEMORY.md <<EOF\n- $(date +%F): ran date, hostname; PATH unchanged\nEOF",
    'echo "- $(date +%F) $(whoami) ran the tests" >> {root}/{own}/MEMORY.md',
    "git log -1 > build-$(git rev-parse --short HEAD).txt",
]
"""Everyday commands writing only inside the Session's own scope or the Workspace (review56
finding 4: the first three were refused for a definition elsewhere in the command; git, make,
pip, npm, pytest, sed -i, find/xargs forms are in ``test_p3_everyday_commands.py``)."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    other = where.root / where.other
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    (work / "note.md").write_text("note\n", encoding="utf-8")
    nproc = work / "nproc"
    nproc.write_text("#!/bin/sh\ncat target\n", encoding="utf-8")
    nproc.chmod(0o755)
    (work / "mk.py").write_text(
        "import os; os.symlink(open('target').read().strip(), 'lnk')\n", encoding="utf-8"
    )
    (work / "x'+str(__import__('mk'))+'.txt").write_text("", encoding="utf-8")
    year = datetime.datetime.now(tz=datetime.UTC).year
    for name in (getpass.getuser(), str(year), str(year + 1), str(year - 1)):
        (work / f"linked{name}").symlink_to(other)


def test_p3_a_name_that_may_print_nothing_is_read_as_nothing_too(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, MAY_PRINT_NOTHING) == {}


def test_p3_a_name_an_entry_already_there_has_is_read_as_that_entry(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, NAMES_ALREADY_THERE) == {}


def test_p3_a_definition_is_read_however_it_is_spelt(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, DEFINITIONS_SPELT_ANOTHER_WAY) == {}


def test_p3_a_copy_of_a_file_name_is_filled_however_it_is_spelt(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, COPIES_OF_A_FILE_NAME) == {}


def test_p3_one_bash_writes_into_the_other_scope_through_each_family(where: Layout) -> None:
    _prepared(where)
    script = "\n".join(f"( {command} ) </dev/null 2>/dev/null" for command in PROVED_BY_BASH)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root), "GIT_CEILING_DIRECTORIES": "/"}

    subprocess.run(["bash", "-c", script], cwd=where.workspace, env=env, check=False)

    assert {"a.md"} <= {path.name for path in (where.root / where.other).iterdir()}
    assert (where.root / where.other / "a.md").read_text(encoding="utf-8") == "note\n"


def test_p3_a_program_the_agent_may_have_written_is_not_the_systems(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepared(where)
    own_bin = where.workspace / "bin"
    own_bin.mkdir()
    (where.workspace / "nproc").rename(own_bin / "nproc")
    monkeypatch.setenv("PATH", f"{own_bin}{os.pathsep}{os.environ.get('PATH', '')}")

    assert let_through(where, ['cp note.md "$(nproc)/a.md"', 'cp note.md "$(nproc)x/b.md"']) == {}


def test_p3_everyday_commands_around_names_and_definitions_pass(where: Layout) -> None:
    _prepared(where)
    commands = [command.format(root=where.root, own=where.own) for command in EVERYDAY]

    assert refused_before_new_writes(where, commands) == {}
