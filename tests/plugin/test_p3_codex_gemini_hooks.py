"""P-3, P-4: the Codex CLI and Gemini CLI hook adapters, driven with hook JSON recorded from the
real CLIs (``fixtures/codex_*.json``, ``fixtures/gemini_*.json``) on stdin.

Each entry point's answer is proved from the installed console script, a process of its own:
the guard's refusal once per harness (its first tool), each Session start. The other cases
judge the same input through the same ``harness-memory hook`` command line in this process
(:func:`~tests.plugin.helpers.run_hook_in_process`): one decision, no process start per case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.hooks.tool_targets import shell_paths
from harness_memory.hooks.tool_writes import patch_targets
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.plugin.helpers import (
    Completed,
    hook_fixture,
    judge_hook,
    run_cli,
    run_hook_in_process,
)
from tests.plugin.scripted_service import USER_INDEX_LINE, ScriptedService
from tests.plugin.test_e2e_p3_file_tool_spellings import relative
from tests.support.serve import code_under_test

GUARD = {
    "codex": (
        "pre-tool-use",
        "codex_pre_tool_use_apply_patch.json",
        "codex_pre_tool_use_bash.json",
    ),
    "gemini": (
        "before-tool",
        "gemini_before_tool_write_file.json",
        "gemini_before_tool_shell.json",
    ),
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "my-app"
    path.mkdir(parents=True)
    return path


def env_for(tmp_path: Path, root: Path, url: str = "http://127.0.0.1:9") -> dict[str, str]:
    return {
        "HARNESS_MEMORY_URL": url,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder",
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HARNESS_MEMORY_ROOT": str(root),
        "HARNESS_MEMORY_TIMEOUT": "30",  # a hang guard: the scripted service answers at once
        "HOME": str(tmp_path / "home"),
    }


async def guard(
    harness: str,
    fixture: str,
    env: dict[str, str],
    cwd: Path,
    target: str,
    *,
    process: bool = False,
) -> Completed:
    """``harness``'s pre-tool hook on ``fixture`` (writing ``target`` from ``cwd``): in this
    process, or (``process``) run by the installed console script."""
    stdin = hook_fixture(fixture, workspace=str(cwd), target=target)
    return await judge_hook(harness, GUARD[harness][0], stdin, env, process=process)


def refused(harness: str, done: Completed) -> str:
    assert done.returncode == 0, done.stderr
    answer = done.json()
    if harness == "codex":
        specific = answer["hookSpecificOutput"]
        assert specific["permissionDecision"] == "deny"
        return str(specific["permissionDecisionReason"])
    assert answer["decision"] == "deny"
    return str(answer["reason"])


@pytest.mark.parametrize("harness", ["codex", "gemini"])
@pytest.mark.parametrize("tool", [1, 2])
async def test_p3_a_write_into_another_workspace_scope_is_refused(
    tmp_path: Path, workspace: Path, harness: str, tool: int
) -> None:
    """The first tool's refusal is the console script's, a process of its own."""
    root = layout.memory_root(tmp_path / "data", "coder")
    target = root / "other-app-0badc0de" / "stolen.md"
    env = env_for(tmp_path, root)
    done = await guard(
        harness, GUARD[harness][tool], env, workspace, str(target), process=tool == 1
    )
    assert "Agent Memory write guard" in refused(harness, done)
    assert "other-app-0badc0de" in refused(harness, done)


@pytest.mark.parametrize("harness", ["codex", "gemini"])
@pytest.mark.parametrize("tool", [1, 2])
@pytest.mark.parametrize("where", ["own", "user", "outside"])
async def test_p3_allowed_writes_get_no_answer(
    tmp_path: Path, workspace: Path, harness: str, tool: int, where: str
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    targets = {
        "own": root / workspace_memory_key(workspace) / "note.md",
        "user": root / "user" / "MEMORY.md",
        "outside": workspace / "src" / "main.py",
    }
    done = await guard(
        harness, GUARD[harness][tool], env_for(tmp_path, root), workspace, str(targets[where])
    )
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.parametrize("harness", ["codex", "gemini"])
@pytest.mark.parametrize("name", [".workspace", "../../agents/x", ""])
async def test_p3_markers_dot_dot_and_the_root_itself_are_refused(
    tmp_path: Path, workspace: Path, harness: str, name: str
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    own = root / workspace_memory_key(workspace)
    target = f"{own}/{name}" if name else str(root)
    done = await guard(harness, GUARD[harness][1], env_for(tmp_path, root), workspace, target)
    assert "Agent Memory write guard" in refused(harness, done)


@pytest.mark.parametrize("spelling", ["@{rel}", "@/{rel}", "@//{rel}"])
async def test_p3_gemini_an_at_path_is_judged_as_gemini_reads_it(
    tmp_path: Path, workspace: Path, spelling: str
) -> None:
    """Gemini CLI's file tools read ``@path`` as ``path`` from the Workspace (measured:
    ``test_e2e_p3_file_tool_spellings.py``); as written it would lie inside the Workspace."""
    root = layout.memory_root(tmp_path / "data", "coder")
    spelled = relative(root / "other-app-0badc0de" / "stolen.md", workspace)
    target = spelling.format(rel=spelled)
    env = {**env_for(tmp_path, root), **code_under_test()}  # this checkout's guard
    done = await guard("gemini", GUARD["gemini"][1], env, workspace, target)
    assert "other-app-0badc0de" in refused("gemini", done)


async def test_p3_gemini_an_at_path_in_the_workspace_is_allowed(
    tmp_path: Path, workspace: Path
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    env = {**env_for(tmp_path, root), **code_under_test()}
    done = await guard("gemini", GUARD["gemini"][1], env, workspace, "@docs/notes.md")
    assert (done.returncode, done.stdout) == (0, "")


def test_p3_patch_targets_name_every_file_a_patch_writes() -> None:
    patch = (
        "*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: /m/b.md\n"
        "*** Move to: /m/c.md\n@@\n-y\n+z\n*** Delete File: d.md\n*** End Patch\n"
    )
    assert patch_targets(patch) == ["a.md", "/m/b.md", "/m/c.md", "d.md"]


def test_p3_patch_targets_read_indented_headers_as_codex_does() -> None:
    """Codex trims each hunk header before it reads the marker, so these write too."""
    patch = (
        "*** Begin Patch\n   *** Add File: /m/a.md\n+x\n\t*** Delete File: /m/b.md \n"
        "\u00a0*** Update File: c.md\r\n*** Move to: d.md\n+x\n+*** Add File: no.md\n"
        "*** End Patch\n"
    )
    assert patch_targets(patch) == ["/m/a.md", "/m/b.md", "c.md", "d.md"]


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("echo hi > /m/root/x/a.md", "/m/root/x/a.md"),
        ("cp a '/m/root/user/b c.md'", "/m/root/user/b c.md"),
        ("tee --output=/m/root/k/f.md </dev/null", "/m/root/k/f.md"),
        ("cat /m/rootless/x; ls /m/root", "/m/root"),
        ("echo 'unclosed > /m/root/x", "/m/root/x"),
    ],
)
def test_p3_shell_paths_find_memory_paths_in_a_command(command: str, found: str) -> None:
    assert found in shell_paths(command, "/ws", {}).paths


@pytest.mark.parametrize("harness", ["codex", "gemini"])
async def test_p4_session_start_adds_the_injection_and_writes_the_record(
    service: ScriptedService, tmp_path: Path, workspace: Path, harness: str
) -> None:
    env = env_for(tmp_path, service.memory_root, service.url)
    stdin = hook_fixture(f"{harness}_session_start.json", workspace=str(workspace))
    done = await run_cli("hook", harness, "session-start", stdin=stdin, env=env)
    assert done.returncode == 0, done.stderr
    answer = done.json()
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert USER_INDEX_LINE in context
    assert "systemMessage" not in answer
    records = list((tmp_path / "state" / "sessions").glob("*.json"))
    assert len(records) == 1


@pytest.mark.parametrize("harness", ["codex", "gemini"])
async def test_p4_malformed_input_and_missing_settings_never_block(
    tmp_path: Path, harness: str
) -> None:
    env = {"HOME": str(tmp_path)}
    done = run_hook_in_process(harness, GUARD[harness][0], b"not json", env)
    assert (done.returncode, done.stdout) == (0, "")
    done = run_hook_in_process(harness, "session-start", b"{}", env)
    assert done.returncode == 0
    assert "HARNESS_MEMORY_URL" in json.loads(done.stdout)["systemMessage"]
