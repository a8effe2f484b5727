"""P-3: words the shell runs as a command that the guard cannot read where they stand.

Each form runs ``cp note.md <other scope>/f.md`` (the other scope's folder read from ``target``
or ``list`` at run time) with no word the guard read as that command's:

- an array's words run as the command (``"${a[@]}"``): filled at run time (``mapfile``,
  ``read -a``, ``read -aa``, ``read -r a[2]``, ``printf -v 'a[0]'``, ``declare -n r=a``,
  ``a[2]=…``: its name in any word but its literal assignments), the words it brings are
  places built at run time; an array the command fills only by ``a=(…)`` and ``a+=(…)`` of
  literal words is read as each value it may hold, run where it is expanded;
- the positional parameters run as the command (``"$@"``) when the guard did not see what set
  them: a shell's ``-c`` code given its arguments (``bash -c '"$@"' _ cp …``, ``sh``,
  ``dash``, ``exec "$@"``), ``eval set -- …``;
- a shell's code the guard did not read with the words after it: behind ``-o errexit``,
  ``-O extglob``, ``--rcfile FILE``, escaped (``-c "\\"\\$@\\""``), a variable's value,
  standard input (``bash -s``, ``bash /dev/stdin``, ``source /dev/stdin``), ``find -exec sh
  -c``;
- ``eval`` reached through a variable (``e=eval; $e …``) or a function running its
  arguments with ``eval`` (``f() { eval "$@"; }; f …``): its words are joined and read again
  as ``eval``'s are; ``hash -p`` through a variable, a command substitution or ``eval``: the
  name it binds runs any program;
- a program the command makes (``ln -s /bin/cp tool``) run by its bare name through ``PATH``
  (``PATH=.:$PATH tool …``): it may be ``cp``;
- a variable set at run time (``read -r c < words; $c``) or a command substitution
  (``$(cat words)``) standing unquoted as the command's name: bash splits it into words;
- a function running its arguments reached through another (``g() { f "$@"; }``), adding
  words of its own after them, or handing them to ``eval`` through a variable.

Each is refused, then run by bash, which writes into the other scope. The everyday forms of
the same shapes pass and write where they say.
"""

from __future__ import annotations

import shutil

import pytest

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
)

