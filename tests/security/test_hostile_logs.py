"""A-11: text a client chooses never forges a log line or puts a query string into the log."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.http.logs import ACCESS_LOGGER, AccessLogger
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient
from yarl import URL

from tests.api.conftest import AGENT, PROJECT, memory_url, ok_json


async def test_a11_access_line_keeps_an_encoded_newline_encoded(
    aiohttp_client: AiohttpClient, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    client: TestClient[Any, None] = await aiohttp_client(server)
    forged = "/api/projects/a%0A2026-01-01%20INFO%20forged/agents?secret=s3cr3t"

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        response = await client.get(URL(forged, encoded=True))
        assert response.status == 400

    record = [r for r in caplog.records if r.name == ACCESS_LOGGER][-1]
    message = record.getMessage()
    assert "\n" not in message
    assert "%0A" in message
    assert "s3cr3t" not in message
    assert "\n" not in record.__dict__["path"]


async def test_a11_session_id_with_a_newline_is_logged_quoted(
    aiohttp_client: AiohttpClient,
    data_dir: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    client: TestClient[Any, None] = await aiohttp_client(server)
    created = await client.post(f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "A"})
    assert created.status == 201
    workspace = tmp_path / "src" / "app"
    workspace.mkdir(parents=True)
    session = "s-1\n2026-01-01 INFO forged line" + "x" * 10_000

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        await ok_json(
            await client.post(
                f"{memory_url()}/session-start",
                json={"workspace": str(workspace), "sessionId": session},
            )
        )
        for _ in range(100):  # the access line is written once the answer is sent
            if any(r.getMessage().startswith("POST") for r in caplog.records):
                break
            await asyncio.sleep(0.01)

    records = [r for r in caplog.records if r.getMessage().startswith("POST")]
    assert len(records) == 1  # the Session start's facts ride on its one access line
    assert not any(r.getMessage().startswith("session start") for r in caplog.records)
    line = records[0].getMessage()
    assert "\n" not in line
    assert "session start: session='s-1\\n2026-01-01 INFO forged line" in line
    assert records[0].__dict__["note"].startswith("session start: session='s-1\\n")
    assert "kind=persistent" in line and "injected=True" in line
    assert len(line) < 500


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOPSECRET-01234\x01\r\n\r\n",
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOPSECRET-" + b"a" * 9000
        + b"\r\n\r\n",
        b"GET /api/me?token=TOPSECRET-query\x01 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /api/me?token=TOPSECRET-" + b"q" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    ],
    ids=["bad-char-in-token", "token-past-the-line-limit", "bad-char-in-query", "long-query"],
)  # fmt: skip
async def test_a10_a11_request_the_parser_refuses_never_logs_its_token_or_query(
    data_dir: Path, caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    """aiohttp's parser quotes the offending line in its error; that line must not be logged."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    try:
        with caplog.at_level(logging.DEBUG):
            reader, writer = await asyncio.open_connection(server.host, server.port)
            writer.write(request_bytes)
            await writer.drain()
            answer = await reader.read()
            writer.close()
            await writer.wait_closed()
    finally:
        await server.close()

    assert b" 400 " in answer.split(b"\r\n")[0]
    assert "TOPSECRET" not in caplog.text
    refused = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert refused, "the refusal is still logged"
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in refused)
    assert all(r.levelno == logging.WARNING for r in refused)  # the client's fault, no alert
