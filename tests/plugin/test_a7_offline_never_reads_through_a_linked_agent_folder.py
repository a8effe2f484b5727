"""A-7, H-4: the plugin's offline read (service down, the memory root configured) never reads
memory through a symlink in the data dir, as the service never follows one: ``agents/<id>``
(or ``agents/``, ``agent_state``, the memory root) linked to a folder elsewhere, or
``agent.json`` linked to a file elsewhere, is refused, naming the entry.

Before, with ``agents/linked`` a symlink to another folder, the offline read injected the
outside ``MEMORY.md`` while the service refused the same agent (503).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from harness_memory.offline import OfflineUnavailableError, session_start_from_files

from tests.plugin.helpers import hook_fixture, run_cli

OUTSIDE_NOTE = "- [Outside](outside.md) — read from outside the data dir"


def _agent(data_dir: Path) -> Path:
    """Agent ``linked`` with a user index; its memory root."""
    root = data_dir / "agents" / "linked" / "agent_state" / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "MEMORY.md").write_text(OUTSIDE_NOTE + "\n", encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("linked", "named"),
    [
        ("agents/linked", "agents/linked"),
        ("agents", "agents"),
        ("agents/linked/agent_state", "agents/linked/agent_state"),
    ],
)
def test_a7_offline_read_refuses_a_linked_part_of_the_data_dir(
    tmp_path: Path, linked: str, named: str
) -> None:
    data_dir = tmp_path / "data"
    root = _agent(data_dir)
    place = data_dir / linked
    elsewhere = tmp_path / "elsewhere"
    shutil.move(place, elsewhere)
    place.symlink_to(elsewhere, target_is_directory=True)

    with pytest.raises(OfflineUnavailableError) as refused:
        session_start_from_files(root, project="acme", agent="linked", workspace=str(tmp_path))

    said = str(refused.value)
    assert f"{named} in the data dir {data_dir} is a symlink" in said
    assert "never follows" in said


def test_a7_offline_read_refuses_an_agent_file_linked_elsewhere(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    root = _agent(data_dir)
    outside = tmp_path / "outside.json"
    outside.write_text('{"project": "acme", "memory": {"enabled": true}}', encoding="utf-8")
    (data_dir / "agents" / "linked" / "agent.json").symlink_to(outside)

    with pytest.raises(OfflineUnavailableError, match=r"agent\.json .* is a symlink"):
        session_start_from_files(root, project="acme", agent="linked", workspace=str(tmp_path))


def test_h4_offline_read_of_plain_folders_still_stands_in(tmp_path: Path) -> None:
    root = _agent(tmp_path / "data")

    answer = session_start_from_files(root, project="acme", agent="linked", workspace=str(tmp_path))

    assert OUTSIDE_NOTE in answer.memory


async def test_a7_the_hook_says_the_linked_agent_folder_and_injects_nothing_from_it(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    root = _agent(data_dir)
    place = data_dir / "agents" / "linked"
    shutil.move(place, tmp_path / "elsewhere")
    place.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    env = {
        "HARNESS_MEMORY_URL": f"http://127.0.0.1:{unused_port()}",
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "linked",
        "HARNESS_MEMORY_ROOT": str(root),
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HOME": str(tmp_path),
    }
    stdin = hook_fixture("session_start.json", workspace=str(workspace))

    done = await run_cli("hook", "claude-code", "session-start", stdin=stdin, env=env)

    answer = json.loads(done.stdout)
    assert "agents/linked in the data dir" in answer["systemMessage"]
    assert "is a symlink, which the memory service never follows" in answer["systemMessage"]
    assert OUTSIDE_NOTE not in done.stdout
