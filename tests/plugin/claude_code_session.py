"""Run the real Claude Code CLI headless against a loopback model stand-in (P-4, H-1, H-2).

``write_settings`` writes ``~/.claude/settings.json`` exactly as the plugin's README gives it
(with ``parts`` SessionStart entries); ``run_claude`` runs ``claude -p`` in a temporary HOME with
telemetry, updates and non-essential traffic off; ``serve_model`` serves the Messages API
stand-in (:mod:`tests.plugin.fake_anthropic`) on a free loopback port.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.test_utils import unused_port
from harness_memory.installers.executable import isolated_interpreter
from memory_core import layout

from tests.plugin.fake_anthropic import Block, FakeAnthropic
from tests.plugin.fake_anthropic import Script as ModelScript
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.loopback_only import run_isolated, unix_bridges
from tests.plugin.real_service import RealService
from tests.support.serve import code_under_test

RUN_LIMIT_S = 300  # a hang guard for the CLI run, not an assertion about speed


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def offers_write(body: dict[str, Any]) -> bool:
    """Whether a Messages request offers the Write tool: the Session's own turns do."""
    return any(tool.get("name") == "Write" for tool in body.get("tools") or [])


def session_turns(fake: FakeAnthropic) -> list[dict[str, Any]]:
    """The bodies of the Session's own Messages requests, in order."""
    return [body for body in fake.message_requests() if offers_write(body)]


def tool_results(body: dict[str, Any]) -> list[Block]:
    """Every ``tool_result`` block the request carries, in order."""
    found: list[Block] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            found += [block for block in content if block.get("type") == "tool_result"]
    return found


def result_text(block: Block) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


@contextlib.asynccontextmanager
async def serve_model(script: ModelScript) -> AsyncIterator[tuple[FakeAnthropic, str]]:
    """Serve the Messages API stand-in on a free loopback port: ``(fake, base URL)``."""
    fake = FakeAnthropic(script=script)
    runner = web.AppRunner(fake.app())
    await runner.setup()
    try:
        port = unused_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        yield fake, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def write_settings(home: Path, service: RealService, *, parts: int = 1) -> None:
    """``~/.claude/settings.json`` exactly as the plugin's README gives it, ``parts`` entries."""
    memory_root = layout.memory_root(service.data_dir, "coder")
    flags = f"--url {service.url} --project acme --agent coder"
    python = isolated_interpreter(HARNESS_MEMORY)  # as install writes it (P-2a)
    program = f"{python} -I -X utf8 {HARNESS_MEMORY}" if python else HARNESS_MEMORY
    split = [f" --part {part} --parts {parts}" if parts > 1 else "" for part in range(1, parts + 1)]
    settings = {
        "env": {"HARNESS_MEMORY_TOKEN": service.token},
        "permissions": {
            "additionalDirectories": [str(memory_root)],
            "allow": [f"Edit(/{memory_root}/**)"],
        },
        "hooks": {
            "SessionStart": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"{program} hook claude-code session-start{part} {flags}",
                        }
                    ]
                }
                for part in split
            ],
            "PreToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit|NotebookEdit",
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"{program} hook claude-code pre-tool-use "
                            f"--memory-root {memory_root}",
                        }
                    ],
                }
            ],
        },
    }
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps(settings, indent=2), encoding="utf-8"
    )


async def run_claude(
    claude: Path,
    workspace: Path,
    home: Path,
    model_url: str,
    *,
    service_url: str | None = None,
    prompt: str = "Remember that memory reaches Claude Code through hooks.",
    output_format: str = "json",
    etc_overlay: Path | None = None,
    extra: tuple[str, ...] = (),
    hidden: tuple[Path, ...] = (),
) -> tuple[int, str, str]:
    """Run ``claude -p PROMPT`` in ``workspace``; ``(exit status, stdout, stderr)``.

    The CLI runs in a network namespace with only loopback (:mod:`tests.plugin.loopback_only`):
    the model stand-in at ``model_url`` and the memory service at ``service_url`` are bridged
    in on their own ports; nothing else is reachable. ``stream-json`` output comes with
    ``--verbose`` (Claude Code requires it), which also reports the hooks' ``systemMessage``.
    ``etc_overlay``: files laid over ``/etc`` for this run (:func:`~tests.plugin.loopback_only.
    wrap`), e.g. Claude Code's managed settings; ``extra``: more ``claude`` flags; ``hidden``:
    folders the CLI and its hooks cannot see (another machine's disk).
    """
    urls = [model_url] + ([service_url] if service_url else [])
    ports = [urlsplit(url).port or 80 for url in urls]
    async with unix_bridges(ports) as bridges:
        command = [str(claude), "-p", prompt, "--output-format", output_format]
        command += ["--verbose"] if output_format == "stream-json" else []
        return await _run(
            command + list(extra), workspace, home, model_url, bridges, etc_overlay, hidden
        )


async def _run(
    command: list[str],
    workspace: Path,
    home: Path,
    model_url: str,
    bridges: dict[int, Path],
    etc_overlay: Path | None,
    hidden: tuple[Path, ...] = (),
) -> tuple[int, str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": model_url,
        "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        **code_under_test(),
    }
    code, out, err = await run_isolated(
        command,
        bridges,
        cwd=workspace,
        env=env,
        limit_s=RUN_LIMIT_S,
        etc_overlay=etc_overlay,
        hidden=hidden,
    )
    return code, out.decode(), err.decode()
