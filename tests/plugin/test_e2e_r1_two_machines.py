"""R-1, R-2 end to end: the real Claude Code, Codex and Gemini CLIs on two "machines", one real
service.

Each machine is a HOME of its own where ``harness-memory install claude-code|codex|gemini
--remote URL`` wired the hooks of the CLIs that run on it (one local copy under
``~/.harness-memory``, tokens in 0600 files; Codex's always: ``harness-memory sync`` by hand reads
its token file).
Every CLI run, and every ``harness-memory sync``, happens in a network namespace with only
loopback (the model stand-in and the service bridged in) and a mount namespace in which the
service's data dir is an empty tmpfs: the hooks reach memory only through git's smart HTTP.

- Claude Code on machine A writes a topic file and its index line; Codex and then Gemini CLI on
  machine B each see the line in their next Session's first model request; the topic file
  Gemini writes (its ``AfterTool`` hook sends it) reaches machine A.
- Both machines are in a Session at once and append to the same ``MEMORY.md``: every line
  arrives, on the service and on both machines.
- One edits a topic file while the other deletes it: the edited file is kept, and said so.
- The service is stopped: both still start with memory (the key line names the Workspace scope)
  and write; their writes arrive when it is back.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from memory_core.layout import memory_root
from memory_core.template import OFF_KEY_VALUE

from tests.plugin.claude_code_session import (
    offers_write,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.fake_model_apis import FakeResponses, Json, Turn
from tests.plugin.harness_run import (
    CODEX_CONFIG,
    CODEX_SANDBOX,
    PROMPT,
    gemini_home,
    run_gemini_in,
    run_in_loopback,
)
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.loopback_only import run_isolated, unix_bridges
from tests.plugin.npm_cli import CODEX, npm_cli
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import first_user_text, write_call
from tests.support.codex_turns import apply_patch, developer_and_user_text
from tests.support.serve import ServedProcess, code_under_test, venv_bin

pytestmark = pytest.mark.e2e

WAIT_S = 120.0  # a hang guard for what another process does, never an assertion about speed
LINE = "- [Deploy freeze](deploy-freeze.md) — no deploys Fri 15:00 to Mon 09:00"
TOPIC = """---
name: deploy-freeze
description: No deploys from Friday 15:00 to Monday 09:00
updated_at: 2026-12-02
---
Deploys wait for Monday.
"""


class Machine:
    """One machine: its HOME (``harnesses`` installed in remote mode for ``acme/<agent>``, in
    that order; Codex among them, whose token file :meth:`sync` reads), Workspace and local
    copy. A machine gets only the CLIs the test runs on it: each install is a Python process."""

    def __init__(
        self,
        tmp_path: Path,
        name: str,
        service: RealService,
        agent: str,
        harnesses: tuple[str, ...] = ("claude-code", "codex"),
    ) -> None:
        assert "codex" in harnesses  # sync reads Codex's token file
        self.root = tmp_path / name
        self.agent = agent
        self.home = self.root / "home"
        (self.home / ".codex").mkdir(parents=True)
        self.workspace = self.root / "src" / "shop-api"
        self.workspace.mkdir(parents=True)
        self.service = service
        self.state = self.home / ".harness-memory"
        self.copy = self.state / "remote" / "acme" / "agents" / agent / "agent_state" / "memory"
        self.codex_config = ""  # config.toml as the Codex install left it, ``{port}`` in it
        for harness in harnesses:
            if harness == "gemini":
                gemini_home(self.home)
            self.install(harness)

    @property
    def user(self) -> Path:
        """The user scope of this machine's copy."""
        return self.copy / "user"

    def install(self, harness: str) -> None:
        """``harness-memory install HARNESS --remote URL``, the token in the environment."""
        if harness == "codex":  # the stand-in's provider first, as a user's config has it
            config = self.home / ".codex" / "config.toml"
            config.write_text(CODEX_CONFIG, encoding="utf-8")
        done = subprocess.run(
            [
                str(HARNESS_MEMORY), "install", harness, "--remote", self.service.url,
                "--home", str(self.home), "--project", "acme", "--agent", self.agent,
                "--executable", str(HARNESS_MEMORY),
            ],
            capture_output=True, text=True, check=False,
            env={
                "HOME": str(self.home), "PATH": "/usr/bin:/bin",
                "HARNESS_MEMORY_TOKEN": self.service.token, **code_under_test(),
            },
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert self.service.token not in done.stdout + done.stderr
        if harness == "codex":
            self.codex_config = config.read_text(encoding="utf-8")

    async def claude(self, claude: Path, script: Callable[[Json], tuple[list[Block], str]]) -> Any:
        """One Claude Code Session in the Workspace; the model stand-in's recorder."""
        async with serve_model(script) as (fake, model_url):
            code, out, err = await run_claude(
                claude,
                self.workspace,
                self.home,
                model_url,
                service_url=self.service.url,
                hidden=(self.service.data_dir,),
            )
        assert code == 0, f"claude failed:\n{out}\n{err}"
        assert json.loads(out)["is_error"] is False
        for turn in session_turns(fake)[1:]:
            assert not any(result.get("is_error") for result in tool_results(turn)), turn
        return fake

    async def codex(self, turns: list[Turn]) -> FakeResponses:
        """One Codex CLI Session (``codex exec``) in the Workspace; the stand-in's recorder."""
        # config.toml as installed: the last run wrote its stand-in's port over ``{port}``
        (self.home / ".codex" / "config.toml").write_text(self.codex_config, encoding="utf-8")
        fake = FakeResponses(turns=turns)
        codex = npm_cli(CODEX)
        command = [str(codex), "exec", *CODEX_SANDBOX]
        status, _out, err, _ = await run_in_loopback(
            [*command, PROMPT],
            app_factory=fake.app,
            service=self.service,
            cwd=self.workspace,
            env={
                "HOME": str(self.home),
                "CODEX_HOME": str(self.home / ".codex"),
                "STAND_IN_API_KEY": "sk-test-dummy",
                "PATH": "/usr/local/bin:/usr/bin:/bin",
                "NO_COLOR": "1",
            },
            files=[self.home / ".codex" / "config.toml"],
            hidden=(self.service.data_dir,),
        )
        assert status == 0, err[-3000:]
        return fake

    async def gemini(self, turns: list[list[Json]]) -> Any:
        """One Gemini CLI Session (``gemini -p --yolo``) in the Workspace; the stand-in's
        recorder."""
        fake, status, _out, err = await run_gemini_in(
            turns,
            self.service,
            self.workspace,
            self.home,
            hidden=(self.service.data_dir,),
        )
        assert status == 0, err[-3000:]
        return fake

    async def sync(self, *flags: str) -> str:
        """``harness-memory sync`` on this machine (what its next Session start does), with
        ``flags`` (``--status``)."""
        port = urlsplit(self.service.url).port
        assert port is not None
        env = {
            "HOME": str(self.home),
            "PATH": "/usr/bin:/bin",
            "HARNESS_MEMORY_URL": self.service.url,
            "HARNESS_MEMORY_PROJECT": "acme",
            "HARNESS_MEMORY_AGENT": self.agent,
            "HARNESS_MEMORY_STATE_DIR": str(self.state),
            "HARNESS_MEMORY_TOKEN_FILE": str(self.home / ".codex" / "harness-memory" / "token"),
            "HARNESS_MEMORY_TIMEOUT": "30",
            **code_under_test(),
        }
        command = [str(HARNESS_MEMORY), "sync", "--workspace", str(self.workspace), *flags]
        async with unix_bridges([port]) as bridges:
            code, out, err = await run_isolated(
                command,
                bridges,
                cwd=self.workspace,
                env=env,
                limit_s=WAIT_S,
                hidden=(self.service.data_dir,),
            )
        assert code == 0, (out + err).decode(errors="replace")
        return out.decode()


class Writes:
    """A Claude Code script: one ``Write`` per ``(path, content)``, then a closing text."""

    def __init__(self, *writes: tuple[Path, str]) -> None:
        self.turns: list[list[Block]] = [
            [
                {
                    "type": "tool_use",
                    "id": f"toolu_{number}",
                    "name": "Write",
                    "input": {"file_path": str(path), "content": content},
                }
            ]
            for number, (path, content) in enumerate(writes)
        ]
        self.started = asyncio.Event()

    def __call__(self, body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):
            return [{"type": "text", "text": "ok"}], "end_turn"
        self.started.set()
        step = len(tool_results(body))
        if step < len(self.turns):
            return self.turns[step], "tool_use"
        return [{"type": "text", "text": "Saved."}], "end_turn"


def append_patch(call_id: str, path: Path, last: str, line: str) -> Json:
    """Codex's ``apply_patch`` adding ``line`` after the file's ``last`` line."""
    patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n {last}\n+{line}\n*** End Patch\n"
    return apply_patch(call_id, patch)


def delete_patch(call_id: str, path: Path) -> Json:
    """Codex's ``apply_patch`` deleting ``path``."""
    return apply_patch(call_id, f"*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n")


async def arrived(path: Path, check: Callable[[str], bool]) -> None:
    """Wait until the file at ``path`` (on the service) holds what ``check`` wants."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if _holds(path, check):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{path} never got there")


def _holds(path: Path, check: Callable[[str], bool]) -> bool:
    return path.is_file() and check(path.read_text(encoding="utf-8"))


def after(started: asyncio.Event, served: Path, check: Callable[[str], bool], item: Json) -> Turn:
    """A Codex turn that first marks its Session as started, then waits until the other
    machine's write is on the service, then answers ``item``: both Sessions start from the
    same version, and this one writes after the other's write went back."""

    async def turn(_body: Json) -> list[Json]:
        started.set()
        await arrived(served, check)
        return [item]

    return turn


def restart(service: RealService) -> None:
    """Start the stopped service again on its port and data dir; wait until it is ready."""
    old = service.served
    with old.log_path.open("ab") as sink:
        process = subprocess.Popen(
            [venv_bin("memory-api"), "serve"],
            env=old.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    service.served = ServedProcess(old.base_url, old.data_dir, process, old.log_path, old.env)
    deadline = time.monotonic() + WAIT_S
    while not service.served.ready():
        assert process.poll() is None and time.monotonic() < deadline, old.log_text()
        time.sleep(0.1)


async def claude_code_wrote_on_a(
    claude: Path, service: RealService, agent: str, tmp_path: Path
) -> tuple[Path, Machine, Machine]:
    """Two machines of ``agent``; Claude Code on machine A has written the topic file and its
    index line, which its post-write hook sent back. ``(the service's memory root, A, B)``."""
    served = memory_root(service.data_dir, agent)
    machine_a = Machine(tmp_path, "machine-a", service, agent)
    machine_b = Machine(tmp_path, "machine-b", service, agent, ("codex", "gemini"))
    await machine_a.claude(
        claude,
        Writes(
            (machine_a.user / "deploy-freeze.md", TOPIC),
            (machine_a.user / "MEMORY.md", LINE + "\n"),
        ),
    )
    assert (served / "user" / "deploy-freeze.md").read_text(encoding="utf-8") == TOPIC
    assert (served / "user" / "MEMORY.md").read_text(encoding="utf-8") == LINE + "\n"
    return served, machine_a, machine_b


async def test_r1_what_claude_code_wrote_on_a_codex_and_gemini_on_b_see_and_geminis_write_reaches_a(
    claude: Path, shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """One Claude Code Session on machine A writes; then machine B's Codex and Gemini Sessions
    each start with it (one test: the two looks share A's Session, the slow part); the file
    Gemini writes on B reaches A."""
    served, machine_a, machine_b = await claude_code_wrote_on_a(
        claude, shared_service, new_agent, tmp_path
    )
    fake = await machine_b.codex([])
    first = developer_and_user_text(fake.session_turns()[0])
    assert LINE in first
    assert str(shared_service.data_dir) not in first  # pointed at its own copy, never the service's
    assert f"- App data dir: {machine_b.copy.parents[3]}" in first
    assert (machine_b.user / "deploy-freeze.md").read_text(encoding="utf-8") == TOPIC
    # what the hooks saw of the service's data dir: nothing (an empty tmpfs)
    async with unix_bridges([]) as bridges:
        code, out, _ = await run_isolated(
            ["ls", "-A", str(shared_service.data_dir)],
            bridges,
            cwd=machine_b.workspace,
            env={"PATH": "/usr/bin:/bin"},
            limit_s=WAIT_S,
            hidden=(shared_service.data_dir,),
        )
    assert (code, out) == (0, b"")

    note = TOPIC.replace("deploy-freeze", "release-notes").replace(
        "Deploys wait for Monday.", "Release notes go in CHANGES.md."
    )
    fake = await machine_b.gemini([[write_call(machine_b.user / "release-notes.md", note)]])
    first = first_user_text(fake.session_turns()[0])
    assert LINE in first
    assert str(shared_service.data_dir) not in first  # pointed at its own copy, never the service's
    assert (served / "user" / "release-notes.md").read_text(encoding="utf-8") == note
    await machine_a.sync()
    assert (machine_a.user / "release-notes.md").read_text(encoding="utf-8") == note
    assert (machine_a.user / "deploy-freeze.md").read_text(encoding="utf-8") == TOPIC


async def test_r2_two_machines_in_sessions_at_once_append_to_one_index_and_every_line_arrives(
    claude: Path, shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    served = memory_root(shared_service.data_dir, new_agent)
    (served / "user").mkdir(parents=True, exist_ok=True)
    (served / "user" / "MEMORY.md").write_text(LINE + "\n", encoding="utf-8")
    machine_a = Machine(tmp_path, "machine-a", shared_service, new_agent)
    machine_b = Machine(tmp_path, "machine-b", shared_service, new_agent, ("codex",))
    line_a, line_b = "- [Pnpm](pnpm.md) — pnpm only", "- [Uv](uv.md) — uv for Python"
    index = served / "user" / "MEMORY.md"
    b_started = asyncio.Event()
    b_turn = after(
        b_started, index, lambda text: line_a in text,
        append_patch("call_b", machine_b.user / "MEMORY.md", LINE, line_b),
    )  # fmt: skip
    codex_b = asyncio.ensure_future(machine_b.codex([b_turn]))
    await asyncio.wait_for(b_started.wait(), WAIT_S * 2)  # B's Session has started: A writes now
    await machine_a.claude(claude, Writes((machine_a.user / "MEMORY.md", f"{LINE}\n{line_a}\n")))
    await codex_b
    expected = {LINE, line_a, line_b}
    lines = index.read_text(encoding="utf-8").splitlines()
    assert set(lines) == expected and len(lines) == 3, lines
    for machine in (machine_a, machine_b):
        await machine.sync()
        lines = (machine.user / "MEMORY.md").read_text(encoding="utf-8").splitlines()
        assert set(lines) == expected and len(lines) == 3, (machine.root, lines)


async def test_r2_one_machine_edits_the_other_deletes_and_the_edit_is_kept(
    claude: Path, shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    served = memory_root(shared_service.data_dir, new_agent)
    (served / "user").mkdir(parents=True, exist_ok=True)
    (served / "user" / "MEMORY.md").write_text(LINE + "\n", encoding="utf-8")
    (served / "user" / "deploy-freeze.md").write_text(TOPIC, encoding="utf-8")
    machine_a = Machine(tmp_path, "machine-a", shared_service, new_agent)
    machine_b = Machine(tmp_path, "machine-b", shared_service, new_agent, ("codex",))
    edited = TOPIC.replace("Deploys wait for Monday.", "Deploys wait for Tuesday now.")
    topic = served / "user" / "deploy-freeze.md"
    b_started = asyncio.Event()
    b_turn = after(
        b_started, topic, lambda text: text == edited,
        delete_patch("call_b", machine_b.user / "deploy-freeze.md"),
    )  # fmt: skip
    codex_b = asyncio.ensure_future(machine_b.codex([b_turn]))
    await asyncio.wait_for(b_started.wait(), WAIT_S * 2)
    await machine_a.claude(claude, Writes((machine_a.user / "deploy-freeze.md", edited)))
    await codex_b
    assert topic.read_text(encoding="utf-8") == edited  # B's delete did not lose A's edit
    # said in the versions (the page's history), the machines list and B's own status
    said = "deploy-freeze.md was deleted on one machine and edited on another: kept"
    outcomes = [o for v in shared_service.scope_versions(new_agent, "user") for o in v["outcomes"]]
    assert outcomes == [said], outcomes
    status, _, listed = shared_service.request(
        "GET", f"/api/projects/acme/agents/{new_agent}/memory/machines"
    )
    assert status == 200, listed
    [user] = [scope for scope in listed["scopes"] if scope["scope"] == "user"]
    assert [line for machine in user["machines"] for line in machine["outcomes"]] == [said]
    assert f"    merged: {said}" in await machine_b.sync("--status")
    for machine in (machine_a, machine_b):
        await machine.sync()
        assert (machine.user / "deploy-freeze.md").read_text(encoding="utf-8") == edited


async def test_r2_the_service_stopped_both_start_with_memory_and_their_writes_arrive_later(
    claude: Path, real_service: RealService, tmp_path: Path
) -> None:
    served = real_service.create_agent("coder")
    (served / "user").mkdir(parents=True, exist_ok=True)
    (served / "user" / "MEMORY.md").write_text(LINE + "\n", encoding="utf-8")
    machine_a = Machine(tmp_path, "machine-a", real_service, "coder")
    machine_b = Machine(tmp_path, "machine-b", real_service, "coder", ("codex",))
    for machine in (machine_a, machine_b):
        await machine.sync()
    real_service.stop()
    line_a, line_b = "- [Offline A](a.md) — written offline on A", "- [Offline B](b.md) — on B"

    fake_a = await machine_a.claude(
        claude, Writes((machine_a.user / "MEMORY.md", f"{LINE}\n{line_a}\n"))
    )
    first_a = json.dumps(session_turns(fake_a)[0], ensure_ascii=False)
    fake_b = await machine_b.codex(
        [[append_patch("call_b", machine_b.user / "MEMORY.md", LINE, line_b)]]
    )
    first_b = developer_and_user_text(fake_b.session_turns()[0])
    for first in (first_a, first_b):
        assert LINE in first  # memory from the machine's copy
        assert "shop-api-" in first and OFF_KEY_VALUE not in first  # the key line is not "off"
    assert (served / "user" / "MEMORY.md").read_text(encoding="utf-8") == LINE + "\n"

    restart(real_service)
    for machine in (machine_a, machine_b):
        said = await machine.sync()
        assert "user: synced: sent 1 file" in said, said
    lines = (served / "user" / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert set(lines) == {LINE, line_a, line_b} and len(lines) == 3, lines
