"""R-2: ``harness-memory status`` says what a remote-mode Session starts with when the service
refuses or does not answer: this machine's copy, not "without memory".

Remote mode's hooks read the injection from the local copy whatever the sync did (offline
starts use the local copy), and what the agent writes there waits to go back. After a token
was revoked, ``status`` told such a machine "every Session of these hooks starts without
memory" beside its own last-Session line saying memory was read from this machine's files
"(the service did not answer)" when the service had answered 401. Right: the service line says
the Sessions start from this machine's copy as last synced and what they write waits there;
the last-Session line says the memory came from the copy and leaves the why to the error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.installers.last_session import last_session_lines
from harness_memory.installers.service_check import service_lines
from harness_memory.records import SessionMeta, write_record

from tests.plugin.real_service import RealService

UNREACHABLE = "http://127.0.0.1:9"
FROM_THE_COPY = (
    "every Session of these hooks starts from this machine's copy as it was last synced, and "
    "what the agent writes waits there to go back"
)


def session_start_hook(url: str, home: Path, *, remote: bool) -> str:
    """The SessionStart command a ``--remote`` install (or a ``--url`` one) writes, its token
    file holding a token the service does not take."""
    token_file = home / "token"
    token_file.parent.mkdir(parents=True, exist_ok=True)
    token_file.write_text("mem_not-a-token-it-knows\n", encoding="utf-8")
    token_file.chmod(0o600)
    root = home / ".harness-memory" / "remote" / "acme" / "agents" / "coder" / "agent_state"
    mode = f"--remote on --state-dir {home / '.harness-memory'}" if remote else ""
    return (
        f"harness-memory hook claude-code session-start --url {url} --project acme "
        f"--agent coder --memory-root {root / 'memory'} --token-file {token_file} {mode} "
        "--flags-only"
    )


@pytest.mark.parametrize("remote", [True, False], ids=["remote", "url"])
def test_r2_status_of_a_refused_token_says_what_sessions_start_with(
    shared_service: RealService, tmp_path: Path, remote: bool
) -> None:
    hook = session_start_hook(shared_service.url, tmp_path, remote=remote)

    [line], fine = service_lines([hook], {"HOME": str(tmp_path)}, harnesses={hook: ["claude-code"]})

    assert not fine
    assert "PROBLEM: the service refused the token from --token-file" in line
    if remote:
        assert FROM_THE_COPY in line, line
        assert "without memory" not in line
    else:
        assert "every Session of these hooks starts without memory" in line


def test_r2_status_of_an_unanswering_service_in_remote_mode_names_the_copy(
    tmp_path: Path,
) -> None:
    hook = session_start_hook(UNREACHABLE, tmp_path, remote=True)

    [line], fine = service_lines([hook], {"HOME": str(tmp_path)}, timeout=2.0)

    assert fine  # no fault of the token: said, not a PROBLEM
    assert line.startswith(f"service {UNREACHABLE} (acme/coder): does not answer (")
    assert "until it answers, " + FROM_THE_COPY in line, line
    assert "memory read from the files when they are on this machine" not in line


def record(state_dir: Path, *, remote_sync: list[dict[str, object]] | None, error: str) -> None:
    """A Session record whose memory was read from the files on this machine (H-4, R-2)."""
    meta = SessionMeta(
        project="acme",
        agent="coder",
        workspace="/home/alice/shop",
        session_id="s1",
        service_url="http://memory.example.com",
        started_at="2026-12-06T08:12:24Z",
        duration_ms=1.0,
        status="offline",
        error=error,
        error_kind="rejected" if remote_sync is not None else "unreachable",
        enabled=True,
        injected=True,
        template_has_memory=True,
        workspace_kind="persistent",
        key="shop-0a1b2c3d",
        workspace_memory_key="shop-0a1b2c3d",
        directories=None,
        manifests=[],
        truncated=[],
        system_prompt="# Memory\n",
        remote_sync=remote_sync,
    )
    write_record(state_dir, "s1", meta)


def test_r2_the_last_session_read_from_the_copy_is_said_so_without_blaming_an_answer(
    tmp_path: Path,
) -> None:
    refused = "memory service answered 401: the bearer token is not known to this service"
    record(tmp_path, remote_sync=[{"scope": "user", "ok": False, "error": refused}], error=refused)
    command = f"harness-memory hook claude-code session-start --state-dir {tmp_path}"

    [line] = last_session_lines("claude-code", "claude-code", [command])

    assert line == (
        "claude-code: last Session start 2026-12-06T08:12:24Z in /home/alice/shop (acme/coder): "
        "memory read from this machine's copy as it was last synced (not synced with the "
        f"service: {refused})"
    )


def test_r2_the_last_session_read_from_the_files_says_the_service_did_not_answer(
    tmp_path: Path,
) -> None:
    down = "memory service unreachable at http://127.0.0.1:9: [Errno 111] Connection refused"
    record(tmp_path, remote_sync=None, error=down)
    command = f"harness-memory hook codex session-start --state-dir {tmp_path}"

    [line] = last_session_lines("codex", "codex", [command])

    assert line.endswith(
        f"memory read from the files on this machine (the service did not answer) ({down})"
    )


def test_r2_the_last_session_whose_sync_failed_says_not_synced_once(tmp_path: Path) -> None:
    """A Session-start sync that git could not finish is recorded as "memory service not
    synced: fatal: …": the status line wrapped it in its own "(not synced with the service:
    …)", saying it twice. It is said once, with git's reason."""
    fatal = "fatal: unable to access 'http://127.0.0.1:9/': Failed to connect"
    sync = [{"scope": "user", "ok": False, "error": fatal}]
    record(tmp_path, remote_sync=sync, error=f"memory service not synced: {fatal}")
    command = f"harness-memory hook claude-code session-start --state-dir {tmp_path}"

    [line] = last_session_lines("claude-code", "claude-code", [command])

    assert line.endswith(
        "(acme/coder): memory read from this machine's copy as it was last synced (not synced "
        f"with the service: {fatal})"
    ), line
