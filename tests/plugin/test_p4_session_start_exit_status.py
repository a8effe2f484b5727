"""P-2, P-4: ``harness-memory session-start`` run by hand says a refusal with its exit status;
the hooks a harness runs keep theirs (always 0).

A wrong or revoked token (401), or an agent the service does not hold (404), left the command
exiting 0 with a warning, as if the Session had its memory: a person, or a script testing
``$?``, took it for done. Such a refusal is something to fix, not P-2's "service down or slow":
the command still prints the prompt (memory off) but exits 1, the reason and the fix on stderr.
A service that cannot be reached still fails open with exit 0. The hook adapters must not
change: Claude Code and Gemini CLI read a hook's stdout only when it exits 0 (any other status
is a non-blocking error, 2 a blocking one), so a hook that exited 1 would lose the very
``systemMessage`` that tells the user why memory is off.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port

from tests.plugin.helpers import hook_fixture, run_cli
from tests.plugin.real_service import RealService

WRONG = "revoked-token-0123456789"
REFUSED_401 = "memory service answered 401: the bearer token is not known to this service"
SAID = (
    "harness-memory: ERROR: the Session started without memory, and the prompt printed carries "
    "none: the warning above says why and what to fix (exit status 1)"
)


def flags(service: RealService, agent: str, token: str) -> list[str]:
    return ["--url", service.url, "--project", "acme", "--agent", agent, "--token", token]


async def test_p4_session_start_with_a_refused_token_exits_1_saying_why(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    done = await run_cli(
        "session-start", *flags(shared_service, new_agent, WRONG), "--workspace", str(tmp_path),
        "--format", "json", env={},
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert REFUSED_401 in done.stderr
    assert "the service refused the token from --token: it is wrong, or was revoked" in done.stderr
    assert done.stderr.rstrip().endswith(SAID)
    started = done.json()  # the prompt is still printed, memory off
    assert started["sessionMeta"]["status"] == "failed-open"
    assert started["sessionMeta"]["errorKind"] == "rejected"
    assert "(none — memory is off)" in started["systemPrompt"]


async def test_p4_session_start_for_an_agent_the_service_does_not_hold_exits_1(
    shared_service: RealService, tmp_path: Path
) -> None:
    done = await run_cli(
        "session-start", *flags(shared_service, "nobody", shared_service.token),
        "--workspace", str(tmp_path), env={},
    )  # fmt: skip

    assert done.returncode == 1
    assert "memory service answered 404: no agent 'nobody' in project 'acme'" in done.stderr
    assert done.stderr.rstrip().endswith(SAID)
    assert "- Workspace Memory Key: (none — memory is off)" in done.stdout


async def test_p4_session_start_with_the_right_token_exits_0_saying_nothing(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    done = await run_cli(
        "session-start", *flags(shared_service, new_agent, shared_service.token),
        "--workspace", str(tmp_path), env={},
    )  # fmt: skip

    assert (done.returncode, done.stderr) == (0, "")


async def test_p2_session_start_with_the_service_down_still_fails_open_with_0(
    tmp_path: Path,
) -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    done = await run_cli(
        "session-start", "--url", url, "--project", "acme", "--agent", "coder",
        "--workspace", str(tmp_path), env={},
    )  # fmt: skip

    assert done.returncode == 0
    assert "memory failed open for acme/coder: memory service unreachable" in done.stderr
    assert "ERROR" not in done.stderr


async def test_p4_session_start_in_a_folder_not_named_in_utf8_is_a_usage_error(
    tmp_path: Path,
) -> None:
    """``--workspace $'…/caf\\xe9'``: no JSON or text on stdout can carry the path, and the
    command stopped with a UnicodeEncodeError traceback (exit 1); it is now said as a usage
    error (exit 2), the path shown as bytes, before anything is asked."""
    url = f"http://127.0.0.1:{unused_port()}"
    done = await run_cli(
        "session-start", "--url", url, "--project", "acme", "--agent", "coder",
        "--workspace", f"{tmp_path}/caf\udce9", "--format", "json", env={},
    )  # fmt: skip

    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert f"--workspace {bytes(tmp_path)!r}"[:-1] + "/caf\\xe9' is not UTF-8" in done.stderr


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "session-start", "session_start.json"),
        ("codex", "session-start", "codex_session_start.json"),
        ("gemini", "session-start", "gemini_session_start.json"),
    ],
)
async def test_p2_every_session_start_hook_still_exits_0_on_a_refused_token(
    shared_service: RealService, new_agent: str, tmp_path: Path, harness: str, event: str,
    fixture: str,
) -> None:  # fmt: skip
    """Their stdout is read only on exit 0: the ``systemMessage`` saying why memory is off
    reaches the user only so."""
    hook = hook_fixture(fixture, workspace=str(tmp_path))
    state = ["--state-dir", str(tmp_path / "state")]
    done = await run_cli(
        "hook", harness, event, *flags(shared_service, new_agent, WRONG), *state,
        stdin=hook, env={},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert REFUSED_401 in done.json()["systemMessage"]
