"""Shared fixtures of the API tests: a real data dir under ``tmp_path``, the app, an agent.

The sample memory folders of ``tests/data/corpus`` are copied (content only, so the copies are
writable) into an agent's memory root: the user scope, and Workspace scopes whose ``.workspace``
marker names a real directory under ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_core import layout
from memory_core.keys import key_for_real_path
from pytest_aiohttp import AiohttpClient

from tests.support.serve import ServedProcess, serve
from tests.support.zygote import Zygote

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
PROJECT = "acme"
AGENT = "coder"
PLAIN_TEMPLATE = "You are Coder.\n\n# Environment\n- CWD: {{CWD}}\n"
"""A template written before Memory existed: no ``{{MEMORY}}``, no key line."""

Client = TestClient[web.Request, web.Application]

JSON_TYPE = {"Content-Type": "application/json"}
"""The header a raw JSON body needs (A-10a: any other media type is 415)."""


def copy_corpus(name: str, scope: Path) -> list[str]:
    """Copy the sample folder ``name`` into ``scope`` (created); return the copied file names."""
    scope.mkdir(parents=True, exist_ok=True)
    names = sorted(path.name for path in (CORPUS / name).iterdir() if path.is_file())
    for file_name in names:
        shutil.copyfile(CORPUS / name / file_name, scope / file_name)
    return names


def write_topic(scope: Path, name: str) -> Path:
    """Write a small valid topic file ``name`` (a description, a body) into ``scope``."""
    path = scope / name
    path.write_text(f"---\ndescription: {name}\n---\nbody\n", encoding="utf-8")
    return path


def corpus_topics(name: str) -> list[str]:
    """The topic file names of a sample folder (every ``*.md`` but the index), sorted."""
    return sorted(
        path.name
        for path in (CORPUS / name).iterdir()
        if path.suffix == ".md" and path.name != layout.INDEX_FILE
    )


def file_url(key: str, file_name: str, *, agent: str = AGENT, project: str = PROJECT) -> str:
    """The URL of one topic file, its name percent-encoded as a client must send it."""
    encoded = quote(file_name, safe="")
    return f"{memory_url(agent=agent, project=project)}/scopes/{key}/files/{encoded}"


def real(path: Path | str) -> str:
    """The real path (symlinks resolved) as a string, as the service records it."""
    return os.path.realpath(path)


def names(directory: Path) -> list[str]:
    """The sorted entry names of a directory."""
    return sorted(entry.name for entry in directory.iterdir())


def memory_url(*, agent: str = AGENT, project: str = PROJECT) -> str:
    """The base URL of an agent's memory routes."""
    return f"/api/projects/{project}/agents/{agent}/memory"


def bearer(secret: str) -> dict[str, str]:
    """The header of a bearer token."""
    return {"Authorization": f"Bearer {secret}"}


async def expect_problem(response: ClientResponse, status: int, detail_part: str) -> dict[str, Any]:
    """Assert an RFC 9457 answer: status, content type, title, and a ``detail`` holding a part."""
    assert response.status == status, await response.text()
    assert response.content_type == "application/problem+json"
    body: dict[str, Any] = await response.json(content_type=None)
    assert set(body) <= {"type", "title", "status", "detail", "instance"}, body
    assert body["status"] == status
    assert body["title"] == HTTPStatus(status).phrase
    assert detail_part in body["detail"], body["detail"]
    assert "Traceback" not in body["detail"]
    return body


def versions_of(deleted: dict[str, Any]) -> dict[str, Any]:
    """The version fields of a delete's answer (V-2), as the answer gives them, for comparing
    the rest of it whole; a delete the history recorded has nothing ``unrecorded``."""
    return {
        "version": deleted["version"],
        "restoreVersion": deleted["restoreVersion"],
        "unrecorded": None,
    }


async def ok_json(response: ClientResponse, status: int = 200) -> dict[str, Any]:
    """Assert a JSON success answer and return the decoded body."""
    assert response.status == status, await response.text()
    assert response.content_type == "application/json"
    body: dict[str, Any] = await response.json()
    return body


@dataclass(frozen=True)
class AgentHome:
    """An agent created through the API, and where its files live."""

    data_dir: Path
    project: str
    id: str
    tmp: Path

    @property
    def root(self) -> Path:
        """The agent's memory root."""
        return layout.memory_root(self.data_dir, self.id)

    @property
    def user(self) -> Path:
        """The user scope directory."""
        return self.root / "user"

    def workspace(self, name: str, corpus: str | None = None) -> tuple[Path, str]:
        """Make a persistent Workspace directory and its scope (with marker, optional corpus).

        Returns ``(workspace path, key)``.
        """
        path = self.tmp / "src" / name
        path.mkdir(parents=True, exist_ok=True)
        real = os.path.realpath(path)
        key = key_for_real_path(real)
        scope = self.root / key
        scope.mkdir(parents=True, exist_ok=True)
        (scope / layout.MARKER_FILE).write_text(real + "\n", encoding="utf-8")
        if corpus is not None:
            copy_corpus(corpus, scope)
        return path, key


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """An empty data dir."""
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    """Settings for an open (token-less) service on that data dir."""
    return Settings(data_dir=data_dir)


@pytest.fixture
async def client(aiohttp_client: AiohttpClient, settings: Settings) -> Client:
    """A test client of the real application."""
    return await aiohttp_client(create_app(settings))


async def create_agent(
    client: Client, agent_id: str = AGENT, *, project: str = PROJECT, template: str | None = None
) -> None:
    """Create an agent through the API (A-1)."""
    body: dict[str, Any] = {"id": agent_id, "name": agent_id.title()}
    if template is not None:
        body["template"] = template
    response = await client.post(f"/api/projects/{project}/agents", json=body)
    assert response.status == 201, await response.text()


@pytest.fixture
async def agent(client: Client, data_dir: Path, tmp_path: Path) -> AgentHome:
    """The agent ``coder`` of project ``acme`` (default template, memory on)."""
    await create_agent(client)
    return AgentHome(data_dir=data_dir, project=PROJECT, id=AGENT, tmp=tmp_path)


@pytest.fixture
def corpus_user(agent: AgentHome) -> AgentHome:
    """The agent with the sample user scope copied in."""
    copy_corpus("user-scope", agent.user)
    return agent


@pytest.fixture
async def bases(data_dir: Path) -> AsyncIterator[list[str]]:
    """Start two open (token-less) service processes on ``data_dir`` at once; their base URLs.

    Both are forked from this test process's :class:`~tests.support.zygote.Zygote`: two
    processes of their own running the same ``main(["serve"])``, without the second of CPU
    each spends importing the service (32 starts in the 16 tests that take them)."""
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    zygote = Zygote.shared()
    started = await asyncio.gather(
        *(asyncio.to_thread(serve, data_dir, env, zygote=zygote) for _ in range(2)),
        return_exceptions=True,
    )
    running = [outcome for outcome in started if isinstance(outcome, ServedProcess)]
    try:
        for outcome in started:
            if isinstance(outcome, BaseException):
                raise outcome
        yield [served.base_url for served in running]
    finally:
        for served in running:
            served.stop()
