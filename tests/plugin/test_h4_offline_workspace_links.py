"""H-4, K-1 on the plugin's offline path: a Workspace whose real path cannot be known (a symlink
on its way the kernel will not read) gets no key made up from its spelling; the files do not
stand in, with a named error the Session start fails open on (P-2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.offline import OfflineUnavailableError, session_start_from_files

from tests.support.unreadable_link import unreadable_link


def test_h4_a_workspace_through_a_symlink_that_cannot_be_read_gets_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    locked = unreadable_link(tmp_path / "root", Path("/"), monkeypatch)

    with pytest.raises(OfflineUnavailableError, match="cannot be read") as raised:
        session_start_from_files(
            memory_root, project="acme", agent="coder", workspace=str(locked / "src" / "app")
        )

    assert str(locked) in str(raised.value)
