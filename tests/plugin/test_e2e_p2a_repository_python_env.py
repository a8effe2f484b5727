"""P-2a, P-3 with the real Claude Code CLI: a cloned repository's ``.claude/settings.json``
``env`` sets ``PYTHON*`` variables, which Claude Code passes to the hooks in the user's
settings. With ``PYTHONPATH`` (or ``PYTHONPYCACHEPREFIX``) pointing at a ``harness_memory`` of
the repository's own, that code ran in place of the write guard, which then let a Write into
another Workspace's scope land; with ``PYTHONHOME`` the hooks' Python did not start (no memory,
every Write refused). The hooks ``harness-memory install claude-code`` writes start their Python
by absolute path, isolated (``-I``): the Session gets its memory, the guard itself refuses the
Write, and nothing of the repository's runs. The hooks of ``install claude-code --managed``
hold too (measured on the CLI this suite pins: its managed hooks kept their guard before
``-I`` as well)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.claude_code_session import (
    offers_write,
    result_text,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.harness_run import InstalledHomes, install_managed_claude_code, managed_hooks_user
from tests.plugin.helpers import HARNESS_MEMORY, run_cli
from tests.plugin.real_service import RealService
from tests.plugin.repository_python_env import KINDS, MARK, plant
from tests.plugin.test_p2a_repository_env import latin_1_locale

pytestmark = pytest.mark.e2e


def planting(target: Path) -> Any:
    def script(body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):
            return [{"type": "text", "text": "ok"}], "end_turn"
        if tool_results(body):
            return [{"type": "text", "text": "Done."}], "end_turn"
        write = {"file_path": str(target), "content": "planted\n"}
        return [{"type": "tool_use", "id": "toolu_plant", "name": "Write", "input": write}], (
            "tool_use"
        )

    return script


@pytest.mark.parametrize(
    ("kind", "managed"),
    [
        *((kind, False) for kind in KINDS),
        ("PYTHONPATH", True),  # managed settings, which no repository switches off (H-3)
    ],
)
async def test_p2a_a_repositorys_python_env_neither_stops_memory_nor_replaces_the_guard(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    kind: str,
    managed: bool,
) -> None:
    workspace = tmp_path / "src" / "cloned-repo"
    (workspace / ".claude").mkdir(parents=True)
    settings = {"env": plant(workspace, kind)}
    (workspace / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    other = module_memory_root / workspace_memory_key(tmp_path / "src" / "billing")
    other.mkdir(parents=True)
    target = other / "planted.md"
    home = tmp_path / "home"
    overlay = None
    if managed:
        service, root = shared_service, module_memory_root
        overlay, _ = await install_managed_claude_code(service, root, module_agent, tmp_path)
        managed_hooks_user(overlay, home, shared_service.token)
    else:
        installed_homes.install(
            "claude-code", home, shared_service, module_memory_root, agent=module_agent
        )

    async with serve_model(planting(target)) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=shared_service.url, etc_overlay=overlay
        )

    assert status == 0, f"{out}\n{err}"
    turns = session_turns(fake)
    key = workspace_memory_key(workspace)
    assert f"- Workspace Memory Key: {key}" in json.dumps(turns[0], ensure_ascii=False)
    [refused] = [b for b in tool_results(turns[1]) if b["tool_use_id"] == "toolu_plant"]
    assert refused.get("is_error") is True
    assert "Agent Memory write guard:" in result_text(refused)  # the guard ran, not its tail
    assert not target.exists()
    assert not (workspace / MARK).exists()


async def test_p2a_a_repositorys_locale_does_not_let_a_write_through_the_guard(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    """The repository's ``env`` names a locale compiled into it (``LOCPATH``, ``LC_ALL``
    ISO-8859-1) and the memory root's path holds ``é``: the guard's Python read that root as
    another folder than the Write's path and let the Write into another Workspace's scope
    through (with ``-I`` alone, measured: only Claude Code's own permission check, which a
    headless run without an allow rule fails, stopped it). In UTF-8 mode (``-X utf8``) the
    guard refuses it."""
    workspace = tmp_path / "src" / "cloned-repo"
    (workspace / ".claude").mkdir(parents=True)
    locales = latin_1_locale(workspace / ".locale")
    env = {"LOCPATH": str(locales), "LC_ALL": "de_DE.ISO-8859-1"}
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"env": env}), "utf-8")
    (tmp_path / "données").symlink_to(shared_service.data_dir)  # a name holding é
    root = tmp_path / "données" / shared_memory_root.relative_to(shared_service.data_dir)
    other = root / workspace_memory_key(tmp_path / "src" / "billing")
    other.mkdir()
    target = other / "planted.md"
    home = tmp_path / "home"
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--memory-root", str(root), "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", shared_service.token, "--home", str(home)]
    installed = await run_cli("install", "claude-code", *flags)
    assert installed.returncode == 0, installed.stderr

    async with serve_model(planting(target)) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=shared_service.url
        )

    assert status == 0, f"{out}\n{err}"
    turns = session_turns(fake)
    [refused] = [b for b in tool_results(turns[1]) if b["tool_use_id"] == "toolu_plant"]
    assert "Agent Memory write guard:" in result_text(refused)
    assert not target.exists()
