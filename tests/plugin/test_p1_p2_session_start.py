"""P-1 and P-2: Session start substitutes the template and fails open, with a record of why."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port
from harness_memory import (
    BadServiceAnswerError,
    MemoryClient,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
    SessionStart,
)
from harness_memory.remote import RemoteCopy
from harness_memory.session import start_session_sync
from memory_core.errors import InvalidId

from tests.plugin.helpers import start
from tests.plugin.scripted_service import USER_INDEX_LINE, WORKSPACE_INDEX_LINE, ScriptedService
from tests.support.past_path_max import LINK_NAME, link_past_path_max
from tests.support.symlink_chain import chain_of_links

TEMPLATE = """You are a careful coding agent.

{{MEMORY}}

# Environment
- App data dir: {{APP_DATA_DIR}}
- Agent id: {{AGENT_ID}}
- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
- CWD: {{CWD}}
"""
ANSWER_WAIT_S = 30.0
"""The budget of a request the scripted service answers at once: a hang guard, never a check
of speed (a busy machine may take seconds to schedule the answer)."""


async def test_p1_substitutes_memory_key_and_environment_values(service: ScriptedService) -> None:
    result = await start(service.url, TEMPLATE, session_id="s-1")
    prompt = result.system_prompt
    assert USER_INDEX_LINE in prompt and WORKSPACE_INDEX_LINE in prompt
    assert "{{MEMORY}}" not in prompt and "{{WORKSPACE_MEMORY_KEY}}" not in prompt
    assert "- Workspace Memory Key: my-app-1c7ddc51\n" in prompt
    assert f"- App data dir: {service.data_dir}\n" in prompt
    assert "- Agent id: coder\n" in prompt
    assert "- CWD: {{CWD}}" in prompt  # other placeholders are left for the harness
    assert result.key == "my-app-1c7ddc51"


async def test_p1_sends_the_workspace_session_id_and_bearer_token(service: ScriptedService) -> None:
    await start(service.url, TEMPLATE, session_id="s-1")
    [(path, headers, body)] = service.calls
    assert path == "acme/coder"
    assert headers["Authorization"] == "Bearer secret-token"
    assert body.workspace == "/home/ada/src/my-app"
    assert body.session_id == "s-1"


async def test_p1_session_meta_records_the_assembled_prompt_and_manifests(
    service: ScriptedService,
) -> None:
    result = await start(service.url, TEMPLATE, token=None, workspace="/w")
    meta = result.session_meta
    assert meta.system_prompt == result.system_prompt
    assert meta.status == "injected"
    assert meta.injected is True and meta.enabled is True
    assert meta.error is None and meta.error_kind is None
    assert meta.workspace_kind == "persistent"
    assert meta.workspace_memory_key == "my-app-1c7ddc51"
    assert meta.directories is not None and meta.directories.app_data_dir == str(service.data_dir)
    assert [m.scope for m in meta.manifests] == ["user"]
    assert meta.truncated == ["user"]
    assert meta.duration_ms >= 0
    assert meta.started_at.endswith("Z")
    encoded = msgspec.json.decode(msgspec.json.encode(result))
    assert encoded["sessionMeta"]["systemPrompt"] == result.system_prompt
    assert encoded["sessionMeta"]["durationMs"] == meta.duration_ms


async def test_p1_placeholder_text_inside_memory_is_never_expanded_again(
    service: ScriptedService,
) -> None:
    service.memory = "- note about {{WORKSPACE_MEMORY_KEY}}, {{AGENT_ID}} and {{MEMORY}}\n"
    result = await start(service.url, TEMPLATE, token=None, workspace="/w")
    assert (
        "- note about {{WORKSPACE_MEMORY_KEY}}, {{AGENT_ID}} and {{MEMORY}}\n"
        in result.system_prompt
    )


async def test_i1_a_template_holding_memory_twice_gets_the_memory_once(
    service: ScriptedService,
) -> None:
    """A harness's template file with ``{{MEMORY}}`` written twice injected the whole memory
    (prompts and indexes) twice; the memory fills the first, the second is left out, so the
    text holds each index line once, as the manifests count it."""
    template = "{{MEMORY}}\n# Reminder\n{{MEMORY}}\n- Key: {{WORKSPACE_MEMORY_KEY}}\n"
    result = await start(service.url, template, token=None, workspace="/w")
    assert result.system_prompt.count(USER_INDEX_LINE) == 1
    assert result.system_prompt.count(WORKSPACE_INDEX_LINE) == 1
    assert result.system_prompt.endswith("\n# Reminder\n\n- Key: my-app-1c7ddc51\n")
    assert result.session_meta.status == "injected"


async def test_i5_a_template_without_memory_placeholder_injects_nothing(
    service: ScriptedService,
) -> None:
    template = "Be brief.\n\n# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"
    result = await start(service.url, template, token=None, workspace="/w")
    assert (
        result.system_prompt
        == "Be brief.\n\n# Environment\n- Workspace Memory Key: my-app-1c7ddc51\n"
    )
    assert result.session_meta.status == "no-placeholder"
    assert result.session_meta.injected is False


async def test_i5_memory_off_expands_to_nothing_and_says_so_on_the_key_line(
    service: ScriptedService,
) -> None:
    service.behaviour = "off"
    result = await start(service.url, TEMPLATE, token=None, workspace="/w")
    assert "## User memory" not in result.system_prompt
    assert "- Workspace Memory Key: (none — memory is off)\n" in result.system_prompt
    assert result.key is None
    assert result.session_meta.status == "off"
    assert result.session_meta.error is None


async def test_k4_a_temporary_workspace_has_no_key(service: ScriptedService) -> None:
    service.behaviour = "temporary"
    result = await start(service.url, TEMPLATE, token=None, workspace="/w")
    assert "- Workspace Memory Key: (none — temporary workspace)\n" in result.system_prompt
    assert result.key is None
    assert result.session_meta.workspace_kind == "temporary"


def assert_failed_open(result: SessionStart, kind: str, *words: str) -> None:
    meta = result.session_meta
    assert meta.status == "failed-open"
    assert meta.error_kind == kind
    assert meta.error is not None
    for word in words:
        assert word in meta.error
    assert "## User memory" not in result.system_prompt
    assert "{{MEMORY}}" not in result.system_prompt
    assert "- Workspace Memory Key: (none — memory is off)\n" in result.system_prompt
    assert "- App data dir: (unknown — memory is off for this Session)\n" in result.system_prompt
    assert "You are a careful coding agent." in result.system_prompt
    assert result.key is None and meta.directories is None and meta.manifests == []
    assert meta.system_prompt == result.system_prompt


async def test_p2_service_down_still_starts_the_session(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    result = await start(url, TEMPLATE, token=None, workspace="/w")
    assert_failed_open(result, "unreachable", "unreachable", url)


async def test_p2_service_too_slow_fails_open_after_the_timeout(service: ScriptedService) -> None:
    service.behaviour = "slow"
    result = await start(service.url, TEMPLATE, session_id="s-1", timeout_s=0.2)
    assert_failed_open(result, "timeout", "0.2 s")


async def test_p2_a_4xx_problem_fails_open_with_its_detail(service: ScriptedService) -> None:
    service.behaviour = "not-found"
    result = await start(service.url, TEMPLATE, session_id="s-1")
    assert_failed_open(result, "rejected", "404", "no agent 'coder' in project 'acme'")


async def test_p2_a_5xx_fails_open_with_the_status(service: ScriptedService) -> None:
    service.behaviour = "boom"
    result = await start(service.url, TEMPLATE, session_id="s-1")
    assert_failed_open(result, "rejected", "503", "upstream gone")


async def test_p2_a_malformed_answer_fails_open(service: ScriptedService) -> None:
    service.behaviour = "garbage"
    result = await start(service.url, TEMPLATE, session_id="s-1")
    assert_failed_open(result, "bad-answer")


async def test_p2_bad_ids_in_the_harness_settings_fail_open_without_a_request(
    service: ScriptedService,
) -> None:
    result = await start(service.url, TEMPLATE, session_id="s-1", project="Not A Project")
    assert_failed_open(result, "invalid-id", "project")
    assert service.calls == []


@pytest.mark.parametrize(
    ("workspace", "problem"),
    [
        ("/home/ada/caf\udce9", "is not UTF-8"),  # a folder named in Latin-1, read by Python
        ("/home/ada/a\x1b[2Jb", "must not hold control characters"),
    ],
)
async def test_p2_a_workspace_path_the_service_refuses_fails_open_saying_why_without_a_request(
    service: ScriptedService, workspace: str, problem: str
) -> None:
    """A Workspace folder whose name is not UTF-8 failed open as "unexpected error:
    UnicodeEncodeError(…)" with a traceback in the harness's log (JSON cannot carry it); it
    is said like the service's own refusal of a path (A-9), before anything is sent."""
    result = await start(service.url, TEMPLATE, session_id="s-1", workspace=workspace)
    assert_failed_open(
        result, "invalid-workspace", "cannot be given to the memory service", problem
    )
    assert "Error" not in (result.session_meta.error or "")
    assert service.calls == []


