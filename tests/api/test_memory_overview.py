"""A-3 the memory overview; K-6 the user scope on demand; K-5/K-6a marker problems, orphans."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from memory_core import layout

from tests.api.conftest import (
    PLAIN_TEMPLATE,
    AgentHome,
    Client,
    copy_corpus,
    corpus_topics,
    create_agent,
    expect_problem,
    memory_url,
    ok_json,
    real,
)


def set_activity(scope: Path, when: float) -> None:
    """Make every file of ``scope`` and the folder itself look last touched at ``when``."""
    for path in scope.iterdir():
        os.utime(path, (when, when), follow_symlinks=False)
    os.utime(scope, (when, when))


async def test_a3_user_scope_first_then_workspaces_by_newest_activity(
    client: Client, corpus_user: AgentHome
) -> None:
    old_path, old_key = corpus_user.workspace("old-app", corpus="coding-agent-workspace")
    new_path, new_key = corpus_user.workspace("new-app")
    (corpus_user.root / new_key / "one.md").write_text("---\nname: one\n---\nbody\n")
    _, mid_key = corpus_user.workspace("mid-app")
    set_activity(corpus_user.root / old_key, 1_700_000_000)
    set_activity(corpus_user.root / mid_key, 1_750_000_000)
    set_activity(corpus_user.root / new_key, 1_780_000_000)
    set_activity(corpus_user.user, 1_600_000_000)  # oldest of all, still first

    overview = await ok_json(await client.get(memory_url()))

    assert overview["enabled"] is True
    assert overview["templateHasMemory"] is True
    keys = [scope["key"] for scope in overview["scopes"]]
    assert keys == ["user", new_key, mid_key, old_key]
    user, newest, _, oldest = overview["scopes"]
    assert user == {
        "key": "user",
        "kind": "user",
        "title": "User memory",
        "workspacePath": None,
        "fileCount": len(corpus_topics("user-scope")),
        "lastActivity": "2020-09-13T12:26:40Z",
        "markerProblems": [],
        "orphaned": False,
        "lintCounts": user["lintCounts"],
        "severityCounts": user["severityCounts"],
        "lintSeverities": user["lintSeverities"],
        "historyBytes": 0,  # nothing recorded yet (V-3)
        "notVisible": False,
        "unreadable": None,
    }
    assert newest["kind"] == "workspace"
    assert newest["title"] == "new-app"
    assert newest["workspacePath"] == real(new_path)
    assert newest["fileCount"] == 1
    assert newest["lastActivity"] == "2026-05-28T20:26:40Z"
    assert newest["markerProblems"] == []
    assert newest["orphaned"] is False
    assert oldest["title"] == "old-app"
    assert oldest["workspacePath"] == real(old_path)
    assert oldest["fileCount"] == len(corpus_topics("coding-agent-workspace"))
    # the messy sample folder has lint findings (a dangling link, an unindexed file, ...)
    assert sum(oldest["lintCounts"].values()) > 0
    assert all(isinstance(count, int) and count > 0 for count in oldest["lintCounts"].values())
    # T-5a: the same findings counted by severity
    assert sum(oldest["severityCounts"].values()) == sum(oldest["lintCounts"].values())
    assert set(oldest["severityCounts"]) <= {"error", "warning", "info"}
    # W-6: each counted code with its severity, so the page colours a count without findings
    assert set(oldest["lintSeverities"]) == set(oldest["lintCounts"])
    assert oldest["lintSeverities"]["dangling-link"] == "error"


async def test_k6_user_scope_is_created_on_demand(client: Client, agent: AgentHome) -> None:
    shutil.rmtree(agent.user)

    overview = await ok_json(await client.get(memory_url()))

    assert [scope["key"] for scope in overview["scopes"]] == ["user"]
    assert overview["scopes"][0]["fileCount"] == 0
    assert agent.user.is_dir()


async def test_a3_switch_and_template_hint_are_reported(client: Client, agent: AgentHome) -> None:
    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    legacy = await ok_json(await client.get(memory_url(agent="legacy")))
    assert legacy["templateHasMemory"] is False

    response = await client.patch(
        f"/api/projects/{agent.project}/agents/{agent.id}/config",
        json={"memory": {"enabled": False}},
    )
    assert response.status == 200, await response.text()
    overview = await ok_json(await client.get(memory_url()))
    assert overview["enabled"] is False
    assert overview["templateHasMemory"] is True


async def test_k5_marker_naming_another_path_is_reported_and_kept(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("my-app")
    marker = agent.root / key / layout.MARKER_FILE
    marker.write_text("/somewhere/else\n", encoding="utf-8")

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["workspacePath"] == "/somewhere/else"
    assert any("/somewhere/else" in problem for problem in scope["markerProblems"])
    assert marker.read_text(encoding="utf-8") == "/somewhere/else\n"


async def test_k6a_scope_of_a_vanished_workspace_is_orphaned_not_deleted(
    client: Client, agent: AgentHome
) -> None:
    path, key = agent.workspace("gone-app", corpus="user-scope")
    shutil.rmtree(path)

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["orphaned"] is True
    assert scope["markerProblems"] == []
    assert scope["fileCount"] == len(corpus_topics("user-scope"))
    assert (agent.root / key).is_dir()


async def test_a3_scope_without_marker_lists_under_its_key(
    client: Client, agent: AgentHome
) -> None:
    copy_corpus("user-scope", agent.root / "bare-0123abcd")

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == "bare-0123abcd")
    assert scope["title"] == "bare-0123abcd"
    assert scope["workspacePath"] is None
    assert scope["orphaned"] is False
    assert any("missing" in problem for problem in scope["markerProblems"])


async def test_a3_only_scope_directories_list(client: Client, agent: AgentHome) -> None:
    (agent.root / "notes").mkdir()  # no K-7 key
    (agent.root / ".trash-0123abcd").mkdir()  # hidden
    (agent.root / "stray-0123abcd").write_text("a file, not a scope")

    overview = await ok_json(await client.get(memory_url()))

    assert [scope["key"] for scope in overview["scopes"]] == ["user"]


async def test_a10_unknown_agent_and_agent_of_another_project_are_404(
    client: Client, agent: AgentHome
) -> None:
    await expect_problem(await client.get(memory_url(agent="nobody")), 404, "'nobody'")
    await expect_problem(
        await client.get(memory_url(project="other")), 404, "no agent 'coder' in project 'other'"
    )


async def test_k7_invalid_ids_are_400_before_any_io(client: Client, agent: AgentHome) -> None:
    await expect_problem(await client.get(memory_url(project="Acme")), 400, "invalid project")
    await expect_problem(await client.get(memory_url(agent="-coder")), 400, "invalid agent")
    assert not (agent.data_dir / "agents" / "-coder").exists()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "marker: empty"),
        (b"\n\n", "marker: empty"),
        (b"relative/path\n", "not an absolute path"),
        (b"/a\x00b\n", "NUL"),
        (b"/caf\xe9\n", "not valid UTF-8"),
        (b"/one\n/two\n", "more than one line"),
    ],
)
async def test_k5_broken_markers_are_reported_never_fatal(
    client: Client, agent: AgentHome, content: bytes, problem: str
) -> None:
    _, key = agent.workspace("odd")
    (agent.root / key / layout.MARKER_FILE).write_bytes(content)

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert any(problem in text for text in scope["markerProblems"]), scope["markerProblems"]
    assert scope["fileCount"] == 0


@pytest.mark.parametrize("sep", ["\u2028", "\f", "\x85"], ids=ascii)
async def test_k5_a_workspace_path_holding_a_line_separator_is_one_line(
    client: Client, agent: AgentHome, sep: str
) -> None:
    """A folder name may hold U+2028 or a form feed: the marker's one line is the whole path
    (only LF, CRLF and CR end a line, T-4), never cut there into a path and a second line."""
    _, key = agent.workspace(f"my{sep}app")
    overview = await ok_json(await client.get(memory_url()))
    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["markerProblems"] == []
    assert scope["workspacePath"].endswith(f"/my{sep}app")


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-32"], ids=str)
async def test_k5_a_marker_saved_with_a_byte_order_mark_names_its_workspace(
    client: Client, agent: AgentHome, codec: str
) -> None:
    """Notepad and PowerShell save a hand-edited marker with a byte order mark (UTF-8 with BOM,
    "Unicode" UTF-16) and CRLF: the mark is no character of the path (as in an index, T-2);
    the marker stays as it was saved."""
    _, key = agent.workspace("my-app")
    marker = agent.root / key / layout.MARKER_FILE
    path = marker.read_text(encoding="utf-8").strip()
    saved = f"{path}\r\n".encode(codec)
    marker.write_bytes(saved)

    overview = await ok_json(await client.get(memory_url()))

    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["markerProblems"] == []
    assert scope["workspacePath"] == path
    assert scope["orphaned"] is False
    assert marker.read_bytes() == saved
