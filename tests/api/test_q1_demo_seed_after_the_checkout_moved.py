"""Q-1, K-1: ``make run`` after the checkout moved (its ``.data`` with it) seeds the demo's two
Workspace scopes it made before, not two more.

A Workspace's key is derived from its path, and the demo Workspaces lie in the data dir
(``<data_dir>/demo-workspaces/…``): moved, they had new keys, and the seed made two new scopes
beside the old ones, the demo's memories twice on the page. The seed marker records which
scope is which demo Workspace; a marker from before it did is read through the ``.workspace``
markers of the scopes it lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.store.sessions import ensure_workspace_scope
from memory_core.keys import USER_SCOPE
from memory_core.layout import memory_root

agent = "demo"


def small_corpus(folder: Path) -> Path:
    """A corpus shaped like ``tests/data/corpus``: a memory in each of its three scopes."""
    for scope in ("user-scope", "coding-agent-workspace", "large-index"):
        (folder / scope).mkdir(parents=True)
        (folder / scope / "MEMORY.md").write_text(f"- [Fact](fact-{scope}.md)\n", "utf-8")
        (folder / scope / f"fact-{scope}.md").write_text("---\nname: Fact\n---\nx\n", "utf-8")
    return folder


def seed(data_dir: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0


def scopes(data_dir: Path) -> set[str]:
    return {entry.name for entry in memory_root(data_dir, agent).iterdir() if entry.is_dir()}


@pytest.mark.parametrize("marker", ["as written now", "from before it named the Workspaces"])
def test_q1_a_moved_checkout_reseeds_the_demo_workspace_scopes_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], marker: str
) -> None:
    corpus = small_corpus(tmp_path / "corpus")
    old = tmp_path / "agent-memory" / ".data"
    seed(old, corpus, monkeypatch)
    before = scopes(old)
    assert len(before - {USER_SCOPE}) == 2
    record = old / "agents" / agent / "demo-seed.json"
    if marker != "as written now":
        written = json.loads(record.read_text(encoding="utf-8"))
        record.write_text(json.dumps({"seeded": written["seeded"]}), encoding="utf-8")
    deleted = next(memory_root(old, agent).glob(f"{sorted(before - {USER_SCOPE})[0]}/fact-*.md"))
    deleted.unlink()  # the user deleted one demo memory on the page
    moved = tmp_path / "src" / "agent-memory"
    moved.parent.mkdir()
    (tmp_path / "agent-memory").rename(moved)
    capsys.readouterr()

    seed(moved / ".data", corpus, monkeypatch)

    assert scopes(moved / ".data") == before  # no scope twice
    assert not (
        moved / ".data" / "agents" / agent / "memory" / deleted.parent.name / deleted.name
    ).exists()
    said = capsys.readouterr().out
    assert "0 files copied" in said, said
    kept = json.loads((moved / ".data" / "agents" / agent / "demo-seed.json").read_text())
    assert set(kept["workspaces"]) == {"shop-api", "data-platform"}
    assert set(kept["workspaces"].values()) == before - {USER_SCOPE}


def test_q1_a_marker_naming_another_scope_adds_no_demo_file_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = small_corpus(tmp_path / "corpus")
    data_dir = tmp_path / ".data"
    seed(data_dir, corpus, monkeypatch)
    demo = scopes(data_dir)
    project = tmp_path / "my-project"  # a Workspace of the user's, with a scope of its own
    project.mkdir()
    key, users = ensure_workspace_scope(memory_root(data_dir, agent), str(project.resolve()))
    assert users is not None
    (users / "MEMORY.md").write_text("- [Mine](mine.md)\n", encoding="utf-8")
    record = data_dir / "agents" / agent / "demo-seed.json"
    written = json.loads(record.read_text(encoding="utf-8"))
    written["workspaces"]["shop-api"] = key  # the marker names the user's scope
    record.write_text(json.dumps(written), encoding="utf-8")

    seed(data_dir, corpus, monkeypatch)

    assert sorted(entry.name for entry in users.iterdir()) == [".workspace", "MEMORY.md"]
    assert (users / "MEMORY.md").read_text(encoding="utf-8") == "- [Mine](mine.md)\n"
    assert scopes(data_dir) == demo | {key}  # the demo's own scope, no new one
