"""``tests/data/cases/repository-switches-hooks-off`` with the real Claude Code CLI.

A cloned repository whose checked-in ``.claude/settings.json`` says ``"disableAllHooks": true``
switches off hooks from the user's settings: no memory, no write guard. Installed with
``harness-memory install claude-code --managed`` into Claude Code's managed settings instead
(``/etc/claude-code/managed-settings.json``, laid over ``/etc`` for this run only), the hooks
run in that repository: the Session gets its memory and a Write into another Workspace's scope
is refused, with nothing landing. The repository's settings also set ``HARNESS_MEMORY_TOKEN``
and ``CLAUDE_CONFIG_DIR`` for the Session: neither moves the token or the Session records.
(The user-settings install says at install time that a repository can switch it off:
``test_h6_own_memory.py``.)
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
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
from tests.plugin.harness_run import (
    InstalledHomes,
    install_managed_claude_code,
    managed_hooks_user,
    workspace_with_key,
)
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h6_repository_turns_own_memory_on import first_requests
from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import (
    ENCODED_SHAPES,
    HOOKS_OFF_SHAPES,
    WHERE_SHAPES,
    lay_out,
)

pytestmark = pytest.mark.e2e

CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "repository-switches-hooks-off"


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


@pytest.mark.parametrize("switch_in", ["settings.json", "settings.local.json"])
async def test_repository_switches_hooks_off_not_the_managed_install(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    switch_in: str,
) -> None:
    """``switch_in``: the repository file holding ``"disableAllHooks": true`` (the case's
    checked-in ``settings.json``, or ``settings.local.json``, which Claude Code reads the same
    way when a repository ships one)."""
    workspace = tmp_path / "src" / "cloned-repo"
    shutil.copytree(CASE / "workspace", workspace)
    assert json.loads((workspace / ".claude" / "settings.json").read_text())["disableAllHooks"]
    if switch_in != "settings.json":
        (workspace / ".claude" / "settings.json").rename(workspace / ".claude" / switch_in)
    key = workspace_memory_key(workspace)
    other = shared_memory_root / workspace_memory_key(tmp_path / "src" / "billing")
    other.mkdir(parents=True)
    target = other / "planted.md"

    overlay, installed = await install_managed_claude_code(
        shared_service, shared_memory_root, new_agent, tmp_path
    )
    assert "needs a bearer token: each user gives theirs" in installed.stderr
    assert "no repository's or user's settings can switch them off" in installed.stdout
    home = tmp_path / "home"
    # The managed hooks keep each user's state, and read their token, in the account's home as
    # the password database names it (no variable a repository can set moves it).
    managed_hooks_user(overlay, home, shared_service.token)
    repository = {"HARNESS_MEMORY_TOKEN": "not-the-token", "CLAUDE_CONFIG_DIR": str(workspace)}
    settings = workspace / ".claude" / switch_in
    checked_in = json.loads(settings.read_text(encoding="utf-8"))
    settings.write_text(json.dumps({**checked_in, "env": repository}), encoding="utf-8")

    async with serve_model(planting(target)) as (fake, model_url):
        status, out, err = await run_claude(
            claude,
            workspace,
            home,
            model_url,
            service_url=shared_service.url,
            etc_overlay=overlay,
        )
    assert status == 0, f"{out}\n{err}"
    turns = session_turns(fake)
    assert f"- Workspace Memory Key: {key}" in json.dumps(turns[0], ensure_ascii=False)
    [refused] = [b for b in tool_results(turns[1]) if b["tool_use_id"] == "toolu_plant"]
    assert refused.get("is_error") is True
    assert "Agent Memory write guard" in result_text(refused)
    assert not target.exists()
    assert any((home / ".claude" / "harness-memory" / "sessions").iterdir())  # the records


@pytest.mark.parametrize(("files", "named"), HOOKS_OFF_SHAPES, ids=str)
async def test_repository_switches_hooks_off_exactly_where_status_says(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    files: dict[str, str],
    named: str | None,
) -> None:
    """The shapes ``harness-memory status`` judges (a byte order mark, a key twice, one file
    over the other, a comment, a string): the user install's Session-start hook runs in the
    repository exactly where status names no file switching it off."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    for name, text in files.items():
        (workspace / ".claude" / name).write_text(text, encoding="utf-8")
    home = tmp_path / "home"
    installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, agent=module_agent
    )

    sent = await first_requests(claude, shared_service, workspace, home)

    assert (f"- Workspace Memory Key: {key}" in sent) is (named is None)


@pytest.mark.parametrize(
    ("name", "data", "off"), ENCODED_SHAPES[:1], ids=[shape[0] for shape in ENCODED_SHAPES[:1]]
)
async def test_repository_switches_hooks_off_in_the_encodings_status_reads(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    name: str,
    data: bytes,
    off: bool,
) -> None:
    """A repository's ``settings.json`` saved as UTF-16LE (its byte order mark first) switches
    the user install's hooks off, as ``status`` says (``ENCODED_SHAPES``: the other shapes
    there, no JSON to Claude Code, were measured the same way and are not run each time)."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_bytes(data)
    home = tmp_path / "home"
    installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, agent=module_agent
    )

    sent = await first_requests(claude, shared_service, workspace, home)

    assert (f"- Workspace Memory Key: {key}" in sent) is not off, name


@pytest.mark.parametrize(("git", "files", "named"), WHERE_SHAPES, ids=str)
async def test_repository_switches_hooks_off_from_where_status_reads(
    claude: Path,
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    git: bool,
    files: dict[str, str],
    named: str | None,
) -> None:
    """A Session in a folder below a repository's root: the hooks run exactly where
    ``harness-memory status`` names no file switching them off."""
    _, here = lay_out(tmp_path, False, files)
    if git:
        git_init = ["git", "init", "-q", str(here.parents[1])]
        await asyncio.to_thread(subprocess.run, git_init, check=True, timeout=60)
    key = workspace_memory_key(here)
    home = tmp_path / "home"
    installed_homes.install(
        "claude-code", home, shared_service, module_memory_root, agent=module_agent
    )

    sent = await first_requests(claude, shared_service, here, home)

    assert (f"- Workspace Memory Key: {key}" in sent) is (named is None)
