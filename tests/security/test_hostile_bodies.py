"""A, Q-2: hostile bodies and headers get a 4xx problem with a clear detail, never a 500.

Covered elsewhere and not repeated: broken JSON, empty body, unknown top-level fields and
bodies over the limit on session start (``tests/api/test_memory_session_start.py``), a body
cut off by a lost connection or sent in parts (``tests/api/test_q2_request_body_arrival.py``),
bad agent bodies (``tests/api/test_agents.py``), stale ``If-Match``
(``tests/api/test_config.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import logging
import os
import zlib
from pathlib import Path

import brotli
import pytest
from backports import zstd
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import Settings
from multidict import CIMultiDict
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    JSON_TYPE,
    AgentHome,
    Client,
    expect_problem,
    memory_url,
    names,
    ok_json,
)
from tests.support.unreadable_link import unreadable_link

CONFIG = "/api/projects/acme/agents/coder/config"
DRAFTS = "/api/projects/acme/agents/coder/drafts"
SECRET = "admin-secret-0123456789abcdef"


async def raw_request(client: Client, head: bytes, body: bytes = b"") -> tuple[int, bytes, bytes]:
    """Send bytes no well-behaved client would send; return (status, head, body) of the answer.

    The answer ends where its own ``Content-Length`` says, not when the server closes the
    connection: after refusing a body it was never sent, aiohttp lingers up to 10 s reading
    it before closing, and waiting for that close measured the linger, not the answer.
    """
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        writer.write(head + b"\r\n" + body)
        await writer.drain()
        answer_head = await reader.readuntil(b"\r\n\r\n")
        status_line, _, headers = answer_head.removesuffix(b"\r\n\r\n").partition(b"\r\n")
        length = _content_length(headers)
        payload = await (reader.read() if length is None else reader.readexactly(length))
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    return int(status_line.split()[1]), headers, payload


def _content_length(headers: bytes) -> int | None:
    """The ``Content-Length`` of an answer's header block; None when it has none."""
    for line in headers.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return None


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"null", "Expected `object`, got `null`"),
        (b"[]", "Expected `object`, got `array`"),
        (b'"name"', "Expected `object`, got `str`"),
        (b"1e999", "Number out of range"),
        (b'{"name": null}', "at `$.name`"),
        (b'{"template": null}', "at `$.template`"),
        (b'{"memory": null}', "at `$.memory`"),
        (b'{"memory": {"enabled": "yes"}}', "at `$.memory.enabled`"),
        (b'{"memory": {"enabled": 1}}', "at `$.memory.enabled`"),
        (b'{"memory": {"extra": 1}}', "unknown field `extra`"),
        (b"[" * 100_000 + b"]" * 100_000, "Expected `object`"),
        (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "unknown field `a`"),
    ],
)
async def test_a2_wrong_shapes_are_422_and_change_nothing(
    client: Client, agent: AgentHome, body: bytes, detail: str
) -> None:
    before = (await client.get(CONFIG)).headers["ETag"]
    await expect_problem(await client.patch(CONFIG, data=body, headers=JSON_TYPE), 422, detail)
    assert (await client.get(CONFIG)).headers["ETag"] == before


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"\xef\xbb\xbf{", "not valid JSON"),  # the mark is skipped, the JSON is still broken
        (b'{"template": "a"} trailing', "trailing characters"),
        # a lone surrogate escape: JSON spells it, but it is no character; at a string's end
        # msgspec said "Input data was truncated", blaming the connection
        (b'{"name": "\\ud800"}', "the escape \\ud800 alone, half of a UTF-16 surrogate pair"),
        (b'{"name": "a\\uDC00b"}', "the escape \\uDC00 alone, half of a UTF-16 surrogate pair"),
        (b'{"name": "\\ud83d\\u0041"}', "the escape \\ud83d alone"),
        (b'{"name": "x\\u0000"}', "control characters"),
        (b'{"name": "   "}', "must not be empty"),
    ],
)
async def test_a2_undecodable_or_bad_values_are_400(
    client: Client, agent: AgentHome, body: bytes, detail: str
) -> None:
    await expect_problem(await client.patch(CONFIG, data=body, headers=JSON_TYPE), 400, detail)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=x", "application/octet-stream", "", "application/jsonx"],
)  # fmt: skip
async def test_a10a_a_json_body_not_declared_json_is_415_and_changes_nothing(
    client: Client, agent: AgentHome, content_type: str
) -> None:
    """Every media type a page of another origin can send without a preflight is refused."""
    before = (await client.get(CONFIG)).headers["ETag"]
    sent = {"Content-Type": content_type}
    response = await client.patch(CONFIG, data=b'{"name": "Plain"}', headers=sent)
    await expect_problem(response, 415, "must be JSON sent with 'Content-Type: application/json'")
    assert (await client.get(CONFIG)).headers["ETag"] == before


