"""Layout: paths under the data dir come only from checked ids (K-7, A-7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core.errors import InvalidId
from memory_core.layout import (
    INDEX_FILE,
    MARKER_FILE,
    agent_dir,
    app_data_dir_of,
    memory_root,
    scope_dir,
    workspaces_dir,
)

DATA = Path("/data")


def test_layout_paths() -> None:
    assert agent_dir(DATA, "coder") == DATA / "agents" / "coder"
    assert memory_root(DATA, "coder") == DATA / "agents/coder/agent_state/memory"
    assert scope_dir(DATA, "coder", "user") == DATA / "agents/coder/agent_state/memory/user"
    assert scope_dir(DATA, "coder", "my-app-a81f32c4").name == "my-app-a81f32c4"
    assert workspaces_dir(DATA, "coder") == DATA / "agents/coder/workspaces"
    assert (INDEX_FILE, MARKER_FILE) == ("MEMORY.md", ".workspace")


@pytest.mark.parametrize("agent", ["..", "../x", "/etc", "A", ""])
def test_k7_layout_refuses_bad_agent_ids(agent: str) -> None:
    with pytest.raises(InvalidId):
        memory_root(DATA, agent)


@pytest.mark.parametrize("key", ["..", ".workspace", "../user", "/", "user/..", "x"])
def test_k7_layout_refuses_bad_scope_keys(key: str) -> None:
    with pytest.raises(InvalidId):
        scope_dir(DATA, "coder", key)


@pytest.mark.parametrize("agent", ["coder", "a", "x_y-9"])
def test_app_data_dir_of_inverts_memory_root(agent: str) -> None:
    assert app_data_dir_of(memory_root(DATA, agent)) == DATA


@pytest.mark.parametrize(
    "root",
    [
        "/memory",
        "/data/agents/coder/memory",
        "/data/other/coder/agent_state/memory",
        "/data/agents/Bad Id/agent_state/memory",
        "/data/agents/coder/agent_state/memory/user",
    ],
)
def test_app_data_dir_of_refuses_what_is_no_memory_root(root: str) -> None:
    assert app_data_dir_of(Path(root)) is None
