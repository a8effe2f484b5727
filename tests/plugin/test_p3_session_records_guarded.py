"""P-3: the Session's record, which tells the write guard the Session's own Workspace scope, is
written by the hooks alone.

The guard lets a Session write into the user scope and the scope its record names. A model that
could rewrite that record with its file tools or the shell (it lies outside the memory root)
would name another Workspace's key there and be let into that scope on its next write: the
guard switched off by a file it left unguarded. So a write into the hooks' Session records is
refused like a write into another Workspace's scope, and the forged second step never comes.

The Session starts and the first refusal (of the Write tool) run the installed console script,
a process each; the other PreToolUse cases judge the same input through the same
``harness-memory hook`` command line in this process (:func:`~tests.plugin.helpers.judge_hook`).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from harness_memory.records import record_path

from tests.plugin.helpers import (
    HARNESS_MEMORY,
    Completed,
    harness_env,
    hook_fixture,
    judge_hook,
    run_cli,
)
from tests.plugin.scripted_service import ScriptedService

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/*.json
CODEX_SESSION_ID = "01a22df9-d191-7142-bf5a-d907c3a9f6b6"  # fixtures/codex_*.json


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "my-app"
    path.mkdir(parents=True)
    return path


@pytest.fixture
async def started(service: ScriptedService, workspace: Path, tmp_path: Path) -> dict[str, str]:
    """A Session started through the hook, so its record exists; returns the hook env."""
    env = harness_env(
        service.url, HARNESS_MEMORY_STATE_DIR=str(tmp_path / "state"), HOME=str(tmp_path / "home")
    )
    if "PYTHONPATH" in os.environ:  # the code under test, where a checkout names it
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    assert (
        await run_cli("hook", "claude-code", "session-start", stdin=stdin, env=env)
    ).returncode == 0
    return env


async def _pre_tool_use(
    env: dict[str, str],
    workspace: Path,
    target: str,
    fixture: str,
    harness: str = "claude-code",
    *,
    process: bool = False,
) -> Completed:
    """``harness``'s PreToolUse hook on ``fixture`` writing ``target``, asserted to exit 0: in
    this process, or (``process``) by the installed console script."""
    stdin = hook_fixture(fixture, workspace=str(workspace), target=target)
    done = await judge_hook(harness, "pre-tool-use", stdin, env, process=process)
    assert done.returncode == 0, done.stderr
    return done


def _denied(done: Completed) -> str:
    answer = done.json()["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", answer
    return str(answer["permissionDecisionReason"])


@pytest.mark.parametrize(
    "fixture", ["pre_tool_use_write.json", "pre_tool_use_edit.json", "pre_tool_use_bash.json"]
)
async def test_p3_the_sessions_own_record_is_never_writable(
    started: dict[str, str], workspace: Path, tmp_path: Path, fixture: str
) -> None:
    record = record_path(tmp_path / "state", SESSION_ID)
    before = record.read_bytes()

    process = fixture == "pre_tool_use_write.json"  # the console script's own refusal, once
    reason = _denied(await _pre_tool_use(started, workspace, str(record), fixture, process=process))

    assert "Session records" in reason
    assert record.read_bytes() == before


async def test_p3_a_record_reached_another_way_is_refused_too(
    started: dict[str, str], workspace: Path, tmp_path: Path
) -> None:
    """Another spelling (``..`` through the Workspace, a symlink to the records folder), a new
    record beside it, and a shell word built at run time that could land there."""
    records = tmp_path / "state" / "sessions"
    (workspace / "link").symlink_to(records)
    climbing = workspace / ".." / ".." / "state" / "sessions" / f"{SESSION_ID}.json"
    for target in (str(climbing), str(workspace / "link" / f"{SESSION_ID}.json")):
        assert "Session records" in _denied(
            await _pre_tool_use(started, workspace, target, "pre_tool_use_write.json")
        )
    new = str(records / "another-session.json")
    assert "Session records" in _denied(
        await _pre_tool_use(started, workspace, new, "pre_tool_use_write.json")
    )
    built = f"{records}/$(ls {records} | head -1)"
    assert "Session records" in _denied(
        await _pre_tool_use(started, workspace, built, "pre_tool_use_bash.json")
    )


async def test_p3_the_codex_guard_refuses_the_records_too(
    started: dict[str, str], workspace: Path, tmp_path: Path
) -> None:
    stdin = hook_fixture("codex_session_start.json", workspace=str(workspace))
    assert (
        await run_cli("hook", "codex", "session-start", stdin=stdin, env=started)
    ).returncode == 0
    record = record_path(tmp_path / "state", CODEX_SESSION_ID)
    assert record.is_file()
    done = await _pre_tool_use(
        started, workspace, str(record), "codex_pre_tool_use_bash.json", harness="codex"
    )
    assert "Session records" in json.dumps(done.json())


async def test_p3_other_files_beside_the_workspace_stay_writable(
    started: dict[str, str], workspace: Path, tmp_path: Path
) -> None:
    for target in (workspace / "notes.md", tmp_path / "state" / "notes.md"):
        done = await _pre_tool_use(started, workspace, str(target), "pre_tool_use_write.json")
        assert done.stdout == "", done.stdout


_BIND_THEN_GUARD = 'mount --bind "$1" "$2" && exec "$3" hook claude-code pre-tool-use'


@pytest.mark.parametrize("mounted", ["the folder", "the record"])
async def test_p3_the_records_folder_under_another_name_is_refused(
    started: dict[str, str], workspace: Path, tmp_path: Path, mounted: str
) -> None:
    """A bind mount names the records folder (or the Session's record itself, mounted onto a
    file of the Workspace) in a way ``realpath`` keeps as spelled, and the kernel writes into
    the records all the same: the folder that *is* the records folder (device and inode), or
    the mount table, says so. Made for real in a user and mount namespace of the test's own."""
    records = tmp_path / "state" / "sessions"
    if mounted == "the folder":
        alias = tmp_path / "elsewhere"
        alias.mkdir()
        target = str(alias / f"{SESSION_ID}.json")
    else:
        records = record_path(tmp_path / "state", SESSION_ID)
        alias = workspace / "session.json"
        alias.write_text("{}", encoding="utf-8")
        target = str(alias)
    stdin = hook_fixture("pre_tool_use_write.json", workspace=str(workspace), target=target)
    command = ["sh", "-c", _BIND_THEN_GUARD, "sh", str(records), str(alias), HARNESS_MEMORY]
    process = await asyncio.create_subprocess_exec(
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=started,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode == 0, err.decode()

    reason = _denied(Completed(0, out.decode(), err.decode()))

    assert "Session records" in reason


@pytest.mark.parametrize(
    "fixture", ["pre_tool_use_write.json", "pre_tool_use_edit.json", "pre_tool_use_bash.json"]
)
@pytest.mark.parametrize("below", ["tokens/mine.json", "agents/reviewer/agent.json"])
async def test_p3_the_services_own_folders_of_its_data_dir_are_never_writable(
    service: ScriptedService,
    started: dict[str, str],
    workspace: Path,
    fixture: str,
    below: str,
) -> None:
    """The same holds for the data dir that holds the memory root, on the service's machine:
    a token file planted there would open the API to every project (P-3, A-10)."""
    target = service.data_dir / below

    reason = _denied(await _pre_tool_use(started, workspace, str(target), fixture))

    assert "only the service writes" in reason