ARRAYS_RUN = [
    'a=(cp note.md); a+=("$(cat target)/f.md"); "${{a[@]}}"',
    'a=(cp note.md x); a[2]="$(cat target)/f.md"; "${{a[@]}}"',
    'mapfile -t a < list; "${{a[@]}}"',
    'readarray -t a < list; "${{a[@]}}"',
    'read -ra a < words; "${{a[@]}}"',
    "read -a a < words; ${{a[*]}}",
    'mapfile -t a < list; exec "${{a[@]}}"',
    'a=(cp note.md "$(cat target)/f.md"); "${{a[@]}}"',
    'a=(ls); read -aa < words; "${{a[@]}}"',
    'a=(ls); read -raa < words; "${{a[@]}}"',
    'a=(cp note.md); read -r a[2] < target; "${{a[@]}}"',
    'a=(cp note.md); IFS= read -r "a[2]" < target; "${{a[@]}}"',
    'a=(cp note.md); printf -v \'a[2]\' %s "$(cat target)"; "${{a[@]}}"',
    'a=(cp note.md); declare -n r=a; r+=("$(cat target)"); "${{a[@]}}"',
]
"""The array's words (``list``: ``cp``, ``note.md``, the other scope's file, one a line;
``words``: the same on one line) were never read as a command: each was let through."""
POSITIONAL_RUN = [
    'bash -c \'"$@"\' _ cp note.md "$(cat target)/f.md"',
    'sh -c \'exec "$@"\' _ cp note.md "$(cat target)/f.md"',
    'dash -c \'"$@"\' _ cp note.md "$(cat target)/f.md"',
    "bash -c '$*' _ cp note.md \"$(cat target)/f.md\"",
    'eval set -- cp note.md \'"$(cat target)"/f.md\'; "$@"',
    'source /dev/null; eval set -- cp note.md \'"$(cat target)"/f.md\'; "$@"',
]
"""The words the positional parameters hold came from where the guard does not read them."""
CODE_HIDDEN = [
    'bash -o errexit -c \'"$@"\' _ cp note.md "$(cat target)/f.md"',
    'bash -O extglob -c \'"$@"\' _ cp note.md "$(cat target)/f.md"',
    'bash --rcfile /dev/null -c \'"$@"\' _ cp note.md "$(cat target)/f.md"',
    'bash -c "\\"\\$@\\"" _ cp note.md "$(cat target)/f.md"',
    'c=\'"$@"\'; bash -c "$c" _ cp note.md "$(cat target)/f.md"',
    'bash -s cp note.md "$(cat target)/f.md" <<< \'"$@"\'',
    'echo \'"$@"\' | bash -s cp note.md "$(cat target)/f.md"',
    'bash /dev/stdin cp note.md "$(cat target)/f.md" <<< \'"$@"\'',
    'source /dev/stdin cp note.md "$(cat target)/f.md" <<< \'"$@"\'',
    'find . -maxdepth 0 -exec sh -c \'"$@"\' _ cp note.md "$(cat target)/f.md" \\;',
]
"""A shell's code behind options taking a word, in quoting or a variable the guard does not
read as the code, on standard input, or run by ``find``: the words given to it are run."""
EVAL_RUN = [
    "e=eval; $e cp note.md '\"$(cat target)\"/f.md'",
    'f() {{ eval "$@"; }}; f cp note.md \'"$(cat target)"/f.md\'',
    'function f {{ eval "$*"; }}; f cp note.md \'"$(cat target)"/f.md\'',
    'h=hash; $h -p /bin/cp c; c note.md "$(cat target)/f.md"',
    'h=hash; $h -lp /bin/cp c; c note.md "$(cat target)/f.md"',
    'h=hash; $h -p/bin/cp c; c note.md "$(cat target)/f.md"',
    '$(echo hash) -p /bin/cp c; c note.md "$(cat target)/f.md"',
    'eval hash -p /bin/cp c; c note.md "$(cat target)/f.md"',
    "eval 'hash -p /bin/cp c'; c note.md \"$(cat target)/f.md\"",
]
"""``eval`` and ``hash`` reached where the guard looked for their literal names only."""
MADE_AND_RUN_THROUGH_PATH = [
    'ln -s /bin/cp tool; PATH=.:$PATH tool note.md "$(cat target)/f.md"',
    'cp /bin/cp tool && PATH=.:$PATH; tool note.md "$(cat target)/f.md"',
    'mkdir b; ln -s /bin/cp b/tool; export PATH=$PWD/b:$PATH; tool note.md "$(cat target)/f.md"',
    'PATH=bin:$PATH cpy note.md "$(cat target)/f.md"',
    'export PATH=$PWD/bin:$PATH; cpy note.md "$(cat target)/f.md"',
    'ln -s bin lnk; PATH=lnk:$PATH cpy note.md "$(cat target)/f.md"',
    'ln -s "$PWD/bin" lnk; export PATH=$PWD/lnk:$PATH; cpy note.md "$(cat target)/f.md"',
    'cp -r bin b2; PATH=b2:$PATH cpy note.md "$(cat target)/f.md"',
    'mkdir -p d && cp -P bin/cpy d/ && PATH=d:$PATH cpy note.md "$(cat target)/f.md"',
]
"""A program the command makes, then runs by its bare name from ``PATH``; or one a folder the
command puts on ``PATH`` holds (``bin/cpy``, a link to ``cp`` made in an earlier call), or a
folder the command makes a link or writes into (``ln -s bin lnk``, ``cp -r bin b2``): it may
hold any program."""
FUNCTION_CHAINS = [
    'f() {{ "$@"; }}; g() {{ f "$@"; }}; g cp note.md "$(cat target)/f.md"',
    'g() {{ f "$@"; }}; f() {{ "$@"; }}; g cp note.md "$(cat target)/f.md"',
    'f() {{ eval "$@"; }}; g() {{ f "$@"; }}; g cp note.md \'"$(cat target)"/f.md\'',
    'set -- cp note.md; f() {{ "$@" "$(cat target)/f.md"; }}; f "$@"',
    'f() {{ "$@" "$(cat target)/f.md"; }}; f cp note.md',
    'f() {{ local c="$*"; eval "$c"; }}; f cp note.md \'"$(cat target)"/f.md\'',
    'f() {{ c="$@"; eval $c; }}; f cp note.md \'"$(cat target)"/f.md\'',
]
"""A function running (some of) its arguments reached through another function, one adding
words of its own after them, or one handing them to ``eval`` or running them through a
variable: each is a wrapper of the words it is called with."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    other = where.root / where.other
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "list").write_text(f"cp\nnote.md\n{other}/f.md\n", encoding="utf-8")
    (work / "words").write_text(f"cp note.md {other}/f.md\n", encoding="utf-8")
    (work / "bin").mkdir()
    (work / "bin" / "cpy").symlink_to(shutil.which("cp") or "/bin/cp")


@pytest.mark.parametrize(
    "command",
    ARRAYS_RUN
    + POSITIONAL_RUN
    + CODE_HIDDEN
    + EVAL_RUN
    + MADE_AND_RUN_THROUGH_PATH
    + FUNCTION_CHAINS,
)
def test_p3_words_run_as_a_command_the_guard_cannot_read_are_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("shell", ["zsh", "ksh", "mksh", "yash"])
def test_p3_other_shells_running_their_arguments_are_refused(
    where: Layout, harness: str, shell: str
) -> None:
    """The same for shells this machine may not have (bash runs each form above): their
    ``-c`` code is read as bash's is, ``"$@"`` the words after it: the copy's destination,
    known only at run time, is named."""
    _prepared(where)
    command = fill(f'{shell} -c \'"$@"\' _ cp note.md "$(cat target)/f.md"', where)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": command}))

    assert reason is not None, command
    assert "$(cat target)/f.md" in reason


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ('cmd=(touch made.txt); "${{cmd[@]}}"', "made.txt"),
        ('cmd=(cp note.md {root}/{own}/a.md); "${{cmd[@]}}"', "{root}/{own}/a.md"),
        ('args=(-p build/out); mkdir "${{args[@]}}"', "build/out"),
        ('set -- touch made.txt; "$@"', "made.txt"),
        ("bash -c 'echo \"$@\" > made.txt' _ a b", "made.txt"),
        ('cmd=(touch); cmd+=(made.txt); "${{cmd[@]}}"', "made.txt"),
        ('cmd=(touch made.txt); [ -n "$V" ] && cmd+=(-c); "${{cmd[@]}}"', "made.txt"),
        ('cmd=(touch made.txt); [ -t 1 ] || cmd=(touch -m made.txt); "${{cmd[@]}}"', "made.txt"),
        ('arr=(); arr+=(ls); "${{arr[@]}}" > made.txt', "made.txt"),
        ("bash -c '\"$@\"' _ touch made.txt", "made.txt"),
        ("bash -c '\"$@\"' _ ls -la > made.txt", "made.txt"),
        ("sh -c 'exec \"$@\"' _ touch made.txt", "made.txt"),
        ("bash -c 'set -e; \"$@\"' _ touch made.txt", "made.txt"),
        ("bash -o errexit -c '\"$@\"' _ touch made.txt", "made.txt"),
        ("bash -eu -o pipefail -c 'touch \"$@\"' _ made.txt", "made.txt"),
        ("find . -maxdepth 0 -exec sh -c 'ls \"$1\" > made.txt' _ {{}} \\;", "made.txt"),
        ("e=eval; $e touch made.txt", "made.txt"),
        ('f() {{ eval "$@"; }}; f touch made.txt', "made.txt"),
        ("h=hash; $h -p /bin/touch t; t made.txt", "made.txt"),
        ('hash printf; printf %s "$(cat note.md)" > made.txt', "made.txt"),
        ("ln -s /bin/cp tool; PATH=.:$PATH tool note.md copy.md", "copy.md"),
        ('export PATH=$PWD/bin:$PATH; printf %s "$(cat note.md)" > made.txt', "made.txt"),
        ("PATH=bin:$PATH cpy note.md copy.md", "copy.md"),
        ("mkdir -p tools && PATH=$PWD/tools:$PATH touch made.txt", "made.txt"),
        ("c=touch; $c made.txt", "made.txt"),
        ('f() {{ "$@"; }}; g() {{ f "$@"; }}; g touch made.txt', "made.txt"),
        ('f() {{ "$@" > made.txt; }}; f ls', "made.txt"),
        ('f() {{ local c="$*"; eval "$c"; }}; f touch made.txt', "made.txt"),
        ('t="$(command -v touch)"; "$t" made.txt', "made.txt"),
        ('"$(command -v touch)" made.txt', "made.txt"),
    ],
)
def test_p3_the_everyday_forms_of_those_shapes_pass(
    where: Layout, command: str, place: str
) -> None:
    """A literal array run as a command is read as each value it may hold (appended to,
    assigned again on a condition); a shell's ``-c`` code's ``"$@"`` as the words after it;
    ``eval`` through a variable or a function, a hashed name, a program made and run from
    ``PATH``: literal places pass; a name ``hash`` only looks up (no ``-p``) runs the program
    of that name."""
    _prepared(where)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    "command",
    ['mapfile -t a < list; "${{a[@]}}"', 'eval set -- cp note.md x; "$@"'],
)
def test_p3_the_refusal_says_the_commands_name_is_known_only_at_run_time(
    where: Layout, harness: str, command: str
) -> None:
    """Words run as the command's name are no path the shell builds: the refusal says what
    they are, and how to name the program instead."""
    _prepared(where)
    shell = fill(command, where)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))

    assert reason is not None, shell
    assert "the command's name is words known only at run time" in reason
    assert "writes a path the shell builds" not in reason
