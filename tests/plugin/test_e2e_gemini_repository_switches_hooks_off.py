"""The kind of ``tests/data/cases/repository-switches-hooks-off`` with the real Gemini CLI.

A trusted Workspace's ``.gemini/settings.json`` is merged over the user's settings; with
``"hooksConfig": {"enabled": false}``, or the hooks' names in ``hooksConfig.disabled``, or a
``hooks`` that is no object (``null``, ``[]``, ``false``, ``""``: it replaces the user's in the
merge), no hook from the user's settings runs: the Session gets no memory and the write guard
never sees a write.
``install gemini --managed`` writes the hooks into Gemini CLI's system settings, which override
every other file: ``hooksConfig.enabled: true`` there wins. ``hooksConfig.disabled`` is merged
from every settings level and matches a hook's ``name`` (its command when it has none), so the
managed hooks carry names ending in a random part no repository can know: a Workspace listing the
user install's names or the managed hooks' exact commands misses them. These tests keep those
statements true for the pinned Gemini CLI: when a version stops honouring a Workspace's switch
against the user install, they fail, and the gap and docs/security.md's row can go.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.harness_run import (
    TOPIC,
    InstalledHomes,
    account_home,
    gemini_home,
    other_scope,
    relocate,
    run_gemini,
    run_gemini_in,
    workspace_with_key,
)
from tests.plugin.helpers import HARNESS_MEMORY, cli_env, run_cli
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import first_user_text, write_call

pytestmark = pytest.mark.e2e

SWITCHES: dict[str, dict[str, Any]] = {
    "enabled-false": {"hooksConfig": {"enabled": False}},
    "disabled-by-name": {
        "hooksConfig": {
            "disabled": [
                "agent-memory-session-start",
                "agent-memory-before-tool",
                "agent-memory-after-tool",
            ]
        }
    },
    # ``hooks`` holding no object replaces the user's whole ``hooks`` in the merge
    "hooks-null": {"hooks": None},
    "hooks-list": {"hooks": []},
    "hooks-false": {"hooks": False},
    "hooks-empty-text": {"hooks": ""},
}


@pytest.mark.parametrize("switch", list(SWITCHES))
async def test_gemini_a_repository_switches_the_user_settings_hooks_off(
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    switch: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".gemini").mkdir()
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(SWITCHES[switch]))
    planted = other_scope(module_memory_root, tmp_path) / "planted.md"
    script = [[write_call(planted, TOPIC)]]

    fake, status, _out, err = await run_gemini(
        script,
        shared_service,
        module_memory_root,
        workspace,
        tmp_path,
        agent=module_agent,
        homes=installed_homes,
    )

    assert status == 0, err[-3000:]
    first = first_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" not in first
    assert planted.exists()


async def test_gemini_system_settings_hooks_null_runs_no_hook_of_the_user_settings(
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
) -> None:
    """Gemini CLI 0.61 merges its system settings last with the rest (``mergeSettings``:
    defaults, system defaults, user, Workspace, system), a ``null`` replacing the value below
    it as any value that is no object does, and runs the hooks of the merged ``hooks or {}``:
    system settings saying ``"hooks": null`` (root's, as Gemini CLI requires of them) leave no
    hook of the user's settings running, so ``install gemini`` and ``status`` say PROBLEM of
    them (``test_h7_install_names_machine_settings_switching_hooks_off.py``), rightly."""
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    flags = (home, shared_service, module_memory_root)
    installed_homes.install("gemini", *flags, agent=module_agent, prepare=gemini_home)
    overlay = tmp_path / "etc"
    (overlay / "upper" / "gemini-cli").mkdir(parents=True)
    (overlay / "work").mkdir()
    (overlay / "upper" / "gemini-cli" / "settings.json").write_text('{"hooks": null}')
    planted = other_scope(module_memory_root, tmp_path) / "planted.md"

    fake, status, _out, err = await run_gemini_in(
        [[write_call(planted, TOPIC)]], shared_service, workspace, home, etc_overlay=overlay
    )

    assert status == 0, err[-3000:]
    assert f"- Workspace Memory Key: {key}" not in first_user_text(fake.session_turns()[0])
    assert planted.exists()


MANAGED_SWITCHES: dict[str, tuple[str, dict[str, Any]]] = {
    "user-enabled-false": ("user", {"hooksConfig": {"enabled": False}}),
    **{
        f"workspace-{name}": ("workspace", switch)
        for name, switch in SWITCHES.items()
        if name in ("enabled-false", "hooks-null")
    },
}
"""The switches the managed install holds over, by where they are set. The Workspace listing
the user install's hook names in ``hooksConfig.disabled`` is
:func:`test_gemini_managed_hooks_hold_over_a_workspace_naming_their_commands`'s, whose list
holds those names and more: ``disabled`` is a set of names a hook is looked up in, so hooks it
does not switch off are not switched off by a part of it (one Gemini CLI run, not two)."""


@pytest.mark.parametrize("switch", list(MANAGED_SWITCHES))
async def test_gemini_managed_install_holds_over_the_users_and_a_workspaces_switch(
    shared_service: RealService,
    managed_install: Path,
    module_memory_root: Path,
    tmp_path: Path,
    switch: str,
) -> None:
    """``install gemini --managed`` writes the hooks and ``hooksConfig.enabled = true`` into
    Gemini CLI's system settings (``/etc/gemini-cli/settings.json``, laid over ``/etc`` for this
    run only, root's and writable by no one else, as Gemini CLI requires): the user's settings
    or a trusted Workspace's saying ``hooksConfig.enabled: false`` no longer switch them off
    (the system file's value wins), nor do the user install's hook names in a Workspace's
    ``hooksConfig.disabled`` (the managed hooks' names differ: the test after this one). The
    Session gets its memory and
    the write guard refuses a write into another Workspace's scope; its records and token are
    the account's (``/etc/passwd``'s home)."""
    where, settings = MANAGED_SWITCHES[switch]
    workspace, key = workspace_with_key(tmp_path)
    if where == "workspace":
        (workspace / ".gemini").mkdir()
        (workspace / ".gemini" / "settings.json").write_text(json.dumps(settings))

    planted, first, _ = await managed_gemini_session(
        (shared_service, managed_install, module_memory_root),
        tmp_path,
        workspace,
        user=settings if where == "user" else {},
    )

    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()
    assert any((tmp_path / "home" / ".claude" / "harness-memory" / "sessions").iterdir())


def managed_flags(service: RealService, agent: str, memory_root: Path) -> list[str]:
    """``install gemini --managed``'s flags after its folder: hooks for ``acme/{agent}``."""
    flags = ["--url", service.url, "--project", "acme", "--agent", agent]
    return [*flags, "--memory-root", str(memory_root), "--executable", str(HARNESS_MEMORY)]


@pytest.fixture(scope="module")
def managed_install(
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """``install gemini --managed`` for ``module_agent``, run once for this module's tests as an
    administrator would: the system settings' folder each test's ``/etc`` gets a copy of
    (:func:`~tests.plugin.harness_run.relocate`: the install's record names the copy's folder).
    No test changes it, and each Session's records and token are in that test's own HOME."""
    system = tmp_path_factory.mktemp("managed-gemini") / "gemini-cli"
    flags = managed_flags(shared_service, module_agent, module_memory_root)
    with tempfile.TemporaryDirectory(prefix="cli-home-") as spare_home:
        installed = subprocess.run(
            [str(HARNESS_MEMORY), "install", "gemini", "--managed", str(system), *flags],
            capture_output=True,
            text=True,
            check=False,
            env=cli_env(None, spare_home),
        )
    assert installed.returncode == 0, installed.stderr
    return system


async def managed_gemini_session(
    installed_for: tuple[RealService, Path, Path],
    tmp_path: Path,
    workspace: Path,
    *,
    user: dict[str, Any] | None = None,
    relaunch: bool = False,
    after_install: Callable[[Path], None] | None = None,
    refused: bool = False,
) -> tuple[Path, str, str]:
    """One Session under ``install gemini --managed`` (laid over ``/etc``) in ``workspace``,
    the ``user`` keys in the user's settings, writing into another Workspace's scope: ``(that
    file, first user text, stderr)``; ``after_install`` is given the system settings' folder
    once written; ``refused``: Gemini CLI is to refuse the Session (no first user text).
    ``installed_for`` is the service, the system settings' folder :func:`managed_install` wrote
    for it and the memory root its hooks serve; the account's token is in its home
    (``/etc/passwd``'s)."""
    service, installed, memory_root = installed_for
    home = tmp_path / "home"
    gemini_home(home)
    path = home / ".gemini" / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **(user or {})}))
    overlay = tmp_path / "etc"
    (overlay / "upper").mkdir(parents=True)
    (overlay / "work").mkdir()
    system = overlay / "upper" / "gemini-cli"
    relocate(installed, system)
    if after_install is not None:
        after_install(system)
    (overlay / "upper" / "passwd").write_text(account_home(0, home), encoding="utf-8")
    token = home / ".claude" / "harness-memory" / "token"
    token.parent.mkdir(parents=True)
    token.write_text(service.token + "\n", encoding="utf-8")
    token.chmod(0o600)
    planted = other_scope(memory_root, tmp_path) / "planted.md"
    fake, status, _out, err = await run_gemini_in(
        [[write_call(planted, TOPIC)]],
        service,
        workspace,
        home,
        etc_overlay=overlay,
        relaunch=relaunch,
    )
    if refused:
        assert status != 0 and not fake.session_turns(), err[-3000:]
        return planted, "", err
    assert status == 0, err[-3000:]
    return planted, first_user_text(fake.session_turns()[0]), err


