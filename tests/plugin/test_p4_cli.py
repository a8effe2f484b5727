"""P-4: the same Session start from a shell, JSON or plain text out."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import unused_port

from tests.plugin.helpers import run_cli
from tests.plugin.scripted_service import USER_INDEX_LINE, ScriptedService

TEMPLATE = "Intro.\n\n{{MEMORY}}\n# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"


def write_template(tmp_path: Path) -> str:
    path = tmp_path / "template.md"
    path.write_text(TEMPLATE, encoding="utf-8")
    return str(path)


async def test_p4_session_start_json_holds_prompt_key_and_session_meta(
    service: ScriptedService, tmp_path: Path
) -> None:
    done = await run_cli(
        "session-start",
        "--url", service.url,
        "--token", "t0k",
        "--project", "acme",
        "--agent", "coder",
        "--workspace", "/home/ada/src/my-app",
        "--template-file", write_template(tmp_path),
        "--session-id", "cli-1",
        "--format", "json",
        env={},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = done.json()
    assert set(answer) == {"systemPrompt", "key", "sessionMeta"}
    assert answer["key"] == "my-app-1c7ddc51"
    assert USER_INDEX_LINE in answer["systemPrompt"]
    meta = answer["sessionMeta"]
    assert meta["systemPrompt"] == answer["systemPrompt"]
    assert meta["status"] == "injected"
    assert meta["sessionId"] == "cli-1"
    assert meta["manifests"][0]["capFired"] == "lines"
    assert meta["truncated"] == ["user"]
    assert isinstance(meta["durationMs"], float)
    [(_, headers, body)] = service.calls
    assert headers["Authorization"] == "Bearer t0k"
    assert body.workspace == "/home/ada/src/my-app"


async def test_p4_session_start_text_prints_the_prompt_and_reads_the_environment(
    service: ScriptedService, tmp_path: Path
) -> None:
    env = {
        "HARNESS_MEMORY_URL": service.url,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder",
        "HARNESS_MEMORY_TEMPLATE": write_template(tmp_path),
    }
    done = await run_cli("session-start", "--workspace", str(tmp_path), env=env)
    assert done.returncode == 0
    assert done.stdout.startswith("Intro.\n\n## User memory\n")
    assert done.stdout.endswith("- Workspace Memory Key: my-app-1c7ddc51\n")
    assert "Authorization" not in service.calls[0][1]


async def test_p2_session_start_cli_fails_open_with_a_warning(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    done = await run_cli(
        "session-start", "--url", url, "--project", "acme", "--agent", "coder",
        "--template-file", write_template(tmp_path), "--format", "json", env={},
    )  # fmt: skip
    assert done.returncode == 0
    assert "memory failed open" in done.stderr
    meta = done.json()["sessionMeta"]
    assert meta["status"] == "failed-open"
    assert meta["errorKind"] == "unreachable"
    assert "(none — memory is off)" in done.json()["systemPrompt"]


async def test_p4_session_start_cli_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = await run_cli("session-start", "--url", "http://127.0.0.1:9", env={})
    assert missing.returncode == 2
    assert "--project" in missing.stderr and "--agent" in missing.stderr
    bad_timeout = await run_cli("session-start", "--timeout", "soon", env={})
    assert bad_timeout.returncode == 2
    assert "timeout" in bad_timeout.stderr
    no_template = await run_cli(
        "session-start", "--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder",
        "--template-file", str(tmp_path / "absent.md"), env={},
    )  # fmt: skip
    assert no_template.returncode == 2
    assert "template" in no_template.stderr
