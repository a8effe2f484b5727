"""Q-1, H-3: every ``memory-api`` command piped into a reader that leaves early (``| head -1``,
``| grep -q``, ``less`` quit) ends as ``git log | head -1`` ends ``git``: quietly, by
``SIGPIPE`` (a shell's status 141), and a command that changes things finishes its change
first.

``memory-api agent list | head -1`` said "memory-api: Broken pipe" and exited 1 (the
``BrokenPipeError`` read as a disk's refusal), and a write that failed half-way through a
command stopped it there. Each command here is the console script in a process of its own,
its standard output a real pipe: read by ``head -n 1`` (``agent list``, whose output is larger
than the pipe), or whose reader left before the first line. ``serve`` is the exception: a
service whose log's reader left (``serve 2>&1 | head``) exits 0 on a clean stop, as it did.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_api.cli import main
from memory_core import layout

from tests.api.conftest import CORPUS
from tests.support.reader_left import (
    ENDED_BY_SIGPIPE,
    quiet,
    run_into_head,
    run_output_closed,
    run_reader_gone,
)
from tests.support.serve import code_under_test, venv_bin

AGENTS = 60
"""Agents made, each with a long name: their ``agent list`` (a line each) is more than twice
what a one-page pipe holds (:func:`~tests.support.reader_left.run_into_head`)."""
LONG_NAME = "A coder whose display name is as long as a name may be, near the 100 characters: "


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with :data:`AGENTS` agents of project ``acme`` (``coder-0`` …)."""
    made = tmp_path_factory.mktemp("reader-left") / "data"
    made.mkdir()
    for number in range(AGENTS):
        argv = ["agent", "create", "--data-dir", str(made), "--project", "acme"]
        assert main([*argv, "--id", f"coder-{number}", "--name", f"{LONG_NAME}{number}"]) == 0
    return made


def memory_api(data_dir: Path, *words: str) -> list[str]:
    """The ``memory-api WORDS --data-dir DATA_DIR`` console script's argv."""
    return [venv_bin("memory-api"), *words, "--data-dir", str(data_dir)]


def environ(home: Path, **extra: str) -> dict[str, str]:
    """A minimal environment: no service named, so each command works in its data dir."""
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test(), **extra}


def test_q1_agent_list_into_head_prints_its_first_line_and_ends_quietly(
    data_dir: Path, tmp_path: Path
) -> None:
    done, first = run_into_head(memory_api(data_dir, "agent", "list"), environ(tmp_path))

    assert first.split() == ["PROJECT", "AGENT", "MEMORY", "MEMORIES", "NAME"]
    assert done.returncode == ENDED_BY_SIGPIPE, done.stderr
    assert quiet(done.stderr), done.stderr


@pytest.mark.parametrize(
    "words",
    [
        ["agent", "list"],
        ["agent", "list", "--project", "acme"],
        ["token", "list"],
        ["memory", "export", "--project", "acme", "--agent", "coder-1", "-o", "-"],
    ],
    ids=lambda words: " ".join(words),
)
def test_q1_a_reading_command_whose_reader_left_ends_quietly(
    data_dir: Path, tmp_path: Path, words: list[str]
) -> None:
    done = run_reader_gone(memory_api(data_dir, *words), environ(tmp_path), cwd=tmp_path)

    assert done.returncode == ENDED_BY_SIGPIPE, done.stderr
    assert quiet(done.stderr), done.stderr


def test_q1_a_command_whose_output_and_errors_go_to_a_reader_that_left_ends_quietly(
    data_dir: Path, tmp_path: Path
) -> None:
    """``… 2>&1 | head -1``: its first words (on stderr, "agents in the data dir …") find the
    reader gone; they were said as a disk's refusal, exit 1."""
    argv = memory_api(data_dir, "agent", "list")
    done = run_reader_gone(argv, environ(tmp_path), stderr_too=True)
    assert done.returncode == ENDED_BY_SIGPIPE


