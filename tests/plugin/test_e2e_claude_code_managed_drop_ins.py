"""H-3, H-7 with the real Claude Code CLI: a drop-in file in ``/etc/claude-code/managed-settings.d``
(laid over ``/etc`` for this run only) saying ``"disableAllHooks": true`` switches off the hooks
a managed install wrote into ``managed-settings.json``: the Session gets no memory; with
``false`` there it gets it. A drop-in Claude Code cannot parse stops Claude Code before any
Session starts (2.1.332: exit 1, "none of its settings are in effect. Fix or remove it."), as
``harness-memory status`` judges (``test_h7_claude_code_managed_drop_ins.py``); one it cannot
read (a link to a folder) does not: it starts without it ("Managed settings failed to load")
and the hooks run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.claude_code_session import run_claude, serve_model, session_turns
from tests.plugin.fake_anthropic import Block
from tests.plugin.harness_run import (
    install_managed_claude_code,
    managed_hooks_user,
    workspace_with_key,
)
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e


def answer(body: dict[str, Any]) -> tuple[list[Block], str]:
    return [{"type": "text", "text": "ok"}], "end_turn"


async def session_with_drop_in(
    claude: Path,
    service: RealService,
    agent: str,
    memory_root: Path,
    tmp_path: Path,
    text: str | None,
) -> tuple[int, str, list[dict[str, Any]], str]:
    """A managed install into ``/etc/claude-code`` (laid over ``/etc``) with the drop-in
    ``managed-settings.d/50-policy.json`` holding ``text`` (None: a link to a folder), then
    ``claude -p`` in a Workspace:
    ``(exit status, stderr, the Session's requests to the model, the Workspace Memory Key)``."""
    workspace, key = workspace_with_key(tmp_path)
    overlay, _ = await install_managed_claude_code(service, memory_root, agent, tmp_path)
    home = tmp_path / "home"
    managed_hooks_user(overlay, home, service.token)
    folder = overlay / "upper" / "claude-code" / "managed-settings.d"
    folder.mkdir()
    if text is None:
        (folder / "sub").mkdir()
        (folder / "50-policy.json").symlink_to("sub")
    else:
        (folder / "50-policy.json").write_text(text, encoding="utf-8")
    async with serve_model(answer) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=service.url, etc_overlay=overlay
        )
    return status, f"{out}\n{err}", session_turns(fake), key


@pytest.mark.parametrize(
    ("drop_in", "memory"),
    [
        ('{"disableAllHooks": true}', False),
        ('{"disableAllHooks": false}', True),
        ('{"disableAllHooks": tru', None),  # none: Claude Code refuses to start
        (None, True),  # a link to a folder: Claude Code starts without it
    ],
    ids=["true", "false", "unparsable", "unreadable"],
)
async def test_a_managed_drop_in_switches_the_managed_hooks_off(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    drop_in: str | None,
    memory: bool | None,
) -> None:
    status, said, turns, key = await session_with_drop_in(
        claude, shared_service, new_agent, shared_memory_root, tmp_path, drop_in
    )

    if memory is None:
        assert status == 1
        assert "/etc/claude-code/managed-settings.d/50-policy.json" in said, said
        assert "none of its settings are in effect" in said, said
        assert not turns  # no Session: nothing reached the model
        return
    assert status == 0, said
    assert ("Managed settings failed to load" in said) is (drop_in is None), said
    first = json.dumps(turns[0], ensure_ascii=False)
    assert (f"- Workspace Memory Key: {key}" in first) is memory, first[-2000:]
