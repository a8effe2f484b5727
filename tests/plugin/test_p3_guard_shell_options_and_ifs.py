"""P-3: how shell options, ``IFS`` and branches change what a command writes, read as bash does.

Each form the last review left as a known limit, decided with real bash:

- ``IFS`` set at run time or in a branch (``IFS=$(printf @)``, ``for IFS in @``, ``case …
  IFS=@;; esac``, ``if …; then IFS=@; fi``) splits an unquoted ``cp $X`` at ``@`` into a note
  and a file in another scope: each was let through (the guard took an undecided ``IFS`` for
  white space), and bash wrote there. An ``IFS`` that may hold one of several values is now read
  as holding every character any of them holds; undecided, as splitting anywhere.
- ``set -e``, ``set -euo pipefail``, ``set -o errexit``, ``set -x`` only set the shell's options:
  a command can end sooner under them, never write elsewhere. Each made every later place with
  a ``$`` "built at run time", so ``set -e; OUT=dist; cp note.md $OUT/`` was refused: an everyday
  script's first line. Only a ``set`` giving the positional parameters (``set -- $X``) still does.
- ``find … -exec … \\; X=…`` and ``-exec … +``, a ``case`` whose catch-all keeps a variable's
  value, an assignment or a ``cd`` in an ``if`` condition kept into ``else``/``elif``, and
  ``||``/``&&`` after ``set -e`` were already refused where bash writes into another scope: kept
  here as the spec.
- ``read NAME`` made every later place with a ``$`` built at run time (``while IFS= read -r
  line; …; done > "$OUT/x"`` was refused); now only one naming other than plain names does
  (``read "$v"``), its plain names being undecided where used. Reading it, a ``HOME`` or
  ``OLDPWD`` the command sets was found read from the environment by ``~`` and ``cd -``
  (``read HOME < f; echo x > ~/a.md`` wrote into another scope): they now take the command's.
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

NEWLY_REFUSED = [
    SPLIT + "IFS=$(printf @); cp $X",
    SPLIT + "for IFS in @; do cp $X; done",
    SPLIT + "case 1 in 1) IFS=@;; esac; cp $X",
    SPLIT + "if true; then IFS=@; fi; cp $X",
    # a HOME or OLDPWD the command sets: ``~`` and ``cd -`` were read from the environment's
    "HOME=$(cat target); echo x > ~/a.md",
    'printf -v HOME %s "$(cat target)"; echo x > ~/a.md',
    "read HOME < target; echo x > ~/a.md",
    "OLDPWD=$(cat target); cd -; echo x > a.md",
    "read OLDPWD < target; cd -; echo x > a.md",
]
ALREADY_REFUSED = [
    SPLIT + "IFS=@; cp $X",
    SPLIT + "read -r IFS <<< @; cp $X",
    SPLIT + "set -o posix; IFS=@ :; cp $X",
    'set -- {root_tail} {other} a.md; IFS=/; cp note.md "/$*"',
    # find: a word after its action's end is find's, not an assignment of the shell
    "X={root}/{other}; find . -maxdepth 0 -exec true \\; X=.; echo x > $X/a.md",
    "X={root}/{other}; find . -maxdepth 0 -exec true {{}} + X=.; echo x > $X/a.md",
    "find . -maxdepth 0 -exec sh -c 'X=$(cat target); echo x > $X/a.md' \\; -exec true {{}} +",
    "find {root}/{other} -maxdepth 0 -exec sh -c 'echo x > \"$1/a.md\"' _ {{}} +",
    # a case whose catch-all (or no branch) keeps the value before it
    "X={root}/{other}; case $UNSET_VARIABLE in a) X=.;; *) ;; esac; echo x > $X/a.md",
    "X={root}/{other}; case b in a) X=.;; *) Y=1;; esac; echo x > $X/a.md",
    "X={root}/{other}; case b in\n  a) X=.;;\nesac\necho x > $X/a.md",
    # an if condition's assignment or cd holds in its else and elif
    "X=.; if X={root}/{other}$(false); then :; else echo x > $X/a.md; fi",
    "X=.; if false; then :; elif X={root}/{other}; false; then :; else echo x > $X/a.md; fi",
    "if cd {root}/{other} && false; then :; else echo x > a.md; fi",
    # shell options, then lists
    "set -e; X=.; false || X={root}/{other}; echo x > $X/a.md",
    "set -o errexit; X=.; true && X={root}/{other}; echo x > $X/a.md",
    'set -euo pipefail; X={root}/{other}; echo x > "$X/a.md"',
    "set -e; cd notes; echo x > a.md",
    "X=.; set -- {root}/{other}; echo x > $1/a.md",
    # read: its names undecided; one named at run time may be any variable
    "d=.; read -r d < target; echo x > $d/a.md",
    "read -r -d '' d < target; echo x > \"$d/a.md\"",
    'v=d; read -r "$v" < target; echo x > $d/a.md',
    "cd {root}/{other}; cd {workspace}; cd -; echo x > a.md",
    "X={root}/{other}; X=. read -r a <<< x; echo x > $X/a.md",  # a prefix: gone after read
]


@pytest.fixture
def here(where: Layout) -> Layout:
    """The P-3 layout with ``note.md`` in the Workspace and ``target`` naming the other scope."""
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    return where


@pytest.mark.parametrize("command", NEWLY_REFUSED + ALREADY_REFUSED)
def test_p3_a_write_whose_place_ifs_options_or_branches_decide_is_refused(
    here: Layout, command: str
) -> None:
    """``NEWLY_REFUSED`` were let through, and bash wrote into the other scope."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


EVERYDAY = [
    ("set -e; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ('set -euo pipefail\nOUT=build\nmkdir -p "$OUT"\ncp note.md "$OUT/"', "build/note.md"),
    (
        "set -o errexit -o nounset; out=reports; mkdir -p $out && echo ok > $out/s.txt",
        "reports/s.txt",
    ),
    ('set -ex; f=note.md; cp "$f" "$f.bak"', "note.md.bak"),
    ('set +e; D=${{D:-out}}; mkdir -p "$D"; echo ok > "$D/stamp" || true', "out/stamp"),
    ("set -eu; LOG=build.log; make -v > $LOG 2>&1 || true", "build.log"),
    ("IFS=$'\\n\\t'; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("if true; then IFS=$'\\n'; fi; OUT=lib; mkdir -p $OUT; cp note.md $OUT/", "lib/note.md"),
    ('old="$IFS"; IFS=,; IFS=$old; OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    ('while IFS= read -r line; do echo "$line"; done < note.md > "$PWD/out.txt"', "out.txt"),
    (
        'IFS=, read -r a b <<< "x,y"; OUT=dist; mkdir -p "$OUT"; echo "$a" > "$OUT/a.txt"',
        "dist/a.txt",
    ),
    ("mkdir -p build && cd build && touch x && cd - && echo ok > log.txt", "log.txt"),
    (
        "OUT=dist; case x in a) OUT=rel;; *) ;; esac; mkdir -p $OUT; cp note.md $OUT/",
        "dist/note.md",
    ),
]
"""Everyday scripts: shell options first, an ``IFS`` of white space, a case's catch-all, a
``read`` loop, ``cd -``."""


@pytest.mark.parametrize(("command", "place"), EVERYDAY)
def test_p3_shell_options_and_a_white_space_ifs_leave_values_judged(
    here: Layout, command: str, place: str
) -> None:
    """Each was refused after ``set``, or is kept passing: it lands where the guard read."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, place)
