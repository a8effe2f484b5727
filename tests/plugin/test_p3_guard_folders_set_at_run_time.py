"""P-3: folders a command sets at run time that a place takes without a ``$`` in it.

Each form below was let through before this round, and bash wrote into another scope:

- ``~-`` and ``~+`` took ``OLDPWD`` and ``PWD`` from the environment, not the command's
  (``read -r OLDPWD < target; echo x > ~-/a.md``); ``pushd -`` was not read as ``cd -``;
- ``cd NAME`` looked up in a ``CDPATH`` the command set at run time, or, after ``shopt -s
  cdable_vars``, in the variable ``NAME``, was taken as ``./NAME``;
- a name reference (``declare -n R=X``) assigned through ``R`` changed ``X`` unseen;
- ``select x in …`` set ``x`` to a word known only at run time;
- a bare ``cd`` (``HOME``) was read as a ``cd`` into a folder named ``&&`` or ``;``, and code
  ``eval`` or ``bash -c`` runs took ``HOME`` from the environment, not the command's
  (``HOME=$(cat target); eval 'echo x > ~/a.md'``, ``HOME=… bash -c …``).

Each is now refused; everyday ``cd -``, ``pushd``/``popd`` and a known ``CDPATH`` still pass,
and so do ``unset CDPATH`` (no ``CDPATH``), a ``CDPATH=… cd`` prefix with a literal value, and a
``cd`` inside ``( )`` or ``$( )`` (``DIR=$(CDPATH= cd -- sub && pwd)``): the last round refused
each.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
)

SET_AT_RUN_TIME = [
    "read -r OLDPWD < target; echo x > ~-/a.md",
    "PWD=$(cat target); echo x > ~+/a.md",
    "read -r OLDPWD < target; pushd - >/dev/null; echo x > a.md",
    "CDPATH=$(dirname $(cat target)); cd {other} && echo x > a.md",
    "read -r C < target; mkdir -p $C/sub; CDPATH=$C cd sub; echo x > a.md",
    "shopt -s cdable_vars; read -r D < target; cd D && echo x > a.md",
    "X=.; declare -n R=X; R=$(cat target); echo x > $X/a.md",
    "HOME=.; declare -n R=HOME; read R < target; echo x > ~/a.md",
    "x=.; select x in $(cat target); do break; done <<< 1; echo x > $x/a.md",
    "HOME=$(cat target); cd && touch a.md",
    "HOME=$(cat target); cd; touch a.md",
    "HOME=$(cat target); eval 'echo x > ~/a.md'",
    "HOME=$(cat target) bash -c 'echo x > ~/a.md'",
    "HOME=$(cat target) sh -c 'cd; echo x > a.md'",
    '(cd "$(cat target)" && echo x > a.md)',
    'x=$(cd "$(cat target)" && echo x > a.md)',
    "read -r C < target; mkdir -p $C/sub; (CDPATH=$C cd sub && echo x > a.md)",
    "read -r C < target; mkdir -p $C/sub; x=$(CDPATH=$C cd sub && echo x > a.md)",
    "read -r C < target; mkdir -p $C/sub; CDPATH=$C; unset -f CDPATH; cd sub; echo x > a.md",
]


@pytest.fixture
def here(where: Layout) -> Layout:
    """The P-3 layout with ``note.md`` and ``sub/`` in the Workspace, ``target`` naming the
    other scope."""
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "sub").mkdir()
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    return where


@pytest.mark.parametrize("command", SET_AT_RUN_TIME)
def test_p3_a_folder_set_at_run_time_is_undecided_without_a_dollar(
    here: Layout, command: str
) -> None:
    """Each was let through, and bash wrote into the other scope."""
    assert_refused_by_every_harness_and_bash_writes(here, command)


EVERYDAY = [
    ("cd sub && cd - && echo ok > log.txt", "log.txt"),
    ("cd sub; echo ok > ~-/log.txt", "log.txt"),
    ("cd sub && echo ok > ~+/log.txt", "sub/log.txt"),
    ("pushd sub >/dev/null; echo ok > a.txt; popd >/dev/null; echo ok > b.txt", "sub/a.txt"),
    ("pushd sub >/dev/null && pushd - >/dev/null && echo ok > c.txt", "c.txt"),
    ("CDPATH=.; cd sub && echo ok > d.txt", "sub/d.txt"),
    ("for x in a b; do echo $x >> sel.txt; done; echo ok > ~+/e.txt", "e.txt"),
    ("HOME={workspace}/sub; cd && echo ok > f.txt", "sub/f.txt"),
    ("HOME={workspace}; eval 'echo ok > ~/g.txt'", "g.txt"),
    ("cd; cd {workspace} && echo ok > h.txt", "h.txt"),
]
"""Everyday folder moves: ``cd -``, ``~-``, ``~+``, ``pushd``/``popd``, a known ``CDPATH``, a
bare ``cd`` to a known ``HOME``."""


@pytest.mark.parametrize(("command", "place"), EVERYDAY)
def test_p3_everyday_folder_moves_are_judged_where_they_land(
    here: Layout, command: str, place: str
) -> None:
    """Each passes, and lands where the guard read."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, place)


CDPATH_DECIDED = [
    "mkdir -p dist; unset CDPATH; cd sub; cp ../note.md ../dist/",
    "mkdir -p dist; unset CDPATH; OUT=dist; cd sub; cd ..; cp note.md $OUT/",
    "mkdir -p dist; CDPATH= cd sub; cp ../note.md ../dist/",
    "mkdir -p dist; CDPATH=. cd sub; cp ../note.md ../dist/",
    "mkdir -p dist; OUT=dist; CDPATH=. cd sub; cd ..; cp note.md $OUT/",
    "mkdir -p dist; (unset CDPATH; cd sub && make -s 2>/dev/null); cp note.md dist/",
    "mkdir -p dist; (CDPATH= cd sub && make -s 2>/dev/null); cp note.md dist/",
    "mkdir -p dist; here=$(CDPATH= cd sub && pwd); cp note.md dist/",
    'mkdir -p dist; DIR=$(CDPATH= cd -- "$(dirname note.md)" && pwd); cp note.md dist/',
    'mkdir -p dist; (cd "$(dirname note.md)" && make -s 2>/dev/null); cp note.md dist/',
    "mkdir -p dist; read -r C < target; (CDPATH=$C cd sub && true); cp note.md dist/",
]


@pytest.mark.parametrize("command", CDPATH_DECIDED)
def test_p3_a_decided_cdpath_or_a_cd_in_a_subshell_is_judged_where_it_lands(
    here: Layout, command: str
) -> None:
    """Each was refused; it passes, and lands in ``dist/``."""
    assert_allowed_by_every_harness_and_bash_writes_there(here, command, "dist/note.md")