async def test_p2_a_symlink_to_a_folder_not_named_in_utf8_fails_open_saying_why_without_a_request(
    service: ScriptedService, tmp_path: Path
) -> None:
    """K-1: the harness sends the Workspace's real path; one reached through a symlink whose
    target is named in Latin-1 failed open as "internal" with a UnicodeEncodeError traceback
    (the resolved path went to JSON unchecked). The real path is judged as the typed one is."""
    (tmp_path / "caf\udce9").mkdir()  # the bytes b"caf\xe9", as Python reads them
    (tmp_path / "link").symlink_to(tmp_path / "caf\udce9")
    result = await start(service.url, TEMPLATE, session_id="s-1", workspace=str(tmp_path / "link"))
    assert_failed_open(result, "invalid-workspace", "resolves to", "is not UTF-8")
    assert "Error" not in (result.session_meta.error or "")
    assert service.calls == []


async def test_a9_a_workspace_path_through_proc_is_sent_as_typed(
    service: ScriptedService, tmp_path: Path
) -> None:
    """K-1, A-9: ``realpath`` turns ``/proc/<pid>/root/w`` into ``/w``, a folder of this
    harness's mount namespace, not the other process's; the harness sends such a path as
    typed, as it does one with a link it cannot read, so the service refuses it (400) by its
    own rule instead of keying another folder. A symlink that stays out of ``/proc`` goes
    resolved."""
    (tmp_path / "w").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "w")
    (tmp_path / "to-proc").symlink_to("/proc/self/root")
    spelt = [f"/proc/self/root{tmp_path}/w", f"{tmp_path}/to-proc{tmp_path}/w", "/proc/self/cwd"]
    for workspace in [*spelt, str(tmp_path / "link")]:
        await start(service.url, TEMPLATE, session_id="s-1", workspace=workspace)
    assert [body.workspace for _, _, body in service.calls] == [*spelt, str(tmp_path / "w")]


