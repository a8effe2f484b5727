"""A-10 bearer tokens: hashed, limited to projects, 404 across projects, loopback without any."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.http.auth import BindRefused, bind_decision
from memory_api.http.bind_address import resolve_bind
from memory_api.settings import Settings
from memory_api.store.tokens import TokenStore
from multidict import CIMultiDict
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, bearer, create_agent, expect_problem, ok_json

ADMIN = "admin-secret-0123456789abcdef"
ACME_BOT = "acme-bot-secret-0123456789ab"


@pytest.fixture
def token_settings(data_dir: Path) -> Settings:
    """Settings with an all-projects token and one limited to project ``acme``."""
    return Settings(
        data_dir=data_dir,
        chat_url="https://chat.example/new?draft={draftId}",
        env_tokens=(
            TokenEntry(name="admin", sha256=hash_secret(ADMIN)),
            TokenEntry(name="acme-bot", sha256=hash_secret(ACME_BOT), projects=("acme",)),
        ),
    )


@pytest.fixture
async def secured(aiohttp_client: AiohttpClient, token_settings: Settings) -> Client:
    """A client of a service with tokens; agents acme/coder and globex/spy exist."""
    client = await aiohttp_client(create_app(token_settings))
    client.session.headers.update(bearer(ADMIN))
    await create_agent(client, "coder", project="acme")
    await create_agent(client, "spy", project="globex")
    client.session.headers.pop("Authorization")
    return client


async def test_a10_no_token_is_401_with_bearer_challenge(secured: Client) -> None:
    response = await secured.get("/api/projects/acme/agents")
    await expect_problem(response, 401, "needs a bearer token")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header",
    [f"Bearer {ADMIN}x", "Bearer ", f"Basic {ADMIN}", ADMIN, "Bearer wrong-secret-000000000"],
)
async def test_a10_wrong_token_is_401(secured: Client, header: str) -> None:
    response = await secured.get("/api/me", headers={"Authorization": header})
    assert response.status == 401
    assert response.content_type == "application/problem+json"


@pytest.mark.parametrize(
    ("header", "kind"),
    [
        (None, "bearer-token-missing"),
        (f"Basic {ADMIN}", "bearer-token-missing"),
        ("Bearer wrong-secret-000000000", "bearer-token-unknown"),
    ],
)
async def test_a10_a_401_names_its_kind_in_the_problem_type(
    secured: Client, header: str | None, kind: str
) -> None:
    """A client (the page's token prompt) tells a missing token from an unknown one by the
    problem's ``type`` (RFC 9457), not by the words of its ``detail``, which are for a person."""
    headers = {} if header is None else {"Authorization": header}
    body = await expect_problem(await secured.get("/api/me", headers=headers), 401, "token")
    assert body["type"] == f"tag:agent-memory,2026:problem/{kind}"


@pytest.mark.parametrize(
    "headers",
    [(ACME_BOT, ADMIN), (ADMIN, ADMIN), ("wrong-secret-000000000", ADMIN)],
    ids=["narrow-then-wide", "the-same-twice", "wrong-then-right"],
)
async def test_a10_several_authorization_headers_are_400_never_one_of_them(
    secured: Client, headers: tuple[str, str]
) -> None:
    """Which of two ``Authorization`` headers counts is a guess a proxy in front may make the
    other way (one it adds, one the client sent): neither passes."""
    sent = CIMultiDict(("Authorization", f"Bearer {secret}") for secret in headers)
    response = await secured.get("/api/projects/globex/agents", headers=sent)
    body = await expect_problem(response, 400, "carries 2 Authorization headers; send exactly one")
    assert ADMIN not in body["detail"]


async def test_a10_unknown_route_under_api_needs_a_token_first(secured: Client) -> None:
    await expect_problem(await secured.get("/api/nothing-here"), 401, "bearer")


async def test_a10_limited_token_sees_its_project(secured: Client) -> None:
    body = await ok_json(await secured.get("/api/projects/acme/agents", headers=bearer(ACME_BOT)))
    assert [a["id"] for a in body["agents"]] == ["coder"]


async def test_a10_other_project_is_404_not_403(secured: Client) -> None:
    headers = bearer(ACME_BOT)
    existing = await secured.get("/api/projects/globex/agents/spy/config", headers=headers)
    missing = await secured.get("/api/projects/globex/agents/nobody/config", headers=headers)
    body = await expect_problem(existing, 404, "no agent 'spy' in project 'globex'")
    await expect_problem(missing, 404, "no agent 'nobody' in project 'globex'")
    await expect_problem(
        await secured.get("/api/projects/globex/agents", headers=headers), 404, "no project"
    )
    memory = await secured.get("/api/projects/globex/agents/spy/memory", headers=headers)
    await expect_problem(memory, 404, "no agent 'spy'")
    assert "403" not in str(body)


async def test_a10_limited_token_cannot_create_elsewhere(secured: Client) -> None:
    response = await secured.post(
        "/api/projects/globex/agents", json={"id": "mole", "name": "M"}, headers=bearer(ACME_BOT)
    )
    await expect_problem(response, 404, "no project 'globex'")


async def test_a10_a_create_can_tell_an_agent_id_of_another_project_is_taken_and_no_more(
    secured: Client,
) -> None:
    """The documented limit (docs/security.md): agent ids are unique across projects, so a
    limited token creating ``spy`` in its own project learns the id is taken (409), and nothing
    else: not the project holding it, nor anything of that agent, which stays 404 to it."""
    taken = await secured.post(
        "/api/projects/acme/agents", json={"id": "spy", "name": "S"}, headers=bearer(ACME_BOT)
    )
    body = await expect_problem(taken, 409, "the agent id 'spy' is taken")
    assert "globex" not in str(body)
    config = await secured.get("/api/projects/acme/agents/spy/config", headers=bearer(ACME_BOT))
    await expect_problem(config, 404, "no agent 'spy'")


async def test_a10_all_projects_token_reaches_every_project(secured: Client) -> None:
    for project, agent in (("acme", "coder"), ("globex", "spy")):
        url = f"/api/projects/{project}/agents/{agent}/config"
        await ok_json(await secured.get(url, headers=bearer(ADMIN)))


async def test_a10_me_names_the_token_and_its_reach(secured: Client) -> None:
    me = await ok_json(await secured.get("/api/me", headers=bearer(ACME_BOT)))
    assert me == {
        "name": "acme-bot",
        "projects": ["acme"],
        "chatUrlTemplate": "https://chat.example/new?draft={draftId}",
    }
    admin = await ok_json(await secured.get("/api/me", headers=bearer(ADMIN)))
    assert admin["name"] == "admin" and admin["projects"] is None


async def test_a10_projects_lists_only_visible_ones(secured: Client) -> None:
    limited = await ok_json(await secured.get("/api/projects", headers=bearer(ACME_BOT)))
    assert limited == {"projects": ["acme"]}
    everything = await ok_json(await secured.get("/api/projects", headers=bearer(ADMIN)))
    assert everything == {"projects": ["acme", "globex"]}


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/openapi.json", "/"])
async def test_a10_operations_and_page_need_no_token(secured: Client, path: str) -> None:
    response = await secured.get(path)
    assert response.status == 200, await response.text()


async def test_a10_static_files_need_no_token(secured: Client) -> None:
    response = await secured.get("/static/icon.svg")
    assert response.status == 200


async def test_a10_me_without_tokens_is_local(client: Client) -> None:
    me = await ok_json(await client.get("/api/me"))
    assert me == {"name": "local", "projects": None, "chatUrlTemplate": None}


async def test_a10_token_files_are_read_per_request(client: Client, data_dir: Path) -> None:
    """A token made by the CLI (another process) takes effect without a restart (Q-4)."""
    await ok_json(await client.get("/api/me"))
    store = TokenStore(data_dir)
    _, secret = store.create("ci", ("acme",))
    await expect_problem(await client.get("/api/me"), 401, "bearer")
    me = await ok_json(await client.get("/api/me", headers=bearer(secret)))
    assert me["name"] == "ci" and me["projects"] == ["acme"]
    store.revoke("ci")
    assert (await ok_json(await client.get("/api/me")))["name"] == "local"


async def test_a10_token_file_holds_only_the_hash(data_dir: Path) -> None:
    entry, secret = TokenStore(data_dir).create("ops", None)
    raw = (data_dir / "tokens" / "ops.json").read_text(encoding="utf-8")
    assert secret not in raw
    assert entry.sha256 == hash_secret(secret) and entry.sha256 in raw
    assert len(secret) >= 40


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.8.9.1", "::1", "[::1]", "0:0::1", "127.1", "::ffff:127.0.0.1",
     "localhost", "LOCALHOST"],
)  # fmt: skip
def test_a10_without_tokens_a_host_binding_only_loopback_binds(host: str) -> None:
    """Judged by what the bind resolves the host to, not by its spelling."""
    bind = resolve_bind(host)
    assert bind.loopback_only
    assert "loopback only" in bind_decision(bind, tokens_configured=False)


