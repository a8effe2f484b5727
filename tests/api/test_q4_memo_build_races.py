"""Q-4: a change made and undone while a Session start is being built is never kept.

The Session-start memo keeps an answer when nothing it was built from differs between before
and after the build (``store/session_memo.py``). A change that is undone before the build ends
leaves the files as they were, yet the answer was read from the state in between: such an
answer must be given at most once, never kept. Each test does the change and its undoing around
the build itself (through the function the memo calls), then asks again and compares with what
is on disk. Both ways of proving a kept answer current are run: the inotify ticket and the
probes alone (a network filesystem).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.appkeys import get_memory_store
from memory_api.store import memory, sessions, stat_cache
from memory_api.store.session_memo import SessionMemo
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json

Step = Callable[[], object]


@pytest.fixture(params=["ticket", "probes"])
def mode(request: pytest.FixtureRequest, client: Client, monkeypatch: pytest.MonkeyPatch) -> str:
    """``ticket``: the process's inotify watch; ``probes``: a memo that never arms one. Files
    written a moment ago may be kept in both (the racy window is what the probes alone cannot
    see, tested in ``test_q4_file_caches.py``); only the build's own before-and-after stands."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    if request.param == "probes":
        store = get_memory_store(client.app)
        monkeypatch.setattr(store, "sessions", SessionMemo(store.app_data_dir, watch=False))
    return str(request.param)


async def _start(client: Client, workspace: Path) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


def _around_the_next_build(monkeypatch: pytest.MonkeyPatch, change: Step, undo: Step) -> None:
    """Make ``change`` just before the next build reads the files and ``undo`` just after it."""
    build = sessions.session_at_real_path  # what the memory store calls
    done: list[bool] = []

    def racing(*args: Any) -> Any:
        if done:
            return build(*args)
        done.append(True)
        change()
        try:
            return build(*args)
        finally:
            undo()

    monkeypatch.setattr(memory, "session_at_real_path", racing)


def _age(*folders: Path) -> None:
    """Set the folders' mtime an hour back, so a change in them moves it whatever the clock's
    tick (their ctime moves to now: a change within this tick would leave it as it is)."""
    for folder in folders:
        past = folder.stat().st_mtime_ns - 3600 * 10**9
        os.utime(folder, ns=(past, past))


def _user_lines(answer: dict[str, Any]) -> int:
    return int(next(m for m in answer["manifests"] if m["scope"] == "user")["linesTotal"])


async def _warm(client: Client, agent: AgentHome) -> tuple[Path, Path]:
    """A Workspace with an index, started once (every folder exists), then its index appended
    to so the next Session start is built again. Returns the Workspace and its index."""
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [A](a.md) — a\n", encoding="utf-8")
    await _start(client, workspace)
    with index.open("a", encoding="utf-8") as stream:
        stream.write("- [B](b.md) — b\n")
    _age(agent.root, agent.user, agent.root / key)
    return workspace, index


async def test_q4_a_user_index_that_existed_only_during_the_build_is_not_kept(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    workspace, _ = await _warm(client, agent)
    user_index = agent.user / layout.INDEX_FILE
    _around_the_next_build(
        monkeypatch,
        lambda: user_index.write_text("- [U](u.md) — only for a moment\n", encoding="utf-8"),
        user_index.unlink,
    )
    await _start(client, workspace)  # read while the file was there: right at that moment
    assert not user_index.exists()
    answer = await _start(client, workspace)
    assert "only for a moment" not in answer["memory"] and _user_lines(answer) == 0


async def test_q4_a_folder_moved_away_and_back_during_the_build_is_not_kept(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """While ``user/`` is away the build makes it anew, empty (K-6); moved back, it replaces
    that empty folder: the disk is as before, the answer read an empty user scope."""
    workspace, _ = await _warm(client, agent)
    (agent.user / layout.INDEX_FILE).write_text("- [U](u.md) — pnpm everywhere\n", "utf-8")
    away = agent.root / "user.away"
    _around_the_next_build(
        monkeypatch, lambda: agent.user.rename(away), lambda: away.replace(agent.user)
    )
    await _start(client, workspace)
    answer = await _start(client, workspace)
    assert "pnpm everywhere" in answer["memory"] and _user_lines(answer) == 1


async def test_q4_an_index_moved_away_and_back_during_the_build_is_not_kept(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    workspace, index = await _warm(client, agent)
    away = index.with_name("MEMORY.away")
    _around_the_next_build(monkeypatch, lambda: index.rename(away), lambda: away.rename(index))
    assert "— b" not in (await _start(client, workspace))["memory"]  # missing while read
    assert "— b" in (await _start(client, workspace))["memory"]


async def test_q4_a_symlink_flipped_to_another_workspace_and_back_lends_it_no_answer(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """A Workspace sent through a symlink (``current`` → a release) is resolved once per build:
    the answer is built for that real path, whatever the link points at meanwhile — else the
    other release's key line would send the agent's notes to the wrong scope."""
    (release_a, key_a), (release_b, key_b) = agent.workspace("a"), agent.workspace("b")
    for key, note in ((key_a, "release A"), (key_b, "release B")):
        (agent.root / key / layout.INDEX_FILE).write_text(f"- [N](n.md) — {note}\n", "utf-8")
    current = agent.tmp / "current"
    current.symlink_to(release_a)

    def point(target: Path) -> Callable[[], None]:
        def flip() -> None:
            swap = agent.tmp / "current.new"
            swap.symlink_to(target)
            swap.replace(current)

        return flip

    _around_the_next_build(monkeypatch, point(release_b), point(release_a))
    for _ in range(2):
        answer = await _start(client, current)
        assert answer["key"] == key_a and "release A" in answer["memory"]
        assert "release B" not in answer["memory"]
