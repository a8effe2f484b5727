"""A-10a: every folder the kernel walks to a token source is judged, links followed one by one.

Only two ways were judged: the path as written and its fully resolved real path. A symlink
halfway was never looked at: ``tokens/ops.json -> home/shared/link/ops.json``, with
``home/shared`` mode ``0777`` and ``shared/link -> home/safe``, answered 200 with the token,
and once another account replaced ``shared/link`` with a link to a folder of its own holding
a token record of its own, its secret got 200 with full access (measured). Likewise a
``MEMORY_API_TOKENS_FILE`` reached through such a link started without a word. Right: the
walk follows each link as the kernel does (the link's own folder, then its target's folders
as written, relative ones from the link's folder, ``..`` after the folder a link led to),
up to the kernel's 40 links; a loop, or more links than that, cannot be looked at and is
never trusted.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings, SettingsError
from memory_api.store.tokens import TokenStore
from memory_api.world_writable import movable_by_others
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, bearer, expect_problem, ok_json

UNREADABLE = "bearer tokens cannot be read"
LOOP = f"cannot be looked at ({os.strerror(errno.ELOOP)})"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder holding the data dir and the links' targets, owner-only like any home."""
    path = tmp_path / "home"
    path.mkdir(mode=0o700)
    return path


def _folder(path: Path, mode: int = 0o755) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(mode)
    return path


def _token_record(data_dir: Path, into: Path) -> tuple[Path, str]:
    """A token ``ops`` made in ``data_dir``, its file moved into the folder ``into``: the
    token folder's file path (now free for a link) and the secret."""
    _, secret = TokenStore(data_dir).create("ops", None)
    token_file = data_dir / "tokens" / "ops.json"
    token_file.rename(_folder(into) / "ops.json")
    return token_file, secret


async def _served(aiohttp_client: AiohttpClient, data_dir: Path) -> Client:
    return await aiohttp_client(create_app(Settings(data_dir=data_dir)))


async def test_a10a_a_token_file_reached_through_a_link_in_a_folder_others_may_write_is_refused(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    """The reviewer's case: the way to the file passes a link lying in a ``0777`` folder."""
    data_dir = _folder(home / "data")
    token_file, secret = _token_record(data_dir, home / "safe")
    shared = _folder(home / "shared", 0o777)
    (shared / "link").symlink_to(home / "safe")
    token_file.symlink_to(shared / "link" / "ops.json")
    client = await _served(aiohttp_client, data_dir)

    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, UNREADABLE)

    # what any account could do there: a link of its own to a record of its own
    _, theirs = _token_record(_folder(home / "attacker-data"), home / "attacker")
    (shared / "link").unlink()
    (shared / "link").symlink_to(home / "attacker")
    await expect_problem(await client.get("/api/me", headers=bearer(theirs)), 503, UNREADABLE)

    (shared / "link").unlink()
    (shared / "link").symlink_to(home / "safe")
    shared.chmod(0o755)  # the operator's fix: the way is owner-only again
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"


def test_a10a_a_tokens_file_reached_through_a_link_in_a_folder_others_may_write_stops_the_start(
    home: Path,
) -> None:
    """``MEMORY_API_TOKENS_FILE`` = ``etc/tokens -> ../shared/link/tokens``, ``shared`` 0777."""
    safe = _folder(home / "safe")
    (safe / "tokens").write_text("ci=env-secret-0123456789abcdefgh\n", encoding="utf-8")
    (safe / "tokens").chmod(0o600)
    shared = _folder(home / "shared", 0o777)
    (shared / "link").symlink_to("../safe")
    path = _folder(home / "etc") / "tokens"
    path.symlink_to("../shared/link/tokens")

    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    assert f"{path} lies below {shared}, which every account may write" in str(refused.value)
    shared.chmod(0o755)
    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})
    assert [entry.name for entry in settings.env_tokens] == ["ci"]


async def test_a10a_a_chain_of_three_links_is_judged_at_every_hop(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    """``ops.json -> hop1/ops.json -> hop2/ops.json -> hop3/ops.json``: the middle hop's
    folder, neither the token folder nor the real file's, is the one others may write."""
    data_dir = _folder(home / "data")
    token_file, secret = _token_record(data_dir, home / "hop3")
    for hop, target in (("hop2", "../hop3/ops.json"), ("hop1", "../hop2/ops.json")):
        (_folder(home / hop) / "ops.json").symlink_to(target)
    token_file.symlink_to(home / "hop1" / "ops.json")
    client = await _served(aiohttp_client, data_dir)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"

    (home / "hop2").chmod(0o777)
    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, UNREADABLE)
    (home / "hop2").chmod(0o755)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"


async def test_a10a_dot_dot_in_a_link_target_is_walked_as_the_kernel_walks_it(
    aiohttp_client: AiohttpClient, home: Path
) -> None:
    """``..`` goes up from the folder a link led to, not from the name as written: through
    ``home/shared`` (``0777``) back up is refused; ``elsewhere/../safe`` with
    ``elsewhere -> deep/er/x`` lands in ``deep/er/safe`` (owner-only), not in the ``0777``
    ``home/safe`` the spelling suggests."""
    data_dir = _folder(home / "data")
    token_file, secret = _token_record(data_dir, home / "deep" / "er" / "safe")
    _folder(home / "safe", 0o777)
    (home / "deep" / "er" / "x").mkdir()
    (home / "elsewhere").symlink_to("deep/er/x")
    token_file.symlink_to("../../elsewhere/../safe/ops.json")
    client = await _served(aiohttp_client, data_dir)
    assert (await ok_json(await client.get("/api/me", headers=bearer(secret))))["name"] == "ops"

    _folder(home / "shared" / "sub", 0o755)
    (home / "shared").chmod(0o777)
    token_file.unlink()
    token_file.symlink_to("../../shared/sub/../../deep/er/safe/ops.json")
    await expect_problem(await client.get("/api/me", headers=bearer(secret)), 503, UNREADABLE)


def test_a10a_a_link_loop_on_the_way_cannot_be_looked_at(home: Path) -> None:
    (home / "a").symlink_to("b")
    (home / "b").symlink_to("a")

    for path in (home / "a", home / "a" / "tokens"):
        folder, why = movable_by_others(str(path)) or ("", "trusted")
        assert (folder in {str(home / "a"), str(home / "b")}, why) == (True, LOOP), path


@pytest.mark.parametrize(("links", "answer"), [(40, None), (41, LOOP)])
def test_a10a_links_are_followed_as_far_as_the_kernel_follows_them(
    home: Path, links: int, answer: str | None
) -> None:
    """The kernel follows 40 links on one walk and answers ELOOP past them: so does the walk."""
    (home / "file").write_text("", encoding="utf-8")
    (home / "link0").symlink_to("file")
    for number in range(1, links):
        (home / f"link{number}").symlink_to(f"link{number - 1}")
    path = str(home / f"link{links - 1}")
    try:
        Path(path).stat()
        kernel = None
    except OSError as error:
        kernel = LOOP if error.errno == errno.ELOOP else str(error)

    judged = movable_by_others(path)

    assert (kernel, judged and judged[1]) == (answer, answer)
