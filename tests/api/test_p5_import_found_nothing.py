"""P-5: ``memory import --from HARNESS`` on a machine where that harness keeps nothing says
where it looked and what to do next — the variable that moves the harness's files, or the
import of a folder by its path — exits 1 and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

from tests.api.harness_memory import agent_made, import_argv

NEXT_STEP = {  # each variable named with the folder it holds, as the harness reads it
    "claude-code": "set CLAUDE_CONFIG_DIR to the folder it uses in place of ~/.claude and run",
    "codex": "set CODEX_HOME to the folder it uses in place of ~/.codex and run",
    # GEMINI_CLI_HOME names the folder *holding* .gemini: set to a .gemini folder, Gemini CLI
    # and the import would read its .gemini/.gemini
    "gemini": "set GEMINI_CLI_HOME to the folder that holds its .gemini folder (Gemini CLI "
    "reads $GEMINI_CLI_HOME/.gemini) and run",
    "vscode": "`memory-api memory import FOLDER --from memory-tool --user`",
}

FOUND_NOTHING = {  # Gemini CLI's said "keeps no memory for this here"
    "claude-code": "Claude Code keeps no memory for that Workspace here: ",
    "codex": "Codex CLI keeps no memories here: ",
    "gemini": "Gemini CLI keeps no memory for the user or that Workspace here: ",
    "vscode": "VS Code's memory tool keeps no memories here: ",
}


@pytest.mark.parametrize("harness", NEXT_STEP)
def test_p5_a_harness_that_keeps_nothing_here_says_where_it_looked_and_what_next(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    harness: str,
) -> None:
    home = tmp_path / "new-laptop"
    home.mkdir()
    workspace = tmp_path / "src" / "shop"
    workspace.mkdir(parents=True)
    unset = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_CONFIG_HOME")
    agent_made(data_dir, monkeypatch, HOME=str(home), VSCODE_PORTABLE=None, **dict.fromkeys(unset))

    assert main(import_argv(harness, workspace)) == 1

    said = capsys.readouterr().err
    assert FOUND_NOTHING[harness] in said
    assert str(home) in said or harness == "vscode"  # the place looked at, by its path
    assert NEXT_STEP[harness] in said
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]


def test_p5_gemini_with_user_only_says_it_keeps_no_user_memory_here(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = tmp_path / "new-laptop"
    home.mkdir()
    agent_made(data_dir, monkeypatch, HOME=str(home), GEMINI_CLI_HOME=None)

    assert main(import_argv("gemini", None)) == 1

    said = capsys.readouterr().err
    assert f"Gemini CLI keeps no memory for the user here: {home / '.gemini'}. " in said
