"""The kind of ``tests/data/cases/repository-switches-hooks-off`` with the real Codex CLI.

A Workspace's ``.codex/config.toml`` is a config layer of its own, read over the user's
``config.toml`` when the user trusts the project (``[projects."<path>"] trust_level =
"trusted"``) and ignored otherwise. Its ``[features] hooks = false`` (or the older spelling
``codex_hooks = false``) switches off every hook Codex would run, the user's included: the Session
gets no memory and the write guard never sees a write; its ``unified_exec_tty = true`` turns
terminals back on, so what the model types into one (never shown to a hook) lands. A project's
own hooks and ``[hooks.state]`` change nothing. An administrator's
``/etc/codex/requirements.toml`` (``[features] hooks = true``, ``unified_exec_tty = false``)
holds over a trusted project. These tests pin each measurement for the pinned Codex CLI: when a
version changes one, it fails, and the gap (``guard_gaps.GUARD_GAPS``), the README and
docs/security.md's row change with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.fake_model_apis import Turn
from tests.plugin.harness_run import (
    TOPIC,
    managed_hooks_user,
    other_scope,
    run_codex,
    workspace_with_key,
)
from tests.plugin.helpers import HARNESS_MEMORY, run_cli
from tests.plugin.real_service import RealService
from tests.support.codex_turns import (
    add_file,
    developer_and_user_text,
    function_call,
    requirements_overlay,
    type_into_the_terminal,
)

pytestmark = pytest.mark.e2e

SWITCHES = {
    "hooks-false": "[features]\nhooks = false\n",
    "codex-hooks-false": "[features]\ncodex_hooks = false\n",
}
SPELLINGS = {
    **SWITCHES,
    "byte-order-mark": "\ufeff[features]\nhooks = false\n",
    "inline-table": "features = { hooks = false }\n",
    "dotted-key": "features.hooks = false\n",
    "hooks-false-over-codex-hooks-true": "[features]\ncodex_hooks = true\nhooks = false\n",
    "project-hooks-false-over-user-codex-hooks-true": "[features]\nhooks = false\n",
}
"""The switch as a project's file may spell it, each as ``harness-memory status`` names it too
(``test_h7_status_names_a_workspace_switching_hooks_off.py``,
``test_h7_codex_hooks_over_its_old_name.py``)."""
LEFT_ON = {
    "hooks-true-over-codex-hooks-false": "[features]\nhooks = true\ncodex_hooks = false\n",
    "a-profile-table": 'profile = "quiet"\n[profiles.quiet.features]\nhooks = false\n',
}
"""A trusted project's files that look like the switch and switch nothing off: ``hooks`` holds
over its older name ``codex_hooks``, and a project's profile table is not read; status names
neither."""
USERS_OVER = {
    "user-hooks-true-over-project-codex-hooks-false": "[features]\nhooks = true\n",
    "project-hooks-false-over-user-codex-hooks-true": "[features]\ncodex_hooks = true\n",
}
"""The user's ``[features]`` under a case's project file: Codex merges the layers key by key
before ``hooks`` holds over ``codex_hooks``, so the user's ``hooks = true`` beside a project's
``codex_hooks = false`` runs every hook and a project's ``hooks = false`` beside the user's
``codex_hooks = true`` none; status judges the merged table alike
(``test_h7_codex_hooks_over_its_old_name.py``)."""
PROJECTS = {
    **LEFT_ON,
    "user-hooks-true-over-project-codex-hooks-false": SWITCHES["codex-hooks-false"],
}


def trusting(workspace: Path) -> str:
    """The user's ``config.toml`` lines that trust ``workspace`` as a Codex project."""
    return f'\n[projects."{workspace.resolve()}"]\ntrust_level = "trusted"\n'