@pytest.mark.parametrize(
    "host",
    ["0.0.0.0", "::", "192.168.1.5", "10.0.0.1", "", "::ffff:10.0.0.1"],  # noqa: S104 - refused
)
def test_a10_without_tokens_other_addresses_are_refused(host: str) -> None:
    with pytest.raises(BindRefused, match="is not loopback and no bearer token"):
        bind_decision(resolve_bind(host), tokens_configured=False)


def _resolver(*addresses: str) -> Callable[[str], list[str]]:
    """A stand-in for the resolver: every name gives ``addresses`` (as /etc/hosts would)."""
    return lambda _host: list(addresses)


@pytest.mark.parametrize(
    ("name", "addresses"),
    [("ip6-localhost", ("::1",)), ("localhost.localdomain", ("127.0.0.1",)),
     ("memory-box", ("127.0.1.1",)), ("both", ("127.0.0.1", "::1", "127.0.0.1"))],
)  # fmt: skip
def test_a10_a_name_resolving_only_to_loopback_is_loopback(
    name: str, addresses: tuple[str, ...]
) -> None:
    bind = resolve_bind(name, _resolver(*addresses))
    assert bind.loopback_only
    assert bind.name == name
    assert "loopback only" in bind_decision(bind, tokens_configured=False)


def test_a10_a_name_resolving_to_loopback_and_beyond_is_not_loopback() -> None:
    bind = resolve_bind("mixed-box", _resolver("127.0.0.1", "192.168.1.5", "fe80::1%eth0"))
    assert not bind.loopback_only
    with pytest.raises(BindRefused) as refused:
        bind_decision(bind, tokens_configured=False)
    assert str(refused.value).startswith(
        "refusing to bind mixed-box (127.0.0.1, 192.168.1.5, fe80::1%eth0): 192.168.1.5, "
        "fe80::1%eth0 is not loopback and no bearer token is configured"
    )  # the scope is named: a link-local address is bound with it
    assert "binding mixed-box (127.0.0.1, 192.168.1.5, fe80::1%eth0)" in bind_decision(bind, True)


def _unresolvable(host: str) -> list[str]:
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.mark.parametrize("tokens", [False, True])
def test_a10_a_host_that_resolves_to_nothing_is_refused_with_or_without_tokens(
    tokens: bool,
) -> None:
    bind = resolve_bind("no-such-host.invalid", _unresolvable)
    assert not bind.loopback_only
    with pytest.raises(
        BindRefused, match=r"it resolves to no address \(Name or service not known\)"
    ):
        bind_decision(bind, tokens_configured=tokens)


def test_a10_with_tokens_any_address_binds() -> None:
    assert "needs a token" in bind_decision(resolve_bind("0.0.0.0"), tokens_configured=True)  # noqa: S104


async def test_a10_public_bind_fails_closed_when_tokens_disappear(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    settings = Settings(data_dir=data_dir, host="0.0.0.0")  # noqa: S104 - only a setting here
    client = await aiohttp_client(create_app(settings))
    body = await expect_problem(await client.get("/api/me"), 401, "no bearer token is configured")
    assert body["type"] == "tag:agent-memory,2026:problem/no-token-configured"
    assert (await client.get("/healthz")).status == 200
