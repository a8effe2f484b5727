"""V-2: the recently deleted files are read from an index of the history's deletions, so a look
costs what is new and what is listed, never a walk of the whole history.

The index (``store/history/deletions.py``) names the version it reaches; a look walks only the
versions recorded after it. Whatever happens to it — missing, damaged, left behind by
retention's rewrite of the history — the listing is the one a whole walk of the history gives:
newest deletion first, each file once, not the files there now, with the version to restore.

An index that must be built (the first look after an upgrade) is never built by one look walking
the whole of a long history, which a user would feel as a hung page: each look walks a bounded
part further down, answers at once with the deletions found so far, newest first, and says
whether the listing is complete; the page asks again until it is.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.store.history import deletions, reading, repo
from memory_api.store.history.deletions import INDEX_FILE
from memory_api.store.history.maintenance import Retention, apply_retention, maintain
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_api.store.history.repo import read_head
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_v1_versions import checkpoint

AGENT = "historian"
WHO = Attribution("checkpoint")


class Scope:
    """A scope folder and its history, changed and recorded as a Session would."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = layout.scope_dir(data_dir, AGENT, "user")
        self.folder.mkdir(parents=True)
        self.histories = ScopeHistories(data_dir)

    @property
    def repository(self) -> Path:
        return self.histories.repository(AGENT, self.folder)

    def write(self, name: str, text: str = "a note\n") -> None:
        (self.folder / name).write_text(text, encoding="utf-8")
        self.histories.record(AGENT, self.folder, WHO)

    def delete(self, name: str) -> None:
        (self.folder / name).unlink()
        self.histories.record(AGENT, self.folder, WHO)

    def listed(self, limit: int = 100) -> list[tuple[str, str]]:
        """``(file, version to restore)`` of the recently deleted files, newest first."""
        found, complete = self.look(limit)
        assert complete  # a short history is looked through at once
        return found

    def look(self, limit: int = 100) -> tuple[list[tuple[str, str]], bool]:
        """One look at the recently deleted files: ``(file, version to restore)`` of those
        found, newest first, and whether the listing is complete."""
        present = {path.name for path in self.folder.iterdir()}
        found, complete = reading.deleted_files(self.repository, present, limit=limit)
        return [(item.file, item.restore_version) for item in found], complete

    def git(self, *args: str) -> str:
        command = ["git", f"--git-dir={self.repository}", *args]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    def held(self, version: str, name: str) -> bool:
        """Whether ``name`` is in ``version`` of the branch."""
        return name in self.git("ls-tree", "--name-only", version).split()