@pytest.mark.parametrize(
    "content_type",
    ["application/json; charset=foo", "application/json; charset=latin-1",
     "application/json; charset=utf-16", "application/x+json; charset=windows-1252",
     "application/json; charset=utf-8; charset=iso-8859-1", 'application/json; charset=""'],
)  # fmt: skip
async def test_a10a_a_json_body_declared_in_another_charset_is_415_and_changes_nothing(
    client: Client, agent: AgentHome, content_type: str
) -> None:
    """RFC 8259 8.1: JSON between systems is UTF-8, and its media type defines no ``charset``
    (11): a body said to be in another one is not read as if it were UTF-8 (A-10a)."""
    before = (await client.get(CONFIG)).headers["ETag"]
    sent = {"Content-Type": content_type}
    response = await client.patch(CONFIG, data=b'{"name": "Plain"}', headers=sent)
    await expect_problem(response, 415, "JSON is read as UTF-8 only (RFC 8259 8.1)")
    assert (await client.get(CONFIG)).headers["ETag"] == before


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "Application/JSON; charset=utf-8", "application/x+json",
     'application/json;charset="UTF-8"', "application/json; charset=utf8",
     "application/json; charset=US-ASCII", "application/json; charset=ascii"],
)  # fmt: skip
async def test_a10a_a_json_body_declared_json_is_read(
    client: Client, agent: AgentHome, content_type: str
) -> None:
    sent = {"Content-Type": content_type}
    answer = await ok_json(await client.patch(CONFIG, data=b'{"name": "Plain"}', headers=sent))
    assert answer["name"] == "Plain"


async def test_a10a_a_body_declared_ascii_holding_another_byte_is_400_and_changes_nothing(
    client: Client, agent: AgentHome
) -> None:
    """ASCII is a subset of UTF-8, so a body declared ``charset=us-ascii`` is read; but one
    byte past ASCII says it is not ASCII (WHATWG takes the label for windows-1252), and
    reading it as UTF-8 would guess: refused, naming the byte."""
    before = (await client.get(CONFIG)).headers["ETag"]
    sent = {"Content-Type": "application/json; charset=us-ascii"}
    response = await client.patch(CONFIG, data='{"name": "Café"}'.encode(), headers=sent)
    await expect_problem(response, 400, "declared charset='us-ascii' but holds the byte 0xC3")
    assert (await client.get(CONFIG)).headers["ETag"] == before


async def test_a2_a_json_body_led_by_a_utf8_byte_order_mark_is_read(
    client: Client, agent: AgentHome
) -> None:
    """RFC 8259 8.1: a reader may ignore a byte order mark; Windows tools write one (Notepad,
    PowerShell's ``Out-File -Encoding utf8``), and ``curl --data-binary @body.json`` sends it.
    It was 400 "JSON is malformed: invalid character (byte 0)"."""
    body = "\ufeff" + '{"name": "Plain"}'
    answer = await ok_json(await client.patch(CONFIG, data=body.encode(), headers=JSON_TYPE))
    assert answer["name"] == "Plain"


async def test_a2_a_json_body_of_a_byte_order_mark_alone_is_an_empty_body(
    client: Client, agent: AgentHome
) -> None:
    """The mark skipped, nothing is left: a file saved empty by Notepad. It was 400 "not valid
    JSON: Input data was truncated", as if JSON had been cut off."""
    for body in (b"\xef\xbb\xbf", b"\xef\xbb\xbf \r\n"):
        response = await client.patch(CONFIG, data=body, headers=JSON_TYPE)
        await expect_problem(response, 400, "the request body is empty; expected a JSON object")


