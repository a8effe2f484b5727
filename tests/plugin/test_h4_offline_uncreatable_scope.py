"""H-4, A-9: the Session start from the files answers as the service does for a scope that has
no folder and cannot get one (something that is no folder in its place; a memory root this
account may not write).

The service names no Directory for such a scope (``directories.user`` / ``.workspace`` are
null) and says in the injection that memory cannot be saved there. The plugin's offline answer
said the same in the injection but still listed the scope's path in ``directories``, the place
a harness points the model at for saving, where nothing can be saved. Right: the offline
answer's ``directories`` is the service's, compared here with the real service's own answer.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from harness_memory.client import MemoryClient
from harness_memory.offline import session_start_from_files
from memory_core.keys import workspace_memory_key

from tests.plugin.real_service import RealService


@pytest.mark.parametrize("scope", ["user", "workspace"])
def test_h4_a_scope_with_something_else_in_its_folders_place_is_named_by_neither(
    real_service: RealService, tmp_path: Path, scope: str
) -> None:
    root = real_service.create_agent("coder")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    key = "user" if scope == "user" else workspace_memory_key(str(workspace))
    if (root / key).is_dir():
        shutil.rmtree(root / key)
    root.mkdir(parents=True, exist_ok=True)
    (root / key).write_text("a file where the scope's folder should be\n", encoding="utf-8")
    client = MemoryClient(real_service.url, token=real_service.token, timeout=30.0)

    online = client.session_start("acme", "coder", str(workspace))
    offline = session_start_from_files(
        root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert getattr(online.directories, scope) is None
    assert offline.directories == online.directories
    assert offline.memory == online.memory


def test_h4_a_scope_the_memory_root_cannot_take_is_named_by_neither(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory root this account may not write (a read-only mount, another account's folder)
    and no scope folder yet: neither scope can be made, so neither is named (the service,
    failing to make them, names none); the test runs as any account, so the kernel's answer
    for that root is given by ``access(2)``'s stand-in."""
    root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    real_access = os.access

    def access(path: str | Path, mode: int) -> bool:
        return not (Path(path) == root and mode & os.W_OK) and real_access(path, mode)

    monkeypatch.setattr(os, "access", access)

    answer = session_start_from_files(root, project="acme", agent="coder", workspace=str(workspace))

    assert answer.directories.user is None and answer.directories.workspace is None
    assert answer.directories.memory_root == str(root)
    assert "cannot create its folder here" in answer.memory
