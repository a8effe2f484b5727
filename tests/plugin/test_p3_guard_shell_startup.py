"""P-3: a shell the command starts runs its startup files first, and the guard reads them.

The guard reads ``bash -c '…'`` as the command bash runs, but bash first runs ``$BASH_ENV``
(not interactive), ``~/.bashrc`` (``-i``) or the profiles (``-l``); ``sh`` runs ``$ENV`` when
interactive. An agent wrote such a file in one call, the place read from a file at run time,
and a harmless ``bash -lc 'ls'`` in the next wrote into another Workspace's scope (measured
below: each refused form is then run by bash, and the file lands there). Now each startup file
the shell would run is judged as commands of the call (and refused when it cannot be read
whole); a command writing one and starting such a shell is refused. Debian's own startup
files (``/etc/profile``, ``/etc/bash.bashrc``, ``/etc/skel``'s) pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    refusal,
    refusals_by_every_harness,
)

WRITES = 'cp note.md "$(cat target)"/a.md\n'
"""A startup file's line writing into the folder ``target`` names, built at run time."""
STARTUP = [
    ("BASH_ENV", "bash -c 'ls'"),
    ("BASH_ENV", "bash -c 'git status' || true"),
    ("~/.bashrc", "bash -ic 'ls'"),
    ("~/.bash_profile", "bash -lc 'ls'"),
    ("~/.profile", "bash --login -c 'npm test' || true"),
    ("~/.profile", "sh -lc 'ls'"),
    ("ENV", "sh -ic 'ls'"),
    ("~/.bashrc", "bash -o pipefail -ic 'ls'"),
    ("~/.bashrc", "bash +o history -i -c 'ls'"),
    ("~/.profile", "bash -O extglob -lc 'ls'"),
    ("~/.bashrc", "bash -io pipefail -c 'ls'"),
    ("~/.bash_profile", "bash -login -c 'ls'"),
]
"""A startup file (a variable of the harness's environment naming ``conf/start.sh``, or a file
of the home, the data dir here) and a command starting a shell that runs it first (a valued
option before ``-i``/``-l``, ``-o pipefail``, read as :func:`~harness_memory.hooks.
shell_startup.script_operand` reads it: one option reader for both)."""


def _environment(where: Layout, monkeypatch: pytest.MonkeyPatch, file: str) -> dict[str, str]:
    """The harness's environment (for the guard and for bash), with ``file``'s variable."""
    for name in ("BASH_ENV", "ENV"):
        monkeypatch.delenv(name, raising=False)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    if file in ("BASH_ENV", "ENV"):
        environment[file] = str(where.workspace / "conf" / "start.sh")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (where.workspace / "conf").mkdir()
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    return environment


def _place(where: Layout, file: str) -> Path:
    if file.startswith("~/"):
        return where.data / file[2:]
    return where.workspace / "conf" / "start.sh"


@pytest.mark.parametrize(("file", "command"), STARTUP)
def test_p3_a_shell_whose_startup_file_writes_into_another_scope_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, command: str
) -> None:
    """Written in an earlier call (as a file tool would); the shell started in the next is
    refused, naming the file; run by bash, it writes into the other scope."""
    environment = _environment(where, monkeypatch, file)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.data / "target").write_text(f"{other}\n", encoding="utf-8")
    _place(where, file).write_text(f"cd {where.workspace}\n{WRITES}", encoding="utf-8")

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "first runs" in reason, (harness, reason)
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "cat conf/start.sh >> ~/.bashrc && bash -ic 'ls'",
        "cp conf/start.sh ~/.profile; bash -lc ls",
        "printf 'cd ' > r.sh; cat target >> r.sh; printf 'echo x > a.md\\n' >> r.sh;"
        " bash --rcfile r.sh -i -c true",
        "printf 'cd ' > r.sh; cat target >> r.sh; printf 'echo x > a.md\\n' >> r.sh;"
        " BASH_ENV=r.sh bash -c true",
    ],
)
def test_p3_a_startup_file_written_in_the_command_starting_the_shell_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    environment = _environment(where, monkeypatch, "~/.bashrc")
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.data / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "conf" / "start.sh").write_text(f"cd {where.workspace}\n{WRITES}")
    (where.data / "note.md").write_text("x\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "settings" in reason, reason
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


def test_p3_a_startup_file_the_guard_cannot_read_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO as ``$BASH_ENV`` (opened without waiting): refused, naming it."""
    _environment(where, monkeypatch, "BASH_ENV")
    os.mkfifo(where.workspace / "conf" / "start.sh")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": "bash -c 'ls'"}))

    assert reason is not None and "start.sh" in reason and "cannot read whole" in reason


@pytest.mark.parametrize(
    "command",
    [
        "bash -c 'ls'",
        "bash -lc 'npm test'",
        "bash -ic 'echo hi'",
        "sh -lc 'make build'",
        "bash --login -c 'pytest -q'",
        "cat ~/.bashrc; bash -lic 'ls'",
        "grep -n PATH ~/.profile && bash -lc 'echo $PATH'",
        "bash -c 'source ~/.profile && make'",
        "bash -lc '. ~/.bashrc; ls'",
        "case \"$(uname)\" in Linux*|*BSD) bash -ic 'make';; *) echo other;; esac",
    ],
)
def test_p3_a_shell_with_everyday_startup_files_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Debian's startup files (``/etc/skel``'s ``.bashrc`` and ``.profile`` in the home, the
    system's ``/etc/profile`` and ``/etc/bash.bashrc``) and reading them refuse nothing, in
    a Workspace holding the layout's symlink into another scope: ``.bashrc``'s ``case $- in
    *i*) ;; *) return;; esac`` patterns are matched against a word, never globbed as paths
    (they once matched that symlink)."""
    _environment(where, monkeypatch, "~/.bashrc")
    assert (where.workspace / "notes").is_symlink()
    for name in (".bashrc", ".profile"):
        if Path("/etc/skel", name).exists():
            shutil.copy(Path("/etc/skel", name), where.data / name)

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    "command",
    [
        "case x in x) cp note.md notes/a.md;; esac",
        "case x in $(cp note.md notes/a.md)) ;; esac",
        "case x in\n  y|x) case y in *) tee notes/a.md < note.md;; esac;;\nesac",
        'case "$(uname)" in *) ;; esac; cp note.md notes/a.md',
    ],
)
def test_p3_a_case_whose_commands_write_into_another_scope_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Only a ``case``'s patterns go unread as paths: its commands, a command substitution in
    a pattern (run when matched) and what follows ``esac`` are judged; run by bash, each
    writes through the Workspace's symlink into the other scope."""
    environment = _environment(where, monkeypatch, "~/.bashrc")
    other = where.root / where.other

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None

    subprocess.run(
        ["bash", "-c", command], cwd=where.workspace, env=environment, capture_output=True
    )
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


