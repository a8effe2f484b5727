"""A-10a: tokens another account could have moved away, emptied or replaced are never trusted.

A token folder is only as safe as the folders the kernel walks to reach it. With the data dir
``chmod 777`` (no sticky bit), any local account could ``mv tokens tokens.old``: a loopback
service then read "no token folder" as the open mode and served every memory to that account,
which could not read a single file of it on disk (measured: ``runuser -u nobody -- mv …``, then
``GET …/files/time-zone.md`` 200 without a token). Or it puts a folder of its own there, with a
token of its own. So whatever such a folder lists (tokens, none, no folder at all) cannot be
judged: 503, naming the folder at fault in the log and not to the client, until it is made
owner-only; the environment's tokens, which no account can change, still pass.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import Settings, SettingsError
from memory_api.store.tokens import TokenStore
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, bearer, expect_problem, ok_json

UNREADABLE = "bearer tokens cannot be read"
MOVABLE = "lies below a folder which every account may write (mode 0777, no sticky bit"
ENV = "env-secret-0123456789abcdefgh"


def _chmod(folder: Path, mode: int) -> None:
    folder.chmod(mode)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder holding the data dir, owner-only like any home."""
    path = tmp_path / "home"
    path.mkdir(mode=0o700)
    return path


async def _served(aiohttp_client: AiohttpClient, data_dir: Path, *env: TokenEntry) -> Client:
    return await aiohttp_client(create_app(Settings(data_dir=data_dir, env_tokens=env)))


async def test_a10a_a_data_dir_every_account_may_write_never_opens_when_its_tokens_are_moved_away(
    aiohttp_client: AiohttpClient, home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data_dir = home / "data"
    data_dir.mkdir()
    _, secret = TokenStore(data_dir).create("ops", None)
    client = await _served(aiohttp_client, data_dir)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"

    data_dir.chmod(0o777)
    caplog.set_level(logging.ERROR, logger="memory_api.store.tokens")
    for headers in ({}, bearer(secret)):
        body = await expect_problem(
            await client.get("/api/projects", headers=headers), 503, MOVABLE
        )
        assert str(data_dir) not in body["detail"]  # the client is not told where the data is
    assert f"tokens/ lies below {data_dir}, which every account may write" in caplog.text

    (data_dir / "tokens").rename(data_dir / "tokens.old")  # what any account could now do
    await expect_problem(await client.get("/api/projects"), 503, MOVABLE)
    (data_dir / "tokens").mkdir()  # or an empty folder of its own in its place
    await expect_problem(await client.get("/api/projects"), 503, MOVABLE)
    ready = await client.get("/readyz")
    assert ready.status == 503 and "no sticky bit" in await ready.text()

    data_dir.chmod(0o755)  # the operator's fix: the folder says again what the owner left
    assert (await ok_json(await client.get("/api/me")))["name"] == "local"
    (data_dir / "tokens").rmdir()
    (data_dir / "tokens.old").rename(data_dir / "tokens")
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"
    await expect_problem(await client.get("/api/me"), 401, "bearer token")


async def test_a10a_a_folder_above_the_data_dir_every_account_may_write_is_judged_too(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    """Any folder on the way counts, as written and where a symlink leads: renaming the data
    dir's parent is as good as renaming the token folder."""
    shared = home / "shared"
    (shared / "memory" / "data").mkdir(parents=True)
    data_dir = shared / "memory" / "data"
    _, secret = TokenStore(data_dir).create("ops", None)
    link = home / "data-link"
    link.symlink_to(data_dir)
    client = await _served(aiohttp_client, link)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"

    shared.chmod(0o777)  # reached only through the symlink's target
    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, MOVABLE)
    shared.chmod(0o755)
    _chmod(home, 0o777)  # the folder holding the symlink itself
    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, MOVABLE)
    _chmod(home, 0o700)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"


async def test_a10a_a_sticky_folder_every_account_may_write_keeps_what_the_owner_put_there(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    """With the sticky bit (``/tmp``'s ``1777``) only an entry's owner may move it: a data
    dir of the service's own user in such a folder is trusted; a token folder without the
    sticky bit that every account may write is not, even empty (its files could have been
    removed), while a sticky one without tokens stays the open loopback service."""
    _chmod(home, 0o1777)
    data_dir = home / "data"
    data_dir.mkdir()
    (data_dir / "tokens").mkdir()
    client = await _served(aiohttp_client, data_dir)
    assert (await ok_json(await client.get("/api/me")))["name"] == "local"

    (data_dir / "tokens").chmod(0o777)
    body = await expect_problem(await client.get("/api/me"), 503, UNREADABLE)
    assert "can be written by every account (mode 0777)" in body["detail"]
    (data_dir / "tokens").chmod(0o1777)
    assert (await ok_json(await client.get("/api/me")))["name"] == "local"


async def test_a10a_the_environment_s_tokens_pass_under_a_folder_every_account_may_write(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    data_dir = home / "data"
    data_dir.mkdir()
    _, secret = TokenStore(data_dir).create("ops", None)
    env = TokenEntry(name="env", sha256=hash_secret(ENV))
    client = await _served(aiohttp_client, data_dir, env)
    data_dir.chmod(0o777)
    assert (await ok_json(await client.get("/api/me", headers=bearer(ENV))))["name"] == "env"
    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, MOVABLE)


def test_a10a_a_tokens_file_below_a_folder_every_account_may_write_stops_the_start(
    home: Path,
) -> None:
    """``MEMORY_API_TOKENS_FILE`` is read at start: a file another account could have put in
    its place is no more trusted than one it may write (the start stops, naming the folder)."""
    secrets_dir = home / "secrets"
    secrets_dir.mkdir()
    path = secrets_dir / "tokens"
    path.write_text(f"ci={ENV}\n", encoding="utf-8")
    path.chmod(0o600)
    secrets_dir.chmod(0o777)
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})
    assert f"{path} lies below {secrets_dir}, which every account may write" in str(refused.value)

    secrets_dir.chmod(0o1777)  # sticky, and the file the service's own: only it may move it
    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})
    assert [entry.name for entry in settings.env_tokens] == ["ci"]
