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
    "vscode": "`memory-api memory import FOLDER --from memory-tool --workspace ",
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


@pytest.mark.parametrize("harness", NEXT_STEP)
@pytest.mark.parametrize("scope", ["workspace", "user"])
def test_p5_the_import_of_a_folder_of_your_own_is_named_with_the_flags_given(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    harness: str,
    scope: str,
) -> None:
    """The next step is a command to type: it said `` `memory-api memory import FOLDER --user`
    (or --workspace PATH)``, which stops at "the following arguments are required: --project,
    --agent", and, with the data dir named by ``--data-dir``, imports nowhere the user meant."""
    home = tmp_path / "new-laptop"
    home.mkdir()
    workspace = tmp_path / "src" / "my shop"
    workspace.mkdir(parents=True)
    unset = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_CONFIG_HOME")
    agent_made(data_dir, monkeypatch, HOME=str(home), VSCODE_PORTABLE=None, **dict.fromkeys(unset))
    monkeypatch.delenv("MEMORY_API_DATA_DIR")
    given = workspace if scope == "workspace" or harness == "claude-code" else None

    assert main(import_argv(harness, given, "--data-dir", str(data_dir))) == 1

    said = capsys.readouterr().err
    tool = " --from memory-tool" if harness == "vscode" else ""
    where = f"--workspace '{workspace}'" if given is not None else "--user"
    flags = f"{where} --project acme --agent coder --data-dir {data_dir}"
    assert f"`memory-api memory import FOLDER{tool} {flags}`" in said, said
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]
