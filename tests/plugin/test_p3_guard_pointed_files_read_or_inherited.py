"""P-3: a settings file pointed at is refused when the command itself may make it; not when
the harness's environment names one that is missing, nor when the command only reads it.

The guard refuses a command pointing a program at a settings file (``BASH_ENV=r.sh bash -c``,
``bash --rcfile r.sh``, ``PIP_CONFIG_FILE=p.cfg pip``) that is missing or that another part of
the command names, since that part may write it first. Two everyday kinds were refused with
it: a harness whose own environment names a missing file (``BASH_ENV``, ``ENV``,
``PIP_CONFIG_FILE``, ``GIT_CONFIG_GLOBAL``… set by the user's profile) had every ``bash``,
``pip`` or ``git`` command refused, though a missing file runs and writes nothing; and ``cat
r.sh; bash --rcfile r.sh`` was refused for naming ``r.sh`` twice, though ``cat`` only reads.
Now a file the command names only through the harness's environment is refused only when the
command writes it, and only a command that may write a file (a redirection, a writer, a
program the guard does not read) counts as naming it elsewhere; run by bash, each refused form
still writes into another scope.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    refusal,
    refusals_by_every_harness,
)

WRITES = 'cp note.md "$(cat target)"/a.md\n'
"""A startup file's line writing into the folder ``target`` names, built at run time."""
INHERITED = [
    ("BASH_ENV", "bash -c 'ls'"),
    ("BASH_ENV", "bash -lc 'npm test' || true"),
    ("ENV", "sh -ic 'ls'"),
    ("PIP_CONFIG_FILE", "pip list"),
    ("npm_config_userconfig", "npm config get registry"),
    ("GIT_CONFIG_GLOBAL", "git status"),
    ("GIT_CONFIG", "git log -1 || true"),
]
"""A variable of the harness's environment naming a settings file, and a command reading it."""


