"""P-4: the Claude Code hook adapters, driven with recorded hook JSON on stdin, field by field.

The Session starts and the first refusal run the installed console script, a process each;
the other PreToolUse cases judge the same input through the same ``harness-memory hook``
command line in this process (:func:`~tests.plugin.helpers.judge_hook`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from harness_memory.records import read_record, record_path
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.plugin.helpers import Completed, harness_env, hook_fixture, judge_hook, run_cli
from tests.plugin.scripted_service import USER_INDEX_LINE, WORKSPACE_INDEX_LINE, ScriptedService

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/*.json


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "my-app"
    path.mkdir(parents=True)
    return path


def is_empty(directory: Path) -> bool:
    return not any(directory.iterdir())


def hook_env(service_url: str, state_dir: Path, **extra: str) -> dict[str, str]:
    return harness_env(
        service_url,
        HARNESS_MEMORY_STATE_DIR=str(state_dir),
        HOME=str(state_dir.parent / "home"),
        **extra,
    )


def guard_env(tmp_path: Path, root: Path | None) -> dict[str, str]:
    """Settings for a PreToolUse hook with no Session record: a state dir and the memory root."""
    env = {"HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path)}
    if root is not None:
        env["HARNESS_MEMORY_ROOT"] = str(root)
    return env


async def session_start(env: dict[str, str], workspace: Path) -> Completed:
    return await run_cli(
        "hook",
        "claude-code",
        "session-start",
        stdin=hook_fixture("session_start.json", workspace=str(workspace)),
        env=env,
    )


async def pre_tool_use(
    env: dict[str, str],
    workspace: Path,
    target: str,
    fixture: str = "pre_tool_use_write.json",
    *,
    process: bool = False,
) -> Completed:
    """The PreToolUse hook on ``fixture`` writing ``target``: in this process, or
    (``process``) by the installed console script."""
    stdin = hook_fixture(fixture, workspace=str(workspace), target=target)
    return await judge_hook("claude-code", "pre-tool-use", stdin, env, process=process)


async def test_p4_session_start_adds_the_injection_as_additional_context(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    env = hook_env(service.url, tmp_path / "state")
    done = await session_start(env, workspace)
    assert done.returncode == 0, done.stderr
    answer = done.json()
    assert set(answer) == {"hookSpecificOutput"}
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart"
    context = output["additionalContext"]
    assert USER_INDEX_LINE in context and WORKSPACE_INDEX_LINE in context
    environment = context[context.index("# Environment") :]
    assert environment.splitlines() == [
        "# Environment",
        "- Workspace Memory Key: my-app-1c7ddc51",
        f"- App data dir: {service.data_dir}",
        "- Agent id: coder",
    ]
    [(path, _, body)] = service.calls
    assert path == "acme/coder"
    assert body.workspace == str(workspace)
    assert body.session_id == SESSION_ID


async def test_p4_session_start_writes_the_session_record_in_the_harness_state_dir(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    await session_start(hook_env(service.url, state), workspace)
    assert record_path(state, SESSION_ID).is_file()
    record = read_record(state, SESSION_ID)
    assert record is not None
    assert record.key == "my-app-1c7ddc51"
    assert record.status == "injected"
    assert record.directories is not None
    assert record.directories.memory_root.endswith("agents/coder/agent_state/memory")
    assert is_empty(workspace)  # nothing is written into the Workspace (P-2a)


async def test_p4_session_start_uses_the_configured_template_file(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    template = tmp_path / "template.md"
    template.write_text("Be terse.\n{{MEMORY}}\nKey={{WORKSPACE_MEMORY_KEY}}\n", encoding="utf-8")
    env = hook_env(service.url, tmp_path / "state", HARNESS_MEMORY_TEMPLATE=str(template))
    context = (await session_start(env, workspace)).json()["hookSpecificOutput"][
        "additionalContext"
    ]
    assert context.startswith("Be terse.\n## User memory")
    assert context.endswith("Key=my-app-1c7ddc51\n")


async def test_p2_session_start_hook_fails_open_when_the_service_is_down(
    workspace: Path, tmp_path: Path
) -> None:
    env = hook_env(f"http://127.0.0.1:{unused_port()}", tmp_path / "state")
    done = await session_start(env, workspace)
    assert done.returncode == 0
    answer = done.json()
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "## User memory" not in context
    assert "- Workspace Memory Key: (none — memory is off)" in context
    assert answer["systemMessage"].startswith("Agent Memory unavailable for this Session: ")
    assert "unreachable" in answer["systemMessage"]
    record = read_record(tmp_path / "state", SESSION_ID)
    assert (
        record is not None and record.status == "failed-open" and record.error_kind == "unreachable"
    )


async def test_p4_session_start_hook_without_settings_says_what_is_missing(
    workspace: Path, tmp_path: Path
) -> None:
    done = await session_start({"HOME": str(tmp_path)}, workspace)
    assert done.returncode == 0
    answer = done.json()
    assert "hookSpecificOutput" not in answer
    message = answer["systemMessage"]
    for name in ("HARNESS_MEMORY_URL", "HARNESS_MEMORY_PROJECT", "HARNESS_MEMORY_AGENT"):
        assert name in message


async def test_p4_malformed_hook_input_is_answered_with_nothing(tmp_path: Path) -> None:
    for event in ("session-start", "pre-tool-use"):
        done = await run_cli(
            "hook", "claude-code", event, stdin=b"{not json", env={"HOME": str(tmp_path)}
        )
        assert done.returncode == 0
        assert done.stdout == ""
        assert "not the JSON Claude Code sends" in done.stderr


@pytest.fixture
async def started(service: ScriptedService, workspace: Path, tmp_path: Path) -> dict[str, str]:
    """A Session started through the hook, so its record exists; returns the hook env."""
    env = hook_env(service.url, tmp_path / "state")
    assert (await session_start(env, workspace)).returncode == 0
    return env


async def test_p3_pre_tool_use_denies_a_write_into_another_workspace_scope(
    service: ScriptedService, started: dict[str, str], workspace: Path
) -> None:
    target = service.memory_root / "other-app-0badc0de" / "stolen.md"
    done = await pre_tool_use(started, workspace, str(target), process=True)
    assert done.returncode == 0
    answer = done.json()
    assert set(answer) == {"hookSpecificOutput"}
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    assert output["permissionDecision"] == "deny"
    assert output["permissionDecisionReason"].startswith("Agent Memory write guard: ")
    assert (
        "other-app-0badc0de is another Workspace's memory scope"
        in output["permissionDecisionReason"]
    )


@pytest.mark.parametrize("scope", ["user", "my-app-1c7ddc51"])
async def test_p3_pre_tool_use_says_nothing_for_an_allowed_memory_write(
    service: ScriptedService, started: dict[str, str], workspace: Path, scope: str
) -> None:
    done = await pre_tool_use(started, workspace, str(service.memory_root / scope / "note.md"))
    assert done.returncode == 0
    assert done.stdout == ""  # no "allow": Claude Code's own permission rules still apply


async def test_p3_pre_tool_use_says_nothing_for_a_write_outside_the_memory_root(
    started: dict[str, str], workspace: Path
) -> None:
    done = await pre_tool_use(started, workspace, str(workspace / "src" / "main.py"))
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("fixture", "denied"),
    [
        ("pre_tool_use_edit.json", True),
        ("pre_tool_use_multiedit.json", True),
        ("pre_tool_use_notebookedit.json", True),
        ("pre_tool_use_bash.json", True),
        ("pre_tool_use_read.json", False),
    ],
)
async def test_p3_pre_tool_use_guards_every_writing_tool_and_only_those(
    service: ScriptedService, started: dict[str, str], workspace: Path, fixture: str, denied: bool
) -> None:
    target = service.memory_root / "other-app-0badc0de" / ".workspace"
    done = await pre_tool_use(started, workspace, str(target), fixture=fixture)
    assert done.returncode == 0
    if denied:
        assert done.json()["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert done.stdout == ""


async def test_p3_pre_tool_use_denies_the_workspace_marker_of_the_own_scope(
    service: ScriptedService, started: dict[str, str], workspace: Path
) -> None:
    done = await pre_tool_use(
        started, workspace, str(service.memory_root / "my-app-1c7ddc51" / ".workspace")
    )
    assert (
        ".workspace is the scope's marker"
        in done.json()["hookSpecificOutput"]["permissionDecisionReason"]
    )


async def test_p2a_pre_tool_use_without_a_record_uses_the_configured_memory_root(
    workspace: Path, tmp_path: Path
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    env = guard_env(tmp_path, root)
    own = workspace_memory_key(workspace)
    assert (await pre_tool_use(env, workspace, str(root / own / "x.md"))).stdout == ""
    denied = await pre_tool_use(env, workspace, str(root / "other-app-0badc0de" / "x.md"))
    assert denied.json()["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_p2a_pre_tool_use_in_a_temporary_workspace_allows_only_the_user_scope(
    tmp_path: Path,
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    temporary = layout.workspaces_dir(tmp_path / "data", "coder") / "run-1"
    temporary.mkdir(parents=True)
    env = guard_env(tmp_path, root)
    assert (await pre_tool_use(env, temporary, str(root / "user" / "x.md"))).stdout == ""
    own_key = workspace_memory_key(temporary)
    denied = await pre_tool_use(env, temporary, str(root / own_key / "x.md"))
    assert "no Workspace scope" in denied.json()["hookSpecificOutput"]["permissionDecisionReason"]


async def test_p2a_pre_tool_use_with_no_memory_root_known_answers_nothing(
    workspace: Path, tmp_path: Path
) -> None:
    done = await pre_tool_use(guard_env(tmp_path, None), workspace, "/anything/at/all.md")
    assert done.returncode == 0 and done.stdout == ""


def test_fixtures_are_the_recorded_claude_code_shapes() -> None:
    recorded = json.loads(hook_fixture("pre_tool_use_write.json", workspace="/w", target="/w/x.md"))
    for name in (
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "tool_name",
        "tool_input",
    ):
        assert name in recorded
    assert recorded["tool_input"]["file_path"] == "/w/x.md"


async def test_h1_entries_past_the_pieces_needed_answer_nothing(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    env = hook_env(service.url, tmp_path / "state")
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    first = await run_cli(
        "hook", "claude-code", "session-start", "--part", "1", "--parts", "3", stdin=stdin, env=env
    )
    assert first.returncode == 0, first.stderr
    context = first.json()["hookSpecificOutput"]["additionalContext"]
    assert USER_INDEX_LINE in context and "<memory-context" not in context  # one piece suffices
    second = await run_cli(
        "hook", "claude-code", "session-start", "--part", "2", "--parts", "3", stdin=stdin, env=env
    )
    assert second.returncode == 0, second.stderr
    assert second.stdout == ""


async def test_h1_a_part_past_the_parts_is_a_usage_error(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    done = await run_cli(
        "hook", "claude-code", "session-start", "--part", "4", "--parts", "3",
        stdin=hook_fixture("session_start.json", workspace=str(workspace)),
        env=hook_env(service.url, tmp_path / "state"),
    )  # fmt: skip
    assert done.returncode == 2
    assert "--part 4 is past --parts 3" in done.stderr
