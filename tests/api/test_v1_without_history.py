"""V-1 when no history can be kept: turned off by the operator, or git missing.

Off (``MEMORY_API_HISTORY=off``), deletes are final as before and the versions routes say no
history is kept. Without git (history on), a delete is refused (503, nothing deleted) rather
than made final, the versions routes answer 503 naming git, and Session starts still work.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.sync import backend
from memory_core import layout
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    create_agent,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)
from tests.support.serve import serve


async def test_v1_history_off_deletes_as_before_and_keeps_nothing(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir, history=False)))
    await create_agent(client)
    user = layout.scope_dir(data_dir, "coder", "user")
    write_topic(user, "f.md")

    await ok_json(await client.delete(file_url("user", "f.md")))

    assert not (user / "f.md").exists()
    assert not layout.history_root(data_dir, "coder").exists()
    await expect_problem(
        await client.get(f"{memory_url()}/scopes/user/changes"), 404, "keeps no history"
    )
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["historyBytes"] == 0


def _call(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(  # noqa: S310 - loopback only
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


NO_GIT_DETAIL = (
    "history is not available: the git program is not installed; an operator must install git "
    "(on the service's PATH), or set MEMORY_API_HISTORY=off to keep no history (deletes are "
    "then final), and restart the service"
)


def test_v1_without_git_a_delete_is_refused_not_made_final(data_dir: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bin"  # a PATH holding python but no git
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    assert shutil.which("git", path=str(bare)) is None
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    env["PATH"] = str(bare)
    service = serve(data_dir, env)
    try:
        base = service.base_url
        status, _ = _call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})
        assert status == 201
        user = layout.scope_dir(data_dir, "coder", "user")
        write_topic(user, "f.md")

        status, problem = _call(base, "DELETE", file_url("user", "f.md"))
        assert (status, problem["detail"]) == (503, NO_GIT_DETAIL)
        assert (user / "f.md").exists()
        for path in (  # every history answer says what is wrong and what an operator does
            f"{memory_url()}/scopes/user/changes",
            f"{memory_url()}/scopes/user/files/f.md/history",
            f"{memory_url()}/git/user.git/info/refs?service=git-upload-pack",
        ):
            status, problem = _call(base, "GET", path)
            assert (status, problem["detail"]) == (503, NO_GIT_DETAIL), path
        status, problem = _call(base, "POST", f"{memory_url()}/checkpoint")
        assert (status, problem["detail"]) == (503, NO_GIT_DETAIL)
        status, started = _call(
            base, "POST", f"{memory_url()}/session-start", {"workspace": str(tmp_path)}
        )
        assert status == 200
        assert started["enabled"] is True
    finally:
        service.stop()
    assert "git is not installed" in service.log_text()


@pytest.mark.parametrize("value", ["off", "false", "0"])
def test_v1_history_switch_reads_off(data_dir: Path, value: str) -> None:
    env = {"MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_HISTORY": value}
    assert Settings.from_env(env).history is False


def test_v1_without_git_the_sync_backend_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-1: the git backend of a machine's fetch or push, started without a ``git`` program,
    refuses with the same words as every history answer (what to install, or what to set)."""
    monkeypatch.setattr(backend, "git_program", lambda: None)

    with pytest.raises(HistoryUnavailable) as refused:
        backend.cgi_command()

    assert refused.value.detail == NO_GIT_DETAIL
