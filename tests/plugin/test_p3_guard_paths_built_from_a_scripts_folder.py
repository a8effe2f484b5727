"""P-3: a script's path built from its own folder (``"$(dirname "$0")/../notes/x.md"``).

The guard reads a script's own folder where it names it by ``$0`` or ``BASH_SOURCE``
(``hooks.named_scripts``), but judged it only when the script ``cd``\\ ed there: a redirection,
or a link's target was let through by every harness, and bash wrote through the Workspace's
link ``notes`` into another Workspace's scope (measured below). Now a word holding the
script's folder is read as that folder, where the script lies, and judged as any path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    SHELL,
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
    refusals_by_every_harness,
)

SCRIPTS = {
    "p1.sh": 'echo x >> "$(dirname "$0")/../notes/p1.md"\n',
    "p2.sh": 'echo x >> "${BASH_SOURCE%/*}/../notes/p2.md"\n',
    "p3.sh": 'ln -sfn "$(dirname "$0")/../notes" lnk3; echo x > lnk3/p3.md\n',
    "q1.sh": 'echo x >> "$(dirname "$0")"/../notes/q1.md\n',
    "q2.sh": 'echo x >> "${BASH_SOURCE%/*}"/../notes/q2.md\n',
    "q3.sh": 'cp /etc/hostname "$(dirname "$0")"/../notes/q3.md\n',
    "q4.sh": 'echo x >> "$(cd "$(dirname "$0")/.." && pwd)"/notes/q4.md\n',
    "q5.sh": 'echo x >> "$(dirname "$0")/.."/notes/q5.md\n',
    "q6.sh": 'ln -s "$(dirname "$0")"/../notes lnk6; echo x > lnk6/q6.md\n',
}
"""Scripts in the Workspace's ``tools/`` writing through its link ``notes`` by a path built
from their own folder (``q…``: the folder quoted alone, the rest glued after the quote, as many
scripts write it; let through after the first fix: review rv-own67b)."""
EVERYDAY = {
    "make.sh": 'cd "$(dirname "$0")/.." && make -q nothing 2>/dev/null; true\n',
    "run.sh": '"$(dirname "$0")"/other.sh\n',
    "other.sh": "echo x > other.txt\n",
    "quoted.sh": 'mkdir -p "$(dirname "$0")"/../out\necho x > "$(dirname "$0")"/../out/q.txt\n',
    "build.sh": 'cd "${BASH_SOURCE%/*}/.." && mkdir -p out && echo x > out/ok.txt\n',
}
"""Everyday scripts of ``tools/`` building from their own folder."""


def _tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The layout with the scripts above in the Workspace's ``tools/``."""
    where = guarded_layout(tmp_path, monkeypatch)
    (where.workspace / "tools").mkdir()
    for name, text in {**SCRIPTS, **EVERYDAY}.items():
        (where.workspace / "tools" / name).write_text(text, encoding="utf-8")
    (where.workspace / "tools" / "other.sh").chmod(0o755)
    return where


@pytest.mark.parametrize(
    "script", ["p1.sh", "p2.sh", "p3.sh", "q1.sh", "q2.sh", "q3.sh", "q4.sh", "q5.sh", "q6.sh"]
)
def test_p3_a_script_writing_by_a_path_from_its_own_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    where = _tools(tmp_path, monkeypatch)

    assert_refused_by_every_harness_and_bash_writes(where, f"bash tools/{script}")


def test_p3_everyday_scripts_building_from_their_own_folder_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _tools(tmp_path, monkeypatch)

    assert refusals_by_every_harness(where, "bash tools/make.sh") == dict.fromkeys(SHELL)
    assert_allowed_by_every_harness_and_bash_writes_there(where, "bash tools/run.sh", "other.txt")
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "bash tools/build.sh", "out/ok.txt"
    )
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "bash tools/quoted.sh", "out/q.txt"
    )
