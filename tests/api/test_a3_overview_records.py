"""A-3 after a restart (issue 30): the overview keeps each scope's topic file count and lint
tallies on disk (``<data>/overview/<agent>.sqlite3``), keyed by the stat of every file they
came from, so a restarted service does not list every folder nor lint the page's scopes again;
and whatever changed on disk meanwhile shows on the first page after the restart, exactly as a
service that keeps nothing would show it.

A "process" here is a fresh :class:`ScopeAnswers` and :class:`ScopeRecordFiles` on the same data
dir, as a restarted service builds them. The 2 s "racily fresh" rule is lifted so the files the
tests write a moment earlier are kept at all.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from memory_api.store import answers as answers_module
from memory_api.store import scope_records, stat_cache
from memory_api.store.answers import OverviewPage, ScopeAnswers
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.scope_records import RECORDS_FOLDER, ScopeRecordFiles, ScopeRecords
from memory_api.store.topic_cache import TopicCache
from memory_core import layout
from memory_core.lint import lint_scope

from tests.api.conftest import AgentHome, Client, corpus_topics, memory_url, ok_json, write_topic


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the records keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


class Process:
    """What one service process keeps: its answers' caches and its scope records."""

    def __init__(self, data_dir: Path) -> None:
        self.answers = ScopeAnswers(TopicCache(), ScopeFiles())
        self.records = ScopeRecordFiles(data_dir)

    def page(self, agent: AgentHome, limit: int = 50) -> OverviewPage:
        """The overview's first page of ``agent``."""
        return self.answers.overview(
            agent.root.resolve(), limit=limit, records=self.records.of(agent.id)
        )


def keeping_nothing(agent: AgentHome, limit: int = 50) -> OverviewPage:
    """The first page as a service that keeps nothing between requests would answer it."""
    answers = ScopeAnswers(TopicCache(), ScopeFiles())
    return answers.overview(agent.root.resolve(), limit=limit, records=ScopeRecords(None))


