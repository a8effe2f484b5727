"""P-5: ``memory import --from vscode`` and ``--from memory-tool`` — ``/memories`` folders.

The fixture ``tests/data/harness-memory/vscode`` is a VS Code user data folder (``Code/``, as
under ``~/.config`` on Linux) in the layout of Copilot Chat's memory tool: user memory in its
global storage (a sub-folder, a ``.txt``, a hidden file), and per window folder a
``workspaceStorage/<id>/`` whose ``workspace.json`` names the folder — the Workspace (a path
with a space), another project, a multi-root workspace — with repository memory (Markdown and a
JSON entry) and one chat's session memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.harness_memory import (
    accounted,
    agent_made,
    every_topic_indexed,
    import_argv,
    place,
    run,
    scope_dir,
    snapshot,
    topic_texts,
)

USER_MEMORIES = "Code/User/globalStorage/github.copilot-chat/memory-tool/memories"


@pytest.fixture
def vscode(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    workspace = tmp_path / "work" / "shop api"
    workspace.mkdir(parents=True)
    other = tmp_path / "work" / "billing"
    other.mkdir()
    home = tmp_path / "home"
    words = {
        "WORKSPACE_URI": workspace.resolve().as_uri(),
        "OTHER_URI": other.resolve().as_uri(),
    }
    place("vscode", home / ".config", words)
    agent_made(data_dir, monkeypatch, HOME=str(home), XDG_CONFIG_HOME=None, VSCODE_PORTABLE=None)
    return {"workspace": workspace.resolve(), "home": home}


def test_p5_vscode_memory_tool_user_and_repository_memory(
    data_dir: Path, vscode: dict[str, Path]
) -> None:
    reports = run(data_dir, "vscode", vscode["workspace"], {"HOME": str(vscode["home"])})
    user = topic_texts(scope_dir(data_dir, "user"))
    ours = topic_texts(scope_dir(data_dir, key_for_real_path(str(vscode["workspace"]))))
    memories = vscode["home"] / ".config" / USER_MEMORIES
    assert set(user) == {
        "debugging.md",
        "preferences.md",
        "projects-shop-api.md",
        "commit-style.md",
    }
    assert user["debugging.md"] == (memories / "debugging.md").read_text(encoding="utf-8")
    assert user["commit-style.md"] == (memories / "commit-style.txt").read_text(encoding="utf-8")
    assert set(ours) == {"conventions.md", "build.md"}
    assert "Run `make test` before pushing" in ours["build.md"]
    assert "Citations: Makefile:12" in ours["build.md"]
    assert "invoices" not in "".join(ours.values())  # the other window's repository memory
    every_topic_indexed(scope_dir(data_dir, "user"))
    every_topic_indexed(scope_dir(data_dir, reports[1].key))
    index = (scope_dir(data_dir, "user") / "MEMORY.md").read_text(encoding="utf-8")
    assert (
        "- [preferences](preferences.md) — Answer tersely; code first, explanation after." in index
    )
    assert "- [Debugging](debugging.md) — Reproduce with the smallest failing test" in index
    reasons = {Path(s.origin).name: s.reason for r in reports for s in r.skipped}
    assert "session memory of one chat" in reasons["vscode-chat-session___local_8d2f"]
    assert "hidden" in reasons[".DS_Store"]
    assert accounted(reports, memories) == []
    storage = (
        vscode["home"] / ".config" / "Code/User/workspaceStorage/3f2a9c1e0b7d4a55e1c9d0a7b6f4e2c1"
    )
    assert accounted(reports, storage / "github.copilot-chat") == []


def test_p5_vscode_second_run_changes_nothing(
    data_dir: Path, vscode: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = import_argv("vscode", vscode["workspace"])
    assert main(argv) == 0
    before = snapshot(data_dir)
    capsys.readouterr()
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(data_dir) == before


def test_p5_memory_tool_folder_into_the_named_scope(
    data_dir: Path, vscode: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = vscode["home"] / ".config" / USER_MEMORIES
    assert main([*import_argv("memory-tool", vscode["workspace"]), str(folder)]) == 0
    ours = scope_dir(data_dir, key_for_real_path(str(vscode["workspace"])))
    assert set(topic_texts(ours)) == {
        "debugging.md",
        "preferences.md",
        "projects-shop-api.md",
        "commit-style.md",
    }
    every_topic_indexed(ours)
    assert "stored as commit-style.md" in capsys.readouterr().out
    assert main(import_argv("memory-tool", None)) == 1
    assert "takes the FOLDER" in capsys.readouterr().err


def test_p5_vscode_finds_nothing_says_where_it_looked(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    empty = str(tmp_path / "empty")
    agent_made(data_dir, monkeypatch, HOME=empty, XDG_CONFIG_HOME=None, VSCODE_PORTABLE=None)
    assert main(import_argv("vscode", None)) == 1
    assert "keeps no memories here" in capsys.readouterr().err
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]
