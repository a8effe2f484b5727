"""Q-4: a kept Session-start answer (``store/session_memo.py``) is never given for changed files.

The service keeps each Session start's answer, per agent and Workspace path, with the ``lstat``
of every folder and file it was built from, and answers a warm Session start on the event loop.
Here, after a first Session start fills it, the agent's settings, the Workspace's symlink, the
scope folders, the marker and the token files change on disk the way another process would,
and the very next request must show the change. The 2 s "racily fresh" rule is lifted so the
files these tests write a moment earlier are kept at all.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from memory_api.appkeys import get_memory_store
from memory_api.store import no_symlinks, stat_cache
from memory_api.store.session_memo import SessionMemo
from memory_api.store.tokens import TokenStore
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, real


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


async def _start(client: Client, workspace: Path | str) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


def _memo(client: Client) -> SessionMemo:
    return get_memory_store(client.app).sessions


async def test_q4_a_warm_session_start_is_the_kept_answer(client: Client, agent: AgentHome) -> None:
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [A](a.md) — note\n", encoding="utf-8")
    first = await _start(client, workspace)
    assert len(_memo(client)) == 1
    assert await _start(client, workspace) == first


async def test_q4_session_start_sees_agent_settings_changed_on_disk(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [A](a.md) — note\n", encoding="utf-8")
    assert (await _start(client, workspace))["injected"] is True

    settings = layout.agent_dir(agent.data_dir, agent.id) / "agent.json"
    stored = json.loads(settings.read_text(encoding="utf-8"))
    stored["memory"]["enabled"] = False  # as another service process's PATCH would leave it
    settings.write_text(json.dumps(stored), encoding="utf-8")

    answer = await _start(client, workspace)
    assert answer["enabled"] is False and answer["injected"] is False and answer["memory"] == ""


async def test_q4_session_start_follows_a_workspace_symlink_repointed(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    first, first_key = agent.workspace("one")
    second, second_key = agent.workspace("two")
    link = tmp_path / "current"
    link.symlink_to(first)
    assert (await _start(client, link))["key"] == first_key

    link.unlink()
    link.symlink_to(second)  # `ln -sfn`: the same path now names another Workspace (K-1)
    assert (await _start(client, link))["key"] == second_key


async def test_q4_session_start_recreates_a_scope_removed_on_disk(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    workspace = tmp_path / "fresh"
    workspace.mkdir()
    key = key_for_real_path(real(workspace))
    await _start(client, workspace)
    scope = agent.root / key
    marker = scope / layout.MARKER_FILE
    assert marker.read_text(encoding="utf-8") == real(workspace) + "\n"

    marker.unlink()
    scope.rmdir()  # the agent cleaned up its memory folder by hand
    await _start(client, workspace)
    assert marker.read_text(encoding="utf-8") == real(workspace) + "\n"  # K-5


async def test_q4_session_start_sees_the_user_index_replaced(
    client: Client, agent: AgentHome
) -> None:
    workspace, _ = agent.workspace("app")
    index = agent.user / layout.INDEX_FILE
    agent.user.mkdir(parents=True, exist_ok=True)
    index.write_text("- [Old](old.md) — old user note\n", encoding="utf-8")
    assert "old user note" in (await _start(client, workspace))["memory"]

    swap = agent.user / "MEMORY.md.tmp"
    swap.write_text("- [New](new.md) — new user note\n", encoding="utf-8")
    swap.replace(index)  # an atomic replace, as editors save
    memory = (await _start(client, workspace))["memory"]
    assert "new user note" in memory and "old user note" not in memory


async def test_q4_an_answer_read_through_a_symlinked_index_is_not_kept(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    workspace, key = agent.workspace("app")
    outside = tmp_path / "elsewhere.md"
    outside.write_text("- [A](a.md) — linked\n", encoding="utf-8")
    (agent.root / key / layout.INDEX_FILE).symlink_to(outside)
    await _start(client, workspace)
    assert len(_memo(client)) == 0  # a link's target could change unseen


async def test_q4_a_token_file_edited_in_place_is_seen_by_the_next_request(
    client: Client, data_dir: Path
) -> None:
    """The token scan runs on the event loop while it is cheap; an edit is still seen (A-10)."""
    store = TokenStore(data_dir)
    _, secret = store.create("ci", ("acme",))
    headers = {"Authorization": f"Bearer {secret}"}
    assert (await ok_json(await client.get("/api/me", headers=headers)))["projects"] == ["acme"]
    assert (await ok_json(await client.get("/api/me", headers=headers)))["name"] == "ci"

    token_file = data_dir / "tokens" / "ci.json"
    stored = json.loads(token_file.read_text(encoding="utf-8"))
    stored["projects"] = ["globex"]
    token_file.write_text(json.dumps(stored), encoding="utf-8")
    assert (await ok_json(await client.get("/api/me", headers=headers)))["projects"] == ["globex"]


async def test_q4_a_kept_listing_row_follows_a_touch_and_a_credential_edit(
    client: Client, agent: AgentHome
) -> None:
    """Listing rows are kept with their parse (``TopicCache.summary``): a file touched or edited
    gets a new row, its new description masked (I-8)."""
    _, key = agent.workspace("app")
    topic = agent.root / key / "deploy.md"
    topic.write_text("---\nname: deploy\ndescription: how we ship\n---\nbody\n", encoding="utf-8")
    url = f"{memory_url()}/scopes/{key}/files"
    first = (await ok_json(await client.get(url)))["files"][0]

    later = topic.stat().st_mtime_ns + 60 * 10**9
    os.utime(topic, ns=(later, later))  # `touch -d`: only the times move
    touched = (await ok_json(await client.get(url)))["files"][0]
    assert touched["mtime"] != first["mtime"] and touched["description"] == "how we ship"

    topic.write_text(
        "---\nname: deploy\ndescription: token ghp_0123456789abcdefghijABCDEFGHIJ012345\n---\n",
        encoding="utf-8",
    )
    edited = (await ok_json(await client.get(url)))["files"][0]
    assert "ghp_0123456789abcdefghijABCDEFGHIJ012345" not in edited["description"]
    assert edited["size"] != first["size"]


async def test_q3_the_session_memo_is_bounded_by_answers_and_by_bytes(
    client: Client, agent: AgentHome
) -> None:
    """Q-3: no growth without bound — the least recently given answers go first."""
    memo = _memo(client)
    workspaces = [agent.workspace(f"w{number}")[0] for number in range(3)]
    memo._max = 2
    for workspace in workspaces:
        await _start(client, workspace)
    assert len(memo) == 2

    memo._max, memo._max_bytes = 100, memo._bytes * 3 // 4  # room for one and a half answers
    await _start(client, agent.workspace("w3")[0])
    assert len(memo) == 1


def test_q4_the_warm_check_agrees_with_the_probes(tmp_path: Path) -> None:
    """``_unchanged`` (the inlined warm check) says "unchanged" exactly when every probe does."""
    from memory_api.store.session_memo import _kept_probes, _snapshot, _unchanged

    folder, index, gone = tmp_path / "scope", tmp_path / "scope" / "MEMORY.md", tmp_path / "x"
    folder.mkdir()
    index.write_text("- [A](a.md) — a\n", encoding="utf-8")
    paths = ((str(folder), False), (str(index), True), (str(gone), True))

    def probes() -> tuple[Any, ...]:
        return _kept_probes(_snapshot(paths), paths)

    kept = probes()
    assert _unchanged(paths, kept)
    index.write_text("- [A](a.md) — a longer line\n", encoding="utf-8")  # in place
    assert not _unchanged(paths, kept) and probes() != kept
    kept = probes()
    gone.write_text("now here", encoding="utf-8")  # a missing file appears
    assert not _unchanged(paths, kept)
    gone.unlink()
    folder.rename(tmp_path / "old")
    (tmp_path / "scope").symlink_to(tmp_path / "old")  # the folder swapped for a symlink to it
    assert not _unchanged(paths, kept)


@pytest.mark.parametrize("openat2", [True, False], ids=["openat2", "proc-readlink"])
def test_q4_one_anchored_check_stands_for_the_folders_down_to_the_scope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, openat2: bool
) -> None:
    """``_anchored`` (one ``O_PATH`` open for the folders from the base to the scope folder)
    says "unchanged" only while no folder along the path became a symlink or another folder."""
    from memory_api.store.session_memo import _anchor, _anchored, _kept_probes, _snapshot

    if not openat2:  # the way taken where the kernel has no openat2
        monkeypatch.setattr(no_symlinks, "AVAILABLE", False)
    base = Path(os.path.realpath(tmp_path))
    memo = SessionMemo(base)
    workspace = base / "work"
    workspace.mkdir()
    paths = memo._paths("agent-1", str(workspace))
    for path, is_file in paths:
        if is_file:
            Path(path).write_text("- [A](a.md) — a\n", encoding="utf-8")
        else:
            Path(path).mkdir(parents=True, exist_ok=True)
    probes = _kept_probes(_snapshot(paths), paths)
    anchor = _anchor(paths, probes)
    assert anchor == len(paths) - 4 and paths[anchor - 1] == (
        paths[anchor][0].rpartition("/")[0],
        False,
    )
    scope, probe = paths[anchor - 1][0], probes[anchor - 1]
    assert _anchored(scope, probe)

    agents = base / layout.AGENTS_DIR
    agents.rename(base / "old")
    agents.symlink_to(base / "old")  # an ancestor swapped for a symlink to it
    assert not _anchored(scope, probe)
    agents.unlink()
    agents.mkdir()
    (base / "old" / "agent-1").rename(agents / "agent-1")  # the same folders below a new one
    assert _anchored(scope, probe)
    Path(scope).rename(f"{scope}.old")
    Path(scope).mkdir()  # the scope folder swapped for another folder
    assert not _anchored(scope, probe)
    Path(scope).rmdir()
    assert not _anchored(scope, probe)  # and removed


def test_q4_openat2_opens_a_folder_only_when_no_symlink_leads_to_it(tmp_path: Path) -> None:
    """``no_symlinks.open_folder``: a real folder opens; a symlink anywhere along the path, a
    file or a missing path gives -1 (the warm check then takes the slow way or rebuilds)."""
    real = Path(os.path.realpath(tmp_path))
    (real / "a" / "b").mkdir(parents=True)
    (real / "file").write_text("x", encoding="utf-8")
    (real / "link").symlink_to(real / "a")
    release = tuple(int(part) for part in os.uname().release.split(".")[:2] if part.isdigit())
    if sys.platform == "linux" and release >= (5, 6):
        assert no_symlinks.AVAILABLE
    fd = no_symlinks.open_folder(os.fsencode(real / "a" / "b"))
    assert (fd >= 0) == no_symlinks.AVAILABLE  # where missing, nothing opens (callers know)
    if fd >= 0:
        os.close(fd)
    for path in (real / "link" / "b", real / "link", real / "file", real / "gone"):
        assert no_symlinks.open_folder(os.fsencode(path)) == -1


def test_q4_a_workspace_sent_as_its_real_path_is_trusted_only_without_symlinks(
    tmp_path: Path,
) -> None:
    """``_still_real``: "still its own real path" only when sent as the real path and reached
    through no symlink; any other case is left to ``check_real_workspace`` (False)."""
    from memory_api.store.session_memo import _still_real

    real = Path(os.path.realpath(tmp_path))
    workspace = real / "project"
    workspace.mkdir()
    assert _still_real(str(workspace), str(workspace))
    assert not _still_real(f"{workspace}/", str(workspace))  # not sent as the real path
    workspace.rename(real / "moved")
    workspace.symlink_to(real / "moved")  # now a symlink to the same folder
    assert not _still_real(str(workspace), str(workspace))
    workspace.unlink()
    workspace.write_text("a file now", encoding="utf-8")
    assert not _still_real(str(workspace), str(workspace))


async def test_q4_session_start_is_the_first_route_tried_under_api_projects(
    client: Client,
) -> None:
    """aiohttp tries the routes under one prefix in registration order, a regex match each: the
    hot Session start is registered first, so a warm one pays one match, not eight."""
    under = [
        resource.canonical
        for resource in client.app.router.resources()
        if resource.canonical.startswith("/api/projects")
    ]
    assert under[0] == "/api/projects/{project}/agents/{agent}/memory/session-start"
    assert len(under) == len(set(under)) > 8
