"""Q-4: the service's file caches never answer from a version of a file that has changed.

The service keeps topic parses, indexes (split and masked) and marker judgements per file
version (``memory_api.store.stat_cache``). Here every cache is made to keep even brand-new files
(the 2 s "racily fresh" rule would otherwise keep the files these tests write out of the cache
altogether), a first request fills it, the agent's own tools then change a file on disk the way
an editor or a shell would, and the very next request must show the change.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import stat_cache
from memory_api.store.stat_cache import StatCache, derived_key, file_key, is_racy
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic
from tests.support.file_clock import next_file_tick


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


async def _start(client: Client, workspace: Path) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


async def _files(client: Client, key: str) -> list[dict[str, Any]]:
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
    files: list[dict[str, Any]] = listing["files"]
    return files


async def test_q4_session_start_sees_an_index_line_the_agent_appended(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [First](first.md) — the first note\n", encoding="utf-8")
    assert "the first note" in (await _start(client, workspace))["memory"]

    with index.open("a", encoding="utf-8") as handle:  # an append, as a shell `>>` does
        handle.write("- [Second](second.md) — api_key=sk-live-0123456789abcdef0123\n")
    memory = (await _start(client, workspace))["memory"]

    assert "the first note" in memory
    assert "[Second](second.md)" in memory
    assert "sk-live-0123456789abcdef0123" not in memory  # the new line is masked too (I-8)


async def test_q4_session_start_sees_a_same_size_rewrite_that_sets_the_mtime_back(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [Alpha](alpha.md) — old\n", encoding="utf-8")
    before = index.stat()
    assert "— old" in (await _start(client, workspace))["memory"]

    next_file_tick(agent.tmp)
    index.write_text("- [Alpha](alpha.md) — new\n", encoding="utf-8")  # same size, in place
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `cp -p` or `touch -d`
    assert index.stat().st_size == before.st_size
    assert index.stat().st_mtime_ns == before.st_mtime_ns

    assert "— new" in (await _start(client, workspace))["memory"]


async def test_q4_session_start_sees_an_index_replaced_and_removed(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [Alpha](alpha.md) — one\n", encoding="utf-8")
    assert "— one" in (await _start(client, workspace))["memory"]

    temp = index.with_name(".MEMORY.md.tmp")
    temp.write_text("- [Alpha](alpha.md) — two\n", encoding="utf-8")
    temp.replace(index)  # an atomic replace, as editors and the plugin write
    assert "— two" in (await _start(client, workspace))["memory"]

    index.unlink()
    answer = await _start(client, workspace)
    assert "— two" not in answer["memory"]
    assert "Nothing saved yet" in answer["memory"]


async def test_q4_listing_and_index_view_see_topic_files_added_edited_and_removed(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("app")
    scope = agent.root / key
    write_topic(scope, "kept.md")
    gone = write_topic(scope, "gone.md")
    (scope / layout.INDEX_FILE).write_text("- [Kept](kept.md) — stays\n", encoding="utf-8")
    assert [row["file"] for row in await _files(client, key)] == ["gone.md", "kept.md"]
    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))
    assert {f["file"] for f in view["findings"] if f["code"] == "unindexed"} == {"gone.md"}

    gone.unlink()
    write_topic(scope, "added.md")
    (scope / "kept.md").write_text(
        "---\nname: kept\ndescription: edited by the agent\n---\nbody\n", encoding="utf-8"
    )
    rows = await _files(client, key)
    view = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/index"))

    assert [row["file"] for row in rows] == ["added.md", "kept.md"]
    assert rows[1]["description"] == "edited by the agent"
    assert {f["file"] for f in view["findings"] if f["code"] == "unindexed"} == {"added.md"}


async def test_q4_a_scopes_kept_lint_follows_each_file_it_was_judged_from(
    client: Client, agent: AgentHome
) -> None:
    """The whole lint of a scope is kept by the stat keys of its index and topic files: a
    topic file edited in place, an index line added and the user index beside a Workspace's
    (I-4) each change the next answer, in the listing and in the overview's counts."""
    _, key = agent.workspace("app")
    scope = agent.root / key
    note = write_topic(scope, "note.md")
    (scope / layout.INDEX_FILE).write_text("- [Note](note.md) — a note\n", encoding="utf-8")
    agent.user.mkdir(parents=True, exist_ok=True)
    user_index = agent.user / layout.INDEX_FILE
    user_index.write_text("- a short user index\n", encoding="utf-8")

    async def codes() -> tuple[list[str], dict[str, int]]:
        listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
        overview = await ok_json(await client.get(memory_url()))
        (summary,) = [s for s in overview["scopes"] if s["key"] == key]
        return sorted(f["code"] for f in listing["findings"]), summary["lintCounts"]

    assert await codes() == await codes() == ([], {})  # the second answer from the kept lint

    with note.open("a", encoding="utf-8") as handle:  # in place: the folder does not change
        handle.write("token=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n")
    assert await codes() == (["secret"], {"secret": 1})

    with (scope / layout.INDEX_FILE).open("a", encoding="utf-8") as handle:
        handle.write("- [Gone](gone.md) — a file that is not there\n")
    listed, counts = await codes()
    assert "dangling-link" in listed
    assert counts["dangling-link"] == 1

    line = "- [Note](note.md) " + "w" * 80 + "\n"
    (scope / layout.INDEX_FILE).write_text(line * 150, encoding="utf-8")
    assert "not-injected" not in (await codes())[0]
    with user_index.open("a", encoding="utf-8") as handle:  # the two now share the budget
        handle.write(line * 150)
    assert "not-injected" in (await codes())[0]


