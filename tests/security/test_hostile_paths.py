"""K-7, A-7, Q-2: hostile path segments never reach a file outside the scope they name.

Every id in a route is pattern-checked before any I/O; percent-encoded bytes that are not UTF-8
(overlong forms, surrogates, Latin-1) are refused with 400 before any route runs: aiohttp kept
them percent-encoded, so they named the file whose name is that text. Attacks already covered in
``tests/api/test_memory_files.py`` (``..``, ``%2F``, ``%5C``, C0 controls, 300-byte names,
``MEMORY.md``, dotfiles, non-``.md``) are not repeated here.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from memory_core import layout
from yarl import URL

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
    write_topic,
)


def user_files(agent: AgentHome) -> list[str]:
    return names(agent.user)


@pytest.mark.parametrize(
    ("raw", "status", "detail"),
    [
        ("%2e%2e", 400, "must not start with '.'"),
        ("%2e%2e%2f%2e%2e%2fagent.json", 400, "must not start with '.'"),
        ("x.md%2F..%2F..%2Fx.md", 400, "'/'"),
        ("%2Fetc%2Fpasswd.md", 400, "'/'"),
        ("prefers-pnpm.md%00", 400, "must end in '.md'"),
        ("a%7Fb.md", 400, "control"),
        ("a%C2%85b.md", 400, "control"),  # U+0085, a C1 control character
        ("Memory.MD", 400, "must end in '.md'"),
        ("%e6%95%b0" * 90 + ".md", 400, "255 bytes"),  # 90 characters, 274 bytes
        # Not UTF-8 once decoded: refused, never read as the text of its percent-encoding.
        ("%c0%ae%c0%ae%c0%afprefers-pnpm.md", 400, "percent-encoded bytes that are not UTF-8"),
        ("%ff%fe.md", 400, "holds %ff%fe, percent-encoded bytes that are not UTF-8 text"),
        ("%ED%A0%80.md", 400, "not UTF-8"),  # an encoded lone surrogate
        ("%EF%BC%8E%EF%BC%8E%EF%BC%8Fprefers-pnpm.md", 404, "no topic file"),  # full-width ../
        ("%u002e%u002e.md", 404, "no topic file"),
    ],
)
async def test_k7_hostile_file_segments_never_leave_the_scope(
    client: Client, corpus_user: AgentHome, raw: str, status: int, detail: str
) -> None:
    before = user_files(corpus_user)
    url = URL(f"{memory_url()}/scopes/user/files/{raw}", encoded=True)
    for method in ("GET", "DELETE"):
        body = await expect_problem(await client.request(method, url), status, detail)
        assert str(corpus_user.data_dir) not in body["detail"]
    assert user_files(corpus_user) == before


@pytest.mark.parametrize(
    "raw",
    ["%2e%2e", "..%2F..%2F..%2Fagents", "user%2F..%2F..", "user%00", "%00", "USER", ".workspace"],
)
async def test_k7_hostile_scope_segments_are_400(
    client: Client, agent: AgentHome, raw: str
) -> None:
    for route in ("files", "index", "files/x.md"):
        url = URL(f"{memory_url()}/scopes/{raw}/{route}", encoded=True)
        await expect_problem(await client.get(url), 400, "invalid scope")
    assert names(agent.root) == ["user"]


@pytest.mark.parametrize(
    ("path", "detail"),
    [
        ("/api/projects/%2e%2e/agents/coder/memory", "invalid project"),
        ("/api/projects/acme/agents/..%2F..%2F/memory", "invalid agent"),
        ("/api/projects/acme/agents/coder%00/memory", "invalid agent"),
        ("/api/projects/acme/agents/CODER/memory", "invalid agent"),
        ("/api/projects/a%0A/agents", "invalid project"),
        ("/api/projects/" + "a" * 65 + "/agents", "invalid project"),
    ],
)
async def test_k7_hostile_project_and_agent_ids_are_400(
    client: Client, agent: AgentHome, path: str, detail: str
) -> None:
    await expect_problem(await client.get(URL(path, encoded=True)), 400, detail)


@pytest.mark.parametrize("name", ["数据库迁移.md", "Deploy notes.md", "ünïcödé – dash.md"])
async def test_k7_unicode_names_delete_and_prune_their_index_line(
    client: Client, agent: AgentHome, name: str
) -> None:
    (agent.user / name).write_text("---\ndescription: d\n---\nbody\n", encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"- [A]({quote(name)}) linked\n- keep me\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", name)))

    assert result["file"] == name
    assert result["removedIndexLines"] == [f"- [A]({quote(name)}) linked"]
    assert index.read_text(encoding="utf-8") == "- keep me\n"
    assert not (agent.user / name).exists()


@pytest.mark.parametrize(
    "path",
    [
        "/static/nonexistent.js",
        "/static/js",
        "/static/%2e%2e/app.py",
        "/static/..%2F..%2Fsettings.py",
        "/static/.hidden",
        "/static/%00",
        "/static/" + "a" * 300,
        "/static/" + "a/" * 3000 + "app.js",
    ],
)
async def test_q2_static_misses_are_problem_404s(client: Client, path: str) -> None:
    """A missing page file is a problem+json 404 like every other miss (not an empty body),
    a name longer than any file system holds included (never a 503 blaming the data dir)."""
    await expect_problem(await client.get(URL(path, encoded=True)), 404, "nothing is served")


async def test_q2_static_files_still_serve(client: Client) -> None:
    for path, kind in [("/static/icon.svg", "image/svg+xml"), ("/static/js/store.js", "script")]:
        response = await client.get(path)
        assert response.status == 200
        assert kind in response.content_type


async def test_a5_listing_never_shows_names_no_route_could_address(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "ok.md").write_text("---\ndescription: ok\n---\n")
    (agent.user / "tab\tname.md").write_text("x")
    (agent.user / "new\nline.md").write_text("x")
    (agent.user / "bad-\udcff.md").write_text("x")  # the byte 0xff: a name that is not UTF-8

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))

    assert [item["file"] for item in listing["files"]] == ["ok.md"]


@pytest.mark.parametrize("sent", ["%FF.md", "%ff.md", "%E9t%E9.md"])
async def test_k7_bytes_that_are_not_utf8_never_name_the_file_of_their_encoding(
    client: Client, agent: AgentHome, sent: str
) -> None:
    """``%FF.md`` named the file whose name is the text ``%FF.md``: a client that encoded a name
    in Latin-1 (``été.md`` as ``%E9t%E9.md``) read or deleted another file. That file is reached
    by its own encoding, ``%25FF.md``, only."""
    # the name aiohttp made of it: the escapes kept as text, their hex digits upper-case
    literal = write_topic(agent.user, re.sub("%..", lambda m: m.group().upper(), sent))
    url = URL(f"{memory_url()}/scopes/user/files/{sent}", encoded=True)
    for method in ("GET", "DELETE"):
        response = await client.request(method, url)
        await expect_problem(response, 400, "percent-encoded bytes that are not UTF-8 text")
    assert literal.exists()
    own = URL(f"{memory_url()}/scopes/user/files/{quote(literal.name, safe='')}", encoded=True)
    assert (await ok_json(await client.get(own)))["file"] == literal.name


@pytest.mark.parametrize("route", ["/search?q=%FF", "?q=%FF", "/search?q=r%E9sum%E9"])
async def test_k7_a_query_that_is_not_utf8_is_400_not_a_search_for_u_fffd(
    client: Client, corpus_user: AgentHome, route: str
) -> None:
    """The search and the overview's group search were given U+FFFD in place of the bytes, and
    calmly found nothing."""
    url = URL(memory_url() + route, encoded=True)
    body = await expect_problem(await client.get(url), 400, "the request's query holds %")
    assert "not UTF-8 text" in body["detail"]
