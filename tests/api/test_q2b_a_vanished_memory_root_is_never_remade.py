"""Q-2b, V-1, P-5: an agent's memory root moved away (``agent_state/memory`` gone, its history
still holding scopes) is never made again by a command: ``memory import`` made it at mode 0755
and recorded "Changes found before an import" deleting every note, ``demo seed`` (``make run``
on every start) made it again, and ``memory export`` wrote an empty backup and exited 0 ("0
files, 0 bytes in 0 scopes"). Each names the vanished root now and makes nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

from tests.api.conftest import copy_corpus
from tests.api.test_q1_demo_seed_after_the_checkout_moved import small_corpus

PROJECT = "acme"
VANISHED = "finds no memory root (the folder of the agent's scopes), while its history holds"


@pytest.fixture
def moved_away(data_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Agent ``coder`` with a recorded user scope (an import records it), then its memory root
    moved away; returns that root."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    argv = ["agent", "create", "--project", PROJECT, "--id", "coder", "--name", "coder"]
    assert main(argv) == 0
    notes = tmp_path / "notes"
    copy_corpus("user-scope", notes)
    imported = ["memory", "import", str(notes), "--user", "--project", PROJECT, "--agent", "coder"]
    assert main(imported) == 0
    root = layout.memory_root(data_dir, "coder")
    assert (root.parent / "history" / "user.git").is_dir()
    shutil.move(root, tmp_path / "away")
    return root


@pytest.mark.parametrize("dry_run", [False, True])
def test_q2b_an_import_over_a_vanished_root_refuses_and_makes_nothing(
    moved_away: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    notes = tmp_path / "more"
    copy_corpus("user-scope", notes)
    argv = ["memory", "import", str(notes), "--user", "--project", PROJECT, "--agent", "coder"]
    capsys.readouterr()

    assert main(argv + (["--dry-run"] if dry_run else [])) == 1

    said = capsys.readouterr().err
    assert f"cannot import into agent 'coder': the service {VANISHED}" in said, said
    assert "'user'" in said
    assert not moved_away.exists()


def test_q2b_an_export_of_a_vanished_root_refuses_and_writes_no_empty_backup(
    moved_away: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "backup.tar.gz"
    capsys.readouterr()

    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]
    assert main(argv) == 1

    said = capsys.readouterr()
    assert f"cannot export agent 'coder': the service {VANISHED}" in said.err, said
    assert "0 files" not in said.out + said.err
    assert not output.exists() and not list(tmp_path.glob(".backup*"))
    assert not moved_away.exists()


def test_q2b_a_demo_seed_over_a_vanished_root_skips_the_demo_agent_and_says_so(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    corpus = small_corpus(tmp_path / "corpus")
    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0
    more = tmp_path / "more"
    copy_corpus("user-scope", more)
    imported = ["memory", "import", str(more), "--user", "--project", "demo", "--agent", "demo"]
    assert main(imported) == 0  # recorded: the history holds the demo's scopes
    root = layout.memory_root(data_dir, "demo")
    shutil.move(root, tmp_path / "away")
    capsys.readouterr()

    assert main(["demo", "seed", "--corpus", str(corpus)]) == 0  # make run starts serve next

    said = capsys.readouterr()
    assert f"demo agent 'demo' not seeded: the service {VANISHED}" in said.err, said
    assert not root.exists()


def test_q2b_an_agent_create_over_a_vanished_root_refuses_and_makes_nothing(
    moved_away: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (moved_away.parents[1] / "agent.json").unlink()  # the agent gone too, its history kept
    capsys.readouterr()

    argv = ["agent", "create", "--project", PROJECT, "--id", "coder", "--name", "coder"]
    assert main(argv) == 1

    said = capsys.readouterr().err
    assert f"agent 'coder' could not be created: the service {VANISHED}" in said, said
    assert not moved_away.exists()
    assert not (moved_away.parents[1] / "agent.json").exists()
