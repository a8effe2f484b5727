"""T-2, Q-2b on the plugin's offline path (H-4): a Shift-JIS ``MEMORY.md`` is injected as a note
naming the likely encoding, as the service does, never as cp1252 mojibake."""

from __future__ import annotations

from pathlib import Path

from harness_memory.offline import session_start_from_files


def test_t2_offline_session_start_names_a_shift_jis_index_instead_of_garbling_it(
    tmp_path: Path,
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    index = (
        "- [デプロイ](deploy.md) - 金曜日はデプロイしない\n- [テスト](testing.md) - pytestを使う\n"
    )
    (memory_root / "user" / "MEMORY.md").write_bytes(index.encode("cp932"))
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "ƒ" not in answer.memory  # cp1252's reading of the Shift-JIS bytes
    assert "MEMORY.md is there, but Agent Memory does not decode it" in answer.memory
    assert "looks like Shift-JIS (cp932" in answer.memory
    assert "iconv -f CP932 -t UTF-8" in answer.memory
