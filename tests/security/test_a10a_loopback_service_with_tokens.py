"""A-10, A-10a: a service that listens only on loopback answers only loopback names, tokens or not.

Only this machine can reach a service bound to ``127.0.0.1``, ``::1`` or ``localhost``, so a
``Host`` that is neither a loopback name nor one in ``MEMORY_API_ALLOWED_HOSTS`` comes from a
DNS-rebinding page (or a proxy on this machine passing on a public name). With tokens every
``Host`` was answered: a page of ``evil.example`` rebound to ``127.0.0.1`` showed the real web
page at ``http://evil.example:PORT/``, and a token typed there and remembered sat in that
origin's ``localStorage``, for the attacker's page to read once the name was turned back. Now
every route refuses such a ``Host`` (403), the page and its files included. Health probes are
refused too: a kubelet reaches a pod on its IP, so the service is bound beyond loopback there
(``0.0.0.0`` in the image and the manifests) and answers any ``Host`` as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, expect_problem

SECRET = "loopback-secret-0123456789abcdef"
BEARER = {"Authorization": f"Bearer {SECRET}"}
EVERY_KIND_OF_ROUTE = ["/", "/static/app.css", "/api/me", "/healthz", "/metrics", "/openapi.json"]


async def _serve(
    aiohttp_client: AiohttpClient, data_dir: Path, host: str, allowed: tuple[str, ...] = ()
) -> Client:
    """The app with one token (``SECRET``), told it listens on ``host``."""
    tokens = (TokenEntry(name="admin", sha256=hash_secret(SECRET)),)
    settings = Settings(data_dir=data_dir, host=host, env_tokens=tokens, allowed_hosts=allowed)
    return await aiohttp_client(create_app(settings))


def _port(client: Client) -> int:
    port = client.server.port
    assert port is not None
    return port


@pytest.mark.parametrize("bind", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
@pytest.mark.parametrize("path", EVERY_KIND_OF_ROUTE)
async def test_a10a_a_loopback_service_with_tokens_refuses_a_rebound_host_on_every_route(
    aiohttp_client: AiohttpClient, data_dir: Path, bind: str, path: str
) -> None:
    """The page at ``http://evil.example:PORT/`` is what a token would be typed into."""
    client = await _serve(aiohttp_client, data_dir, bind)
    headers = {**BEARER, "Host": f"evil.example:{_port(client)}"}

    problem = await expect_problem(await client.get(path, headers=headers), 403, "(Host rule")

    assert "listens only on loopback" in problem["detail"]
    assert "MEMORY_API_ALLOWED_HOSTS" in problem["detail"]
    assert "'evil.example:" in problem["detail"]


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1", "[::1]:{port}", "LOCALHOST."])
@pytest.mark.parametrize("path", EVERY_KIND_OF_ROUTE)
async def test_a10a_a_loopback_service_with_tokens_answers_loopback_names(
    aiohttp_client: AiohttpClient, data_dir: Path, host: str, path: str
) -> None:
    client = await _serve(aiohttp_client, data_dir, "127.0.0.1")
    headers = {**BEARER, "Host": host.format(port=_port(client))}

    response = await client.get(path, headers=headers)

    assert response.status == 200, await response.text()


async def test_a10a_a_loopback_service_with_tokens_answers_names_in_allowed_hosts(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    """A reverse proxy on this machine passing its public name: the operator lists it."""
    client = await _serve(aiohttp_client, data_dir, "127.0.0.1", ("memory.example.com",))
    for path in ("/", "/api/me"):
        proxied = {**BEARER, "Host": "Memory.Example.com"}
        assert (await client.get(path, headers=proxied)).status == 200
    other = {**BEARER, "Host": "other.example.com"}
    await expect_problem(await client.get("/", headers=other), 403, "(Host rule")


async def test_a10a_a_loopback_service_without_tokens_refuses_a_rebound_host_on_the_page_too(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    """Without tokens ``/api/`` refused it already; the page and its files now do too."""
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    rebound = {"Host": f"evil.example:{_port(client)}"}
    for path in ("/", "/static/app.css", "/healthz"):
        await expect_problem(await client.get(path, headers=rebound), 403, "(Host rule")
    assert (await client.get("/", headers={"Host": f"localhost:{_port(client)}"})).status == 200


@pytest.mark.parametrize("bind", ["0.0.0.0", "::", "192.168.1.5"])  # noqa: S104
async def test_a10a_a_service_bound_beyond_loopback_answers_any_host_with_tokens(
    aiohttp_client: AiohttpClient, data_dir: Path, bind: str
) -> None:
    """A proxy or a probe reaching a container may name it as it likes: the token is checked."""
    client = await _serve(aiohttp_client, data_dir, bind)
    for path in EVERY_KIND_OF_ROUTE:
        named = {**BEARER, "Host": "memory.example.com"}
        assert (await client.get(path, headers=named)).status == 200, path
    await expect_problem(
        await client.get("/api/me", headers={"Host": "memory.example.com"}), 401, "bearer token"
    )
