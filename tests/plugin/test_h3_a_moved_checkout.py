"""A checkout moved with its ``.venv`` and ``make run``'s ``.data`` (H-3, Q-1).

The hooks installed from it name two paths inside it, both gone after the move: the
``harness-memory`` they start and the memory root. Besides the hook commands, the install wrote
the root into Claude Code's permissions, Codex CLI's ``writable_roots`` and Gemini CLI's include
directories. ``make run`` there makes ``.venv`` again, and then:

- ``harness-memory status --moved`` (which ``make install`` and ``make run`` run after making
  ``.venv``) names each harness whose hooks moved, with the one command that mends them;
- ``harness-memory status`` says where the root is now and that this command mends it;
- that command, ``harness-memory install HARNESS`` with nothing else, takes the root where it
  moved to (it stopped on the old root, and only ``--memory-root`` got past it), and rewrites
  every place that named the old one.

A copied checkout (the old one still there, its hooks still running) is left as it is.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.reinstall import moved_root
from harness_memory.installers.spec import flag_values, our_commands

SETTINGS = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
ROOT = Path(".data/agents/coder/agent_state/memory")
SCRIPT = Path(".venv/bin/harness-memory")
FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]


def checkout(folder: Path) -> Path:
    """A checkout as ``make run`` leaves it: its ``.venv``'s script and the agent's root."""
    (folder / ROOT).mkdir(parents=True)
    (folder / SCRIPT).parent.mkdir(parents=True)
    (folder / SCRIPT).write_text("#!/bin/sh\n", "utf-8")
    (folder / SCRIPT).chmod(0o755)
    return folder


def cli(home: Path, here: Path, *words: str) -> tuple[int, str]:
    """``harness-memory WORDS`` run with ``here``'s ``.venv/bin`` alone on ``PATH``."""
    out = io.StringIO()
    environ = {"HOME": str(home), "PATH": str((here / SCRIPT).parent)}
    return main([*words, "--home", str(home)], environ=environ, stdout=out), out.getvalue()


@pytest.fixture
def moved(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``(home, old place, new place)``: every harness's hooks installed from the old place,
    which then moved to the new one."""
    home, old, new = tmp_path / "home", checkout(tmp_path / "old"), tmp_path / "new"
    for harness in SETTINGS:
        root = ["--memory-root", str(old / ROOT), "--no-check"]
        status, said = cli(home, old, "install", harness, *FLAGS, *root)
        assert status == 0, said
    old.rename(new)
    return home, old, new


def test_h3_make_install_names_each_moved_harness_with_the_install_that_mends_it(
    moved: tuple[Path, Path, Path],
) -> None:
    home, old, new = moved

    status, said = cli(home, new, "status", "--moved")

    assert status == 0
    for harness, settings in SETTINGS.items():
        assert (
            f"{harness}: the hooks in {home / settings} still run {old / SCRIPT} with the "
            f"memory root {old / ROOT}, both gone: this checkout has moved (to where the root "
            f"is now {new / ROOT}); run `harness-memory install {harness}` to install them "
            "again from here"
        ) in said
    _, told = cli(home, new, "status")
    assert (
        f"memory root {old / ROOT} — PROBLEM: it does not exist: it moved with the hooks' "
        f"{old / SCRIPT} to {new / ROOT}; `harness-memory install codex` installs them again"
    ) in told


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_installing_again_after_a_move_takes_the_root_where_it_moved(
    moved: tuple[Path, Path, Path], harness: str
) -> None:
    home, old, new = moved

    status, said = cli(home, new, "install", harness)

    assert status == 0, said
    assert f"the memory root is now {new / ROOT}" in said
    folder = (home / SETTINGS[harness]).parent
    written = [folder / name for name in ("settings.json", "hooks.json", "config.toml")]
    for path in [path for path in written if path.exists()]:
        assert str(old) not in path.read_text("utf-8"), path  # permissions, roots, includes
    commands = our_commands(json.loads((home / SETTINGS[harness]).read_text("utf-8")), harness)
    assert {root for c in commands for root in flag_values(c, "--memory-root")} == {str(new / ROOT)}
    assert all(c.split()[0] == str(new / SCRIPT) for c in commands)
    assert f"{harness}: " not in cli(home, new, "status", "--moved")[1]


def test_h3_a_copied_checkout_leaves_the_hooks_of_the_original_as_they_are(
    tmp_path: Path,
) -> None:
    """Both places there: the hooks still run, so nothing is said or changed."""
    old, new = checkout(tmp_path / "old"), checkout(tmp_path / "copy")
    assert moved_root(str(old / SCRIPT), str(old / ROOT), str(new / SCRIPT)) is None
    (old / SCRIPT).unlink()  # a harness-memory gone with its root still there: no move
    assert moved_root(str(old / SCRIPT), str(old / ROOT), str(new / SCRIPT)) is None
    gone = tmp_path / "gone"  # both gone, but nothing at the new place to take
    assert moved_root(str(gone / SCRIPT), str(gone / ROOT), str(tmp_path / "x" / SCRIPT)) is None
    # only the name in common (/opt/bin/harness-memory, /usr/bin/harness-memory): no move
    assert moved_root("/opt/bin/harness-memory", "/opt/x", "/usr/bin/harness-memory") is None
