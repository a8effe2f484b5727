"""RFC 9457 problem details: every error is application/problem+json with a clear detail."""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

import msgspec
import pytest
from aiohttp import web
from memory_api.app import create_app
from memory_api.errors import (
    BadRequest,
    Conflict,
    NotFound,
    PreconditionFailed,
    ServiceError,
    Unauthorized,
)
from memory_api.http.problems import problem_middleware
from memory_api.settings import Settings
from memory_core.errors import InvalidId
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, expect_problem
from tests.support.read_only_mount import read_only


class _Shape(msgspec.Struct, forbid_unknown_fields=True):
    name: str


def _raiser(error: BaseException) -> web.Application:
    async def handler(request: web.Request) -> web.Response:
        raise error

    app = web.Application(middlewares=[problem_middleware])
    app.router.add_get("/boom", handler)
    return app


def _validation_error() -> msgspec.ValidationError:
    try:
        msgspec.json.decode(b'{"name": 1}', type=_Shape)
    except msgspec.ValidationError as error:
        return error
    raise AssertionError("no error")


def _decode_error() -> msgspec.DecodeError:
    try:
        msgspec.json.decode(b"{", type=_Shape)
    except msgspec.DecodeError as error:
        return error
    raise AssertionError("no error")


@pytest.mark.parametrize(
    ("error", "status", "detail"),
    [
        (BadRequest("bad header"), 400, "bad header"),
        (Unauthorized("who are you"), 401, "who are you"),
        (NotFound("no agent 'x'"), 404, "no agent 'x'"),
        (Conflict("taken"), 409, "taken"),
        (PreconditionFailed("stale"), 412, "stale"),
        (InvalidId("agent", "A!", "must be lower-case"), 400, "invalid agent 'A!'"),
        (_validation_error(), 422, "Expected `str`, got `int` - at `$.name`"),
        (_decode_error(), 400, "not valid JSON"),
        (web.HTTPNotFound(), 404, "nothing is served at /boom"),
        (web.HTTPRequestEntityTooLarge(max_size=10, actual_size=20), 413, "limit"),
    ],
)
async def test_errors_map_to_their_status(
    aiohttp_client: AiohttpClient, error: BaseException, status: int, detail: str
) -> None:
    client = await aiohttp_client(_raiser(error))
    body = await expect_problem(await client.get("/boom"), status, detail)
    assert body.get("type", "about:blank") == "about:blank"  # RFC 9457: absent means about:blank
    assert body["instance"] == "/boom"


async def test_unauthorized_carries_the_bearer_challenge(aiohttp_client: AiohttpClient) -> None:
    client = await aiohttp_client(_raiser(Unauthorized("token please")))
    response = await client.get("/boom")
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="memory-api"'


async def test_unexpected_error_is_500_without_internals(
    aiohttp_client: AiohttpClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = await aiohttp_client(_raiser(RuntimeError("database password is hunter2")))
    with caplog.at_level(logging.ERROR, logger="memory_api.http.problems"):
        body = await expect_problem(await client.get("/boom"), 500, "incident")
    assert "hunter2" not in str(body)
    assert "RuntimeError" not in str(body)
    incident = body["detail"].rsplit(" ", 1)[-1]
    [record] = [r for r in caplog.records if r.name == "memory_api.http.problems"]
    assert record.exc_info is not None and incident in record.getMessage()


async def test_service_error_base_is_500_with_its_detail(aiohttp_client: AiohttpClient) -> None:
    client = await aiohttp_client(_raiser(ServiceError("store broken")))
    await expect_problem(await client.get("/boom"), 500, "store broken")


async def test_redirects_pass_through(aiohttp_client: AiohttpClient) -> None:
    client = await aiohttp_client(_raiser(web.HTTPFound("/elsewhere")))
    response = await client.get("/boom", allow_redirects=False)
    assert response.status == 302


async def test_router_404_is_a_problem(client: Client) -> None:
    await expect_problem(
        await client.get("/no/such/page"), 404, "nothing is served at /no/such/page"
    )
    await expect_problem(await client.get("/api/nothing"), 404, "/api/nothing")


async def test_router_405_is_a_problem_with_allow(client: Client, agent: AgentHome) -> None:
    response = await client.delete(f"/api/projects/{PROJECT}/agents/{AGENT}/config")
    body = await expect_problem(response, 405, "DELETE is not allowed")
    assert "PATCH" in response.headers["Allow"]
    assert "GET" in body["detail"]


async def test_body_over_the_limit_is_413(aiohttp_client: AiohttpClient, data_dir: Path) -> None:
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir, max_body=2048)))
    body = {"id": "coder", "name": "C", "template": "x" * 4096}
    response = await client.post(f"/api/projects/{PROJECT}/agents", json=body)
    await expect_problem(response, 413, "limit of 2048 bytes")
    assert not (data_dir / "agents" / "coder").exists()


