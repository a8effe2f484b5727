"""H-3: the short install summary says every harness setting the install turns off.

A newcomer following the README read one "turned off" line per harness (its own memory), while
the install also set Codex CLI's ``features.unified_exec_tty = false`` (no interactive
terminals) and Gemini CLI's ``context.includeDirectoryTree = false`` (no directory listing in
the first request): only ``--verbose`` said them, and ``uninstall`` named them as "taken out
again". The lines come from the same table the install writes from (each installer's
``SWITCHES``), so a setting added there is said too; each says why, in one clause.
"""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from harness_memory.cli import main
from harness_memory.installers import claude_code, codex, gemini

from tests.plugin.helpers import HARNESS_MEMORY

INSTALLERS: dict[str, tuple[ModuleType, str]] = {
    "claude-code": (claude_code, ".claude/settings.json"),
    "codex": (codex, ".codex/config.toml"),
    "gemini": (gemini, ".gemini/settings.json"),
}
"""Each harness's installer module and the settings file its switches are written to."""


def _install(home: Path, harness: str) -> list[str]:
    root = home.parent / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    status = main(
        ["install", harness, *flags, "--no-check", "--token", "t0ken-value-0123456789"],
        environ={"HOME": str(home)},
        stdout=out,
    )
    assert status == 0
    return out.getvalue().splitlines()


def _setting(path: Path, keys: tuple[str, ...]) -> Any:
    text = path.read_text(encoding="utf-8")
    value: Any = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    for key in keys:
        value = value[key]
    return value


@pytest.mark.parametrize("harness", sorted(INSTALLERS))
def test_h3_every_setting_the_install_turns_off_is_said_without_verbose(
    tmp_path: Path, harness: str
) -> None:
    module, settings = INSTALLERS[harness]
    home = tmp_path / "home"

    said = _install(home, harness)

    assert module.SWITCHES, "the install turns nothing off?"
    for switch in module.SWITCHES:
        assert _setting(home / settings, switch.keys) == switch.off  # what it wrote
        setting = f"{switch.dotted} = {json.dumps(switch.off)}"
        [line] = [line for line in said if setting in line]  # said once, in the summary
        assert line.startswith(f"{harness}: {switch.what}: turned off ("), line
        assert line.endswith(".") and line.count("\n") == 0


@pytest.mark.parametrize(
    ("harness", "why"),
    [
        ("codex", "the write guard never sees what is typed into a running terminal"),
        ("gemini", "it would list every Workspace's folder and file names"),
    ],
)
def test_h3_a_feature_turned_off_for_the_guard_says_why_in_one_clause(
    tmp_path: Path, harness: str, why: str
) -> None:
    said = _install(tmp_path / "home", harness)

    [line] = [line for line in said if "turned off (" in line and why in line]
    assert len(line) < 260, line
