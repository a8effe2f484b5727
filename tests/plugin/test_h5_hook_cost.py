"""H-5: a hook process loads only what its hook needs, so it costs little more than Python itself.

The time itself is measured by ``plugins/harness-memory/bench/hook_cost.py`` (ratios within one
run, never timed here). These tests pin what makes it cheap: each hook, run as the installers
write it (H-3), is a separate process under ``python -X importtime``, and none of the heavy
modules (msgspec and ``typing``, ``argparse``, ``logging``, ``http.client`` with ``ssl`` and
``email``, ``tempfile``, ``hashlib``…) may appear among its imports; the write guards load no
socket and no Session-start code either. The lean paths they take are checked against the full
ones: the plain hook command line against ``argparse``, the A-9 answer decoded with ``json``
against msgspec's DTO, the one HTTP/1.1 exchange against the answer shapes a server may send.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aiohttp import web
from harness_memory.answers import decode_session_start
from harness_memory.cli_parser import build_parser
from harness_memory.errors import BadServiceAnswerError
from harness_memory.fitting import utf16_units
from harness_memory.hook_argv import plain_hook_args
from harness_memory.http11 import HttpProtocolError, exchange
from harness_memory.records import read_record
from harness_memory.sections import joined, render_sections
from memory_core.template import substitute
from memory_core.wire import SessionStartResponse

from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture
from tests.plugin.scripted_service import ScriptedService

HEAVY = {
    "msgspec",
    "typing",
    "typing_extensions",
    "argparse",
    "gettext",
    "logging",
    "http.client",
    "ssl",
    "email",
    "tempfile",
    "hashlib",
    "shutil",
    "inspect",
    "dataclasses",
    "asyncio",
    "aiohttp",
    "socket",
    "subprocess",
    "importlib",
    "datetime",
    "yaml",
    "memory_core.wire",
    "memory_core.injection",
    "memory_core.credentials",
    "harness_memory.session",
    "harness_memory.transport",
    "harness_memory.client",
}
"""Modules no hook process may load on its ordinary path (H-5)."""

SESSION_START_ONLY = {
    "_socket",
    "harness_memory.session_core",
    "harness_memory.fitting",
    "harness_memory.answers",
    "harness_memory.http11",
}
"""Modules a write guard, which runs before every file write, must not load either."""

GUARD_ONLY = {
    "shlex",
    "harness_memory.guard",
    "harness_memory.hooks.guarding",
    "harness_memory.hooks.tool_targets",
}
"""Modules of the write guards that a Session-start hook must not load."""

SESSION_ID = "6ae0bd3a-31ab-479d-8199-c610bd3ebf18"  # as recorded in fixtures/session_start.json


def imported(report: str) -> set[str]:
    """The modules named in a ``-X importtime`` report (stderr)."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in report.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.fixture(scope="module")
