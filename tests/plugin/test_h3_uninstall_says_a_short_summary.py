"""H-3: ``harness-memory uninstall HARNESS`` says a short summary; ``--verbose`` names every path.

An uninstall said one line per path it removed, about 11 lines per harness: each of the state
files, the state folder, the settings file the install made and the folder holding it. Without
``--verbose`` it says each removed folder once, with what it held, and what it put back of the
harness's own settings; ``--verbose`` says one line per removed path as before.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.detail import UNINSTALL_MORE

from tests.plugin.helpers import HARNESS_MEMORY

FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}
"""The settings folder each harness's install makes in a new home."""

SUMMARY_LINES = 5
"""The most lines the summary of an uninstall from a home the install made has."""


def run(home: Path, *argv: str) -> list[str]:
    """The lines ``argv`` prints into ``home`` (exit status 0 asserted)."""
    out = io.StringIO()
    assert main([*argv, "--home", str(home)], environ={"HOME": str(home)}, stdout=out) == 0
    return out.getvalue().splitlines()


def install(home: Path, harness: str) -> None:
    """Install ``harness``'s hooks into ``home`` (unchecked, the hooks' script given)."""
    root = home.parent / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--memory-root", str(root), "--url", "http://127.0.0.1:9", "--project", "acme"]
    flags += ["--agent", "coder", "--executable", str(HARNESS_MEMORY), "--no-check"]
    run(home, "install", harness, *flags, "--token", "t0ken-value-0123456789")


@pytest.mark.parametrize("harness", sorted(FOLDER))
def test_h3_the_uninstall_says_the_folder_it_removed_with_what_it_held_in_one_line(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    install(home, harness)
    said = run(home, "uninstall", harness)
    text = "\n".join(said)
    assert len(said) <= SUMMARY_LINES, text
    assert all(line.startswith(f"{harness}: ") for line in said), text
    [folder] = [line for line in said if "removed " in line]
    assert folder.startswith(f"{harness}: removed {home / FOLDER[harness]}/ (")
    assert "harness-memory/token" in folder and "harness-memory/install.json" in folder
    assert "taken out again" in text  # what it put back of the harness's own settings
    assert said[-1] == f"{harness}: {UNINSTALL_MORE}"
    assert list(home.iterdir()) == []


@pytest.mark.parametrize("harness", sorted(FOLDER))
def test_h3_uninstall_verbose_names_every_path_it_removed(tmp_path: Path, harness: str) -> None:
    home = tmp_path / "home"
    install(home, harness)
    state = home / FOLDER[harness] / "harness-memory"
    said = run(home, "uninstall", harness, "--verbose")
    for path in (state / "token", state / "install.json", state, home / FOLDER[harness]):
        assert f"{harness}: removed {path}" in said
    assert f"{harness}: {UNINSTALL_MORE}" not in said


@pytest.mark.parametrize("harness", sorted(FOLDER))
def test_h3_an_uninstall_that_keeps_the_users_folder_names_what_it_removed_in_it(
    tmp_path: Path, harness: str
) -> None:
    """The user's own file in the settings folder keeps the folder: the state folder is the
    one said, with its files, and the user's file is named as left."""
    home = tmp_path / "home"
    (home / FOLDER[harness]).mkdir(parents=True)
    mine = home / FOLDER[harness] / "mine.txt"
    mine.write_text("mine\n", encoding="utf-8")
    install(home, harness)
    said = run(home, "uninstall", harness)
    state = home / FOLDER[harness] / "harness-memory"
    [folder] = [line for line in said if f"removed {state}" in line]
    assert folder.startswith(f"{harness}: removed {state}/ (") and "token" in folder
    assert mine.read_text(encoding="utf-8") == "mine\n"
