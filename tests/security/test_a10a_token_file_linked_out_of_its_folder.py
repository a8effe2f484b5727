"""A-10a: a token file that is a symlink is only as safe as the folders on its target's way.

A token file lying in a folder every account may write is never trusted (another account
could put its own hash there), yet ``tokens/ops.json -> /srv/shared/ops.json`` with
``/srv/shared`` mode ``0777`` was: the file's own mode and owner were judged, not the folder
it lies in, so any account could ``rm`` it and write a record of its own with a hash of its
own secret and no project limit, and reach every project (measured on a live service: the
link into a ``0777`` folder, a ``1777`` one owned by another account, one below a ``0777``
folder: each 200 with the token). Right: such a token file is one that cannot be trusted,
503 like a token file every account may write, naming the folder in the log only; a symlink
whose way is owner-only (a Kubernetes Secret's ``..data`` link inside the token folder) still
passes.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store.tokens import TokenStore
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, bearer, expect_problem, ok_json

UNREADABLE = "bearer tokens cannot be read"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder holding the data dir and the link's target, owner-only like any home."""
    path = tmp_path / "home"
    path.mkdir(mode=0o700)
    return path


def _linked_token(home: Path, target_folder: Path) -> tuple[Path, str]:
    """A data dir whose one token file ``ops.json`` is moved into ``target_folder`` and
    linked back; the data dir and its secret."""
    data_dir = home / "data"
    data_dir.mkdir()
    _, secret = TokenStore(data_dir).create("ops", None)
    token_file = data_dir / "tokens" / "ops.json"
    target_folder.mkdir(parents=True, exist_ok=True)
    token_file.rename(target_folder / "ops.json")
    token_file.symlink_to(target_folder / "ops.json")
    return data_dir, secret


async def _served(aiohttp_client: AiohttpClient, data_dir: Path) -> Client:
    return await aiohttp_client(create_app(Settings(data_dir=data_dir)))


@pytest.mark.parametrize(
    ("way", "mode"),
    [("shared", 0o777), ("shared/inner", 0o777)],
    ids=["its-folder-0777", "a-folder-above-it-0777"],
)
async def test_a10a_a_token_file_linked_into_a_folder_others_may_write_is_not_trusted(
    aiohttp_client: AiohttpClient,
    home: Path,
    caplog: pytest.LogCaptureFixture,
    way: str,
    mode: int,
) -> None:
    data_dir, secret = _linked_token(home, home / way)
    client = await _served(aiohttp_client, data_dir)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"

    (home / "shared").chmod(mode)  # any account may now rm ops.json and write its own
    caplog.set_level(logging.ERROR, logger="memory_api.store.tokens")
    for headers in ({}, bearer(secret)):
        body = await expect_problem(
            await client.get("/api/projects", headers=headers), 503, UNREADABLE
        )
        assert str(home) not in body["detail"]  # the log names where, not the client
    assert f"{home / 'shared'}" in caplog.text

    (home / "shared").chmod(0o755)  # the operator's fix: the token is trusted again
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"


async def test_a10a_a_token_file_linked_inside_its_own_folder_still_passes(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    data_dir, secret = _linked_token(home, home / "data" / "tokens" / "..data")

    client = await _served(aiohttp_client, data_dir)

    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"
