"""A-10a: a container published on the host's loopback refuses a rebound ``Host`` too.

``docker compose up`` (docs/deploy.md) runs the service bound to ``0.0.0.0`` inside its
container, as it must for the container's network, and publishes it on the host's
``127.0.0.1:8765`` only. To the user's browser it is a service on loopback, yet a service bound
beyond loopback answered every ``Host``: a page of ``evil.example`` rebound to ``127.0.0.1``
got the real page at ``http://evil.example:8765/`` (200), where the token prompt sat under the
attacker's origin, the very attack the Host rule closes for a loopback bind. Now
``MEMORY_API_ALLOWED_HOSTS``, when set, holds the service to the Host rule whatever it is bound
to (loopback names, the bind host's own name, the names listed), and the compose file lists
the one name the harness container uses (``memory-api``). Unset, a service bound beyond
loopback answers any ``Host`` as before: a kubelet's probes name the pod's IP.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, expect_problem

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
SECRET = "published-secret-0123456789abcdef"
BEARER = {"Authorization": f"Bearer {SECRET}"}
EVERY_KIND_OF_ROUTE = ["/", "/static/app.css", "/api/me", "/healthz", "/metrics", "/openapi.json"]


def _compose() -> dict[str, dict[str, dict[str, object]]]:
    loaded: dict[str, dict[str, dict[str, object]]] = yaml.safe_load(
        COMPOSE.read_text(encoding="utf-8")
    )
    return loaded


def _allowed_in_compose() -> tuple[str, ...]:
    environment = _compose()["services"]["memory-api"]["environment"]
    assert isinstance(environment, dict)
    raw = str(environment.get("MEMORY_API_ALLOWED_HOSTS", ""))
    return tuple(name.strip() for name in raw.split(",") if name.strip())


async def _container(aiohttp_client: AiohttpClient, data_dir: Path) -> Client:
    """The app as the compose file starts it: bound to ``0.0.0.0``, one token, its hosts."""
    settings = Settings(
        data_dir=data_dir,
        host="0.0.0.0",  # noqa: S104 - the container's bind
        env_tokens=(TokenEntry(name="admin", sha256=hash_secret(SECRET)),),
        allowed_hosts=_allowed_in_compose(),
    )
    return await aiohttp_client(create_app(settings))


def test_a10a_the_compose_service_is_published_on_loopback_and_names_its_hosts() -> None:
    services = _compose()["services"]
    ports = services["memory-api"]["ports"]
    assert isinstance(ports, list)
    assert ports and all(str(port).startswith("127.0.0.1:") for port in ports)
    environment = services["harness"]["environment"]
    assert isinstance(environment, dict)
    harness_host = urlsplit(str(environment["HARNESS_MEMORY_URL"])).hostname

    assert harness_host in _allowed_in_compose()


@pytest.mark.parametrize("path", EVERY_KIND_OF_ROUTE)
async def test_a10a_a_published_container_refuses_a_rebound_host_on_every_route(
    aiohttp_client: AiohttpClient, data_dir: Path, path: str
) -> None:
    client = await _container(aiohttp_client, data_dir)
    headers = {**BEARER, "Host": "evil.example:8765"}

    problem = await expect_problem(await client.get(path, headers=headers), 403, "(Host rule")

    assert "MEMORY_API_ALLOWED_HOSTS" in problem["detail"]
    assert "'evil.example:8765'" in problem["detail"]
    assert "listens only on loopback" not in problem["detail"]


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "memory-api:8765"])
async def test_a10a_a_published_container_answers_the_host_and_the_harness_container(
    aiohttp_client: AiohttpClient, data_dir: Path, host: str
) -> None:
    client = await _container(aiohttp_client, data_dir)

    for path in ("/", "/api/me"):
        response = await client.get(path, headers={**BEARER, "Host": host})
        assert response.status == 200, await response.text()


async def test_a10a_a_service_beyond_loopback_without_allowed_hosts_answers_any_host(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    """A pod: its kubelet's probes and an Ingress name it as they like."""
    settings = Settings(
        data_dir=data_dir,
        host="0.0.0.0",  # noqa: S104 - a pod's bind
        env_tokens=(TokenEntry(name="admin", sha256=hash_secret(SECRET)),),
    )
    client = await aiohttp_client(create_app(settings))

    response = await client.get("/readyz", headers={"Host": "10.1.2.3:8765"})

    assert response.status == 200, await response.text()