def at_start() -> set[str]:
    """What starting this Python imports by itself (site hooks of the environment included)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, check=True
    )
    return imported(done.stderr.decode())


async def imports_of(args: list[str], stdin: bytes, at_start: set[str]) -> tuple[set[str], Any]:
    """Run ``harness-memory ARGS`` under ``-X importtime``: the modules it imported beyond what
    starting Python imports (``at_start``), and its answer."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-X",
        "importtime",
        str(HARNESS_MEMORY),
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode == 0, err.decode()
    modules = imported(err.decode())
    assert "harness_memory.cli" in modules  # the report is there and complete
    return modules - at_start, (json.loads(out) if out.strip() else None)


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
    [("claude-code", ["--part", "1", "--parts", "6"]), ("codex", []), ("gemini", [])],
)
async def test_h5_a_session_start_hook_loads_no_heavy_module(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    at_start: set[str],
    harness: str,
    parts: list[str],
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", harness, "session-start", *flags, *parts]
    modules, answer = await imports_of(args, stdin, at_start)
    assert answer is not None
    assert "additionalContext" in answer["hookSpecificOutput"]
    assert "systemMessage" not in answer  # the service answered: the ordinary path
    assert modules & (HEAVY | GUARD_ONLY) == set()
    record = read_record(tmp_path / "state", SESSION_ID)  # a full SessionMeta, read by msgspec
    assert record is not None and record.status == "injected"
    assert record.workspace == str(workspace)


async def test_h5_a_later_session_start_entry_loads_no_heavy_module(
    service: ScriptedService, workspace: Path, tmp_path: Path, at_start: set[str]
) -> None:
    flags = settings_flags(service, tmp_path)
    stdin = hook_fixture("session_start.json", workspace=str(workspace))
    args = ["hook", "claude-code", "session-start", *flags, "--part", "6", "--parts", "6"]
    modules, answer = await imports_of(args, stdin, at_start)
    assert answer is None  # the prompt needs fewer pieces: entry 6 has nothing to add
    assert modules & (HEAVY | GUARD_ONLY) == set()
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


async def test_h5_a_session_start_entry_that_must_cut_loads_no_heavy_module(
    aiohttp_server: Any, workspace: Path, tmp_path: Path, at_start: set[str]
) -> None:
    """One SessionStart entry cannot carry both indexes at the caps: the hook leaves lines out
    and restates the I-4 note (H-1), still without msgspec or the wire types."""
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
    modules, answer = await imports_of(args, stdin, at_start)
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert utf16_units(context) <= 10_000
    assert "(Truncated: the " in context and "Claude Code's limit of 10,000" in context
    assert "memory was cut" in answer["systemMessage"]
    assert modules & (HEAVY | GUARD_ONLY) == set()


@pytest.mark.parametrize(
    ("harness", "event", "fixture"),
    [
        ("claude-code", "pre-tool-use", "pre_tool_use_write.json"),
        ("codex", "pre-tool-use", "codex_pre_tool_use_apply_patch.json"),
        ("gemini", "before-tool", "gemini_before_tool_write_file.json"),
    ],
)
@pytest.mark.parametrize("with_record", [True, False], ids=["record", "memory-root"])
async def test_h5_a_write_guard_loads_no_heavy_module_and_no_session_start_code(
    service: ScriptedService,
    workspace: Path,
    tmp_path: Path,
    at_start: set[str],
    harness: str,
    event: str,
    fixture: str,
    with_record: bool,
) -> None:
    flags = settings_flags(service, tmp_path)
    if with_record:
        start = hook_fixture("session_start.json", workspace=str(workspace))
        await imports_of(["hook", "claude-code", "session-start", *flags], start, at_start)
    target = service.memory_root / "other-1a2b3c4d" / "note.md"
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    if with_record:  # the recorded inputs carry their own harness's Session id
        stdin = stdin.replace(json.loads(stdin)["session_id"].encode(), SESSION_ID.encode())
    modules, answer = await imports_of(["hook", harness, event, *flags], stdin, at_start)
    assert answer is not None and "deny" in json.dumps(answer)  # the guard ran and refused
    assert modules & (HEAVY | SESSION_START_ONLY) == set()


# --- the plain hook command line reads as argparse reads it -----------------------------------

PLAIN = [
    ["hook", "claude-code", "pre-tool-use"],
    ["hook", "claude-code", "session-start", "--part", "2", "--parts", "6", "--url", "http://h"],
    ["hook", "claude-code", "session-start", "--part=6", "--parts=6", "--token", ""],
    [
        "hook",
        "codex",
        "session-start",
        "--url",
        "http://x:1",
        "--memory-root",
        "/m",
        "--timeout",
        "3",
    ],
    ["hook", "gemini", "before-tool", "--state-dir", "/s", "--template-file", "/t", "--agent", "a"],
    ["hook", "codex", "pre-tool-use", "--project", "p", "--token=-starts-with-a-dash"],
]

NOT_PLAIN = [
    ["hook", "claude-code"],
    ["hook", "claude-code", "--help"],
    ["hook", "claude-code", "session-start", "--help"],
    ["hook", "claude-code", "session-start", "--proj", "p"],  # argparse's abbreviation
    ["hook", "claude-code", "session-start", "--url", "a", "--url", "b"],
    ["hook", "claude-code", "session-start", "--url"],
    ["hook", "claude-code", "session-start", "--token", "-x"],
    ["hook", "claude-code", "session-start", "--part", "0"],
    ["hook", "claude-code", "session-start", "--part", "3", "--parts", "2"],
    ["hook", "codex", "session-start", "--part", "1"],
    ["hook", "codex", "before-tool"],
    ["hook", "cursor", "session-start"],
    ["session-start", "--url", "u"],
    ["hook", "claude-code", "--url", "u", "session-start"],
]


@pytest.mark.parametrize("argv", PLAIN, ids=" ".join)
def test_h5_a_plain_hook_command_line_reads_as_argparse_reads_it(argv: list[str]) -> None:
    plain = plain_hook_args(argv)
    assert plain is not None
    assert vars(plain) == vars(build_parser(*argv[:2]).parse_args(argv))


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=" ".join)
def test_h5_any_other_command_line_is_left_to_argparse(argv: list[str]) -> None:
    assert plain_hook_args(argv) is None


# --- the A-9 answer, decoded with json as msgspec decodes it -----------------------------------


def a9_answer(**changes: object) -> dict[str, object]:
    answer: dict[str, object] = {
        "enabled": True,
        "injected": True,
        "memory": "# Memory\n- [A](a.md) — a\n",
        "workspaceMemoryKey": "my-app-1c7ddc51",
        "key": "my-app-1c7ddc51",
        "workspaceKind": "persistent",
        "directories": {
            "appDataDir": "/srv",
            "memoryRoot": "/srv/agents/coder/agent_state/memory",
            "user": "/srv/agents/coder/agent_state/memory/user",
            "workspace": None,
        },
        "manifests": [
            {
                "scope": "user",
                "linesTotal": 1,
                "linesKept": 1,
                "linesDropped": 0,
                "capFired": "none",
                "headroomLines": 199,
                "headroomChars": 24000,
            }
        ],
        "templateHasMemory": True,
        "sections": [
            {"kind": "prompt", "scope": None, "text": "# Memory\n"},
            {"kind": "index", "scope": "user", "text": "- [A](a.md) — a\n"},
        ],
    }
    return answer | changes


