"""H-5: every hook is a process of its own that needs only the plugin's own dependencies.

How long a hook process takes is measured by ``plugins/harness-memory/bench/hook_cost.py``
(``make bench-hooks``: each at most 100 ms wall), never timed here. These tests run each hook as
the installers write it (H-3), as a separate process in which the service's packages (aiohttp,
``memory_api``) cannot be imported: the plugin declares neither, so no hook may need them.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from harness_memory.fitting import utf16_units
from harness_memory.records import read_record

from tests.plugin.helpers import hook_fixture
from tests.plugin.scripted_service import ScriptedService

NOT_THE_PLUGINS = ("aiohttp", "memory_api")
"""Packages of the service that a plugin install does not bring."""

RUN_WITHOUT_THEM = (
    "import sys\n"
    f"for name in {NOT_THE_PLUGINS!r}:\n"
    "    sys.modules[name] = None  # import fails, as where they are not installed\n"
    "from harness_memory.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/session_start.json


async def run_hook(args: list[str], stdin: bytes) -> Any:
    """Run ``harness-memory ARGS`` without the service's packages; its JSON answer or None."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        RUN_WITHOUT_THEM,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()
    return json.loads(out) if out.strip() else None


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "my-app"
    path.mkdir(parents=True)
    return path


def settings_flags(service: ScriptedService, tmp_path: Path) -> list[str]:
    """The flags the installers write into a hook command (H-3)."""
    return [
        "--url",
        service.url,
        "--project",
        "acme",
        "--agent",
        "coder",
        "--memory-root",
        str(service.memory_root),
        "--timeout",
        "5",
        "--state-dir",
        str(tmp_path / "state"),
    ]


@pytest.mark.parametrize(
    ("harness", "parts"),
    # --parts 6 as installs before the four entries wrote it: such command lines keep working
    [("claude-code", ["--part", "1", "--parts", "6"]), ("codex", []), ("gemini", [])],
)
async def test_h5_a_session_start_hook_needs_only_the_plugins_packages(
    service: ScriptedService, workspace: Path, tmp_path: Path, harness: str, parts: list[str]
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    answer = await run_hook(["hook", harness, "session-start", *flags, *parts], stdin)
    assert answer is not None
    assert "additionalContext" in answer["hookSpecificOutput"]
    assert "systemMessage" not in answer  # the service answered: the ordinary path
    record = read_record(tmp_path / "state", SESSION_ID)  # a full SessionMeta, read by msgspec
    assert record is not None and record.status == "injected"
    assert record.workspace == str(workspace)


async def test_h5_a_later_session_start_entry_needs_only_the_plugins_packages(
    service: ScriptedService, workspace: Path, tmp_path: Path
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", "claude-code", "session-start", *flags, "--part", "6", "--parts", "6"]
    answer = await run_hook(args, stdin)
    assert answer is None  # the prompt needs fewer pieces: entry 6 has nothing to add
    assert read_record(tmp_path / "state", SESSION_ID) is None  # entry 1 writes the record


def capped_answer(root: Path) -> bytes:
    """An A-9 answer with sections whose indexes are over the caps (I-4), so over one hook
    entry: the one ``plugins/harness-memory/bench/hook_cost.py`` measures the cut with."""
    path = Path(__file__).resolve().parents[2] / "plugins/harness-memory/bench/hook_cost.py"
    spec = importlib.util.spec_from_file_location("hook_cost", path)
    assert spec is not None and spec.loader is not None
    hook_cost = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_cost)
    answer: bytes = hook_cost.canned_answer(root, 260, 240)
    return answer


async def test_h5_a_session_start_entry_that_must_cut_needs_only_the_plugins_packages(
    aiohttp_server: Any, workspace: Path, tmp_path: Path
) -> None:
    """One SessionStart entry cannot carry both indexes at the caps: the hook leaves lines out
    and restates the I-4 note (H-1)."""
    body = capped_answer(tmp_path / "memory")

    async def handle(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=body, content_type="application/json")

    app = web.Application()
    app.router.add_post("/{tail:.*}", handle)
    server = await aiohttp_server(app)
    flags = ["--url", str(server.make_url("")).rstrip("/"), "--project", "acme", "--agent"]
    flags += ["coder", "--timeout", "5", "--state-dir", str(tmp_path / "state")]
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", "claude-code", "session-start", *flags, "--part", "1", "--parts", "1"]
    answer = await run_hook(args, stdin)
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert utf16_units(context) <= 10_000
    assert "(Truncated: the " in context and "Claude Code's limit of 10,000" in context
    assert "memory was cut" in answer["systemMessage"]


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "pre-tool-use", "pre_tool_use_write.json"),
        ("codex", "pre-tool-use", "codex_pre_tool_use_apply_patch.json"),
        ("gemini", "before-tool", "gemini_before_tool_write_file.json"),
    ],
)
@pytest.mark.parametrize("with_record", [True, False], ids=["record", "memory-root"])
async def test_h5_a_write_guard_needs_only_the_plugins_packages(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    harness: str,
    event: str,
    fixture: str,
    with_record: bool,
) -> None:
    flags = settings_flags(service, tmp_path)
    if with_record:
        start = hook_fixture("session_start.json", workspace=str(workspace))
        await run_hook(["hook", "claude-code", "session-start", *flags], start)
    target = service.memory_root / "other-1a2b3c4d" / "note.md"
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    if with_record:  # the recorded inputs carry their own harness's Session id
        stdin = stdin.replace(json.loads(stdin)["session_id"].encode(), SESSION_ID.encode())
    answer = await run_hook(["hook", harness, event, *flags], stdin)
    assert answer is not None and "deny" in json.dumps(answer)  # the guard ran and refused
