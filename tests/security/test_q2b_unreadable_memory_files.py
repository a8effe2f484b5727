"""Q-2b, case ``unreadable-memory-files``: a file the service cannot read is named, never absent.

An agent running under its own account leaves files private to itself (mode 0600) that a service
running as another user may not read. Every answer must say such a file is there and cannot be
read, with the reason: never "missing", "nothing saved yet", a dangling link, an empty scope or
a vanished agent. The tests here run the app in-process as root, where permission bits do not
refuse a read, so the operating system's refusal (EACCES) is injected at the one call that meets
it; ``test_q2b_unreadable_memory_files_for_real.py`` has the kernel refuse for real.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.errors import READ_ACCESS_FIX
from memory_api.settings import Settings
from memory_api.store import agents, scopes, search, topic_cache
from memory_api.store.containment import read_regular
from memory_core import layout
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
)
from tests.security.test_hostile_filesystem import refuse, refuse_listing
from tests.support.socket_file import bound_socket

CASE = Path(__file__).parents[1] / "data" / "cases" / "unreadable-memory-files"
DENIED = "cannot read it (Permission denied)"
UNLISTED = "cannot list it (Permission denied)"
"""A folder that refuses its listing but may be entered (mode ``0711``, :func:`refuse_listing`)."""


def make_case(scope: Path) -> None:
    """The case's files (``make_input.sh`` without the ``chown``): two topics and the index."""
    scope.mkdir(parents=True, exist_ok=True)
    for name in ("ok-topic", "private-topic"):
        (scope / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: {name} of the case\nupdated_at: 2026-11-20\n---\n"
            "body\n",
            encoding="utf-8",
        )
    (scope / layout.INDEX_FILE).write_text(
        "- [OK](ok-topic.md) — readable\n- [Private](private-topic.md) — owner-only\n",
        encoding="utf-8",
    )


def codes(findings: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The findings' files by code."""
    by_code: dict[str, list[str]] = {}
    for finding in findings:
        by_code.setdefault(finding["code"], []).append(finding["file"])
    return by_code


def test_unreadable_memory_files_case_input_is_kept_beside_the_tests() -> None:
    script = (CASE / "make_input.sh").read_text(encoding="utf-8")
    assert "chmod 600" in script
    assert "private-topic.md" in script


async def test_unreadable_memory_files_a_topic_is_listed_counted_and_named_never_absent(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_case(agent.user)
    refuse(monkeypatch, topic_cache, "read_regular", "private-topic.md")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    overview = await ok_json(await client.get(memory_url()))
    index = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))

    rows = {row["file"]: row for row in listing["files"]}
    assert list(rows) == ["ok-topic.md", "private-topic.md"]
    assert rows["private-topic.md"]["problems"] == [f"unreadable: the service {DENIED}"]
    assert rows["private-topic.md"]["size"] > 0
    for findings in (listing["findings"], index["findings"]):
        found = codes(findings)
        assert found["unreadable"] == ["private-topic.md"]
        assert "dangling-link" not in found
    [message] = [f["message"] for f in listing["findings"] if f["code"] == "unreadable"]
    assert DENIED in message and "not missing" in message
    user = overview["scopes"][0]
    assert user["fileCount"] == 2
    assert overview["totals"]["files"] == 2
    assert user["lintCounts"]["unreadable"] == 1
    assert user["lintSeverities"]["unreadable"] == "error"

    await expect_problem(
        await client.get(file_url("user", "private-topic.md")),
        503,
        f"topic file 'private-topic.md' in scope 'user' is there, but the service {DENIED}: "
        f"{READ_ACCESS_FIX}",
    )
    assert (await client.get(file_url("user", "ok-topic.md"))).status == 200


