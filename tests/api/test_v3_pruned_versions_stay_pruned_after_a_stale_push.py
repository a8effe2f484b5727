"""V-3 with R-1: a version retention squashed stays squashed when a machine that still holds
it syncs, and what that machine wrote is kept.

The laptop fetched while the scope's history held an old text of ``a.md``; the desktop went on
syncing, and the operator's retention squashed every version but the newest (the old text's
objects dropped). The laptop, not synced since, then pushes a new note: git sends the laptop's
whole history (the service's ref for it was removed with the squashed versions), and the
service once kept it under the laptop's refs (``refs/machines/<id>``, ``refs/taken/<id>``),
so every squashed version and text was back in the scope's history. Now the note is merged as
any push from a base the service does not hold (R-2), and the laptop's refs then name a stand-in
holding the pushed files alone, so nothing of the old history is kept. The laptop's next push,
made on what it sent, is still measured against what it sent: an edit is taken as an edit.
When the cleanup after such a push fails (git refuses the repack: a full disk), the push, merged
and recorded, is still answered as taken (it was answered 503) and the failure is logged.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.store.history.git import HistoryUnavailable, git, git_succeeds
from memory_api.store.history.maintenance import Retention, apply_retention
from memory_api.store.sync import push
from memory_core import layout

from tests.api.conftest import AgentHome
from tests.api.test_r1_git_sync import MACHINE, GitMachine, desktop, laptop, scope_holds

__all__ = ["desktop", "laptop"]  # the two machines, as fixtures

OLD_TEXT = "the old deploy token lives in vault/old\n"


def holds(repository: Path, obj: str) -> bool:
    """Whether the history ``repository`` still holds the object ``obj``."""
    return git_succeeds(repository, "cat-file", "-e", obj)


async def test_v3_a_stale_machines_push_brings_no_squashed_version_back(
    agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    scope_holds(agent.user, {"a.md": OLD_TEXT})
    await desktop.fetch()
    old_version = git(repository, "rev-parse", "main").decode().strip()
    old_blob = desktop.run("rev-parse", "HEAD:a.md").stdout.strip()
    desktop.write("a.md", "second\n")
    await desktop.push("second")
    await laptop.fetch()  # the laptop holds the old text in its history, not in its files
    await desktop.fetch()
    desktop.write("a.md", "third\n")
    await desktop.push("third")
    pruned = apply_retention(repository, Retention(max_versions=1))
    assert pruned.squashed >= 2
    assert not holds(repository, old_blob)
    assert not holds(repository, old_version)

    laptop.write("b.md", "from the laptop\n")
    await laptop.push("a note")

    assert (agent.user / "b.md").read_text(encoding="utf-8") == "from the laptop\n"
    assert not holds(repository, old_blob)
    assert not holds(repository, old_version)
    taken = git(repository, "rev-parse", f"refs/taken/{MACHINE}").decode().strip()
    assert git(repository, "rev-list", "--count", taken).strip() == b"1"

    laptop.write("b.md", "from the laptop, edited\n")
    await laptop.push("the note edited")

    assert (agent.user / "b.md").read_text(encoding="utf-8") == "from the laptop, edited\n"
    assert sorted(p.name for p in agent.user.iterdir() if p.name.startswith("b")) == ["b.md"]
    assert not holds(repository, old_blob)
    assert not holds(repository, old_version)


async def test_v3_a_machine_on_a_kept_version_pushes_an_edit_as_an_edit_after_a_prune(
    agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    """Retention writes the versions it keeps again under new ids; a machine that synced at one
    of them is measured against it under its new id, so its edit is taken as an edit, not kept
    twice as from a base the service does not hold."""
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    scope_holds(agent.user, {"a.md": OLD_TEXT, "b.md": "b\n"})
    await desktop.fetch()
    for text in ("second\n", "third\n"):
        desktop.write("a.md", text)
        await desktop.push(text)
        await desktop.fetch()
    await laptop.fetch()  # at the newest version, which retention keeps (with a new id)
    desktop.write("b.md", "b, from the desktop\n")
    await desktop.push("b")
    assert apply_retention(repository, Retention(max_versions=2)).squashed >= 2

    laptop.write("a.md", "third, from the laptop\n")
    await laptop.push("a edited")

    assert sorted(p.name for p in agent.user.iterdir()) == ["a.md", "b.md"]
    assert (agent.user / "a.md").read_text(encoding="utf-8") == "third, from the laptop\n"
    assert (agent.user / "b.md").read_text(encoding="utf-8") == "b, from the desktop\n"
    assert not holds(repository, laptop.run("rev-parse", "HEAD^").stdout.strip())


async def test_v3_a_stale_machines_push_is_taken_when_the_cleanup_after_it_fails(
    agent: AgentHome,
    laptop: GitMachine,
    desktop: GitMachine,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    scope_holds(agent.user, {"a.md": OLD_TEXT})
    await desktop.fetch()
    desktop.write("a.md", "second\n")
    await desktop.push("second")
    await laptop.fetch()
    await desktop.fetch()
    desktop.write("a.md", "third\n")
    await desktop.push("third")
    assert apply_retention(repository, Retention(max_versions=1)).squashed >= 2

    def refused(repository: Path) -> None:
        raise HistoryUnavailable("git repack: No space left on device")

    monkeypatch.setattr(push, "drop_unreachable", refused)
    laptop.write("b.md", "from the laptop\n")
    with caplog.at_level(logging.WARNING):
        await laptop.push("a note")  # git push exits 0: the push is answered as taken

    assert (agent.user / "b.md").read_text(encoding="utf-8") == "from the laptop\n"
    assert "b.md" in git(repository, "ls-tree", "--name-only", "main").decode()
    assert any("No space left on device" in record.getMessage() for record in caplog.records)
