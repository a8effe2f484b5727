"""P-3: how far an ``IFS`` the command sets reaches, read as bash does.

- A default (``${X:-.}``, ``${X:-}``, ``${X=x}``, ``${X:=x}``) was replaced by the variable's
  value before the guard asked whether ``IFS`` splits it: with ``IFS`` holding ``@``, or
  undecided (``read -r IFS``, ``IFS=$(printf @)``, ``for IFS in @``, a branch), ``cp ${X:-.}``
  was let through and bash wrote into another scope. A default now waits on ``IFS`` as a
  plain ``$X`` does.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
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