@pytest.mark.parametrize(
    ("plant", "what"),
    [
        (lambda path, agent: os.mkfifo(path), "a FIFO (named pipe), not a regular file"),
        (lambda path, agent: path.mkdir(), "a folder, not a file"),
        (lambda path, agent: path.symlink_to("gone.md"), "a symlink to nothing"),
        (
            lambda path, agent: path.symlink_to(agent.tmp / "notes.txt"),
            "a symlink to outside the memory root",
        ),
    ],
    ids=["fifo", "folder", "dangling-symlink", "symlink-out-of-root"],
)
async def test_unreadable_memory_files_an_entry_never_read_is_named_by_a_read_and_a_delete(
    client: Client, agent: AgentHome, plant: Any, what: str
) -> None:
    """An entry of a topic file's name that the service never reads (what the listing names as
    a ``refused-entry``): a read or a delete of it answers 404 (no topic file is there), and the
    detail says what is there instead of leaving "no topic file" to say it is absent. Nothing
    on disk changes."""
    make_case(agent.user)
    (agent.tmp / "notes.txt").write_text("outside\n", encoding="utf-8")
    entry = agent.user / "planted.md"
    plant(entry, agent)

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    read = await client.get(file_url("user", "planted.md"))
    delete = await client.delete(file_url("user", "planted.md"))

    refused = [f["message"] for f in listing["findings"] if f["file"] == "planted.md"]
    assert refused == [f"planted.md is {what}; not read"]
    there = f"'planted.md' there is {what}, which the service never reads or deletes"
    await expect_problem(read, 404, f"no topic file 'planted.md' in scope 'user': {there}")
    await expect_problem(delete, 404, f"no topic file 'planted.md' in this scope: {there}")
    assert entry.is_symlink() or entry.exists()  # nothing deleted
    absent = await client.get(file_url("user", "never-written.md"))
    body = await expect_problem(absent, 404, "no topic file 'never-written.md' in scope 'user'")
    assert body["detail"] == "no topic file 'never-written.md' in scope 'user'"


async def test_unreadable_memory_files_an_index_is_never_missing_nor_nothing_saved(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_case(agent.user)
    workspace, _ = agent.workspace("app")
    refuse(monkeypatch, scopes, "read_regular", layout.INDEX_FILE)

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )
    overview = await ok_json(await client.get(memory_url()))

    assert view["exists"] is True
    assert (view["raw"], view["lines"], view["manifest"]["unreadable"]) == ("", [], DENIED)
    found = codes(view["findings"])
    assert found["unreadable"] == [layout.INDEX_FILE]
    assert "missing-index" not in found
    assert "unindexed" not in found  # which files it links is unknown: no claim
    assert overview["scopes"][0]["lintCounts"].get("unreadable") == 1
    assert "Nothing saved yet: the user memory index" not in started["memory"]
    assert "the user memory index could not be read" in started["memory"]
    assert DENIED in started["memory"]
    user = next(m for m in started["manifests"] if m["scope"] == "user")
    assert user["unreadable"] == DENIED
    assert user["linesKept"] == 0
    workspace_manifest = next(m for m in started["manifests"] if m["scope"] != "user")
    assert "unreadable" not in workspace_manifest  # its index is missing: nothing saved yet


def _never_read_index(scope: Path, kind: str, outside: Path) -> str:
    """Make the scope's ``MEMORY.md`` an entry the service never reads (T-5b): a symlink out of
    the memory root (a dotfiles checkout), a FIFO, a socket or a folder; return why it is not
    read."""
    index = scope / layout.INDEX_FILE
    index.unlink()
    if kind == "symlink":
        target = outside / "dotfiles-MEMORY.md"
        target.write_text("- [OK](ok-topic.md) — readable\n", encoding="utf-8")
        index.symlink_to(target)
        return "a symlink to outside the memory root"
    if kind == "fifo":
        os.mkfifo(index)
        return "a FIFO (named pipe), not a regular file"
    if kind == "socket":
        bound_socket(index).close()
        return "a socket, not a regular file"
    index.mkdir()
    return "a folder, not a file"


