"""P-3: a program named at run time, given a place also built at run time, may write there.

``$(echo cp) note.md "$(cat target)"/a.md`` runs ``cp``: the guard read the command's name as
a program it does not read (``$``), judged its literal words as paths and let the word built
at run time pass, since only a known writer's (``cp``, ``tee``…) such operand was refused; bash
copied into the other scope. A program named at run time (``$(…)``, a backquote, a variable
set from one, ``${C:-$(…)}``, ``"$@"``) may be any writer: each of its words built at run time
is a place it may write, refused as ``cp``'s destination is. Its literal words are judged as
paths, as before: into the Session's own scope or the Workspace they pass. Each refused form
is then run by bash, which writes into the other scope; each passing one writes where the
guard was told it would.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
)

NAMED_AND_PLACED_AT_RUN_TIME = [
    '$(echo cp) note.md "$(cat target)"/a.md',
    '$(echo cp) note.md "$(cat target)"',
    '"$(echo cp)" note.md "$(cat target)"/a.md',
    "`echo cp` note.md `cat target`/a.md",
    'x=$(echo cp); $x note.md "$(cat target)"/a.md',
    "c=$(echo cp); d=$(cat target); $c note.md $d/a.md",
    '$(echo tee) "$(cat target)"/a.md < note.md',
    '$(echo cp) -t "$(cat target)" note.md',
    '$(printf %s cp) note.md "$(< target)"/a.md',
    '${{C:-$(echo cp)}} note.md "$(cat target)"/a.md',
    '${{C:-`echo cp`}} note.md "$(cat target)"/a.md',
    'env $(echo cp) note.md "$(cat target)"/a.md',
    'nice -n 1 $(echo cp) note.md "$(cat target)"/a.md',
    'true | $(echo cp) note.md "$(cat target)"/a.md',
    '{{ $(echo cp) note.md "$(cat target)"/a.md; }}',
    "bash -c '$(echo cp) note.md \"$(cat target)\"/a.md'",
    'shopt -s expand_aliases; alias c=cp\nc note.md "$(cat target)"/a.md',
    'hash -p /bin/cp c; c note.md "$(cat target)"/a.md',
    'find . -maxdepth 1 -name note.md -exec cp {{}} "$(cat target)"/a.md \\;',
    'find . -maxdepth 1 -name note.md -exec tee "$(cat target)"/a.md \\; < note.md',
    'find . -maxdepth 0 -exec $(echo cp) note.md "$(cat target)"/a.md \\;',
    'find . -maxdepth 0 -execdir `echo cp` note.md "$(cat target)"/a.md \\;',
    '$(which cp) note.md "$(cat target)"/a.md',
    '"$(command -v cp)" note.md "$(cat target)"/a.md',
    'which() {{ echo cp; }}; $(which python3) note.md "$(cat target)"/a.md',
    # something run before the lookup redefines it (review47e)
    'mkdir -p b && ln -sf /bin/cp b/python3 && export PA""TH=$PWD/b:/usr/bin:/bin; '
    '$(which python3) note.md "$(cat target)"/a.md',
    "mkdir -p b && ln -sf /bin/cp b/python3 && declare -x P\\ATH=$PWD/b:/usr/bin:/bin; "
    '$(type -P python3) note.md "$(cat target)"/a.md',
    'which() if true; then echo /bin/cp; fi; $(which python3) note.md "$(cat target)"/a.md',
    'type() case 1 in 1) echo /bin/cp;; esac; $(type -P python3) note.md "$(cat target)"/a.md',
    "mkdir -p v/bin && ln -sf /bin/cp v/bin/python3 && "
    "printf 'P%sH=%s\\n' AT \"$PWD/v/bin:/usr/bin:/bin\" > v/act && . v/act && "
    '$(which python3) note.md "$(cat target)"/a.md',
]
"""Each was let through (the ``${C:-$(…)}`` forms: its ``}`` was read as closing a group, so
``note.md`` was taken as the command's name; an alias or a name ``hash -p`` gives ``cp``; a
writer ``find -exec`` runs); ``target`` holds the other scope's folder."""
NAMED_BY_A_LINK = [
    './tool note.md "$(cat target)"/a.md',
    'bin/t "$(cat target)"/a.md < note.md',
    'bin/mk -s "$(cat target)" lnk && echo x > lnk/a.md',
    '"$(dirname "$0")"/tool note.md "$(cat target)"/a.md',
    'bash -c \'"$(dirname "$0")"/t "$(cat target)"/a.md < note.md\' bin/sh',
]
"""A program named by a path that is a link to ``cp`` (``tool``), ``tee`` (``bin/t``) or ``ln``
(``bin/mk``): the guard read it by its spelled name, a program it does not read, and let the
run-time place through; the kernel runs the program the link leads to. Each was let through."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "tool").symlink_to(shutil.which("cp") or "/bin/cp")
    (work / "bin").mkdir()
    (work / "bin" / "t").symlink_to(shutil.which("tee") or "/usr/bin/tee")
    (work / "bin" / "mk").symlink_to(shutil.which("ln") or "/bin/ln")
    (work / "build.sh").write_text('#!/bin/sh\necho built > "$1"\n', encoding="utf-8")
    (work / "build.sh").chmod(0o755)


@pytest.mark.parametrize("command", NAMED_AND_PLACED_AT_RUN_TIME + NAMED_BY_A_LINK)
def test_p3_a_program_named_at_run_time_writing_a_place_built_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ('"$(echo cp)" note.md {root}/{own}/a.md', "{root}/{own}/a.md"),
        ('"$(echo cp)" note.md copy.md', "copy.md"),
        ('"`echo cp`" note.md {root}/user/a.md', "{root}/user/a.md"),
        ('d=$(echo cp); "$d" note.md "out.md"', "out.md"),
        ('"$(echo mkdir)" -p build/nightly', "build"),
        ("./tool note.md copy.md", "copy.md"),
        ("bin/t {root}/{own}/t.md < note.md", "{root}/{own}/t.md"),
    ],
)
def test_p3_a_program_named_at_run_time_writing_literal_places_passes(
    where: Layout, command: str, place: str
) -> None:
    """Its words known here are judged as paths: the Session's own scope, the user scope and
    the Workspace pass, and bash writes there. Its name is quoted: unquoted, the shell splits
    it into words the guard never sees (round 58: refused). A program named at run time may
    be ``eval`` or ``alias``: the command's ``$(date +%F)`` is then no name (review56j)."""
    _prepared(where)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        (
            '$(which python3) -c \'import sys; open(sys.argv[1], "w").close()\' "$(pwd)/made.txt"',
            "made.txt",
        ),
        ('$(type -P python3) -m json.tool note.json "$(pwd)/pretty.json"', "pretty.json"),
        ('"$(dirname "$0")"/build.sh "$(pwd)/out.txt"', "out.txt"),
        ('"$(pwd)"/build.sh "$(pwd)/top.txt"', "top.txt"),
    ],
)
def test_p3_a_program_looked_up_or_in_a_shell_folder_is_judged_as_that_program(
    where: Layout, command: str, place: str
) -> None:
    """A substitution that only looks a program up (``which X``, ``command -v X``, ``type -P
    X``, ``pyenv which X``) names ``X``, and a literal name in the shell's folder or its
    shell's (``"$(dirname "$0")"/tool``, ``"$(pwd)"/tool``) names that program: judged as so
    named, not as any writer, so its words built at run time are not places written; bash
    runs it. Where that name is a link to ``cp`` it is refused (above)."""
    _prepared(where)
    (where.workspace / "note.json").write_text("{}\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=where.workspace, check=True)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    "command",
    [
        '$(which python3) -m pytest -q "$(git rev-parse --show-toplevel)/tests"',
        '$(command -v python3) scripts/build.py "$(pwd)/dist"',
        '"$(dirname "$0")"/build.sh --config "$(pwd)/cfg.json"',
        '$(pyenv which python) -m pip install -r "$(git rev-parse --show-toplevel)/reqs.txt"',
        '"$(pyenv which python)" -m pip install -r "$(pwd)/reqs.txt"',
        '"$(which python3)" -m pytest -q "$(pwd)/tests"',
        "npm test",
        "npx eslint --fix src",
        "npm run build && mkdir -p dist && echo ok > dist/stamp",
        "make -j$(nproc) all",
        "pytest -q tests",
        "python -m pytest -x",
        'git status && git add -A && git commit -qm "$(cat msg)"',
        "rsync -a --delete build/ dist/",
        "find . -name '*.py' -exec grep -l \"$(cat note.md)\" {{}} +",
        "find . -name '*.orig' -exec rm {{}} \\; && echo ok > done.txt",
    ],
)
def test_p3_daily_commands_still_pass(where: Layout, harness: str, command: str) -> None:
    """The fail-closed readings of this round (programs named at run time, link-keeping
    copies, git's places) leave the agent's daily commands alone."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, harness, SHELL[harness][1], {"command": shell}) is None, shell


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("sed -i 's/x/y/' note.md && echo ok > edited.txt", "edited.txt"),
        ("echo x > {root}/{own}/n.md && sed -i 's/x/y/' {root}/{own}/n.md", "{root}/{own}/n.md"),
        ("mkdir -p build && cp note.md build/ && rsync -a build/ dist/", "dist/note.md"),
    ],
)
def test_p3_daily_edits_and_copies_pass_and_land_where_said(
    where: Layout, command: str, place: str
) -> None:
    _prepared(where)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)
