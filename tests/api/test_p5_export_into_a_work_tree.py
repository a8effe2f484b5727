"""P-5: an export written into a git work tree that does not ignore it says that ``git add -A``
would commit it.

Found following the README as a newcomer: ``memory export --project acme --agent coder -o
coder.tar.gz`` run, as every other README command is, from the checkout's root left the
archive there, untracked and not ignored (``git status``: ``?? coder.tar.gz``), with nothing
said; the README's advice to export outside the checkout sits in a comment of its shell block.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

from tests.api.conftest import copy_corpus

EXPORT = ["memory", "export", "--project", "acme", "--agent", "coder", "-o"]


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, agent ``coder`` with a user scope of the corpus."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    copy_corpus("user-scope", layout.memory_root(data_dir, "coder") / "user")
    return data_dir


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A git work tree (``git init``), as a clone of this repository is."""
    folder = tmp_path / "checkout"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_p5_an_export_into_a_work_tree_that_would_commit_it_says_so(
    env: Path, checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = checkout / "coder.tar.gz"
    capsys.readouterr()
    assert main([*EXPORT, str(archive)]) == 0  # written all the same: a warning, not a refusal
    said = " ".join(capsys.readouterr().err.split())
    assert archive.is_file()
    assert f"warning: {archive} lies in the git work tree {checkout}" in said
    assert "`git add -A` would commit every memory it holds" in said


def test_p5_an_export_a_work_tree_ignores_or_outside_any_says_nothing_of_git(
    env: Path, checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (checkout / ".gitignore").write_text("*.tar.gz\n", encoding="utf-8")
    outside = tmp_path / "backups"
    outside.mkdir()
    capsys.readouterr()
    for archive in (checkout / "coder.tar.gz", outside / "coder.tar.gz"):
        assert main([*EXPORT, str(archive)]) == 0
        assert archive.is_file()
        assert "work tree" not in capsys.readouterr().err