DANGLING = [
    ("~/.bashrc", "bash -ic 'ls'"),
    ("~/.bash_profile", "bash -lc 'ls'"),
    ("~/.profile", "sh -lc 'ls'"),
    ("BASH_ENV", "bash -c 'ls'"),
    ("ENV", "sh -ic 'ls'"),
]
"""A startup file that is a link to nothing (``~/.bashrc`` into a dotfiles checkout not there)
and a shell that would run it first."""


@pytest.mark.parametrize(("file", "command"), DANGLING)
def test_p3_a_startup_file_linking_to_nothing_passes_as_bash_skips_it(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, command: str
) -> None:
    """bash (and sh) skip a startup file that is not there, a link to nothing too: the
    command runs as if it were missing (it once was refused as a file the guard cannot read);
    run by the real shell, it succeeds and prints the listing."""
    environment = _environment(where, monkeypatch, file)
    _place(where, file).symlink_to(where.data / "dotfiles" / "startup.sh")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
    ran = subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        text=True,
        check=True,
    )
    assert "note.md" in ran.stdout


@pytest.mark.parametrize(("file", "command"), DANGLING)
def test_p3_a_startup_file_linking_to_a_file_the_command_writes_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, command: str
) -> None:
    """The same link, its target written by the command that starts the shell: refused;
    run by bash, the shell runs what was written and it lands in the other scope."""
    environment = _environment(where, monkeypatch, file)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.data / "dotfiles").mkdir()
    _place(where, file).symlink_to(where.data / "dotfiles" / "startup.sh")
    (where.workspace / "conf" / "w.sh").write_text(f"cd {where.workspace}\n{WRITES}")
    full = f"cp conf/w.sh ~/dotfiles/startup.sh; {command}"

    reason = refusal(answer(where, "claude-code", "Bash", {"command": full}))

    assert reason is not None, full
    subprocess.run(
        ["bash", "-c", full],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({full})"


MAKES_THE_FOLDER = [
    "ln -sfn ~/realdots ~/dotfiles && {command}",
    "mv ~/realdots ~/dotfiles; {command}",
    "cp -r ~/realdots ~/dotfiles && {command}",
]
"""Commands making the missing folder a dangling startup file points into (its target's
folder), before the shell that runs it: from then on the link leads to a file."""


@pytest.mark.parametrize("making", MAKES_THE_FOLDER)
@pytest.mark.parametrize(("file", "command"), DANGLING[:3])
def test_p3_a_startup_file_linking_into_a_folder_the_command_makes_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, making: str, file: str, command: str
) -> None:
    """The link's target's folder is missing, and the command makes it (a link to, a move or
    a copy of a folder holding the file): refused; run by bash, the shell runs that file and
    it writes into the other scope."""
    environment = _environment(where, monkeypatch, file)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.data / "realdots").mkdir()
    (where.data / "realdots" / "startup.sh").write_text(f"cd {where.workspace}\n{WRITES}")
    _place(where, file).symlink_to(where.data / "dotfiles" / "startup.sh")
    full = making.format(command=command)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": full}))

    assert reason is not None, full
    subprocess.run(
        ["bash", "-c", full],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({full})"
