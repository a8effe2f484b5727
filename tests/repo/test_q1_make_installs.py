"""Q-1: ``make run`` installs what running needs; ``make test`` adds the test tools.

The first ``make run`` took 184 s and left a 581 MB ``.venv`` holding Playwright, Schemathesis,
mypy and py-spy. Each half now has its stamp: ``make run`` then ``make test`` (or the reverse)
installs each half once. Checked with ``make -n`` (what make would run) over a copy of the
Makefile and its inputs, so nothing is installed; and the progress line of
``tools/pip_progress.py``, offline.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INPUTS = [
    "Makefile",
    "requirements-dev.txt",
    "shared/pyproject.toml",
    "services/memory-api/pyproject.toml",
    "plugins/harness-memory/pyproject.toml",
]
PACKAGES = "-e shared -e services/memory-api -e plugins/harness-memory"
DEV = "-r requirements-dev.txt"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _checkout(tmp_path: Path) -> Path:
    for name in INPUTS:
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    return tmp_path


def _plan(checkout: Path, target: str) -> str:
    """The commands ``make TARGET`` would run (``make -n``), as one text."""
    done = subprocess.run(
        ["make", "-n", "-C", str(checkout), target],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "MAKEFLAGS": ""},
    )
    return done.stdout


def _stamp(checkout: Path, *names: str) -> None:
    """A ``.venv`` as an earlier make left it: its python and ``names``, newer than the inputs."""
    later = time.time() + 5
    python = checkout / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True, exist_ok=True)
    for path in (python, *(checkout / ".venv" / name for name in names)):
        path.touch()
        os.utime(path, (later, later))


def test_q1_make_run_installs_the_packages_only(tmp_path: Path) -> None:
    plan = _plan(_checkout(tmp_path), "run")
    assert "-m venv .venv" in plan
    assert PACKAGES in plan
    assert "requirements-dev" not in plan
    assert "pip_progress.py" in plan  # a progress line, not a minute of silence


def test_q1_make_test_after_make_run_adds_only_the_test_tools(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    _stamp(checkout, ".installed-run")
    plan = _plan(checkout, "install")
    assert DEV in plan
    assert PACKAGES not in plan and "-m venv" not in plan
    # the README's way to a .venv/bin/pytest for one file after `make run`: it runs nothing
    assert "bin/pytest" not in plan and "bin/ruff" not in plan and "bin/mypy" not in plan


def test_q1_make_run_after_make_test_installs_nothing(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert "pip" not in plan
    assert "memory-api demo seed" in plan and "memory-api serve" in plan


def test_q1_make_run_in_a_folder_whose_name_holds_a_space(tmp_path: Path) -> None:
    """``make run`` in ``/tmp/x sp/clone`` passed ``--checkout-data /tmp/x sp/clone/.data``
    as two words: ``memory-api: error: unrecognized arguments: sp/clone/.data``. Each command
    make would run, split as the shell splits it, names the checkout's folder as one word."""
    checkout = _checkout(tmp_path / "x sp" / "clone")
    _stamp(checkout, ".installed-run", ".installed-test")
    commands = [shlex.split(line) for line in _plan(checkout, "run").splitlines()]
    seed = next(words for words in commands if words[1:3] == ["demo", "seed"])
    assert seed[seed.index("--checkout-data") :] == ["--checkout-data", f"{checkout}/.data"]
    assert [".venv/bin/memory-api", "serve"] in commands


def _pip_script(venv: Path, python: Path, argument: str = "") -> None:
    """``venv/bin/pip`` as pip writes it in a virtualenv: its first line starts ``python``
    (then `` argument``, as a Python made with options writes it: ``-E``)."""
    pip = venv / "bin" / "pip"
    pip.parent.mkdir(parents=True, exist_ok=True)
    pip.write_text(f"#!{python}{' ' + argument if argument else ''}\nimport pip\n", "utf-8")


def test_q1_a_venv_made_here_is_used_as_it_is(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path / "repo")
    _pip_script(checkout / ".venv", checkout / ".venv" / "bin" / "python")
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert "-m venv" not in plan and "rm -rf" not in plan and "pip" not in plan