def test_q1_commands_that_change_things_finish_their_change_when_the_reader_left(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each change is made whole (then the process ends as the reader's leaving ends it): an
    agent, a token made then revoked, the demo seeded, an import, an export to a file, a
    history prune."""
    source = tmp_path / "notes"
    source.mkdir()
    (source / "uv.md").write_text("---\ndescription: uv\n---\nuv only.\n", encoding="utf-8")
    archive = tmp_path / "coder-2.tar.gz"
    who = ["--project", "acme", "--agent", "coder-2"]

    def change(*words: str) -> None:
        retention = {"MEMORY_API_HISTORY_MAX_VERSIONS": "1"}
        done = run_reader_gone(memory_api(data_dir, *words), environ(tmp_path, **retention))
        assert done.returncode == ENDED_BY_SIGPIPE, (words, done.stderr)
        assert quiet(done.stderr), (words, done.stderr)

    def tokens() -> list[str]:
        capsys.readouterr()
        assert main(["token", "list", "--data-dir", str(data_dir)]) == 0
        return [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]

    change("agent", "create", "--project", "acme", "--id", "piped", "--name", "Piped")
    assert (layout.memory_root(data_dir, "piped") / "user").is_dir()
    change("token", "create", "--name", "ci", "--project", "acme")
    assert tokens() == ["ci"]
    change("token", "revoke", "--name", "ci", "--reopen")
    assert "ci" not in tokens()
    change("demo", "seed", "--corpus", str(CORPUS))
    assert (layout.memory_root(data_dir, "demo") / "user" / "MEMORY.md").is_file()
    change("memory", "import", str(source), *who, "--user")
    imported = layout.memory_root(data_dir, "coder-2") / "user" / "uv.md"
    assert imported.read_text(encoding="utf-8").endswith("uv only.\n")
    change("memory", "export", *who, "-o", str(archive))
    with tarfile.open(archive, mode="r:gz") as exported:
        assert any(name.endswith("/uv.md") for name in exported.getnames())
    change("history", "prune")


def test_q1_serve_whose_log_reader_left_exits_0_on_a_clean_stop(tmp_path: Path) -> None:
    """``memory-api serve 2>&1 | head``: the reader reads up to the banner's "Running on" line
    (the service's own word that it listens) and leaves; what the service logs after (its
    stop) finds no reader. SIGTERM then stops it cleanly: exit 0. It ended by ``SIGPIPE``
    (a shell's 141): a supervisor read a clean stop as a crash."""
    data = tmp_path / "data"
    data.mkdir()
    env = environ(tmp_path, MEMORY_API_DATA_DIR=str(data), MEMORY_API_PORT=str(unused_port()))
    read_end, write_end = os.pipe()
    service = subprocess.Popen(
        [venv_bin("memory-api"), "serve"], stdout=write_end, stderr=subprocess.STDOUT, env=env
    )
    os.close(write_end)
    try:
        with os.fdopen(read_end, encoding="utf-8", errors="replace") as reader:
            said = ""
            while "Running on" not in said:
                line = reader.readline()
                assert line, f"serve ended before it listened: {said}"
                said += line
        # the reader left: the stop's log lines find it gone
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=60) == 0, said
    finally:
        service.kill()
        service.wait()


def test_q1_a_command_started_with_its_output_closed_does_its_work_and_keeps_its_status(
    data_dir: Path, tmp_path: Path
) -> None:
    """``memory-api agent list >&-`` (Python's ``sys.stdout`` None): an ``AttributeError``
    traceback and exit 1, ``token create`` after making the token. What it says goes nowhere."""
    done = run_output_closed(memory_api(data_dir, "agent", "list"), environ(tmp_path))
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr

    argv = memory_api(data_dir, "token", "create", "--name", "closed")
    done = run_output_closed(argv, environ(tmp_path))
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr
    assert "the secret was not delivered" in done.stderr, done.stderr
    revoke = ["token", "revoke", "--name", "closed", "--reopen", "--data-dir", str(data_dir)]
    assert main(revoke) == 0  # made


def test_q1_a_secret_or_archive_whose_reader_left_is_said_not_delivered(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``token create | true``: stderr said only "keep it safe", of a secret nobody read; now
    a line says it was not delivered and gives the revoke command, which works as given.
    ``memory export -o - | true`` said "Export → -" of an archive that went nowhere."""
    env = environ(tmp_path, PATH=f"{Path(venv_bin('memory-api')).parent}:/usr/bin:/bin")
    done = run_reader_gone(memory_api(data_dir, "token", "create", "--name", "lost"), env)
    assert done.returncode == ENDED_BY_SIGPIPE, done.stderr
    said = done.stderr.splitlines()[-1]
    assert said.startswith("memory-api: the secret was not delivered"), done.stderr
    revoke = said.split("revoke the token (`")[1].split("`) and create another")[0]
    revoked = subprocess.run(
        shlex.split(revoke), env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert revoked.returncode == 0, revoked.stderr
    capsys.readouterr()
    assert main(["token", "list", "--data-dir", str(data_dir)]) == 0
    assert "lost" not in capsys.readouterr().out

    argv = memory_api(data_dir, "memory", "export", "--project", "acme", "--agent", "coder-1")
    done = run_reader_gone([*argv, "-o", "-"], environ(tmp_path), cwd=tmp_path)
    assert done.returncode == ENDED_BY_SIGPIPE, done.stderr
    assert "the archive was not delivered whole" in done.stderr.splitlines()[-1], done.stderr


def test_q1_the_revoke_of_a_secret_not_delivered_names_memory_api_as_it_was_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Beside ``make run`` ``memory-api`` is ``.venv/bin/memory-api``, on no ``PATH``: the
    revoke command of a secret whose reader left starts with it, not the bare name."""
    from memory_api import cli

    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "memory-api").write_text("#!/bin/sh\n", "utf-8")
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.setattr(sys, "argv", [str(bin_dir / "memory-api"), "token", "create"])
    monkeypatch.setattr(cli, "_went_nowhere", lambda: True)

    assert main(["token", "create", "--name", "lost"]) == 0

    data = tmp_path / "data"
    revoke = f"(`{bin_dir / 'memory-api'} token revoke --name lost --data-dir {data} --reopen`)"
    assert revoke in capsys.readouterr().err
