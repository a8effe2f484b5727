"""P-3: real users' startup files, as their installers write them, refuse no everyday command.

Codex CLI runs every shell command as ``bash -lc '<cmd>'``; other harnesses' agents type
``bash -ic`` or ``sh -lc``. The guard reads the startup files such a shell runs and the
scripts they run (``named_scripts``), so a home whose login profile sources a big or
run-time-named file would have every command refused. Each setup below is a home from
``tests/data/startup-files`` (its README names where each file comes from): Debian's own
``.bashrc``/``.profile`` and root's, the lines nvm's, conda's, pyenv's, rbenv's, nodenv's,
sdkman's, rustup's, fzf's and Homebrew's installers add (Debian-style and macOS-style, where
``.bash_profile`` sources ``.bashrc`` with no "return unless interactive" line), oh-my-bash's
template, bash-completion; with the files they source installed (nvm's real ``nvm.sh``,
158 KiB, bash-completion's 136 KiB). None names memory: each everyday command passes in each
harness.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, fill, refusal

CORPUS = Path(__file__).resolve().parents[1] / "data" / "startup-files"
INSTALLED = {
    "debian-nvm": {".nvm": "nvm"},
    "macos-nvm": {".nvm": "nvm"},
    "debian-sdkman": {".sdkman": "sdkman"},
    "macos-sdkman": {".sdkman": "sdkman"},
    "debian-rustup": {".cargo": "cargo"},
    "macos-rustup": {".cargo": "cargo"},
    "debian-bash-completion": {"usr/share/bash-completion": "bash-completion"},
    "debian-root-bash-completion": {"usr/share/bash-completion": "bash-completion"},
    "oh-my-bash": {".oh-my-bash": "oh-my-bash"},
}
"""The folders of ``installed/`` each setup's home holds, where its installer put them."""
SETUPS = sorted(path.name for path in (CORPUS / "homes").iterdir())
COMMANDS = [
    "bash -lc 'ls'",
    "bash -lc 'git status'",
    "bash -ic 'ls'",
    "sh -lc 'ls'",
    'cp note.md "{root}/{own}/notes-$(date +%F).md"',
    "bash -lc 'echo done >> \"{root}/{own}/log-$(date +%F).md\"'",
    "git log --format='%h %s' -5",
    "$PYTHON -m pytest -q",
    "${{PYTHON:-python3}} -m pytest -q",
    '"$EDITOR" note.md',
    "$SHELL -c 'ls'",
    "CC=gcc; $CC -o x x.c",
]
"""Everyday commands starting a login or interactive shell (Codex's own form first), and
writes into the Session's own scope named by ``$(date +%F)``: what the startup files define
(aliases ``ls --color=auto``, nvm's, conda's functions) makes no such program untrusted
(round 57), each harness's own shell's files read; a ``%s`` word (bash_completion's message
``function %s not found`` was read as a definition of ``%s``: everyday57); a program named by
a variable the harness's environment or the command sets (``$PYTHON``, ``$CC``: review58d 2,
once read as any name, every definition of bash-completion judged and refused)."""


def _home(where: Layout, monkeypatch: pytest.MonkeyPatch, setup: str) -> None:
    """The setup's startup files and installed tools in the home (the data dir here), and the
    harness's environment (``HOME``, ``PATH``; no ``BASH_ENV``, ``ENV`` or ``PS1``)."""
    for name in ("BASH_ENV", "ENV", "PS1"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(where.data))
    monkeypatch.setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
    shutil.copytree(CORPUS / "homes" / setup, where.data, dirs_exist_ok=True)
    for folder, installed in INSTALLED.get(setup, {}).items():
        shutil.copytree(CORPUS / "installed" / installed, where.data / folder)


def test_p3_the_corpus_holds_a_real_file_past_64_kib() -> None:
    """nvm's ``nvm.sh`` as its installer puts it (past the 64 KiB the guard once read)."""
    assert (CORPUS / "installed" / "nvm" / "nvm.sh").stat().st_size > 65_536
    assert set(INSTALLED) <= set(SETUPS)


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize("setup", SETUPS)
def test_p3_real_startup_files_refuse_no_everyday_command(
    where: Layout, monkeypatch: pytest.MonkeyPatch, harness: str, setup: str
) -> None:
    _home(where, monkeypatch, setup)

    refused = {
        command: refusal(
            answer(where, harness, SHELL[harness][1], {"command": fill(command, where)})
        )
        for command in COMMANDS
    }

    assert {command: why for command, why in refused.items() if why} == {}


@pytest.mark.parametrize(
    ("setup", "asked", "shown"),
    [
        ("macos-nvm", "command -v nvm", "nvm"),
        ("debian-root-bash-completion", "declare -F _comp_initialize", "_comp_initialize"),
    ],
)
def test_p3_a_login_shell_of_these_homes_runs_their_big_scripts(
    where: Layout, monkeypatch: pytest.MonkeyPatch, setup: str, asked: str, shown: str
) -> None:
    """The corpus is real: ``bash -lc`` (Codex's form) in a macOS-style home loads nvm's
    ``nvm.sh`` and in root's Debian home bash-completion (both past 64 KiB), so the guard
    reads them for every command such a user's agent runs."""
    _home(where, monkeypatch, setup)
    environment = {"HOME": str(where.data), "PATH": "/usr/bin:/bin"}

    ran = subprocess.run(
        ["bash", "-lc", asked],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=True,
    )

    assert ran.stdout.split() == [shown]


@pytest.mark.parametrize("command", ["ls " + "*" * 30 + "%", "echo " + "$a" * 30 + "%"])
def test_p3_a_run_of_globs_is_judged_at_once_in_a_home_of_many_definitions(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """review58d 1: thirty stars (or expansions) then a character no name ends with, matched
    against each of bash-completion's names, are one ``.*`` (they backtracked exponentially:
    44 s for ten stars), and the command is allowed."""
    _home(where, monkeypatch, "debian-root-bash-completion")

    assert refusal(answer(where, "codex", SHELL["codex"][1], {"command": command})) is None
