"""P-3: a settings file a command points a program at by name is read when it exists and is
left alone by the command; missing, named at run time or named by another command of the
same line (which may write it first), the command is refused.

``npm_config_userconfig=u.rc npm …``, ``PIP_CONFIG_FILE=p.cfg pip …``, ``bash --rcfile r.sh
-i``, ``BASH_ENV=r.sh bash -c``, ``git -c include.path=h.cfg`` read the file when the program
starts; written earlier in the same command (``printf 'cache=' > u.rc; cat target >> u.rc;
…``) it was not on the disk when the guard answered, was skipped as git and npm skip a
missing file, and the command passed: bash then wrote into another scope (the forms are in
``test_p3_guard_package_settings.py``, ``test_p3_guard_shell_startup.py`` and
``test_p3_guard_git_settings.py``, each run with the real program). Here: what is named, and
the everyday forms that pass.
"""

from __future__ import annotations

import pytest
from harness_memory.hooks.pointed_settings import npm_option_files, pointed_files

from tests.support.guard_cases import Layout, answer, refusal


@pytest.mark.parametrize(
    ("program", "words", "environ", "named"),
    [
        ("npm", ["ls"], {"NPM_CONFIG_USERCONFIG": "u.rc"}, ["/ws/u.rc"]),
        ("npm", ["--globalconfig=g.rc", "ls"], {}, ["/ws/g.rc"]),
        ("pip", ["list"], {"PIP_CONFIG_FILE": "~/p.cfg", "HOME": "/h"}, ["/h/p.cfg"]),
        ("pip", ["list"], {"PIP_CONFIG_FILE": "/dev/null"}, []),
        ("bash", ["--rcfile", "r.sh", "-i", "-c", "true"], {"HOME": "/h"}, ["/ws/r.sh"]),
        ("bash", ["-c", "true"], {"BASH_ENV": "r.sh", "HOME": "/h"}, ["/ws/r.sh"]),
        ("bash", ["-ic", "true"], {"HOME": "/h"}, []),
        ("sh", ["-ic", "true"], {"ENV": "/e.sh"}, ["/e.sh"]),
        ("git", ["-c", "include.path=/x/h.cfg", "x"], {}, ["/x/h.cfg"]),
        ("git", ["-c", "includeIf.onbranch:m.path=/x/i.cfg", "x"], {}, ["/x/i.cfg"]),
        ("git", ["--config-env=include.path=H", "x"], {"H": "/x/e.cfg"}, ["/x/e.cfg"]),
        ("git", ["--config-env=include.path=H", "x"], {}, ["/ws/$H"]),
        (
            "git",
            ["x"],
            {"GIT_CONFIG_GLOBAL": "g.cfg", "GIT_CONFIG_SYSTEM": "/dev/null"},
            ["/ws/g.cfg"],
        ),
        (
            "git",
            ["x"],
            {
                "GIT_CONFIG_COUNT": "1",
                "GIT_CONFIG_KEY_0": "include.path",
                "GIT_CONFIG_VALUE_0": "/k",
            },
            ["/k"],
        ),
        ("git", ["x"], {"GIT_CONFIG_PARAMETERS": "'include.path'='/p'"}, ["/p"]),
        ("git", ["-c", "alias.x=!true", "x"], {}, []),
    ],
)
def test_p3_the_settings_files_a_command_points_a_program_at_are_named(
    program: str, words: list[str], environ: dict[str, str], named: list[str]
) -> None:
    assert pointed_files(program, "/ws", words, environ) == named


def test_p3_npm_options_choosing_its_settings_files_are_read_as_its_variables() -> None:
    words = ["--userconfig", "u.rc", "--globalconfig=g.rc", "ls"]
    assert npm_option_files(words) == {
        "npm_config_userconfig": "u.rc",
        "npm_config_globalconfig": "g.rc",
    }


