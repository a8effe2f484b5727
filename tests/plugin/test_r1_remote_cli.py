"""R-1, R-2 through the command line: two machines run ``harness-memory`` in remote mode.

Each machine is a HOME and state dir of its own whose processes are given only the service's
URL and a token file; the service is the real ``memory-api serve`` on loopback. Session start
syncs and injects from the local copy, the post-write hook sends the agent's writes back, the
service being down leaves the copy usable and the writes waiting, and ``sync --status`` says so.
Every ``git`` the plugin runs goes through a wrapper on ``PATH`` that records its arguments: no
token may be among them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import stat
import subprocess
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from harness_memory import session
from harness_memory.cli import main
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.support.serve import code_under_test, venv_bin

AGENT = "coder"


class Machine:
    """One machine of ``acme/{agent}``: its HOME, state dir, token file and the environment
    of its processes."""

    def __init__(
        self,
        tmp_path: Path,
        name: str,
        service: RealService,
        agent: str,
        *,
        in_process: bool = False,
    ) -> None:
        self.agent = agent
        self.in_process = in_process
        self.home = tmp_path / name
        self.state = self.home / "state"
        self.home.mkdir(parents=True)
        self.token_file = self.home / "token"
        self.token_file.write_text(service.token + "\n", encoding="utf-8")
        self.token_file.chmod(0o600)
        self.workspace = self.home / "code" / "shop"
        self.workspace.mkdir(parents=True)
        wrappers = self.home / "bin"
        wrappers.mkdir()
        self.git_log = self.home / "git-argv.log"
        real_git = subprocess.run(
            ["sh", "-c", "command -v git"], capture_output=True, text=True, check=True
        ).stdout.strip()
        wrapper = wrappers / "git"
        wrapper.write_text(
            f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{self.git_log}"\nexec {real_git} "$@"\n',
            encoding="utf-8",
        )
        wrapper.chmod(0o755)
        self.url = service.url
        self.path = f"{wrappers}:{os.environ.get('PATH', '')}"

    def env(self) -> dict[str, str]:
        return {
            "PATH": self.path,
            "HOME": str(self.home),
            "HARNESS_MEMORY_URL": self.url,
            "HARNESS_MEMORY_PROJECT": "acme",
            "HARNESS_MEMORY_AGENT": self.agent,
            "HARNESS_MEMORY_TOKEN_FILE": str(self.token_file),
            "HARNESS_MEMORY_STATE_DIR": str(self.state),
            "HARNESS_MEMORY_REMOTE": "on",
            "HARNESS_MEMORY_TIMEOUT": "20",
            **code_under_test(),  # a branch's checkout runs its own code, not the installed one
        }

    def run(
        self, *args: str, stdin: str = "", real: bool | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``harness-memory ARGS`` of this machine: a process of its own (its ``git`` the
        recording wrapper, its stderr the process's) unless the machine is ``in_process`` and
        ``real`` is not given; then the same entry point, ``main``, runs in this test process
        (``git`` from the test's ``PATH``, nothing recorded; what is logged goes to pytest's
        log capture, not ``stderr``): only a test that reads the git log or stderr, or judges
        the process itself, pays a Python start-up per step. In this process the call starts
        now: a Session start's syncs skip a scope synced since its process started
        (``_process_started``: the parallel hook entries of one Session sync once), and this
        process started long before."""
        if real if real is not None else not self.in_process:
            return subprocess.run(
                [venv_bin("harness-memory"), *args],
                input=stdin,
                capture_output=True,
                text=True,
                env=self.env(),
                cwd=self.workspace,
                check=False,
            )
        out, err = io.StringIO(), io.StringIO()
        started = time.time()
        with (
            contextlib.chdir(self.workspace),
            contextlib.redirect_stderr(err),
            mock.patch.object(session, "_process_started", lambda: started),
        ):
            try:
                status = main(
                    list(args),
                    environ=self.env(),
                    stdin=io.BytesIO(stdin.encode("utf-8")),
                    stdout=out,
                )
            except SystemExit as stopped:
                status = stopped.code if isinstance(stopped.code, int) else 2
        return subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())

    def start(self, session_id: str) -> dict[str, Any]:
        done = self.run(
            "session-start", "--format", "json", "--session-id", session_id, "--workspace",
            str(self.workspace),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        meta: dict[str, Any] = json.loads(done.stdout)["sessionMeta"]
        return meta

    def post_write(self, session_id: str, path: Path) -> None:
        hook = {
            "session_id": session_id,
            "cwd": str(self.workspace),
            "tool_name": "Write",
            "tool_input": {"file_path": str(path)},
        }
        done = self.run("hook", "claude-code", "post-tool-use", stdin=json.dumps(hook))
        assert done.returncode == 0 and done.stdout == "", done.stderr


@pytest.fixture
def served_root(shared_service: RealService, new_agent: str) -> Path:
    """The memory root of this test's own agent on the worker's shared service."""
    return layout.memory_root(shared_service.data_dir, new_agent)


def test_r1_a_memory_written_on_machine_a_reaches_machine_b_and_no_token_reaches_git_argv(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    desktop = Machine(tmp_path, "desktop", shared_service, new_agent)
    meta = laptop.start("s1")
    assert meta["status"] == "injected", meta
    copy_root = Path(meta["directories"]["memoryRoot"])
    assert copy_root.is_relative_to(laptop.state)
    assert [item["ok"] for item in meta["remoteSync"]] == [True, True]
    user = copy_root / "user"
    (user / "pnpm.md").write_text("---\ndescription: use pnpm\n---\npnpm only\n", encoding="utf-8")
    (user / "MEMORY.md").write_text("- [Pnpm](pnpm.md) this team uses pnpm\n", encoding="utf-8")
    laptop.post_write("s1", user / "MEMORY.md")
    assert (served_root / "user" / "pnpm.md").read_text(encoding="utf-8").endswith("pnpm only\n")
    other = desktop.start("s2")
    assert other["status"] == "injected"
    assert "- [Pnpm](pnpm.md) this team uses pnpm" in other["systemPrompt"]
    key = other["key"]
    assert key is not None and (served_root / key / ".workspace").is_file()
    for machine in (laptop, desktop):
        argv = machine.git_log.read_text(encoding="utf-8")
        assert "fetch" in argv and shared_service.token not in argv


def test_r2_the_service_down_keeps_the_copy_and_the_writes_arrive_later(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    (served_root / "user").mkdir(parents=True, exist_ok=True)
    (served_root / "user" / "MEMORY.md").write_text("- kept line\n", encoding="utf-8")
    assert laptop.start("s1")["status"] == "injected"
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    meta = laptop.start("s2")
    assert meta["status"] == "offline" and "not synced" in meta["error"]
    assert "- kept line" in meta["systemPrompt"]
    assert meta["workspaceMemoryKey"].startswith("shop-")
    user = Path(meta["directories"]["memoryRoot"]) / "user"
    with (user / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- written offline\n")
    laptop.post_write("s2", user / "MEMORY.md")
    status = laptop.run("sync", "--status")
    assert status.returncode == 0
    assert "user: last sync" in status.stdout and "changes wait to go back" in status.stdout
    laptop.url = shared_service.url
    synced = laptop.run("sync", "--workspace", str(laptop.workspace), real=True)
    assert synced.returncode == 0, synced.stdout + synced.stderr
    assert "user: synced: sent 1 file\n" in synced.stdout
    text = (served_root / "user" / "MEMORY.md").read_text(encoding="utf-8")
    assert text == "- kept line\n- written offline\n"
    assert "nothing waits" in laptop.run("sync", "--status").stdout


def test_r1_a_sync_by_hand_the_service_does_not_answer_says_what_waits_as_status_does(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """``harness-memory sync`` with the service down said "changes wait for the next sync" of
    every scope, beside a ``sync --status`` saying "nothing waits" of the same copy."""
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    meta = laptop.start("s1")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    user = Path(meta["directories"]["memoryRoot"]) / "user"
    (user / "MEMORY.md").write_text("- written offline\n", encoding="utf-8")

    synced = laptop.run("sync", "--workspace", str(laptop.workspace))

    assert synced.returncode == 1
    said = dict(line.split(": ", 1) for line in synced.stdout.splitlines())
    assert said["user"].startswith("not synced (")
    assert said["user"].endswith("; changes wait for the next sync")
    assert said[meta["key"]].endswith(
        "; nothing waits to go back; the next sync brings what the service holds"
    )
    status = laptop.run("sync", "--status").stdout
    assert f"{meta['key']}: last sync" in status and "nothing waits" in status


def test_r1_a_token_file_others_may_read_is_refused(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    laptop.token_file.chmod(0o644)
    done = laptop.run("session-start", "--workspace", str(laptop.workspace))
    assert done.returncode == 2 and "chmod 600" in done.stderr
    assert stat.S_IMODE(laptop.token_file.stat().st_mode) == 0o644


def test_r1_install_remote_wires_all_three_harnesses_with_private_token_files(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    env = {"PATH": laptop.path, "HOME": str(laptop.home)}
    for harness in ("claude-code", "codex", "gemini"):
        done = subprocess.run(
            [
                venv_bin("harness-memory"), "install", harness, "--remote", shared_service.url,
                "--project", "acme", "--agent", new_agent, "--executable",
                venv_bin("harness-memory"),
            ],
            capture_output=True, text=True, check=False,
            env={**env, "HARNESS_MEMORY_TOKEN": shared_service.token},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert shared_service.token not in done.stdout + done.stderr
    state = laptop.home / ".harness-memory"
    copy_root = state / "remote" / "acme" / "agents" / new_agent / "agent_state" / "memory"
    assert copy_root.is_dir()
    settings = {
        "claude-code": laptop.home / ".claude" / "settings.json",
        "codex": laptop.home / ".codex" / "hooks.json",
        "gemini": laptop.home / ".gemini" / "settings.json",
    }
    token_files = {
        "claude-code": laptop.home / ".claude" / "harness-memory" / "token",
        "codex": laptop.home / ".codex" / "harness-memory" / "token",
        "gemini": laptop.home / ".gemini" / "harness-memory" / "token",
    }
    events = {
        "claude-code": {"SessionStart", "PreToolUse", "PostToolUse", "SessionEnd"},
        "codex": {"SessionStart", "PreToolUse", "PostToolUse", "Stop"},
        "gemini": {"SessionStart", "BeforeTool", "AfterTool", "SessionEnd"},
    }
    for harness, path in settings.items():
        assert stat.S_IMODE(token_files[harness].stat().st_mode) == 0o600, harness
        assert shared_service.token in token_files[harness].read_text(encoding="utf-8")
        hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
        assert set(hooks) >= events[harness], harness
        commands = [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]]
        for command in commands:
            assert shared_service.token not in command
            assert "--remote on" in command and f"--url {shared_service.url}" in command
            assert f"--memory-root {copy_root}" in command and f"--state-dir {state}" in command
    # the installed Claude Code commands, run as Claude Code runs them (through a shell, with
    # the settings' env, which holds no token: the hooks read the token file)
    claude = json.loads(settings["claude-code"].read_text(encoding="utf-8"))
    assert shared_service.token not in json.dumps(claude)
    start = claude["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    sent = claude["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    index = copy_root / "user" / "MEMORY.md"
    hook = {"session_id": "s1", "cwd": str(laptop.workspace), "source": "startup"}
    run_env = {"PATH": laptop.path, "HOME": str(laptop.home), **claude.get("env", {})}
    answer = subprocess.run(
        ["sh", "-c", start], input=json.dumps(hook), capture_output=True, text=True,
        env=run_env, check=False,
    )  # fmt: skip
    assert answer.returncode == 0, answer.stderr
    assert "hookSpecificOutput" in answer.stdout
    index.write_text("- from the installed hooks\n", encoding="utf-8")
    write = {**hook, "tool_name": "Write", "tool_input": {"file_path": str(index)}}
    done = subprocess.run(
        ["sh", "-c", sent], input=json.dumps(write), capture_output=True, text=True,
        env=run_env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (served_root / "user" / "MEMORY.md").read_text(encoding="utf-8") == (
        "- from the installed hooks\n"
    )
    shown = subprocess.run(
        [venv_bin("harness-memory"), "status", "--home", str(laptop.home)],
        capture_output=True, text=True, env={**env, **code_under_test()}, check=False,
    )  # fmt: skip
    assert f"remote copy {copy_root} of {shared_service.url} (this machine: " in shown.stdout, (
        shown.stdout
    )
    assert "  user: last sync 20" in shown.stdout and "nothing waits" in shown.stdout
    assert shared_service.token not in shown.stdout


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_r1_sync_by_hand_after_install_remote_syncs_the_copy_the_hooks_use(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path, harness: str
) -> None:
    """README: after ``install HARNESS --remote URL``, ``harness-memory sync`` with no setting
    given syncs the hooks' copy (~/.harness-memory), with their URL, ids and token (Claude
    Code's settings ``env``, Codex CLI's token file), never a second copy elsewhere."""
    home = tmp_path / "laptop"
    workspace = home / "code" / "shop"
    workspace.mkdir(parents=True)
    installed = main(
        [
            "install", harness, "--remote", shared_service.url, "--project", "acme",
            "--agent", new_agent, "--executable", venv_bin("harness-memory"),
        ],
        environ={"HOME": str(home), "HARNESS_MEMORY_TOKEN": shared_service.token},
        stdout=io.StringIO(),
    )  # fmt: skip
    assert installed == 0
    bare = {"HOME": str(home), "PATH": os.environ["PATH"]}

    def sync(*args: str) -> str:
        out = io.StringIO()
        assert main(["sync", *args], environ=bare, stdout=out) == 0, out.getvalue()
        return out.getvalue()

    assert "user: nothing saved yet, here or on the service" in sync("--workspace", str(workspace))
    copy_root = home / ".harness-memory" / "remote" / "acme" / "agents" / new_agent / "agent_state"
    user = copy_root / "memory" / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / "pnpm.md").write_text("---\ndescription: use pnpm\n---\npnpm only\n", encoding="utf-8")
    (user / "MEMORY.md").write_text("- [Pnpm](pnpm.md) this team uses pnpm\n", encoding="utf-8")
    assert "user: synced: sent 2 files\n" in sync("--workspace", str(workspace))
    assert (served_root / "user" / "pnpm.md").read_text(encoding="utf-8").endswith("pnpm only\n")
    shown = sync("--status")
    assert f"remote copy {copy_root / 'memory'} of {shared_service.url} (this machine: " in shown
    assert "  user: last sync 20" in shown and "changes wait" not in shown
    assert not (home / ".claude" / "harness-memory" / "remote").exists()


def test_r1_sync_without_settings_or_installed_hooks_names_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["sync"], environ={"HOME": str(tmp_path)}, stdout=io.StringIO())
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "HARNESS_MEMORY_URL" in said and "(--url, --project, --agent)" in said, said
    assert "install HARNESS --remote URL" in said


@pytest.mark.parametrize(
    ("harness", "event"),
    [("claude-code", "session-end"), ("codex", "stop"), ("gemini", "session-end")],
)
def test_r1_the_session_end_hooks_send_back_what_no_post_write_hook_saw(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    tmp_path: Path,
    harness: str,
    event: str,
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    meta = laptop.start("s1")
    scope = Path(meta["directories"]["memoryRoot"]) / meta["key"]
    (scope / "MEMORY.md").write_text("- written by a shell the guard never saw\n", "utf-8")
    hook = {"session_id": "s1", "cwd": str(laptop.workspace), "hook_event_name": "SessionEnd"}
    # Gemini CLI's own run is the README's word for its hooks: a process of their own
    done = laptop.run("hook", harness, event, stdin=json.dumps(hook), real=harness == "gemini")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    sent = served_root / meta["key"] / "MEMORY.md"
    assert sent.read_text(encoding="utf-8") == "- written by a shell the guard never saw\n"
    assert "nothing waits" in laptop.run("sync", "--status").stdout


def test_r2_offline_the_session_start_hook_tells_the_user_and_the_key_line_is_not_off(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    assert laptop.start("s1")["status"] == "injected"
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    hook = {"session_id": "s2", "cwd": str(laptop.workspace), "source": "startup"}
    done = laptop.run("hook", "codex", "session-start", stdin=json.dumps(hook))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "this machine's copy" in answer["systemMessage"]
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "shop-" in context and "memory is off" not in context


def test_r1_claude_code_s_parallel_session_start_entries_sync_each_scope_once(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    laptop.start("s0")  # the copy exists; from here each entry would fetch both scopes
    laptop.git_log.write_text("", encoding="utf-8")
    hook = json.dumps({"session_id": "s1", "cwd": str(laptop.workspace), "source": "startup"})
    command = [venv_bin("harness-memory"), "hook", "claude-code", "session-start", "--parts", "4"]
    entries = [start_entry(laptop, [*command, "--part", str(part)]) for part in range(1, 5)]
    answers = [entry.communicate(hook) for entry in entries]
    assert all(entry.returncode == 0 for entry in entries), answers
    fetches = [line for line in laptop.git_log.read_text("utf-8").splitlines() if "fetch" in line]
    assert len(fetches) == 2, fetches  # the user scope and the Workspace's, once each
    meta = laptop.start("s2")  # a later Session syncs again
    assert [item["skipped"] for item in meta["remoteSync"]] == [False, False]


def start_entry(machine: Machine, argv: list[str]) -> subprocess.Popen[str]:
    """One hook entry of the machine, started (Claude Code starts them all at once)."""
    return subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=machine.env(),
        cwd=machine.workspace,
    )


def test_r1_a_bad_agent_id_in_remote_mode_fails_open_with_the_reason(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent)
    hook = {"session_id": "s1", "cwd": str(laptop.workspace), "source": "startup"}
    done = subprocess.run(
        [venv_bin("harness-memory"), "hook", "codex", "session-start", "--agent", "../x"],
        input=json.dumps(hook), capture_output=True, text=True, env=laptop.env(), check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Agent Memory unavailable" in json.loads(done.stdout)["systemMessage"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--managed"], "--remote with --managed"),
        (["--memory-root", "/srv/memory"], "--memory-root with remote mode (--remote"),
        (["--url", "http://127.0.0.1:1"], "leave out --url"),
    ],
)
def test_r1_install_remote_refuses_what_contradicts_a_local_copy(
    tmp_path: Path, extra: list[str], said: str
) -> None:
    done = subprocess.run(
        [
            venv_bin("harness-memory"), "install", "claude-code", "--remote",
            "https://memory.example.com", "--project", "acme", "--agent", AGENT, "--home",
            str(tmp_path), *extra,
        ],
        capture_output=True, text=True, check=False,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), **code_under_test()},
    )  # fmt: skip
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert not (tmp_path / ".harness-memory").exists() and not (tmp_path / ".claude").exists()


def test_r2_parallel_session_start_entries_offline_try_the_service_once_and_all_say_offline(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    laptop.start("s0")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    laptop.git_log.write_text("", encoding="utf-8")
    hook = json.dumps({"session_id": "s1", "cwd": str(laptop.workspace), "source": "startup"})
    command = [venv_bin("harness-memory"), "hook", "claude-code", "session-start", "--parts", "4"]
    entries = [start_entry(laptop, [*command, "--part", str(part)]) for part in range(1, 5)]
    answers = [entry.communicate(hook) for entry in entries]
    assert all(entry.returncode == 0 for entry in entries), answers
    lines = laptop.git_log.read_text("utf-8").splitlines()
    assert len([line for line in lines if "fetch" in line or "push" in line]) <= 2, lines
    first = json.loads(answers[0][0])
    assert "this machine's copy" in first["systemMessage"]
    record = json.loads((laptop.state / "sessions" / "s1.json").read_text(encoding="utf-8"))
    assert record["status"] == "offline" and not any(s["ok"] for s in record["remoteSync"])


def test_i5_memory_switched_off_on_the_service_is_off_on_the_machine_also_offline(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = Machine(tmp_path, "laptop", shared_service, new_agent, in_process=True)
    assert laptop.start("s1")["status"] == "injected"
    shared_service.set_memory_enabled(new_agent, False)
    meta = laptop.start("s2")
    assert meta["status"] == "off" and meta["workspaceMemoryKey"] == "(none — memory is off)"
    with socket.socket() as closed:  # offline, the copy keeps the setting it last had
        closed.bind(("127.0.0.1", 0))
        laptop.url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    assert laptop.start("s3")["status"] == "off"
    laptop.url = shared_service.url
    shared_service.set_memory_enabled(new_agent, True)
    assert laptop.start("s4")["status"] == "injected"
