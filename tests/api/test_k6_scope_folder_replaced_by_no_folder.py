"""K-6, Q-2b: a scope whose folder's place holds no folder is named as there, never "no scope".

A Workspace scope's folder replaced under the memory root by a regular file, a FIFO, a
socket or a symlink that does not lead to another scope folder (dangling, out of the root, to
a file: a bad restore, a tool that wrote a file where a folder was) is a scope that cannot be
used, not one that never existed: every scope route answered 404 "no scope", and an operator
was sent looking for a scope that was right there. Each route now answers 503 with the
overview's words (:data:`memory_core.layout.NOT_A_FOLDER`) and what to do; Session start says
the scope cannot be used; a scope that is truly absent is still a 404.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core.layout import NOT_A_FOLDER

from tests.api.conftest import (
    JSON_TYPE,
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
)
from tests.support.socket_file import bound_socket

WHAT_TO_DO = "an operator must move it away"


def regular_file(place: Path) -> None:
    place.write_text("not a folder\n", encoding="utf-8")


def fifo(place: Path) -> None:
    os.mkfifo(place)


def unix_socket(place: Path) -> None:
    with bound_socket(place):  # its file stays when the socket is closed
        pass


def dangling_link(place: Path) -> None:
    place.symlink_to("vanished")


def link_out_of_the_root(place: Path) -> None:
    outside = place.parent.parent / "elsewhere"  # a real folder beside the memory root
    outside.mkdir()
    (outside / "notes.md").write_text("---\ndescription: out\n---\nnever read\n", "utf-8")
    place.symlink_to(outside)


def link_to_a_file(place: Path) -> None:
    (place.parent / "stray.txt").write_text("a file inside the memory root\n", encoding="utf-8")
    place.symlink_to("stray.txt")


MAKERS: dict[str, Callable[[Path], None]] = {
    "regular file": regular_file,
    "FIFO": fifo,
    "socket": unix_socket,
    "dangling link": dangling_link,
    "link out of the root": link_out_of_the_root,
    "link to a file": link_to_a_file,
}
"""What can stand in a scope folder's place: a symlink among them only when it does not lead
to another scope folder directly under the memory root (one that does is an alias)."""


@pytest.fixture(params=sorted(MAKERS))
def replaced(request: pytest.FixtureRequest, agent: AgentHome) -> Iterator[tuple[str, str]]:
    """A Workspace scope whose folder was replaced by one of :data:`MAKERS`:
    ``(Workspace path, key)``."""
    workspace, key = agent.workspace("app", corpus="coding-agent-workspace")
    scope = agent.root / key
    for entry in scope.iterdir():
        entry.unlink()
    scope.rmdir()
    MAKERS[request.param](scope)
    yield os.fspath(workspace), key


def scope_routes(key: str) -> list[tuple[str, str]]:
    """(method, URL) of every route that addresses one scope of the memory."""
    base = f"{memory_url()}/scopes/{key}"
    file = file_url(key, "notes.md")
    return [
        ("GET", base),
        ("GET", f"{base}/files"),
        ("GET", f"{base}/index"),
        ("GET", file),
        ("DELETE", file),
        ("GET", f"{file}/history"),
        ("GET", f"{file}/diff?from={'0' * 40}"),
        ("POST", f"{file}/restore"),
        ("GET", f"{base}/changes"),
        ("GET", f"{base}/deleted"),
        ("POST", f"{base}/checkpoint"),
        ("GET", f"{memory_url()}/search?q=notes&scope={key}"),
        ("GET", f"{memory_url()}/git/{key}.git/info/refs?service=git-upload-pack"),
    ]


async def test_k6_every_scope_route_names_the_scope_as_there_but_no_folder(
    client: Client, replaced: tuple[str, str]
) -> None:
    _, key = replaced
    for method, url in scope_routes(key):
        body = {"version": "0" * 40} if url.endswith("/restore") else None
        response = await client.request(method, url, json=body, headers=JSON_TYPE)
        problem = await expect_problem(response, 503, f"scope {key!r}")
        assert NOT_A_FOLDER in problem["detail"], (method, url, problem)
        assert WHAT_TO_DO in problem["detail"], (method, url, problem)


async def test_k6_session_start_says_the_scope_cannot_be_used(
    client: Client, replaced: tuple[str, str]
) -> None:
    workspace, key = replaced
    response = await client.post(
        f"{memory_url()}/session-start", json={"workspace": workspace}, headers=JSON_TYPE
    )
    started = await ok_json(response)
    assert started["key"] == key
    assert started["directories"]["workspace"] is None
    assert NOT_A_FOLDER in started["memory"], started["memory"]


async def test_k6_a_scope_that_is_not_there_is_still_no_scope(
    client: Client, agent: AgentHome
) -> None:
    for method, url in scope_routes("gone-0123abcd"):
        body = {"version": "0" * 40} if url.endswith("/restore") else None
        response = await client.request(method, url, json=body, headers=JSON_TYPE)
        await expect_problem(response, 404, "'gone-0123abcd'")


def test_k6_the_cli_names_it_too_on_import_and_export(
    agent: AgentHome,
    data_dir: Path,
    replaced: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``memory export --scope KEY`` said "no scope", ``memory import --workspace`` "cannot be
    used (not a directory)": both exit 1 saying what is in the scope's place and what to do."""
    workspace, key = replaced
    monkeypatch.setenv("MEMORY_API_DATA_DIR", os.fspath(data_dir))
    source = agent.tmp / "notes"
    source.mkdir()
    (source / "uv.md").write_text("---\ndescription: uv\n---\nuv.\n", encoding="utf-8")
    who = ["--project", agent.project, "--agent", agent.id]
    for argv in (
        ["memory", "export", *who, "-o", os.fspath(agent.tmp / "out.tar.gz"), "--scope", key],
        ["memory", "import", os.fspath(source), *who, "--workspace", workspace],
    ):
        assert main(argv) == 1, argv
        said = capsys.readouterr().err
        assert f"scope {key!r} of agent 'coder' cannot be used" in said, said
        assert NOT_A_FOLDER in said and WHAT_TO_DO in said, said
    assert not (agent.tmp / "out.tar.gz").exists()


