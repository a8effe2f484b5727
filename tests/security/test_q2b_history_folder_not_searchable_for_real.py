"""Q-2b with the kernel's own refusal: a folder on the way to an agent's history that the
service may not look into is named by its place in the data dir, the data dir itself by name.

The data dir itself not searchable (``chmod 600`` by mistake) was said as "cannot look into
its folder . in the data dir", which names no folder an operator can find.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test

ASK = """
import sys
from pathlib import Path
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.history.recorder import checked_history_root
try:
    checked_history_root(Path(sys.argv[1]), "coder")
except HistoryUnavailable as refused:
    print(refused.detail)
"""


def _refusal(data_dir: Path) -> str:
    """What the history of agent ``coder`` answers to a process the kernel refuses."""
    done = subprocess.run(
        [*refused_prefix(), sys.executable, "-c", ASK, str(data_dir)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", **code_under_test()},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("unsearchable", "named"),
    [
        ("", "the data dir itself"),
        ("agents/coder/agent_state", "its folder agents/coder/agent_state in the data dir"),
    ],
    ids=["the-data-dir", "a-folder-in-it"],
)
def test_q2b_a_history_folder_not_searchable_is_named_by_its_place(
    tmp_path: Path, unsearchable: str, named: str
) -> None:
    data_dir = tmp_path / "data"
    (data_dir / "agents" / "coder" / "agent_state" / "history").mkdir(parents=True)
    folder = data_dir / unsearchable
    folder.chmod(0o600)
    try:
        detail = _refusal(data_dir)
    finally:
        folder.chmod(0o755)

    assert detail.startswith(
        f"the history cannot be read: the service cannot look into {named} (Permission denied)"
    ), detail
