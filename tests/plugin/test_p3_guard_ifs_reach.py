"""P-3: how far an ``IFS`` the command sets reaches, read as bash does.

- A default (``${X:-.}``, ``${X:-}``, ``${X=x}``, ``${X:=x}``) was replaced by the variable's
  value before the guard asked whether ``IFS`` splits it: with ``IFS`` holding ``@``, or
  undecided (``read -r IFS``, ``IFS=$(printf @)``, ``for IFS in @``, a branch), ``cp ${X:-.}``
  was let through and bash wrote into another scope. A default now waits on ``IFS`` as a
  plain ``$X`` does.
- An ``IFS`` set inside ``( … )`` or ``$( … )``, or by ``local`` in a function's body, was
  kept undecided after it, and ``unset IFS`` left it undecided: every later place with a ``$``
  was refused (``csv=$(IFS=,; echo …); cp note.md $OUT/``). A subshell's assignments never
  reach the shell after it, a ``local`` one is gone when the function returns (one the body
  made before its ``local`` is the caller's), and ``unset IFS`` splits at white space.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
)

SPLIT = 'X="note.md@{root}/{other}/a.md"; '
"""A value that, split at ``@``, is ``cp``'s note and a file in another scope."""

DEFAULTS_SPLIT = [
    SPLIT + "read -r IFS <<< @; cp ${{X:-.}}",
    SPLIT + "IFS=@; Y=${{UNSET_VARIABLE:-$X}}; cp ${{Y:-.}}",
    SPLIT + "IFS=$(printf @); cp ${{X:-x}}",
    SPLIT + "for IFS in @; do cp ${{X:-x}}; done",
    SPLIT + "case 1 in 1) IFS=@;; esac; cp ${{X:-.}}",
    SPLIT + "if true; then IFS=@; fi; cp ${{X:-.}}",
    SPLIT + "IFS=@; cp ${{X:-}}",
    SPLIT + "IFS=@; cp ${{X=x}}",
    SPLIT + "IFS=@; cp ${{X:=x}}",
]


@pytest.fixture
def here(where: Layout) -> Layout:
    """The P-3 layout with ``note.md`` in the Workspace and ``target`` naming the other scope."""
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    return where


@pytest.mark.parametrize("command", DEFAULTS_SPLIT)
def test_p3_a_default_split_by_ifs_is_undecided(here: Layout, command: str) -> None:
    """Each was let through, and bash wrote into the other scope."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


KEPT_INSIDE = [
    ('csv=$(IFS=,; echo "a b"); OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    (
        'arr=(a b); joined=$(IFS=,; echo "${{arr[*]}}"); echo "$joined" > j.txt; OUT=dist; '
        'mkdir -p "$OUT"; cp note.md "$OUT/"',
        "dist/note.md",
    ),
    ('(IFS=,; echo "a,b") > sub.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    ("(IFS=:; for p in $PATH; do echo $p; done) > p.txt; cp note.md $PWD/p2.txt", "p2.txt"),
    (
        'f() {{ local IFS=,; echo "$*"; }}; f a b > j.txt; OUT=dist; mkdir -p $OUT; '
        "cp note.md $OUT/",
        "dist/note.md",
    ),
    (
        "f() {{ local IFS=$'\\n'; echo \"$*\"; }}; f a > j.txt; OUT=dist; mkdir -p $OUT; "
        "cp note.md $OUT/",
        "dist/note.md",
    ),
    (
        'join() {{ local IFS="$1"; shift; echo "$*"; }}; join , a b > j.txt; '
        "cp note.md $PWD/j2.txt",
        "j2.txt",
    ),
    ("unset IFS; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("f() {{ local IFS; IFS=,; }}; f; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("IFS=,; unset -v IFS; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
]
"""Everyday ``IFS`` in a subshell, a ``$(…)``, a function's ``local``, and ``unset IFS``."""


@pytest.mark.parametrize(("command", "place"), KEPT_INSIDE)
def test_p3_an_ifs_set_where_it_does_not_outlive_leaves_values_judged(
    here: Layout, command: str, place: str
) -> None:
    """Each was refused; it passes, and lands where the guard read."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, place)


STILL_SPLIT = [
    SPLIT + "f() {{ IFS=@; local IFS=x; }}; f; cp $X",  # the caller's IFS, then a local one
    SPLIT + "f() {{ IFS=@; }}; f; cp $X",
    SPLIT + "IFS=@; unset -f IFS; cp $X",  # a function's name: the variable stays
    SPLIT + "unset() {{ :; }}; IFS=@; unset IFS; cp $X",
    SPLIT + "{{ IFS=@; }}; cp $X",
    SPLIT + "IFS=@; (unset IFS); cp $X",
    "X=.; (X={root}/{other}; echo x > $X/a.md)",
    "X=.; Y=$(X={root}/{other}; echo $X); echo x > $Y/a.md",
]


@pytest.mark.parametrize("command", STILL_SPLIT)
def test_p3_an_ifs_or_value_that_reaches_the_write_is_still_read(
    here: Layout, command: str
) -> None:
    """A value set in this shell, or one a subshell only used itself, still decides."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