async def test_q4_overview_sees_a_marker_rewritten_by_another_tool(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    _, key = agent.workspace("app")
    overview = await ok_json(await client.get(memory_url()))
    (scope,) = [s for s in overview["scopes"] if s["key"] == key]
    assert scope["markerProblems"] == []

    other = tmp_path / "elsewhere"
    other.mkdir()
    (agent.root / key / layout.MARKER_FILE).write_text(f"{other}\n", encoding="utf-8")
    overview = await ok_json(await client.get(memory_url()))
    (scope,) = [s for s in overview["scopes"] if s["key"] == key]

    assert scope["workspacePath"] == str(other)
    assert any("names" in problem for problem in scope["markerProblems"])


def test_q4_a_value_is_served_only_for_the_file_version_it_was_read_from(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("one", encoding="utf-8")
    cache: StatCache[Path, str] = StatCache(max_entries=4)
    cache.put(path, file_key(path.stat()), "one")
    assert cache.get(path, file_key(path.stat())) == "one"

    path.write_text("three", encoding="utf-8")
    assert cache.get(path, file_key(path.stat())) is None


def test_q4_a_racily_fresh_file_is_not_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", 2_000_000_000)
    path = tmp_path / "f"
    path.write_text("just written", encoding="utf-8")
    cache: StatCache[Path, str] = StatCache(max_entries=4)

    cache.put(path, file_key(path.stat()), "just written")

    assert cache.get(path, file_key(path.stat())) is None
    assert len(cache) == 0


def test_q4_a_racily_fresh_reading_is_neither_kept_nor_handed_to_another_reader(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``kept_or_put`` (one reading per file version for readers arriving together) keeps
    nothing of a version still within its timestamp's window, as ``put`` does: each reader of
    it gets its own reading, and the next request reads the file again (Q-4)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", 2_000_000_000)
    path = tmp_path / "f"
    path.write_text("just written", encoding="utf-8")
    cache: StatCache[Path, list[str]] = StatCache(max_entries=4)
    key = file_key(path.stat())
    first, second = ["first reader's"], ["second reader's"]

    assert cache.kept_or_put(path, key, first) is first
    assert cache.kept_or_put(path, key, second) is second
    assert len(cache) == 0


def test_q4_readers_of_one_settled_version_end_with_the_first_reading_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f"
    path.write_text("settled", encoding="utf-8")
    settled = path.stat().st_mtime_ns - 10_000_000_000
    os.utime(path, ns=(settled, settled))
    cache: StatCache[Path, list[str]] = StatCache(max_entries=4)
    key = file_key(path.stat())
    assert not is_racy(key)
    first, second = ["first reader's"], ["second reader's"]

    assert cache.kept_or_put(path, key, first) is first
    assert cache.kept_or_put(path, key, second) is first
    newer = (*key[:4], key[4] + 1)  # a later version replaces the reading kept
    assert cache.kept_or_put(path, newer, second) is second
    assert cache.get(path, key) is None


def test_q3_the_cache_is_bounded_by_entries_and_by_weight() -> None:
    cache: StatCache[str, str] = StatCache(max_entries=2, max_weight=10, weigh=len)
    old_key = (1, 1, 1, 1, 1)
    for name in ("a", "b", "c"):
        cache.put(name, old_key, name * 3)
    assert [cache.get(name, old_key) for name in "abc"] == [None, "bbb", "ccc"]

    cache.put("d", old_key, "d" * 8)  # 3 + 8 > 10: the least recently used goes
    assert cache.get("b", old_key) is None
    assert cache.weight <= 10
    cache.put("e", old_key, "e" * 11)  # heavier than the bound: never kept
    assert cache.get("e", old_key) is None
    cache.keep_only(["d"])
    assert len(cache) == 1


async def test_q4_overview_sees_topic_files_edited_added_and_the_workspace_removed(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    scope = agent.root / key
    write_topic(scope, "note.md")
    (scope / layout.INDEX_FILE).write_text("- [Note](note.md) — a note\n", encoding="utf-8")

    async def summary() -> dict[str, Any]:
        overview = await ok_json(await client.get(memory_url()))
        (found,) = [s for s in overview["scopes"] if s["key"] == key]
        assert isinstance(found, dict)
        return found

    first = await summary()
    assert (first["fileCount"], first["orphaned"]) == (1, False)
    assert "unindexed" not in first["lintCounts"]

    write_topic(scope, "extra.md")  # added: unindexed now
    second = await summary()
    assert second["fileCount"] == 2
    assert second["lintCounts"]["unindexed"] == 1

    (scope / layout.INDEX_FILE).write_text(
        "- [Note](note.md) — a note\n- [Extra](extra.md) — the other\n", encoding="utf-8"
    )
    assert "unindexed" not in (await summary())["lintCounts"]

    workspace.rmdir()  # the Workspace itself goes away: nothing in the scope changed
    assert (await summary())["orphaned"] is True


def test_q4_a_value_from_several_files_is_keyed_by_every_one_and_racy_with_any(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    for path in (old, new):
        path.write_text("x", encoding="utf-8")
    keys = [file_key(old.stat()), file_key(new.stat())]
    assert derived_key(("facts",), keys) == derived_key(("facts",), list(keys))
    assert derived_key(("facts",), keys) != derived_key(("other facts",), keys)

    new.write_text("xy", encoding="utf-8")  # one of the files changes
    changed = [keys[0], file_key(new.stat())]
    assert derived_key(("facts",), changed) != derived_key(("facts",), keys)
    # racy while the newest part is: nothing derived from it is kept (the 2 s rule)
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", 2_000_000_000)
    assert is_racy(derived_key(("facts",), changed))
    assert not is_racy(derived_key(("facts",), [(*key[:4], 0) for key in changed]))