@pytest.mark.parametrize(
    ("codec", "said"),
    [("utf-16-le", "UTF-16 little-endian text (its byte order mark FF FE says so)"),
     ("utf-16-be", "UTF-16 big-endian text (its byte order mark FE FF says so)"),
     ("utf-32-le", "UTF-32 little-endian text (its byte order mark FF FE 00 00 says so)")],
)  # fmt: skip
async def test_a2_a_json_body_in_utf16_or_utf32_is_400_naming_it(
    client: Client, agent: AgentHome, codec: str, said: str
) -> None:
    """It was 400 "JSON is malformed: invalid character (byte 0)", no word of the encoding."""
    body = '\ufeff{"name": "Plain"}'.encode(codec)
    response = await client.patch(CONFIG, data=body, headers=JSON_TYPE)
    await expect_problem(response, 400, f"the request body is {said}")


async def test_a2_template_just_under_the_body_limit_round_trips(
    client: Client, agent: AgentHome
) -> None:
    template = "x" * (1024 * 1024 - 64)
    answer = await ok_json(await client.patch(CONFIG, json={"template": template}))
    assert answer["template"] == template
    assert [
        name for name in names(agent.data_dir / "agents" / "coder") if name.startswith(".")
    ] == []


async def test_q2_body_that_does_not_decompress_is_400_not_500(
    client: Client, agent: AgentHome
) -> None:
    sent = {"Content-Encoding": "deflate", **JSON_TYPE}
    response = await client.patch(CONFIG, data=b"not deflate data", headers=sent)
    await expect_problem(response, 400, "cannot be read: Can not decode content-encoding")


def _encoded(coding: str, data: bytes) -> bytes:
    if coding == "br":
        return bytes(brotli.compress(data))
    if coding == "zstd":
        return bytes(zstd.compress(data))
    return gzip.compress(data) if coding == "gzip" else data


@pytest.mark.parametrize("coding", ["gzip", "br", "zstd", "identity", "GZIP"])
async def test_q2_a_body_in_each_content_coding_aiohttp_decodes_is_read(
    client: Client, agent: AgentHome, coding: str
) -> None:
    body = _encoded(coding.lower(), b'{"template": "# Coder {{MEMORY}}"}')
    sent = {"Content-Encoding": coding, **JSON_TYPE}
    response = await client.patch(CONFIG, data=body, headers=sent)
    assert (await ok_json(response))["template"] == "# Coder {{MEMORY}}"


@pytest.mark.parametrize("coding", ["br", "zstd"])
async def test_q2_a_br_or_zstd_body_that_does_not_decode_is_400(
    client: Client, agent: AgentHome, coding: str
) -> None:
    response = await client.patch(
        CONFIG, data=b"not compressed", headers={"Content-Encoding": coding, **JSON_TYPE}
    )
    await expect_problem(response, 400, "cannot be read")


@pytest.mark.parametrize(
    ("coding", "data"),
    [("br", b"xx"), ("gzip", gzip.compress(b'{"name": "x"}')[:10])],
    ids=["br-two-bytes", "gzip-header-only"],
)
async def test_q2_a_coded_body_that_decodes_to_nothing_is_unreadable_not_empty(
    client: Client, agent: AgentHome, coding: str, data: bytes
) -> None:
    """Bytes the decoder takes as the start of a stream yield nothing, silently: "the request
    body is empty" sent the client looking for a body it had sent."""
    response = await client.patch(
        CONFIG, data=data, headers={"Content-Encoding": coding, **JSON_TYPE}
    )
    body = await expect_problem(response, 400, "the request body cannot be read")
    assert (
        f"bytes of {coding} data decode to nothing (not {coding} data, or cut off)"
        in body["detail"]
    )
    assert response.headers["Connection"] == "close"


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "zstd"])
async def test_q2_an_undecodable_body_closes_the_connection_and_logs_no_traceback(
    client: Client, agent: AgentHome, coding: str, caplog: pytest.LogCaptureFixture
) -> None:
    """After the 400 nothing more of that connection can be parsed: it is closed, and aiohttp
    does not drain the broken body (which raised again and logged "Unhandled exception")."""
    body = b"not compressed at all" * 100
    sent = {"Content-Encoding": coding, **JSON_TYPE}
    response = await client.patch(CONFIG, data=body, headers=sent)
    await expect_problem(response, 400, "cannot be read")
    assert response.headers["Connection"] == "close"
    assert (await ok_json(await client.get(CONFIG)))["id"] == "coder"  # a new connection works
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


