"""H-7, A-10: a managed hook refused (401) says `harness-memory token set --managed` everywhere.

The managed hooks (``--flags-only``, no ``--state-dir``) read the token that
``harness-memory token set --managed`` writes; ``install HARNESS`` again exits 2 there. Only the
hook's ``systemMessage`` said so: the Session record's ``error`` and the stderr line still said
"run `harness-memory install HARNESS` again", and the no-token text "give this service's token
in a --token-file (`harness-memory install` keeps yours …)". All three name the one command.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from harness_memory.settings import MANAGED_TOKEN_SET

from tests.plugin.real_service import RealService
from tests.plugin.test_a10_refused_token_names_its_source import managed_hook_answer


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_h7_a_managed_hooks_record_and_log_name_token_set_managed(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    harness: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="harness_memory")
    answer = managed_hook_answer(shared_service, new_agent, tmp_path, harness, monkeypatch)
    records = [p for p in (tmp_path / "account").rglob("*.json") if "sessions" in p.parts]
    assert records, sorted((tmp_path / "account").rglob("*"))
    error = json.loads(records[0].read_text("utf-8"))["error"]
    said = {"systemMessage": str(answer["systemMessage"])}
    said |= {"record": error, "stderr": caplog.text}
    for where, text in said.items():
        assert f"run {MANAGED_TOKEN_SET}" in text, (where, text)
        assert "install HARNESS" not in text and f"install {harness}`" not in text, (where, text)
        assert "`harness-memory install` keeps yours" not in text, (where, text)
