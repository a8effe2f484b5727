"""P-2a: the Python an installed hook command starts, named by absolute path and isolated
(``PYTHON -I SCRIPT hook …``), since a repository's settings can set the hooks' environment.
Which Python that is comes from the script's first line (pip's and uv's ``#!/bin/sh`` form for
a long path too); one that cannot be told is said at install and by ``status``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness_memory
import pytest
from harness_memory.cli import main
from harness_memory.hooks import recorder
from harness_memory.installers.executable import interpreter_of, isolated_interpreter
from harness_memory.settings import load_settings

from tests.plugin.helpers import HARNESS_MEMORY

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]


def a_script(folder: Path, head: str) -> Path:
    script = folder / "bin" / "harness-memory"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(head + "import sys\nfrom harness_memory.cli import run\nrun()\n")
    script.chmod(0o755)
    return script


def install(home: Path, script: Path) -> tuple[str, list[str]]:
    """``install claude-code`` with ``script``: (what it said, the hook commands it wrote)."""
    out = io.StringIO()
    argv = ["install", "claude-code", "--home", str(home), "--memory-root", str(home / "m")]
    argv += [*FLAGS, "--executable", str(script), "--verbose"]
    assert main(argv, environ={"HOME": str(home)}, stdout=out) == 0
    hooks = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))["hooks"]
    return out.getvalue(), [h["command"] for v in hooks.values() for g in v for h in g["hooks"]]


def status(home: Path) -> str:
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("head", "python"),
    [
        ("#!/opt/am/bin/python\n", "/opt/am/bin/python"),
        ("#!/opt/am/bin/python3.12 -E\n", "/opt/am/bin/python3.12"),
        (
            "#!/bin/sh\n'''exec' \"/opt/a m/bin/python\" \"$0\" \"$@\"\n' '''\n",
            "/opt/a m/bin/python",
        ),
        ("#!/bin/sh\n'''exec' '/opt/am/bin/python' \"$0\" \"$@\"\n' '''\n", "/opt/am/bin/python"),
    ],
)
def test_p2a_the_hooks_python_is_the_one_the_scripts_first_lines_name(
    tmp_path: Path, head: str, python: str
) -> None:
    script = a_script(tmp_path, head)
    assert interpreter_of(script) == Path(python)
    assert isolated_interpreter(str(script)) == Path(python)
    said, commands = install(tmp_path / "home", script)
    start = f"'{python}'" if " " in python else python
    assert all(c.startswith(f"{start} -I -X utf8 ") for c in commands)
    assert f"hooks start it as {python} -I -X utf8 …: no PYTHON* variable" in said
    assert "LD_PRELOAD" in said  # what a repository's env can still do


@pytest.mark.parametrize(
    "head",
    [
        "#!/usr/bin/env python3\n",
        '#!/bin/sh\nexec python3 -m harness_memory "$@"\n',
        "",
        "#!/bin/bash -e\n",  # a wrapper: /bin/bash -I fails
        "#! /usr/bin/perl\n",
    ],
)
def test_p2a_a_script_whose_python_cannot_be_told_is_run_as_it_is_and_said(
    tmp_path: Path, head: str
) -> None:
    script = a_script(tmp_path, head)
    assert isolated_interpreter(str(script)) is None
    said, commands = install(tmp_path / "home", script)
    assert all(c.startswith(f"{script} hook claude-code ") for c in commands)
    assert f"WARNING: cannot tell which Python runs {script}" in said
    assert "hooks start it directly, so a repository's settings can set its PYTHONPATH" in said


def test_p2a_the_hooks_of_a_wrapper_script_that_is_no_python_run(tmp_path: Path) -> None:
    """A ``harness-memory`` that is a shell wrapper execing the real one (as Nix installs
    them): its hooks were written ``/bin/bash -I -X utf8 SCRIPT …``, which bash refuses
    (``-I: invalid option``), so the guard refused every tool call and no Session got its
    memory, though the install said nothing was wrong."""
    script = tmp_path / "bin" / "harness-memory"
    script.parent.mkdir()
    script.write_text(f'#!/bin/bash\nexec {HARNESS_MEMORY} "$@"\n')
    script.chmod(0o755)
    _, commands = install(tmp_path / "home", script)
    guard = next(c for c in commands if " pre-tool-use " in c)
    call: dict[str, object] = {"session_id": "s", "cwd": str(tmp_path)}
    call["hook_event_name"] = "PreToolUse"
    call |= {"tool_name": "Write", "tool_input": {"file_path": str(tmp_path / "a.txt")}}

    done = subprocess.run(
        ["sh", "-c", guard], input=json.dumps(call), capture_output=True, text=True, check=False
    )

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_p2a_status_warns_about_hook_commands_without_an_isolated_python(tmp_path: Path) -> None:
    home = tmp_path / "home"
    script = a_script(tmp_path, f"#!{sys.executable}\n")
    install(home, script)
    assert f"hooks run {sys.executable} -I -X utf8 {script}" in status(home)
    assert "without its Python isolated" not in status(home)
    settings = home / ".claude" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace(f"{sys.executable} -I -X utf8 ", ""), encoding="utf-8")

    said = status(home)

    assert "WARNING: a hook command starts harness-memory without its Python isolated" in said
    assert "run `harness-memory install claude-code` again" in said


def test_p2a_status_names_hooks_an_earlier_install_started_with_a_program_that_is_no_python(
    tmp_path: Path,
) -> None:
    """What an install wrote for a wrapper script before its ``#!`` was read as no Python:
    ``/bin/bash -I -X utf8 SCRIPT hook …``, a hook that always fails."""
    home = tmp_path / "home"
    script = a_script(tmp_path, f"#!{sys.executable}\n")
    install(home, script)
    settings = home / ".claude" / "settings.json"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace(f"{sys.executable} -I ", "/bin/bash -I "), encoding="utf-8")

    said = status(home)

    assert "PROBLEM: the hook command starts harness-memory with /bin/bash, which is no " in said
    assert "run `harness-memory install claude-code` again" in said


def test_p2a_the_hooks_isolated_python_imports_the_code_under_test() -> None:
    """The script the tests install hooks to run (the editable install in CI, whose ``.pth``
    still works under ``-I``; a virtualenv of the branch's code elsewhere) imports under
    ``-I`` the ``harness_memory`` this test process imports, in an environment that says
    otherwise."""
    python = isolated_interpreter(HARNESS_MEMORY)
    assert python is not None
    done = subprocess.run(
        [python, "-I", "-c", "import harness_memory; print(harness_memory.__file__)"],
        capture_output=True,
        check=True,
        text=True,
        env={**os.environ, "PYTHONPATH": "/nonexistent", "PYTHONHOME": "/nonexistent"},
    )
    assert done.stdout.strip() == harness_memory.__file__


@pytest.mark.parametrize("isolated", [1, 0])
def test_p2a_the_recorder_runs_as_isolated_as_the_hook_that_starts_it(
    monkeypatch: pytest.MonkeyPatch, isolated: int
) -> None:
    started: list[list[str]] = []

    def posix_spawn(path: str, argv: list[str], *args: Any, **kwargs: Any) -> int:
        started.append(argv)
        return 0

    class Flags:
        pass

    flags = Flags()
    flags.isolated = flags.utf8_mode = isolated  # type: ignore[attr-defined]
    monkeypatch.setattr(sys, "flags", flags)
    monkeypatch.setattr(os, "posix_spawn", posix_spawn)
    settings = load_settings({"url": "http://127.0.0.1:9"}, {})
    job = recorder.RecordJob(
        settings=settings, scopes=["user"], session_id="s1", harness="codex", tool=None
    )

    recorder.spawn(job)

    isolation = ["-I", "-X", "utf8"] if isolated else ["-P"]
    assert started == [[sys.executable, *isolation, "-m", recorder.__name__]]
