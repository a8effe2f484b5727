"""P-3: ``npm`` and ``pip`` write where their own settings say, and the guard reads them.

``npm`` and ``pip`` are programs whose writes the guard does not read: a command running one
was refused only where its text named other memory. Their settings name places they write on
every run: ``logs-dir`` in an ``.npmrc`` (``npm run`` writes its debug log there), ``log`` in a
``pip.conf`` (``pip list`` writes its log there), ``prefix``, ``cache``, pip's ``target``. An
agent wrote such a file in one call, the place read from a file at run time so no word named
another scope, and a plain ``npm run t`` or ``pip list`` in the next wrote into another
Workspace's scope (measured below: each refused form is then run by bash with the real
program, and the file lands there). Now, when ``npm`` (``npx``, ``pnpm``) or ``pip``
(``pip3``, ``python3 -m pip``) runs, the guard reads the settings files and variables it would
read: each place one names for writing is judged as a path of the command, each program it
names to run (``script-shell``) as a command of the call, and their text as the text of a
program the guard does not read; a file it cannot read whole refuses the command, and so does
a command writing such a file (or setting such a variable at run time) and running the
program. Ordinary settings (a registry, ``save-exact``, an index URL, a cache in the home)
pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, refusal

PACKAGE = '{"name": "a", "version": "1.0.0", "scripts": {"t": "true", "test": "true"}}\n'
SETTINGS = [
    (".npmrc", "logs-dir", "npm run t"),
    ("~/.npmrc", "logs-dir", "npm run t"),
    ("~/.npmrc", "cache", "npm cache verify"),
    ("~/.config/pip/pip.conf", "[global]\nlog", "pip list"),
    ("~/.pip/pip.conf", "[list]\nlog", "python3 -m pip list"),
    ("~/.config/pip/pip.conf", "[global]\nlog", "pip3 list --format=json"),
]
"""A settings file (``~`` the home, the data dir here), the line's start before ``= <the place
the file target names>``, and the plain command that then writes there."""


def _environment(where: Layout, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The harness's environment (for the guard and for bash) with no npm or pip settings
    variables: ``HOME`` the data dir, ``PATH`` holding this Python's ``pip``."""
    for name in [n for n in os.environ if n.lower().startswith(("npm_config_", "pip_"))]:
        monkeypatch.delenv(name)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    search = f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin"
    environment = {"PATH": search, "HOME": str(where.data), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (where.workspace / "package.json").write_text(PACKAGE, encoding="utf-8")
    return environment


def _place(where: Layout, file: str) -> Path:
    return where.data / file[2:] if file.startswith("~/") else (where.workspace / file).resolve()


def _bash(command: str, where: Layout, environment: dict[str, str]) -> None:
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        timeout=120,
    )


def _refusals(where: Layout, command: str) -> dict[str, str | None]:
    """Each harness's refusal of ``command`` through its shell tool (None: allowed)."""
    return {
        harness: refusal(answer(where, harness, SHELL[harness][1], {"command": command}))
        for harness in SHELL
    }


