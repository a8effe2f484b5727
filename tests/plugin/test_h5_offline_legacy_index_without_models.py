"""H-5, T-2, Q-2b: a Session start that meets a legacy-encoded index stays a hook's cost.

Telling which CJK encoding (or which of Windows-1251 and KOI8-R) an index is in may weigh its
characters by ``chardet``'s language models: 70 ms to import and 100 ms to read the first
time in a fresh process, past a hook's 100 ms on their own. The offline Session start only
refuses such an index (it never injects it), so it weighs nothing: it names every candidate
encoding, each with its ``iconv`` command, and never imports ``chardet``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Each needs the models to choose among its readings when weighed (the service's lint does).
INDEXES = {
    "euc-kr": ("- [배포](deploy.md) - 금요일 오후에는 배포하지 않는다\n", "euc_kr"),
    "gb18030": ("- [咖啡](coffee.md) - 用户喜欢喝咖啡\n", "gb18030"),
    "koi8-r": ("- [Кофе](coffee.md) - пользователь пьёт кофе\n", "koi8_r"),
}

SESSION_START = """
import json, sys
from pathlib import Path
from harness_memory.offline import session_start_from_files
root, workspace = Path(sys.argv[1]), sys.argv[2]
answer = session_start_from_files(root, project="acme", agent="coder", workspace=workspace)
loaded = sorted(name for name in sys.modules if name.split(".")[0] == "chardet")
print(json.dumps({"memory": answer.memory, "chardet": loaded}))
"""


def _session_start_in_a_fresh_process(tmp_path: Path, index: bytes) -> dict[str, object]:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (memory_root / "user" / "MEMORY.md").write_bytes(index)
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SESSION_START, str(memory_root), str(workspace)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize(("text", "codec"), INDEXES.values(), ids=INDEXES.keys())
def test_h5_offline_session_start_names_the_candidates_without_chardet(
    tmp_path: Path, text: str, codec: str
) -> None:
    found = _session_start_in_a_fresh_process(tmp_path, text.encode(codec))
    assert found["chardet"] == []
    memory = str(found["memory"])
    assert "MEMORY.md is there, but Agent Memory does not decode it" in memory
    assert f"iconv -f {codec.upper().replace('_', '-')} -t UTF-8" in memory
    assert "too little text to tell" not in memory  # not weighed: it may be long enough


def test_h5_the_candidates_are_those_the_weighing_chooses_among() -> None:
    """Unweighed, the refusal names every reading weighing would choose among, its own too."""
    from memory_core.decoding import legacy_readings, not_decoded_why

    for text, codec in INDEXES.values():
        raw = text.encode(codec)
        weighed, candidates = legacy_readings(raw), legacy_readings(raw, weigh=False)
        assert weighed is not None and candidates is not None
        assert set(weighed) <= set(candidates) and codec in candidates
        why = not_decoded_why(raw, weigh=False)
        assert why is not None
        if len(candidates) > 1:
            assert f"one of them ({' or '.join(candidates)})" in why