def test_h5_the_a9_answer_decodes_with_json_as_msgspec_decodes_it() -> None:
    raw = json.dumps(a9_answer()).encode()
    typed = msgspec.json.decode(raw, type=SessionStartResponse)
    assert decode_session_start(raw) == msgspec.to_builtins(typed)
    without_sections = a9_answer()
    del without_sections["sections"]
    assert decode_session_start(json.dumps(without_sections).encode())["sections"] == []


@pytest.mark.parametrize(
    "bad",
    [
        b"not json",
        b"[]",
        json.dumps(a9_answer(enabled="yes")).encode(),
        json.dumps(a9_answer(workspaceKind="forever")).encode(),
        json.dumps(a9_answer(directories=None)).encode(),
        json.dumps(a9_answer(manifests=[{"scope": "user"}])).encode(),
        json.dumps(a9_answer(sections=[{"kind": "template", "scope": None, "text": ""}])).encode(),
        json.dumps({k: v for k, v in a9_answer().items() if k != "memory"}).encode(),
        b"[" * 100_000,
    ],
)
def test_p2_an_answer_that_is_no_session_start_is_a_bad_answer(bad: bytes) -> None:
    with pytest.raises(msgspec.DecodeError):
        msgspec.json.decode(bad, type=SessionStartResponse)  # msgspec refuses it too
    with pytest.raises(BadServiceAnswerError, match="not a Session start"):
        decode_session_start(bad)


# --- one HTTP/1.1 exchange over a socket ------------------------------------------------------


class OneAnswer:
    """A loopback server for one connection: it reads a request, sends ``answer`` and closes."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.request = b""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with self._listener, self._listener.accept()[0] as connection:
            while b"\r\n\r\n" not in self.request:
                self.request += connection.recv(4096)
            head = self.request.partition(b"\r\n\r\n")[0].lower()
            if b"content-length: 2" in head:
                while not self.request.endswith(b"{}"):
                    self.request += connection.recv(4096)
            connection.sendall(self.answer)

    def join(self) -> None:
        self._thread.join(5)


def deadline() -> float:
    return time.monotonic() + 5


@pytest.mark.parametrize(
    ("answer", "status", "body"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, b"hello"),
        (b"HTTP/1.1 201 Created\r\nConnection: close\r\n\r\nto the end", 201, b"to the end"),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
            200,
            b"hello world",
        ),
        (
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            200,
            b"ok",
        ),
        (b"HTTP/1.0 204 No Content\r\n\r\n", 204, b""),
        (b"HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\ngone", 404, b"gone"),
    ],
    ids=["content-length", "until-close", "chunked", "interim-1xx", "no-content", "error"],
)
def test_h5_one_exchange_reads_every_answer_shape(answer: bytes, status: int, body: bytes) -> None:
    server = OneAnswer(answer)
    headers = {"Accept": "application/json", "Authorization": "Bearer t"}
    got = exchange("127.0.0.1", server.port, "POST", "/p/a?x=1", headers, b"{}", deadline())
    server.join()
    assert (got[0], got[2]) == (status, body)
    port = server.port
    head = server.request.decode()
    assert head.startswith("POST /p/a?x=1 HTTP/1.1\r\n")
    assert f"Host: 127.0.0.1:{port}\r\n" in head and "Connection: close\r\n" in head
    assert "Authorization: Bearer t\r\n" in head and "Content-Length: 2\r\n" in head
    assert head.endswith("\r\n\r\n{}")


@pytest.mark.parametrize(
    "answer",
    [
        b"SSH-2.0-OpenSSH_9.6\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\n",
    ],
    ids=["not-http", "short-body", "bad-length", "bad-header", "bad-chunk", "no-head-end"],
)
def test_p2_an_answer_that_is_no_http_is_a_protocol_error(answer: bytes) -> None:
    server = OneAnswer(answer)
    with pytest.raises(HttpProtocolError):
        exchange("127.0.0.1", server.port, "GET", "/", {}, None, deadline())
    server.join()


def test_p2_a_silent_server_runs_out_the_deadline() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            exchange("127.0.0.1", port, "GET", "/", {}, None, time.monotonic() + 0.3)
        assert time.monotonic() - began < 3


# --- the prompt's measure and placeholders without a codec module or a regex -------------------


@pytest.mark.parametrize(
    "text", ["", "plain ASCII", "Über — ß", "emoji 😀 and 𝄞", "\U0010ffff", "lone \ud800 half"]
)
def test_h1_utf16_units_count_as_the_utf16_codec_does(text: str) -> None:
    assert utf16_units(text) == len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_p1_placeholders_are_found_as_a_regex_alternation_finds_them() -> None:
    template = "{{A}}{{AB}} {{MEMORY}}{{{AGENT_ID}}} {{WORKSPACE_MEMORY_KEY}}{{A}}x{{AB"
    extra = {"{{AB}}": "ab", "{{A}}": "a", "{{AGENT_ID}}": "coder"}
    sections = render_sections(template, "M", "K", extra)
    assert joined(sections) == substitute(template, "M", "K", extra)
    assert joined(sections) == "aab M{coder} Kax{{AB"
