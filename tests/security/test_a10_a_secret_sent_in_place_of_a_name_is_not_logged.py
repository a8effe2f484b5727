"""A-10, A-11: a bearer secret a client puts where a name goes never reaches the log.

The access line quotes the path as sent and the harness's session id, so a client that swapped
its arguments (its token where the project id goes: ``/api/projects/mem_…/agents``) or sent
its token as the session id wrote the secret into the log, for anyone reading it to use. Each
secret of the service's own shape (``mem_`` and 43 URL-safe characters) is masked in both; the
rest of the line stays as sent.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.bearer import new_secret
from memory_api.http.logs import ACCESS_LOGGER, AccessLogger
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, memory_url, ok_json


@pytest.fixture
async def logged(aiohttp_client: AiohttpClient, data_dir: Path) -> TestClient[Any, None]:
    """A client of a service whose access lines go to the ``memory_api.access`` logger."""
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    return await aiohttp_client(server)


async def _access_line(caplog: pytest.LogCaptureFixture, method: str) -> logging.LogRecord:
    """The access record of the request by ``method`` (written once its answer is sent)."""
    for _ in range(100):
        found = [r for r in caplog.records if r.name == ACCESS_LOGGER]
        if found and found[-1].getMessage().startswith(method):
            return found[-1]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no access line of a {method}")


async def test_a10_a_secret_in_the_path_is_masked_in_the_access_line(
    logged: TestClient[Any, None], caplog: pytest.LogCaptureFixture
) -> None:
    secret = new_secret()

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        answer = await logged.get(f"/api/projects/{secret}/agents")
        assert answer.status == 400
        record = await _access_line(caplog, "GET")

    assert secret not in caplog.text
    assert record.__dict__["path"] == "/api/projects/mem_[masked]/agents"
    assert "GET /api/projects/mem_[masked]/agents 400" in record.getMessage()


async def test_a10_a_secret_sent_as_the_session_id_is_masked_in_the_access_line(
    logged: TestClient[Any, None], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    created = await logged.post(f"/api/projects/{PROJECT}/agents", json={"id": AGENT, "name": "A"})
    assert created.status == 201
    secret = new_secret()

    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        await ok_json(
            await logged.post(
                f"{memory_url()}/session-start",
                json={"workspace": str(tmp_path), "sessionId": f"run-{secret}"},
            )
        )
        record = await _access_line(caplog, "POST")

    assert secret not in caplog.text
    assert "session start: session='run-mem_[masked]'" in record.__dict__["note"]