async def test_q2_content_encoding_on_two_lines_is_one_list_and_415(
    client: Client, agent: AgentHome
) -> None:
    """RFC 9110 5.3: ``gzip`` and ``foo`` on two lines are the list ``gzip, foo``, which nothing
    decodes; aiohttp alone would decode by one line and read the body by the other."""
    for lines in (("gzip", "foo"), ("br", "x-custom"), ("gzip", "gzip")):
        headers = CIMultiDict(("Content-Encoding", line) for line in lines)
        headers.update(JSON_TYPE)
        response = await client.patch(CONFIG, data=gzip.compress(b"{}"), headers=headers)
        await expect_problem(response, 415, "is not one the service decodes")


@pytest.mark.parametrize("coding", ["foo", "gzip, br", "compress", "gzíp"])
async def test_q2_a_content_coding_the_service_cannot_decode_is_415_naming_those_it_can(
    client: Client, agent: AgentHome, coding: str
) -> None:
    """RFC 9110 15.5.16: 415 with ``Accept-Encoding``; never the bytes read as if plain."""
    headers = {"Content-Encoding": coding.encode().decode("latin-1"), **JSON_TYPE}
    response = await client.patch(CONFIG, data=b'{"template": "x"}', headers=headers)
    await expect_problem(response, 415, "is not one the service decodes")
    assert response.headers["Accept-Encoding"] == "gzip, deflate, br, zstd"
    assert "{{MEMORY}}" in (await ok_json(await client.get(CONFIG)))["template"]


async def test_q2_compressed_body_bomb_stops_at_the_limit(client: Client, agent: AgentHome) -> None:
    bomb = zlib.compress(b'{"template": "' + b"x" * 50_000_000 + b'"}', 9)
    sent = {"Content-Encoding": "deflate", **JSON_TYPE}
    response = await client.patch(CONFIG, data=bomb, headers=sent)
    await expect_problem(response, 413, "larger than the limit")
    answer = await ok_json(await client.patch(CONFIG, data=zlib.compress(b"{}"), headers=sent))
    assert answer["id"] == "coder"


async def test_q2_announced_body_over_the_limit_is_413_before_it_is_sent(
    client: Client, agent: AgentHome
) -> None:
    """A Content-Length over the limit is answered at once, without waiting for the bytes."""
    head = (
        f"PATCH {CONFIG} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {2**31}\r\nConnection: close\r\n"
    ).encode()
    status, headers, payload = await raw_request(client, head)
    assert status == 413
    assert b"application/problem+json" in headers
    assert b"larger than the limit" in payload


@pytest.mark.parametrize(
    ("workspace", "detail"),
    [
        ("/tmp/app\n/etc", "control character"),
        ("/tmp/app\r", "control character"),
        ("/tmp/a\tb", "control character"),
        ("/tmp/a\x7fb", "control character"),
        ("", "absolute path"),
        (" /tmp/app", "absolute path"),
        ("~/app", "absolute path"),
        ("C:\\Users\\ada", "absolute path"),
    ],
)
async def test_k5_session_start_refuses_paths_a_one_line_marker_cannot_hold(
    client: Client, agent: AgentHome, workspace: str, detail: str
) -> None:
    url = f"{memory_url()}/session-start"
    await expect_problem(await client.post(url, json={"workspace": workspace}), 400, detail)
    assert names(agent.root) == ["user"]


async def test_k5_workspace_whose_real_path_holds_a_newline_is_refused(
    client: Client, agent: AgentHome
) -> None:
    real = agent.tmp / "odd\nname"
    real.mkdir()
    link = agent.tmp / "plain"
    link.symlink_to(real, target_is_directory=True)

    response = await client.post(f"{memory_url()}/session-start", json={"workspace": str(link)})

    await expect_problem(response, 400, "real path holds a control character")
    assert names(agent.root) == ["user"]


async def test_k5_workspace_whose_real_path_is_not_utf8_is_refused(
    client: Client, agent: AgentHome
) -> None:
    """A symlink to a folder named in Latin-1 (``caf\\xe9``): its marker, UTF-8 text, cannot
    hold the real path; this was a 500 (UnicodeEncodeError writing the marker), now a 400 as
    for a control character, and nothing is made."""
    real = agent.tmp / "caf\udce9"  # the bytes b"caf\xe9", as Python reads them
    real.mkdir()
    link = agent.tmp / "link_nonutf8"
    link.symlink_to(real, target_is_directory=True)

    response = await client.post(f"{memory_url()}/session-start", json={"workspace": str(link)})

    await expect_problem(response, 400, "real path is not UTF-8")
    assert names(agent.root) == ["user"]