@pytest.mark.parametrize(("file", "line", "command"), SETTINGS)
def test_p3_a_package_manager_whose_settings_write_into_another_scope_is_refused(
    where: Layout,
    monkeypatch: pytest.MonkeyPatch,
    file: str,
    line: str,
    command: str,
) -> None:
    """The settings file is written in a call of its own from a file read at run time (the
    guard lets that through in every harness: it writes the agent's own file); the plain
    command after it is refused by every harness, naming the place; run by bash with the real
    program (once: what it does is no harness's), it writes there."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}/written\n", encoding="utf-8")
    place = _place(where, file)
    place.parent.mkdir(parents=True, exist_ok=True)
    write = f'sed "s|^|{line} = |" target > {place}'.replace("\n", "\\n")
    assert _refusals(where, write) == dict.fromkeys(SHELL)
    _bash(write, where, environment)

    refused = _refusals(where, command)

    for harness, reason in refused.items():
        assert reason is not None and where.other in reason, (harness, reason)
        assert "setting" in reason, (harness, reason)
    _bash(command, where, environment)
    assert (other / "written").exists(), "nothing landed: no bypass"


@pytest.mark.parametrize(
    "command",
    [
        'sed "s|^|logs-dir=|" target > .npmrc && npm run t',
        "printf 'logs-dir=%s\\n' \"$(cat target)\" | tee -a .npmrc; npm test",
        'npm_config_logs_dir="$(cat target)" npm run t',
        'export npm_config_logs_dir="$(cat target)"; npm run t',
        "mkdir -p ~/.config/pip && sed 's|^|[global]\\nlog = |' target > ~/.config/pip/pip.conf"
        " && pip list",
        'PIP_LOG="$(cat target)" pip list',
        "PIP_CONFIG_FILE=conf.ini python3 -m pip list",
        "npm --userconfig h/.npmrc run t",
        "npm --userconfig=h/.npmrc run t",
        "HOME=h npm run t",
        "export HOME=h; npm run t",
        "printf 'cache=' > u.rc; cat target >> u.rc; npm_config_userconfig=u.rc npm config get"
        " registry",
        "printf 'cache=' > u.rc; cat target >> u.rc; npm --userconfig u.rc config get registry",
        "printf '[global]\\nlog = ' > p.cfg; cat target >> p.cfg; PIP_CONFIG_FILE=p.cfg pip list",
    ],
)
def test_p3_package_settings_written_or_chosen_in_the_same_command_are_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """What the program then reads is not on the disk when the guard answers, or is read
    where the command's own ``HOME`` or ``PIP_CONFIG_FILE`` points: refused; run by bash
    with the real program, each writes into the other scope."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}/written\n", encoding="utf-8")
    (where.workspace / "conf.ini").write_text(f"[global]\nlog = {other}/written\n")
    (where.workspace / "h").mkdir()
    (where.workspace / "h" / ".npmrc").write_text(f"logs-dir={other}/written\n")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None, command
    _bash(command, where, environment)
    assert (other / "written").exists(), f"nothing landed: no bypass ({command})"


def test_p3_package_settings_the_guard_cannot_read_are_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO as the project's ``.npmrc`` (opened without waiting) and an unreadable
    ``pip.conf`` (a folder): the command is refused, naming the file."""
    _environment(where, monkeypatch)
    os.mkfifo(where.workspace / ".npmrc")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "npm test"}))
    assert reason is not None and ".npmrc" in reason and "cannot read whole" in reason

    (where.data / ".pip" / "pip.conf").mkdir(parents=True)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": "pip install requests"}))
    assert reason is not None and "pip.conf" in reason


ORDINARY_NPMRC = (
    "registry=https://registry.npmjs.org/\nsave-exact=true\nfund=false\n"
    "cache=~/.npm\nprefix=${HOME}/.local\n//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"
)
ORDINARY_PIP = (
    "[global]\nindex-url = https://pypi.org/simple\ntimeout = 60\n"
    "cache-dir = ~/.cache/pip\n[install]\nuser = true\n"
)


@pytest.mark.parametrize(
    "command",
    [
        "npm test",
        "npm run t",
        "npm ci && npm run build",
        "npx prettier --check .",
        "pnpm install",
        "cat .npmrc && npm test",
        "pip install requests",
        "pip3 install -r requirements.txt",
        "python3 -m pip install -e .",
        "cat ~/.config/pip/pip.conf; pip list",
        "pip install --target ./vendor six",
    ],
)
def test_p3_package_managers_with_ordinary_settings_pass(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Settings real projects and homes hold, and reading them, refuse nothing."""
    _environment(where, monkeypatch)
    (where.workspace / ".npmrc").write_text(ORDINARY_NPMRC, encoding="utf-8")
    (where.data / ".npmrc").write_text(ORDINARY_NPMRC, encoding="utf-8")
    (where.data / ".config" / "pip").mkdir(parents=True)
    (where.data / ".config" / "pip" / "pip.conf").write_text(ORDINARY_PIP, encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("mkdir conf && cp .npmrc.new conf/ && cp conf/.npmrc.new ~/.npmrc && npm test", "npm"),
        ("cp ~/dotfiles/.npmrc ~/ && npm test", "npm"),
        ("install -m 600 -t ~/.config/pip/ pip.conf; pip list", "pip"),
        ('python3 -c \'open(".npmrc", "a").write("x")\' && npm test', "npm"),
        ("echo 'log = x' > ~/.pip/pip.c* && pip3 install six", "pip"),
        ("printf '[alias]' >> ~/.config/git/config && git status", "git"),
        ("sed -i 's/a/b/' .git/config; git log", "git"),
        ("echo ls > .git/hooks/pre-commit && git commit -qm x", "git"),
    ],
)
def test_p3_settings_written_by_their_last_parts_then_run_are_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str, program: str
) -> None:
    """A place the command writes that is a settings file by its last parts (a copy's
    destination, a copy into the home keeping its name, a script's text, a pattern matching
    one): refused, naming the program, before it runs and reads what was written."""
    _environment(where, monkeypatch)
    (where.data / "dotfiles").mkdir()

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and f"writes {program}'s settings" in reason, (command, reason)


