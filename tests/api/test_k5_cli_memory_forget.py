"""K-5: ``memory-api memory forget`` takes an empty Workspace scope off an agent's memory, as
``DELETE …/memory/scopes/{key}`` does; ``--dry-run`` says so and changes nothing; a scope with
files is refused (exit 1) and kept whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core.keys import workspace_memory_key
from memory_core.layout import MARKER_FILE, memory_root

AGENT = ["--project", "acme", "--agent", "coder"]


@pytest.fixture
def scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An agent ``coder`` in a data dir and the scope a Session start in ``checkout`` made:
    (the checkout, its scope folder)."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    folder = memory_root(data_dir, "coder") / workspace_memory_key(checkout)
    folder.mkdir(parents=True)
    (folder / MARKER_FILE).write_text(os.path.realpath(checkout) + "\n")
    return checkout, folder


def test_k5_memory_forget_dry_run_then_forget_by_workspace(
    scope: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    checkout, folder = scope
    argv = ["memory", "forget", *AGENT, "--workspace", str(checkout)]

    assert main([*argv, "--dry-run"]) == 0
    assert f"would forget scope {folder.name} (Workspace {os.path.realpath(checkout)})" in (
        capsys.readouterr().out
    )
    assert (folder / MARKER_FILE).is_file()

    assert main(argv) == 0
    assert f"forgot scope {folder.name}" in capsys.readouterr().out
    assert sorted(path.name for path in folder.parent.iterdir()) == ["user"]


def test_k5_memory_forget_refuses_a_scope_with_files_and_the_user_scope(
    scope: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, folder = scope
    (folder / "notes.md").write_text("---\ndescription: n\n---\nkept\n")

    assert main(["memory", "forget", *AGENT, "--scope", folder.name]) == 1
    assert "delete its files first" in capsys.readouterr().err
    assert sorted(path.name for path in folder.iterdir()) == [MARKER_FILE, "notes.md"]

    assert main(["memory", "forget", *AGENT, "--scope", "user"]) == 1
    assert "cannot be forgotten" in capsys.readouterr().err


def test_k5_memory_forget_prints_the_workspace_path_escaped(
    scope: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, folder = scope
    (folder / MARKER_FILE).write_bytes(b"/src/a\x1b[2J\xe2\x80\xaeb\n/src/second\n")

    assert main(["memory", "forget", *AGENT, "--scope", folder.name]) == 0

    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "second" not in out
    assert "/src/a\\x1b[2J" in out