async def test_k6_a_checkpoint_of_every_scope_names_it_as_not_recorded(
    client: Client, replaced: tuple[str, str]
) -> None:
    """Every other scope is recorded; this one is named with why, never left out as if it
    were not there (as the user scope already was)."""
    _, key = replaced
    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint", headers=JSON_TYPE))
    by_scope = {entry["scope"]: entry for entry in answer["scopes"]}
    assert by_scope["user"].get("skipped") is None
    assert by_scope[key]["version"] is None
    assert NOT_A_FOLDER in by_scope[key]["skipped"] and WHAT_TO_DO in by_scope[key]["skipped"]


LINKS = {
    "dangling link": "vanished",
    "link out of the root": "elsewhere",
    "link to a file": "stray",
}
"""Each symlink maker and a word of where it leads, which no answer may say (A-7)."""


@pytest.mark.parametrize("maker", sorted(LINKS))
async def test_k6_a_link_in_its_place_is_named_a_symlink_never_by_where_it_leads(
    client: Client, agent: AgentHome, maker: str
) -> None:
    """Every scope route, a checkpoint of every scope and the overview say the same of it: a
    scope that is there and cannot be used, a symlink in its place, never what it leads to."""
    _, key = agent.workspace("app", corpus="coding-agent-workspace")
    scope = agent.root / key
    for entry in scope.iterdir():
        entry.unlink()
    scope.rmdir()
    MAKERS[maker](scope)
    for method, url in scope_routes(key):
        body = {"version": "0" * 40} if url.endswith("/restore") else None
        response = await client.request(method, url, json=body, headers=JSON_TYPE)
        problem = await expect_problem(response, 503, "(in its place: a symlink)")
        assert LINKS[maker] not in problem["detail"], (method, url, problem)
    answer = await ok_json(await client.post(f"{memory_url()}/checkpoint", headers=JSON_TYPE))
    assert {entry["scope"]: entry.get("skipped") for entry in answer["scopes"]}[key] == (
        f"{NOT_A_FOLDER}; {WHAT_TO_DO} (the scope's folder is then made again)"
    )
    overview = await ok_json(await client.get(memory_url()))
    skipped = {entry["name"]: entry["problem"] for entry in overview["skipped"]}
    assert "a symlink that does not lead to another scope folder" in skipped[key], skipped
    assert LINKS[maker] not in skipped[key], skipped