SET_AT_RUN_TIME = [
    'npm config set logs-dir "$(cat target)" && npm run t',
    'npm set logs-dir "$(cat target)"; npm run t',
    'npm config set --location user logs-dir="$(cat target)" && npm run t',
    'pip config --user set global.log "$(cat target)" && pip list',
    'python3 -m pip config set global.log "$(cat target)"; pip list',
]
"""``npm config set``/``pip config set`` writing a place read at run time into the settings
file, then the plain command that writes there (``target`` names a folder of another
scope's)."""


@pytest.mark.parametrize("command", SET_AT_RUN_TIME)
def test_p3_a_package_setting_set_by_the_command_to_a_run_time_place_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Each passed: the settings file did not hold the place yet when the guard read it,
    and no word of the command names it. The values the command sets are read as the
    file's lines; one built at run time is refused, by every harness. Run by bash with the
    real program (once: what it does is no harness's), each writes into the other scope."""
    environment = _environment(where, monkeypatch)
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}/written\n", encoding="utf-8")
    (where.data / ".config" / "pip").mkdir(parents=True, exist_ok=True)

    refused = _refusals(where, command)

    for harness, reason in refused.items():
        assert reason is not None and "value built at run time" in reason, (harness, reason)
    _bash(command, where, environment)
    assert (other / "written").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("npm config set logs-dir notes/logs && npm run t", "notes"),
        ("npm config set cache={root}/{other}/c; npm cache verify", "{other}"),
        ("pip config --site set global.target {root}/{other}/t", "{other}"),
        ("npm config set script-shell 'sh -c \"echo x > {root}/{other}/a.md\"'", "{other}"),
    ],
)
def test_p3_a_package_setting_set_by_the_command_to_memory_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str, named: str
) -> None:
    """A literal place in memory (or a program writing there) set by the command is judged
    as the same line in the settings file is."""
    _environment(where, monkeypatch)
    shell = command.format(root=where.root, other=where.other)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None and named.format(other=where.other) in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "npm config set registry https://registry.example/ && npm ci",
        "npm config set cache ~/.npm-cache && npm ci",
        "npm config set cache '${HOME}/.npm-cache'",
        "npm set save-exact true",
        "npm config get cache && npm config list",
        "pip config set global.index-url https://pypi.example/simple && pip install x",
        "pip config --user set global.cache-dir /tmp/pip-cache",
        'pip config set global.timeout "$(cat timeout)"',
    ],
)
def test_p3_ordinary_package_settings_set_by_the_command_pass(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    _environment(where, monkeypatch)
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
