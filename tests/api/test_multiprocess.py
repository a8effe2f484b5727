"""Q-4, Q-2a: two real service processes on one data dir; concurrent writes lose nothing.

Starts ``memory-api serve`` twice (subprocesses on free loopback ports, one shared
``MEMORY_API_DATA_DIR``) and sends deletes into one index, and placeholder inserts into one
agent config, through both at once. Only the cross-process locks and the re-read-before-rewrite
can keep every line right here: the two processes share no memory.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import unused_port
from memory_core import layout
from memory_core.template import MEMORY_PLACEHOLDER

from tests.api.conftest import (
    PLAIN_TEMPLATE,
    copy_corpus,
    corpus_topics,
    file_url,
    memory_url,
)

pytestmark = pytest.mark.e2e

STARTUP_POLLS = 300  # x 0.05 s: generous, this is no speed assertion


def _executable() -> str:
    beside = Path(sys.executable).with_name("memory-api")
    found = str(beside) if beside.exists() else shutil.which("memory-api")
    assert found, "the memory-api command is not installed"
    return found


@contextmanager
def _process(data_dir: Path, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "MEMORY_API_DATA_DIR": str(data_dir),
        "MEMORY_API_HOST": "127.0.0.1",
        "MEMORY_API_PORT": str(port),
    }
    env.pop("MEMORY_API_TOKENS", None)
    with log.open("wb") as out:
        process = subprocess.Popen([_executable(), "serve"], env=env, stdout=out, stderr=out)
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _wait_ready(session: aiohttp.ClientSession, base: str, log: Path) -> None:
    for _ in range(STARTUP_POLLS):
        try:
            async with session.get(f"{base}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.05)
    pytest.fail(f"the service at {base} did not start:\n{_tail(log)}")


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-4000:]


@asynccontextmanager
async def two_services(data_dir: Path, tmp_path: Path) -> AsyncIterator[list[str]]:
    """Run two service processes on ``data_dir``; yield their base URLs."""
    ports = [unused_port(), unused_port()]
    logs = [tmp_path / f"service-{n}.log" for n in range(2)]
    with _process(data_dir, ports[0], logs[0]), _process(data_dir, ports[1], logs[1]):
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        async with aiohttp.ClientSession() as session:
            for base, log in zip(bases, logs, strict=True):
                await _wait_ready(session, base, log)
        yield bases


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    assert response.status == 200, await response.text()
    body: dict[str, Any] = await response.json()
    return body


async def test_q4_concurrent_deletes_through_two_processes_keep_exactly_the_right_lines(
    data_dir: Path, tmp_path: Path
) -> None:
    async with two_services(data_dir, tmp_path) as bases, aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[0]}/api/projects/acme/agents", json={"id": "coder", "name": "Coder"}
        )
        assert created.status == 201, await created.text()
        user = layout.scope_dir(data_dir, "coder", "user")
        copy_corpus("large-index", user)
        index = user / layout.INDEX_FILE
        lines = index.read_text(encoding="utf-8").split("\n")
        victims = corpus_topics("large-index")[::3]

        responses = await asyncio.gather(
            *(
                session.delete(bases[number % 2] + file_url("user", name))
                for number, name in enumerate(victims)
            )
        )

        for name, response in zip(victims, responses, strict=True):
            body = await _json(response)
            assert body["file"] == name
            assert body["removedIndexLines"] == [line for line in lines if f"]({name})" in line]
        expected = [line for line in lines if not any(f"]({name})" in line for name in victims)]
        assert index.read_text(encoding="utf-8").split("\n") == expected
        survivors = sorted(set(corpus_topics("large-index")) - set(victims))
        for base in bases:  # both processes see the same files: no stale state anywhere
            listing = await _json(await session.get(f"{base}{memory_url()}/scopes/user/files"))
            assert [item["file"] for item in listing["files"]] == survivors


async def test_q2a_placeholder_inserts_through_two_processes_insert_once(
    data_dir: Path, tmp_path: Path
) -> None:
    async with two_services(data_dir, tmp_path) as bases, aiohttp.ClientSession() as session:
        created = await session.post(
            f"{bases[1]}/api/projects/acme/agents",
            json={"id": "legacy", "name": "Legacy", "template": PLAIN_TEMPLATE},
        )
        assert created.status == 201, await created.text()
        url = memory_url(agent="legacy") + "/template-placeholder"

        responses = await asyncio.gather(*(session.post(bases[n % 2] + url) for n in range(10)))

        answers = [await _json(response) for response in responses]
        assert sum(answer["changed"] for answer in answers) == 1
        assert len({answer["template"] for answer in answers}) == 1
        assert answers[0]["template"].count(MEMORY_PLACEHOLDER) == 1