@pytest.mark.parametrize(
    ("code", "fix"),
    [
        (errno.EROFS, "an operator must mount the file system holding it read-write"),
        (errno.ENOSPC, "an operator must free space on its disk"),
        (errno.EIO, "an operator must repair its disk"),
        (errno.EDQUOT, "an operator must free space on its disk"),
        (errno.EACCES, "an operator must give the account the service runs as read and write"),
        (errno.EPERM, "an operator must give the account the service runs as read and write"),
        (errno.EMFILE, "an operator must raise the service's open-file limit"),
        (errno.ENFILE, "an operator must raise the system's open-file limit"),
        (errno.ENAMETOOLONG, "an operator must look into the error ENAMETOOLONG"),
        (errno.ELOOP, "an operator must look into the error ELOOP"),
    ],
    ids=[
        "read-only-file-system",
        "full-disk",
        "io-error",
        "quota",
        "no-permission",
        "not-permitted",
        "too-many-open-files",
        "system-file-table-full",
        "name-too-long",
        "symlink-loop",
    ],
)
async def test_a_data_dir_refusal_no_route_names_says_its_cause_and_remedy(
    aiohttp_client: AiohttpClient, code: int, fix: str
) -> None:
    """The fallback for the operating system's refusals no route turns into its own answer:
    503 with the kernel's reason, what an operator does about it, and the incident the log
    names (it gave only "the data dir could not be used (…)"). No path is shown."""
    error = OSError(code, os.strerror(code), "/srv/agent-memory/agents/coder/agent.json")
    client = await aiohttp_client(_raiser(error))
    body = await expect_problem(await client.get("/boom"), 503, "the data dir could not be used")
    assert f"({os.strerror(code)}): {fix}" in body["detail"]
    assert "the log names incident" in body["detail"]
    assert "/srv" not in body["detail"]
    if code not in (errno.EACCES, errno.EPERM):  # only no permission sends anyone to chmod
        assert "access" not in body["detail"] and "owner" not in body["detail"]


async def test_an_agent_on_a_read_only_file_system_is_answered_so_for_real(
    client: Client, agent: AgentHome
) -> None:
    """PATCH …/config with the agent's folder mounted read-only: the kernel's EROFS, for real."""
    with read_only(agent.data_dir / "agents" / AGENT):
        response = await client.patch(
            f"/api/projects/{PROJECT}/agents/{AGENT}/config", json={"name": "Renamed"}
        )
        body = await expect_problem(response, 503, "(Read-only file system)")
        assert "mount the file system holding it read-write" in body["detail"]


async def test_a_data_dir_mounted_read_only_names_the_mount_never_the_locks_folder(
    client: Client, agent: AgentHome
) -> None:
    """The whole data dir mounted read-only (a volume mounted ``readOnly``, a disk the kernel
    remounted after errors): every change is refused at its lock file first, and said "an
    operator must fix the locks folder", where no owner or mode can help. Right: the remedy
    for EROFS, as every other write of the data dir says it."""
    path = f"/api/projects/{PROJECT}/agents/{AGENT}"
    with read_only(agent.data_dir):
        for method, route, body in (
            ("PATCH", f"{path}/config", {"name": "Renamed"}),
            ("DELETE", f"{path}/memory/scopes/user/files/time-zone.md", None),
            ("POST", f"{path}/memory/scopes/user/checkpoint", {}),
        ):
            response = await client.request(method, route, json=body)
            detail = (await expect_problem(response, 503, "(Read-only file system)"))["detail"]
            assert "mount the file system holding it read-write" in detail, (route, detail)
            assert "fix the locks folder" not in detail, (route, detail)
