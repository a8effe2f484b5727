"""S-1 (issue 30): the search index lives on disk beside the data, survives a restart, and is
brought up to date by stat — only what changed is read again, and a change is still seen by the
next search."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from memory_api.store import search as search_module
from memory_api.store import search_index, search_text, stat_cache
from memory_api.store.containment import read_regular
from memory_api.store.search import INDEX_FOLDER, MemorySearch
from memory_api.store.search_text import Match, Query, matches
from memory_core.wire import SearchResults

from tests.api.conftest import AgentHome, Client, ok_json
from tests.api.test_s1_search import FILLED, files_of, search, topic


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as quiet at once (no 2 s racy window), so the stat
    keys are kept and the "unchanged, skip it" paths run as they do for older files."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", 0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the topic files search reads, in order."""
    read: list[str] = []

    def counting(path: Path, limit: int, **how: bool) -> tuple[bytes, os.stat_result]:
        read.append(path.name)
        return read_regular(path, limit, **how)

    monkeypatch.setattr(search_module, "read_regular", counting)
    return read


def run(searcher: MemorySearch, agent: AgentHome, query: str) -> SearchResults:
    return searcher.search(agent.id, agent.root, query, scope=None, limit=20)


def found(results: SearchResults) -> list[str]:
    return sorted(hit.file for hit in results.hits)


async def test_s1_the_index_is_a_file_of_the_data_dir_outside_the_memory_root(
    client: Client, agent: AgentHome
) -> None:
    topic(agent.user, "a.md", "a", "alpha", "kafka")
    before = sorted(path.name for path in agent.root.rglob("*"))
    assert files_of(await search(client, "kafka")) == [("user", "a.md")]
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    assert stat.S_IMODE(index.stat().st_mode) == 0o600  # it holds the notes' text
    assert stat.S_IMODE(index.parent.stat().st_mode) == 0o700
    assert sorted(path.name for path in agent.root.rglob("*")) == before


def test_s1_a_restart_reads_no_unchanged_file(
    agent_files: AgentHome, settled: None, reads: list[str]
) -> None:
    agent = agent_files
    data_dir = agent.data_dir
    assert found(run(MemorySearch(data_dir), agent, "kafka")) == ["k0.md", "k1.md"]
    assert sorted(reads) == [f"k{n}.md" for n in range(2)] + [f"n{n}.md" for n in range(8)]
    reads.clear()
    restarted = MemorySearch(data_dir)  # a new process: the same index file
    assert found(run(restarted, agent, "kafka")) == ["k0.md", "k1.md"]
    assert reads == []
    (agent.user / "n3.md").write_text("---\nname: n3\n---\nkafka now\n", encoding="utf-8")
    assert found(run(restarted, agent, "kafka")) == ["k0.md", "k1.md", "n3.md"]
    assert reads == ["n3.md"]


def test_s1_an_edit_in_place_in_an_unchanged_folder_is_seen(
    agent_files: AgentHome, settled: None
) -> None:
    """The folder's stat does not move for an edit in place: each file's own stat is checked."""
    agent = agent_files
    searcher = MemorySearch(agent.data_dir)
    assert found(run(searcher, agent, "kafka")) == ["k0.md", "k1.md"]
    folder = agent.user.stat()
    path = agent.user / "k0.md"
    old = path.stat()
    text = path.read_text(encoding="utf-8")
    with path.open("r+", encoding="utf-8") as handle:  # same size, same inode
        handle.write(text.replace("kafka", "pulsa"))
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns + 1_000_000_000))
    assert agent.user.stat().st_mtime_ns == folder.st_mtime_ns
    assert path.stat().st_size == old.st_size and path.stat().st_ino == old.st_ino
    assert found(run(searcher, agent, "kafka")) == ["k1.md"]
    assert found(run(searcher, agent, "pulsa")) == ["k0.md"]


