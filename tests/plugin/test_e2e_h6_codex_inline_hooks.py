"""H-6 with the real Codex CLI: a hook of ours inline in ``config.toml`` does not run beside the
installed one.

Codex runs the hooks of ``hooks.json`` and of ``config.toml``'s inline ``[hooks]`` tables
alike. An earlier install's SessionStart hook, copied into ``config.toml`` inline and trusted
there (as Codex would after the user approved it), plus the install's own in ``hooks.json``
injected Agent Memory twice into one Session; the install takes the inline one out, and the
model's first request carries Agent Memory's section once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers.codex import trust_hash

from tests.plugin.harness_run import install, run_codex, workspace_with_key
from tests.plugin.real_service import RealService
from tests.support.codex_turns import developer_and_user_text

pytestmark = pytest.mark.e2e


def inline_session_start(codex_home: Path) -> str:
    """The SessionStart hook an install wrote into ``codex_home``'s hooks.json, as an inline
    ``[[hooks.SessionStart]]`` of its ``config.toml`` with the trust entry Codex keys it by."""
    written = json.loads((codex_home / "hooks.json").read_text(encoding="utf-8"))
    [group] = written["hooks"]["SessionStart"]
    [handler] = group["hooks"]
    key = f"{(codex_home / 'config.toml').absolute()}:session_start:0:0"
    return (
        '\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\n'
        f"command = {json.dumps(handler['command'])}\ntimeout = {handler['timeout']}\n"
        f"additionalContextLimit = {handler['additionalContextLimit']}\n"
        f'\n[hooks.state."{key}"]\ntrusted_hash = "{trust_hash("SessionStart", group, handler)}"\n'
    )


async def test_h6_codex_inline_hook_of_ours_is_taken_out_one_injection(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    codex_home = tmp_path / "home" / ".codex"
    codex_home.mkdir(parents=True)
    install("codex", tmp_path / "home", shared_service, shared_memory_root, agent=new_agent)
    inline = inline_session_start(codex_home)
    workspace, key = workspace_with_key(tmp_path)

    fake, status, _, err = await run_codex(
        [],
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=inline,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    [first, *_] = fake.session_turns()
    assert developer_and_user_text(first).count(f"- Workspace Memory Key: {key}") == 1
    config = (codex_home / "config.toml").read_text(encoding="utf-8")
    assert "[[hooks.SessionStart]]" not in config
