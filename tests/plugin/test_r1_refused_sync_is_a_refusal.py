"""R-1, P-4: a sync the service refuses (its token, 401; the agent, 404) is told as refused.

In remote mode a token the service refused was recorded as ``errorKind: unreachable`` with
git's words only (``fatal: Authentication failed for '…'``), never the service's reason, and
``harness-memory session-start`` exited 0: a person, or a script testing ``$?``, took a
revoked token for a service that was down and waited for it to come back. Right: as a request's
refusal outside remote mode, the sync says ``memory service answered 401: <the service's
reason>`` with where the token came from and what to do, the record's ``errorKind`` is
``rejected``, and ``session-start`` by hand exits 1 (the prompt carries the local copy as it
was, and says so); the hooks a harness runs still exit 0. A service that cannot be reached is
still no refusal: exit 0, ``unreachable``.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_cli import Machine

SERVICE_SAYS_401 = (
    "memory service answered 401: the bearer token is not known to this service (revoked or "
    "mistyped) (the service refused the token from "
)
FROM_COPY = (
    "harness-memory: ERROR: the Session started with this machine's local copy of its memory as "
    "it was, not synced: the service refused the sync; the warning above says why and what to "
    "fix (exit status 1)"
)


def _revoke(machine: Machine) -> None:
    machine.token_file.write_text("mem_revoked-0123456789abcdef\n", encoding="utf-8")
    machine.token_file.chmod(0o600)


def _served(service: RealService, agent: str) -> Path:
    user = layout.memory_root(service.data_dir, agent) / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / "MEMORY.md").write_text("- kept line\n", encoding="utf-8")
    return user


def test_r1_session_start_with_a_token_the_service_refuses_exits_1_with_its_reason(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    _served(shared_service, new_agent)
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    assert laptop.start("s1")["status"] == "injected"
    _revoke(laptop)

    done = laptop.run(
        "session-start", "--format", "json", "--session-id", "s2",
        "--workspace", str(laptop.workspace),
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    meta = json.loads(done.stdout)["sessionMeta"]
    assert meta["errorKind"] == "rejected"
    assert meta["error"].startswith(SERVICE_SAYS_401), meta["error"]
    assert f"the token from HARNESS_MEMORY_TOKEN_FILE {laptop.token_file}: " in meta["error"]
    assert "unreachable" not in done.stderr and "not synced:" not in meta["error"]
    assert [scope["refused"] for scope in meta["remoteSync"]] == [True, True]
    assert SERVICE_SAYS_401 in done.stderr
    assert done.stderr.rstrip().endswith(FROM_COPY)
    assert "- kept line" in json.loads(done.stdout)["systemPrompt"]  # the copy as it was
    assert "mem_revoked" not in done.stdout + done.stderr


def test_r1_session_start_for_an_agent_the_service_does_not_hold_exits_1(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, "nobody")

    done = laptop.run("session-start", "--format", "json", "--workspace", str(laptop.workspace))

    assert done.returncode == 1, done.stderr
    meta = json.loads(done.stdout)["sessionMeta"]
    assert meta["errorKind"] == "rejected"
    assert meta["error"].startswith(
        "memory service answered 404: no agent 'nobody' in project 'acme' (asked at "
    ), meta["error"]


def test_r1_the_session_start_hook_with_a_refused_token_still_exits_0_and_says_why(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    _revoke(laptop)
    hook = {"session_id": "s3", "cwd": str(laptop.workspace), "hook_event_name": "SessionStart"}

    done = laptop.run("hook", "codex", "session-start", stdin=json.dumps(hook))

    assert done.returncode == 0, done.stderr
    assert "memory service answered 401: the bearer token is not known" in done.stdout


def test_r1_a_service_that_cannot_be_reached_is_still_no_refusal(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"

    done = laptop.run("session-start", "--format", "json", "--workspace", str(laptop.workspace))

    assert done.returncode == 0, done.stderr
    meta = json.loads(done.stdout)["sessionMeta"]
    assert meta["errorKind"] == "unreachable"
    assert [scope["refused"] for scope in meta["remoteSync"]] == [False, False]


def test_r1_a_push_with_a_refused_token_is_refused_and_the_change_waits(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    state = tmp_path / "laptop" / "state"
    copy = RemoteCopy(
        url=shared_service.url, token=shared_service.token, project="acme", agent=new_agent,
        state_dir=state, timeout=30.0,
    )  # fmt: skip
    assert all(result.ok for result in copy.sync(None))
    with (copy.memory_root / "user" / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("- written before the token was revoked\n")
    revoked = RemoteCopy(
        url=shared_service.url, token="mem_revoked-0123456789abcdef", project="acme",
        agent=new_agent, state_dir=state, timeout=30.0, token_source="HARNESS_MEMORY_TOKEN",
    )  # fmt: skip

    [sent] = [revoked.sync_scope("user", send_only=True)]

    assert not sent.ok and sent.refused and sent.waiting
    assert (sent.error or "").startswith(
        "memory service answered 401: the bearer token is not known to this service"
    )
    assert "from HARNESS_MEMORY_TOKEN" in (sent.error or "")


def test_r1_parallel_session_start_entries_each_tell_the_refusal_as_one(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """Claude Code's parallel SessionStart entries sync once and the others read what that
    sync left: a refusal read back was a plain failure (``unreachable``) there."""
    copy = RemoteCopy(
        url=shared_service.url, token="mem_revoked-0123456789abcdef", project="acme",
        agent=new_agent, state_dir=tmp_path / "state", timeout=30.0,
    )  # fmt: skip
    since = time.time() - 1  # what each entry passes: the time its own process started
    [first] = copy.sync(None, fresh_since=since)
    [again] = copy.sync(None, fresh_since=since)

    assert first.refused and not first.skipped
    assert again.skipped and again.refused and not again.ok
    assert again.error == first.error