@pytest.mark.parametrize("trusted", [False, True], ids=["untrusted", "trusted"])
@pytest.mark.parametrize("switch", list(SPELLINGS))
async def test_codex_a_repository_switches_the_user_hooks_off_only_when_trusted(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    switch: str,
    trusted: bool,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(SPELLINGS[switch], encoding="utf-8")
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    script = [[add_file("call_other", planted, TOPIC)]]

    fake, status, _out, err = await run_codex(
        script,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=(trusting(workspace) if trusted else "") + USERS_OVER.get(switch, ""),
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    injected = f"- Workspace Memory Key: {key}" in first
    assert injected is not trusted
    assert planted.exists() is trusted


@pytest.mark.parametrize("spelling", list(PROJECTS))
async def test_codex_a_trusted_repository_that_looks_like_the_switch_leaves_the_hooks_on(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    spelling: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(PROJECTS[spelling], encoding="utf-8")
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    script = [[add_file("call_other", planted, TOPIC)]]

    fake, status, _out, err = await run_codex(
        script,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace) + USERS_OVER.get(spelling, ""),
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()


REQUIREMENTS = {
    "features-hooks-true": "[features]\nhooks = true\n",
}


@pytest.mark.parametrize("requirement", list(REQUIREMENTS))
async def test_codex_an_administrators_requirements_keep_the_hooks_on(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    requirement: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(SWITCHES["hooks-false"], encoding="utf-8")
    overlay = requirements_overlay(tmp_path, REQUIREMENTS[requirement])
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    script = [[add_file("call_other", planted, TOPIC)]]

    fake, status, _out, err = await run_codex(
        script,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace),
        etc_overlay=overlay,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()


async def test_codex_a_trusted_repositorys_own_hooks_and_hook_state_do_not_undo_ours(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    home_hooks = tmp_path / "home" / ".codex" / "hooks.json"
    ran = tmp_path / "repository-hook-ran"
    events = ("session_start", "pre_tool_use", "post_tool_use")
    state = "".join(
        f'[hooks.state."{home_hooks}:{event}:0:0"]\nenabled = false\n' for event in events
    )
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(state, encoding="utf-8")
    (workspace / ".codex" / "hooks.json").write_text(
        '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", '
        f'"command": "touch {ran}"}}]}}]}}}}',
        encoding="utf-8",
    )
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    script = [[add_file("call_other", planted, TOPIC)]]

    fake, status, _out, err = await run_codex(
        script,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace),
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()
    assert not ran.exists()


@pytest.mark.parametrize("pinned", [False, True], ids=["user-config", "requirements-pin"])
async def test_codex_a_trusted_project_turns_terminals_back_on_unless_an_administrator_pins_them(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    pinned: bool,
) -> None:
    """The install's ``features.unified_exec_tty = false`` keeps typing into a terminal
    (``write_stdin``, which Codex never shows its hooks) shut; a trusted project's
    ``.codex/config.toml`` can set it back to true. ``/etc/codex/requirements.toml`` pins it."""
    workspace, _ = workspace_with_key(tmp_path)
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(
        "[features]\nunified_exec_tty = true\n", encoding="utf-8"
    )
    pin = "[features]\nunified_exec_tty = false\n"
    overlay = requirements_overlay(tmp_path, pin) if pinned else None
    other = other_scope(shared_memory_root, tmp_path)
    typed = f"echo typed > {other}/typed.md\nexit\n"
    # bash in a terminal never ends by itself: Codex answers its exec_command after
    # yield_time_ms (10 s unless given) with the session id the next turn types into
    started = {"cmd": "bash", "tty": True, "yield_time_ms": 500}
    turns: list[Turn] = [
        [function_call("tty", "exec_command", started)],
        type_into_the_terminal(typed),
    ]
    _fake, status, _out, err = await run_codex(
        turns,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace),
        etc_overlay=overlay,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    assert (other / "typed.md").exists() is not pinned


@pytest.mark.parametrize("pinned", [False, True], ids=["user-config", "requirements-pin"])
async def test_codex_a_trusted_project_turns_its_own_memories_back_on_unless_pinned(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    pinned: bool,
) -> None:
    """H-6: the install's ``features.memories = false`` keeps Codex's own memories out of the
    model's context; a trusted project's ``.codex/config.toml`` can set it back to true, and
    ``memory_summary.md`` reaches the model beside Agent Memory. ``/etc/codex/requirements.toml``
    pins it."""
    workspace, key = workspace_with_key(tmp_path)
    memories = tmp_path / "home" / ".codex" / "memories"
    memories.mkdir(parents=True)
    (memories / "memory_summary.md").write_text("CODEX-OWN-MEMORY-SUMMARY\n", encoding="utf-8")
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "config.toml").write_text(
        "[features]\nmemories = true\n", encoding="utf-8"
    )
    pin = "[features]\nmemories = false\n"
    overlay = requirements_overlay(tmp_path, pin) if pinned else None

    fake, status, _out, err = await run_codex(
        [[]],
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace),
        etc_overlay=overlay,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    session = fake.session_turns()[0]
    assert f"- Workspace Memory Key: {key}" in developer_and_user_text(session)
    assert ("CODEX-OWN-MEMORY-SUMMARY" in json.dumps(session)) is not pinned


@pytest.mark.parametrize("switch", list(SWITCHES))
async def test_codex_managed_install_holds_over_a_trusted_project(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    switch: str,
) -> None:
    """``install codex --managed`` writes the hooks and the pins into the administrator's
    ``/etc/codex/requirements.toml`` (laid over ``/etc`` for this run only): a trusted project
    whose ``.codex/config.toml`` says ``hooks = false`` (or ``codex_hooks = false``),
    ``unified_exec_tty = true`` and
    ``memories = true`` still gets its memory and the write guard, and Codex's own memory stays
    out, in a Session started with ``--profile work`` whose profile file says ``memories =
    true`` too (H-6: the user install sets that off only in the profile files it finds,
    ``test_e2e_h6_one_memory.py``).
    The Session's records and token are the account's (``/etc/passwd``'s home), and the
    memory root is writable through Codex's system ``config.toml``."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".codex").mkdir()
    project = SWITCHES[switch] + "unified_exec_tty = true\nmemories = true\n"
    (workspace / ".codex" / "config.toml").write_text(project, encoding="utf-8")
    home = tmp_path / "home"
    memories = home / ".codex" / "memories"
    memories.mkdir(parents=True)
    (memories / "memory_summary.md").write_text("CODEX-OWN-MEMORY-SUMMARY\n", encoding="utf-8")
    profile = "[features]\nmemories = true\n"
    (home / ".codex" / "work.config.toml").write_text(profile, encoding="utf-8")
    overlay = tmp_path / "etc"
    (overlay / "upper" / "codex").mkdir(parents=True)
    (overlay / "work").mkdir()
    admin = "# the administrator\n[features]\nweb_search_request = false  # theirs\n"
    admin += f'\n[hooks]\nmanaged_dir = "{tmp_path / "it-hooks"}"\n'  # where IT's scripts live
    (overlay / "upper" / "codex" / "requirements.toml").write_text(admin, encoding="utf-8")
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--memory-root", str(shared_memory_root), "--executable", str(HARNESS_MEMORY)]
    managed = str(overlay / "upper" / "codex")
    installed = await run_cli("install", "codex", "--managed", managed, *flags)
    assert installed.returncode == 0, installed.stderr
    assert "# the administrator" in (overlay / "upper" / "codex" / "requirements.toml").read_text()
    managed_hooks_user(overlay, home, shared_service.token)
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    own = shared_memory_root / key / "harness-hooks.md"
    script = [[add_file("call_other", planted, TOPIC)], [add_file("call_own", own, TOPIC)]]

    fake, status, _out, err = await run_codex(
        script,
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusting(workspace),
        hooks=False,
        etc_overlay=overlay,
        agent=new_agent,
        exec_flags=["--profile", "work"],
    )

    assert status == 0, err[-3000:]
    session = fake.session_turns()[0]
    assert f"- Workspace Memory Key: {key}" in developer_and_user_text(session)
    assert "CODEX-OWN-MEMORY-SUMMARY" not in json.dumps(session)
    assert not planted.exists()
    assert own.exists()
    assert any((home / ".claude" / "harness-memory" / "sessions").iterdir())