def _layout(where: Layout, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The harness's environment (for the guard and for bash), a note, the ``target`` file
    naming the other scope, and ``y.sh`` writing there."""
    for name in ("BASH_ENV", "ENV", "PS1"):
        monkeypatch.delenv(name, raising=False)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "y.sh").write_text(WRITES, encoding="utf-8")
    return environment


def _run(where: Layout, environment: dict[str, str], command: str) -> None:
    subprocess.run(
        ["bash", "-c", command],
        cwd=where.workspace,
        env=environment,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


@pytest.mark.parametrize("relative", [False, True])
@pytest.mark.parametrize(("variable", "command"), INHERITED)
def test_p3_a_missing_settings_file_the_harness_environment_names_refuses_nothing(
    where: Layout, monkeypatch: pytest.MonkeyPatch, variable: str, command: str, relative: bool
) -> None:
    """Set by the user's environment, not by the command: a file missing now is read by
    none, and the command writes nothing through it."""
    _layout(where, monkeypatch)
    missing = "conf/missing.sh" if relative else str(where.workspace / "conf" / "missing.sh")
    monkeypatch.setenv(variable, missing)

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    ("variable", "command"),
    [
        ("BASH_ENV", "cp y.sh conf/start.sh; bash -c 'ls'"),
        ("BASH_ENV", "cat y.sh >> conf/start.sh && bash -c true"),
        ("BASH_ENV", "printf 'cd %s\\n' \"$PWD\" > conf/start.sh; cat y.sh >> conf/start.sh; bash"),
        ("ENV", "cp y.sh conf/start.sh; sh -ic 'ls'"),
    ],
)
def test_p3_a_missing_startup_file_the_command_writes_first_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, variable: str, command: str
) -> None:
    """The harness's ``BASH_ENV`` names a missing file and the command writes it before the
    shell it starts runs it: refused; run by bash, it writes into the other scope."""
    environment = _layout(where, monkeypatch)
    (where.workspace / "conf").mkdir()
    environment[variable] = str(where.workspace / "conf" / "start.sh")
    monkeypatch.setenv(variable, environment[variable])

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "start.sh" in reason, (harness, reason)
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "BASH_ENV=conf/missing.sh bash -c true",
        "bash --rcfile conf/missing.sh -i -c true",
        "PIP_CONFIG_FILE=conf/missing.sh pip list",
    ],
)
def test_p3_a_missing_file_the_command_points_at_is_still_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Pointed at by the command itself (the harness's environment naming a missing file
    too): it may be written between the guard's answer and the run."""
    _layout(where, monkeypatch)
    monkeypatch.setenv("BASH_ENV", str(where.workspace / "conf" / "other.sh"))

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "missing.sh" in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "cat r.sh; bash --rcfile r.sh -i -c true",
        "head -n 3 r.sh && BASH_ENV=r.sh bash -c true",
        "grep -n alias r.sh; bash --rcfile ./r.sh -ic true",
        "wc -l r.sh conf/r.sh && diff r.sh conf/r.sh; BASH_ENV=r.sh bash -c true",
        "cat p.cfg; PIP_CONFIG_FILE=p.cfg pip list",
        "cat u.rc && npm --userconfig u.rc config get registry",
        'echo "$(cat r.sh)"; BASH_ENV=r.sh bash -c true',
    ],
)
def test_p3_reading_a_settings_file_before_pointing_a_program_at_it_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Reading is no write: the file the program reads is the one the guard read."""
    _layout(where, monkeypatch)
    (where.workspace / "conf").mkdir()
    for place in (where.workspace / "r.sh", where.workspace / "conf" / "r.sh"):
        place.write_text("alias ll='ls -l'\n", encoding="utf-8")
    (where.workspace / "p.cfg").write_text("[global]\nindex-url = https://pypi.example/\n")
    (where.workspace / "u.rc").write_text("registry=https://registry.example/\n")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    "command",
    [
        "cat y.sh > r.sh; bash --rcfile r.sh -i -c true",
        "cat y.sh | tee r.sh; bash --rcfile r.sh -i -c true",
        "cat r.sh y.sh > r2.sh; cp r2.sh r.sh; BASH_ENV=r.sh bash -c true",
        "cat y.sh >> r.sh && BASH_ENV=r.sh bash -c true",
    ],
)
def test_p3_a_reader_writing_the_settings_file_before_the_program_reads_it_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A reader whose output goes into the file (a redirection, ``tee``, a copy) writes it:
    refused; run by bash, it writes into the other scope."""
    environment = _layout(where, monkeypatch)
    (where.workspace / "r.sh").write_text(f"cd {where.workspace}\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "r.sh" in reason, reason
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({command})"


FILLED_WITHOUT_NAMING_IT = [
    "mkdir -p staged && cp y.sh staged/start.sh && rm -rf conf && mv staged conf; bash -c ls",
    "tar xf a.tar; bash -c ls",
    "cat a.tar | tar x; bash -c ls",
    "unzip -qo a.zip; bash -c ls",
    'python3 -c \'import shutil; shutil.copy("y.sh", "conf/sta" + "rt.sh")\'; bash -c ls',
]
"""Commands filling the startup file ``conf/start.sh`` without naming it: a folder above it
replaced, an archive with the member ``conf/start.sh`` unpacked (listed, or from standard
input), a program the guard does not read writing it."""


@pytest.mark.parametrize("present", [False, True])
@pytest.mark.parametrize("command", FILLED_WITHOUT_NAMING_IT)
def test_p3_a_startup_file_the_command_fills_without_naming_it_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str, present: bool
) -> None:
    """The harness's ``BASH_ENV`` names ``conf/start.sh`` (missing, or present and harmless):
    each passed, as no word named the file. Run by bash, each writes into the other scope."""
    import tarfile
    import zipfile

    environment = _layout(where, monkeypatch)
    (where.workspace / "conf").mkdir()
    if present:
        (where.workspace / "conf" / "start.sh").write_text("alias ll='ls -l'\n", encoding="utf-8")
    with tarfile.open(where.workspace / "a.tar", "w") as archive:
        archive.add(where.workspace / "y.sh", "conf/start.sh")
    with zipfile.ZipFile(where.workspace / "a.zip", "w") as packed:
        packed.write(where.workspace / "y.sh", "conf/start.sh")
    (where.workspace / "notes").unlink()  # no symlink for the unlisted unpack to go through
    environment["BASH_ENV"] = str(where.workspace / "conf" / "start.sh")
    monkeypatch.setenv("BASH_ENV", environment["BASH_ENV"])

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "start.sh" in reason, reason
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "tar xf a.tar; BASH_ENV=conf/r.sh bash -c true",
        "unzip -qo a.zip; BASH_ENV=conf/r.sh bash -c true",
        "mkdir -p staged && cp y.sh staged/r.sh && rm -rf conf && mv staged conf; "
        "BASH_ENV=conf/r.sh bash -c true",
    ],
)
def test_p3_a_present_settings_file_the_command_replaces_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Pointed at by the command and on the disk (harmless when the guard reads it), but
    replaced by an unpack or a folder moved over it first: refused; run by bash, it writes
    into the other scope."""
    import tarfile
    import zipfile

    environment = _layout(where, monkeypatch)
    (where.workspace / "conf").mkdir()
    (where.workspace / "conf" / "r.sh").write_text("alias ll='ls -l'\n", encoding="utf-8")
    with tarfile.open(where.workspace / "a.tar", "w") as archive:
        archive.add(where.workspace / "y.sh", "conf/r.sh")
    with zipfile.ZipFile(where.workspace / "a.zip", "w") as packed:
        packed.write(where.workspace / "y.sh", "conf/r.sh")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "r.sh" in reason, reason
    _run(where, environment, command)
    assert (where.root / where.other / "a.md").exists(), f"nothing landed: no bypass ({command})"


@pytest.mark.parametrize(
    "command",
    [
        "tar xf a.tar; bash -c ls",
        "mkdir -p build && cp y.sh build/ && bash -c ls",
        "python3 -m pip list",
    ],
)
def test_p3_a_command_clear_of_the_startup_files_folder_passes(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """An archive whose members land beside ``conf`` (not on it), a copy into another
    folder, and ``pip`` started by ``python3`` (the program reading the settings file):
    let through."""
    import tarfile

    _layout(where, monkeypatch)
    (where.workspace / "conf").mkdir()
    (where.workspace / "conf" / "start.sh").write_text("alias ll='ls -l'\n", encoding="utf-8")
    with tarfile.open(where.workspace / "a.tar", "w") as archive:
        archive.add(where.workspace / "y.sh", "src/y.sh")
    monkeypatch.setenv("BASH_ENV", str(where.workspace / "conf" / "start.sh"))
    monkeypatch.setenv("PIP_CONFIG_FILE", str(where.workspace / "conf" / "start.sh"))

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