@pytest.fixture
def scope(tmp_path: Path) -> Scope:
    made = Scope(tmp_path / "data")
    for name in ("a.md", "b.md", "c.md", "d.md"):
        made.write(name)
    return made


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The arguments of every ``git log`` the index runs to find deletions."""
    seen: list[tuple[str, ...]] = []
    real: Callable[..., Any] = repo.log

    def spied(repository: Path, *args: str, **kwargs: Any) -> Any:
        seen.append(args)
        return real(repository, *args, **kwargs)

    monkeypatch.setattr("memory_api.store.history.deletions.log", spied)
    return seen


def test_v2_deleted_files_are_listed_newest_first_each_once_with_the_version_holding_them(
    scope: Scope,
) -> None:
    scope.delete("a.md")
    scope.delete("b.md")
    scope.write("a.md", "back again\n")
    scope.delete("a.md")  # deleted twice: its newest deletion is the one listed
    scope.delete("c.md")
    scope.write("b.md", "brought back\n")  # there now: not listed

    listed = scope.listed()

    assert [name for name, _ in listed] == ["c.md", "a.md"]
    for name, version in listed:
        assert scope.held(version, name)
    assert scope.git("show", f"{listed[1][1]}:a.md") == "back again\n"
    assert scope.listed(limit=1) == listed[:1]


def test_v2_a_look_walks_only_the_versions_recorded_since_the_index(
    scope: Scope, walks: list[tuple[str, ...]]
) -> None:
    scope.delete("a.md")
    assert [name for name, _ in scope.listed()] == ["a.md"]  # the index is made here
    indexed = read_head(scope.repository)
    walks.clear()

    assert [name for name, _ in scope.listed()] == ["a.md"]
    assert walks == []  # nothing new: the index alone answers

    scope.write("d.md", "changed\n")
    scope.delete("b.md")
    assert [name for name, _ in scope.listed()] == ["b.md", "a.md"]
    assert len(walks) == 1
    assert f"^{indexed}" in walks[0]  # only what came after the indexed version


def test_v2_maintenance_brings_the_index_up_to_date_and_never_walks_the_whole_history(
    scope: Scope, walks: list[tuple[str, ...]]
) -> None:
    """Maintenance runs under the scope's lock: it walks what came after the index, and leaves
    a missing index to the next look (a whole walk of a long history would hold the lock)."""
    maintain(scope.repository)
    assert walks == []
    assert not (scope.repository / INDEX_FILE).exists()

    assert scope.listed() == []  # the look builds it
    scope.delete("a.md")
    walks.clear()
    maintain(scope.repository)
    assert len(walks) == 1 and any(arg.startswith("^") for arg in walks[0])
    walks.clear()

    assert [name for name, _ in scope.listed()] == ["a.md"]
    assert walks == []


@pytest.mark.parametrize(
    "damage",
    [b"", b"{not json", b'{"to": "main", "deleted": []}', b'{"to": "%s", "deleted": [["x"]]}'],
)
def test_v2_a_missing_or_damaged_index_is_built_again_from_the_history(
    scope: Scope, damage: bytes
) -> None:
    scope.delete("a.md")
    scope.delete("b.md")
    expected = scope.listed()
    index = scope.repository / INDEX_FILE
    head = read_head(scope.repository)
    assert head is not None
    index.write_bytes(damage.replace(b"%s", head.encode()))

    assert scope.listed() == expected
    index.unlink()
    assert scope.listed() == expected


def test_v2_after_retention_rewrote_the_history_the_listing_names_its_new_versions(
    scope: Scope,
) -> None:
    scope.delete("a.md")
    scope.delete("b.md")
    before = scope.listed()
    assert [name for name, _ in before] == ["b.md", "a.md"]

    apply_retention(scope.repository, Retention(max_versions=1))

    after = scope.listed()
    branch = set(scope.git("rev-list", "main").split())
    assert [name for name, _ in after] == ["b.md"]  # a.md's deletion was squashed away
    assert all(version in branch for _, version in after)
    assert scope.held(after[0][1], "b.md")


@pytest.fixture
def short_steps(monkeypatch: pytest.MonkeyPatch) -> int:
    """Looks walk down 3 versions at a time, one step each: a history of a dozen versions
    stands for a long one."""
    monkeypatch.setattr(deletions, "STEP", 3)
    monkeypatch.setattr(deletions, "LOOK_BUDGET", 1e-9)
    return 3


def test_v2_the_first_look_at_a_long_history_answers_at_once_and_each_look_goes_further(
    scope: Scope, short_steps: int, walks: list[tuple[str, ...]]
) -> None:
    """14 versions, a.md deleted in the 5th, b.md in the 10th, c.md in the newest; the index
    is not there (the first look after an upgrade)."""
    scope.delete("a.md")
    for number in range(4):
        scope.write(f"x{number}.md")
    scope.delete("b.md")
    for number in range(3):
        scope.write(f"y{number}.md")
    scope.delete("c.md")
    looks: list[tuple[list[tuple[str, str]], bool]] = []
    while not looks or not looks[-1][1]:
        walks.clear()
        looks.append(scope.look())
        assert len(walks) == 1  # one step down, never the whole history

    assert looks[0] == (looks[-1][0][:1], False)  # c.md at once, and "still looking"
    assert [[name for name, _ in found] for found, _ in looks] == [
        ["c.md"],
        ["c.md", "b.md"],
        ["c.md", "b.md"],
        ["c.md", "b.md", "a.md"],
        ["c.md", "b.md", "a.md"],
    ]
    for name, version in looks[-1][0]:
        assert scope.held(version, name)
    walks.clear()
    assert scope.listed() == looks[-1][0]  # complete now: nothing more is walked
    assert walks == []


def test_v2_versions_recorded_while_the_index_is_being_built_are_listed_first(
    scope: Scope, short_steps: int
) -> None:
    for number in range(6):
        scope.write(f"x{number}.md")
    scope.delete("a.md")
    for number in range(6):
        scope.write(f"y{number}.md")
    found, complete = scope.look()
    assert (found, complete) == ([], False)

    scope.delete("b.md")  # recorded while the index is not complete
    looks = [scope.look()]
    while not looks[-1][1]:
        looks.append(scope.look())

    assert [name for name, _ in looks[0][0]] == ["b.md"]
    assert [name for name, _ in looks[-1][0]] == ["b.md", "a.md"]


def test_v2_maintenance_never_walks_down_an_index_being_built(
    scope: Scope, short_steps: int, walks: list[tuple[str, ...]]
) -> None:
    """Maintenance holds the scope's lock: it walks what was recorded since the index, never
    further down; the looks go on where they were."""
    scope.delete("a.md")
    for number in range(6):
        scope.write(f"x{number}.md")
    assert scope.look() == ([], False)
    scope.delete("b.md")
    walks.clear()

    maintain(scope.repository)

    assert len(walks) == 1 and any(arg.startswith("^") for arg in walks[0])
    found, complete = scope.look()
    assert [name for name, _ in found] == ["b.md"] and not complete


async def test_v2_recently_deleted_says_whether_every_version_was_looked_at(
    client: Client, agent: AgentHome, short_steps: int
) -> None:
    """The route's answer: ``complete`` false while the service is still looking through the
    history (the files found so far listed), true once it is done."""
    url = f"{memory_url()}/scopes/user/deleted"
    for name in ("old.md", "new.md"):
        (agent.user / name).write_text("a note\n", encoding="utf-8")
    await checkpoint(client)
    (agent.user / "old.md").unlink()
    await checkpoint(client)
    for number in range(4):
        (agent.user / f"x{number}.md").write_text("more\n", encoding="utf-8")
        await checkpoint(client)
    (agent.user / "new.md").unlink()
    await checkpoint(client)
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    (repository / INDEX_FILE).unlink(missing_ok=True)  # as after an upgrade

    first = await ok_json(await client.get(url))
    answers = [first]
    while not answers[-1]["complete"]:
        answers.append(await ok_json(await client.get(url)))

    assert [item["file"] for item in first["files"]] == ["new.md"]
    assert first["complete"] is False
    assert [item["file"] for item in answers[-1]["files"]] == ["new.md", "old.md"]
    assert len(answers) == 3  # 7 versions, 3 a look