def count_lints(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """From now on, every scope the overview lints, in order (its first argument)."""
    linted: list[object] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        linted.append(args[0])
        return lint_scope(*args, **kwargs)

    monkeypatch.setattr(answers_module, "lint_scope", counting)
    return linted


def plain(page: OverviewPage) -> list[dict[str, Any]]:
    """The page's scopes as JSON-ready dicts (to compare whole answers)."""
    return [msgspec.to_builtins(scope) for scope in page.scopes]


def scopes_of(agent: AgentHome, count: int) -> list[str]:
    """``count`` Workspace scopes with two topic files, one linked from the index."""
    keys = []
    for number in range(count):
        _, key = agent.workspace(f"repo-{number}")
        scope = agent.root / key
        write_topic(scope, "linked.md")
        write_topic(scope, "unlinked.md")  # an unindexed file: a finding to count
        (scope / layout.INDEX_FILE).write_text("- [L](linked.md) — a note\n", encoding="utf-8")
        keys.append(key)
    return keys


def same_size_edit(path: Path, old: str, new: str) -> None:
    """Rewrite ``path`` in place with ``old`` replaced by ``new`` (same length), its mtime put
    back: only the ctime tells the change (as ``cp -p`` or an editor that keeps times would)."""
    assert len(old) == len(new)
    info = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size


def test_a3_a_restart_lints_no_unchanged_scope_and_answers_the_same(
    corpus_user: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    scopes_of(corpus_user, 3)
    before = Process(corpus_user.data_dir).page(corpus_user)
    assert before.totals.files == len(corpus_topics("user-scope")) + 6
    assert any(scope.lint_counts for scope in before.scopes)

    def no_lint(*_: object, **__: object) -> None:
        raise AssertionError("an unchanged scope was linted again after the restart")

    monkeypatch.setattr(answers_module, "lint_scope", no_lint)
    after = Process(corpus_user.data_dir).page(corpus_user)

    assert plain(after) == plain(before)
    assert after.totals == before.totals


def test_a3_changes_made_while_the_service_was_down_show_after_the_restart(
    corpus_user: AgentHome,
) -> None:
    keys = scopes_of(corpus_user, 4)
    Process(corpus_user.data_dir).page(corpus_user)
    edited, added, removed, index_edited = (corpus_user.root / key for key in keys)
    # in place, same size, mtime put back: the file no longer has a description
    same_size_edit(edited / "unlinked.md", "description:", "descriptioX:")
    write_topic(added, "new.md")  # a file the index does not name
    (removed / "unlinked.md").unlink()  # the unindexed file gone: its finding too
    same_size_edit(index_edited / layout.INDEX_FILE, "linked.md)", "gone-1.md)")  # a dead link

    after = Process(corpus_user.data_dir).page(corpus_user)

    assert plain(after) == plain(keeping_nothing(corpus_user))
    assert after.totals == keeping_nothing(corpus_user).totals
    by_key = {scope.key: scope for scope in after.scopes}
    assert by_key[added.name].file_count == 3
    assert by_key[removed.name].file_count == 1


def test_a3_the_user_index_changed_meanwhile_judges_every_workspace_again(
    corpus_user: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    scopes_of(corpus_user, 2)
    Process(corpus_user.data_dir).page(corpus_user)
    with (corpus_user.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write("- [New](new-note.md) — a line the Workspace indexes now share room with\n")
    linted = count_lints(monkeypatch)
    after = Process(corpus_user.data_dir).page(corpus_user)

    assert len(linted) == 3  # the user scope and both Workspaces: the companion changed
    monkeypatch.setattr(answers_module, "lint_scope", lint_scope)
    assert plain(after) == plain(keeping_nothing(corpus_user))


def test_a3_a_damaged_records_file_is_started_again(agent: AgentHome) -> None:
    scopes_of(agent, 2)
    expected = plain(Process(agent.data_dir).page(agent))
    path = agent.data_dir / RECORDS_FOLDER / f"{agent.id}.sqlite3"
    path.write_bytes(b"not a database" * 100)

    assert plain(Process(agent.data_dir).page(agent)) == expected
    assert path.read_bytes().startswith(b"SQLite format 3")


def test_a3_records_written_by_other_code_are_not_used(
    agent: AgentHome, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Records another version wrote (every upgrade meets them) are started again, said at
    INFO: nothing is wrong, so no WARNING."""
    scopes_of(agent, 2)
    Process(agent.data_dir).page(agent)
    monkeypatch.setattr(scope_records, "_fingerprint", lambda: "other code")
    linted = count_lints(monkeypatch)
    with caplog.at_level(logging.INFO):
        Process(agent.data_dir).page(agent)

    assert len(linted) == 3  # the user scope and both Workspaces
    restarted = [r for r in caplog.records if "starting it again" in r.getMessage()]
    assert [r.levelno for r in restarted] == [logging.INFO]


def test_a3_records_of_scopes_removed_are_dropped(agent: AgentHome) -> None:
    keys = scopes_of(agent, 3)
    Process(agent.data_dir).page(agent)
    for key in keys[:2]:
        for path in (agent.root / key).iterdir():
            path.unlink()
        (agent.root / key).rmdir()

    after = Process(agent.data_dir).page(agent)

    assert [scope.key for scope in after.scopes] == ["user", keys[2]]
    path = agent.data_dir / RECORDS_FOLDER / f"{agent.id}.sqlite3"
    with sqlite3.connect(path) as db:
        kept = {name for (name,) in db.execute("SELECT name FROM folders")}
        linted = {name for (name,) in db.execute("SELECT name FROM lints")}
    assert kept == linted == {"user", keys[2]}


async def test_a3_the_service_keeps_its_records_owner_only_beside_the_data(
    client: Client, agent: AgentHome
) -> None:
    scopes_of(agent, 1)

    page = await ok_json(await client.get(memory_url()))

    assert page["totals"]["files"] == 2
    path = agent.data_dir / RECORDS_FOLDER / f"{agent.id}.sqlite3"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not any(agent.root.rglob("*.sqlite3*"))


def test_a3_a_lint_tally_nested_too_deep_is_no_tally(tmp_path: Path) -> None:
    """A kept tally with a field nested deeper than msgspec reads (a damaged file that still
    opens) raised ``RecursionError``, no ``DecodeError``: it is as no tally (linted again)."""
    tally = scope_records.LintTally(counts={"L1": 1}, severities={"error": 1}, code_severities={})
    records = ScopeRecords(tmp_path / "records.sqlite")
    assert records.lint_tally("user", b"d" * 16) is None  # opens the file
    records.keep_lint_tally("user", b"d" * 16, tally, racy=False)
    records.flush()
    assert records.lint_tally("user", b"d" * 16) == tally
    deep = b'{"note": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    with sqlite3.connect(tmp_path / "records.sqlite") as db:
        db.execute("UPDATE lints SET tally = ?", (deep,))
    assert records.lint_tally("user", b"d" * 16) is None
