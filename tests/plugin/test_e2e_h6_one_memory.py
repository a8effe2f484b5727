"""H-6 and Workspace privacy with the real CLIs, hooks installed by ``harness-memory install``.

- Claude Code: after the install, the model's input carries Agent Memory's section and no
  section of Claude Code's own auto memory (its ``~/.claude/projects/…/memory/`` folder, which
  ``test_e2e_p5_claude_code_memory_dir.py`` shows is named when it is on).
- Codex CLI: with ``[features] memories = true`` and a memories folder, the model gets Codex's
  ``MEMORY_SUMMARY`` (the control run, no install); after the install it does not.
- Gemini CLI: no other Workspace's scope — its key, its file names, a ``GEMINI.md`` in it —
  reaches the model (the first request used to list the whole memory root), in an ordinary and
  in a temporary Workspace; a write into the Session's own Workspace scope still lands.
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.claude_code_session import run_claude, serve_model, session_turns
from tests.plugin.fake_anthropic import Block
from tests.plugin.fake_model_apis import Turn
from tests.plugin.harness_run import (
    TOPIC,
    install,
    other_scope,
    run_codex,
    run_gemini,
    workspace_with_key,
)
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import write_call

pytestmark = pytest.mark.e2e

AUTO_MEMORY_DIR = re.compile(r"[^\s\"`']*?/projects/[^\s\"`']*?/memory/")
CODEX_MEMORIES = "\n[features]\nmemories = true\n"
CODEX_SENTINEL = "Codex's own memory: the user likes tabs"


def answer(body: dict[str, object]) -> tuple[list[Block], str]:
    return [{"type": "text", "text": "ok"}], "end_turn"


async def test_h6_claude_code_gets_one_memory_section(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    async with serve_model(answer) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=shared_service.url, prompt="hi"
        )
    assert status == 0, f"{out}\n{err}"
    [first, *_] = session_turns(fake) or fake.message_requests()
    sent = json.dumps(fake.message_requests(), ensure_ascii=False)
    assert f"- Workspace Memory Key: {key}" in json.dumps(first, ensure_ascii=False)
    assert not AUTO_MEMORY_DIR.findall(sent)  # Claude Code's own memory folder is never named
    assert "persistent file-based memory" not in sent


async def test_h6_codex_own_memories_off_after_install(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    for hooks in (False, True):
        run_dir = tmp_path / f"hooks-{hooks}"
        memories = run_dir / "home" / ".codex" / "memories"
        memories.mkdir(parents=True)
        (memories / "memory_summary.md").write_text(CODEX_SENTINEL + "\n", encoding="utf-8")
        workspace, key = workspace_with_key(run_dir)
        fake, status, _, err = await run_codex(
            [],
            shared_service,
            shared_memory_root,
            workspace,
            run_dir,
            config_extra=CODEX_MEMORIES,
            hooks=hooks,
            agent=new_agent,
        )
        assert status == 0, err[-3000:]
        sent = json.dumps(fake.requests, ensure_ascii=False)
        if not hooks:  # the control: Codex would deliver its own memory
            assert CODEX_SENTINEL in sent and "MEMORY_SUMMARY BEGINS" in sent
            continue
        assert CODEX_SENTINEL not in sent and "MEMORY_SUMMARY" not in sent
        assert f"- Workspace Memory Key: {key}" in sent


def write_profile(path: Path) -> None:
    path.write_text(CODEX_MEMORIES, encoding="utf-8")


async def test_h6_codex_own_memories_off_after_install_in_a_profile_turning_them_on(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """Codex 0.171 lays a profile file (``$CODEX_HOME/NAME.config.toml``, chosen with
    ``--profile NAME``) over ``config.toml``: one saying ``[features] memories = true``
    brings Codex's own memory back over ``config.toml``'s ``memories = false`` (the control:
    the install with the profile written after it). The install sets it off in the profile
    file too: a ``--profile work`` Session then gets Agent Memory only."""
    for profile_first in (False, True):
        run_dir = tmp_path / f"p{int(profile_first)}"  # short: the loopback's socket paths
        codex_home = run_dir / "home" / ".codex"
        (codex_home / "memories").mkdir(parents=True)
        summary = codex_home / "memories" / "memory_summary.md"
        summary.write_text(CODEX_SENTINEL + "\n", encoding="utf-8")
        profile = codex_home / "work.config.toml"
        if profile_first:
            write_profile(profile)
        workspace, key = workspace_with_key(run_dir)
        fake, status, _, err = await run_codex(
            [],
            shared_service,
            shared_memory_root,
            workspace,
            run_dir,
            agent=new_agent,
            exec_flags=["--profile", "work"],
            after_install=None if profile_first else partial(write_profile, profile),
        )
        assert status == 0, err[-3000:]
        sent = json.dumps(fake.requests, ensure_ascii=False)
        assert f"- Workspace Memory Key: {key}" in sent
        if not profile_first:  # the control: written after the install, the profile wins
            assert CODEX_SENTINEL in sent and "MEMORY_SUMMARY BEGINS" in sent
            continue
        assert CODEX_SENTINEL not in sent and "MEMORY_SUMMARY" not in sent


@pytest.mark.parametrize("temporary", [False, True])
async def test_gemini_other_workspaces_stay_private(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    temporary: bool,
) -> None:
    other = other_scope(shared_memory_root, tmp_path)
    (other / "client-acme-merger.md").write_text("theirs\n", encoding="utf-8")
    (other / "GEMINI.md").write_text("Another Workspace's instructions\n", encoding="utf-8")
    if temporary:  # a temporary Workspace (K-4): no Workspace scope at all
        workspace = shared_service.data_dir / "agents" / new_agent / "workspaces" / "run-1"
        workspace.mkdir(parents=True)
        script: list[Turn] = []
    else:
        workspace, key = workspace_with_key(tmp_path)
        own = shared_memory_root / key / "harness-hooks.md"
        script = [[write_call(own, TOPIC)]]
    fake, status, _, err = await run_gemini(
        script, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    sent = json.dumps(fake.requests, ensure_ascii=False)
    for secret in (other.name, "client-acme-merger", "Another Workspace's instructions"):
        assert secret not in sent
    assert "Directory Structure" not in sent  # Gemini CLI's listing of every include directory
    assert workspace_memory_key(tmp_path / "another-app") not in sent
    if not temporary:
        assert own.read_text(encoding="utf-8") == TOPIC  # writes into its own scope still work
        assert "harness-hooks.md" in shared_service.list_files(new_agent, key)
