"""P-3: ``git`` runs and writes what its own settings say, and the guard reads them when it runs.

``git`` is a program whose writes the guard does not read: a command running it was refused
only where its text named other memory. Its settings make a plain ``git status`` run commands
no word shows: an agent wrote ``alias.x = !sh -c '…'``, ``core.fsmonitor = <command>`` or an
``include.path`` into ``.git/config`` (or ``~/.gitconfig``, or a file ``GIT_CONFIG_GLOBAL``
names) in one call, the place read from a file at run time so no word named another scope, and
``git x`` or ``git status`` in the next wrote into another Workspace's scope (measured below:
each refused form is then run by bash with the real git, and the file lands there). Now, when
``git`` runs, the guard reads every settings file it would read (includes followed), the
``GIT_CONFIG_*`` variables and ``-c``: each command a setting makes git run is judged as a
command of the call, and their text (hook scripts included) as the text of a program the guard
does not read. A settings file it cannot read whole refuses the command; a command writing
git's settings and running git, or choosing its settings file, is refused. Ordinary settings
(a user name, ``core.editor = vim``, an ``alias.lg = !git log …``, husky's hooks path) pass.
"""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest
from harness_memory.hooks.git_settings import GIT_FILES_CAP

from tests.support.guard_cases import SHELL, Layout, answer, fill, refusal

WRITE_AT_RUN_TIME = 'echo x > \\"$(cat target)\\"/a.md'
"""A shell command writing into the folder the file ``target`` names (quoted for a git
config value in double quotes)."""
SETTINGS = [
    (".git/config", f"[alias]\n\tx = \"!sh -c '{WRITE_AT_RUN_TIME}'\"\n", "git x"),
    (".git/config", f'[core]\n\tfsmonitor = "{WRITE_AT_RUN_TIME}; false"\n', "git status"),
    ("~/.gitconfig", f'[alias]\n\tsync = "!{WRITE_AT_RUN_TIME}"\n', "git sync"),
    ("~/.config/git/config", f'[Alias]\n\tx = "!{WRITE_AT_RUN_TIME}"\n', "git x"),
    (
        ".git/config",
        "[include]\n\tpath = ../extra.cfg\n",
        "git x",
    ),
    (
        "~/.gitconfig",
        '[includeIf "gitdir:/"]\n\tpath = ~/more.cfg\n',
        "git status",
    ),
    ("conf/global", f'[alias]\n\tx = "!{WRITE_AT_RUN_TIME}"\n', "git x"),
    # git ends a settings line at LF alone: a U+2028 or a form feed is inside the value, and
    # what follows it is the alias's command too (a reader splitting there saw ``!true``)
    (".git/config", f"[alias]\n\tx = !true \u2028 && sh -c '{WRITE_AT_RUN_TIME}'\n", "git x"),
    (".git/config", f"[alias]\n\tx = !true \x0c && sh -c '{WRITE_AT_RUN_TIME}'\n", "git x"),
]
"""A settings file git reads (``conf/global`` is the one ``GIT_CONFIG_GLOBAL`` names in the
harness's environment), a text making git write into the folder ``target`` names, and the
plain git command that then does."""
INCLUDED = {
    "../extra.cfg": f'[alias]\n\tx = "!{WRITE_AT_RUN_TIME}"\n',
    "~/more.cfg": f'[core]\n\tfsmonitor = "{WRITE_AT_RUN_TIME}; false"\n',
}
"""The files the include forms above name, with the command they hide."""