@pytest.mark.parametrize("loop", ["a link to itself", "41 links"])
async def test_k1_a_workspace_path_that_loops_here_fails_open_saying_so_without_a_request(
    service: ScriptedService, tmp_path: Path, loop: str
) -> None:
    """K-1: a Workspace path the kernel will not follow here (``ELOOP``: a loop, or more than
    40 links) reaches no folder this harness can work in, so it has no real path and no key.
    Sent as typed, a service in another mount namespace (its own container), where that path
    is an ordinary folder, keyed and marked that folder: a Workspace scope for a folder no
    Session of this harness works in, injected and guarded as this Session's. The Session
    starts without memory saying why, before anything is sent."""
    if loop == "a link to itself":
        (tmp_path / "ws").symlink_to("ws")
        workspace = str(tmp_path / "ws")
    else:
        workspace = chain_of_links(tmp_path / "chain", 41)

    result = await start(service.url, TEMPLATE, session_id="s-1", workspace=workspace)

    assert_failed_open(result, "invalid-workspace", "symlink loop here", "ELOOP")
    assert service.calls == []


@pytest.mark.parametrize("mode", ["local", "remote"])
def test_k1_a_workspace_path_with_a_name_past_path_max_fails_open_saying_so_without_a_request(
    service: ScriptedService, tmp_path: Path, mode: str
) -> None:
    """K-1, P-2: ``short`` links to a folder just short of ``PATH_MAX`` holding a symlink whose
    absolute path is past it: the Workspace ``short/<link>`` has no real path this harness can
    look up (:class:`~memory_core.errors.UnseenName`). The Session starts without memory saying
    why, kind ``invalid-workspace`` as for a loop, nothing sent, in local and remote mode alike
    (it was "unexpected error", and in remote mode an exception out of the Session start)."""
    deep = link_past_path_max(tmp_path / "deep", tmp_path / "elsewhere")
    (tmp_path / "short").symlink_to(deep)
    copy = RemoteCopy(
        url=service.url,
        token=None,
        project="acme",
        agent="coder",
        state_dir=tmp_path / "state",
        timeout=ANSWER_WAIT_S,  # a hang guard: the path is refused before any request
    )

    result = start_session_sync(
        service_url=service.url,
        token=None,
        project="acme",
        agent="coder",
        workspace=f"{tmp_path}/short/{LINK_NAME}",
        template=TEMPLATE,
        session_id="s-1",
        local_copy=copy if mode == "remote" else None,
    )

    assert_failed_open(result, "invalid-workspace", "cannot be looked at", "File name too long")
    assert service.calls == []


