"""Q-1: a named data dir that is not there (a mistyped ``--data-dir``) is said missing.

``token list --data-dir /tmp/typo`` printed "no tokens: the service is open and binds to
loopback only" with exit 0, ``agent list`` "no agents", and ``agent create`` made the typo's
folder and said "a service over this data dir sees it at once". A command that only reads, or
writes into a data dir, refuses (exit 2) naming the folder that is not there and makes none;
the commands documented to make a new data dir (``token create`` on a new server, ``demo
seed`` of ``make run``) still do.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.cli import main

from tests.api.conftest import CORPUS

IDS = ["--project", "acme", "--agent", "coder"]

COMMANDS = {
    "token list": ["token", "list"],
    "agent list": ["agent", "list"],
    "memory export": ["memory", "export", *IDS, "-o", "{out}"],
    "agent create": ["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"],
    "token revoke": ["token", "revoke", "--name", "me"],
    "memory import": ["memory", "import", str(CORPUS / "user-scope"), *IDS, "--user"],
    "history prune": ["history", "prune"],
}


@pytest.fixture
def typo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir path under ``tmp_path`` that is not there; nothing else named."""
    for name in ("MEMORY_API_DATA_DIR", "MEMORY_API_URL", "MEMORY_API_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_AGE_DAYS", "30")  # prune has work to look for
    return tmp_path / "missing" / "typo"


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("how", ["--data-dir", "MEMORY_API_DATA_DIR"])
def test_q1_a_named_data_dir_not_there_is_said_missing_and_never_made(
    typo: Path,
    tmp_path: Path,
    command: str,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [part.format(out=tmp_path / "out.tar.gz") for part in COMMANDS[command]]
    if how == "--data-dir":
        argv += ["--data-dir", str(typo)]
    else:
        monkeypatch.setenv("MEMORY_API_DATA_DIR", str(typo))

    assert main(argv) == 2
    said = capsys.readouterr()
    assert f"no data dir at {typo} ({how} names a folder that is not there)" in said.err
    assert "no tokens" not in said.out and "no agents" not in said.out
    assert not typo.exists() and not typo.parent.exists()
    assert not (tmp_path / "out.tar.gz").exists()


def test_q1_token_create_and_demo_seed_still_make_a_new_data_dir(
    typo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's new server runs ``token create`` first, and ``make run`` seeds the demo
    agent before ``serve``: both make the data dir they name."""
    first = typo / "server"
    assert main(["token", "create", "--name", "me", "--data-dir", str(first)]) == 0
    assert (first / "tokens").is_dir()
    seeded = typo / "checkout-data"
    assert main(["demo", "seed", "--corpus", str(CORPUS), "--data-dir", str(seeded)]) == 0
    assert (seeded / "agents" / "demo").is_dir()
    capsys.readouterr()


LOOPED = {
    "serve": (["serve"], "MEMORY_API_DATA_DIR", "loop1"),
    "agent list": (["agent", "list"], "--data-dir", "loop1"),
    "token create": (["token", "create", "--name", "x"], "--data-dir", "loop1/sub"),
    "demo seed": (["demo", "seed", "--corpus", str(CORPUS)], "MEMORY_API_DATA_DIR", "loop2/sub"),
}


@pytest.mark.parametrize("command", list(LOOPED))
def test_q1_a_data_dir_behind_a_symlink_loop_is_refused_naming_it(
    typo: Path,
    tmp_path: Path,
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A symlink loop on the data dir's way crashed every command with a traceback
    (``RuntimeError: Symlink loop`` from ``Path.resolve``): exit 2 naming the path now."""
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    argv, how, named = LOOPED[command]
    path = tmp_path / named
    if how == "--data-dir":
        argv = [*argv, "--data-dir", str(path)]
    else:
        monkeypatch.setenv("MEMORY_API_DATA_DIR", str(path))

    assert main(argv) == 2

    said = capsys.readouterr().err
    assert f"{how}: the data dir {path} cannot be a folder (a symlink loop" in said, said
    assert "Traceback" not in said


def test_q1_token_create_names_the_file_on_the_data_dirs_way(
    typo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--data-dir …/afile/sub`` with ``afile`` a regular file named ``…/afile/sub/tokens`` as
    the file in the way, which is no file: ``afile`` is named now."""
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")

    assert main(["token", "create", "--name", "x", "--data-dir", str(afile / "sub")]) == 1

    said = capsys.readouterr().err
    assert f"{afile} is on its way and is not a folder: move that file aside" in said, said
    assert afile.read_text(encoding="utf-8") == "x"
