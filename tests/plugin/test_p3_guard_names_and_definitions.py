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

A definition anywhere in the command counts, after the substitution too (review56e: ``fc -s``
runs a line again, bash expands a command's words before its redirections and a here-document's
body before a later redirection); an ``alias`` command's words are read as bash splits them and
its ANSI-C quoted spelling too; a substitution that fails and prints nothing (``id -r``, after
``ulimit -n 4``) or prints a ``/`` (``uname -o``) is no name; past the names it reads in a folder
the guard refuses. One bash process shows each family writes into the other scope; everyday
commands pass.
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

DEFINED_AFTER_OR_HIDDEN = [
    'set -o history\necho x > "sub/$(date +%F)/notes/fc.md"\n'
    "PATH=.:$PATH; ln -sf dots date\nfc -s echo",
    'set -o history\necho x > "sub/$(nproc)/notes/b.md"\nBASH_CMDS[nproc]=./dots\nfc -s echo',
    'echo x > "sub/$(nproc)/notes/c.md" ${BASH_CMDS[nproc]=./dots}',
    'cat <<EOF > "sub/$(nproc)/notes/d.md"\n${BASH_CMDS[nproc]=./dots}\nEOF',
    "shopt -s expand_aliases\nalias ll='ls; x' nproc=./dots\necho x > \"sub/$(nproc)/notes/e.md\"",
    "shopt -s expand_aliases\n$'alias' echo='cat payload.sh'\necho ls | bash",
    "shopt -s expand_aliases\nalias true='nproc() { ./dots; }'\ntrue\n"
    'echo x > "sub/$(nproc)/notes/k.md"',
    "shopt -s expand_aliases\nalias true='echo() { command cat payload.sh; }'\ntrue\n"
    "echo ls | bash",
    'e=eval; $e "$(printf \'npr%sc() { ./dots; }\' o)"; echo x > "sub/$(nproc)/notes/l.md"',
    "e=eval; $e \"$(printf 'ech%s() { command cat payload.sh; }' o)\"; echo ls | bash",
    'if . ./payload.sh; then echo x > "sub/$(nproc)/notes/m.md"; fi',
    'shopt -s expand_aliases; {{alias,nproc=./dots}}\necho x > "sub/$(nproc)/notes/n.md"',
]
"""A definition after the substitution it reaches (``fc -s`` runs the line again; a word
expanded before the redirection; a here-document's body before a later redirection), an alias
after a quoted ``;`` in an earlier alias's value, an ``alias`` spelt in ANSI-C quotes making
``echo`` print code into a shell's pipe (review56e findings 1-3), a function defined inside an
alias's value (review56i), a command whose name is built at run time (``$e``: ``eval``), a
``.`` after a keyword, an ``alias`` made by brace expansion (review56j). ``dots`` prints
``..``."""

PRINTS_NO_NAME = [
    'echo x > "notes$(id -r)/f.md"',
    'echo x > "notes$(id -ug)/g.md"',
    'ulimit -n 4; echo x > "notes$(nproc)/h.md"',
    'mkdir -p "sub$(uname -o)" && echo x > "sub$(uname -o)/../../notes/i.md"',
    'echo x > "n$(nproc)/j.md"',
]
"""A substitution that fails and prints nothing (``id -r``, ``id -ug``, any after ``ulimit -n
4``), one printing a ``/`` (``uname -o``: ``GNU/Linux``), and a name matching more entries
already in its folder than the guard reads (``n0`` … ``n69``, ``n5`` a link into the other
scope): review56e findings 4-6."""

PROVED_BY_BASH = [
    MAY_PRINT_NOTHING[0],
    DEFINITIONS_SPELT_ANOTHER_WAY[0],
    DEFINED_AFTER_OR_HIDDEN[0],
    DEFINED_AFTER_OR_HIDDEN[4],
    DEFINED_AFTER_OR_HIDDEN[5],
    PRINTS_NO_NAME[0],
]
"""One of each family, run by one bash: each really writes into the other scope."""

EVERYDAY = [
    "alias ll='ls -l'; cp note.md \"{root}/{own}/$(date +%F).md\"",
    "alias ll='ls -l'\nalias gs='git status'\necho x > \"{root}/{own}/$(date +%F).md\"",
    'echo "$(id -u) $(uname -s) $(uname -r)" > logs/host-$(uname -m).txt',
    'mkdir -p "logs/$(date +%Y)"',
    "cat >> {root}/{own}/MEMORY.md <<EOF\n- $(date +%F): ran date, hostname; PATH unchanged\nEOF",
    'echo "- $(date +%F) $(whoami) ran the tests" >> {root}/{own}/MEMORY.md',
    "git log -1 > build-$(git rev-parse --short HEAD).txt",
    "grep -rn '{{alias}}' . > /tmp/aliases.txt; ls {{alias,src}}",  # no RecursionError
]
"""Everyday commands writing only inside the Session's own scope or the Workspace (git, make,
pip, npm, pytest, sed -i, find/xargs forms are in ``test_p3_everyday_commands.py``). A
``source`` or ``PATH`` set anywhere in the command makes its names unknown (review56e)."""


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
    dots = work / "dots"
    dots.write_text("#!/bin/sh\necho ..\n", encoding="utf-8")
    dots.chmod(0o755)
    (work / "sub").mkdir()
    (work / "logs").mkdir()
    (work / "payload.sh").write_text("echo x > notes/p.md\n", encoding="utf-8")
    for n in range(70):
        (work / f"n{n}").mkdir() if n != 5 else (work / "n5").symlink_to(other)
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


@pytest.mark.parametrize(
    "cases", [DEFINED_AFTER_OR_HIDDEN, PRINTS_NO_NAME], ids=["defined-after-or-hidden", "no-name"]
)
def test_p3_a_later_definition_reaches_and_a_failing_program_prints_no_name(
    where: Layout, cases: list[str]
) -> None:
    _prepared(where)

    assert let_through(where, cases) == {}


def test_p3_a_copy_of_a_file_name_is_filled_however_it_is_spelt(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, COPIES_OF_A_FILE_NAME) == {}


def test_p3_bash_writes_into_the_other_scope_through_each_family(where: Layout) -> None:
    _prepared(where)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root), "GIT_CEILING_DIRECTORIES": "/"}

    for command in PROVED_BY_BASH:  # one bash each: an alias or ``fc`` reads its lines alone
        subprocess.run(
            ["bash", "-c", command],
            cwd=where.workspace,
            env=env,
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )

    written = {path.name for path in (where.root / where.other).iterdir()}
    assert {"a.md", "fc.md", "e.md", "f.md", "p.md"} <= written
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


def test_p3_a_folder_before_the_program_the_agent_may_write_makes_it_not_the_systems(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    _prepared(where)
    monkeypatch.setenv("PATH", f"{where.workspace}/later{os.pathsep}/usr/bin{os.pathsep}/bin")
    command = 'mkdir later && cp dots later/nproc && echo x > "sub/$(nproc)/notes/k.md"'

    assert let_through(where, [command]) == {}


def test_p3_everyday_commands_around_names_and_definitions_pass(where: Layout) -> None:
    _prepared(where)
    commands = [command.format(root=where.root, own=where.own) for command in EVERYDAY]

    assert refused_before_new_writes(where, commands) == {}
