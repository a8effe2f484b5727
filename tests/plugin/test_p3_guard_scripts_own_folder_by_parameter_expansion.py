"""P-3: a script naming its own folder as ``${BASH_SOURCE%/*}``, ``${BASH_SOURCE[0]%/*}`` or
``${0%/*}`` (parameter expansion, no ``dirname``) is read in that folder, as one spelling
``$(dirname "$0")`` is.

A change that read a script's own folder only where its text held ``dirname`` (H-5: fewer
passes over long scripts) let a script sourcing or running a neighbour through
``${BASH_SOURCE%/*}`` write through the Workspace's link into another scope (each harness let
it through; bash wrote there), and refused a script that ``cd``-s to its own parent that way
and writes there (review rv-hooks67).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
)

SCRIPTS = {
    "tools/lib1.sh": "echo x >> notes/lib1.md\n",
    "tools/lib2.sh": "echo x >> notes/lib2.md\n",
    "tools/lib3.sh": "echo x >> notes/lib3.md\n",
    "tools/lib5.sh": "echo x >> ../notes/lib5.md\n",
    "tools/sources.sh": '. "${BASH_SOURCE%/*}/lib1.sh"\n',
    "tools/sources_by_0.sh": 'source "${0%/*}/lib2.sh"\n',
    "tools/runs.sh": 'bash "${BASH_SOURCE[0]%/*}/lib3.sh"\n',
    "tools/cds.sh": 'cd "${BASH_SOURCE%/*}"; . ./lib5.sh\n',
    "tools/builds.sh": 'cd "${BASH_SOURCE%/*}/.." && mkdir -p out && echo x > out/builds.txt\n',
    "tools/builds_by_0.sh": 'cd "${0%/*}/.." && mkdir -p out && echo x > out/builds_by_0.txt\n',
}


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    layout = guarded_layout(tmp_path, monkeypatch)
    for name, text in SCRIPTS.items():
        (layout.workspace / name).parent.mkdir(exist_ok=True)
        (layout.workspace / name).write_text(text, encoding="utf-8")
    return layout


@pytest.mark.parametrize("script", ["sources", "sources_by_0", "runs", "cds"])
def test_p3_a_script_reaching_a_neighbour_by_its_own_folder_is_read_there(
    where: Layout, script: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, f"bash tools/{script}.sh")


@pytest.mark.parametrize("script", ["builds", "builds_by_0"])
def test_p3_a_script_writing_beside_its_own_folder_passes(where: Layout, script: str) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, f"bash tools/{script}.sh", f"out/{script}.txt"
    )