@pytest.mark.parametrize("url", ["http://[::1", "http://[::1:8765/", "https://[memory]:8765"])
async def test_p2_a_service_url_that_is_no_url_fails_open_saying_so(url: str) -> None:
    """A URL ``urlsplit`` refuses (an unclosed IPv6 bracket, a bracketed host that is no
    address) failed open as "unexpected error: ValueError('Invalid IPv6 URL')" with a
    traceback in the harness's log; it is the named error of any URL that is not
    http(s)://host[:port]."""
    result = await start(url, TEMPLATE, session_id="s-1")
    assert_failed_open(result, "unreachable", "must be http(s)://host[:port]", url.rstrip("/"))
    with pytest.raises(ServiceUnreachableError, match=r"http\(s\)://host\[:port\]"):
        MemoryClient(url)


async def test_a10_a_service_url_holding_a_secret_fails_open_never_echoing_it(
    service: ScriptedService,
) -> None:
    """A URL with a user name and password (``http://coder:SECRET@host``) would send them to
    nobody who takes them (the service takes a bearer token) and put them in every message
    naming the URL: it fails open before anything is sent, saying how to give a token, and the
    secret is in no message."""
    host = service.url.split("://", 1)[1]
    result = await start(f"http://coder:am_in_the_url_0123@{host}", TEMPLATE, session_id="s-1")
    assert_failed_open(result, "unreachable", "user name or password", "--token-file", "***@")
    assert "am_in_the_url" not in json.dumps(msgspec.to_builtins(result.session_meta))
    assert service.calls == []


async def test_a10_a_service_url_with_a_key_in_its_path_fails_open_never_echoing_it(
    service: ScriptedService,
) -> None:
    """A URL whose path holds a key (``http://host/<key>/``, a proxy that takes its secret
    there) was shown whole in the Session's record and every message naming the service; it
    fails open like a URL with a password, before anything is sent, the key shown as ***,
    while a path of words (``/memory-api-v2``) is a URL like any."""
    key = "am_in_the_url_FE0zGBRdX8c3HyM9iP63K"
    result = await start(f"{service.url}/{key}/", TEMPLATE, session_id="s-1")
    assert_failed_open(result, "unreachable", "secret in its path", "--token-file", "/***")
    assert "am_in_the_url" not in json.dumps(msgspec.to_builtins(result.session_meta))
    assert service.calls == []
    assert MemoryClient(f"{service.url}/memory-api-v2").base_url.endswith("/memory-api-v2")


@pytest.mark.parametrize("path", ["agentMemoryV2Service", "MemoryApiProdEuWest1"])
def test_a10_a_camel_case_path_of_words_is_a_service_url_like_any(path: str) -> None:
    """``https://gw.example/agentMemoryV2Service`` was refused as holding a secret in its
    path: a lower-case letter then a capital joins words, as ``-`` does."""
    assert MemoryClient(f"https://gw.example/{path}").base_url.endswith(f"/{path}")


async def test_a10_a_tenant_id_in_the_path_is_no_refusal_but_is_never_shown() -> None:
    """A UUID in the path (``…/tenants/<uuid>/memory``) stopped every Session start with no
    way around: it is taken, and the Session's record shows it as ``***``."""
    tenant = "123e4567-e89b-12d3-a456-426614174000"
    url = f"http://127.0.0.1:{unused_port()}/tenants/{tenant}/memory"
    result = await start(url, TEMPLATE, token=None, workspace="/w")
    assert_failed_open(result, "unreachable", "unreachable")
    assert result.session_meta.service_url.endswith("/tenants/***/memory")
    assert tenant not in json.dumps(msgspec.to_builtins(result.session_meta))


async def test_client_raises_named_errors(service: ScriptedService) -> None:
    cases: list[tuple[str, type[Exception]]] = [
        ("not-found", ServiceRejectedError),
        ("boom", ServiceRejectedError),
        ("garbage", BadServiceAnswerError),
        ("slow", ServiceTimeoutError),
    ]
    for behaviour, error in cases:
        service.behaviour = behaviour  # type: ignore[assignment]
        # Only the service that never answers waits out a short budget: the others answer at
        # once, and 0.2 s for them turned a busy machine's slow answer into a timeout.
        client = MemoryClient(service.url, timeout=0.2 if behaviour == "slow" else ANSWER_WAIT_S)
        with pytest.raises(error):
            await asyncio.to_thread(client.session_start, "acme", "coder", "/w")
    client = MemoryClient(f"http://127.0.0.1:{unused_port()}")
    with pytest.raises(ServiceUnreachableError):
        await asyncio.to_thread(client.session_start, "acme", "coder", "/w")
    with pytest.raises(InvalidId):
        client.session_start("acme", "../etc", "/w")


