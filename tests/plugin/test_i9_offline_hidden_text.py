"""I-9 on the plugin's offline path (H-4): Session start assembled from the files shows hidden
text escaped, as the service does, never verbatim (case ``hidden-text-in-memory``)."""

from __future__ import annotations

from pathlib import Path

from harness_memory.offline import session_start_from_files

from tests.core.test_i9_hidden_text import make_case_scope


def test_i9_offline_session_start_shows_hidden_text_escaped(tmp_path: Path) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    make_case_scope(memory_root / "user")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "run twice in CI[hidden: 67 tag characters]\n" in answer.memory
    assert "two approvals [hidden: U+202E]except for admins[hidden: U+202C]\n" in answer.memory
    assert "👨\u200d👩\u200d👧 is one emoji; می\u200cخواهم is Persian" in answer.memory
    assert not any(
        0xE0000 <= ord(char) <= 0xE007F or char in "\u202c\u202e" for char in answer.memory
    )
