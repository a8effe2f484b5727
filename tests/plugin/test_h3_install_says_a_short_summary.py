"""H-3: ``harness-memory install HARNESS`` says a short summary; ``--verbose`` says it all.

A newcomer following the README met about 17 lines and 4,500 characters per harness: the
files written and what was turned off drowned in what the write guard does not cover, how the
hooks' Python is isolated and that bytecode was compiled. Cut to 11 lines, it was still not
"a few" (round 59): without ``--verbose`` the install says what it wrote (its own state folder
in one line), what it turned off of the harness's own memory or what stays on, the settings it
widened for the memory root, every warning, and last the one next step with where the rest is;
``--verbose`` says every line as before.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.detail import MORE, NOTHING_TO_CHANGE, next_step
from harness_memory.installers.guard_gaps import (
    GUARD_GAPS,
    HEADING,
    SWITCHED_HOW,
    SWITCHED_OFF,
    TURNED_BACK_ON,
    UNFENCED,
)
from harness_memory.installers.harness_version import MEASURED

from tests.plugin.helpers import HARNESS_MEMORY

SETTINGS = {
    "claude-code": [".claude/settings.json"],
    "codex": [".codex/hooks.json", ".codex/config.toml"],
    "gemini": [".gemini/settings.json"],
}
"""The settings files each harness's install writes into a new home."""

TURNED_OFF = {
    "claude-code": [
        "Claude Code's own auto memory: turned off",
        "Claude Code's own auto memory, by the variable that wins over autoMemoryEnabled: "
        "turned off",
    ],
    "codex": [
        "Codex CLI's own memories: turned off",
        "Codex CLI's interactive terminals (exec_command with tty): turned off",
    ],
    "gemini": [
        "Gemini CLI's background auto memory: turned off",
        "Gemini CLI's directory tree in the model's first request: turned off",
        "own memory stays on",
    ],
}
"""What each harness's summary says of the harness's own memory (H-6)."""

SUMMARY_LINES = 8
"""The most lines the summary of an install into a new home has, its warnings aside: which
``harness-memory`` the hooks run, what it wrote (Codex CLI: three files), each setting it
turned off (its harness's own memory; Codex CLI's terminals, Gemini CLI's directory tree:
round 62), the settings it widened for the memory root (round 56), what stays on (Gemini CLI),
the next step."""
WARNINGS = ("an editable install of the checkout", "on PATH here")
"""The warnings such an install says here: the hooks run this checkout's editable install, and
no harness is on this test's PATH."""

UNFENCED_SAYS = {
    "claude-code": [
        "refuses a shell command whose text writes",
        "does not fence",
        "sandbox.enabled",
    ],
    "codex": [
        "refuses a shell command whose text writes",
        "does not fence",
        "whole memory root be written",
    ],
    "gemini": [
        "refuses a shell command whose text writes",
        "does not fence",
        "no sandbox by default",
    ],
}
"""What each harness's summary says of the shell commands the write guard alone cannot fence."""