async def test_client_rejected_error_keeps_status_and_detail(service: ScriptedService) -> None:
    service.behaviour = "not-found"
    client = MemoryClient(service.url)
    with pytest.raises(ServiceRejectedError) as caught:
        await asyncio.to_thread(client.session_start, "acme", "coder", "/w")
    assert caught.value.status == 404
    assert caught.value.detail == "no agent 'coder' in project 'acme'"


async def test_a9_the_plugin_asks_for_the_sections_it_cuts_the_text_by(
    service: ScriptedService,
) -> None:
    await start(service.url, TEMPLATE, session_id="s-1")
    [(_, _, body)] = service.calls
    assert body.sections is True  # the harness fits the prompt by them (H-1)


async def test_a9_the_client_asks_for_sections_unless_told_not_to(
    service: ScriptedService,
) -> None:
    client = MemoryClient(service.url)
    await asyncio.to_thread(client.session_start, "acme", "coder", "/w")
    await asyncio.to_thread(client.session_start, "acme", "coder", "/w", sections=False)
    assert [body.sections for _, _, body in service.calls] == [True, False]


# --- what the client makes of answers that are no Session start --------------------------------


def a9_answer(**changes: object) -> dict[str, object]:
    """A well-formed A-9 answer (camelCase JSON), with ``changes`` applied."""
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
    }
    return answer | changes


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
        b'{"extra":' + b"[" * 200_000,  # nested past msgspec's depth in a field it skips
    ],
)
async def test_p2_an_answer_that_is_no_session_start_is_a_bad_answer(
    aiohttp_server: Any, bad: bytes
) -> None:
    async def handle(request: web.Request) -> web.Response:
        return web.Response(body=bad, content_type="application/json")

    app = web.Application()
    app.router.add_post("/{tail:.*}", handle)
    server = await aiohttp_server(app)
    client = MemoryClient(str(server.make_url("")))
    with pytest.raises(BadServiceAnswerError, match="not a Session start"):
        await asyncio.to_thread(client.session_start, "acme", "coder", "/w")


async def test_p2_a_well_formed_answer_decodes(aiohttp_server: Any) -> None:
    async def handle(request: web.Request) -> web.Response:
        return web.json_response(a9_answer())

    app = web.Application()
    app.router.add_post("/{tail:.*}", handle)
    server = await aiohttp_server(app)
    client = MemoryClient(str(server.make_url("")))
    answer = await asyncio.to_thread(client.session_start, "acme", "coder", "/w")
    assert answer.key == "my-app-1c7ddc51" and answer.sections == []


class RawServer:
    """A loopback server for one connection: it reads a request, then sends ``answer``, a
    piece every ``pause`` seconds (all at once by default), and closes."""

    def __init__(self, answer: list[bytes], pause: float = 0.0) -> None:
        self._answer, self._pause = answer, pause
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with self._listener, self._listener.accept()[0] as connection:
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(4096)
            with contextlib.suppress(OSError):  # the client may give up first
                for piece in self._answer:
                    connection.sendall(piece)
                    time.sleep(self._pause)

    def join(self) -> None:
        self._thread.join(10)


@pytest.mark.parametrize(
    "answer",
    [
        b"SSH-2.0-OpenSSH_9.6\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ids=["not-http", "short-body", "bad-chunk"],
)
def test_p2_an_answer_that_is_no_http_is_unreachable(answer: bytes) -> None:
    server = RawServer([answer])
    with pytest.raises(ServiceUnreachableError):
        MemoryClient(server.url, timeout=5).session_start("acme", "coder", "/w")
    server.join()


def test_p2_an_answer_that_trickles_in_runs_out_the_whole_budget() -> None:
    """Every byte comes in time for a per-read timeout, and the whole answer would take 50 s (and
    then be no Session start); the request's one budget of 0.5 s ends it with a timeout."""
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
    server = RawServer([head, *[b" "] * 1000], pause=0.05)
    with pytest.raises(ServiceTimeoutError, match=r"within 0\.5 s"):
        MemoryClient(server.url, timeout=0.5).session_start("acme", "coder", "/w")
    server.join()