def _repository(where: Layout, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The Workspace as a git repository with one commit; the harness's environment (for the
    guard and for bash): ``HOME`` the data dir, ``GIT_CONFIG_GLOBAL`` unset but for the
    ``conf/global`` form."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name in [name for name in os.environ if name.startswith("GIT_")]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (where.workspace / "conf").mkdir()
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    for command in (
        ["git", "init", "-q"],
        ["git", "-c", "user.name=a", "-c", "user.email=a@b", "add", "note.md"],
        ["git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "first"],
    ):
        subprocess.run(command, cwd=where.workspace, env=environment, check=True)
    return environment


def _place(where: Layout, file: str) -> Path:
    """Where a settings file of :data:`SETTINGS` lies (``~`` the data dir)."""
    if file.startswith("~/"):
        return where.data / file[2:]
    return (where.workspace / file).resolve()


def _bash(command: str, where: Layout, environment: dict[str, str]) -> None:
    subprocess.run(
        ["bash", "-c", command], cwd=where.workspace, env=environment, capture_output=True
    )


def _write(where: Layout, file: str, text: str) -> None:
    place = _place(where, file)
    place.parent.mkdir(parents=True, exist_ok=True)
    with place.open("a", encoding="utf-8") as settings:
        settings.write(text)


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(("file", "text", "command"), SETTINGS)
def test_p3_git_whose_settings_write_into_another_scope_is_refused(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    harness: str,
    file: str,
    text: str,
    command: str,
) -> None:
    """The settings are written by the agent in an earlier call (as a file tool would); the
    plain git command after them is refused, naming the setting; run by bash with the real
    git, it writes into the other scope."""
    environment = _repository(where, monkeypatch)
    if file == "conf/global":
        environment["GIT_CONFIG_GLOBAL"] = str(where.workspace / file)
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", environment["GIT_CONFIG_GLOBAL"])
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    _write(where, file, text)
    for included, hidden in INCLUDED.items():
        if included in text:
            _write(where, included if included.startswith("~") else "extra.cfg", hidden)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": command}))

    assert reason is not None and "git's setting" in reason, reason
    _bash(command, where, environment)
    assert (other / "a.md").exists(), "nothing landed: no bypass"


@pytest.mark.parametrize(
    "command",
    [
        'git -c alias.x=\'!sh -c "echo x > \\"$(cat target)\\"/a.md"\' x',
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x "
        "GIT_CONFIG_VALUE_0='!echo x > \"$(cat target)\"/a.md' git x",
        "git config alias.x '!echo x > \"$(cat target)\"/a.md' && git x",
        'printf \'[alias]\\n\\tx = "!echo x > \\\\"$(cat target)\\\\"/a.md"\\n\' '
        ">> .git/config && git x",
        "export GIT_CONFIG_GLOBAL=conf/g; printf '[alias]\\n\\tx = \"!echo x > "
        '\\\\"$(cat target)\\\\"/a.md"\\n\' > conf/g; git x',
        "printf '[alias]\\n\\tx = !cd ' > $WS/h.cfg; tr -d '\\n' < target >> $WS/h.cfg;"
        " printf ' && echo x > a.md\\n' >> $WS/h.cfg; git -c include.path=$WS/h.cfg x",
        "printf '[alias]\\n\\tx = !cd ' > h.cfg; tr -d '\\n' < target >> h.cfg;"
        " printf ' && echo x > a.md\\n' >> h.cfg; GIT_CONFIG_GLOBAL=h.cfg git x",
        "printf '[alias]\\n\\tx = !cd ' > h.cfg; tr -d '\\n' < target >> h.cfg;"
        " printf ' && echo x > a.md\\n' >> h.cfg; H=$PWD/h.cfg git --config-env=include.path=H x",
    ],
)
def test_p3_git_settings_given_or_written_in_the_same_command_are_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """``-c``, ``GIT_CONFIG_*`` before git, ``git config`` then git, a settings file written
    then git: each refused; run by bash with the real git, each writes into the other scope.
    (``$WS``: the Workspace's path, written out.)"""
    environment = _repository(where, monkeypatch)
    command = command.replace("$WS", str(where.workspace))
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None, command
    _bash(command, where, environment)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


def test_p3_git_settings_or_hooks_naming_another_scope_are_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hook script (under ``core.hooksPath``) and ``core.worktree`` naming another scope:
    the commit and the checkout are refused; run by bash with the real git, each writes
    there."""
    environment = _repository(where, monkeypatch)
    other = where.root / where.other
    hooks = where.workspace / "hooks"
    hooks.mkdir()
    (hooks / "pre-commit").write_text(f"#!/bin/sh\necho x > {other}/hook.md\n", encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    _write(where, ".git/config", "[core]\n\thooksPath = hooks\n")
    commit = "git -c user.name=a -c user.email=a@b commit -qm second --allow-empty"

    reason = refusal(answer(where, "claude-code", "Bash", {"command": commit}))

    assert reason is not None and where.other in reason, reason
    _bash(commit, where, environment)
    assert (other / "hook.md").exists(), "the hook wrote nothing: no bypass"

    (hooks / "pre-commit").unlink()
    _write(where, ".git/config", f"[core]\n\tworktree = {other}\n")
    checkout = "git checkout HEAD -- note.md"
    assert refusal(answer(where, "claude-code", "Bash", {"command": checkout})) is not None
    _bash(checkout, where, environment)
    assert (other / "note.md").exists(), "the checkout wrote nothing: no bypass"


def test_p3_git_settings_the_guard_cannot_read_refuse_without_waiting(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO as ``~/.gitconfig`` (nobody writes it: a read would wait for ever), and an
    include of an unreadable file: the command is refused at once, naming the file."""
    _repository(where, monkeypatch)
    fifo = where.data / ".gitconfig"
    os.mkfifo(fifo)
    done = threading.Event()
    found: list[str | None] = []

    def ask() -> None:
        found.append(refusal(answer(where, "claude-code", "Bash", {"command": "git status"})))
        done.set()

    threading.Thread(target=ask, daemon=True).start()
    if not done.wait(30):
        with fifo.open("w"):  # let the stuck read end, then fail
            pass
        pytest.fail("the guard waited on the FIFO")
    assert found[0] is not None and "cannot read whole" in found[0]
    fifo.unlink()

    hidden = where.workspace / "hidden.cfg"
    hidden.write_text("[user]\n\tname = a\n", encoding="utf-8")
    hidden.chmod(0)
    _write(where, ".git/config", "[include]\n\tpath = ../hidden.cfg\n")
    if os.access(hidden, os.R_OK):  # root reads any file: make it unreadable another way
        hidden.unlink()
        hidden.mkdir()
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "git log"}))
    assert reason is not None and "hidden.cfg" in reason


