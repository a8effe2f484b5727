"""H-6 against a repository's settings, with the real Claude Code CLI.

Claude Code merges a Workspace's ``.claude/settings.json`` and ``settings.local.json`` over the
user's settings, so ``"autoMemoryEnabled": true`` checked into a repository turns Claude Code's
own auto memory back on after ``install claude-code`` turned it off in the user's settings: the
model gets two memory sections (Claude Code's names its ``~/.claude/projects/…/memory/``
folder). The user-settings install says so. Installed with ``--managed``, the
``autoMemoryEnabled = false`` of Claude Code's managed settings wins: one memory section.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.claude_code_session import run_claude, serve_model
from tests.plugin.harness_run import install, workspace_with_key
from tests.plugin.helpers import HARNESS_MEMORY, run_cli
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h6_one_memory import AUTO_MEMORY_DIR, answer
from tests.plugin.test_e2e_repository_switches_hooks_off import account_home

pytestmark = pytest.mark.e2e

OWN_MEMORY = "persistent file-based memory"


async def first_requests(
    claude: Path,
    real_service: RealService,
    workspace: Path,
    home: Path,
    overlay: Path | None = None,
) -> str:
    async with serve_model(answer) as (fake, model_url):
        status, out, err = await run_claude(
            claude,
            workspace,
            home,
            model_url,
            service_url=real_service.url,
            prompt="hi",
            etc_overlay=overlay,
        )
    assert status == 0, f"{out}\n{err}"
    return json.dumps(fake.message_requests(), ensure_ascii=False)


@pytest.mark.parametrize("where", ["settings.json", "settings.local.json"])
async def test_h6_a_repository_turns_claude_codes_memory_on_over_the_user_install(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    where: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / where).write_text('{"autoMemoryEnabled": true}\n')
    home = tmp_path / "home"
    home.mkdir()
    said = install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    assert '"autoMemoryEnabled": true turns Claude Code\'s own auto memory back on' in said

    sent = await first_requests(claude, shared_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY in sent and AUTO_MEMORY_DIR.findall(sent)


async def test_h6_the_managed_install_keeps_claude_codes_memory_off_in_any_repository(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text('{"autoMemoryEnabled": true}\n')
    overlay = tmp_path / "etc-overlay"
    (overlay / "upper" / "claude-code").mkdir(parents=True)
    (overlay / "work").mkdir()
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--memory-root", str(shared_memory_root), "--executable", str(HARNESS_MEMORY)]
    managed = str(overlay / "upper" / "claude-code")
    installed = await run_cli("install", "claude-code", "--managed", managed, *flags)
    assert installed.returncode == 0, installed.stderr
    home = tmp_path / "home"
    # the managed hooks read each user's token from the account's home, as the password
    # database names it: here the namespace's root account, whose home the overlay makes ``home``
    (overlay / "upper" / "passwd").write_text(account_home(0, home), encoding="utf-8")
    token = home / ".claude" / "harness-memory" / "token"
    token.parent.mkdir(parents=True)
    token.write_text(shared_service.token + "\n", encoding="utf-8")
    token.chmod(0o600)

    sent = await first_requests(claude, shared_service, workspace, home, overlay)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY not in sent and not AUTO_MEMORY_DIR.findall(sent)