@pytest.mark.parametrize(
    "command",
    [
        "npm_config_userconfig=u.rc npm config get registry",
        "npm --userconfig u.rc config get registry",
        "PIP_CONFIG_FILE=p.cfg pip list",
        "bash --rcfile r.sh -i -c true",
        "BASH_ENV=r.sh bash -c true",
        "git -c include.path={workspace}/h.cfg status",
    ],
)
def test_p3_settings_files_pointed_at_that_are_on_the_disk_and_left_alone_pass(
    where: Layout, command: str
) -> None:
    """Everyday settings in files the command does not touch: read, and let through."""
    (where.workspace / "u.rc").write_text("registry=https://registry.example/\n")
    (where.workspace / "p.cfg").write_text("[global]\nindex-url = https://pypi.example/\n")
    (where.workspace / "r.sh").write_text("alias ll='ls -l'\n")
    (where.workspace / "h.cfg").write_text("[user]\n\tname = a\n")
    shell = command.format(workspace=where.workspace)

    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


@pytest.mark.parametrize(
    "command",
    [
        "npm_config_userconfig=missing.rc npm config get registry",
        "PIP_CONFIG_FILE=missing.cfg pip list",
        "bash --rcfile missing.sh -i -c true",
        "git -c include.path={workspace}/missing.cfg status",
        'PIP_CONFIG_FILE="$(cat name)" pip list',
        "cp p.cfg q.cfg; PIP_CONFIG_FILE=q.cfg pip list",
        "sed -i s/a/b/ r.sh && BASH_ENV=r.sh bash -c true",
    ],
)
def test_p3_settings_files_pointed_at_missing_run_time_or_touched_are_refused(
    where: Layout, command: str
) -> None:
    (where.workspace / "p.cfg").write_text("[global]\nindex-url = https://pypi.example/\n")
    (where.workspace / "q.cfg").write_text("[global]\nindex-url = https://pypi.example/\n")
    (where.workspace / "r.sh").write_text("alias ll='ls -l'\n")
    shell = command.format(workspace=where.workspace)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None, shell
    assert "settings" in reason, reason


HARNESS_POINTED = [
    ("PIP_CONFIG_FILE", "pip list"),
    ("PIP_CONFIG_FILE", "python3 -m pip --version"),
    ("NPM_CONFIG_USERCONFIG", "npm config get registry"),
    ("npm_config_globalconfig", "npx --version"),
    ("GIT_CONFIG_GLOBAL", "git status"),
    ("GIT_CONFIG_SYSTEM", "git log -1"),
]
"""A variable of the harness's environment naming a settings file, and a command reading it."""


@pytest.mark.parametrize(("variable", "command"), HARNESS_POINTED)
def test_p3_a_missing_settings_file_the_harness_environment_names_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, variable: str, command: str
) -> None:
    """The harness runs with the variable naming a file that is not there (a CI image's
    ``PIP_CONFIG_FILE``): the program reads nothing from it. Every ``pip``, ``npm`` and
    ``git`` command was refused as if the command had pointed it there."""
    monkeypatch.setenv(variable, str(where.workspace.parent / "absent" / "settings.cfg"))

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(("variable", "command"), HARNESS_POINTED)
@pytest.mark.parametrize(
    "writing",
    [
        'printf "[x]\\n" > "${variable}"; {command}',
        "mkdir -p {folder} && cp /dev/null {file} && {command}",
        "{command} && touch {file}; {command}",
    ],
)
def test_p3_a_missing_settings_file_the_harness_names_written_by_the_command_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, variable: str, command: str, writing: str
) -> None:
    """The same missing file, written by another command of the line before the program
    reads it: what it will hold cannot be read now, so the command is refused (a write
    through the variable as a place the shell builds at run time)."""
    file = where.workspace.parent / "absent" / "settings.cfg"
    monkeypatch.setenv(variable, str(file))
    shell = writing.format(variable=variable, command=command, folder=file.parent, file=file)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None, shell
    assert "settings file" in reason or "builds at run time" in reason, reason
