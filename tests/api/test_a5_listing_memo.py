"""A-5, Q-4 (issue 30): a scope's listing after a restart of the service comes from the listing
memo on disk (``store/topic_memo.py``), keyed by each file's stat like the in-memory cache:
the same answer as a listing that reads every file, no topic file read for it, and a file
changed on disk meanwhile read again.

The 2 s "racily fresh" rule is lifted so the files these tests write a moment earlier are kept.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import shutil
import sqlite3
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store import stat_cache, topic_cache, topic_memo
from memory_api.store.answers import ScopeAnswers
from memory_api.store.listings import FolderListings
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.topic_cache import TopicCache
from memory_api.store.topic_memo import MEMO_FILE, TopicMemo, light
from memory_core.lint import lint_links
from memory_core.topics import ParsedTopic, parse_topic
from memory_core.wire import TopicSummary
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, real
from tests.support.file_clock import next_file_tick

TOPICS = {
    "deploy-steps.md": "---\nname: deploy-steps\ndescription: how we deploy\n---\n"
    "Run `make deploy`.\nSee [[release-notes]] and [[missing-one|it]].\n\n[[deploy-steps]]\n",
    "Release Notes.md": "---\nname: Release Notes\ndescription: what shipped\n---\nv1\n",
    "token-note.md": "---\nname: token-note\ndescription: api_key=sk-live-0123456789abcdef0123\n"
    "---\nline one\npassword = hunter2hunter2\n[[nowhere]] at the end\n",
    "plain.md": "no frontmatter here, and a [[dangling]] link\n",
}


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches and the memo keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


def _scope(agent: AgentHome) -> tuple[str, Path]:
    _, key = agent.workspace("app")
    scope = agent.root / key
    for name, text in TOPICS.items():
        (scope / name).write_text(text, encoding="utf-8")
    (scope / "MEMORY.md").write_text("- [Deploy](deploy-steps.md) — how\n", encoding="utf-8")
    return key, scope


async def _listing(client: Client, key: str) -> dict[str, Any]:
    return await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))


async def _restarted(aiohttp_client: AiohttpClient, settings: Settings) -> Client:
    """A second service on the same data dir: nothing in memory, the memo on disk."""
    return await aiohttp_client(create_app(settings))


def _no_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count every topic file the parse cache parses from now on."""
    parsed: list[str] = []

    def counting(raw: bytes, file_name: str) -> ParsedTopic:
        parsed.append(file_name)
        return parse_topic(raw, file_name)

    monkeypatch.setattr(topic_cache, "parse_topic", counting)
    return parsed