@pytest.mark.parametrize("relaunch", [False, True])
async def test_gemini_managed_install_holds_over_a_workspaces_env_naming_other_system_settings(
    shared_service: RealService,
    managed_install: Path,
    module_memory_root: Path,
    tmp_path: Path,
    relaunch: bool,
) -> None:
    """``$GEMINI_CLI_SYSTEM_SETTINGS_PATH`` moves Gemini CLI's system settings, and a trusted
    Workspace's ``.gemini/.env`` (never filtered by ``advanced.excludedEnvVars``) sets
    variables: Gemini CLI 0.61 reads the settings before the ``.env``, so the managed hooks
    still run (measured in one Node process, and letting it start its second one as it does
    for a user)."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".gemini").mkdir()
    moved = "GEMINI_CLI_SYSTEM_SETTINGS_PATH=/nonexistent/settings.json\n"
    (workspace / ".gemini" / ".env").write_text(moved, encoding="utf-8")

    planted, first, _ = await managed_gemini_session(
        (shared_service, managed_install, module_memory_root),
        tmp_path,
        workspace,
        relaunch=relaunch,
    )

    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()


async def test_gemini_managed_hooks_hold_over_a_workspace_naming_their_commands(
    shared_service: RealService,
    module_agent: str,
    managed_install: Path,
    module_memory_root: Path,
    tmp_path: Path,
) -> None:
    """``hooksConfig.disabled`` is merged from every settings level, and Gemini CLI 0.61 matches
    it against a hook's ``name``, its command only when it has none: a trusted Workspace that
    lists every command the managed install writes on this machine (its URL, ids and memory
    root predicted), and the user install's names, does not switch the managed hooks off,
    whose names end in a random part (``gemini_managed.hook_names``). The Session gets its
    memory, the guard refuses the write, and the Session's records are the account's."""
    workspace, key = workspace_with_key(tmp_path)
    flags = managed_flags(shared_service, module_agent, module_memory_root)
    shown = await run_cli("install", "gemini", "--managed", str(tmp_path / "shown"), *flags)
    assert shown.returncode == 0, shown.stderr
    installed = json.loads((tmp_path / "shown" / "settings.json").read_text(encoding="utf-8"))
    named = [h["command"] for g in installed["hooks"].values() for e in g for h in e["hooks"]]
    (workspace / ".gemini").mkdir()
    switch = {
        "hooksConfig": {"disabled": named + SWITCHES["disabled-by-name"]["hooksConfig"]["disabled"]}
    }
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(switch), encoding="utf-8")

    planted, first, _ = await managed_gemini_session(
        (shared_service, managed_install, module_memory_root), tmp_path, workspace
    )

    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()
    assert any((tmp_path / "home" / ".claude" / "harness-memory" / "sessions").iterdir())


async def test_gemini_managed_hooks_a_workspace_names_by_their_names_are_switched_off(
    shared_service: RealService, managed_install: Path, module_memory_root: Path, tmp_path: Path
) -> None:
    """The measure that the test above is one: the same Workspace listing the names this
    machine's managed install gave its hooks (read from the system settings) does switch them
    off, so a Gemini CLI matching ``disabled`` otherwise would fail here first."""
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".gemini").mkdir()

    def disabling_names(system: Path) -> None:
        installed = json.loads((system / "settings.json").read_text(encoding="utf-8"))
        names = [h["name"] for g in installed["hooks"].values() for e in g for h in e["hooks"]]
        switch = {"hooksConfig": {"disabled": names}}
        (workspace / ".gemini" / "settings.json").write_text(json.dumps(switch), encoding="utf-8")

    planted, first, _ = await managed_gemini_session(
        (shared_service, managed_install, module_memory_root),
        tmp_path,
        workspace,
        after_install=disabling_names,
    )

    assert f"- Workspace Memory Key: {key}" not in first
    assert planted.exists()


async def test_gemini_a_workspaces_env_distrusting_it_stops_the_session_not_the_hooks(
    shared_service: RealService, managed_install: Path, module_memory_root: Path, tmp_path: Path
) -> None:
    """Gemini CLI runs configured hooks, the system settings' included, only in a folder it
    trusts (0.61: ``HookRegistry.processHooksFromConfig``). A trusted Workspace's
    ``.gemini/.env`` saying ``GEMINI_RESTRICTED_MODE=true`` (which makes every folder
    untrusted) does not make it run without them: headless Gemini CLI refuses to start,
    saying why, and nothing is written."""
    workspace, _ = workspace_with_key(tmp_path)
    (workspace / ".gemini").mkdir()
    distrust = "GEMINI_RESTRICTED_MODE=true\n"
    (workspace / ".gemini" / ".env").write_text(distrust, encoding="utf-8")

    planted, _, err = await managed_gemini_session(
        (shared_service, managed_install, module_memory_root), tmp_path, workspace, refused=True
    )

    assert "not running in a trusted directory" in err
    assert not planted.exists()