def test_q1_a_venv_linked_from_elsewhere_is_used_as_it_is(tmp_path: Path) -> None:
    """A ``.venv`` that is a symlink to a virtualenv made where it lies is that virtualenv."""
    shared = tmp_path / "shared-venv"
    _pip_script(shared, shared / "bin" / "python")
    checkout = _checkout(tmp_path / "repo")
    (checkout / ".venv").symlink_to(shared)
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert "-m venv" not in plan and "rm -rf" not in plan and "pip" not in plan


def test_q1_a_venv_whose_pip_starts_through_sh_is_used_as_it_is(tmp_path: Path) -> None:
    """Past 127 bytes, pip's scripts start ``#!/bin/sh`` and exec the Python on their next
    line: that first line names no Python, and ``.venv`` is not made again on every run."""
    checkout = _checkout(tmp_path / ("long" * 30) / "repo")
    python = checkout / ".venv" / "bin" / "python"
    exec_line = "'''exec' " + f'"{python}" "$0" "$@"' + "\n' '''\n"
    pip = checkout / ".venv" / "bin" / "pip"
    pip.parent.mkdir(parents=True)
    pip.write_text("#!/bin/sh\n" + exec_line, encoding="utf-8")
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert "-m venv" not in plan and "rm -rf" not in plan and "pip_progress" not in plan


def test_q1_a_moved_checkout_makes_its_venv_again_and_says_why(tmp_path: Path) -> None:
    """Moved (or copied) with its ``.venv``, a checkout's scripts still start the Python of
    the old folder: ``make run`` failed with ``.venv/bin/memory-api: No such file or
    directory``. It now says what happened and makes ``.venv`` again here."""
    gone = tmp_path / "old-place" / ".venv"
    checkout = _checkout(tmp_path / "new-place")
    _pip_script(checkout / ".venv", gone / "bin" / "python")
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert f".venv was made for {gone}, not this checkout (moved or copied)" in plan
    assert plan.index("rm -rf .venv") < plan.index("-m venv .venv") < plan.index(PACKAGES)
    assert "requirements-dev" not in plan
    # then the hooks installed from the old place are named with the install that mends them
    # (tests/plugin/test_h3_a_moved_checkout.py)
    assert plan.index(PACKAGES) < plan.index(".venv/bin/harness-memory status --moved")


def test_q1_a_venv_whose_pip_starts_its_python_with_an_argument_is_read_by_its_python(
    tmp_path: Path,
) -> None:
    """``#!…/.venv/bin/python -E``: the first line was read as two words, whose folder was not
    this ``.venv``'s: ``.venv`` was made again, saying it was made for ``…/bin/python -E``."""
    checkout = _checkout(tmp_path / "repo")
    _pip_script(checkout / ".venv", checkout / ".venv" / "bin" / "python", "-E")
    _stamp(checkout, ".installed-run", ".installed-test")
    plan = _plan(checkout, "run")
    assert "-m venv" not in plan and "rm -rf" not in plan and "pip_progress" not in plan

    gone = tmp_path / "old-place" / ".venv"
    moved = _checkout(tmp_path / "new-place")
    _pip_script(moved / ".venv", gone / "bin" / "python", "-E")
    _stamp(moved, ".installed-run", ".installed-test")
    plan = _plan(moved, "run")
    assert f".venv was made for {gone}, not this checkout (moved or copied): " in plan


def test_q1_make_test_from_scratch_installs_both_halves(tmp_path: Path) -> None:
    plan = _plan(_checkout(tmp_path), "install")
    assert plan.index(PACKAGES) < plan.index(DEV)


def test_q1_make_wheels_from_scratch_makes_its_python_first(tmp_path: Path) -> None:
    plan = _plan(_checkout(tmp_path), "wheels")
    assert plan.index("-m venv .venv") < plan.index("pip wheel")
    assert "requirements-dev" not in plan


def _progress(*pip_args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "pip_progress.py"), "checking", "--", *pip_args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_q1_the_install_progress_line_and_pip_s_failure() -> None:
    done = _progress("--no-index", "msgspec")  # installed already: nothing to fetch
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("checking: done in ")
    assert "(1 package)" in done.stdout  # one, in the singular

    failed = _progress("--no-index", "no-such-package-for-agent-memory")
    assert failed.returncode != 0
    assert "checking: pip failed" in failed.stderr
    assert "no-such-package-for-agent-memory" in failed.stderr  # pip's own words, whole
