"""H-6 against a repository's settings, with the real Claude Code CLI.

Claude Code merges a Workspace's ``.claude/settings.json`` and ``settings.local.json`` over the
user's settings, ``env`` included. Claude Code reads ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` before
``autoMemoryEnabled``: ``"1"`` turns its own auto memory off, a false value (``"0"``) forces it on.
``install claude-code`` sets both (``autoMemoryEnabled: false``, the variable ``"1"``), so a
repository's ``"autoMemoryEnabled": true`` no longer turns it back on; its ``"env":
{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}`` does, over the user's settings: the model gets two
memory sections (Claude Code's names its ``~/.claude/projects/…/memory/`` folder). The
user-settings install says so. Installed with ``--managed``, Claude Code's managed settings win
over either: one memory section. The variable forcing memory on in the user's own settings
before the install is switched off too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.claude_code_session import run_claude, serve_model
from tests.plugin.harness_run import (
    InstalledHomes,
    install,
    install_managed_claude_code,
    managed_hooks_user,
    workspace_with_key,
)
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h6_one_memory import AUTO_MEMORY_DIR, answer
from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import OWN_MEMORY_SHAPES

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


TURNS_IT_ON = [
    '{"autoMemoryEnabled": true}\n',
    '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}\n',
]
"""What a repository's Claude Code settings may say to turn Claude Code's own memory on."""


@pytest.mark.parametrize("where", ["settings.json", "settings.local.json"])
async def test_h6_a_repository_turns_claude_codes_memory_on_over_the_user_install(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    where: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / where).write_text(TURNS_IT_ON[1])
    home = tmp_path / "home"
    said = installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, "--verbose", agent=module_agent
    )
    assert (  # said by the install (H-6): its short summary points to --verbose for it
        "turn Claude Code's own auto memory back on beside Agent Memory "
        '("env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})'
    ) in said

    sent = await first_requests(claude, shared_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY in sent and AUTO_MEMORY_DIR.findall(sent)


@pytest.mark.parametrize("where", ["settings.json", "settings.local.json"])
async def test_h6_a_repositorys_auto_memory_enabled_does_not_turn_it_on_over_the_user_install(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    where: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / where).write_text(TURNS_IT_ON[0])
    home = tmp_path / "home"
    installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, agent=module_agent
    )

    sent = await first_requests(claude, shared_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY not in sent and not AUTO_MEMORY_DIR.findall(sent)


@pytest.mark.parametrize("setting", TURNS_IT_ON)
async def test_h6_the_managed_install_keeps_claude_codes_memory_off_in_any_repository(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    setting: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(setting)
    overlay, _ = await install_managed_claude_code(
        shared_service, shared_memory_root, new_agent, tmp_path
    )
    home = tmp_path / "home"
    # the managed hooks read each user's token from the account's home, as the password
    # database names it: here the namespace's root account, whose home the overlay makes ``home``
    managed_hooks_user(overlay, home, shared_service.token)

    sent = await first_requests(claude, shared_service, workspace, home, overlay)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY not in sent and not AUTO_MEMORY_DIR.findall(sent)


async def test_h6_the_user_install_switches_off_a_variable_that_forced_claude_codes_memory_on(
    claude: Path, real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    """The user's own settings said ``CLAUDE_CODE_DISABLE_AUTO_MEMORY = "false"`` (memory forced
    on): after the install the model gets one memory section, Agent Memory's."""
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "false"}}\n'
    )
    said = install("claude-code", home, real_service, memory_root)
    assert 'env.CLAUDE_CODE_DISABLE_AUTO_MEMORY was "false"' in said

    sent = await first_requests(claude, real_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY not in sent and not AUTO_MEMORY_DIR.findall(sent)


@pytest.mark.parametrize(("files", "said"), OWN_MEMORY_SHAPES, ids=str)
async def test_h6_every_repository_setting_status_names_turns_claude_codes_memory_on(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    files: dict[str, str],
    said: str | None,
) -> None:
    """The shapes ``harness-memory status`` judges (a variable Claude Code reads as false, as
    a JSON ``0`` or ``false`` too; one neither true nor false beside ``"autoMemoryEnabled":
    true``, in one file or split over both): Claude Code's own memory section reaches the
    model over the user install exactly where status warns."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    for name, text in files.items():
        (workspace / ".claude" / name).write_text(text)
    home = tmp_path / "home"
    installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, agent=module_agent
    )

    sent = await first_requests(claude, shared_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert (OWN_MEMORY in sent) is (said is not None)