def test_s1_scopes_come_and_go(agent_files: AgentHome, settled: None) -> None:
    agent = agent_files
    searcher = MemorySearch(agent.data_dir)
    assert found(run(searcher, agent, "kafka")) == ["k0.md", "k1.md"]
    _, key = agent.workspace("shop")
    topic(agent.root / key, "w.md", "w", "kafka in a Workspace", "x")
    assert found(run(searcher, agent, "kafka")) == ["k0.md", "k1.md", "w.md"]
    for path in (agent.root / key).iterdir():
        path.unlink()
    (agent.root / key).rmdir()
    assert found(run(searcher, agent, "kafka")) == ["k0.md", "k1.md"]
    restarted = MemorySearch(agent.data_dir)
    assert found(run(restarted, agent, "kafka")) == ["k0.md", "k1.md"]


def test_s1_a_damaged_index_is_built_again(
    agent_files: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    agent = agent_files
    assert found(run(MemorySearch(agent.data_dir), agent, "kafka")) == [
        "k0.md",
        "k1.md",
    ]
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    index.write_bytes(b"this is not an SQLite file" * 100)
    assert found(run(MemorySearch(agent.data_dir), agent, "kafka")) == [
        "k0.md",
        "k1.md",
    ]
    assert "building it again" in caplog.text


def test_s1_an_index_of_another_version_is_built_again(
    agent_files: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    """Every upgrade meets the index the version before wrote: built again, said at INFO (a
    WARNING greeted every command after an upgrade as if something were wrong)."""
    agent = agent_files
    run(MemorySearch(agent.data_dir), agent, "kafka")
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    with sqlite3.connect(index) as db:
        db.execute("UPDATE meta SET value = 'schema 0' WHERE key = 'fingerprint'")
        db.execute("INSERT INTO docs (docs) VALUES ('delete-all')")  # old rows: not trusted
    with caplog.at_level(logging.INFO):
        assert found(run(MemorySearch(agent.data_dir), agent, "kafka")) == [
            "k0.md",
            "k1.md",
        ]
    rebuilt = [r for r in caplog.records if "building it again" in r.getMessage()]
    assert [r.levelno for r in rebuilt] == [logging.INFO]


@pytest.mark.parametrize("version", [14, 15])
def test_s1_an_index_written_before_wraps_were_joined_is_built_again(
    agent: AgentHome, settled: None, version: int
) -> None:
    """Version 14 indexed ``喝\n咖啡`` as two runs and a no-break space as nothing, version 15
    joined every line break between two CJK characters (``张三\n李四``, a name a line, as
    ``张三李四``); their rows cannot be derived again by today's text form (a delete of one
    would corrupt the FTS5 table), so an index carrying either fingerprint is built again,
    never kept."""
    topic(agent.user, "wrap.md", "wrap", "w", f"{FILLED}用户周末喜欢喝\n咖啡")
    run(MemorySearch(agent.data_dir), agent, "咖啡")
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    old = search_index.fingerprint().replace(
        f"schema {search_index.SCHEMA_VERSION} ", f"schema {version} "
    )
    with sqlite3.connect(index) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (old,))
        db.execute("INSERT INTO docs (docs) VALUES ('delete-all')")  # its rows: not trusted
    assert found(run(MemorySearch(agent.data_dir), agent, "喝咖啡")) == ["wrap.md"]


async def test_s1_an_unusable_index_folder_still_searches(client: Client, agent: AgentHome) -> None:
    """A data dir where the index cannot be written (here a file in the way) keeps it in
    memory: search answers, never a 500."""
    (agent.data_dir / INDEX_FOLDER).write_text("in the way", encoding="utf-8")
    topic(agent.user, "a.md", "a", "alpha", "kafka")
    answer = await ok_json(
        await client.get("/api/projects/acme/agents/coder/memory/search?q=kafka")
    )
    assert [hit["file"] for hit in answer["hits"]] == ["a.md"]


@pytest.fixture
def agent_files(agent: AgentHome) -> AgentHome:
    """The agent with ten topic files in its user scope, two of them about kafka."""
    for number in range(8):
        topic(agent.user, f"n{number}.md", f"n{number}", "other things", f"note {number}")
    for number in range(2):
        topic(agent.user, f"k{number}.md", f"k{number}", "queues", f"kafka topic {number}")
    return agent


async def test_s1_an_index_missing_a_table_is_built_again_never_a_500(
    client: Client, agent: AgentHome
) -> None:
    topic(agent.user, "a.md", "a", "alpha", "kafka")
    assert files_of(await search(client, "kafka")) == [("user", "a.md")]
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    with sqlite3.connect(index) as db:
        db.execute("DROP TABLE texts")
    assert files_of(await search(client, "kafka")) == [("user", "a.md")]


def test_s1_q4_two_processes_share_the_index_and_each_stays_right(
    agent_files: AgentHome, settled: None, reads: list[str]
) -> None:
    """Q-4: what one process indexed, another uses (its mirror read again), never re-reading it."""
    agent = agent_files
    first, second = MemorySearch(agent.data_dir), MemorySearch(agent.data_dir)
    assert found(run(first, agent, "kafka")) == ["k0.md", "k1.md"]
    assert found(run(second, agent, "kafka")) == ["k0.md", "k1.md"]
    path = agent.user / "k0.md"
    path.write_text(path.read_text(encoding="utf-8").replace("kafka", "pulsa"), encoding="utf-8")
    reads.clear()
    assert found(run(second, agent, "pulsa")) == ["k0.md"]
    assert found(run(first, agent, "pulsa")) == ["k0.md"]
    assert found(run(first, agent, "kafka")) == ["k1.md"]
    assert reads == ["k0.md"]  # read once, by the process that saw the change first


def test_s1_a_search_in_one_scope_then_in_all(agent_files: AgentHome, settled: None) -> None:
    agent = agent_files
    _, key = agent.workspace("shop")
    topic(agent.root / key, "w.md", "w", "kafka here too", "x")
    searcher = MemorySearch(agent.data_dir)
    only = searcher.search(agent.id, agent.root, "kafka", scope=key, limit=20)
    assert [(hit.scope, hit.file) for hit in only.hits] == [(key, "w.md")] and only.total == 1
    assert found(run(searcher, agent, "kafka")) == ["k0.md", "k1.md", "w.md"]


def test_s1_q4_an_index_file_replaced_by_another_process_is_opened_again(
    agent_files: AgentHome,
) -> None:
    """One process rebuilding a damaged index replaces the file: the others follow it."""
    agent = agent_files
    first = MemorySearch(agent.data_dir)
    assert found(run(first, agent, "kafka")) == ["k0.md", "k1.md"]
    index = agent.data_dir / INDEX_FOLDER / f"{agent.id}.sqlite3"
    index.unlink()  # as a rebuild by another process does, before it makes a new file
    second = MemorySearch(agent.data_dir)
    assert found(run(second, agent, "kafka")) == ["k0.md", "k1.md"]
    assert found(run(first, agent, "kafka")) == ["k0.md", "k1.md"]
    assert first._agent(agent.id).index._inode == index.stat().st_ino  # the same file again


def test_s1_matching_work_is_bounded_however_large_the_candidates(
    agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Marking and counting matches is linear in the text matched: over candidates of 1 MB
    each it is bounded by the part of each field read (SCORED_CHARS), not by their size; a
    word only found past that part still finds its file and counts for its score."""
    filler = "lorem ipsum dolor sit amet " * 36_000  # ~970 KB, under the 1 MiB read cap
    for number in range(4):
        topic(agent.user, f"big{number}.md", f"big{number}", "large", f"kafka {filler} zebra")
    topic(agent.user, "small.md", "small", "tiny", "kafka and a zebra")
    matched: list[int] = []
    real = matches

    def counting(text: str, query: Query) -> list[Match]:
        matched.append(len(text))
        return real(text, query)

    monkeypatch.setattr(search_text, "matches", counting)  # under shown_matches
    results = run(MemorySearch(agent.data_dir), agent, "kafka zebra")
    assert results.total == 5
    assert found(results) == ["big0.md", "big1.md", "big2.md", "big3.md", "small.md"]
    assert all(hit.score > 0 for hit in results.hits)
    assert results.hits[0].file == "small.md"  # both words in a short body
    assert max(matched) <= search_module.SCORED_CHARS
    assert sum(matched) <= 5 * 3 * search_module.SCORED_CHARS + 5 * 100  # and each name again
    big = next(hit for hit in results.hits if hit.file == "big0.md")
    assert [part.text for part in big.snippet if part.hit] == ["kafka"]


_LATIN = "lorem ipsum dolor sit amet "
_CJK = "天气很好我们去公园散步。"


def _body_with(filler: str, size: int, at: int, match: str) -> str:
    """A body of about ``size`` characters of ``filler`` with ``match`` at character ``at``."""
    text = (filler * (size // len(filler) + 1))[:size]
    return text[:at] + match + text[at:]


def _shown_hits(results: SearchResults) -> list[str]:
    (hit,) = results.hits
    return [part.text for part in hit.snippet if part.hit]


@pytest.mark.parametrize("size", [70_000, 300_000])
@pytest.mark.parametrize(
    ("filler", "written", "query", "marked"),
    [
        (_LATIN, " kafka ", "kafka", ["kafka"]),
        (_CJK, "[成语](https://x)接龙", "成语接龙", ["成语", "接龙"]),
    ],
)
def test_s1_a_match_only_past_the_part_scored_is_shown_in_the_snippet(
    agent: AgentHome, size: int, filler: str, written: str, query: str, marked: list[str]
) -> None:
    """A topic whose only match lies past the first SCORED_CHARS characters of its body is
    found, and its snippet is the passage holding that match, marked, after an ellipsis."""
    topic(agent.user, "far.md", "far", "large", _body_with(filler, size, size - 500, written))
    hit = run(MemorySearch(agent.data_dir), agent, query).hits[0]
    assert hit.file == "far.md"
    assert [part.text for part in hit.snippet if part.hit] == marked
    assert hit.snippet[0].text == "…" and hit.snippet[-1].text == "…"


def test_s1_a_match_across_the_edge_of_the_part_scored_is_shown_whole(
    agent: AgentHome,
) -> None:
    """A match that the first part read cuts in two is shown whole from the next part."""
    edge = search_module.SCORED_CHARS - 3  # " kafka " from there: "ka" before, "fka" after
    topic(agent.user, "edge.md", "edge", "large", _body_with(_LATIN, 70_000, edge, " kafka "))
    assert _shown_hits(run(MemorySearch(agent.data_dir), agent, "kafka")) == ["kafka"]


def test_s1_a_match_in_the_part_scored_keeps_its_snippet(agent: AgentHome) -> None:
    """A long body matched near its start shows that passage, from the body's start."""
    body = _body_with(_LATIN, 300_000, 12, " kafka ") + " kafka"
    topic(agent.user, "near.md", "near", "large", body)
    hit = run(MemorySearch(agent.data_dir), agent, "kafka").hits[0]
    assert [part.text for part in hit.snippet if part.hit] == ["kafka"]
    assert hit.snippet[0].text.startswith("lorem ipsum") and hit.snippet[-1].text == "…"


def test_s1_a_far_snippet_matches_the_body_only_up_to_its_first_match(
    agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parts after the first are matched one at a time, each of SCORED_CHARS characters,
    up to the first one holding a match: not the rest of the body."""
    body = _body_with(_LATIN, 300_000, 140_000, " kafka ")  # in the third part of five
    topic(agent.user, "mid.md", "mid", "large", body)
    matched: list[int] = []
    real = matches

    def counting(text: str, query: Query) -> list[Match]:
        matched.append(len(text))
        return real(text, query)

    monkeypatch.setattr(search_text, "matches", counting)
    assert _shown_hits(run(MemorySearch(agent.data_dir), agent, "kafka")) == ["kafka"]
    assert max(matched) <= search_module.SCORED_CHARS
    assert sum(matched) <= 3 * search_module.SCORED_CHARS + 100  # the body's first 3 of 5 parts
