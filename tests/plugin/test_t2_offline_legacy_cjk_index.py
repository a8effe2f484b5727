"""T-2, Q-2b on the plugin's offline path (H-4): a Shift-JIS ``MEMORY.md`` is injected as a note
naming the likely encoding, as the service does, never as cp1252 mojibake."""

from __future__ import annotations

from pathlib import Path

import pytest
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


@pytest.mark.parametrize(
    ("index", "codec", "named"),
    [
        ("- [Кофе](coffee.md)\n", "cp1251", "looks like Windows-1251 (Cyrillic) (cp1251)"),
        ("- [Ærø](aero.md)\n", "latin_1", "looks like Big5 or Windows-1252 (Western), one of them"),
        ("- [‘a’](a.md)\n", "cp1252", "looks like Shift-JIS or Windows-1252 (Western), one of"),
        ("- [Кофе](coffee.md)\n", "koi8_r", "looks like KOI8-R (Cyrillic) or Windows-1251"),
        ("- [中文](zh.md)\n", "big5", "looks like Big5 (big5)"),
        ("- [設定](settings.md)\n", "cp932", "looks like Shift-JIS (cp932)"),
    ],
    ids=["cp1251", "latin-1", "cp1252", "koi8-r", "big5", "shift-jis"],
)
def test_t2_remote_copy_short_index_is_named_with_its_own_encoding_never_another_alone(
    tmp_path: Path, index: str, codec: str, named: str
) -> None:
    """Remote mode injects from this machine's copy by this same reader: a one-line index of a
    few letters was named an encoding it is not in (``Кофе`` in Windows-1251 as GBK/GB18030,
    ``Ærø`` in Latin-1 as Big5); it is named with its own, alone or among those too short a
    text cannot tell from it, and nothing of it is injected as text read in another. The hook
    weighs no reading by language (H-5): those it would choose among are named as candidates."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (memory_root / "user" / "MEMORY.md").write_bytes(index.encode(codec))
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "MEMORY.md is there, but Agent Memory does not decode it" in answer.memory
    assert named in answer.memory
    assert "GBK/GB18030" not in answer.memory