ORDINARY = [
    "[user]\n\tname = Ada\n\temail = ada@example.com\n",
    "[core]\n\teditor = vim\n\tpager = less -R\n\tfsmonitor = false\n",
    '[alias]\n\tst = status\n\tlg = "!git log --oneline | head -20"\n',
    "[credential]\n\thelper = store\n[pull]\n\trebase = true\n",
    "[core]\n\thooksPath = .husky/_\n",
    '[diff "lockb"]\n\ttextconv = bun\n[filter "lfs"]\n\tclean = git-lfs clean -- %f\n',
]
"""Settings real repositories and homes hold."""


@pytest.mark.parametrize("settings", ORDINARY)
@pytest.mark.parametrize(
    "command",
    [
        "git status",
        "git log --oneline -5",
        "git diff --stat",
        "git add -A && git commit -m 'wip'",
        "cat .git/config && git status",
        "git st",
        "grep -n alias ~/.gitconfig; git lg",
    ],
)
def test_p3_git_with_ordinary_settings_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, settings: str, command: str
) -> None:
    """Ordinary settings in the repository and the home, and reading them, refuse nothing."""
    _repository(where, monkeypatch)
    _write(where, ".git/config", settings)
    _write(where, "~/.gitconfig", settings)
    husky = where.workspace / ".husky" / "_"
    husky.mkdir(parents=True)
    (husky / "pre-commit").write_text('#!/bin/sh\n. "$(dirname "$0")/h"\n', encoding="utf-8")
    (where.workspace / ".husky" / "pre-commit").write_text("npx lint-staged\n", encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": fill(command, where)}) is None


def test_p3_git_settings_are_read_to_their_caps(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings including themselves, or a hooks folder of more files than the guard reads:
    read to the caps, then refused (never read for ever)."""
    _repository(where, monkeypatch)
    _write(where, ".git/config", "[include]\n\tpath = config\n")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "git status"}))
    assert reason is not None and "cannot read whole" in reason

    (where.workspace / ".git" / "config").write_text("[core]\n\thooksPath = many\n")
    (where.workspace / "many").mkdir()
    for number in range(GIT_FILES_CAP + 1):
        (where.workspace / "many" / f"hook-{number}").write_text("true\n", encoding="utf-8")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "git status"}))
    assert reason is not None and "too many files" in reason


@pytest.mark.parametrize(
    "command",
    [
        "sed -n 'w .git/config' target && git status",
        "sed 's/^/[alias]/w .git/config' target && git status",
        "sed -n '1,$ W .git/config' target; git status",
        "sed -i 1p .git/config && git status",
        "sed -f script.sed .git/config && git status",
        "sed -n '1e cp target .git/config' target && git status",
        "./sed -n 1p .git/config && git status",
    ],
)
def test_p3_a_sed_that_may_write_git_settings_then_git_is_refused(
    where: Layout, command: str
) -> None:
    """A ``sed`` that only prints is read like ``head`` (``sed -n 1,20p .git/config && git
    status`` passes: ``test_p3_everyday_commands.py``); one whose script writes a file
    (``w``, ``W``, ``s///w``), runs one (``e``), edits in place, comes from a file, or is no
    ``sed`` found on ``PATH`` may write git's settings before git reads them: refused."""
    (where.workspace / ".git").mkdir()
    (where.workspace / ".git" / "config").write_text("[core]\n\tbare = false\n")
    (where.workspace / "script.sed").write_text("1p\n")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "git" in reason, command


@pytest.mark.parametrize(
    "command",
    [
        'git config core.worktree "$(cat target)" && git checkout -- .',
        'git config set core.worktree "$(cat target)"; git checkout -- .',
        'git config --file .git/config core.worktree "$(cat target)" && git checkout -- .',
    ],
)
def test_p3_a_git_place_set_by_the_command_at_run_time_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """``core.worktree`` (``core.hooksPath``, ``include.path``) set by ``git config`` to a
    value built at run time: the settings git then reads are unknown, refused (``--file F``
    was read as the key). Run by bash with the real git, the checkout writes the
    repository's files into the other scope."""
    environment = _repository(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "built at run time" in reason, reason
    _bash(command, where, environment)
    if "config set" not in command:  # git 2.46's verb: an older git refuses it
        assert (other / "note.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        'git config user.name "$(whoami)" && git commit -qm x --allow-empty',
        "git config --get core.worktree; git status",
        "git config --type bool core.bare false",
    ],
)
def test_p3_git_settings_set_by_the_command_that_name_no_place_pass(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    _repository(where, monkeypatch)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