@pytest.mark.parametrize("kind", ["symlink", "fifo", "socket", "folder"])
async def test_unreadable_memory_files_an_index_never_read_is_not_nothing_saved(
    client: Client, agent: AgentHome, tmp_path: Path, kind: str
) -> None:
    """An index that is there but never read (T-5b) is not an empty memory: the model is told
    it could not be read and why, as for one the service may not read (Q-2b). A socket's
    ``open`` fails with ENXIO: it was told "cannot read it (No such device or address)" and
    linted both ``refused-entry`` and ``unreadable`` (whose fix, read access, fixes nothing)."""
    make_case(agent.user)
    why = _never_read_index(agent.user, kind, tmp_path)
    workspace, _ = agent.workspace("app")

    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )

    assert "Nothing saved yet: the user memory index" not in started["memory"]
    assert (
        "the user memory index could not be read: MEMORY.md is there, but Agent Memory "
        f"does not read it: it is {why}."
    ) in started["memory"]
    user = next(m for m in started["manifests"] if m["scope"] == "user")
    assert user["unreadable"] == f"does not read it: it is {why}"
    assert user["linesKept"] == 0
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    about_index = [f["code"] for f in view["findings"] if f["file"] == layout.INDEX_FILE]
    assert about_index == ["refused-entry"]
    # there, never read: the view says so as the injection does (it said "exists": false)
    assert (view["exists"], view["raw"], view["lines"]) == (True, "", [])
    assert view["manifest"]["unreadable"] == f"does not read it: it is {why}"


async def test_unreadable_memory_files_a_scope_folder_is_named_never_listed_empty(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_case(agent.user)
    _, key = agent.workspace("app", corpus="user-scope")
    refuse_listing(monkeypatch, key)

    await expect_problem(
        await client.get(f"{memory_url()}/scopes/{key}/files"),
        503,
        f"scope {key!r} cannot be listed: the service {UNLISTED}: {READ_ACCESS_FIX}",
    )
    overview = await ok_json(await client.get(memory_url()))

    scope = next(item for item in overview["scopes"] if item["key"] == key)
    assert scope["unreadable"] == UNLISTED
    assert scope["lintCounts"] == {"unreadable": 1}
    assert overview["scopes"][0]["unreadable"] is None


def _in_the_user_scopes_place(agent: AgentHome, thing: str) -> Callable[[], bool]:
    """Put ``thing`` where the user scope's folder is; returns whether it is still there as
    put (the service never moves it away)."""
    agent.user.rmdir()
    if thing == "a file":
        agent.user.write_text("not a folder\n", encoding="utf-8")
        return lambda: agent.user.read_text(encoding="utf-8") == "not a folder\n"
    elsewhere = agent.data_dir / "elsewhere"  # another agent's scope, a folder of the user's
    elsewhere.mkdir()
    (elsewhere / "theirs.md").write_text("---\nname: theirs\n---\nnot ours\n", encoding="utf-8")
    agent.user.symlink_to(elsewhere)
    return lambda: agent.user.is_symlink() and agent.user.readlink() == elsewhere


IN_THE_USER_SCOPES_PLACE = ["a file", "a symlink leading out of the root"]


@pytest.mark.parametrize("thing", IN_THE_USER_SCOPES_PLACE)
async def test_unreadable_memory_files_a_file_in_the_user_scopes_place_is_no_missing_scope(
    client: Client, agent: AgentHome, thing: str
) -> None:
    """The user scope is made on demand (K-6), so there always is one: with a file in its
    folder's place (ENOTDIR for every read in it) its routes answered 404 "no scope 'user'",
    and so they did with a symlink leading out of the root there (as if there were no user
    scope, while Session start said it cannot be used). They answer 503 saying what is in the
    way (as Session start tells the model), never where a link leads, and it is left as it
    was."""
    still_there = _in_the_user_scopes_place(agent, thing)
    detail = (
        "scope 'user' of agent 'coder' cannot be used: the service found something that is "
        "not a folder in its folder's place; an operator must move it away (the scope's folder "
        "is then made again), then try again"
    )
    for route in ("files", "index", "files/a.md", "changes"):
        body = await expect_problem(
            await client.get(f"{memory_url()}/scopes/user/{route}"), 503, detail
        )
        assert "elsewhere" not in body["detail"]
    await expect_problem(await client.delete(file_url("user", "a.md")), 503, detail)
    assert still_there()


@pytest.mark.parametrize("thing", IN_THE_USER_SCOPES_PLACE)
async def test_unreadable_memory_files_a_file_in_the_user_scopes_place_is_listed_and_searched(
    client: Client, agent: AgentHome, thing: str
) -> None:
    """The overview (the Memory tab's first request) left the user scope out and a search said
    nothing of it: a person saw no user scope at all. It is listed first, unreadable, saying
    what is in its place, and every search says it was not searched."""
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    still_there = _in_the_user_scopes_place(agent, thing)
    why = (
        "found something that is not a folder in its folder's place; an operator must move it "
        "away (the scope's folder is then made again)"
    )

    overview = await ok_json(await client.get(memory_url()))
    user, workspace = overview["scopes"]
    assert (user["key"], user["kind"], user["unreadable"]) == ("user", "user", why)
    assert (user["fileCount"], user["lintCounts"]) == (0, {"unreadable": 1})
    assert user["lintSeverities"] == {"unreadable": "error"}
    assert workspace["key"] == key and workspace["unreadable"] is None
    assert overview["totals"]["scopes"] == 2
    later = await ok_json(await client.get(memory_url(), params={"limit": "1"}))
    assert [item["key"] for item in later["scopes"]] == ["user"]
    rest = await ok_json(
        await client.get(memory_url(), params={"limit": "1", "cursor": later["nextCursor"]})
    )
    assert [item["key"] for item in rest["scopes"]] == [key]
    found = await ok_json(await client.get(memory_url(), params={"q": "user"}))
    assert [item["key"] for item in found["scopes"]] == ["user"]

    body = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "deploy"}))
    assert body["unreadable"][0] == {
        "code": "unreadable",
        "severity": "error",
        "file": "user/",
        "line": None,
        "message": f"scope 'user' cannot be used: the service {why}: none of its files was "
        "searched",
    }
    assert still_there()