async def test_a5_listing_after_a_restart_is_the_same_and_reads_no_topic_file(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key, _ = _scope(agent)
    first = await _listing(client, key)
    assert any(finding["code"] == "secret" for finding in first["findings"])
    assert any(finding["code"] == "dangling-wiki-link" for finding in first["findings"])

    parsed = _no_reads(monkeypatch)
    again = await _listing(await _restarted(aiohttp_client, settings), key)

    assert again == first
    assert parsed == []
    memo = agent.data_dir / MEMO_FILE
    assert stat.S_IMODE(memo.stat().st_mode) == 0o600
    assert stat.S_IMODE(memo.parent.stat().st_mode) == 0o700
    assert b"sk-live-0123456789abcdef0123" not in memo.read_bytes()  # masked, never kept (I-8)
    assert b"hunter2hunter2" not in memo.read_bytes()


async def test_a5_index_view_after_a_restart_is_the_same_and_reads_no_topic_file(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The index view lints every topic file of the scope; what it made of them is kept in the
    memo as a listing keeps it, so a restarted service answers it reading none (and a listing
    after it neither), where each restart read and linted every file again."""
    key, _ = _scope(agent)
    first = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
    assert any(finding["code"] == "secret" for finding in first["findings"])

    parsed = _no_reads(monkeypatch)
    restarted = await _restarted(aiohttp_client, settings)
    again = await ok_json(await restarted.get(f"{memory_url()}/scopes/{key}/index"))
    listing = await _listing(restarted, key)

    assert again == first
    assert parsed == []
    assert sorted(row["file"] for row in listing["files"]) == sorted(TOPICS)
    assert b"sk-live-0123456789abcdef0123" not in (agent.data_dir / MEMO_FILE).read_bytes()


async def test_a5_q4_listing_after_a_restart_sees_a_file_edited_in_place_meanwhile(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key, scope = _scope(agent)
    await _listing(client, key)
    path = scope / "deploy-steps.md"
    before = path.stat()

    next_file_tick(agent.tmp)
    edited = TOPICS["deploy-steps.md"].replace("how we deploy", "how we rolled")
    path.write_text(edited, encoding="utf-8")  # same size, in place, mtime set back
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size

    parsed = _no_reads(monkeypatch)
    again = await _listing(await _restarted(aiohttp_client, settings), key)

    row = next(row for row in again["files"] if row["file"] == "deploy-steps.md")
    assert row["description"] == "how we rolled"
    assert parsed == ["deploy-steps.md"]  # the others from the memo
    (scope / "plain.md").unlink()
    gone = await _listing(await _restarted(aiohttp_client, settings), key)
    assert "plain.md" not in [row["file"] for row in gone["files"]]


async def test_a5_one_file_read_after_a_listing_from_the_memo_has_its_body(
    client: Client, agent: AgentHome, aiohttp_client: AiohttpClient, settings: Settings
) -> None:
    key, _ = _scope(agent)
    await _listing(client, key)
    restarted = await _restarted(aiohttp_client, settings)
    await _listing(restarted, key)  # the scope's topics now held as the memo's light parses

    answer = await ok_json(await restarted.get(f"{memory_url()}/scopes/{key}/files/plain.md"))

    assert answer["body"] == TOPICS["plain.md"].strip()
    assert answer["description"] is None


async def test_a5_a_memo_of_another_version_or_damaged_is_not_used(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another version's memo (every upgrade meets one) is built again, said at INFO; a damaged
    one at WARNING."""
    key, _ = _scope(agent)
    first = await _listing(client, key)
    memo = agent.data_dir / MEMO_FILE

    monkeypatch.setattr(topic_memo, "FINGERPRINT", "another version")
    parsed = _no_reads(monkeypatch)
    caplog.set_level(logging.INFO)
    assert await _listing(await _restarted(aiohttp_client, settings), key) == first
    rebuilt = [r.levelno for r in caplog.records if "; built again" in r.getMessage()]
    assert rebuilt == [logging.INFO]
    assert sorted(parsed) == sorted(TOPICS)  # its rows were dropped: every file read again
    with sqlite3.connect(memo) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone() == (
            "another version",
        )

    memo.write_bytes(b"not a database at all" * 100)
    parsed.clear()
    caplog.clear()
    assert await _listing(await _restarted(aiohttp_client, settings), key) == first
    rebuilt = [r.levelno for r in caplog.records if "; built again" in r.getMessage()]
    assert rebuilt == [logging.WARNING]
    assert sorted(parsed) == sorted(TOPICS)
    parsed.clear()
    assert await _listing(await _restarted(aiohttp_client, settings), key) == first
    assert parsed == []  # built again, and used


def _not_written_yet(agent: AgentHome, titled: int | None = None) -> list[str]:
    """200 kebab-case topic files of the user scope, each linking to a note no file is named
    as (``[[Not Written Yet]]``, as an Obsidian vault links notes not written yet); the one at
    ``titled`` (if any) is titled so (its frontmatter ``name``), the link naming it (T-5b)."""
    names = [f"note-{number:04d}.md" for number in range(200)]
    for number, name in enumerate(names):
        title = "Not Written Yet" if number == titled else name.removesuffix(".md")
        text = f"---\nname: {title}\ndescription: {name}\n---\nsee [[Not Written Yet]]\n"
        (agent.user / name).write_text(text, encoding="utf-8")
    return names


async def _page(client: Client, after: str | None = None) -> dict[str, Any]:
    """A page of 5 files of the user scope, after the file ``after`` (None: the first)."""
    cursor = {"cursor": after} if after else {}
    url = f"{memory_url()}/scopes/user/files"
    return await ok_json(await client.get(url, params={"limit": "5"} | cursor))


async def _two_pages(client: Client, names: list[str]) -> list[dict[str, Any]]:
    """The first page and the one after ``names[99]`` (``names[100:105]``)."""
    return [await _page(client), await _page(client, names[99])]


def _dangling(pages: list[dict[str, Any]]) -> list[str]:
    """The files the ``pages`` name a ``dangling-wiki-link`` of, in order."""
    found = [finding for page in pages for finding in page["findings"]]
    return [finding["file"] for finding in found if finding["code"] == "dangling-wiki-link"]


async def test_a5_t5b_after_a_restart_a_link_to_a_note_not_written_yet_parses_the_page_only(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page whose ``[[link]]`` names no file asks every topic's frontmatter ``name`` (T-5b).
    The first page after every restart parsed the whole scope for them (30,000 files: 5 s of
    CPU). The names are kept in the memo on disk by each file's stat: after a restart a page
    parses only its own files (the first page, shown before, none), and says what a service
    with no memo says."""
    names = _not_written_yet(agent)
    assert _dangling([await _page(client)]) == names[:5]

    parsed = _no_reads(monkeypatch)
    pages = await _two_pages(await _restarted(aiohttp_client, settings), names)

    assert sorted(parsed) == names[100:105]
    assert _dangling(pages) == [*names[:5], *names[100:105]]
    (agent.data_dir / MEMO_FILE).unlink()
    assert await _two_pages(await _restarted(aiohttp_client, settings), names) == pages


@pytest.mark.parametrize("change", ["retitled", "renamed"])
async def test_a5_t5b_after_a_restart_a_file_retitled_or_renamed_meanwhile_is_seen(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    """A name the memo keeps is served only for the very file version it was read from: the
    note titled ``Not Written Yet`` retitled in place after the service stopped (same size,
    mtime set back) no longer answers the link; renamed, it still does, read by its new name.
    Only the changed file is parsed beside the pages' own."""
    names = _not_written_yet(agent, titled=150)
    assert _dangling([await _page(client)]) == []  # every link names note-0150's title
    path = agent.user / names[150]
    if change == "retitled":
        before = path.stat()
        next_file_tick(agent.tmp)
        path.write_text(path.read_text("utf-8").replace("Yet\ndesc", "Yes\ndesc"), "utf-8")
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert path.stat().st_size == before.st_size
        seen, expected = names[150], [*names[:5], *names[100:105]]
    else:
        seen, expected = "zz-later.md", []
        path.rename(agent.user / seen)

    parsed = _no_reads(monkeypatch)
    pages = await _two_pages(await _restarted(aiohttp_client, settings), names)

    assert sorted(parsed) == sorted([*names[100:105], seen])
    assert _dangling(pages) == expected
    (agent.data_dir / MEMO_FILE).unlink()
    assert await _two_pages(await _restarted(aiohttp_client, settings), names) == pages


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE topics SET stat_key = x'00'",
        "UPDATE topics SET name = x'00ff'",
        # a field msgspec skips nested deeper than it reads: RecursionError, no DecodeError
        f"UPDATE topics SET value = x'81a178{'91' * 5000}c0'",  # noqa: S608 (a constant)
    ],
    ids=["stat key", "name", "value nested too deep"],
)
async def test_a5_t5b_a_damaged_row_of_the_memo_is_no_row_never_an_error(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    settings: Settings,
    damage: str,
) -> None:
    """A memo row whose stat key or name cannot be read (a damaged file that still opens) is
    as no row: its file is parsed, and the pages say what a service with no memo says. It
    had answered 422 (the key) or 500 (the name) on the first page after a restart."""
    names = _not_written_yet(agent)
    await _two_pages(client, names)
    with sqlite3.connect(agent.data_dir / MEMO_FILE) as memo:
        memo.execute(damage)

    pages = await _two_pages(await _restarted(aiohttp_client, settings), names)

    assert _dangling(pages) == [*names[:5], *names[100:105]]
    (agent.data_dir / MEMO_FILE).unlink()
    assert await _two_pages(await _restarted(aiohttp_client, settings), names) == pages


def test_a5_a_name_kept_alone_never_hides_a_row_of_its_version_nor_outlives_its_version(
    tmp_path: Path,
) -> None:
    """A name stored alone for the version a whole row holds leaves the row served; for
    another version it replaces it: the row is no longer served, the name is, for that
    version only."""
    memo = TopicMemo(tmp_path / MEMO_FILE)
    topic = parse_topic(TOPICS["deploy-steps.md"].encode(), "deploy-steps.md")
    row = TopicSummary(
        "deploy-steps.md", "deploy-steps", "how", None, 1, "2026-01-01T00:00:00Z", []
    )
    old, new = (1, 2, 3, 4, 5), (1, 2, 3, 4, 6)
    where = ("/s/deploy-steps.md", "deploy-steps.md")
    memo.put("/s", [(*where, old, light(topic, row, []))], ["deploy-steps.md"])

    memo.put_names("/s", [(*where, old, "deploy-steps")])
    assert memo.get(*where, old) is not None
    assert memo.names("/s") == {where: (old, "deploy-steps")}

    memo.put_names("/s", [(*where, new, "Deploy Steps")])
    assert memo.get(*where, old) is None and memo.get(*where, new) is None
    assert memo.names("/s") == {where: (new, "Deploy Steps")}
    assert memo.names("/elsewhere") == {}


def test_a5_a_light_parse_gives_every_dangling_link_its_line() -> None:
    text = (
        "---\nname: n\ndescription: d\n---\nintro\n\n```\n[[in-code]]\n```\n"
        "a [[x]] and [[xy|alias]]\nlater [[x]] again, and [[z#part]]\n[[y]]\n"
    )
    topic = parse_topic(text.encode(), "n.md")
    row = TopicSummary("n.md", "n", "d", None, 1, "2026-01-01T00:00:00Z", [])
    kept = light(topic, row, [])

    assert kept.description is None and "intro" not in kept.body
    assert lint_links([kept], ["n.md"]) == lint_links([topic], ["n.md"])
    assert [finding.line for finding in lint_links([kept], ["n.md"])] == [10, 10, 11, 12]


async def test_a5_a_listing_from_the_memo_is_the_same_when_the_parse_cache_holds_one_file(
    client: Client, agent: AgentHome
) -> None:
    key, scope = _scope(agent)
    first = await _listing(client, key)
    memo = TopicMemo(agent.data_dir / MEMO_FILE)
    tiny = ScopeAnswers(TopicCache(max_entries=1, memo=memo), ScopeFiles(), FolderListings())

    answer = await asyncio.to_thread(
        tiny.topic_list, Path(real(agent.root)), Path(real(scope)), key
    )

    assert msgspec.to_builtins(answer) == first  # rows and findings from the memo's own


@pytest.mark.parametrize("code", [errno.EIO, errno.ESTALE, errno.EACCES], ids=errno.errorcode.get)
def test_q2b_a_scope_folder_whose_stat_fails_is_listed_with_the_reason_never_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """The listing memo keys a folder by its ``stat``; one that failed for another reason than
    "not there" (a disk's I/O error, an NFS handle gone stale, no permission to look into the
    memory root) answered None, which every caller reads as "the folder is gone": a scope that
    is on disk was answered as absent. Now the folder is listed as any other, and a listing it
    refuses says why (Q-2b)."""
    scope = tmp_path / "user"
    scope.mkdir()
    (scope / "deploy-steps.md").write_text(TOPICS["deploy-steps.md"], encoding="utf-8")
    looking = os.stat

    def refusing(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if os.fspath(path) == os.fspath(scope):
            raise OSError(code, os.strerror(code), os.fspath(path))
        return looking(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refusing)

    listing = FolderListings().listing(scope)

    assert listing is not None
    assert listing.regular == ("deploy-steps.md",)
    assert listing.error is None
    monkeypatch.undo()
    shutil.rmtree(scope)
    assert FolderListings().listing(scope) is None  # gone is gone
