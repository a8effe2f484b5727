"""A checkout deleted with its ``.venv`` while its hooks are installed (H-3, P-2, P-3).

The README's install runs the clone's ``.venv/bin/harness-memory``; deleting the clone leaves
every harness's guard hook starting a program that is gone, and the command fails closed: every
call of the tools the guard sees (Bash, Write, Edit…) is refused. The refusal, the install's
note on editable installs, ``status`` and ``status --moved`` (which ``make run`` of a fresh clone
runs) each say the way out that works with that checkout gone: ``harness-memory uninstall
HARNESS`` from any other install, or the hooks deleted from the settings file they name.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.installers.executable import choose_executable
from harness_memory.installers.spec import our_commands

from tests.plugin.test_h3_a_moved_checkout import ROOT, SCRIPT, SETTINGS, checkout, cli
from tests.plugin.test_h3_editable_install_note import editable_environment

GUARD = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}


@pytest.fixture
def removed(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``(home, the deleted clone, a fresh clone)``: every harness's hooks installed from a
    clone that was then deleted; the fresh clone has its own ``.venv``."""
    home, old, fresh = tmp_path / "home", tmp_path / "clone", tmp_path / "fresh"
    checkout(old)
    (checkout(fresh) / ROOT).rmdir()  # a fresh clone: its own .venv, no agent yet
    for harness in SETTINGS:
        flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
        flags += ["--memory-root", str(old / ROOT), "--no-check"]
        status, said = cli(home, old, "install", harness, *flags)
        assert status == 0, said
    for path in sorted(old.rglob("*"), reverse=True):  # rm -rf clone
        path.rmdir() if path.is_dir() else path.unlink()
    old.rmdir()
    return home, old, fresh


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_the_refusal_of_a_gone_guard_says_how_to_take_its_hooks_out(
    removed: tuple[Path, Path, Path], harness: str
) -> None:
    home, old, fresh = removed
    settings = home / SETTINGS[harness]
    [group] = json.loads(settings.read_text("utf-8"))["hooks"][GUARD[harness]]
    command = group["hooks"][0]["command"]

    ran = subprocess.run(  # the installed hook command, as the harnesses run it: one shell
        ["/bin/sh", "-c", command], input=b"{}", capture_output=True, check=False
    )

    assert ran.returncode == 2
    refusal = ran.stderr.decode()
    assert "if it is gone, every such call is refused until its hooks go" in refusal, refusal
    assert f"run `harness-memory uninstall {harness} --home {home}` from another install" in refusal
    assert f"delete the hooks that run {old / SCRIPT} from {settings}\n" in refusal
    # the way out named works: the fresh clone's uninstall takes them out, program gone
    assert cli(home, fresh, "uninstall", harness)[0] == 0
    gone = json.loads(settings.read_text("utf-8")) if settings.exists() else {}
    assert our_commands(gone, harness) == []


def test_h3_make_run_of_a_fresh_clone_names_hooks_whose_checkout_is_gone(
    removed: tuple[Path, Path, Path],
) -> None:
    home, old, fresh = removed
    program = shlex.quote(str(fresh / SCRIPT))  # make run's own, named as a shell reads it

    status, said = cli(home, fresh, "status", "--moved")

    assert (status, said.count("which is gone (its checkout removed?)")) == (0, len(SETTINGS))
    for harness, settings in SETTINGS.items():
        line = f"{harness}: PROBLEM: the hooks in {home / settings} run {old / SCRIPT}, which "
        line += "is gone (its checkout removed?): every call of the tools their write guard "
        line += f"sees is refused; run `{program} uninstall {harness}` to take them out, or "
        line += f"`{program} install {harness} --memory-root DIR` (the rest as installed)"
        assert line + " to run them from here" in said
    _, told = cli(home, fresh, "status")
    assert "every call of the tools the write guard sees is refused" in told
    assert "`harness-memory uninstall gemini` to take the hooks out" in told


def test_h3_the_editable_install_note_says_every_call_is_refused_and_how_to_uninstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(editable_environment(tmp_path / "venv")))

    chosen = choose_executable(None, {"PATH": str(tmp_path / "empty")})

    script = tmp_path / "venv" / "bin" / "harness-memory"
    for said in (chosen.note, chosen.brief or ""):
        assert "every call of the tools the guard sees (Bash, Write, Edit…) is refused" in said
        assert f"before deleting it, run `{script} uninstall HARNESS`" in said
        assert "`harness-memory uninstall HARNESS` from any other install" in said
