"""P-3: a ``read`` that may set a variable the guard cannot name makes every variable undecided.

The last round let ``read`` mark only the plain names it was given, and only when ``read`` was
the command's first word; its check of other names got no operands, so each form below was let
through, and bash wrote into another scope:

- a name built at run time (``read -r "$v"``, ``"${v}"``, a function's ``"$1"``), in any group
  or list; an array's element (``X[0]``, ``'X[0]'``); an array's name glued to its option
  (``read -ad``, ``-rad``, ``-r -ad``, ``-raX``);
- a ``read`` run by ``command``, ``builtin`` or a variable (``r=read; $r -r X``);
- a ``read`` given no name: it sets ``REPLY`` (``read -r``, ``-u 0``, ``-t 2``, ``while read -r``);
- a name reference (``declare -n R=X; read -r R``: reading ``R`` sets ``X``);
- the variables a place takes without a ``$``: ``IFS`` (a split), ``HOME`` (``~``), ``OLDPWD``
  (``cd -``).

Everyday ``read`` forms (``read -n1 -r key``, ``read -ra parts``, ``IFS=, read``, ``read -r -d ''``)
keep every other variable decided: see ``EVERYDAY``.
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

NAMED_AT_RUN_TIME = [
    'd=.; v=d; read -r "$v" < target; echo x > $d/a.md',
    'd=.; v=d; {{ read -r "$v" < target; }}; echo x > $d/a.md',
    'd=.; v=d; if true; then read -r "$v" < target; fi; echo x > $d/a.md',
    'd=.; v=d; for i in 1; do read -r "$v" < target; done; echo x > $d/a.md',
    'd=.; v=d; while true; do read -r "$v" < target; break; done; echo x > $d/a.md',
    'd=.; v=d; true && read -r "$v" < target; echo x > $d/a.md',
    'd=.; v=d; false || read -r "$v" < target; echo x > $d/a.md',
    'd=.; v=d; case 1 in 1) read -r "$v" < target;; esac; echo x > $d/a.md',
    'd=.; v=d; read -r "${{v}}" < target; echo x > $d/a.md',
    'd=.; f() {{ read -r "$1" < target; }}; f d; echo x > $d/a.md',
    "X=.; read -r X[0] < target; echo x > $X/a.md",
    "X=.; read -r 'X[0]' < target; echo x > $X/a.md",
    'd=.; read -ad <<< "$(cat target)"; echo x > $d/a.md',
    'd=.; read -rad <<< "$(cat target)"; echo x > $d/a.md',
    'd=.; read -r -ad <<< "$(cat target)"; echo x > $d/a.md',
    "X=.; read -raX < target; echo x > $X/a.md",
]
WRAPPED = [
    "X=.; command read -r X < target; echo x > $X/a.md",
    "X=.; builtin read -r X < target; echo x > $X/a.md",
    "X=.; r=read; $r -r X < target; echo x > $X/a.md",
]
REPLY = [
    'REPLY=.; read -r < target; echo x > "$REPLY/a.md"',
    'REPLY=.; read -u 0 < target; echo x > "$REPLY/a.md"',
    'REPLY=.; read -t 2 < target; echo x > "$REPLY/a.md"',
    'REPLY=.; read -r -d @ <<< "$(cat target)@"; echo x > "$REPLY/a.md"',
    'REPLY=.; while read -r; do echo x > "$REPLY/a.md"; done < target',
]
NAMEREFS = ["X=.; declare -n R=X; read -r R < target; echo x > $X/a.md"]
WITHOUT_A_DOLLAR = [
    SPLIT + 'v=IFS; read -r "$v" <<< @; cp $X',
    SPLIT + "command read -r IFS <<< @; cp $X",
    "builtin read -r HOME < target; echo x > ~/a.md",
    'v=HOME; read -r "$v" < target; echo x > ~/a.md',
    "read -raHOME < target; echo x > ~/a.md",
    "read -r HOME[0] < target; echo x > ~/a.md",
    "r=read; $r -r HOME < target; echo x > ~/a.md",
    "command read -r OLDPWD < target; cd -; echo x > a.md",
]


@pytest.fixture
def here(where: Layout) -> Layout:
    """The P-3 layout with ``note.md`` in the Workspace and ``target`` naming the other scope."""
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    return where


@pytest.mark.parametrize(
    "command", NAMED_AT_RUN_TIME + WRAPPED + REPLY + NAMEREFS + WITHOUT_A_DOLLAR
)
def test_p3_a_read_that_may_set_any_variable_leaves_every_place_undecided(
    here: Layout, command: str
) -> None:
    """Each was let through, and bash wrote into the other scope."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


EVERYDAY = [
    ("read -r first < note.md; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ("read -n1 -r key <<< y; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ('read -rn1 key <<< y; OUT=dist; mkdir -p "$OUT"; cp note.md "$OUT/"', "dist/note.md"),
    ("read -t5 -r ans <<< y; OUT=dist; mkdir -p $OUT; cp note.md $OUT/", "dist/note.md"),
    ('read -r -p "go? " ans <<< y; OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    ('read -ra parts <<< "a b"; OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    ('IFS=, read -ra parts <<< "a,b"; OUT=dist; mkdir -p $OUT; cp note.md $OUT/', "dist/note.md"),
    (
        "read -r -d '' body < note.md || true; OUT=dist; mkdir -p $OUT; cp note.md $OUT/",
        "dist/note.md",
    ),
    (
        'read -r a b 2>/dev/null <<< "x y"; OUT=dist; mkdir -p $OUT; cp note.md $OUT/',
        "dist/note.md",
    ),
    ('while IFS= read -r line; do echo "$line"; done < note.md > "$PWD/out.txt"', "out.txt"),
    ('while read -r; do echo "$REPLY"; done < note.md > "$PWD/reply.txt"', "reply.txt"),
]
"""Everyday ``read`` forms: options with values glued or apart, an array, no name."""


@pytest.mark.parametrize(("command", "place"), EVERYDAY)
def test_p3_a_read_of_plain_names_leaves_other_variables_decided(
    here: Layout, command: str, place: str
) -> None:
    """Each passes, and lands where the guard read."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, place)
