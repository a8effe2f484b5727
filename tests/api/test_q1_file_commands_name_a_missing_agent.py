"""Q-1: the commands that work on an agent's files (``memory import|export``, ``history prune
--agent``) say, for an agent the data dir does not hold, where they looked and the way on.

Found following docs/operations.md as a newcomer: ``memory-api memory import coder.tar.gz
--project acme --agent coder2`` (an export restored into a new agent) answered only "no agent
'coder2' in project 'acme'", with neither the data dir it looked in (the default one, when none
was named, is rarely the service's) nor the ``agent create`` that makes it.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from memory_api.cli import main

from tests.api.conftest import CORPUS

FOLDER = str(CORPUS / "user-scope")


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A named data dir holding agent ``coder`` of project ``acme``; no tokens."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    return data_dir


def test_q1_an_import_into_an_agent_not_there_says_where_it_looked_and_how_to_make_it(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    argv = ["memory", "import", FOLDER, "--user", "--project", "acme", "--agent", "coder2"]
    assert main(argv) == 1
    said = capsys.readouterr().err
    assert f"no agent 'coder2' in project 'acme' in the data dir {env}" in said
    assert (
        f"memory-api agent create --data-dir {env} --project acme --id coder2 --name NAME" in said
    )
    # the command it names makes the agent, and the same import then runs
    make = said.split("first: `", 1)[1].split("`", 1)[0].replace("NAME", "Coder2").split()
    assert make[0] == "memory-api" and main(make[1:]) == 0
    assert main(argv) == 0


def test_q1_an_export_of_an_agent_of_another_project_names_its_project(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    out = tmp_path / "coder.tar.gz"
    assert main(["memory", "export", "--project", "shop", "--agent", "coder", "-o", str(out)]) == 1
    said = capsys.readouterr().err
    assert f"no agent 'coder' in project 'shop' in the data dir {env}" in said
    assert "'coder' is an agent of project 'acme' (--project acme)" in said
    assert not out.exists()


def test_q1_history_prune_of_an_agent_not_there_names_the_data_dir(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "5")
    capsys.readouterr()
    assert main(["history", "prune", "--agent", "coder2"]) == 1
    said = capsys.readouterr().err
    assert f"no agent 'coder2' in the data dir {env}" in said
    assert f"memory-api agent list --data-dir {env}" in said


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "export", "--project", "acme", "--agent", "nosuch", "-o", "-"],
        ["memory", "import", FOLDER, "--user", "--project", "acme", "--agent", "nosuch"],
        ["history", "prune", "--agent", "nosuch"],
    ],
)
def test_q1_the_way_on_names_memory_api_as_it_was_started(
    env: Path,
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Beside ``make run`` ``memory-api`` is ``.venv/bin/memory-api``, on no ``PATH``: each
    command the refusal names starts with it (run from that folder, ``./memory-api``), never
    the bare name the shell does not find."""
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "memory-api").write_text("#!/bin/sh\n", "utf-8")
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "5")
    monkeypatch.chdir(bin_dir)
    for started in (str(bin_dir / "memory-api"), "./memory-api"):
        monkeypatch.setattr(sys, "argv", [started, *argv])
        capsys.readouterr()

        assert main(argv) == 1

        said = capsys.readouterr().err
        commands = [part.split()[0] for part in said.split("`")[1::2]]
        assert commands and set(commands) == {started}, said
        assert said.count(f"{started} ") == said.count("memory-api "), said  # none bare


def test_q1_a_program_path_not_in_utf_8_is_named_as_its_bytes(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memory-api`` started from a folder whose name is no UTF-8 (``bad\\xff``): the command
    the refusal names is that path's own bytes, which the shell runs, not ``bad\\udcff``."""
    bin_dir = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff"))
    bin_dir.mkdir()
    (bin_dir / "memory-api").write_text("#!/bin/sh\n", "utf-8")
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "5")
    raw = io.BytesIO()
    stderr = io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace")
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "argv", [str(bin_dir / "memory-api"), "history", "prune"])

    assert main(["history", "prune", "--agent", "nosuch"]) == 1

    stderr.flush()
    said = raw.getvalue()
    assert b"(`'" + bytes(bin_dir) + b"/memory-api' agent list --data-dir " in said, said
