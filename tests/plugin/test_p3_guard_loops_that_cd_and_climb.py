"""P-3: why a script's ``for d in */; do cd "$d"; make; cd ..; done`` leaves its folder unknown.

Each pass returns to the start only when its ``cd "$d"`` succeeds: a pass whose folder is gone
(an earlier pass's ``make`` removed it) or cannot be entered stays where it was, and its ``cd
..`` climbs one folder higher; so does every pass after it. A relative write after the loop
then lands above the Workspace. The guard follows no such loop in a script (the folder after
it is unknown, a relative write there refused); the command's own loop is judged from every
folder it may end in. Here bash climbs out of the Workspace and writes through a link beside
it into another Workspace's scope.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
    refusals_by_every_harness,
)

CLIMBS = 'for d in a b; do cd "$d"; make; cd ..; done\necho x >> beside/{name}.md\n'
"""A loop whose second pass's folder the first pass's ``make`` removes (``a/Makefile``)."""


def test_p3_a_loop_whose_cd_may_fail_climbs_and_stays_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    for folder in ("a", "b"):
        (where.workspace / folder).mkdir()
    (where.workspace / "a/Makefile").write_text("all:\n\trm -rf ../b\n", encoding="utf-8")
    (where.workspace.parent / "beside").symlink_to(where.root / where.other)
    (where.workspace / "c1.sh").write_text(CLIMBS.format(name="c1"), encoding="utf-8")
    command = CLIMBS.format(name="c2").replace("\n", "; ", 1)

    assert all(refusals_by_every_harness(where, command).values())
    assert_refused_by_every_harness_and_bash_writes(where, "bash c1.sh")
