"""H-1 with the real Codex CLI and Gemini CLI: every index line the caps keep reaches the model.

With the user and Workspace indexes at the caps (I-4: the user index past the 200-line cap, the
Workspace index past the 25,000-character backstop, non-ASCII and astral characters included),
the installed SessionStart hook carries every kept line, both notes and the key line to the
model in one piece. For Codex this holds only because the installer raises the hook's
``additionalContextLimit`` (Codex's default, 2,500 of its tokens ≈ 10,000 bytes, would swap the
text for a head-and-tail preview: "Warning: truncated output", "Full hook output saved to").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.harness_run import run_codex, run_gemini, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h1_claude_code_context import seed

pytestmark = pytest.mark.e2e

PREVIEW_MARKERS = ("truncated output", "Full hook output saved to", "Truncated: the last")


@pytest.mark.parametrize("harness", ["codex", "gemini"])
async def test_h1_indexes_at_the_caps_reach_the_model_whole(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    harness: str,
) -> None:
    workspace, _ = workspace_with_key(tmp_path)
    key, capped = seed(shared_memory_root, workspace)
    runner = run_codex if harness == "codex" else run_gemini
    fake, status, _, err = await runner(
        [], shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    first = json.loads(json.dumps(fake.session_turns()[0]))
    text = json.dumps(first, ensure_ascii=False)
    for index in capped:
        assert index.manifest.cap_fired != "none"
        for line in index.lines_text.split("\n"):
            assert json.dumps(line, ensure_ascii=False)[1:-1] in text
        assert json.dumps(index.note_text.strip(), ensure_ascii=False)[1:-1] in text
    assert f"- Workspace Memory Key: {key}" in text
    for marker in PREVIEW_MARKERS:
        assert marker not in text
    assert "Agent Memory:" not in err  # no cut to tell the user about