async def test_unreadable_memory_files_an_agent_json_is_named_to_who_reaches_every_project(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    await create_agent(client, "private")
    refuse(monkeypatch, agents, "read_regular", f"{os.sep}private{os.sep}")

    listing = await ok_json(await client.get("/api/projects/acme/agents"))

    assert [item["id"] for item in listing["agents"]] == ["coder"]
    assert listing["unreadable"] == [
        {
            "id": "private",
            "problem": "the stored settings of agent 'private' (agents/private/agent.json in "
            f"the data dir) cannot be read (Permission denied): {READ_ACCESS_FIX}",
        }
    ]
    await expect_problem(
        await client.get("/api/projects/acme/agents/private/config"), 503, "Permission denied"
    )


LIMITED_SECRET = "acme-bot-secret-0123456789ab"


async def _admin_and_limited(aiohttp_client: AiohttpClient, data_dir: Path) -> tuple[Any, str]:
    """A client sending the token of ``admin`` (every project), and the secret of
    ``acme-bot``, a token limited to project ``acme``."""
    admin = "admin-secret-0123456789abcdef"
    settings = Settings(
        data_dir=data_dir,
        env_tokens=(
            TokenEntry(name="admin", sha256=hash_secret(admin)),
            TokenEntry(name="acme-bot", sha256=hash_secret(LIMITED_SECRET), projects=("acme",)),
        ),
    )
    client = await aiohttp_client(create_app(settings))
    client.session.headers.update({"Authorization": f"Bearer {admin}"})
    return client, LIMITED_SECRET


async def test_unreadable_memory_files_an_agent_json_is_not_shown_to_a_project_limited_token(
    aiohttp_client: AiohttpClient, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its project is unknown: naming it to a token of one project would widen that token's
    reach (a read error never widens access)."""
    client, limited = await _admin_and_limited(aiohttp_client, data_dir)
    await create_agent(client, "coder")
    await create_agent(client, "spy", project="globex")
    refuse(monkeypatch, agents, "read_regular", f"{os.sep}spy{os.sep}")

    seen = await ok_json(
        await client.get(
            "/api/projects/acme/agents", headers={"Authorization": f"Bearer {limited}"}
        )
    )
    by_admin = await ok_json(await client.get("/api/projects/acme/agents"))

    # nothing unreadable for this token: the field is left out (A-11, for older plugins)
    assert seen == {"agents": seen["agents"]}
    assert [item["id"] for item in by_admin["unreadable"]] == ["spy"]


async def test_unreadable_memory_files_agents_of_no_readable_project_are_named_by_the_projects(
    aiohttp_client: AiohttpClient, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every agent's agent.json is another account's: GET /api/projects answered no project,
    so the page said "No agents yet" (inviting new ones) and named none of them. The projects
    list names them to a caller reaching every project, and to no limited token."""
    client, limited = await _admin_and_limited(aiohttp_client, data_dir)
    await create_agent(client, "coder")
    refuse(monkeypatch, agents, "read_regular", f"{os.sep}coder{os.sep}")

    by_admin = await ok_json(await client.get("/api/projects"))
    seen = await ok_json(
        await client.get("/api/projects", headers={"Authorization": f"Bearer {limited}"})
    )

    assert by_admin["projects"] == []
    assert by_admin["unreadable"] == [
        {
            "id": "coder",
            "problem": "the stored settings of agent 'coder' (agents/coder/agent.json in "
            f"the data dir) cannot be read (Permission denied): {READ_ACCESS_FIX}",
        }
    ]
    assert seen == {"projects": []}  # a read error never widens a token's reach


async def test_unreadable_memory_files_a_topic_never_vanishes_from_search(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its words cannot be searched, but its name is, and every search says it was not read."""
    make_case(agent.user)
    refuse(monkeypatch, search, "read_regular", "private-topic.md")

    body = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "case"}))
    by_name = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "private"}))

    assert [hit["file"] for hit in body["hits"]] == ["ok-topic.md"]
    assert [f["file"] for f in body["unreadable"]] == ["user/private-topic.md"]
    assert body["unreadable"][0]["code"] == "unreadable"
    assert DENIED in body["unreadable"][0]["message"]
    assert [hit["file"] for hit in by_name["hits"]] == ["private-topic.md"]

    monkeypatch.undo()  # readable again; the agent's tools rewrite it, so its stat moves
    private = agent.user / "private-topic.md"
    private.write_text(private.read_text(encoding="utf-8") + "now readable\n", encoding="utf-8")
    again = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "readable"}))
    assert again["unreadable"] == []
    assert "private-topic.md" in [hit["file"] for hit in again["hits"]]


async def test_unreadable_memory_files_a_topic_read_again_once_it_can_be_with_no_change(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that failed for a while with nothing on disk changing (a lease held past its
    wait, "Resource temporarily unavailable"; an I/O error that passed; no file descriptor
    left) was kept as the file's state until its stat moved: every later search said it was
    not read and never found its words, though the listing read it again. It is read again
    at the next search, as a folder that could not be listed is."""
    make_case(agent.user)
    monkeypatch.setattr(search, "is_racy", lambda key: False)  # files as old as a day's notes

    def for_a_while(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == "private-topic.md":
            raise BlockingIOError(11, "Resource temporarily unavailable", str(path))
        return read_regular(path, *args, **kwargs)

    monkeypatch.setattr(search, "read_regular", for_a_while)
    first = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "case"}))
    assert [f["file"] for f in first["unreadable"]] == ["user/private-topic.md"]

    monkeypatch.setattr(search, "read_regular", read_regular)  # the lease let go: no change
    again = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "case"}))

    assert again["unreadable"] == []
    assert sorted(hit["file"] for hit in again["hits"]) == ["ok-topic.md", "private-topic.md"]