def install(home: Path, harness: str, *extra: str) -> list[str]:
    """The lines ``install HARNESS`` prints into ``home`` (unchecked, the hooks' script given)."""
    root = home.parent / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    status = main(
        ["install", harness, *flags, "--no-check", "--token", "t0ken-value-0123456789", *extra],
        environ={"HOME": str(home)},
        stdout=out,
    )
    assert status == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_the_install_says_what_it_wrote_and_turned_off_in_a_few_lines(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    said = install(home, harness)
    text = "\n".join(said)
    summary = [line for line in said if not any(warning in line for warning in WARNINGS)]
    assert len(summary) <= SUMMARY_LINES, text
    assert all(line.startswith(f"{harness}: ") for line in said), text
    for name in SETTINGS[harness]:
        assert f"{harness}: installed — wrote {home / name}" in said
    state = home / f".{harness.split('-')[0]}" / "harness-memory"
    [folded] = [line for line in said if f"wrote {state}/ (" in line]
    assert "token, token.url, install.json, .gitignore" in folded
    for sentence in TURNED_OFF[harness]:
        assert sentence in text
    assert f"{harness}: {MORE}" not in said  # the next step says where the rest is
    assert HEADING not in text and not any(gap in text for gap in GUARD_GAPS[harness])
    assert UNFENCED[harness] not in text and "--managed" not in text
    assert "bytecode of" not in text and "-I -X utf8 …" not in text
    assert "t0ken-value-0123456789" not in text


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_verbose_says_every_line_of_the_summary_and_the_details(
    tmp_path: Path, harness: str
) -> None:
    short = install(tmp_path / "a" / "home", harness)
    full = install(tmp_path / "b" / "home", harness, "--verbose")
    short = [line.replace(str(tmp_path / "a"), "HOME") for line in short]
    full = [line.replace(str(tmp_path / "b"), "HOME") for line in full]
    product, command = MEASURED[harness].product, MEASURED[harness].command
    assert short[-1] == f"{harness}: {next_step(product, command, verbose=False)}"
    assert full[-1] == f"{harness}: {next_step(product, command, verbose=True)}"
    assert short[:-1] == [line for line in full[:-1] if line in short]
    assert f"{harness}: {HEADING}" in full
    assert any("bytecode of" in line for line in full)


def test_h3_a_warning_is_said_without_verbose(tmp_path: Path) -> None:
    """A detail's warning form is no detail: a hooks' script whose Python cannot be told."""
    script = tmp_path / "harness-memory"
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    home = tmp_path / "home"
    root = tmp_path / "memory"
    root.mkdir()
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(script)]
    out = io.StringIO()
    assert main(["install", "codex", *flags, "--no-check"], environ={}, stdout=out) == 0
    assert "codex: WARNING: cannot tell which Python runs" in out.getvalue()
    assert "codex: bytecode not compiled: cannot tell which Python runs" in out.getvalue()


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_the_summary_ends_with_the_one_next_step_and_verbose_says_the_guard_gist(
    tmp_path: Path, harness: str
) -> None:
    """The install's last line is the one next step: start the harness in a project folder,
    then ``harness-memory status`` names that Session; without ``--verbose`` it names that flag
    (a command, not a checkout's path: a wheel user has none) for the rest. The rest holds
    the two sentences the summary said before (round 58): the write guard refuses a shell
    command whose text writes into another scope but does not fence what the programs it runs
    write, and a repository's settings can switch the hooks off unless installed with
    ``--managed``."""
    said = install(tmp_path / "a" / "home", harness)
    full = install(tmp_path / "b" / "home", harness, "--verbose")

    last = said[-1]
    command = MEASURED[harness].command
    assert f"start {MEASURED[harness].product} (`{command}`) in a project folder" in last
    assert "`harness-memory status` then names that Session" in last
    assert last.endswith("--verbose") and "README" not in last
    [unfenced] = [line for line in full if line == f"{harness}: {UNFENCED[harness]}"]
    assert all(words in unfenced for words in UNFENCED_SAYS[harness])
    how, also = SWITCHED_HOW.get(harness, ""), TURNED_BACK_ON.get(harness, "")
    switched = f"{harness}: {SWITCHED_OFF.format(harness=harness, how=how, also=also)}"
    assert full.count(switched) == 1 and switched not in said
    if harness == "claude-code":  # said once: a second line about a repository's settings
        # switching the hooks off and --managed repeated this one (newcomer review, round 59)
        assert [line for line in full if "--managed" in line] == [switched]
        assert '"disableAllHooks": true' in switched
    assert f"harness-memory install {harness} --managed" in switched
    if harness == "claude-code":  # what a repository may turn back on, said plainly (H-6)
        assert "turn Claude Code's own auto memory back on" in switched


def test_h3_a_dry_run_that_would_change_nothing_says_so_and_names_no_next_command(
    tmp_path: Path,
) -> None:
    """A dry run whose files are all as the install leaves them ended with ``next: … install
    …``, as if running it would do something; it says nothing would change instead."""
    home = tmp_path / "home"
    install(home, "claude-code")

    again = install(home, "claude-code", "--dry-run")

    assert all(not line.startswith("next:") for line in again), again
    assert again[-1] == NOTHING_TO_CHANGE
    first = install(tmp_path / "fresh" / "home", "claude-code", "--dry-run")
    assert first[-1].startswith("next: ") and " install claude-code " in first[-1]