async def test_k1_workspace_through_a_symlink_that_cannot_be_read_is_400_naming_it(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/proc/<pid>/root`` of a process the service may not trace: its real path, hence its
    key, is unknown; the caller is told so (never a 503 blaming the data dir), nothing made."""
    link = unreadable_link(agent.tmp / "root", Path("/"), monkeypatch)
    workspace = str(link / "src" / "app")

    response = await client.post(f"{memory_url()}/session-start", json={"workspace": workspace})

    problem = await expect_problem(response, 400, "real path cannot be known")
    assert str(link) in problem["detail"] and "Permission denied" in problem["detail"]
    assert names(agent.root) == ["user"]


@pytest.mark.parametrize("kind", ["file", "device"])
async def test_a9_workspace_that_is_no_directory_is_409(
    client: Client, agent: AgentHome, kind: str
) -> None:
    path = agent.tmp / "notes.txt"
    path.write_text("x")
    workspace = str(path) if kind == "file" else os.devnull
    url = f"{memory_url()}/session-start"
    await expect_problem(await client.post(url, json={"workspace": workspace}), 409, "directory")
    assert names(agent.root) == ["user"]


async def test_a9_workspace_spellings_of_one_directory_give_one_key(
    client: Client, agent: AgentHome
) -> None:
    workspace = agent.tmp / "src" / "app"
    workspace.mkdir(parents=True)
    url = f"{memory_url()}/session-start"
    spellings = [f"{workspace}/", f"{workspace}//", f"{workspace}/.", f"{workspace}/../app"]

    keys = {
        (await ok_json(await client.post(url, json={"workspace": w})))["key"] for w in spellings
    }

    assert len(keys) == 1
    assert len(names(agent.root)) == 2


async def test_a9_workspace_not_on_this_machine_is_still_a_workspace(
    client: Client, agent: AgentHome
) -> None:
    """The harness may see another filesystem (a container): a missing path is not refused."""
    missing = str(agent.tmp / "elsewhere" / "app")
    answer = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": missing})
    )
    assert answer["workspaceKind"] == "persistent"


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"prompt": "x", "workspace": "/" + "w" * 5000}, 400, "at most 4096 bytes"),
        ({"prompt": "x", "workspace": "/a\nb"}, 400, "control characters"),
        ({"prompt": "x", "workspace": "relative"}, 400, "absolute"),
        ({"prompt": None}, 422, "$.prompt"),
        ({"prompt": " \n "}, 400, "must not be empty"),
    ],
)
async def test_a12_bad_drafts_name_the_problem(
    client: Client, agent: AgentHome, body: dict[str, object], status: int, detail: str
) -> None:
    await expect_problem(await client.post(DRAFTS, json=body), status, detail)


async def test_a12_prompt_over_the_body_limit_is_413(client: Client, agent: AgentHome) -> None:
    body = b'{"prompt": "' + b"p" * (2 * 1024 * 1024) + b'"}'
    response = await client.post(DRAFTS, data=io.BytesIO(body), headers=JSON_TYPE)
    await expect_problem(response, 413, "larger than the limit")


@pytest.fixture
async def secured(aiohttp_client: AiohttpClient, data_dir: Path) -> Client:
    settings = Settings(
        data_dir=data_dir, env_tokens=(TokenEntry(name="admin", sha256=hash_secret(SECRET)),)
    )
    return await aiohttp_client(create_app(settings))


@pytest.mark.parametrize(
    "value",
    [
        b"Bearer \xff\xfe",
        b"Bearer \xc3\x28",
        "Bearer " + "A" * 8000,
        "Basic YWRtaW46eA==",
        "Bearer",
    ],
)
async def test_a10_weird_authorization_values_are_401(secured: Client, value: str | bytes) -> None:
    raw = value if isinstance(value, bytes) else value.encode()
    head = (
        b"GET /api/me HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: "
        + raw
        + b"\r\n"
    )
    status, headers, payload = await raw_request(secured, head)
    assert status == 401, payload
    assert b"application/problem+json" in headers
    assert b"WWW-Authenticate: Bearer" in headers


async def test_a10_scheme_is_case_insensitive_and_spaces_are_trimmed(secured: Client) -> None:
    for value in (f"bearer {SECRET}", f"BEARER  {SECRET} "):
        await ok_json(await secured.get("/api/me", headers={"Authorization": value}))