DEFAULT = "X=; "
"""``X`` set but empty: a ``${X:=notes}`` makes it ``notes``, the Workspace's link into the other
scope."""

LINK_SPLIT = "X=note.md@notes/a.md; "
"""As :data:`SPLIT`, through the Workspace's link: no other scope named in the text."""

NOT_SUBSHELLS = [
    DEFAULT + "arr=(${{X:=notes}}); cp note.md $X/a.md",
    DEFAULT + "arr=(a b ${{X:=notes}}); cp note.md $X/a.md",
    DEFAULT + "arr=(a); arr+=(${{X:=notes}}); cp note.md $X/a.md",
    DEFAULT + "declare -a arr=(a ${{X:=notes}}); cp note.md $X/a.md",
    DEFAULT + 'x=( "${{X:=notes}}" ); cp note.md $X/a.md',
    DEFAULT + "[[ ( -n ${{X:=notes}} ) ]]; cp note.md $X/a.md",
    DEFAULT + "shopt -s extglob; [[ a == @(b|${{X:=notes}}) ]]; cp note.md $X/a.md",
    LINK_SPLIT + "IFS=; [[ ( ${{IFS:=@}} ) ]]; cp $X",
    "X=note.md1notes/a.md; (( (IFS=1) )); cp $X",
    "X=note.md1notes/a.md; : $(( (IFS=1) )); cp $X",
    "HOME=; arr=( ${{HOME:=notes}} ); cp note.md ~/a.md",
    "OLDPWD=; [[ ( -n ${{OLDPWD:=notes}} ) ]]; cp note.md ~-/a.md",
]
LOCALS_THAT_MAY_NOT_HOLD = [
    LINK_SPLIT + "f() {{ false && local IFS; IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ if false; then local IFS; fi; IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ case $1 in a) local IFS;; esac; IFS=@; }}; f; cp $X",
    LINK_SPLIT + 'function f {{ [ -n "$1" ] && local IFS; IFS=@; }}; f; cp $X',
    LINK_SPLIT + "f() {{ (local IFS); IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ echo $(local IFS); IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ local IFS | true; IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ local IFS & IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ local IFS; declare -g IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ local IFS; typeset -g IFS=@; }}; f; cp $X",
    LINK_SPLIT + "f() {{ local IFS; g() {{ IFS=@; }}; }}; f; g; cp $X",
]
READONLY_UNSET = [
    LINK_SPLIT + "IFS=@; readonly IFS; unset IFS; cp $X",
    LINK_SPLIT + "IFS=@; declare -r IFS; unset IFS; cp $X",
    LINK_SPLIT + "IFS=@; typeset -r IFS; unset -v IFS; cp $X",
]


@pytest.mark.parametrize("command", NOT_SUBSHELLS + LOCALS_THAT_MAY_NOT_HOLD + READONLY_UNSET)
def test_p3_an_assignment_bash_keeps_is_not_put_back(here: Layout, command: str) -> None:
    """Each was let through, and bash wrote into the other scope."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


STILL_PUT_BACK = [
    ("(IFS=@; echo a) > s.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("{{ (IFS=@; echo a); }} > s.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("if (IFS=@; true); then OUT=dist; fi; mkdir -p dist; cp note.md dist/", "dist/note.md"),
    ("true && (IFS=@; true); OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    (
        "diff <(IFS=@; echo a) note.md > d.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/ || :",
        "dist/note.md",
    ),
    (
        "arr=(a b); n=$(( ${{#arr[@]}} + 1 )); OUT=dist; mkdir -p $OUT; cp note.md $OUT/",
        "dist/note.md",
    ),
    (
        "f() {{ local IFS=,; echo a; }}; f > j.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/",
        "dist/note.md",
    ),
    (
        "f() {{ local IFS; IFS=,; echo a; }}; f > j.txt; OUT=dist; mkdir -p $OUT; cp note.md $OUT/",
        "dist/note.md",
    ),
]
"""Everyday subshells, ``$(…)``, ``<(…)``, arrays and a function's plain ``local``: still put
back."""


@pytest.mark.parametrize(("command", "place"), STILL_PUT_BACK)
def test_p3_a_subshell_or_plain_local_still_puts_back(
    here: Layout, command: str, place: str
) -> None:
    """Each passes, and lands where the guard read."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, place)
